#!/usr/bin/env bash
# tests/bench/feedback-ingest.sh - feedback ingest of 1 500 records, before
# and after its records were synced once per directory, in one run.
#
# The review thread is the mailers' replies of tests/t1010 copied 125
# times with unique Message-IDs (12 records each: 1 500), ingested into a
# fresh one-version series. "after" is ./kseries; "before" is kseries
# built, in a temporary directory, from the commit before the one that
# batched the writes (found by its subject; KSERIES_BENCH_BEFORE=REV
# names another; "none" skips it). Both are built the same way (plain
# -O2, no sanitizer: the ./kseries of the tree may be a sanitized build,
# so "after" is rebuilt alike too). Each is run KSERIES_BENCH_RUNS
# times (default 3), alternating, on the same disk; the medians of wall
# time are printed with their ratio. Goal (issue 18): after <= 2 s.
set -euo pipefail
cd "$(dirname "$0")/../.."

runs=${KSERIES_BENCH_RUNS:-3}
tmp=$(mktemp -d "${TMPDIR:-/var/tmp}/kseries-bench-ingest.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
export KSERIES_NO_RANGE_DIFF=1 GIT_CONFIG_NOSYSTEM=1

. tests/bench/lib
bench_before 'store: writes through directory descriptors'
bench_build after WORKTREE
bins=(after)
if [ "$before" != none ]; then
	bench_build before "$before"
	bins=(before after)
fi

seed=tests/t0001/seed-001-binder-defer-complete-v2.mbox
for i in $(seq 1 125); do
	sed -E "s/^(Message-I[Dd]: <)([^>]*)>/\1\2.$i>/" tests/t1010/t1010-mailers.mbox
done >"$tmp/big.mbox"

# one BIN: a fresh store, one ingest, its wall time in ms on stdout
one() {
	local st=$tmp/store-$1 t0 t1
	rm -rf "$st" && mkdir -p "$st/series/defer/v2"
	printf '[series]\n\ttitle = t\n\tbase = v7.2.13\n' >"$st/series/defer/series.conf"
	awk 'NR > 1 && /^From mboxrd@z/ { exit } { print }' "$seed" \
		>"$st/series/defer/v2/0001-rust_binder-add-TF_DEFER_COMPLETE.patch"
	sync -f "$st"
	t0=$(date +%s%N)
	(cd "$st" && "$tmp/$1/kseries" feedback ingest defer "$tmp/big.mbox" >"$tmp/out-$1")
	t1=$(date +%s%N)
	grep -q "^defer: 1500 feedback record(s) written" "$tmp/out-$1" ||
		{ echo "feedback-ingest: $1 did not write 1500 records: $(cat "$tmp/out-$1")"; exit 1; }
	echo $(((t1 - t0) / 1000000))
}
median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

for r in $(seq 1 "$runs"); do
	for b in "${bins[@]}"; do
		one "$b" >>"$tmp/ms-$b"
	done
done
printf 'feedback-ingest: 1500 records, %d runs each, load %s\n' "$runs" "$(cut -d' ' -f1-3 /proc/loadavg)"
for b in "${bins[@]}"; do
	printf 'feedback-ingest: %-6s median %5d ms  (runs: %s)\n' "$b" \
		"$(median <"$tmp/ms-$b")" "$(tr '\n' ' ' <"$tmp/ms-$b")"
done
if [ "$before" != none ]; then
	printf 'feedback-ingest: before/after = %.1fx  (before: %s)\n' \
		"$(echo "$(median <"$tmp/ms-before") / $(median <"$tmp/ms-after")" | bc -l)" \
		"$(git log -1 --format='%h %s' "$before")"
fi
bench_result "ingest.records 1500"
bench_result "ingest.ms $(median <"$tmp/ms-after")"
[ "$before" = none ] || bench_result "ingest.before_ms $(median <"$tmp/ms-before")"
printf 'feedback-ingest: goal after <= 2000 ms: %s\n' \
	"$([ "$(median <"$tmp/ms-after")" -le 2000 ] && echo met || echo NOT met)"
