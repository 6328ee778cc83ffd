# shellcheck shell=bash
# series/rtmutex-wake-selftests/check/lib.sh - sourced by check/vm and
# check/perf, after kernel/vm-stage.sh.
#
# The selftests are tested both ways on a PREEMPT_RT kernel
# (kernel/vm-rt.config): the tip (the base and the selftests, without the
# rtmutex fix they test) must fail them, and the tip with the fix applied
# must pass them. The fix is the prerequisite, Mathieu Desnoyers' patch
# as the store records it (series/rtmutex-wake-check, latest version,
# patch 1).
#
#	rt_init		vs_init for the shared worktree and build dir
#			(wt/rtmutex-selftests-rt, build/vm-rtmutex-selftests-rt)
#	rt_kernels	build the tip as "nofix" and the tip with the fix as
#			"fixed" (the second build recompiles kernel/locking)

RT_STORE=$(cd "$VS_CHECK/../.." && pwd)
RT_PREREQ_SERIES=$RT_STORE/rtmutex-wake-check

rt_init() {
	vs_init "rtmutex-selftests-rt" "$VS_KERNEL/vm-rt.config"
	vs_need
}

# The prerequisite: patch 1 of the latest version of rtmutex-wake-check.
rt_prereq_patch() {
	local v
	v=$(ls -d "$RT_PREREQ_SERIES"/v[0-9]* | sed 's/.*\/v//' | sort -n | tail -n 1)
	ls "$RT_PREREQ_SERIES/v$v"/0001-*.patch
}

# rt_fixed_rev: the commit "tip + prerequisite" in the worktree (made
# with a fixed committer so that its id depends on the tip only).
rt_fixed_rev() {
	local patch
	patch=$(rt_prereq_patch) || ks_die "no prerequisite patch in $RT_PREREQ_SERIES"
	(
		flock 8
		git -C "$VS_WT" am --abort >/dev/null 2>&1 || :
		git -C "$VS_WT" checkout -q --detach -f "$KSERIES_TIP"
		GIT_COMMITTER_NAME=kseries GIT_COMMITTER_EMAIL=kseries@localhost \
		GIT_COMMITTER_DATE='2026-01-01T00:00:00Z' \
			git -C "$VS_WT" -c user.name=kseries -c user.email=kseries@localhost \
			am -q "$patch" >&2 || { git -C "$VS_WT" am --abort >/dev/null 2>&1; exit 1; }
		git -C "$VS_WT" rev-parse HEAD
	) 8>"$VS_WT.lock"
}

rt_kernels() {
	local fixed
	vs_kernel "$KSERIES_TIP" nofix
	fixed=$(rt_fixed_rev) || ks_die "the prerequisite does not apply on the tip"
	vs_kernel "$fixed" fixed
}
