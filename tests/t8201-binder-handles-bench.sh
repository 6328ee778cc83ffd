#!/bin/bash
test_description='binder-large-handles: the 100,000-reference benchmark, and in the VM base against patched'
. "$(dirname "$0")/lib.sh"

# The series' check/prog/binder-handles-bench.c makes a client hold REFS binder
# references and times calls that create one more, PF_LARGE_HANDLES off and
# on (BINDER_ENABLE_LARGE_HANDLES), and in "on" mode clears the flag again.
# Here it must build statically with the host's gcc.
#
# Heavy (KERNEL, make check-kernel): two C binder VM kernels (kernel/vm-build,
# host gcc), from $KSERIES_CACHE/wt/t8201-handles, this test's own worktree
# (the series' stages have theirs), which it checks out (detached) at
# v7.2.13 and at v7.2.13 + the latest version, in its own build dir
# $KSERIES_CACHE/build/vm-t8201-handles. Keep no work of your own in it;
# the test holds $WT.lock (flock) while it checks out and builds.
#   patched: both modes run; with none freed both hand out 1..count; after
#            dropping handles 1..10, off reuses them, on goes on above;
#            on, then cleared, hands out 1..10 again, then the one above
#            the largest held
#   base:    off runs the same; on is refused (BINDER_ENABLE_LARGE_HANDLES: EINVAL)

CACHE=$REAL_CACHE
SERIES=$SRC_DIR/series/binder-large-handles
WT=$CACHE/wt/t8201-handles
BUILD=t8201-handles
IMAGES=$CACHE/build/vm-$BUILD/images
PROG=$SERIES/check/prog/binder-handles-bench.c
CC_PROG="gcc -static -O2 -Wall -I$SRC_DIR/kernel/prog"
export KSERIES_CACHE=$CACHE

if command -v gcc >/dev/null &&
   echo 'int main(void){return 0;}' | gcc -static -x c -o "$TRASH/static-probe" - 2>/dev/null; then
	test_set_prereq STATIC_CC
else
	SKIP_REASON='no gcc able to link statically (libc6-dev)'
fi

test_kernel_prereq "$CACHE" qemu

latest=$(ls -d "$SERIES"/v[0-9]* 2>/dev/null | sed 's/.*\/v//' | sort -n | tail -n 1)

# field MODE KEY FILE: KEY= on the MODE line of binder-handles-bench.
field() {
	sed -n "s/^binder-handles-bench: mode=$1 .* $2=\\([-0-9a-z.]*\\).*/\\1/p" "$3" | tail -n 1
}

test_expect_success STATIC_CC 'binder-handles-bench builds statically, warning-free' '
	$CC_PROG -Wextra -Werror -o binder-handles-bench "$PROG" &&
	file binder-handles-bench | grep -q "statically linked"
'

test_expect_success STATIC_CC 'binder-handles-bench: bad usage exits 2 with the synopsis' '
	test_expect_code 2 ./binder-handles-bench sideways 2>err &&
	grep -q "^usage: binder-handles-bench" err &&
	test_expect_code 2 ./binder-handles-bench -b 0 2>err &&
	test_expect_code 2 ./binder-handles-bench -r 12x 2>err
'

test_expect_success KERNEL "build the base and v$latest C binder VM kernels" '
	test -n "$latest" &&
	exec 8>"$WT.lock" && flock 8 &&
	if [ ! -e "$WT/.git" ]; then
		git -C "$CACHE/linux" worktree add --detach "$WT" v7.2.13
	fi &&
	git -C "$WT" am --abort 2>/dev/null || : &&
	git -C "$WT" checkout -q --detach v7.2.13 &&
	"$SRC_DIR/kernel/vm-build" -o "$IMAGES/base.bzImage" "$WT" "$BUILD" &&
	git -C "$WT" -c user.name=kseries -c user.email=kseries@localhost \
		am -q $(ls "$SERIES/v$latest"/0*.patch | grep -v /0000-) &&
	"$SRC_DIR/kernel/vm-build" -o "$IMAGES/patched.bzImage" "$WT" "$BUILD" &&
	git -C "$WT" checkout -q --detach v7.2.13
'

test_expect_success KERNEL 'build the initramfs with binder-handles-bench' '
	$CC_PROG -o binder-handles-bench "$PROG" &&
	"$SRC_DIR/kernel/vm-initramfs" "$TRASH/initrd.gz" binder-handles-bench
'

test_expect_success KERNEL 'patched: 100,000 references; off reuses freed handles, on does not' '
	"$SRC_DIR/kernel/vm-run" --timeout 1500 --append kseries.timeout=1400 \
		--log "$TRASH/patched.log" \
		"$IMAGES/patched.bzImage" "$TRASH/initrd.gz" >/dev/null &&
	grep "^binder-handles-bench:" patched.log &&
	grep -q "KSERIES-RESULT: binder-handles-bench rc=0" patched.log &&
	test "$(field off max_handle patched.log)" = "$(field off held patched.log)" &&
	test "$(field off reuse patched.log)" = yes &&
	test "$(field on max_handle patched.log)" = "$(field on held patched.log)" &&
	test "$(field on reuse patched.log)" = no &&
	test "$(field on cleared_first patched.log)" = 1 &&
	test "$(field on cleared_last patched.log)" = 10 &&
	test "$(field on cleared_next patched.log)" = $(($(field on held patched.log) + 11))
'

test_expect_success KERNEL 'base: off runs, on is refused' '
	test_must_fail "$SRC_DIR/kernel/vm-run" --timeout 1500 --append kseries.timeout=1400 \
		--log "$TRASH/base.log" \
		"$IMAGES/base.bzImage" "$TRASH/initrd.gz" >/dev/null &&
	grep "^binder-handles-bench:" base.log &&
	grep -q "KSERIES-RESULT: binder-handles-bench rc=77" base.log &&
	test "$(field off max_handle base.log)" = "$(field off held base.log)" &&
	test "$(field off reuse base.log)" = yes &&
	grep -q "^binder-handles-bench: mode=on unsupported (BINDER_ENABLE_LARGE_HANDLES: EINVAL)" base.log
'

test_expect_success KERNEL 'report the cost of a new reference among 100,000' '
	echo "base:    $(grep "^binder-handles-bench: mode=off" base.log)" >report &&
	echo "patched: $(grep "^binder-handles-bench: mode=off" patched.log)" >>report &&
	echo "patched: $(grep "^binder-handles-bench: mode=on" patched.log)" >>report &&
	echo "delta_us = per-call time with 100,000 references minus with none:" >>report &&
	echo "  base off $(field off delta_us base.log), patched off $(field off delta_us patched.log), patched on $(field on delta_us patched.log)" >>report &&
	echo "delta_min_us (fastest call among 100,000 minus among none): base off $(field off delta_min_us base.log), patched off $(field off delta_min_us patched.log), patched on $(field on delta_min_us patched.log)" >>report &&
	echo "fill_ms (create the 100,000): base off $(field off fill_ms base.log), patched off $(field off fill_ms patched.log), patched on $(field on fill_ms patched.log)" >>report &&
	echo "fill_last_min_us (fastest 100-reference call at the end of the fill): base off $(field off fill_last_min_us base.log), patched off $(field off fill_last_min_us patched.log), patched on $(field on fill_last_min_us patched.log)" >>report &&
	cat report
'
[ ! -f "$TRASH/report" ] || sed 's/^/# /' "$TRASH/report"

test_done
