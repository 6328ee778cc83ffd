#!/usr/bin/env bash
test_description='feedback ingest, carry to the next version, resolve'
. "$(dirname "$0")/lib.sh"

SEED=$SRC_DIR/tests/t0001/seed-001-binder-defer-complete-v2.mbox
MAILERS=$SRC_DIR/tests/t1010/t1010-mailers.mbox
command -v jq >/dev/null && test_set_prereq JQ
SKIP_REASON='jq is needed to read the JSON'

# A store with v2 of TF_DEFER_COMPLETE as posted (seed 001) and a v3 that
# fixes the two lines Carlos pointed at and drops the uapi header change.
test_expect_success 'a store with v2 and v3' '
	d=store/series/defer && mkdir -p $d/v2 $d/v3 &&
	git config -f $d/series.conf series.title "rust_binder: add TF_DEFER_COMPLETE flag" &&
	git config -f $d/series.conf series.base v7.2.13 &&
	git config -f $d/series.conf series.prefix PATCH &&
	awk "NR > 1 && /^From mboxrd@z/ { exit } { print }" "$SEED" >$d/v2/0001-rust_binder-add-TF_DEFER_COMPLETE.patch &&
	sed -e "s/thread_has_deferred_work = inner.process_work_list;/thread_has_deferred_work = !inner.work_list.is_empty();/" \
	    -e "s/inner.process_work_list |= info.flags & TF_DEFER_COMPLETE == 0;/if info.flags \& TF_DEFER_COMPLETE == 0 { inner.process_work_list = true; }/" \
	    -e "s/^Subject: \[PATCH v2\]/Subject: [PATCH v3]/" \
	    -e "s/^Message-ID: .*/Message-ID: <v3@kseries.invalid>/" \
	    $d/v2/0001-*.patch |
	awk "/^diff --git a\/include/ { skip = 1 } skip && /^$/ { skip = 0 } !skip" \
	    >$d/v3/0001-rust_binder-add-TF_DEFER_COMPLETE.patch &&
	! grep -q "TF_DEFER_COMPLETE == 0;" $d/v3/0001-*.patch &&
	! grep -q "^diff --git a/include" $d/v3/0001-*.patch &&
	grep -q "^diff --git a/include" $d/v2/0001-*.patch
'

test_expect_success 'ingest writes one record per comment and trailer' '
	cd store &&
	kseries feedback ingest defer "$SEED" >out &&
	echo "defer: 4 feedback record(s) written, 0 unchanged" >expect &&
	test_cmp expect out &&
	kseries feedback ingest defer "$MAILERS" >out &&
	echo "defer: 12 feedback record(s) written, 0 unchanged" >expect &&
	test_cmp expect out &&
	ls series/defer/feedback >ids && test_line_count = 16 ids
'

test_expect_success 're-ingest is idempotent' '
	cd store &&
	tar cf before.tar series &&
	kseries feedback ingest defer "$MAILERS" >out &&
	echo "defer: 0 feedback record(s) written, 12 unchanged" >expect &&
	test_cmp expect out &&
	tar cf after.tar series && cmp before.tar after.tar
'

test_expect_success 'records are plain text with mail-like headers' '
	cd store &&
	f=$(grep -l "^Message-Id: <aKCdEfGh-alice-sashiko@seeds.invalid>" series/defer/feedback/*) &&
	sed -n "/^$/q;p" "$f" | cut -d: -f1 >names &&
	printf "%s\n" Id Kind Version Message-Id Index From Date Patch Patch-Index \
		Patch-Kind Patch-Subject File Side Line Quote >expect &&
	test_cmp expect names &&
	grep -x "Line: 600" "$f" && grep -x "Side: new" "$f" &&
	grep -x "File: drivers/android/binder/thread.rs" "$f" &&
	grep -x "Version: 2" "$f" &&
	grep -Fx "	thread_has_deferred_work = !inner.work_list.is_empty();" "$f" &&
	test "$(basename "$f")" = "$(sed -n "s/^Id: //p" "$f")"
'

status_of() {	# MESSAGE-ID INDEX: the status at the version asked
	jq -r --arg id "<$1>" --argjson n "$2" \
		'.[] | select(.message_id == $id and .kind == "comment" and .index == $n) | .status' out.json
}

test_expect_success JQ 'at v2 everything is open' '
	cd store &&
	kseries feedback defer@v2 --json >out.json &&
	jq -r ".[].status" out.json | sort -u >actual &&
	echo open >expect && test_cmp expect actual
'

test_expect_success JQ 'at v3: changed lines addressed, unchanged open, dropped file outdated' '
	cd store &&
	kseries feedback defer --json >out.json &&
	test "$(jq length out.json)" = 16 &&
	# the lines Carlos and Alice pointed at changed
	test "$(status_of aKCdEfGh-alice-sashiko@seeds.invalid 0)" = addressed &&
	test "$(status_of aKCxYz12-cmllamas-review@seeds.invalid 1)" = addressed &&
	test "$(status_of aKCxYz12-cmllamas-review@seeds.invalid 2)" = addressed &&
	test "$(status_of 20260723090000.GA1234@example.de 0)" = addressed &&
	# lines that did not change
	test "$(status_of 3c1f0a2b-tb-brauner@kernel.org 0)" = open &&
	test "$(status_of SN6PR02MB1234ABCD@SN6PR02MB1234.namprd02.prod.outlook.com 0)" = open &&
	test "$(status_of 2026072312-attach-gregkh@linuxfoundation.org 0)" = open &&
	test "$(status_of aKD00000-noise@google.com 0)" = open &&
	# the uapi header left the patch
	test "$(status_of CAFqZXNuGmail0001@mail.gmail.com 0)" = outdated &&
	test "$(status_of CAFqZXNuGmail0001@mail.gmail.com 1)" = outdated &&
	jq -r ".[] | select(.kind == \"trailer\") | \"\(.trailer) \(.status)\"" out.json >actual &&
	printf "%s\n" "Tested-by: Todd Kjos <tkjos@android.com> open" \
		"Reviewed-by: Arve Hjønnevåg <arve@android.com> open" \
		"Nacked-by: Carlos Llamas <cmllamas@google.com> open" | sort >expect &&
	sort actual >actual.sorted && test_cmp expect actual.sorted
'

test_expect_success 'the text listing' '
	cd store &&
	kseries feedback defer >out &&
	test_line_count = 16 out &&
	grep -E "^[0-9a-f]{12} addressed  v2 \[0\] drivers/android/binder/thread.rs:600 Alice Ryhl <aliceryhl@google.com>: Oops" out &&
	grep -E "^[0-9a-f]{12} outdated   v2 \[0\] include/uapi/linux/android/binder.h:299 " out &&
	grep -E "drivers/android/binder/defs.rs:80 \(old\) Christian Brauner" out
'

test_expect_success JQ 'resolve overrides, and the override survives re-ingest' '
	cd store &&
	kseries feedback defer --json >out.json &&
	id=$(jq -r ".[] | select(.message_id == \"<aKD00000-noise@google.com>\" and .kind == \"comment\") | .id" out.json) &&
	kseries feedback resolve $id --status wontfix --note "process_work_list is needed for !wait" >out &&
	grep "defer $id: wontfix" out &&
	kseries feedback ingest defer "$MAILERS" >out &&
	grep "0 feedback record(s) written" out &&
	grep -x "Status: wontfix" series/defer/feedback/$id &&
	grep -x "Note: process_work_list is needed for !wait" series/defer/feedback/$id &&
	kseries feedback defer --json >out.json &&
	test "$(status_of aKD00000-noise@google.com 0)" = wontfix &&
	kseries feedback defer@v2 --json >out.json &&
	test "$(status_of aKD00000-noise@google.com 0)" = wontfix &&
	kseries feedback defer >out && grep "^$id wontfix\*" out
'

test_expect_success 'resolve refuses bad input' '
	cd store &&
	test_expect_code 129 kseries feedback resolve 0123456789ab --status fixed &&
	test_must_fail kseries feedback resolve 0123456789ab --status open &&
	test_must_fail kseries feedback resolve ../../etc --status open &&
	test_expect_code 129 kseries feedback resolve &&
	test_must_fail kseries feedback nosuch &&
	test_must_fail kseries feedback ingest ../x "$SEED"
'

# A tiny base tree (KSERIES_TREE) lets both versions apply, so that the
# pairing comes from `git range-diff`: v2 reorders the patches and renames
# them, which subject pairing alone cannot follow.
test_expect_success JQ 'with a base tree, versions are paired by git range-diff' '
	git init -q tree && (
		cd tree &&
		mkdir k && printf "int a;\n" >k/a.c && printf "int b;\n" >k/b.c &&
		git add k && git commit -q -m base && git tag v7.2.13 &&
		printf "int a;\nint foo(void);\n" >k/a.c &&
		git commit -q -am "k: add foo" &&
		printf "int b;\nint bar(void);\nint baz(void);\n" >k/b.c &&
		git commit -q -am "k: add bar" &&
		git format-patch -q --thread=shallow -o ../v1 v7.2.13 &&
		git checkout -q -b v2 v7.2.13 &&
		printf "int b;\nint bar(void);\nint baz(void);\n" >k/b.c &&
		git commit -q -am "k: introduce the bar helpers" &&
		printf "int a;\nlong foo(void);\n" >k/a.c &&
		git commit -q -am "k: declare foo" &&
		git format-patch -q -o ../v2 v7.2.13
	) &&
	d=rd/series/rd && mkdir -p $d/v1 $d/v2 &&
	git config -f $d/series.conf series.base v7.2.13 &&
	cp v1/*.patch $d/v1/ && cp v2/*.patch $d/v2/ &&
	mid=$(sed -n "s/^Message-I[dD]: <\(.*\)>/\1/p" $d/v1/0002-*.patch) &&
	test -n "$mid" &&
	{
		echo "From r@x Thu Jan  1 00:00:00 1970"
		echo "From: Rev <rev@example.org>"
		echo "Subject: Re: [PATCH 2/2] k: add bar"
		echo "Message-ID: <rd-review@x>"
		echo "In-Reply-To: <$mid>"
		echo
		echo "> +int baz(void);"
		echo
		echo "Is baz needed?"
	} >review.mbox &&
	export KSERIES_TREE=$PWD/tree KSERIES_CACHE=$PWD/cache &&
	cd rd &&
	kseries feedback ingest rd ../review.mbox &&
	kseries feedback rd@v2 --json >out.json &&
	jq -r ".[] | \"\(.status) \(.paired_patch_index) \(.file):\(.line)\"" out.json >actual &&
	echo "open 1 k/b.c:3" >expect &&
	test_cmp expect actual &&
	cat ../cache/results/feedback-range-diff/* >pairs &&
	grep -x "2:  x = 1:  x" pairs &&
	# without range-diff the renamed, reordered patch is still found by
	# its lines, and the result is the same
	KSERIES_NO_RANGE_DIFF=1 kseries feedback rd@v2 --json >out2.json &&
	jq -r ".[] | \"\(.status) \(.paired_patch_index) \(.file):\(.line)\"" out2.json >actual2 &&
	test_cmp expect actual2
'

RT=$SRC_DIR/series/rtmutex-wake-check
test -f "$RT/v1/0001-locking-rtmutex-Stop-spinning-on-the-owner-when-the-.patch" &&
	test -d "$RT/v2" && test_set_prereq RTMUTEX_STORE
SKIP_REASON='series/rtmutex-wake-check with v1 and v2 patches'

test_expect_success JQ,RTMUTEX_STORE 'rtmutex: the quoted criticism is tracked, and addressed by v2' '
	mkdir -p rt/series && cp -r "$RT" rt/series/ && rm -rf rt/series/rtmutex-wake-check/feedback &&
	cd rt &&
	kseries feedback ingest rtmutex-wake-check "$SRC_DIR/tests/t0001/seed-003-rtmutex-wake-check-v1.mbox" >out &&
	grep "4 feedback record(s) written" out &&
	kseries feedback rtmutex-wake-check@v1 --json >v1.json &&
	jq -r ".[] | \"\(.status) \(.from)\"" v1.json | sort >actual &&
	printf "%s\n" "open Mathieu Desnoyers <mathieu.desnoyers@efficios.com>" \
		"open Mathieu Desnoyers <mathieu.desnoyers@efficios.com>" \
		"open Peter Zijlstra <peterz@infradead.org>" \
		"open Steven Rostedt <rostedt@goodmis.org>" >expect &&
	test_cmp expect actual &&
	kseries feedback rtmutex-wake-check@v2 --json >v2.json &&
	jq -r ".[] | select(.quoted_in != null) | \"\(.status) \(.paired_patch_index) \(.from)\"" v2.json | sort >actual &&
	printf "%s\n" "addressed 1 Peter Zijlstra <peterz@infradead.org>" \
		"addressed 1 Steven Rostedt <rostedt@goodmis.org>" >expect &&
	test_cmp expect actual
'

test_done
