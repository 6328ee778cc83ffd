#!/usr/bin/env bash
test_description='bad input: one clear error, non-zero exit, nothing written'
. "$(dirname "$0")/lib.sh"

snapshot() { find series | sort; find series -type f | sort | xargs -r cat | sha1sum; }

setup_store() {
	mkdir -p store/series && cd store &&
	kseries import binder-alloc-spinlock "$FIXTURES/../t0001/seed-000-binder-alloc-spinlock-v1.mbox" >/dev/null
}

# fails_cleanly NAME MBOX: exit 1..128 with one error line and no change
fails_cleanly() {
	snapshot >before &&
	test_must_fail kseries import "$1" "$2" 2>err &&
	test_line_count = 1 err &&
	grep "^kseries: \(error\|fatal\): " err &&
	snapshot >after &&
	test_cmp before after
}

test_expect_success 'an empty file' '
	setup_store && : >empty && fails_cleanly x empty
'

test_expect_success 'a missing file' '
	setup_store && fails_cleanly x nonexistent.mbox
'

test_expect_success 'binary data with NUL bytes' '
	setup_store && printf "From x\n\0\0\0" >bin && fails_cleanly x bin
'

test_expect_success 'a series name that would leave series/' '
	setup_store &&
	fails_cleanly ../evil "$FIXTURES/../t0001/seed-004-binder-large-handles-v1.mbox" &&
	fails_cleanly .hidden "$FIXTURES/../t0001/seed-004-binder-large-handles-v1.mbox" &&
	fails_cleanly "a/b" "$FIXTURES/../t0001/seed-004-binder-large-handles-v1.mbox" &&
	test ! -e ../evil
'

# kseries must not wait for a writer: a FIFO, a device are refused at once
test_expect_success 'a FIFO as the mbox is refused, not waited on' '
	setup_store && mkfifo fifo &&
	snapshot >before &&
	test_expect_code 128 timeout 20 "$KSERIES" import x fifo 2>err &&
	test_line_count = 1 err &&
	grep "^kseries: error: .fifo. is not a regular file$" err &&
	snapshot >after && test_cmp before after &&
	test_expect_code 128 timeout 20 "$KSERIES" review extract fifo --json >out 2>err &&
	test_line_count = 1 err && test ! -s out &&
	grep "^kseries: error: .fifo. is not a regular file$" err &&
	test_expect_code 128 timeout 20 "$KSERIES" import x /dev/null 2>err &&
	grep "^kseries: error: ./dev/null. is not a regular file$" err
'

test_expect_success 'a symlink to a regular mbox is read' '
	setup_store &&
	ln -s "$FIXTURES/../t0001/seed-004-binder-large-handles-v1.mbox" link.mbox &&
	kseries import large link.mbox >out &&
	test -d series/large/v1
'

test_expect_success 'an incomplete series is refused' '
	setup_store && fails_cleanly inc "$FIXTURES/incomplete.mbox"
'

test_expect_success 'mixed versions need --version' '
	setup_store && fails_cleanly mixed "$FIXTURES/mixed-versions.mbox" &&
	kseries import mixed "$FIXTURES/mixed-versions.mbox" --version 2 &&
	test -d series/mixed/v2 && test ! -d series/mixed/v1
'

test_expect_success 'a different patch under an existing version is refused' '
	setup_store &&
	sed "s/alloc->lock/alloc->other/" \
		"$FIXTURES/../t0001/seed-000-binder-alloc-spinlock-v1.mbox" >changed.mbox &&
	fails_cleanly binder-alloc-spinlock changed.mbox
'

test_expect_success 'a hostile subject is only data' '
	setup_store &&
	kseries import hostile "$FIXTURES/hostile.mbox" &&
	ls series/hostile/v1 >files &&
	grep "^0001-rm-rf-touch-tmp-pwned-t0002-import-bad-input-id.patch$" files &&
	test ! -e /tmp/pwned-$TEST_NAME &&
	git config -f series/hostile/series.conf series.title >t &&
	grep -F "\$(rm -rf ~; touch /tmp/pwned-" t
'

test_expect_success 'usage errors exit 129' '
	setup_store &&
	test_expect_code 129 kseries import &&
	test_expect_code 129 kseries import a b c &&
	test_expect_code 129 kseries no-such-command
'

test_expect_success 'outside a store' '
	test_expect_code 128 kseries list 2>err &&
	grep "not in a kseries store" err
'

test_done
