#!/usr/bin/env bash
test_description='kill -9 at random points of import leaves a consistent store'
. "$(dirname "$0")/lib.sh"

SEEDS=$SRC_DIR/tests/t0001

snapshot() { (cd "$1" && find series -path '*/.kseries.lock' -prune -o -type f -print | sort | xargs sha1sum); }

# consistent DIR: every series there is whole: a readable series.conf,
# and each version's patches and thread parse; no staging left visible
# as a series.
consistent() {
	local s
	for s in "$1"/series/*/; do
		[ -d "$s" ] || continue
		git config -f "$s/series.conf" --list >/dev/null || return 1
		(cd "$1" && kseries show "$(basename "$s")" >/dev/null) || return 1
	done
}

test_expect_success 'reference store' '
	mkdir -p ref/series && cd ref &&
	kseries import binder-alloc-spinlock "$SEEDS/seed-000-binder-alloc-spinlock-v1.mbox" >/dev/null &&
	kseries import binder-defer-complete "$SEEDS/seed-001-binder-defer-complete-v2.mbox" >/dev/null &&
	snapshot . >../ref.sum
'

test_expect_success 'kill -9 during import, 40 times: consistent, and a re-run finishes the job' '
	for i in $(seq 1 40); do
		rm -rf st && mkdir -p st/series &&
		(cd st &&
		 kill_at_random 250 "$KSERIES" import binder-alloc-spinlock "$SEEDS/seed-000-binder-alloc-spinlock-v1.mbox") &&
		consistent st || { echo "inconsistent after kill $i"; exit 1; }
		(cd st &&
		 kseries import binder-alloc-spinlock "$SEEDS/seed-000-binder-alloc-spinlock-v1.mbox" >/dev/null &&
		 kseries import binder-defer-complete "$SEEDS/seed-001-binder-defer-complete-v2.mbox" >/dev/null) &&
		snapshot st >got.sum &&
		test_cmp ref.sum got.sum || { echo "differs after kill $i"; exit 1; }
		test -z "$(find st/series -name ".import-*")" || exit 1
	done
'
say "import: $(grep -c -v more.mbox "$TRASH/killed" 2>/dev/null) of 40 kills landed while it ran"

test_expect_success 'kill -9 while a thread grows: old or new thread, never a torn one' '
	rm -rf st && cp -r ref st &&
	cat >more.mbox <<-\EOM &&
	From mboxrd@z Thu Jan  1 00:00:00 1970
	From: Carlos Llamas <cmllamas@google.com>
	Subject: Re: [RFC PATCH 0/1] binder: switch alloc->mutex back to spinlock
	Message-ID: <later@example.invalid>

	A later comment.
	EOM
	for i in $(seq 1 30); do
		(cd st &&
		 kill_at_random 25 "$KSERIES" import binder-alloc-spinlock ../more.mbox --version 1) &&
		n=$(grep -c "^From " st/series/binder-alloc-spinlock/v1/thread.mbox) &&
		{ test "$n" = 2 || test "$n" = 3; } || exit 1
	done &&
	(cd st && kseries import binder-alloc-spinlock ../more.mbox --version 1 >/dev/null) &&
	test "$(grep -c "^From " st/series/binder-alloc-spinlock/v1/thread.mbox)" = 3 &&
	test "$(grep -c "^Message-ID: <later@example.invalid>" st/series/binder-alloc-spinlock/v1/thread.mbox)" = 1
'
say "thread: $(grep -c more.mbox "$TRASH/killed" 2>/dev/null) of 30 kills landed while it ran"

test_done
