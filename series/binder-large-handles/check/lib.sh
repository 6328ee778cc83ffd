# shellcheck shell=bash
# series/binder-large-handles/check/lib.sh - shared by the vm and perf stages.
#
# Sourced. Builds C binder VM kernels (kernel/vm-build: tinyconfig +
# kernel/vm.config, host gcc) from the base repository's commits in the
# worktree $KSERIES_CACHE/wt/handles-vm, into the reused build dir
# $KSERIES_CACHE/build/vm-binder-handles, which tests/t8201 uses too: one
# worktree per build dir, and $KSERIES_CACHE/wt/handles-vm.lock (flock)
# held while it is checked out and built. kernel/vm-build keeps images by
# tree, so a commit built once is not built again. The initramfs holds
# tests/kernel/binder-handles-bench, which runs without arguments: 100,000
# references with PF_LARGE_HANDLES off, then on, one line per mode:
#	binder-handles-bench: mode=off refs=100000 start_us=.. end_us=..
#	delta_us=.. held=.. max_handle=.. reuse=yes|no fill_ms=..
set -euo pipefail
SRC=$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)
CACHE=${KSERIES_CACHE:-$HOME/.cache/kseries}
export KSERIES_CACHE=$CACHE
TREE=${KSERIES_TREE:-$CACHE/linux}
WT=$CACHE/wt/handles-vm
IMAGES=$CACHE/build/vm-binder-handles/images
OUT=${KSERIES_LOGDIR:-$(mktemp -d)}/handles
PROG=$SRC/tests/kernel/binder-handles-bench.c
mkdir -p "$OUT" "$IMAGES"

need() {
	command -v qemu-system-x86_64 >/dev/null ||
		{ echo "no qemu-system-x86_64" >&2; exit 77; }
	[ -n "${KSERIES_BASE:-}" ] && [ -n "${KSERIES_TIP:-}" ] ||
		{ echo "KSERIES_BASE and KSERIES_TIP must name commits" >&2; exit 2; }
}

# kernel REV NAME: $IMAGES/NAME.bzImage, the C binder VM kernel of REV
kernel() {
	(
		exec 8>"$WT.lock"
		flock 8
		if [ ! -e "$WT/.git" ]; then
			git -C "$TREE" worktree add --detach "$WT" "$1" >&2
		fi
		git -C "$WT" am --abort >/dev/null 2>&1 || :
		git -C "$WT" checkout -q --detach -f "$1"
		"$SRC/kernel/vm-build" -o "$IMAGES/$2.bzImage" "$WT" binder-handles >/dev/null
	)
}

# initramfs: $OUT/initrd.gz with binder-handles-bench
initramfs() {
	gcc -static -O2 -Wall -o "$OUT/binder-handles-bench" "$PROG" >&2
	(cd "$OUT" && "$SRC/kernel/vm-initramfs" "$OUT/initrd.gz" binder-handles-bench >&2)
}

# boot NAME: run $IMAGES/NAME.bzImage (-M microvm -smp 2, TCG), log in
# $OUT/NAME.log; returns vm-run's status (the benchmark's)
boot() {
	"$SRC/kernel/vm-run" --timeout 1500 --append kseries.timeout=1400 \
		--log "$OUT/$1.log" "$IMAGES/$1.bzImage" "$OUT/initrd.gz" >/dev/null
}

# line MODE NAME: binder-handles-bench's MODE line in NAME's log
line() {
	grep "^binder-handles-bench: mode=$1 " "$OUT/$2.log" | tail -n 1 || :
}

# field MODE KEY NAME: KEY= of that line
field() {
	line "$1" "$3" | sed -n "s/.* $2=\\([-0-9a-z.]*\\).*/\\1/p"
}
