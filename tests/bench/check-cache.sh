#!/usr/bin/env bash
# tests/bench/check-cache.sh - kseries check, cold against warm, in one run.
#
# Checks the latest version of every series that has patches here with
# an empty results cache (cold), then again with nothing changed (warm,
# served from the cache by content), and prints both times and their
# ratio. Stages: those that need no kernel build (apply, format,
# checkpatch, cocci, feedback) unless KSERIES_BENCH_STAGES names others.
set -euo pipefail
cd "$(dirname "$0")/../.."
[ -x ./kseries ] || make -s kseries

. kernel/lib.sh
tree=${KSERIES_TREE:-$KSERIES_CACHE/linux}
if ! git -C "$tree" rev-parse -q --verify refs/tags/v7.2.13 >/dev/null; then
	echo "check-cache: SKIP: no base tree at $tree (kernel/provision-base)"
	exit 0
fi
cache=$(mktemp -d)
trap 'rm -rf "$cache"' EXIT
stages=()
for s in ${KSERIES_BENCH_STAGES:-apply format checkpatch cocci feedback}; do
	stages+=(--stage "$s")
done
series=()
for s in $(./kseries list | awk '$3 != "replies-only" {print $1}'); do
	series+=("$s")
done

run() {
	local t0 t1
	t0=$(date +%s.%N)
	KSERIES_TREE=$tree KSERIES_CACHE=$cache ./kseries check "${stages[@]}" "${series[@]}" >"$cache/out.$1" 2>&1 || :
	t1=$(date +%s.%N)
	echo "$t1 - $t0" | bc -l
}
cold=$(run cold)
warm=$(run warm)
cached=$(grep -c '(cached)' "$cache/out.warm" || :)
printf 'check-cache: %d series, stages: %s\n' "${#series[@]}" "${KSERIES_BENCH_STAGES:-apply format checkpatch cocci feedback}"
printf 'check-cache: cold %.2f s  warm %.2f s  (%s stage results from the cache)\n' "$cold" "$warm" "$cached"
printf 'check-cache: warm/cold = %.3f  (cold is %.1fx the warm time)\n' \
	"$(echo "$warm / $cold" | bc -l)" "$(echo "$cold / $warm" | bc -l)"
