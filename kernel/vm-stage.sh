# shellcheck shell=bash disable=SC2034
# kernel/vm-stage.sh - sourced by a series' check/vm and check/perf stages.
#
# The stage protocol is HACKING.md's "Series-specific check stages":
# kseries check sets KSERIES_BASE and KSERIES_TIP (commits in the base
# repository), KSERIES_LOGDIR, ... in the environment. This file gives a
# stage the VM harness with a worktree and a build directory of its own:
#
#	vs_init [-w WT] [-l LOGS] [-k BUILDER] [-b BUILD] NAME [FRAGMENT...]
#		worktree $KSERIES_CACHE/wt/NAME (made from the base repository
#		when missing), build dir $KSERIES_CACHE/build/vm-NAME (reused:
#		one worktree per build dir, so switching versions rebuilds only
#		what they touch), kernel/vm.config plus each FRAGMENT; images
#		in $KSERIES_CACHE/build/vm-NAME/images ($VS_IMAGES), logs
#		under $KSERIES_LOGDIR/NAME ($VS_OUT). -w WT: the worktree is
#		wt/WT instead (a build dir keeps the worktree it was built
#		from: another path rebuilds everything).
#		-l LOGS: logs under $KSERIES_LOGDIR/LOGS. -k BUILDER: build
#		with "BUILDER WORKTREE IMAGE" instead of kernel/vm-build (no
#		FRAGMENTs then; NAME must be BUILDER's build dir, vm-NAME).
#		-b BUILD (kernel/vm-build only): build in build/vm-BUILD from
#		the worktree wt/BUILD, which every stage naming BUILD shares,
#		whatever its FRAGMENTs; the images stay NAME's. A build dir
#		costs a cold kernel build on its first use: stages whose
#		fragments differ in a few options share one, and a switch
#		between their fragments reconfigures and recompiles only what
#		depends on the options that differ (kbuild's include/config/
#		dependencies), a later build of a tree and fragment seen
#		before nothing (vm-build's by-tree images). With a shared
#		worktree a stage reads the tip's files through vs_tip_has and
#		vs_tip_cc, never from $VS_WT after vs_kernel: another stage
#		may have switched it since.
#	vs_need [WHO]		exit 77 without qemu (with WHO, also without the
#				sid chroot: "WHO needs it"), 2 without
#				KSERIES_BASE/TIP
#	vs_kernel REV LABEL	build REV, the image at $VS_IMAGES/LABEL.bzImage
#	vs_boot [-1] [-a ARGS] LABEL INITRD [TIMEOUT]
#		boot it (kernel/vm-run, TIMEOUT seconds, default 900; -a: ARGS
#		appended to the kernel command line), serial log at
#		$VS_OUT/LABEL.log; returns vm-run's status. A boot whose guest
#		runs without high resolution timers (it could not verify its
#		local APIC timer under a loaded host: KSERIES-CLOCK:
#		highres=no) is repeated, up to three boots; the last one
#		counts. -1: boot once (a stage that times nothing that fine).
#	vs_hres LABEL		yes|no: LABEL's boot had high resolution timers
#	vs_median		the median of the numbers on stdin, one a line
#
# $VS_CHECK is the directory of the script that sources this file (the
# series' check/). The programs the VM runs are the series' own,
# check/prog/NAME.c ($VS_PROG; headers several series share are in
# kernel/prog/):
#	vs_cc NAME [GCC-ARG...]	build $VS_PROG/NAME.c statically as $VS_OUT/NAME
#	vs_tip_cc SRC NAME [GCC-ARG...]
#				build SRC, a path in the tree, as $VS_OUT/NAME from
#				the tip's checkout (a selftest the series adds;
#				-I$VS_WT/... in a GCC-ARG reads the tip too: the
#				compile holds the worktree's lock); status 1,
#				nothing built, when the tip has no SRC
#	vs_tip_has PATH		status 0 when the tip has the file PATH
#	vs_tip_grep PATTERN PATH
#				grep -q PATTERN in the tip's PATH (status 1 also
#				when the tip has no PATH); both read the commit, not
#				the worktree
#	vs_initramfs [--extra NAME]... NAME...
#				$VS_OUT/initrd.gz running the NAMEs of $VS_OUT
#				(kernel/vm-initramfs)
#	vs_initrd_of NAME [GCC-ARG...]
#				vs_cc NAME, then an initrd.gz running it alone
# and what they print, one summary line a program (PREFIX: an extended
# regular expression the line starts with, e.g. "prog: mode=on "):
#	vs_line LABEL PREFIX	the last such line of LABEL's log
#	vs_field KEY LABEL PREFIX
#				the value of " KEY=" on that line
#
# vs_kernel holds $VS_WT.lock (flock) while it checks out and builds, so
# two runs of a stage (or its vm and perf stages) never
# switch the worktree under each other's build (kseries check does not
# lend a stage its own worktree); it aborts a "git am" left behind
# in it. Kernel builds queue on build.lock (kernel/vm-build).
set -euo pipefail
VS_KERNEL=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
VS_SRC=$(cd "$VS_KERNEL/.." && pwd)
VS_CHECK=$(cd "$(dirname "${BASH_SOURCE[1]:-$0}")" && pwd)
VS_PROG=${VS_PROG:-$VS_CHECK/prog}
. "$VS_KERNEL/lib.sh"
VS_CACHE=$KSERIES_CACHE
VS_TREE=${KSERIES_TREE:-$VS_CACHE/linux}

vs_init() {
	local f opt wt='' logs='' OPTIND=1
	VS_BUILDER='' VS_BUILD=''
	while getopts w:l:k:b: opt; do
		case $opt in
		w) wt=$OPTARG ;;
		l) logs=$OPTARG ;;
		k) VS_BUILDER=$OPTARG ;;
		b) VS_BUILD=$OPTARG ;;
		*) echo "usage: vs_init [-w WT] [-l LOGS] [-k BUILDER] [-b BUILD] NAME [FRAGMENT...]" >&2; exit 2 ;;
		esac
	done
	shift $((OPTIND - 1))
	[ -z "$VS_BUILD" ] || [ -z "$VS_BUILDER" ] ||
		{ echo "vs_init: -b is for kernel/vm-build's builds, not with -k" >&2; exit 2; }
	VS_NAME=$1
	VS_BUILD=${VS_BUILD:-$VS_NAME}
	shift
	VS_FRAGS=()
	for f in "$@"; do
		VS_FRAGS+=(-f "$f")
	done
	VS_WT=$VS_CACHE/wt/${wt:-$VS_BUILD}
	VS_IMAGES=$VS_CACHE/build/vm-$VS_NAME/images
	VS_OUT=${KSERIES_LOGDIR:-$(mktemp -d)}/${logs:-$VS_NAME}
	mkdir -p "$VS_OUT" "$VS_IMAGES" "$VS_CACHE/wt"
}

vs_need() {
	command -v qemu-system-x86_64 >/dev/null ||
		{ echo "no qemu-system-x86_64" >&2; exit 77; }
	[ $# -eq 0 ] || [ -s "$VS_CACHE/sid/.kseries-versions" ] ||
		{ echo "no sid chroot in $VS_CACHE/sid (kernel/provision-toolchain): $1 needs it" >&2; exit 77; }
	[ -n "${KSERIES_BASE:-}" ] && [ -n "${KSERIES_TIP:-}" ] ||
		{ echo "KSERIES_BASE and KSERIES_TIP must name commits" >&2; exit 2; }
}

vs_kernel() {
	(
		flock 8
		if [ ! -e "$VS_WT/.git" ]; then
			git -C "$VS_TREE" worktree add --detach "$VS_WT" "$1" >&2
		fi
		git -C "$VS_WT" am --abort >/dev/null 2>&1 || :
		git -C "$VS_WT" checkout -q --detach -f "$1"
		if [ -n "$VS_BUILDER" ]; then
			"$VS_BUILDER" "$VS_WT" "$VS_IMAGES/$2.bzImage" >&2
		else
			"$VS_KERNEL/vm-build" -o "$VS_IMAGES/$2.bzImage" \
				${VS_FRAGS[@]+"${VS_FRAGS[@]}"} "$VS_WT" "$VS_BUILD" >&2
		fi
	) 8>"$VS_WT.lock"
}

vs_boot() {
	local i rc boots=3 append=() opt OPTIND=1
	while getopts 1a: opt; do
		case $opt in
		1) boots=1 ;;
		a) append=(--append "$OPTARG") ;;
		*) echo "usage: vs_boot [-1] [-a ARGS] LABEL INITRD [TIMEOUT]" >&2; exit 2 ;;
		esac
	done
	shift $((OPTIND - 1))
	for ((i = 1; i <= boots; i++)); do
		rc=0
		"$VS_KERNEL/vm-run" --timeout "${3:-900}" ${append[@]+"${append[@]}"} \
			--log "$VS_OUT/$1.log" "$VS_IMAGES/$1.bzImage" "$2" >/dev/null || rc=$?
		[ "$boots" -gt 1 ] && [ "$(vs_hres "$1")" = no ] || break
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

vs_cc() {
	local name=$1
	shift
	gcc -static -O2 -Wall -o "$VS_OUT/$name" "$VS_PROG/$name.c" \
		-I"$VS_KERNEL/prog" "$@" >&2
}

vs_tip_cc() {
	local src=$1 name=$2
	shift 2
	vs_tip_has "$src" || return 1
	(
		flock 8
		git -C "$VS_WT" checkout -q --detach -f "$KSERIES_TIP" &&
		gcc -static -O2 -Wall -o "$VS_OUT/$name" "$VS_WT/$src" "$@" >&2
	) 8>"$VS_WT.lock" || ks_die "cannot build $src of the tip"
}

vs_tip_has() {
	[ "$(git -C "$VS_TREE" cat-file -t "$KSERIES_TIP:$1" 2>/dev/null)" = blob ]
}

vs_tip_grep() {
	# (grep without -q reads to the end: no SIGPIPE for pipefail)
	vs_tip_has "$2" && git -C "$VS_TREE" cat-file blob "$KSERIES_TIP:$2" | grep -- "$1" >/dev/null
}

vs_initramfs() {
	local args=()
	while [ "${1:-}" = --extra ]; do
		args+=(--extra "$2")
		shift 2
	done
	(cd "$VS_OUT" && "$VS_KERNEL/vm-initramfs" ${args[@]+"${args[@]}"} \
		"$VS_OUT/initrd.gz" "$@" >&2)
}

vs_initrd_of() {
	vs_cc "$@"
	vs_initramfs "$1"
}

vs_line() {
	grep -E "^$2" "$VS_OUT/$1.log" | tail -n 1 || :
}

vs_field() {
	vs_line "$2" "$3" | sed -n "s/.* $1=\\([-0-9A-Za-z.]*\\).*/\\1/p"
}
