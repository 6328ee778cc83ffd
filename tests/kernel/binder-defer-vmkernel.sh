#!/bin/bash
# tests/kernel/binder-defer-vmkernel.sh - a VM harness kernel with Rust binder.
#
# usage: tests/kernel/binder-defer-vmkernel.sh SRCTREE OUT
#
# kernel/vm-build makes the VM kernel with the host's gcc and the C binder;
# TF_DEFER_COMPLETE is a Rust binder change, so this builds the same VM
# kernel (tinyconfig + kernel/vm.config) with the C binder swapped for
# ANDROID_BINDER_IPC_RUST, in the sid chroot with LLVM=1, the way
# kernel/kbuild builds its rust-* configs: as the unprivileged kbuild user
# through kernel/chroot-run, the source read-only at /mnt/linux (so the
# objects are reused across worktrees and versions), the build directory
# $KSERIES_CACHE/build/vm-rust-binder, under flock $KSERIES_CACHE/build.lock.
# Copies the bzImage to OUT. Build output: $BUILD/build.log.
#
# Images are kept by content, as kernel/vm-build keeps them: when SRCTREE
# is a git checkout without changes to tracked files, the bzImage is also
# stored as $BUILD/by-tree/<HEAD tree id>-<fragment hash>.bzImage, and a
# later call for the same tree and fragment copies it without taking the
# lock or running make (t8200 and the series' check/vm and check/perf
# stages switch the same worktree between base, v2 and the latest).
set -euo pipefail

usage() { echo "usage: tests/kernel/binder-defer-vmkernel.sh SRCTREE OUT" >&2; exit 129; }
[ $# -eq 2 ] || usage

here=$(cd "$(dirname "$0")" && pwd)
kernel=$(cd "$here/../../kernel" && pwd)
. "$kernel/lib.sh"
src=$(readlink -f "$1")
out=$2
[ -f "$src/Makefile" ] && [ -d "$src/drivers/android/binder" ] ||
	ks_die "'$src' is not a kernel tree with the Rust binder"

BUILD=$KSERIES_CACHE/build/vm-rust-binder
mkdir -p "$BUILD"
if [ "$(stat -c %u "$BUILD")" != "$KS_KBUILD_UID" ]; then
	chown -R "$KS_KBUILD_UID:$KS_KBUILD_GID" "$BUILD"
fi
log=$BUILD/build.log

# The fragment: the VM harness's, C binder out, Rust binder in.
frag=$BUILD/.vm-rust.config.new.$$
{
	grep -v -E '^CONFIG_ANDROID_BINDER(_IPC|FS)=' "$kernel/vm.config"
	cat <<-'EOF'
	# CONFIG_ANDROID_BINDER_IPC is not set
	CONFIG_RUST=y
	CONFIG_ANDROID_BINDER_IPC_RUST=y
	CONFIG_ANDROID_BINDER_DEVICES="binder"
	EOF
} >"$frag"
chown "$KS_KBUILD_UID:$KS_KBUILD_GID" "$frag"

run() {	# run CMD...: in the chroot, as kbuild, output to the log
	"$kernel/chroot-run" --ro-bind-to "$src" /mnt/linux --bind "$BUILD" \
		--env KBUILD_BUILD_USER=kseries --env KBUILD_BUILD_HOST=kseries \
		--env "KBUILD_BUILD_TIMESTAMP=2026-01-01 00:00:00 UTC" \
		-C "$BUILD" -- "$@" >>"$log" 2>&1 </dev/null
}
mk() { run nice make -C /mnt/linux O="$BUILD" -j"${KSERIES_JOBS:-2}" LLVM=1 LOCALVERSION= "$@"; }

build() {
	: >"$log"
	if [ ! -s "$BUILD/.config" ] || ! cmp -s "$frag" "$BUILD/.vm-rust.config"; then
		rm -f "$BUILD/.vm-rust.config"
		mk tinyconfig || return
		run /mnt/linux/scripts/kconfig/merge_config.sh -m -O "$BUILD" \
			"$BUILD/.config" "$frag" || return
		mk olddefconfig || return
		local sym
		for sym in CONFIG_RUST=y CONFIG_ANDROID_BINDER_IPC_RUST=y \
			   CONFIG_SERIAL_8250_CONSOLE=y CONFIG_BLK_DEV_INITRD=y; do
			grep -qxF "$sym" "$BUILD/.config" ||
				{ echo "binder-defer-vmkernel: $sym did not stick" >>"$log"; return 1; }
		done
		cp "$frag" "$BUILD/.vm-rust.config" || return
	fi
	mk bzImage
}

deliver() {
	mkdir -p "$(dirname "$out")"
	cp "$1" "$out.tmp.$$"
	mv "$out.tmp.$$" "$out"
}

key=
if git -C "$src" rev-parse --git-dir >/dev/null 2>&1 &&
   [ -z "$(git -C "$src" status --porcelain --untracked-files=no)" ]; then
	key=$(git -C "$src" rev-parse 'HEAD^{tree}')-$(git hash-object "$frag")
fi
if [ -n "$key" ] && [ -f "$BUILD/by-tree/$key.bzImage" ]; then
	rm -f "$frag"
	deliver "$BUILD/by-tree/$key.bzImage"
	exit 0
fi

rc=0
{ flock 9 && build; } 9>"$KSERIES_CACHE/build.lock" || rc=$?
rm -f "$frag"
if [ "$rc" -ne 0 ]; then
	tail -n 40 "$log" >&2
	ks_die "Rust VM kernel build failed (log: $log)"
fi
image=$BUILD/arch/x86/boot/bzImage
if [ -n "$key" ]; then
	mkdir -p "$BUILD/by-tree"
	cp "$image" "$BUILD/by-tree/$key.tmp.$$"
	mv "$BUILD/by-tree/$key.tmp.$$" "$BUILD/by-tree/$key.bzImage"
fi
deliver "$image"
