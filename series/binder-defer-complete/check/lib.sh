# shellcheck shell=bash
# series/binder-defer-complete/check/lib.sh - shared by the vm and perf stages.
#
# Sourced. Builds Rust binder VM kernels (tests/kernel/binder-defer-vmkernel.sh:
# tinyconfig + kernel/vm.config with ANDROID_BINDER_IPC_RUST, LLVM=1 in the
# sid chroot) from the base repository's commits in the worktree
# $KSERIES_CACHE/wt/defer-vm, into the reused build dir
# $KSERIES_CACHE/build/vm-rust-binder, which tests/t8200 uses too: one
# worktree per build dir, and $KSERIES_CACHE/wt/defer-vm.lock (flock) held
# while it is checked out and built. Images are kept by tree, so a commit
# built once (here or by t8200) is not built again. The initramfs holds
# tests/kernel/binder-defer-test, which runs without arguments:
#	binder-defer-test: order=ok|FAIL|unsupported classic_ioctls_per_txn=X
#	defer_ioctls_per_txn=Y saved=Z%
set -euo pipefail
SRC=$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)
CACHE=${KSERIES_CACHE:-$HOME/.cache/kseries}
export KSERIES_CACHE=$CACHE
TREE=${KSERIES_TREE:-$CACHE/linux}
WT=$CACHE/wt/defer-vm
IMAGES=$CACHE/build/vm-rust-binder/images
OUT=${KSERIES_LOGDIR:-$(mktemp -d)}/defer
PROG=$SRC/tests/kernel/binder-defer-test.c
mkdir -p "$OUT" "$IMAGES"

need() {
	command -v qemu-system-x86_64 >/dev/null ||
		{ echo "no qemu-system-x86_64" >&2; exit 77; }
	[ -s "$CACHE/sid/.kseries-versions" ] ||
		{ echo "no sid chroot in $CACHE/sid (kernel/provision-toolchain): the Rust binder needs it" >&2; exit 77; }
	[ -n "${KSERIES_BASE:-}" ] && [ -n "${KSERIES_TIP:-}" ] ||
		{ echo "KSERIES_BASE and KSERIES_TIP must name commits" >&2; exit 2; }
}

# kernel REV NAME: $IMAGES/NAME.bzImage, the Rust binder VM kernel of REV
kernel() {
	(
		exec 8>"$WT.lock"
		flock 8
		if [ ! -e "$WT/.git" ]; then
			git -C "$TREE" worktree add --detach "$WT" "$1" >&2
		fi
		git -C "$WT" am --abort >/dev/null 2>&1 || :
		git -C "$WT" checkout -q --detach -f "$1"
		"$SRC/tests/kernel/binder-defer-vmkernel.sh" "$WT" "$IMAGES/$2.bzImage" >&2
	)
}

# initramfs: $OUT/initrd.gz with binder-defer-test
initramfs() {
	gcc -static -O2 -Wall -pthread -o "$OUT/binder-defer-test" "$PROG" >&2
	(cd "$OUT" && "$SRC/kernel/vm-initramfs" "$OUT/initrd.gz" binder-defer-test >&2)
}

# boot NAME: run $IMAGES/NAME.bzImage (-M microvm -smp 2, TCG), log in
# $OUT/NAME.log; returns vm-run's status (the test's)
boot() {
	"$SRC/kernel/vm-run" --timeout 900 --log "$OUT/$1.log" \
		"$IMAGES/$1.bzImage" "$OUT/initrd.gz" >/dev/null
}

# line NAME: the summary line of binder-defer-test in NAME's log
line() {
	grep "^binder-defer-test:" "$OUT/$1.log" | tail -n 1 || :
}

# field KEY NAME: KEY= of that line
field() {
	line "$2" | sed -n "s/.* $1=\\([0-9a-zA-Z.]*\\).*/\\1/p"
}
