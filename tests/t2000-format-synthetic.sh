#!/bin/bash
# kseries format on a small synthetic base tree (no kernel tree needed):
# a one-patch series, a multi-patch series with cover, a v2 threaded under
# v1, trailers from review, round trips through git am, bad input.
test_description='kseries format: mails as git format-patch writes them'
. "$(dirname "$0")/lib.sh"

test_synthetic_env
# the sender (a scratch HOME's own identity) writes these patches
export GIT_AUTHOR_NAME="Sam Sender" GIT_AUTHOR_EMAIL=sam@example.org
test_sender
SOB='Signed-off-by: Sam Sender <sam@example.org>'

# make_version NAME N PREFIX COVER: format-patch the work repo's
# v7.2.13..HEAD into the store as version N of NAME.
make_version() {
	local dir="$STORE/series/$1/v$2" pfx="$3"
	mkdir -p "$dir"
	[ "$2" -gt 1 ] && pfx="$pfx v$2"
	git -C "$TRASH/work" format-patch -q ${4:+--cover-letter} \
		--subject-prefix="$pfx" --base=v7.2.13 -o "$dir" v7.2.13..HEAD
}

# am_check DIR: git am DIR's patches onto v7.2.13 in a fresh clone and
# compare messages and patch-ids with the work repo's v7.2.13..HEAD.
am_check() {
	local d
	d=$(cd "$1" && pwd)
	rm -rf "$TRASH/am"
	git clone -q "$BASE" "$TRASH/am"
	git -C "$TRASH/am" checkout -q --detach v7.2.13
	git -C "$TRASH/am" am -q $(ls "$d"/*.patch | grep -v 0000-cover-letter)
	git -C "$TRASH/work" log --reverse --format='%an <%ae> %ad%n%B' v7.2.13..HEAD >msg.want
	git -C "$TRASH/am" log --reverse --format='%an <%ae> %ad%n%B' v7.2.13..HEAD >msg.got
	test_cmp msg.want msg.got
	(cd "$TRASH/work" && git log -p --reverse v7.2.13..HEAD | git patch-id --stable | cut -d' ' -f1) >pid.want
	(cd "$TRASH/am" && git log -p --reverse v7.2.13..HEAD | git patch-id --stable | cut -d' ' -f1) >pid.got
	test_cmp pid.want pid.got
	test_line_count = "$(ls "$1"/*.patch | grep -vc 0000-cover-letter)" pid.got
}

test_expect_success 'setup: a base tree with tag v7.2.13 and a store' '
	git init -q -b master "$BASE" &&
	test_commit_file "$BASE" drivers/android/binder.c "int binder;" "Linux 7.2.13" &&
	test_commit_file "$BASE" kernel/locking/rtmutex.c "int rtmutex;" "locking" &&
	test_commit_file "$BASE" tools/testing/selftests/futex/functional/Makefile "all:" "selftests" &&
	git -C "$BASE" tag v7.2.13 &&
	mkdir -p "$STORE/series" &&
	cp -R "$SRC_DIR/MAINTAINERS-notes" "$STORE/" &&
	git clone -q "$BASE" "$TRASH/work"
'

test_expect_success 'a one-patch series: no cover, base-commit, change-id, recipients' '
	git -C "$TRASH/work" checkout -q -b one v7.2.13 &&
	test_commit_file "$TRASH/work" drivers/android/binder.c "int one;" "binder: add one" &&
	make_version one 1 PATCH &&
	git config -f "$STORE/series/one/series.conf" series.title "binder: add one" &&
	git config -f "$STORE/series/one/series.conf" series.change-id 20260101-one-0123456789ab &&
	git config -f "$STORE/series/one/series.conf" series.prefix PATCH &&
	kseries format one@v1 -o out1 >written &&
	ls out1 >files &&
	echo 0001-binder-add-one.patch >expect &&
	test_cmp expect files &&
	echo "$TRASH/out1/0001-binder-add-one.patch" >expect &&
	sed "s|^out1|$TRASH/out1|" written >written.abs &&
	test_cmp expect written.abs &&
	grep "^Subject: \[PATCH\] binder: add one$" out1/0001-binder-add-one.patch &&
	base=$(git -C "$BASE" rev-parse v7.2.13) &&
	grep "^base-commit: $base$" out1/0001-binder-add-one.patch &&
	sed -n "/^base-commit: /{n;p}" out1/0001-binder-add-one.patch >cid &&
	echo "change-id: 20260101-one-0123456789ab" >expect &&
	test_cmp expect cid &&
	grep "^To: Greg Kroah-Hartman <gregkh@linuxfoundation.org>,$" out1/*.patch &&
	grep "^Cc: linux-kernel@vger.kernel.org" out1/*.patch
'

test_expect_success 'the one-patch series round-trips through git am' '
	am_check out1
'

test_expect_success 'the user'"'"'s format.* and diff.* settings do not change the mails' '
	git config --global format.signOff true &&
	git config --global format.suffix .txt &&
	git config --global diff.noprefix true &&
	git config --global diff.relative true &&
	kseries format one@v1 -o out1b >written &&
	git config --global --remove-section format &&
	git config --global --remove-section diff &&
	ls out1b >files &&
	echo 0001-binder-add-one.patch >expect &&
	test_cmp expect files &&
	grep "^diff --git a/drivers/android/binder.c b/drivers/android/binder.c$" out1b/*.patch &&
	am_check out1b
'

test_expect_success 'the same bytes as git format-patch, apart from what we add' '
	grep -v "^\(To\|Cc\|Message-Id\|change-id\):\|^    " out1/0001-binder-add-one.patch >got &&
	grep -v "^From [0-9a-f]* Mon Sep" got >got.1 &&
	grep -v "^From [0-9a-f]* Mon Sep" "$STORE/series/one/v1/0001-binder-add-one.patch" >want &&
	test_cmp want got.1
'

test_expect_success 'a multi-patch series with a cover letter' '
	git -C "$TRASH/work" checkout -q -b multi v7.2.13 &&
	test_commit_file "$TRASH/work" kernel/locking/rtmutex.c "int a;" "locking/rtmutex: Add a" &&
	test_commit_file "$TRASH/work" kernel/locking/rtmutex.c "int b;" "locking/rtmutex: Add b" &&
	test_commit_file "$TRASH/work" tools/testing/selftests/futex/functional/Makefile "t:" "selftests/futex: Add t" &&
	make_version multi 1 "RFC PATCH" cover &&
	cover="$STORE/series/multi/v1/0000-cover-letter.patch" &&
	sed -i -e "s/\*\*\* SUBJECT HERE \*\*\*/locking\/rtmutex: Add a and b/" \
		-e "s/\*\*\* BLURB HERE \*\*\*/This series adds a and b, with a test./" "$cover" &&
	conf="$STORE/series/multi/series.conf" &&
	git config -f "$conf" series.title "locking/rtmutex: Add a and b" &&
	git config -f "$conf" series.change-id 20260101-multi-0123456789ab &&
	git config -f "$conf" series.prefix "RFC PATCH" &&
	git config -f "$conf" version.1.message-id "cover-v1@example.org" &&
	kseries format multi -o out2 >written &&
	test_line_count = 4 written &&
	grep -h "^Subject:" out2/*.patch >subjects &&
	cat >expect <<-\EOF &&
	Subject: [PATCH RFC 0/3] locking/rtmutex: Add a and b
	Subject: [PATCH RFC 1/3] locking/rtmutex: Add a
	Subject: [PATCH RFC 2/3] locking/rtmutex: Add b
	Subject: [PATCH RFC 3/3] selftests/futex: Add t
	EOF
	test_cmp expect subjects &&
	grep "^This series adds a and b, with a test.$" out2/0000-cover-letter.patch &&
	grep "^change-id: 20260101-multi-0123456789ab$" out2/0000-cover-letter.patch &&
	grep "^base-commit: " out2/0000-cover-letter.patch &&
	! grep "^change-id: " out2/0001-*.patch &&
	sed -n "/^To:/,/^Cc:/p" out2/0000-cover-letter.patch >to &&
	grep "Peter Zijlstra <peterz@infradead.org>" to &&
	grep "Thomas Gleixner <tglx@kernel.org>" out2/0000-cover-letter.patch &&
	cid=$(sed -n "s/^Message-Id: //p" out2/0000-cover-letter.patch) &&
	for f in out2/000[123]-*.patch; do
		grep "^In-Reply-To: $cid$" "$f" || exit 1
	done &&
	! grep "^In-Reply-To:" out2/0000-cover-letter.patch
'

test_expect_success 'the multi-patch series round-trips through git am' '
	am_check out2
'

test_expect_success 'v2 threads under v1 and links to it' '
	test_commit_file "$TRASH/work" kernel/locking/rtmutex.c "int c;" "locking/rtmutex: Add c" &&
	make_version multi 2 "RFC PATCH" cover &&
	kseries format multi@v2 -o out3 >written &&
	test_line_count = 5 written &&
	grep "^Subject: \[PATCH RFC v2 0/4\] locking/rtmutex: Add a and b$" out3/0000-cover-letter.patch &&
	grep "^In-Reply-To: <cover-v1@example.org>$" out3/0000-cover-letter.patch &&
	grep "^References: <cover-v1@example.org>$" out3/0000-cover-letter.patch &&
	grep "^Changes in v2:$" out3/0000-cover-letter.patch &&
	grep "^- Link to v1: https://lore.kernel.org/r/cover-v1@example.org$" out3/0000-cover-letter.patch &&
	am_check out3
'

test_expect_success 'per-patch notes below --- are carried over' '
	p2=$(ls "$STORE/series/multi/v2"/0002-*.patch) &&
	sed -i "0,/^---\$/s//---\nv2: renamed b (Rev)\n---/" "$p2" &&
	grep -c "^---$" "$p2" >n && echo 2 >expect && test_cmp expect n &&
	kseries format multi@v2 -o out3b >/dev/null &&
	sed -n "/^---$/,/^ kernel/p" out3b/0002-*.patch >got &&
	printf "%s\n" --- "v2: renamed b (Rev)" --- >expect &&
	sed -n 1,3p got >got3 &&
	test_cmp expect got3 &&
	! grep "renamed b" out3b/0001-*.patch out3b/0003-*.patch &&
	am_check out3b
'

# record ID KIND VERSION PATCH-INDEX SCOPE TRAILER STATUS TEXT
record() {
	mkdir -p "$STORE/series/$SERIES/feedback"
	{
		echo "Id: $1"
		echo "Kind: $2"
		echo "Version: $3"
		echo "Message-Id: <reply-$1@example.invalid>"
		echo "Index: 0"
		echo "From: Rev Iewer <rev@example.invalid>"
		echo "Date: 2026-01-02T00:00:00+00:00"
		echo "Patch-Index: $4"
		[ -n "$5" ] && echo "Scope: $5"
		[ -n "$6" ] && echo "Trailer: $6"
		[ -n "$7" ] && echo "Status: $7"
		echo
		echo "$8"
	} >"$STORE/series/$SERIES/feedback/$1"
}

test_expect_success 'trailers from review: after existing ones, own sign-off last, no duplicates' '
	SERIES=multi &&
	record 000000000001 trailer 1 2 patch "Reviewed-by: Rev Iewer <rev@example.invalid>" "" "" &&
	record 000000000002 trailer 1 0 series "Acked-by: Ack Er <ack@example.invalid>" "" "" &&
	record 000000000003 trailer 1 1 patch "Nacked-by: No Body <no@example.invalid>" "" "" &&
	record 000000000004 comment 1 1 "" "" addressed "Please rename a to something longer." &&
	kseries format multi@v2 -o out4 -v 2>err &&
	sed -n "/^$/,/^---$/p" out4/0002-*.patch | grep -E "^[A-Za-z-]+: " >trailers &&
	cat >expect <<-EOF &&
	Reviewed-by: Rev Iewer <rev@example.invalid>
	Acked-by: Ack Er <ack@example.invalid>
	$SOB
	EOF
	test_cmp expect trailers &&
	sed -n "/^$/,/^---$/p" out4/0001-*.patch | grep -E "^[A-Za-z-]+: " >trailers1 &&
	printf "%s\n" "Acked-by: Ack Er <ack@example.invalid>" "$SOB" >expect1 &&
	test_cmp expect1 trailers1 &&
	! grep -i "nacked-by" out4/*.patch &&
	grep "not applied: Nacked-by" err &&
	grep "address Rev Iewer.s comment \"Please rename a to something longer.\"" out4/0000-cover-letter.patch &&
	grep "^  https://lore.kernel.org/r/reply-000000000004@example.invalid$" out4/0000-cover-letter.patch &&
	grep "collect Reviewed-by from Rev Iewer" out4/0000-cover-letter.patch
'

test_expect_success 'trailers already present are not added twice' '
	SERIES=multi &&
	record 000000000005 trailer 2 3 patch "$SOB" "" "" &&
	record 000000000006 trailer 2 3 patch "acked-by: ack er <ACK@example.invalid>" "" "" &&
	kseries format multi@v2 -o out5 &&
	sed -n "/^$/,/^---$/p" out5/0003-*.patch | grep -ciE "^(acked-by|signed-off-by): " >n &&
	echo 2 >expect &&
	test_cmp expect n
'

test_expect_success 'a version that does not exist: one error line, nothing written' '
	test_must_fail kseries format multi@v9 -o out6 2>err &&
	test_line_count = 1 err &&
	grep "no version v9" err &&
	test_path_is_missing() { ! test -e "$1"; } &&
	test_path_is_missing out6
'

test_expect_success 'an output directory inside series/ is refused' '
	test_must_fail kseries format multi -o "$STORE/series/multi/v2" 2>err &&
	test_line_count = 1 err &&
	grep "inside the series store" err &&
	test_must_fail kseries format multi -o "$STORE/series/new-dir" 2>err &&
	! test -e "$STORE/series/new-dir"
'

for bad in '$(touch pwned)' 'a `id` b' 'x; rm -rf y'; do
	test_expect_success "a subject holding shell syntax is inert text: $bad" '
		git -C "$TRASH/work" checkout -q -B bad v7.2.13 &&
		test_commit_file "$TRASH/work" drivers/android/binder.c "int bad;" "binder: $bad" &&
		rm -rf "$STORE/series/bad" out7 &&
		make_version bad 1 PATCH &&
		git config -f "$STORE/series/bad/series.conf" series.title "binder: bad" &&
		kseries format bad -o out7 &&
		grep -F "Subject: [PATCH] binder: $bad" out7/0001-*.patch &&
		! test -e pwned
	'
done

test_expect_success 'a series title holding shell syntax is inert text' '
	git config -f "$STORE/series/one/series.conf" series.title "binder: \$(id)" &&
	kseries format one --cover-letter -o out8 &&
	grep -F "Subject: [PATCH 0/1] binder: \$(id)" out8/0000-cover-letter.patch &&
	git config -f "$STORE/series/one/series.conf" series.title "binder: add one"
'

test_expect_success 'kseries check --stage mail: the formatted mails of a version' '
	kseries check multi@v2 --stage mail >out 2>err || true &&
	grep "mail" out &&
	grep "mails to" out &&
	git -C "$TRASH/work" checkout -q -B prefix v7.2.13 &&
	test_commit_file "$TRASH/work" drivers/android/binder.c "int p;" "binder_alloc: wrong prefix" &&
	make_version prefix 1 PATCH &&
	git config -f "$STORE/series/prefix/series.conf" series.title "binder_alloc: wrong prefix" &&
	{ kseries check prefix --stage mail --json >json || true; } &&
	grep "subject prefix is not one its maintainers expect (binder:)" json
'

test_expect_success 'usage errors exit 129' '
	test_expect_code 129 kseries format &&
	test_expect_code 129 kseries format one
'

if unshare -n true 2>/dev/null; then
	test_set_prereq UNSHARE
else
	SKIP_REASON='unshare -n is not permitted here'
fi

test_expect_success UNSHARE 'send --dry-run goes through git send-email and sends nothing' '
	unshare -n "$KSERIES" send multi@v2 --dry-run </dev/null >out 2>&1 &&
	grep "^Dry-OK\|^Result: OK" out &&
	grep "^RCPT TO:<peterz@infradead.org>" out &&
	grep "^Subject: \[PATCH RFC v2 0/4\]" out
'

test_expect_success 'send without --dry-run is refused under KSERIES_NO_SEND' '
	test_must_fail kseries send multi@v2 </dev/null 2>err &&
	grep "only --dry-run" err
'

test_done
