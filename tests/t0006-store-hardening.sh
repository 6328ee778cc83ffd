#!/usr/bin/env bash
test_description='the store: no write through a symlink, modes, checks before writes, a full disk'
. "$(dirname "$0")/lib.sh"

SEEDS=$SRC_DIR/tests/t0001
V1=$SEEDS/seed-000-binder-alloc-spinlock-v1.mbox
REVIEW=$SEEDS/seed-001-binder-defer-complete-v2.mbox
export KSERIES_NO_RANGE_DIFF=1

snapshot() { (cd "$1" && find . | sort && find . -type f | sort | xargs -r cat | sha1sum); }

# refused CMD...: exit 1..128, one error line that names a symbolic link
refused() {
	test_must_fail "$@" 2>err &&
	test_line_count = 1 err &&
	grep "^kseries: \(error\|fatal\): .* is a symbolic link: not writing through it$" err
}

# The last reply of a thread, as a new reply to v1's cover.
more_reply() {
	cat <<-\EOM
	From mboxrd@z Thu Jan  1 00:00:00 1970
	From: Carlos Llamas <cmllamas@google.com>
	Subject: Re: [RFC PATCH 0/1] binder: switch alloc->mutex back to spinlock
	Message-ID: <later@example.invalid>

	A later comment.
	EOM
}

test_expect_success 'series/NAME pointing outside the store is not written through' '
	mkdir -p outside store/series && echo keep >outside/f &&
	ln -s ../../outside store/series/evil &&
	snapshot outside >before &&
	(cd store && refused kseries import evil "$V1") &&
	snapshot outside >after && test_cmp before after &&
	test ! -e outside/series.conf && test ! -e outside/v1
'

test_expect_success 'vN/ pointing outside: a new reply is not written through' '
	rm -rf store outside && mkdir -p store/series outside &&
	(cd store && kseries import s "$V1" >/dev/null) &&
	mv store/series/s/v1 outside/v1 &&
	ln -s ../../../outside/v1 store/series/s/v1 &&
	more_reply >more.mbox &&
	snapshot outside >before &&
	(cd store && refused kseries import s ../more.mbox --version 1) &&
	snapshot outside >after && test_cmp before after
'

test_expect_success 'series.conf pointing outside: import refuses before writing' '
	rm -rf store outside && mkdir -p store/series outside &&
	(cd store && kseries import s "$V1" >/dev/null) &&
	mv store/series/s/series.conf outside/conf &&
	ln -s ../../../outside/conf store/series/s/series.conf &&
	snapshot outside >before && snapshot store/series >sbefore &&
	(cd store && refused kseries import s "$SEEDS/seed-004-binder-large-handles-v1.mbox" --version 1) &&
	snapshot outside >after && test_cmp before after &&
	snapshot store/series >safter && test_cmp sbefore safter
'

mkdefer() {
	d=$1/series/defer && mkdir -p $d/v2 &&
	git config -f $d/series.conf series.title t &&
	git config -f $d/series.conf series.base v7.2.13 &&
	awk "NR > 1 && /^From mboxrd@z/ { exit } { print }" "$REVIEW" \
		>$d/v2/0001-rust_binder-add-TF_DEFER_COMPLETE.patch
}

test_expect_success 'feedback/ pointing outside: ingest is refused' '
	rm -rf store outside && mkdir -p outside && mkdefer store &&
	ln -s ../../../outside store/series/defer/feedback &&
	(cd store && refused kseries feedback ingest defer "$REVIEW") &&
	test -z "$(ls outside)"
'

test_expect_success 'a record that is a symlink: resolve does not write through it' '
	rm -rf store outside && mkdir -p outside && mkdefer store &&
	(cd store && kseries feedback ingest defer "$REVIEW" >/dev/null) &&
	id=$(ls store/series/defer/feedback | head -n 1) &&
	mv store/series/defer/feedback/$id outside/rec &&
	ln -s ../../../../outside/rec store/series/defer/feedback/$id &&
	snapshot outside >before &&
	(cd store && refused kseries feedback resolve $id --status wontfix) &&
	snapshot outside >after && test_cmp before after
'

test_expect_success 'a new series directory follows the umask' '
	rm -rf store && mkdir -p store/series &&
	(cd store && umask 022 && kseries import a "$V1" >/dev/null &&
	 umask 002 && kseries import b "$REVIEW" >/dev/null) &&
	test "$(stat -c %a store/series/a)" = 755 &&
	test "$(stat -c %a store/series/a/v1)" = 755 &&
	test "$(stat -c %a store/series/a/series.conf)" = 644 &&
	test "$(stat -c %a store/series/b)" = 775 &&
	test "$(stat -c %a store/series/b/v2)" = 775
'

test_expect_success 'a series.conf that is a directory: nothing written' '
	rm -rf store && mkdir -p store/series/s/series.conf &&
	snapshot store >before &&
	(cd store && test_must_fail kseries import s "$V1" 2>../err) &&
	test_line_count = 1 err &&
	grep "^kseries: error: .*/series/s/series.conf. is not a regular file$" err &&
	snapshot store >after && test_cmp before after
'

# A store on a small tmpfs filled up but for 16 KiB: importing a new
# version fails at its patch file, with one error line and nothing
# changed.
if mkdir -p "$TRASH/small" && mount -t tmpfs -o size=512k tmpfs "$TRASH/small" 2>/dev/null; then
	test_set_prereq MOUNT
	trap 'umount "$TRASH/small" 2>/dev/null; rm -rf "$TRASH"' EXIT
fi
SKIP_REASON='cannot mount a small tmpfs here (not root?)'

test_expect_success MOUNT 'a full disk: one error, nothing half-made' '
	S=$TRASH/small && mkdir -p $S/series &&
	(cd $S && kseries import s "$V1" >/dev/null) &&
	avail=$(df -k --output=avail $S | tail -n 1) &&
	dd if=/dev/zero of=$S/fill bs=1k count=$((avail - 16)) 2>/dev/null &&
	snapshot $S/series >before &&
	(cd $S && test_must_fail kseries import s "$REVIEW" --version 2 2>"$TRASH/err") &&
	cat "$TRASH/err" &&
	test_line_count = 1 "$TRASH/err" &&
	grep "No space left on device" "$TRASH/err" &&
	snapshot $S/series >after && test_cmp before after
'

test_done
