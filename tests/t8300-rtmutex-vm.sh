#!/bin/bash
test_description='rtmutex-wake-check in the VM: the 1 ms PI timedlock, base against patched'
. "$(dirname "$0")/lib.sh"

# Heavy: two kernel builds (the first one cold, ~13 CPU-minutes; then only
# what the series touches) and two TCG boots. Run by make check-kernel.
#
# The kernels are built from $KSERIES_CACHE/wt/rtmutex, a worktree of the
# base tree that this test checks out (detached) at v7.2.13 and then at
# v7.2.13 + series/rtmutex-wake-check/vN (the latest version), in
# $KSERIES_CACHE/build/vm-rtmutex. Keep no work of your own in it.

CACHE=$REAL_CACHE
SERIES=$SRC_DIR/series/rtmutex-wake-check
WT=$CACHE/wt/rtmutex
IMAGES=$CACHE/build/vm-rtmutex/images
export KSERIES_CACHE=$CACHE

test_kernel_prereq "$CACHE" qemu

latest=$(ls -d "$SERIES"/v[0-9]* 2>/dev/null | sed 's/.*\/v//' | sort -n | tail -n 1)

# field KEY FILE: the value of KEY= on the rtmutex-timedlock line.
field() {
	sed -n "s/^rtmutex-timedlock:.* $1=\\([0-9a-z]*\\).*/\\1/p" "$2" | tail -n 1
}

test_expect_success KERNEL "build the base kernel and v$latest of the series" '
	test -n "$latest" &&
	if [ ! -e "$WT/.git" ]; then
		git -C "$CACHE/linux" worktree add --detach "$WT" v7.2.13
	fi &&
	git -C "$WT" am --abort 2>/dev/null || : &&
	git -C "$WT" checkout -q --detach v7.2.13 &&
	"$SRC_DIR/kernel/vm-build" -o "$IMAGES/base.bzImage" "$WT" rtmutex &&
	git -C "$WT" -c user.name=kseries -c user.email=kseries@localhost \
		am -q $(ls "$SERIES/v$latest"/0*.patch | grep -v /0000-) &&
	"$SRC_DIR/kernel/vm-build" -o "$IMAGES/patched.bzImage" "$WT" rtmutex &&
	sel=$WT/tools/testing/selftests &&
	gcc -static -O2 -Wall -pthread -D_FILE_OFFSET_BITS=64 -D_TIME_BITS=64 \
		-I"$sel/futex/include" -I"$sel" -o "$TRASH/futex_pi_spin_owner" \
		"$sel/futex/functional/futex_pi_spin_owner.c" -lrt &&
	git -C "$WT" checkout -q --detach v7.2.13
'

test_expect_success KERNEL 'build the initramfs: rtmutex-timedlock, the series selftest' '
	gcc -static -O2 -Wall -pthread -o rtmutex-timedlock \
		"$SRC_DIR/series/rtmutex-wake-check/check/prog/rtmutex-timedlock.c" &&
	"$SRC_DIR/kernel/vm-initramfs" "$TRASH/initrd.gz" rtmutex-timedlock \
		futex_pi_spin_owner
'

test_expect_success KERNEL 'patched: the 1 ms timedlock returns ETIMEDOUT, on time' '
	"$SRC_DIR/kernel/vm-run" --timeout 900 --log "$TRASH/patched.log" \
		"$IMAGES/patched.bzImage" "$TRASH/initrd.gz" >/dev/null &&
	grep "^rtmutex-timedlock:" "$TRASH/patched.log" &&
	grep -q "KSERIES-BOOT: .* cpus=2" "$TRASH/patched.log" &&
	grep -q "KSERIES-RESULT: rtmutex-timedlock rc=0" "$TRASH/patched.log" &&
	test "$(field rounds patched.log)" = "$(field etimedout patched.log)" &&
	test "$(field late_max_us patched.log)" -le "$(field bound_us patched.log)"
'

test_expect_success KERNEL 'patched: the series selftest futex_pi_spin_owner passes' '
	grep -q "KSERIES-RESULT: futex_pi_spin_owner rc=0" "$TRASH/patched.log"
'

test_expect_success KERNEL 'base: the same assertion fails (late, or not ETIMEDOUT)' '
	test_must_fail "$SRC_DIR/kernel/vm-run" --timeout 900 --log "$TRASH/base.log" \
		"$IMAGES/base.bzImage" "$TRASH/initrd.gz" >/dev/null &&
	grep "^rtmutex-timedlock:" "$TRASH/base.log" &&
	grep -q "KSERIES-DONE: status=1" "$TRASH/base.log" &&
	grep -q "KSERIES-RESULT: rtmutex-timedlock rc=1" "$TRASH/base.log" &&
	grep -q "KSERIES-RESULT: futex_pi_spin_owner rc=[1-9]" "$TRASH/base.log" &&
	test "$(field verdict base.log)" = fail
'

test_expect_success KERNEL 'report base against patched' '
	b=$(field late_avg_us base.log) p=$(field late_avg_us patched.log) &&
	be=$(field elapsed_avg_us base.log) pe=$(field elapsed_avg_us patched.log) &&
	test "$b" -gt 0 && test "$pe" -gt 0 &&
	ratio=$(awk -v b="$be" -v p="$pe" "BEGIN { printf \"%.1f\", b / p }") &&
	echo "base:    $(grep "^rtmutex-timedlock:" base.log)" >report &&
	echo "patched: $(grep "^rtmutex-timedlock:" patched.log)" >>report &&
	echo "1 ms timedlock, average time to return: base ${be} us, patched ${pe} us, base/patched = ${ratio}x" >>report &&
	cat report
'
[ ! -f "$TRASH/report" ] || sed 's/^/# /' "$TRASH/report"

test_done
