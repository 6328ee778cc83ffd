# series/rtmutex-wake-check/check/lib.sh - shared by the vm and perf stages.
#
# Sourced. Builds VM kernels from the base repository's commits in a
# worktree of its own, $KSERIES_CACHE/wt/rtmutex-check, into the reused
# build dir $KSERIES_CACHE/build/vm-rtmutex-check (kernel/vm-build; the
# first build is cold, later ones rebuild what the commits change), and
# the initramfs with tests/kernel/rtmutex-timedlock and the series' futex
# selftest. The kernel is kernel/vm.config plus check/ww_mutex.config
# (test-ww_mutex built in: it runs at boot, patch 5/5's test_abba_cpus
# with it).
#
# RTMUTEX_CHECK_RT=1 builds PREEMPT_RT kernels instead (check/preempt_rt.config
# on top) from their own worktree and build dir, wt/rtmutex-check-rt and
# vm-rtmutex-check-rt: with PREEMPT_RT a ww_mutex is an rt_mutex, the only
# configuration in which test_abba_cpus goes through the code 1/5 changes.
set -euo pipefail
CHECK=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
SRC=$(cd "$CHECK/../../.." && pwd)
CACHE=${KSERIES_CACHE:-$HOME/.cache/kseries}
TREE=${KSERIES_TREE:-$CACHE/linux}
NAME=rtmutex-check
FRAGS=(-f "$CHECK/ww_mutex.config")
if [ "${RTMUTEX_CHECK_RT:-}" = 1 ]; then
	NAME=rtmutex-check-rt
	FRAGS+=(-f "$CHECK/preempt_rt.config")
fi
WT=$CACHE/wt/$NAME
IMAGES=$CACHE/build/vm-$NAME/images
OUT=${KSERIES_LOGDIR:-$(mktemp -d)}/$NAME
mkdir -p "$OUT" "$IMAGES"

need() {
	command -v qemu-system-x86_64 >/dev/null ||
		{ echo "no qemu-system-x86_64" >&2; exit 77; }
	[ -n "${KSERIES_BASE:-}" ] && [ -n "${KSERIES_TIP:-}" ] ||
		{ echo "KSERIES_BASE and KSERIES_TIP must name commits" >&2; exit 2; }
}

# kernel REV NAME: $IMAGES/NAME.bzImage built from REV
kernel() {
	(
		flock 8
		if [ ! -e "$WT/.git" ]; then
			git -C "$TREE" worktree add --detach "$WT" "$1" >&2
		fi
		git -C "$WT" checkout -q --detach -f "$1"
		"$SRC/kernel/vm-build" -o "$IMAGES/$2.bzImage" "${FRAGS[@]}" "$WT" "$NAME" >&2
	) 8>"$WT.lock"
}

# initramfs: $OUT/initrd.gz with the measurement and the series' selftest
# (from the tip's tree, when the series adds it).
initramfs() {
	local progs=(rtmutex-timedlock) sel=$WT/tools/testing/selftests
	gcc -static -O2 -Wall -pthread -o "$OUT/rtmutex-timedlock" \
		"$SRC/tests/kernel/rtmutex-timedlock.c" >&2
	( flock 8; git -C "$WT" checkout -q --detach -f "$KSERIES_TIP" ) 8>"$WT.lock"
	if [ -f "$sel/futex/functional/futex_pi_spin_owner.c" ]; then
		gcc -static -O2 -Wall -pthread -D_FILE_OFFSET_BITS=64 -D_TIME_BITS=64 \
			-I"$sel/futex/include" -I"$sel" -o "$OUT/futex_pi_spin_owner" \
			"$sel/futex/functional/futex_pi_spin_owner.c" -lrt >&2
		progs+=(futex_pi_spin_owner)
	fi
	(cd "$OUT" && "$SRC/kernel/vm-initramfs" "$OUT/initrd.gz" "${progs[@]}" >&2)
}

# boot NAME: run $IMAGES/NAME.bzImage, log in $OUT/NAME.log; returns
# vm-run's status (the tests' status). Under a loaded host the guest may
# fail to verify its local APIC timer and run without high resolution
# timers (KSERIES-CLOCK: highres=no): a 1 ms timeout then takes a tick or
# two. Such a boot is repeated, up to three boots; the last one counts.
boot() {
	local i rc
	for i in 1 2 3; do
		rc=0
		"$SRC/kernel/vm-run" --timeout 900 --log "$OUT/$1.log" \
			"$IMAGES/$1.bzImage" "$OUT/initrd.gz" >/dev/null || rc=$?
		grep -q "KSERIES-CLOCK: .*highres=no" "$OUT/$1.log" || break
		cp "$OUT/$1.log" "$OUT/$1-lowres-$i.log"
	done
	return "$rc"
}

# hres NAME: the highres= of NAME's boot
hres() {
	sed -n 's/^KSERIES-CLOCK: .*highres=\([a-z]*\).*/\1/p' "$OUT/$1.log" | tail -n 1
}

# field KEY NAME: KEY= of the rtmutex-timedlock line in NAME's log
field() {
	sed -n "s/^rtmutex-timedlock:.* $1=\\([0-9a-z]*\\).*/\\1/p" "$OUT/$2.log" | tail -n 1
}
