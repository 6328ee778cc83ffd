#!/usr/bin/env bash
# tests/bench/seed-claims.sh - each series' claim next to our measurement.
#
# The claims are quoted from the seed mails. The measurements are made
# now, base kernel against patched in one run, in the VM harness
# (microvm, -smp 2, TCG: absolute figures are not a phone's or a
# server's, the ratios are what compares), by each series' perf stage
# (series/NAME/check/perf) through kseries check. A series without a
# perf stage falls back on its heavy shell test where there is one
# (binder-defer-complete: tests/t8200-binder-defer-test.sh,
# binder-large-handles: tests/t8201-binder-handles-bench.sh).
# Kernel builds and TCG boots take minutes (about five with the build
# directories warm, more from cold); KSERIES_BENCH_KERNEL=0 leaves them
# out, and then each line says it was not measured in this run. Nothing is printed that this run did not
# measure: a stage or test that cannot run or reports nothing is "not
# measured".
#
# kseries check runs here in a worktree of its own
# ($KSERIES_CACHE/wt/kseries-bench, KSERIES_CHECK_WORKTREE): the perf
# stages build in their own worktrees, the check worktree only gets the
# series applied, and so the bench does not queue behind full checks.
# KSERIES_BENCH_CACHED=1 lets kseries check serve a perf stage's result
# from its cache (made by an earlier run over the same content; the line
# then says "(cached)").
set -euo pipefail
cd "$(dirname "$0")/../.."
. kernel/lib.sh
[ -x ./kseries ] || make -s kseries

claim() {
	case $1 in
	binder-alloc-spinlock) echo "binderThroughputTest: 27k-59k -> 79k-84k iter/s; p99 0.088-0.148 -> 0.050-0.062 ms (SM8850)";;
	binder-defer-complete) echo "~80% of server-side binder syscalls per incoming transaction eliminated (cuttlefish boot)";;
	binder-large-handles) echo "binder_get_ref_for_node_olocked with 100,000 refs: 18178 us flag off -> 17 us flag on (2024 tree)";;
	rtmutex-wake-check) echo "1 ms PI timedlock behind a spinning owner: up to 1.4 s late -> about 1 ms";;
	esac
}

# perf SERIES: the perf stage's summary line (kseries check prints
# "NAME vN perf STATUS FINDINGS  [(cached) ]SUMMARY")
perf() {
	local out status sum nocache=--no-cache
	[ "${KSERIES_BENCH_CACHED:-}" != 1 ] || nocache=
	out=$(KSERIES_CHECK_WORKTREE=${KSERIES_CHECK_WORKTREE:-$KSERIES_CACHE/wt/kseries-bench} \
		./kseries check "$1" --stage perf $nocache 2>/dev/null |
		grep -E '^[^ ]+ +v[0-9]+ +perf ' | tail -n 1 || :)
	status=$(printf '%s\n' "$out" | awk '{ print $4 }')
	sum=$(printf '%s\n' "$out" | sed -E 's/^[^ ]+ +(v[0-9]+) +perf +[^ ]+ +[0-9]+  /\1: /')
	case "$status" in
	pass|warn) printf '%s\n' "$sum" ;;
	'') echo "not measured (kseries check $1 --stage perf printed no result)" ;;
	*) echo "not measured (perf stage $status: $sum)" ;;
	esac
}

# report TEST: the "# " report lines of a heavy shell test, run now
report() {
	local log rc=0
	log=$(mktemp)
	KSERIES_KERNEL_TESTS=1 bash "tests/$1" >"$log" 2>&1 || rc=$?
	if [ "$rc" -ne 0 ] || ! grep -q '^# ' "$log" ||
	   grep -q '^ok .* # SKIP' "$log"; then
		echo "not measured (tests/$1: exit $rc; $(grep -m1 -E '^not ok|# SKIP' "$log" || echo 'no report'))"
	else
		grep '^# ' "$log" | grep -v -E '^# (passed|failed|still)' | sed 's/^# //'
	fi
	rm -f "$log"
}

# handles REPORT: the flag off / on ratio of t8201's delta line
handles() {
	printf '%s\n' "$1"
	printf '%s\n' "$1" | sed -n 's/.*base off \([-0-9.]*\), patched off \([-0-9.]*\), patched on \([-0-9.]*\).*/\1 \2 \3/p' |
		awk '$3 > 0 { printf "patched: flag off/flag on = %.1fx (base off/patched on %.1fx)\n", $2 / $3, $1 / $3 }'
}

for s in binder-alloc-spinlock binder-defer-complete binder-large-handles rtmutex-wake-check; do
	printf '%s\n  claim:    %s\n' "$s" "$(claim "$s")"
	if [ "${KSERIES_BENCH_KERNEL:-1}" != 1 ]; then
		printf '  measured: not in this run (KSERIES_BENCH_KERNEL=0)\n'
		continue
	fi
	if [ -x "series/$s/check/perf" ]; then
		m=$(perf "$s")
	else
		case $s in
		binder-defer-complete) m=$(report t8200-binder-defer-test.sh) ;;
		binder-large-handles)
			m=$(report t8201-binder-handles-bench.sh)
			case "$m" in "not measured"*) ;; *) m=$(handles "$m") ;; esac ;;
		*) m="not measured (no perf stage: series/$s/check/perf)" ;;
		esac
	fi
	printf '%s\n' "$m" | sed '1s/^/  measured: /; 2,$s/^/            /'
done
