#!/bin/bash
test_description='binder-defer-complete: the TF_DEFER_COMPLETE test program, and in the VM base, v2 and vN'
. "$(dirname "$0")/lib.sh"

# The series' check/prog/binder-defer-test.c drives binder through raw
# ioctls. Here it must build statically with the host's gcc (the VM
# initramfs has no libc).
#
# Heavy (KERNEL, make check-kernel): three Rust binder VM kernels built by
# the series' check/vmkernel in the sid chroot (the first one cold; then
# only rust_binder and the link) in $KSERIES_CACHE/build/vm-t8200-rust-binder,
# from $KSERIES_CACHE/wt/t8200-defer, this test's own worktree and build dir
# (the series' stages have theirs), which it checks out (detached) at
# v7.2.13, at v7.2.13 + v2
# (posted for an older tree; tests/t8200/v2-on-v7.2.13.patch is it applied
# by hand, with the hunks 7.2 already has dropped) and at v7.2.13 + the
# latest version. Keep no work of your own in it; the test holds
# $WT.lock (flock) while it checks out and builds. Each boots under TCG:
#   latest: order=ok, and one server ioctl per transaction with the flag
#   v2:     order=FAIL: the queued BR_TRANSACTION overtakes the deferred
#           BR_TRANSACTION_COMPLETE (thread_has_deferred_work always false)
#   base:   order=unsupported: BC_REPLY returns BR_TRANSACTION_COMPLETE at once

CACHE=$REAL_CACHE
SERIES=$SRC_DIR/series/binder-defer-complete
WT=$CACHE/wt/t8200-defer
BUILD=t8200-rust-binder
IMAGES=$CACHE/build/vm-$BUILD/images
PROG=$SERIES/check/prog/binder-defer-test.c
VMKERNEL=$SERIES/check/vmkernel
CC_PROG="gcc -static -O2 -Wall -pthread -I$SRC_DIR/kernel/prog"
export KSERIES_CACHE=$CACHE

if command -v gcc >/dev/null &&
   echo 'int main(void){return 0;}' | gcc -static -x c -o "$TRASH/static-probe" - 2>/dev/null; then
	test_set_prereq STATIC_CC
else
	SKIP_REASON='no gcc able to link statically (libc6-dev)'
fi

test_kernel_prereq "$CACHE" sid qemu

latest=$(ls -d "$SERIES"/v[0-9]* 2>/dev/null | sed 's/.*\/v//' | sort -n | tail -n 1)

# field KEY FILE: KEY= on the summary line of binder-defer-test.
field() {
	sed -n "s/^binder-defer-test: .*$1=\\([0-9a-zA-Z.]*\\).*/\\1/p" "$2" | tail -n 1
}

test_expect_success STATIC_CC 'binder-defer-test builds statically, warning-free' '
	$CC_PROG -Wextra -Werror -o binder-defer-test "$PROG" &&
	file binder-defer-test | grep -q "statically linked"
'

test_expect_success STATIC_CC 'binder-defer-test: bad usage exits 2 with the synopsis' '
	test_expect_code 2 ./binder-defer-test count sideways 2>err &&
	grep -q "^usage: binder-defer-test" err &&
	test_expect_code 2 ./binder-defer-test -n 1 2>err
'

test_expect_success STATIC_CC 'binder-defer-test asserts the order and the ioctl bound' '
	# The assertions the VM runs rely on, present in the source.
	grep -q "first != BR_TRANSACTION_COMPLETE" "$PROG" &&
	grep -q "rc == 0 ? 1.1 : 0" "$PROG"
'

test_expect_success KERNEL "build the base, v2 and v$latest Rust binder VM kernels" '
	test -n "$latest" &&
	exec 8>"$WT.lock" && flock 8 &&
	if [ ! -e "$WT/.git" ]; then
		git -C "$CACHE/linux" worktree add --detach "$WT" v7.2.13
	fi &&
	git -C "$WT" am --abort 2>/dev/null || : &&
	am() { git -C "$WT" -c user.name=kseries -c user.email=kseries@localhost am -q "$@"; } &&
	git -C "$WT" checkout -q --detach v7.2.13 &&
	am $(ls "$SERIES/v$latest"/0*.patch | grep -v /0000-) &&
	"$VMKERNEL" "$WT" "$IMAGES/latest.bzImage" "$BUILD" &&
	git -C "$WT" checkout -q --detach v7.2.13 &&
	am "$FIXTURES/v2-on-v7.2.13.patch" &&
	"$VMKERNEL" "$WT" "$IMAGES/v2.bzImage" "$BUILD" &&
	git -C "$WT" checkout -q --detach v7.2.13 &&
	"$VMKERNEL" "$WT" "$IMAGES/base.bzImage" "$BUILD"
'

test_expect_success KERNEL 'build the initramfs with binder-defer-test' '
	$CC_PROG -o binder-defer-test "$PROG" &&
	"$SRC_DIR/kernel/vm-initramfs" "$TRASH/initrd.gz" binder-defer-test
'

test_expect_success KERNEL "v$latest: completion first, one server ioctl per transaction" '
	"$SRC_DIR/kernel/vm-run" --timeout 900 --log "$TRASH/latest.log" \
		"$IMAGES/latest.bzImage" "$TRASH/initrd.gz" >/dev/null &&
	grep "^binder-defer-test:" latest.log &&
	grep -q "KSERIES-RESULT: binder-defer-test rc=0" latest.log &&
	test "$(field order latest.log)" = ok
'

test_expect_success KERNEL 'v2: the queued transaction overtakes the deferred completion' '
	test_must_fail "$SRC_DIR/kernel/vm-run" --timeout 900 --log "$TRASH/v2.log" \
		"$IMAGES/v2.bzImage" "$TRASH/initrd.gz" >/dev/null &&
	grep "after BC_REPLY" v2.log &&
	grep -q "KSERIES-RESULT: binder-defer-test rc=1" v2.log &&
	test "$(field order v2.log)" = FAIL &&
	grep -q -E "^FAIL: BR_[A-Z_]* before the deferred|no BR_TRANSACTION_COMPLETE for the BC_REPLY" v2.log
'

test_expect_success KERNEL 'base: no TF_DEFER_COMPLETE, BC_REPLY completes at once' '
	test_must_fail "$SRC_DIR/kernel/vm-run" --timeout 900 --log "$TRASH/base.log" \
		"$IMAGES/base.bzImage" "$TRASH/initrd.gz" >/dev/null &&
	grep -q "KSERIES-RESULT: binder-defer-test rc=77" base.log &&
	test "$(field order base.log)" = unsupported
'

test_expect_success KERNEL 'report server ioctls per transaction, base against patched' '
	b=$(field defer_ioctls_per_txn base.log) p=$(field defer_ioctls_per_txn latest.log) &&
	test -n "$b" && test -n "$p" &&
	echo "base:    $(grep "^binder-defer-test: order=" base.log)" >report &&
	echo "v2:      $(grep "^binder-defer-test: order=" v2.log)" >>report &&
	echo "patched: $(grep "^binder-defer-test: order=" latest.log)" >>report &&
	awk -v b="$b" -v p="$p" "BEGIN { printf \"server ioctls per transaction with TF_DEFER_COMPLETE: base %s, patched %s: %.0f%% fewer\\n\", b, p, 100 * (b - p) / b }" >>report &&
	cat report
'
[ ! -f "$TRASH/report" ] || sed 's/^/# /' "$TRASH/report"

test_done
