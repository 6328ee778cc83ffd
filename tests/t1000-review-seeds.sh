#!/usr/bin/env bash
test_description='review extract on the seed threads (DESIGN.md §5)'
. "$(dirname "$0")/lib.sh"

SEEDS=$SRC_DIR/tests/t0001
command -v jq >/dev/null && test_set_prereq JQ
SKIP_REASON='jq is needed to compare the JSON'

extract() {
	kseries review extract "$SEEDS/$1.mbox" --json >out.json &&
	jq -r -f "$FIXTURES/project.jq" out.json
}

for seed in seed-000-binder-alloc-spinlock-v1 seed-001-binder-defer-complete-v2 \
	    seed-003-rtmutex-wake-check-v1 seed-004-binder-large-handles-v1; do
	test_expect_success JQ "$seed: messages, patches, comments, trailers" "
		extract $seed >actual &&
		test_cmp \"\$FIXTURES/$seed.expect\" actual
	"
done

test_expect_success JQ 'TF_DEFER_COMPLETE v2: the self-correction and both anchored comments' '
	extract seed-001-binder-defer-complete-v2 >actual &&
	grep -F "by=aliceryhl@google.com on=20260722-defer-complete-v2-1-3f2a9c1d5e7b@seeds.invalid inline drivers/android/binder/thread.rs:new:600" actual &&
	grep -F "by=cmllamas@google.com on=20260722-defer-complete-v2-1-3f2a9c1d5e7b@seeds.invalid inline drivers/android/binder/thread.rs:new:600" actual &&
	grep -F "by=cmllamas@google.com on=20260722-defer-complete-v2-1-3f2a9c1d5e7b@seeds.invalid inline drivers/android/binder/thread.rs:new:1438" actual &&
	jq -r ".comments[] | select(.line == 600) | .text" out.json >texts &&
	grep -F "thread_has_deferred_work = !inner.work_list.is_empty();" texts &&
	! grep -x "Alice" texts
'

# new-side line numbers of a file in a diff, counted independently (awk)
new_side_line() {
	awk -v file="$1" -v want="$2" '
		/^diff --git / { on = ($0 ~ (" b/" file "$")); next }
		on && /^@@ / { split($3, a, /[+,]/); n = a[2]; next }
		on && /^[ +]/ { if (n == want) { print substr($0, 2); exit } n++ }
	' "$3"
}

test_expect_success JQ 'the anchored lines are the ones the reviewers quoted' '
	new_side_line drivers/android/binder/thread.rs 600 \
		"$SEEDS/seed-001-binder-defer-complete-v2.mbox" >l600 &&
	grep -F "thread_has_deferred_work = inner.process_work_list;" l600 &&
	new_side_line drivers/android/binder/thread.rs 1438 \
		"$SEEDS/seed-001-binder-defer-complete-v2.mbox" >l1438 &&
	grep -F "inner.process_work_list |= info.flags & TF_DEFER_COMPLETE == 0;" l1438
'

test_expect_success JQ 'binder spinlock RFC: the race report is a general comment on the cover' '
	kseries review extract "$SEEDS/seed-000-binder-alloc-spinlock-v1.mbox" >out.json &&
	jq -e ".patches[] | select(.kind == \"cover\" and .message_id == \"20260805152751.2501-1-zhangbo56@seeds.invalid\")" out.json &&
	jq -r ".comments[] | select(.author_email == \"aliceryhl@google.com\") | [.kind, .patch_message_id] | @tsv" out.json >actual &&
	printf "general\t20260805152751.2501-1-zhangbo56@seeds.invalid\n" >expect &&
	test_cmp expect actual &&
	jq -r ".comments[] | select(.author_email == \"aliceryhl@google.com\") | .text" out.json |
		grep "This will not work due to the following race condition"
'

test_expect_success JQ 'PF_LARGE_HANDLES (QP, real headers): Reviewed-by for an absent 3/4' '
	kseries review extract "$SEEDS/seed-004-binder-large-handles-v1.mbox" >out.json &&
	jq -r ".trailers[] | [.kind, .person_email, .given_in, .scope, (.applies_to | join(\",\"))] | @tsv" out.json >actual &&
	printf "Reviewed-by\taliceryhl@google.com\tCAH5fLghRmYFLa-ag9vo4vv_P281jXGFfsDFyGq5pk5g0PUXtUA@mail.gmail.com\tpatch\t20240417191418.1341988-4-cmllamas@google.com\n" >expect &&
	test_cmp expect actual &&
	jq -e ".comments | length == 0" out.json
'

test_expect_success JQ 'rtmutex: only Mathieu'"'"'s own words, quoted review is not his' '
	kseries review extract "$SEEDS/seed-003-rtmutex-wake-check-v1.mbox" >out.json &&
	jq -r ".comments[] | .author_email" out.json | sort -u >authors &&
	echo mathieu.desnoyers@efficios.com >expect && test_cmp expect authors &&
	jq -r ".comments[].text" out.json >texts &&
	grep -F "Feedback on the commit message wording is welcome" texts &&
	grep -F "I definitely am, as stated in the cover letter." texts &&
	! grep -F "word soup" texts &&
	! grep -F "very verbose" texts &&
	! grep -F "Steven Rostedt wrote" texts &&
	# the Reviewed-by inside his proposed changelog names Steven: not a trailer
	jq -e ".trailers | length == 0" out.json
'

test_expect_success JQ 'rtmutex: the quoted changelog criticism is recovered, attributed to its writers' '
	kseries review extract "$SEEDS/seed-003-rtmutex-wake-check-v1.mbox" --quoted >out.json &&
	jq -r ".quoted[] | [.reply_message_id, .author_name, .author_email, .patch_message_id, .kind, .quoted_in] | @tsv" out.json >actual &&
	printf "%s\t%s\t%s\t%s\t%s\t%s\n" \
		20261107104312.GA-peterz-reply@seeds.invalid "Peter Zijlstra" peterz@infradead.org \
		20261106235927.1-mathieu.desnoyers@seeds.invalid general 0b6f1c2e-7d4a-4c1e-9a53-rtmutex-reply@seeds.invalid \
		20261107002927.rostedt-reply@seeds.invalid "Steven Rostedt" rostedt@goodmis.org \
		20261106235927.1-mathieu.desnoyers@seeds.invalid general 0b6f1c2e-7d4a-4c1e-9a53-rtmutex-reply@seeds.invalid >expect &&
	test_cmp expect actual &&
	jq -r ".quoted[0].text" out.json >peter &&
	printf "%s\n" "He definitely is. I can'"'"'t read the above, its word soup. Part of using" \
		"AI is making sure the Changelog is actually readable. This is not." >expect &&
	test_cmp expect peter &&
	jq -r ".quoted[1].text" out.json >steven &&
	echo "The above is very verbose. Are you starting to use AI? ;-)" >expect &&
	test_cmp expect steven &&
	# without --quoted the object is exactly the four arrays of §5
	kseries review extract "$SEEDS/seed-003-rtmutex-wake-check-v1.mbox" | jq -r "keys[]" >keys &&
	printf "%s\n" comments messages patches trailers >expect && test_cmp expect keys &&
	# and a thread whose quoted messages are all present recovers nothing
	kseries review extract "$SEEDS/seed-000-binder-alloc-spinlock-v1.mbox" --quoted |
		jq -e ".quoted | length == 0"
'

test_expect_success JQ 'the mbox can come from a pipe' '
	cat "$SEEDS/seed-004-binder-large-handles-v1.mbox" | kseries review extract - >pipe.json &&
	kseries review extract "$SEEDS/seed-004-binder-large-handles-v1.mbox" >file.json &&
	test_cmp file.json pipe.json
'

test_expect_success 'usage errors and a missing file' '
	test_expect_code 129 kseries review &&
	test_expect_code 129 kseries review extract &&
	test_expect_code 129 kseries review frobnicate x &&
	test_expect_code 128 kseries review extract does-not-exist.mbox
'

test_done
