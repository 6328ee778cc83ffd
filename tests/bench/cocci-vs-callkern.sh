#!/bin/bash
# tests/bench/cocci-vs-callkern.sh - our sleep_in_atomic rules against the
# kernel's scripts/coccinelle/locks/call_kern.cocci, on the same files, in
# one run: wall time of each, findings of each, and the time ratio.
#
# usage: tests/bench/cocci-vs-callkern.sh [FILE|DIR]...
# default: the base tree's drivers/android/*.c and cocci/tests/*.c
set -euo pipefail

src=$(cd "$(dirname "$0")/../.." && pwd)
cache=${KSERIES_CACHE:-$HOME/.cache/kseries}
linux=$cache/linux
callkern=$linux/scripts/coccinelle/locks/call_kern.cocci
test -f "$callkern" || { echo "cocci-vs-callkern: error: cannot open '$callkern'" >&2; exit 2; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

if [ $# -eq 0 ]; then
	set -- "$linux"/drivers/android/*.c "$src"/cocci/tests/*.c
fi

now() { date +%s.%N; }

t0=$(now)
rc=0
"$src/cocci/run-sleep-check" "$@" >"$tmp/ours" || rc=$?
t1=$(now)
[ "$rc" -le 1 ] || { echo "cocci-vs-callkern: error: run-sleep-check failed ($rc)" >&2; exit 2; }

# call_kern.cocci's own options line: --no-includes --include-headers
rc=0
"${SPATCH:-spatch}" --sp-file "$callkern" -D report --no-includes --include-headers \
	--macro-file "$src/cocci/sleep_in_atomic.h" --very-quiet "$@" >"$tmp/theirs" 2>"$tmp/theirs.err" || rc=$?
t2=$(now)
[ "$rc" -eq 0 ] || { cat "$tmp/theirs.err" >&2; echo "cocci-vs-callkern: error: spatch call_kern.cocci failed ($rc)" >&2; exit 2; }

ours_t=$(echo "$t1 - $t0" | bc -l)
theirs_t=$(echo "$t2 - $t1" | bc -l)
ours_n=$(wc -l <"$tmp/ours")
theirs_n=$(grep -c 'ERROR: function' "$tmp/theirs" || true)

printf '%-28s %10s %10s\n' '' 'sleep_in_atomic' 'call_kern'
printf '%-28s %10.2fs %10.2fs\n' 'wall time' "$ours_t" "$theirs_t"
printf '%-28s %10d %10d\n' 'findings (all files)' "$ours_n" "$theirs_n"
for f in "$@"; do
	b=$(basename "$f")
	o=$(grep -c "^$f:" "$tmp/ours" || true)
	t=$(grep -c "^$f:" "$tmp/theirs" || true)
	printf '  %-26s %10d %10d\n' "$b" "$o" "$t"
done
printf 'time ratio (ours / call_kern): %.2f\n' "$(echo "$ours_t / $theirs_t" | bc -l)"
echo '--- sleep_in_atomic findings'
cat "$tmp/ours"
echo '--- call_kern findings'
grep 'ERROR: function' "$tmp/theirs" || true
