#!/usr/bin/env bash
test_description='the store transaction: one writer at a time, stale staging removed, nothing half-made'
. "$(dirname "$0")/lib.sh"

SEEDS=$SRC_DIR/tests/t0001
V1=$SEEDS/seed-000-binder-alloc-spinlock-v1.mbox
REVIEW=$SEEDS/seed-001-binder-defer-complete-v2.mbox
export KSERIES_NO_RANGE_DIFF=1

snapshot() { (cd "$1" && find series -path '*/.kseries.lock' -prune -o -type f -print | sort | xargs -r sha1sum); }

# hold_lock DIR SECONDS: holds DIR's store lock that long in the
# background, then touches DIR/released; returns once the lock is held.
hold_lock() {
	rm -f "$1/locked" "$1/released"
	(flock 9 && touch "$1/locked" && sleep "$2" && touch "$1/released") \
		9>"$1/series/.kseries.lock" &
	while ! test -e "$1/locked"; do sleep 0.05; done
}

test_expect_success 'what killed runs left as staging goes at the next import' '
	mkdir -p st/series && (cd st && kseries import s "$V1" >/dev/null) &&
	mkdir -p st/series/.import-AbC123/v1 st/series/.ingest-XyZ789/feedback &&
	echo torn >st/series/.import-AbC123/v1/0001-x.patch &&
	echo torn >st/series/.ingest-XyZ789/feedback/0123456789ab &&
	mkdir -p st/series/s/.import-Old456 && echo torn >st/series/s/.import-Old456/f &&
	(cd st && kseries import s "$V1" >../out) &&
	cat out && grep "^s v1: cover, 1 patch, 0 new replies$" out &&
	test -z "$(find st/series -name ".import-*" -o -name ".ingest-*")"
'

test_expect_success 'a second import of the same mbox changes nothing and leaves nothing' '
	snapshot st >before &&
	(cd st && kseries import s "$V1" >/dev/null) &&
	snapshot st >after && test_cmp before after &&
	test -z "$(find st/series -name ".import-*")"
'

test_expect_success 'replies already in a thread: no empty version directory appears' '
	awk "NR > 1 && /^From / { p = 1 } p" "$V1" >replies.mbox &&
	grep -q "^Subject: Re:" replies.mbox &&
	(cd st && kseries import s ../replies.mbox --version 2 >../out) &&
	cat out && grep "^s v2: 0 patches, 0 new replies$" out &&
	test ! -e st/series/s/v2
'

test_expect_success 'a refused import leaves no staging' '
	printf "From x\nSubject: [PATCH 1/2] a\nMessage-ID: <a@x>\n\ndiff --git a/f b/f\n--- a/f\n+++ b/f\n@@ -1 +1 @@\n-a\n+b\n" >half.mbox &&
	snapshot st >before &&
	(cd st && test_must_fail kseries import t ../half.mbox 2>err) &&
	grep "is incomplete: missing 2/2" st/err &&
	snapshot st >after && test_cmp before after &&
	test -z "$(find st/series -name ".import-*")" && test ! -e st/series/t
'

test_expect_success 'the first ingest makes feedback/ whole, through no staging left' '
	d=st/series/defer && mkdir -p $d/v2 &&
	git config -f $d/series.conf series.title "rust_binder: add TF_DEFER_COMPLETE flag" &&
	awk "NR > 1 && /^From mboxrd@z/ { exit } { print }" "$REVIEW" >$d/v2/0001-rust_binder-add-TF_DEFER_COMPLETE.patch &&
	(cd st && kseries feedback ingest defer "$REVIEW" >out) &&
	grep "^defer: 4 feedback record(s) written, 0 unchanged$" st/out &&
	test "$(ls $d/feedback | wc -l)" = 4 &&
	test -z "$(find st/series -name ".ingest-*")"
'

test_expect_success 'ingest waits for the store lock another writer holds' '
	rm -rf st/series/defer/feedback &&
	hold_lock st 3 &&
	(cd st && kseries feedback ingest defer "$REVIEW" >out) &&
	test -e st/released &&
	grep "^defer: 4 feedback record(s) written, 0 unchanged$" st/out &&
	wait
'

test_expect_success 'import waits for the store lock too' '
	hold_lock st 2 &&
	(cd st && kseries import u "$V1" >/dev/null) &&
	test -e st/released && test -f st/series/u/series.conf &&
	wait
'

test_expect_success 'a re-import and a re-ingest that change nothing touch nothing' '
	touch -d "1 hour ago" st/series st/series/s st/series/s/v1 st/series/defer &&
	stat -c "%n %Y" st/series st/series/s st/series/s/v1 st/series/defer >before &&
	(cd st && kseries import s "$V1" >../out) &&
	grep "^s v1: cover, 1 patch, 0 new replies$" out &&
	(cd st && kseries feedback ingest defer "$REVIEW" >../out) &&
	grep "^defer: 0 feedback record(s) written, 4 unchanged$" out &&
	stat -c "%n %Y" st/series st/series/s st/series/s/v1 st/series/defer >after &&
	test_cmp before after
'

test_done
