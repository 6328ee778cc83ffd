# shellcheck shell=bash
# series/binder-defer-complete/check/lib.sh - shared by the vm and perf stages.
#
# Sourced. The VM harness is kernel/vm-stage.sh's, with the Rust binder:
# VM kernels built by tests/kernel/binder-defer-vmkernel.sh (tinyconfig +
# kernel/vm.config with ANDROID_BINDER_IPC_RUST, LLVM=1 in the sid chroot)
# from the base repository's commits in the worktree
# $KSERIES_CACHE/wt/defer-vm, into the reused build dir
# $KSERIES_CACHE/build/vm-rust-binder, which tests/t8200 uses too (with
# that worktree and its lock); logs under $KSERIES_LOGDIR/defer. Images
# are kept by tree, so a commit built once (here or by t8200) is not
# built again. A count, not a time: one boot each (vs_boot -1), with or
# without high resolution timers. The initramfs holds
# tests/kernel/binder-defer-test, which runs without arguments:
#	binder-defer-test: order=ok|FAIL|unsupported classic_ioctls_per_txn=X
#	defer_ioctls_per_txn=Y saved=Z%
. "$(dirname "${BASH_SOURCE[0]}")/../../../kernel/vm-stage.sh"
vs_init -w defer-vm -l defer -k "$VS_SRC/tests/kernel/binder-defer-vmkernel.sh" rust-binder
PROG=$VS_SRC/tests/kernel/binder-defer-test.c

# initramfs: $VS_OUT/initrd.gz with binder-defer-test
initramfs() {
	gcc -static -O2 -Wall -pthread -o "$VS_OUT/binder-defer-test" "$PROG" >&2
	(cd "$VS_OUT" && "$VS_KERNEL/vm-initramfs" "$VS_OUT/initrd.gz" binder-defer-test >&2)
}

# line LABEL: the summary line of binder-defer-test in LABEL's log
line() {
	grep "^binder-defer-test:" "$VS_OUT/$1.log" | tail -n 1 || :
}

# field KEY LABEL: KEY= of that line
field() {
	line "$2" | sed -n "s/.* $1=\\([0-9a-zA-Z.]*\\).*/\\1/p"
}
