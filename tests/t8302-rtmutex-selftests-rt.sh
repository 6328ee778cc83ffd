#!/bin/bash
test_description='rtmutex-wake-selftests on PREEMPT_RT: the selftests fail without the rtmutex fix, pass with it'
. "$(dirname "$0")/lib.sh"

# Heavy: PREEMPT_RT VM kernels (kernel/vm.config + kernel/vm-rt.config;
# the first build is cold, then the tip and the tip with the fix rebuild
# kernel/locking only) and TCG boots. Run by make check-kernel, never by
# make check. The series' own stages do the work (check/vm, check/perf,
# with their worktree $KSERIES_CACHE/wt/harness-rt, checked out
# detached here; keep no work of your own in it); this test makes the tip
# commit the way kseries check's apply stage hands it to them, and keeps
# their summaries. RTMUTEX_BOOTS, RTMUTEX_WW_RUNS and RTMUTEX_PI_SAMPLES
# pass through (boots per kernel, test-ww_mutex runs per boot, PI
# throughput samples per kernel).

CACHE=$REAL_CACHE
SERIES=$SRC_DIR/series/rtmutex-wake-selftests
WT=$CACHE/wt/harness-rt
export KSERIES_CACHE=$CACHE

test_kernel_prereq "$CACHE" qemu

latest=$(ls -d "$SERIES"/v[0-9]* 2>/dev/null | sed 's/.*\/v//' | sort -n | tail -n 1)

test_expect_success KERNEL "the tip: v7.2.13 and v$latest of the series" '
	test -n "$latest" &&
	if [ ! -e "$WT/.git" ]; then
		git -C "$CACHE/linux" worktree add --detach "$WT" v7.2.13
	fi &&
	{ git -C "$WT" am --abort 2>/dev/null || :; } &&
	git -C "$WT" checkout -q --detach -f v7.2.13 &&
	for p in $(ls "$SERIES/v$latest"/0*.patch | grep -v /0000-); do
		git -C "$WT" apply --index "$p" &&
		sed -n "/^Subject: /,/^$/p" "$p" | sed "s/^Subject: \[[^]]*\] //" |
			tr -d "\n" >"$TRASH/subject" &&
		GIT_AUTHOR_DATE=2026-01-01T00:00:00Z GIT_COMMITTER_DATE=2026-01-01T00:00:00Z \
		git -C "$WT" -c user.name="kseries sender" -c user.email=sender@sender.invalid \
			commit -q -F "$TRASH/subject" || exit 1
	done &&
	git -C "$WT" rev-parse HEAD >"$TRASH/tip"
'

test_expect_success KERNEL 'check/vm: fails without the fix, passes with it' '
	KSERIES_BASE=$(git -C "$CACHE/linux" rev-parse v7.2.13) \
	KSERIES_TIP=$(cat "$TRASH/tip") KSERIES_LOGDIR=$TRASH/logs \
		"$SERIES/check/vm" >vm.out 2>vm.err &&
	cat vm.out && grep "^PREEMPT_RT" vm.out &&
	grep -q "^fixed boot 1 abba_pass=[1-9]" logs/rtmutex-selftests-rt/summary &&
	grep -q "^nofix boot 1 abba_pass=0 abba_fail=[1-9]" logs/rtmutex-selftests-rt/summary
'

test_expect_success KERNEL 'check/perf: PI mutex throughput, a rank test' '
	KSERIES_BASE=$(git -C "$CACHE/linux" rev-parse v7.2.13) \
	KSERIES_TIP=$(cat "$TRASH/tip") KSERIES_LOGDIR=$TRASH/logs \
		"$SERIES/check/perf" >perf.out 2>perf.err &&
	grep "Mann-Whitney U=" perf.out
'

test_expect_success KERNEL 'the distributions, as the series keeps them' '
	"$SERIES/check/distributions" "$TRASH/logs/rtmutex-selftests-rt" >report &&
	cat vm.out perf.out >>report &&
	cat report
'
[ ! -f "$TRASH/report" ] || sed 's/^/# /' "$TRASH/report"

test_done
