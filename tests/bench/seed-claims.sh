#!/usr/bin/env bash
# tests/bench/seed-claims.sh - each series' claim next to our measurement.
#
# The claims are quoted from the seed mails; the measurements come from
# each series' perf stage (series/NAME/check/perf: base kernel against
# patched, in one run, in the VM harness), run now through kseries check.
# Kernel builds and TCG boots take minutes to hours, so they run only
# with KSERIES_BENCH_KERNEL=1; otherwise each line says it was not
# measured in this run. Nothing is printed that this run did not measure.
set -euo pipefail
cd "$(dirname "$0")/../.."
[ -x ./kseries ] || make -s kseries

claim() {
	case $1 in
	binder-alloc-spinlock) echo "binderThroughputTest: 27k-59k -> 79k-84k iter/s; p99 0.088-0.148 -> 0.050-0.062 ms (SM8850)";;
	binder-defer-complete) echo "~80% of server-side binder syscalls per incoming transaction eliminated (cuttlefish boot)";;
	binder-large-handles) echo "binder_get_ref_for_node_olocked with 100,000 refs: 18178 us flag off -> 17 us flag on (2024 tree)";;
	rtmutex-wake-check) echo "1 ms PI timedlock behind a spinning owner: up to 1.4 s late -> about 1 ms";;
	esac
}

for s in binder-alloc-spinlock binder-defer-complete binder-large-handles rtmutex-wake-check; do
	printf '%s\n  claim:    %s\n' "$s" "$(claim "$s")"
	if [ ! -x "series/$s/check/perf" ]; then
		printf '  measured: no perf stage for this series yet (series/%s/check/perf)\n' "$s"
	elif [ "${KSERIES_BENCH_KERNEL:-}" != 1 ]; then
		printf '  measured: not in this run (KSERIES_BENCH_KERNEL=1 builds and boots the kernels)\n'
	else
		out=$(./kseries check "$s" --stage perf --no-cache 2>/dev/null | grep " perf " || :)
		printf '  measured: %s\n' "${out#* perf }"
	fi
done
