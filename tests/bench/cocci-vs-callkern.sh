#!/bin/bash
# tests/bench/cocci-vs-callkern.sh - our sleep_in_atomic rules against the
# kernel's scripts/coccinelle/locks/call_kern.cocci, on the same files, in
# one run: time of each (wall and CPU, user+sys of spatch and its
# children), findings of each, and the CPU time ratio; the facts pass
# alone; and the precision of the base-tree triage in cocci/TRIAGE.md.
#
# usage: tests/bench/cocci-vs-callkern.sh [FILE|DIR]...
# default: the base tree's drivers/android/*.c and cocci/tests/*.c
#
# run-sleep-check runs with --tree over the base tree and --scope
# drivers/android (the check stage's scope for a binder series): once with
# an empty facts cache (cold: the facts of drivers/android are computed)
# and once with it filled (warm: what `kseries check` does after the
# base's run, the facts are per base commit); COCCI_BENCH_RUNS rounds of
# cold, warm and call_kern, the ratio of the medians.
# COCCI_BENCH_FACTS_SCOPE (':' between paths, default drivers/android):
# the paths of the base tree whose facts pass is timed alone.
set -euo pipefail

src=$(cd "$(dirname "$0")/../.." && pwd)
. "$src/kernel/lib.sh"
cache=$KSERIES_CACHE
linux=${KSERIES_TREE:-$cache/linux}
callkern=$linux/scripts/coccinelle/locks/call_kern.cocci
. "$src/tests/bench/lib"
# no base tree or no spatch under make bench: a prerequisite is missing
if [ -n "${KSERIES_BENCH_RUN:-}" ] || [ $# -eq 0 ]; then
	git -C "$linux" rev-parse -q --verify refs/tags/v7.2.13 >/dev/null 2>&1 ||
		bench_skip cocci-vs-callkern "no base tree at $linux (kernel/provision-base)"
	command -v "${SPATCH:-spatch}" >/dev/null ||
		bench_skip cocci-vs-callkern "no ${SPATCH:-spatch} (Debian package coccinelle)"
	[ -x /usr/bin/time ] || bench_skip cocci-vs-callkern "no /usr/bin/time (Debian package time)"
fi
test -f "$callkern" || { echo "cocci-vs-callkern: error: cannot open '$callkern'" >&2; exit 2; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

if [ $# -eq 0 ]; then
	set -- "$linux"/drivers/android/*.c "$src"/cocci/tests/*.c
fi

# timed NAME CMD...: runs CMD, keeps rc; NAME.t holds "wall user sys"
timed() {
	local name=$1
	shift
	local rc=0
	/usr/bin/time -f '%e %U %S' -o "$tmp/$name.t" "$@" || rc=$?
	return $rc
}
# the last line: time writes "Command exited with non-zero status 1" first
cpu() { tail -n 1 "$tmp/$1.t" | awk '{ printf "%.2f", $2 + $3 }'; }
wall() { tail -n 1 "$tmp/$1.t" | awk '{ printf "%.2f", $1 }'; }

ours=("$src/cocci/run-sleep-check" --tree "$linux" --scope drivers/android)
# call_kern.cocci's own options line: --no-includes --include-headers;
# the same python as ours (cocci/sleepfacts.py python_opts())
read -r -a pyopts < <(cd "$src/cocci" && python3 -c 'import shlex, sleepfacts
print(" ".join(sleepfacts.python_opts(shlex.split("'"${SPATCH:-spatch}"'"))))')
theirs=("${SPATCH:-spatch}" "${pyopts[@]}" --sp-file "$callkern" -D report --no-includes --include-headers
	--macro-file "$src/cocci/sleep_in_atomic.h" --very-quiet)

# COCCI_BENCH_RUNS rounds (default 5), each cold (an empty facts cache),
# warm (the same cache again) and call_kern, one after the other, so that
# the three see the same load; the ratios are of the medians.
runs=${COCCI_BENCH_RUNS:-5}
case $runs in ''|*[!0-9]*|0) echo "cocci-vs-callkern: error: bad COCCI_BENCH_RUNS '$runs'" >&2; exit 2;; esac
load0=$(cut -d' ' -f1-3 /proc/loadavg)
for r in $(seq "$runs"); do
	rc=0
	timed "cold.$r" "${ours[@]}" --cache "$tmp/facts.$r" "$@" >"$tmp/ours" || rc=$?
	[ "$rc" -le 1 ] || { echo "cocci-vs-callkern: error: run-sleep-check failed ($rc)" >&2; exit 2; }
	rc=0
	timed "warm.$r" "${ours[@]}" --cache "$tmp/facts.$r" "$@" >"$tmp/ours.warm" || rc=$?
	[ "$rc" -le 1 ] || { echo "cocci-vs-callkern: error: run-sleep-check failed ($rc)" >&2; exit 2; }
	cmp -s "$tmp/ours" "$tmp/ours.warm" ||
		{ echo "cocci-vs-callkern: error: warm and cold runs differ" >&2; exit 2; }
	[ "$r" -eq 1 ] || cmp -s "$tmp/ours" "$tmp/ours.1" ||
		{ echo "cocci-vs-callkern: error: the runs' findings differ" >&2; exit 2; }
	cp "$tmp/ours" "$tmp/ours.1"
	rc=0
	timed "theirs.$r" "${theirs[@]}" "$@" >"$tmp/theirs" 2>"$tmp/theirs.err" || rc=$?
	[ "$rc" -eq 0 ] || { cat "$tmp/theirs.err" >&2; echo "cocci-vs-callkern: error: spatch call_kern.cocci failed ($rc)" >&2; exit 2; }
	rm -rf "$tmp/facts.$r"
done
# median KIND: the median CPU time (user+sys) of the runs of KIND
median() {
	local r
	for r in $(seq "$runs"); do cpu "$1.$r"; echo; done | sort -n |
		awk '{ v[NR] = $1 } END { printf "%.2f", (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}
medianw() {
	local r
	for r in $(seq "$runs"); do wall "$1.$r"; echo; done | sort -n |
		awk '{ v[NR] = $1 } END { printf "%.2f", (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

ours_n=$(wc -l <"$tmp/ours")
theirs_n=$(grep -c 'ERROR: function' "$tmp/theirs" || true)

printf '%d runs of each, interleaved; load average at the start: %s\n' "$runs" "$load0"
printf '%-28s %12s %12s %12s\n' '' 'ours (cold)' 'ours (warm)' 'call_kern'
for r in $(seq "$runs"); do
	printf '%-28s %11ss %11ss %11ss\n' "run $r CPU (user+sys)" "$(cpu "cold.$r")" "$(cpu "warm.$r")" "$(cpu "theirs.$r")"
done
printf '%-28s %11ss %11ss %11ss\n' 'median wall time' "$(medianw cold)" "$(medianw warm)" "$(medianw theirs)"
printf '%-28s %11ss %11ss %11ss\n' 'median CPU time (user+sys)' "$(median cold)" "$(median warm)" "$(median theirs)"
printf '%-28s %12d %12d %12d\n' 'findings (all files)' "$ours_n" "$ours_n" "$theirs_n"
for f in "$@"; do
	b=$(basename "$f")
	o=$(grep -c "^$f:" "$tmp/ours" || true)
	t=$(grep -c "^$f:" "$tmp/theirs" || true)
	printf '  %-26s %12d %12s %12d\n' "$b" "$o" '' "$t"
done
printf 'CPU time ratio (median ours / median call_kern): cold %.2f, warm %.2f\n' \
	"$(echo "$(median cold) / $(median theirs)" | bc -l)" "$(echo "$(median warm) / $(median theirs)" | bc -l)"
bench_result "cocci.runs $runs"
bench_result "cocci.cold_cpu $(median cold)"
bench_result "cocci.warm_cpu $(median warm)"
bench_result "cocci.callkern_cpu $(median theirs)"
printf 'cold ratio per run:'
for r in $(seq "$runs"); do printf ' %.2f' "$(echo "$(cpu "cold.$r") / $(cpu "theirs.$r")" | bc -l)"; done
echo
printf 'load average at the end: %s\n' "$(cut -d' ' -f1-3 /proc/loadavg)"
echo '--- sleep_in_atomic findings'
cat "$tmp/ours"
echo '--- call_kern findings'
grep 'ERROR: function' "$tmp/theirs" || true

# The facts pass alone, on an empty cache.
IFS=: read -r -a fscope <<<"${COCCI_BENCH_FACTS_SCOPE:-drivers/android}"
timed facts "$src/cocci/sleepfacts.py" --cache "$tmp/facts-only" "$linux" "${fscope[@]}" >"$tmp/facts.out"
echo "--- facts pass over ${fscope[*]} of the base tree (--jobs 2, empty cache)"
printf 'wall %ss, CPU %ss: %s\n' "$(wall facts)" "$(cpu facts)" "$(head -1 "$tmp/facts.out")"

# The triage of the base tree: each finding one table row whose verdict
# column is "real" or "false positive".
triage=$src/cocci/TRIAGE.md
if [ -f "$triage" ]; then
	real=$(grep -c '^| [^|]* | real |' "$triage" || true)
	fp=$(grep -c '^| [^|]* | false positive |' "$triage" || true)
	echo "--- triage (cocci/TRIAGE.md)"
	bench_result "cocci.triage_real $real"
	bench_result "cocci.triage_reported $((real + fp))"
	printf 'reported %d, real %d, false positives %d, precision (real / reported) %s\n' \
		"$((real + fp))" "$real" "$fp" \
		"$(awk -v r="$real" -v f="$fp" 'BEGIN { printf "%.2f", (r + f) ? r / (r + f) : 0 }')"
fi
