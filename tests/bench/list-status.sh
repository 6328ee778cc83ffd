#!/usr/bin/env bash
# tests/bench/list-status.sh - kseries list and kseries status over
# 1 000 series, CPU (user + system) and wall, in one run, before and
# after (issue 18).
#
# The store is made at run time: the repository's series (their
# versions, replies and feedback) copied under new names, one after the
# other, until there are KSERIES_BENCH_SERIES_COUNT (default 1 000),
# and a result of every stage for every version in a private cache
# (status reads one per stage and version, or the version's summary;
# list the last check's line). Nothing
# large is committed. "after" is this tree's kseries; "before" is
# kseries built, in a temporary directory, from the commit before
# "parse-options: read git config in-process with libgit2" (found by
# its subject; KSERIES_BENCH_BEFORE=REV names another, "none" skips
# it). Both are built alike (-O2, no sanitizer). list's first run by
# "after" keeps each series' open count (feedback-count.h): it is
# printed apart ("rebuild"); then each command runs KSERIES_BENCH_RUNS
# times (default 3), alternating, and the medians are printed with
# their ratio. Goal (issue 18): list and status each <= 0.3 s CPU.
set -euo pipefail
cd "$(dirname "$0")/../.."

runs=${KSERIES_BENCH_RUNS:-3}
count=${KSERIES_BENCH_SERIES_COUNT:-1000}
case $count in ''|*[!0-9]*|0) echo "list-status: bad KSERIES_BENCH_SERIES_COUNT '$count'"; exit 1;; esac
tmp=$(mktemp -d "${TMPDIR:-/var/tmp}/kseries-bench-list.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
export KSERIES_NO_RANGE_DIFF=1 GIT_CONFIG_NOSYSTEM=1 HOME=$tmp/home
export KSERIES_CACHE=$tmp/cache KSERIES_DIR=$tmp/store
mkdir -p "$HOME"
. tests/bench/lib
[ -x /usr/bin/time ] || bench_skip list-status "no /usr/bin/time (Debian package time)"
bench_before 'parse-options: read git config in-process with libgit2'
bench_build after WORKTREE
bins=(after)
if [ "$before" != none ]; then
	bench_build before "$before"
	bins=(before after)
fi

# the store: series/*, copied in turn until there are $count
mkdir -p "$tmp/store/series"
src=(series/*/)
for ((i = 0; i < count; i++)); do
	s=${src[i % ${#src[@]}]}
	cp -R "$s" "$tmp/store/series/$(basename "$s")-$((i / ${#src[@]} + 1))"
done
nseries=$(ls "$tmp/store/series" | wc -l)
# the results: every stage of every version passed
stages=$("$tmp/after/kseries" check --list-stages)
python3 - "$tmp/store/series" "$KSERIES_CACHE/results" $stages <<'PY'
import json, os, re, sys
store, results, stages = sys.argv[1], sys.argv[2], sys.argv[3:]
for name in os.listdir(store):
    conf = open(os.path.join(store, name, 'series.conf')).read()
    vs = set(int(m) for m in re.findall(r'\[version "(\d+)"\]', conf))
    vs |= set(int(d[1:]) for d in os.listdir(os.path.join(store, name))
              if re.fullmatch(r'v\d+', d))
    for v in vs:
        d = os.path.join(results, name, 'v%d' % v)
        os.makedirs(d)
        for st in stages:
            json.dump({'stage': st, 'status': 'pass', 'summary': 'ok',
                       'findings': [], 'log': None, 'seconds': 1.0,
                       'cached': False}, open(os.path.join(d, st + '.json'), 'w'))
        open(os.path.join(d, 'summary'), 'w').write('pass 2026-12-01T00:00:00Z\n')
PY

# one BIN CMD: "cpu wall" in seconds; the output must be the same for all
one() {
	(cd "$tmp/store" && /usr/bin/time -f "%U %S %e" -o "$tmp/t" \
		"$tmp/$1/kseries" "$2" >"$tmp/out-$1-$2")
	awk '{ printf "%.3f %.3f\n", $1 + $2, $3 }' "$tmp/t"
}
median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

rebuild=$(one after list)
restatus=$(one after status)
for r in $(seq 1 "$runs"); do
	for b in "${bins[@]}"; do
		for c in list status; do
			one "$b" "$c" >>"$tmp/s-$b-$c"
		done
	done
done
if [ "$before" != none ]; then
	for c in list status; do
		cmp -s "$tmp/out-before-$c" "$tmp/out-after-$c" ||
			{ echo "list-status: $c: before and after print different lines"; exit 1; }
	done
fi
printf 'list-status: %d series, %d runs each, load %s\n' "$nseries" "$runs" \
	"$(cut -d' ' -f1-3 /proc/loadavg)"
printf 'list-status: after  list   first run (keeps the counts): cpu %s s, wall %s s\n' $rebuild
printf 'list-status: after  status first run (keeps the summaries): cpu %s s, wall %s s\n' $restatus
met=met
for c in list status; do
	for b in "${bins[@]}"; do
		cpu=$(cut -d' ' -f1 "$tmp/s-$b-$c" | median)
		wall=$(cut -d' ' -f2 "$tmp/s-$b-$c" | median)
		printf 'list-status: %-6s %-6s median cpu %6.3f s, wall %6.3f s\n' "$b" "$c" "$cpu" "$wall"
		eval "cpu_$b=$cpu"
	done
	bench_result "$c.series $nseries"
	bench_result "$c.cpu $cpu_after"
	bench_result "$c.wall $wall"
	[ "$before" = none ] || bench_result "$c.before_cpu $cpu_before"
	if [ "$before" != none ]; then
		printf 'list-status: %s before/after cpu = %.1fx  (before: %s)\n' "$c" \
			"$(echo "$cpu_before / $cpu_after" | bc -l)" "$(git log -1 --format='%h %s' "$before")"
	fi
	[ "$(echo "$cpu_after <= 0.3" | bc -l)" = 1 ] || met="NOT met"
done
printf 'list-status: goal list and status each <= 0.3 s cpu: %s\n' "$met"
