# kernel/vm-stage.sh - sourced by a series' check/vm and check/perf stages.
#
# The stage protocol is HACKING.md's "Series-specific check stages":
# kseries check sets KSERIES_BASE and KSERIES_TIP (commits in the base
# repository), KSERIES_LOGDIR, ... in the environment. This file gives a
# stage the VM harness with a worktree and a build directory of its own:
#
#	vs_init NAME [FRAGMENT...]
#		worktree $KSERIES_CACHE/wt/NAME (made from the base repository
#		when missing), build dir $KSERIES_CACHE/build/vm-NAME (reused:
#		one worktree per build dir, so switching versions rebuilds only
#		what they touch), kernel/vm.config plus each FRAGMENT; logs
#		under $KSERIES_LOGDIR/NAME ($VS_OUT).
#	vs_need			exit 77 without qemu, 2 without KSERIES_BASE/TIP
#	vs_kernel REV LABEL	build REV, the image at $VS_IMAGES/LABEL.bzImage
#	vs_boot LABEL INITRD [TIMEOUT]
#		boot it (kernel/vm-run), serial log at $VS_OUT/LABEL.log;
#		returns vm-run's status. A boot whose guest runs without high
#		resolution timers (it could not verify its local APIC timer
#		under a loaded host: KSERIES-CLOCK: highres=no) is repeated,
#		up to three boots; the last one counts.
#	vs_hres LABEL		yes|no: LABEL's boot had high resolution timers
#	vs_median		the median of the numbers on stdin, one a line
#
# vs_kernel holds $VS_WT.lock (flock) while it checks out and builds, so
# two runs of a stage never switch the worktree under each other's build
# (kseries check does not lend a stage its own worktree); kernel builds
# queue on build.lock (kernel/vm-build).
set -euo pipefail
VS_KERNEL=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
VS_SRC=$(cd "$VS_KERNEL/.." && pwd)
VS_CACHE=${KSERIES_CACHE:-$HOME/.cache/kseries}
VS_TREE=${KSERIES_TREE:-$VS_CACHE/linux}

vs_init() {
	local f
	VS_NAME=$1
	shift
	VS_FRAGS=()
	for f in "$@"; do
		VS_FRAGS+=(-f "$f")
	done
	VS_WT=$VS_CACHE/wt/$VS_NAME
	VS_IMAGES=$VS_CACHE/build/vm-$VS_NAME/images
	VS_OUT=${KSERIES_LOGDIR:-$(mktemp -d)}/$VS_NAME
	mkdir -p "$VS_OUT" "$VS_IMAGES"
}

vs_need() {
	command -v qemu-system-x86_64 >/dev/null ||
		{ echo "no qemu-system-x86_64" >&2; exit 77; }
	[ -n "${KSERIES_BASE:-}" ] && [ -n "${KSERIES_TIP:-}" ] ||
		{ echo "KSERIES_BASE and KSERIES_TIP must name commits" >&2; exit 2; }
}

vs_kernel() {
	(
		flock 8
		if [ ! -e "$VS_WT/.git" ]; then
			git -C "$VS_TREE" worktree add --detach "$VS_WT" "$1" >&2
		fi
		git -C "$VS_WT" checkout -q --detach -f "$1"
		"$VS_KERNEL/vm-build" -o "$VS_IMAGES/$2.bzImage" \
			${VS_FRAGS[@]+"${VS_FRAGS[@]}"} "$VS_WT" "$VS_NAME" >&2
	) 8>"$VS_WT.lock"
}

vs_boot() {
	local i rc
	for i in 1 2 3; do
		rc=0
		"$VS_KERNEL/vm-run" --timeout "${3:-900}" --log "$VS_OUT/$1.log" \
			"$VS_IMAGES/$1.bzImage" "$2" >/dev/null || rc=$?
		[ "$(vs_hres "$1")" = no ] || break
		cp "$VS_OUT/$1.log" "$VS_OUT/$1-lowres-$i.log"
	done
	return "$rc"
}

vs_hres() {
	sed -n 's/^KSERIES-CLOCK: .*highres=\([a-z]*\).*/\1/p' "$VS_OUT/$1.log" | tail -n 1
}

vs_median() {
	sort -n | awk '{ v[NR] = $1 } END {
		if (NR == 0) exit 1
		if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}
