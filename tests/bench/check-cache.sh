#!/usr/bin/env bash
# tests/bench/check-cache.sh - kseries check: cold against warm, old
# against new, -j 1 against -j 2, in one run.
#
# Checks the latest version of every series that has patches here, on
# the light stages (no kernel build: apply format provenance checkpatch
# feedback mail, or KSERIES_BENCH_STAGES), in a private empty cache:
#  - cold (an empty results cache), then warm (nothing changed: every
#    result from the cache); the goal (issue 18): warm <= 3 s wall;
#  - the same warm check with the kseries before the apply cache, when
#    KSERIES_BENCH_OLD names its binary or KSERIES_BENCH_OLD_REV a
#    revision to build it from (git archive, a plain make);
#  - --no-cache -j 1 against -j 2 (the light stages run again);
#  - what -j 2 would save on a cold run of every stage: a schedule of the
#    stage times the results cache recorded (KSERIES_BENCH_RESULTS,
#    default $KSERIES_CACHE/results, read only), two workers, the
#    building stages one at a time (they share one worktree).
# No kernel is built: the light stages need the base tree only, and the
# cold estimate reads what earlier checks recorded. About 4 checks of the
# light stages of every series: minutes (3 to 10 on 2 cores).
set -euo pipefail
cd "$(dirname "$0")/../.."
[ -n "${KSERIES:-}" ] || { [ -x ./kseries ] || make -s kseries; }
kseries=${KSERIES:-./kseries}

. kernel/lib.sh
. tests/bench/lib
tree=${KSERIES_TREE:-$KSERIES_CACHE/linux}
results=${KSERIES_BENCH_RESULTS:-$KSERIES_CACHE/results}
git -C "$tree" rev-parse -q --verify refs/tags/v7.2.13 >/dev/null 2>&1 ||
	bench_skip check-cache "no base tree at $tree (kernel/provision-base)"
work=$(mktemp -d "${TMPDIR:-/var/tmp}/kseries-bench-check.XXXXXX")
# the private caches' check worktrees are worktrees of the base tree:
# removed with them, not left for git worktree prune
cleanup() {
	local w
	for w in "$work"/*/wt/*/; do
		[ -d "$w" ] && git -C "$tree" worktree remove --force "$w" 2>/dev/null || :
	done
	rm -rf "$work"
}
trap cleanup EXIT
stage_names=${KSERIES_BENCH_STAGES:-apply format provenance checkpatch feedback mail}
stages=()
for s in $stage_names; do
	stages+=(--stage "$s")
done
series=()
for s in $("$kseries" list | awk '$3 != "replies-only" {print $1}'); do
	series+=("$s")
done

old=${KSERIES_BENCH_OLD:-}
if [ -z "$old" ] && [ -n "${KSERIES_BENCH_OLD_REV:-}" ]; then
	mkdir "$work/old"
	git archive "$KSERIES_BENCH_OLD_REV" | tar -x -C "$work/old"
	make -s -C "$work/old" kseries >"$work/old.log" 2>&1 ||
		{ cat "$work/old.log" >&2; exit 1; }
	old=$work/old/kseries
fi

# run NAME PROGRAM CACHE ARGS...: the wall seconds of one check
run() {
	local name=$1 prog=$2 cache=$3 t0 t1
	shift 3
	t0=$(date +%s.%N)
	KSERIES_TREE=$tree KSERIES_CACHE=$cache "$prog" check "${stages[@]}" "$@" \
		"${series[@]}" >"$work/out.$name" 2>&1 || :
	t1=$(date +%s.%N)
	echo "$t1 - $t0" | bc -l
}
cold=$(run cold "$kseries" "$work/new")
warm=$(run warm "$kseries" "$work/new")
cached=$(grep -c '(cached)' "$work/out.warm" || :)
printf 'check-cache: %d series, stages: %s\n' "${#series[@]}" "$stage_names"
printf 'check-cache: cold %.2f s  warm %.2f s  (%s stage results from the cache)\n' \
	"$cold" "$warm" "$cached"
printf 'check-cache: warm/cold = %.3f  (cold is %.1fx the warm time)\n' \
	"$(echo "$warm / $cold" | bc -l)" "$(echo "$cold / $warm" | bc -l)"
if [ "$(echo "$warm <= 3" | bc -l)" = 1 ]; then verdict=met; else verdict='NOT met'; fi
printf 'check-cache: goal warm check --all <= 3 s wall: %s (%.2f s)\n' "$verdict" "$warm"
bench_result "check.series ${#series[@]}"
bench_result "check.stages $stage_names"
bench_result "check.cold_s $cold"
bench_result "check.warm_s $warm"
bench_result "check.warm_cached $cached"

if [ -n "$old" ]; then
	run oldcold "$old" "$work/old-cache" >/dev/null
	oldwarm=$(run oldwarm "$old" "$work/old-cache")
	printf 'check-cache: warm, old kseries %.2f s  new %.2f s  (old/new = %.1fx)\n' \
		"$oldwarm" "$warm" "$(echo "$oldwarm / $warm" | bc -l)"
else
	echo "check-cache: old kseries not measured (KSERIES_BENCH_OLD or KSERIES_BENCH_OLD_REV)"
fi

j1=$(run j1 "$kseries" "$work/new" --no-cache -j 1)
j2=$(run j2 "$kseries" "$work/new" --no-cache -j 2)
if cmp -s "$work/out.j1" "$work/out.j2"; then same=same; else same=DIFFERENT; fi
bench_result "check.j1_s $j1"
bench_result "check.j2_s $j2"
bench_result "check.j_output $same"
printf 'check-cache: light stages again (--no-cache): -j 1 %.2f s  -j 2 %.2f s  (saves %.0f%%; output %s)\n' \
	"$j1" "$j2" "$(echo "(1 - $j2 / $j1) * 100" | bc -l)" "$same"

# The cold estimate: each version's recorded stage times, in pipeline
# order, on two workers; build, sparse, rust and kunit hold the one
# build worktree (a worker waits for it), the rest run at once.
python3 - "$results" "${series[@]}" <<'EOF'
import glob, json, os, sys
res, names = sys.argv[1], sys.argv[2:]
order = ["apply", "format", "provenance", "checkpatch", "build", "sparse",
         "cocci", "rust", "kunit", "model", "vm", "perf", "feedback", "mail"]
builds = {"build", "sparse", "rust", "kunit"}
versions = []
for n in names:
    vs = sorted(glob.glob(os.path.join(res, n, "v*")),
                key=lambda p: int(os.path.basename(p)[1:]) if os.path.basename(p)[1:].isdigit() else 0)
    if not vs:
        continue
    st = []
    for s in order:
        try:
            st.append((s, float(json.load(open(os.path.join(vs[-1], s + ".json")))["seconds"])))
        except (OSError, ValueError, KeyError):
            pass
    if st:
        versions.append((n, st))
def result(line):
    run = os.environ.get("KSERIES_BENCH_RUN")
    if run:
        with open(os.path.join(run, "results"), "a") as f:
            f.write(line + "\n")
if not versions:
    print("check-cache: cold -j 2 estimate: no recorded stage times in %s" % res)
    result("check.cold_est_j1_s ? no recorded stage times in %s" % res)
    sys.exit(0)
serial = sum(t for _, st in versions for _, t in st)
# two workers, each takes the next version; the build worktree is one
free = [0.0, 0.0]
wt_free = 0.0
for n, st in versions:
    w = free.index(min(free))
    t = free[w]
    for s, d in st:
        if s in builds:
            t = max(t, wt_free)
            wt_free = t + d
        t += d
    free[w] = t
par = max(free)
print("check-cache: cold, every stage, from the times recorded in %s:" % res)
print("check-cache:   -j 1 %.0f s, -j 2 about %.0f s (saves %.0f%%): builds take turns,"
      " only the rest overlaps" % (serial, par, (1 - par / serial) * 100 if serial else 0))
result("check.cold_est_versions %d" % len(versions))
result("check.cold_est_j1_s %.1f" % serial)
result("check.cold_est_j2_s %.1f" % par)
EOF
