#!/usr/bin/env bash
# tests/bench/cold-ccache.sh - the cold build of a config with and without
# ccache, and a warm build dir when ccache is switched on, in one run.
#
# In a private cache (KSERIES_BENCH_COLD_DIR, default a new directory
# under /var/tmp, removed at the end unless KSERIES_BENCH_KEEP=1), with
# its own worktree of the base tree at v7.2.13 (its path is the one the
# build dirs record), for the config KSERIES_BENCH_CONFIG (default
# c-binder, the smallest the series use) and kbuild's default target
# (KSERIES_BENCH_TARGETS, space-separated, replaces it):
#  1. cold, ccache off (KSERIES_CCACHE=0): a fresh build dir, as every
#     build dir was made before;
#  2. that warm build dir again with ccache on: the objects kbuild
#     recompiles (its "  CC" lines) and the files it writes in the build
#     dir must both be none (ccache by masquerade leaves every recorded
#     command line as it was);
#  3. cold, ccache on and empty: a second fresh build dir;
#  4. cold, ccache on and warm from 3: a third fresh build dir;
#  5. unless KSERIES_BENCH_SERIES is empty (c-* configs only): the build
#     stage of that series (default rtmutex-wake-check, whose build stage
#     is c-binder at every patch) by kseries check --stage build
#     --no-cache, in a fresh build dir, ccache off, then in another fresh
#     build dir with ccache on (warm from 3 and 4: the base's objects, not
#     the patches').
# The configs: c-NAME (kbuild, the host's gcc, cache $dir/ccache);
# c-NAME-sid (kbuild --sid c-NAME: the sid chroot's gcc), rust-NAME
# (kbuild, the chroot's clang, LLVM=1), both with the chroot's ccache and
# cache $dir/ccache-sid; kunit-NAME (kernel/NAME.kunitconfig, UML on the
# host): kunit-run --build-only, or, with KSERIES_BENCH_TARGETS, the
# build dir configured by kunit.py config and then make ARCH=um TARGETS
# only, in kunit-run's sandbox and with its ccache environment
# (ks_kbuild_make's), a part of the KUnit build when the whole one
# cannot be afforded. The chroot is the caller's ($KSERIES_CACHE/sid,
# linked into the private cache; chroot-run brings it to its level).
# Wall seconds by date, CPU seconds (user + system of the whole build,
# by GNU time) of steps 1-4, ccache's counters by ccache --print-stats
# (the chroot's ccache for its cache), the load average before and after
# each step. Needs root (kbuild's sandbox), the base tree and
# /usr/lib/ccache: without one of them it says SKIP and why, and exits 0.
set -euo pipefail
cd "$(dirname "$0")/../.."
top=$PWD
. kernel/lib.sh

# --part CCACHE BUILD WT TARGET...: (the kunit-NAME part build, run under
# GNU time) kunit.py config of BUILD, then make ARCH=um TARGETs in it,
# each through kunit-run's sandbox with its ccache environment.
if [ "${1:-}" = --part ]; then
	export KSERIES_CCACHE=$2
	B=$3 W=$4
	shift 4
	KS_MAKE_CAN_BIND=1
	ks_kbuild_make "$W" "$B" "$KSERIES_JOBS" ARCH=um "$@" || exit 1
	sb=(--host --ro-bind "$W" --bind "$B")
	for d in "${KS_MAKE_BIND[@]}"; do ks_ccache_prepare "$d" && sb+=(--bind "$d"); done
	for e in "${KS_MAKE_ENV[@]}"; do sb+=(--env "$e"); done
	kernel/chroot-run "${sb[@]}" --env PYTHONDONTWRITEBYTECODE=1 -C "$W" -- \
		nice python3 tools/testing/kunit/kunit.py config \
		--kunitconfig="$B/.kseries-kunitconfig" --build_dir="$B" </dev/null &&
	kernel/chroot-run "${sb[@]}" -C "$W" -- "${KS_MAKE[@]}" </dev/null
	exit
fi

real_cache=$KSERIES_CACHE
tree=${KSERIES_TREE:-$real_cache/linux}
config=${KSERIES_BENCH_CONFIG:-c-binder}
series=${KSERIES_BENCH_SERIES-rtmutex-wake-check}
read -r -a targets <<<"${KSERIES_BENCH_TARGETS:-}"

skip() { echo "cold-ccache: SKIP: $*"; exit 0; }
git -C "$tree" rev-parse -q --verify refs/tags/v7.2.13 >/dev/null 2>&1 ||
	skip "no base tree at $tree (kernel/provision-base)"
[ "$(id -u)" = 0 ] || skip "kbuild's sandbox needs root"
[ -L "$KS_CCACHE_BIN/gcc" ] || skip "no $KS_CCACHE_BIN/gcc (Debian package ccache)"
[ -x /usr/bin/time ] || skip "no /usr/bin/time (Debian package time)"
# kb: kbuild's options and config; sid: the build runs in the chroot
kb=() sid=0 cc=ccache
case $config in
c-*-sid) kb=(--sid "${config%-sid}") sid=1 ;;
c-*) kb=("$config") ;;
rust-*) kb=("$config") sid=1 ;;
kunit-*) [ -r "kernel/$config.kunitconfig" ] || skip "no kernel/$config.kunitconfig" ;;
*) skip "KSERIES_BENCH_CONFIG=$config: want c-NAME, c-NAME-sid, rust-NAME or kunit-NAME" ;;
esac
if [ "$sid" = 1 ]; then
	cc=ccache-sid series=
	[ -s "$real_cache/sid/.kseries-versions" ] || skip "no sid chroot in $real_cache/sid (kernel/provision-toolchain)"
fi
case $config in c-*-sid|kunit-*|rust-*) series= ;; esac

dir=${KSERIES_BENCH_COLD_DIR:-}
made=0
if [ -z "$dir" ]; then
	dir=$(mktemp -d /var/tmp/kseries-cold.XXXXXX)
	made=1
fi
dir=$(readlink -f "$dir")
wt=$dir/wt/kseries-check
cleanup() {
	[ "${KSERIES_BENCH_KEEP:-}" = 1 ] && return 0
	git -C "$tree" worktree remove --force "$wt" 2>/dev/null || :
	[ "$made" = 0 ] || rm -rf "$dir"
}
trap cleanup EXIT
export KSERIES_CACHE=$dir KSERIES_TREE=$tree
unset KSERIES_DISTCC KSERIES_CCACHE_SIZE
[ -n "${KSERIES_JOBS:-}" ] || export KSERIES_JOBS=2

[ "$sid" = 0 ] || [ -e "$dir/sid" ] || ln -s "$(readlink -f "$real_cache/sid")" "$dir/sid"
if [ ! -d "$wt" ]; then
	mkdir -p "$dir/wt"
	git -C "$tree" worktree add --detach --quiet "$wt" v7.2.13
fi
git -C "$wt" reset -q --hard
git -C "$wt" checkout -q --detach v7.2.13
# KSERIES_BENCH_PATCHES: patch files applied over the base first (e.g.
# binder-alloc-spinlock's 0001, without which the whole kunit-binder
# build of the base fails at drivers/android/built-in.a)
read -r -a patches <<<"${KSERIES_BENCH_PATCHES:-}"
for p in "${patches[@]}"; do
	git -C "$wt" apply --index "$(readlink -f "$p")" ||
		{ echo "cold-ccache: cannot apply $p"; exit 1; }
done
load() { cut -d' ' -f1-3 /proc/loadavg; }
# ccu ARGS...: ccache on the cache, as the build user (who owns it), by
# the ccache that fills it (the host's, or the chroot's for ccache-sid)
ccu() {
	local where=(--host)
	[ "$sid" = 0 ] || where=()
	mkdir -p "$dir/$cc"
	chown "$KS_KBUILD_UID:$KS_KBUILD_GID" "$dir/$cc"
	"$top/kernel/chroot-run" "${where[@]}" --bind "$dir/$cc" -- \
		env CCACHE_DIR="$dir/$cc" CCACHE_CONFIGPATH=/dev/null ccache "$@"
}
stats() {	# stats: ccache's hits and misses, "hits H misses M"
	ccu --print-stats |
		awk '$1 == "direct_cache_hit" || $1 == "preprocessed_cache_hit" { h += $2 }
		     $1 == "cache_miss" { m += $2 }
		     END { printf "hits %d misses %d", h, m }'
}
# build N CCACHE: kbuild CONFIG in the worktree, ccache KSERIES_CCACHE=CCACHE;
# sets $secs, log in $dir/N.log
build() {
	local t0 rc=0 cmd
	if [ ${#kb[@]} -gt 0 ]; then
		cmd=("$top/kernel/kbuild" --log "$dir/$1.log" "${kb[@]}" "$wt" "${targets[@]}")
	elif [ ${#targets[@]} -eq 0 ]; then
		cmd=("$top/kernel/kunit-run" --build-only "kernel/$config.kunitconfig" "$wt")
	else
		mkdir -p "$dir/build/$config"
		cp "kernel/$config.kunitconfig" "$dir/build/$config/.kseries-kunitconfig"
		chown -R "$KS_KBUILD_UID:$KS_KBUILD_GID" "$dir/build/$config"
		cmd=(bash "$top/tests/bench/cold-ccache.sh" --part "$2" "$dir/build/$config" "$wt" "${targets[@]}")
	fi
	touch "$dir/stamp.$1"; sleep 1
	t0=$(date +%s.%N)
	if [ ${#kb[@]} -gt 0 ]; then
		KSERIES_CCACHE=$2 /usr/bin/time -o "$dir/$1.cpu" -f '%U %S' \
			nice -n 19 "${cmd[@]}" >/dev/null 2>"$dir/$1.err" || rc=$?
	else
		KSERIES_CCACHE=$2 /usr/bin/time -o "$dir/$1.cpu" -f '%U %S' \
			nice -n 19 "${cmd[@]}" >"$dir/$1.log" 2>"$dir/$1.err" || rc=$?
	fi
	secs=$(echo "$(date +%s.%N) - $t0" | bc -l)
	secs=$(printf '%.1f' "$secs")
	cpu=$(awk 'END { printf "%.1f", $1 + $2 }' "$dir/$1.cpu")
	[ "$rc" = 0 ] || { tail -n 15 "$dir/$1.err"; tail -n 15 "$dir/$1.log"; echo "cold-ccache: $1: the build failed"; exit 1; }
	objs=$(find "$dir/build/$config" -name '*.o' -newer "$dir/stamp.$1" | wc -l)
	written=$(find "$dir/build/$config" -newer "$dir/stamp.$1" -type f \
		! -name .kseries-kunitconfig ! -name build.log | wc -l)
}
fresh() {	# fresh NAME: the build dir moved aside as NAME
	[ ! -d "$dir/build/$config" ] || mv "$dir/build/$config" "$dir/build/$config.$1"
}
ccs() { grep -c '^  CC ' "$1" || :; }

what="kbuild's default target"
[ ${#kb[@]} -gt 0 ] || what="kunit-run --build-only"
[ ${#targets[@]} -eq 0 ] || what="targets ${targets[*]}"
[ ${#kb[@]} -gt 0 ] || [ ${#targets[@]} -eq 0 ] || what="kunit.py config, then make ARCH=um ${targets[*]}"
echo "cold-ccache: $config, $what, KSERIES_JOBS=$KSERIES_JOBS, in $dir${patches[*]:+, over v7.2.13 with ${patches[*]}}"
rm -rf "$dir/ccache" "$dir/ccache-sid" "$dir/build"
l0=$(load); build off 0
echo "cold-ccache: 1 cold, ccache off:            ${secs} s, cpu ${cpu} s  ($(ccs "$dir/off.log") CC lines, $objs .o written; load $l0 -> $(load))"
t_off=$secs u_off=$cpu
l0=$(load); build warm-on 1
echo "cold-ccache: 2 that build dir, ccache on:   ${secs} s, cpu ${cpu} s  ($(ccs "$dir/warm-on.log") CC lines, $objs .o and $written files written in the build dir; $(stats); load $l0 -> $(load))"
[ "$(ccs "$dir/warm-on.log")" = 0 ] && [ "$objs" = 0 ] && [ "$written" = 0 ] ||
	echo "cold-ccache: switching ccache on rebuilt part of a warm build dir: see $dir/warm-on.log"
fresh off
ccu -C >/dev/null; ccu -z >/dev/null
l0=$(load); build cold-on 1
t_cold=$secs u_cold=$cpu
echo "cold-ccache: 3 cold, ccache on, empty:      ${secs} s, cpu ${cpu} s  ($(ccs "$dir/cold-on.log") CC lines, $objs .o written; $(stats); load $l0 -> $(load))"
fresh cold-on
ccu -z >/dev/null
l0=$(load); build hot-on 1
t_hot=$secs u_hot=$cpu
echo "cold-ccache: 4 cold, ccache on, warm:       ${secs} s, cpu ${cpu} s  ($(ccs "$dir/hot-on.log") CC lines, $objs .o written; $(stats); load $l0 -> $(load))"
cmp -s <(cd "$dir/build/$config.cold-on" && find . -name '*.o' -exec md5sum {} + | sort -k2) \
       <(cd "$dir/build/$config" && find . -name '*.o' -exec md5sum {} + | sort -k2) &&
	same=identical || same=DIFFERENT
echo "cold-ccache: the objects of 3 and 4: $same; the cache: $(du -sh "$dir/$cc" | cut -f1)"
ratio() { echo "$1 / $2" | bc -l | xargs printf '%.2f'; }
echo "cold-ccache: cold build, wall: ccache off $t_off s, on and empty $t_cold s ($(ratio "$t_cold" "$t_off")x), on and warm $t_hot s ($(ratio "$t_hot" "$t_off")x)"
echo "cold-ccache: cold build, cpu:  ccache off $u_off s, on and empty $u_cold s ($(ratio "$u_cold" "$u_off")x), on and warm $u_hot s ($(ratio "$u_hot" "$u_off")x)"
[ -n "$series" ] || exit 0
[ -x ./kseries ] || make -s kseries
# check SUFFIX CCACHE: the build stage of $series, every patch, fresh build dir
check() {
	local t0
	fresh "$1-before"
	t0=$(date +%s.%N)
	KSERIES_CCACHE=$2 nice -n 19 ./kseries check --no-cache --stage build "$series" \
		>"$dir/check-$1.out" 2>&1 || { cat "$dir/check-$1.out"; echo "cold-ccache: check failed"; exit 1; }
	secs=$(printf '%.1f' "$(echo "$(date +%s.%N) - $t0" | bc -l)")
}
ccu -z >/dev/null
l0=$(load); check off 0
c_off=$secs
echo "cold-ccache: 5 $series build stage, fresh build dir, ccache off: ${secs} s  ($(grep -m1 -o '[0-9]* builds ([^)]*)' "$dir/check-off.out" || :); load $l0 -> $(load))"
l0=$(load); check on 1
echo "cold-ccache:   again, fresh build dir, ccache on (warm from 3-4): ${secs} s  ($(stats); load $l0 -> $(load))"
echo "cold-ccache: $series build stage: ccache off $c_off s, on $secs s ($(echo "$c_off / $secs" | bc -l | xargs printf '%.1f')x faster)"
