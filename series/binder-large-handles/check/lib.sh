# shellcheck shell=bash
# series/binder-large-handles/check/lib.sh - shared by the vm and perf stages.
#
# Sourced. The VM harness is kernel/vm-stage.sh's: C binder VM kernels
# (kernel/vm-build: tinyconfig + kernel/vm.config, host gcc) from the base
# repository's commits in the worktree $KSERIES_CACHE/wt/handles-vm, into
# the reused build dir $KSERIES_CACHE/build/vm-binder-handles, which
# tests/t8201 uses too (with that worktree and its lock); logs under
# $KSERIES_LOGDIR/handles. kernel/vm-build keeps images by tree, so a
# commit built once is not built again. One boot each (vs_boot -1: the
# benchmark waits on no timer, so high resolution timers do not matter
# to it), under a 1500 s timeout (the guest's: 1400 s). The initramfs holds
# tests/kernel/binder-handles-bench, which runs without arguments:
# 100,000 references with PF_LARGE_HANDLES off, then on, one line per mode:
#	binder-handles-bench: mode=off refs=100000 start_us=.. end_us=..
#	delta_us=.. held=.. max_handle=.. reuse=yes|no fill_ms=..
. "$(dirname "${BASH_SOURCE[0]}")/../../../kernel/vm-stage.sh"
vs_init -w handles-vm -l handles binder-handles
PROG=$VS_SRC/tests/kernel/binder-handles-bench.c

# initramfs: $VS_OUT/initrd.gz with binder-handles-bench
initramfs() {
	gcc -static -O2 -Wall -o "$VS_OUT/binder-handles-bench" "$PROG" >&2
	(cd "$VS_OUT" && "$VS_KERNEL/vm-initramfs" "$VS_OUT/initrd.gz" binder-handles-bench >&2)
}

# line MODE LABEL: binder-handles-bench's MODE line in LABEL's log
line() {
	grep "^binder-handles-bench: mode=$1 " "$VS_OUT/$2.log" | tail -n 1 || :
}

# field MODE KEY LABEL: KEY= of that line
field() {
	line "$1" "$3" | sed -n "s/.* $2=\\([-0-9a-z.]*\\).*/\\1/p"
}
