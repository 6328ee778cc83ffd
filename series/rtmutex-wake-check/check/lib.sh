# series/rtmutex-wake-check/check/lib.sh - shared by the vm and perf stages.
#
# Sourced. The VM harness is kernel/vm-stage.sh's: VM kernels from the
# base repository's commits in a worktree of their own,
# $KSERIES_CACHE/wt/rtmutex-check, into the reused build dir
# $KSERIES_CACHE/build/vm-rtmutex-check (the first build is cold, later
# ones rebuild what the commits change), logs under
# $KSERIES_LOGDIR/rtmutex-check. The kernel is kernel/vm.config plus
# check/ww_mutex.config (test-ww_mutex built in: it runs at boot, patch
# 5/5's test_abba_cpus with it). This file adds the initramfs with
# tests/kernel/rtmutex-timedlock and the series' futex selftest.
#
# RTMUTEX_CHECK_RT=1 builds PREEMPT_RT kernels instead (check/preempt_rt.config
# on top) from their own worktree and build dir, wt/rtmutex-check-rt and
# vm-rtmutex-check-rt: with PREEMPT_RT a ww_mutex is an rt_mutex, the only
# configuration in which test_abba_cpus goes through the code 1/5 changes.
CHECK=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
. "$CHECK/../../../kernel/vm-stage.sh"
if [ "${RTMUTEX_CHECK_RT:-}" = 1 ]; then
	vs_init rtmutex-check-rt "$CHECK/ww_mutex.config" "$CHECK/preempt_rt.config"
else
	vs_init rtmutex-check "$CHECK/ww_mutex.config"
fi

# initramfs: $VS_OUT/initrd.gz with the measurement and the series' selftest
# (from the tip's tree, when the series adds it).
initramfs() {
	local progs=(rtmutex-timedlock) sel=$VS_WT/tools/testing/selftests
	gcc -static -O2 -Wall -pthread -o "$VS_OUT/rtmutex-timedlock" \
		"$VS_SRC/tests/kernel/rtmutex-timedlock.c" >&2
	( flock 8; git -C "$VS_WT" checkout -q --detach -f "$KSERIES_TIP" ) 8>"$VS_WT.lock"
	if [ -f "$sel/futex/functional/futex_pi_spin_owner.c" ]; then
		gcc -static -O2 -Wall -pthread -D_FILE_OFFSET_BITS=64 -D_TIME_BITS=64 \
			-I"$sel/futex/include" -I"$sel" -o "$VS_OUT/futex_pi_spin_owner" \
			"$sel/futex/functional/futex_pi_spin_owner.c" -lrt >&2
		progs+=(futex_pi_spin_owner)
	fi
	(cd "$VS_OUT" && "$VS_KERNEL/vm-initramfs" "$VS_OUT/initrd.gz" "${progs[@]}" >&2)
}

# field KEY LABEL: KEY= of the rtmutex-timedlock line in LABEL's log
field() {
	sed -n "s/^rtmutex-timedlock:.* $1=\\([0-9a-z]*\\).*/\\1/p" "$VS_OUT/$2.log" | tail -n 1
}
