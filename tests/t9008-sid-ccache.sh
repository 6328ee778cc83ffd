#!/bin/bash
test_description='the sid chroot: ccache by level (in place, no rebuild), and kbuild/kunit-run builds in it through ccache'
. "$(dirname "$0")/lib.sh"

# provision-toolchain writes a level into the chroot (.kseries-level; none
# is level 1): level 2 adds ccache. A chroot below the level is brought
# up in place by apt-get install, never rebuilt, and never by upgrading a
# package it holds. The first tests run it on a small stand-in root (the
# host's bash and env, and an apt-get that records what it is asked);
# the last ones build through the real chroot's ccache (gcc for --sid,
# clang for rust-*'s LLVM=1), when $REAL_CACHE/sid is at level 2: they
# use it through a symlink from a scratch cache and never provision it.

K=$SRC_DIR/kernel
if [ "$(id -u)" = 0 ] && unshare -m --propagation private true 2>/dev/null; then
	test_set_prereq ROOT
else
	SKIP_REASON='needs root (unshare, mount, chroot)'
fi
unset KSERIES_DISTCC KSERIES_CCACHE KSERIES_CCACHE_SIZE KSERIES_BUILD_LOCKED
unset KS_MAKE_CAN_BIND KS_MAKE_SID

# mkroot DIR: a root that runs bash scripts: bash, env and their
# libraries, an apt-get that logs its arguments to /apt.log, prints /sim
# for -s, and on install writes /installed (or fails when /fail exists).
mkroot() {
	local f l
	mkdir -p "$1"/{proc,sys,dev,tmp,usr/bin,bin} || return 1
	for f in /bin/bash /usr/bin/env; do
		cp -L "$f" "$1/usr/bin/" || return 1
		for l in $(ldd "$f" | grep -o '/[^ ]*'); do
			mkdir -p "$1$(dirname "$l")" && cp -L "$l" "$1$l" || return 1
		done
	done
	ln -s /usr/bin/bash "$1/bin/bash"
	cat >"$1/usr/bin/apt-get" <<-'EOF'
	#!/usr/bin/bash
	echo "apt-get $*" >>/apt.log
	sim=0 inst=0
	for a; do
		case $a in -s) sim=1 ;; install) inst=1 ;; esac
	done
	if [ $sim = 1 ]; then [ ! -e /sim ] || echo "$(</sim)"; exit 0; fi
	if [ $inst = 1 ]; then [ ! -e /fail ] || exit 100; echo ccache >/installed; fi
	exit 0
	EOF
	chmod +x "$1/usr/bin/apt-get"
	echo "clang 1:21" >"$1/.kseries-versions"
	echo "Inst ccache (4.14.2-1 Debian:unstable [amd64])" >"$1/sim"
}

test_expect_success ROOT 'level 1 (no .kseries-level): ccache is installed in place, then level 2' '
	export KSERIES_CACHE=$TRASH/c1 && mkroot "$KSERIES_CACHE/sid" &&
	echo kept >"$KSERIES_CACHE/sid/marker" &&
	"$K/provision-toolchain" >out 2>err || { cat err; return 1; }
	echo "$KSERIES_CACHE/sid" >expect && test_cmp expect out &&
	grep "bringing .* from level 1 to 2: installing ccache" err &&
	! grep debootstrap err &&
	printf "%s\n" "apt-get -q update" "apt-get -s -q install ccache" \
		"apt-get -q -y install ccache" "apt-get clean" >expect &&
	test_cmp expect "$KSERIES_CACHE/sid/apt.log" &&
	test "$(cat "$KSERIES_CACHE/sid/.kseries-level")" = 2 &&
	test "$(cat "$KSERIES_CACHE/sid/marker")" = kept &&
	test -e "$KSERIES_CACHE/sid/installed" &&
	! test -e "$KSERIES_CACHE/sid.tmp" &&
	rm "$KSERIES_CACHE/sid/apt.log" &&
	"$K/provision-toolchain" >out 2>err &&
	test "$(cat out)" = "$KSERIES_CACHE/sid" &&
	! test -e "$KSERIES_CACHE/sid/apt.log" && test ! -s err
'

test_expect_success ROOT 'a level up that would upgrade a package the chroot holds: refused, one line, level unchanged' '
	export KSERIES_CACHE=$TRASH/c2 && mkroot "$KSERIES_CACHE/sid" &&
	printf "%s\n" "Inst libc6 [2.41-1] (2.43-7 Debian:unstable [amd64])" \
		"Inst ccache (4.14.2-1 Debian:unstable [amd64])" >"$KSERIES_CACHE/sid/sim" &&
	test_expect_code 1 "$K/provision-toolchain" >out 2>err &&
	grep "error:" err >errors && test_line_count = 1 errors &&
	grep "would upgrade libc6: run provision-toolchain --rebuild" errors &&
	! grep -- "-y install" "$KSERIES_CACHE/sid/apt.log" &&
	! test -e "$KSERIES_CACHE/sid/.kseries-level" &&
	test -s "$KSERIES_CACHE/sid/.kseries-versions"
'

test_expect_success ROOT 'a failed install: one error line, the chroot kept at its level; a bad level refused' '
	export KSERIES_CACHE=$TRASH/c3 && mkroot "$KSERIES_CACHE/sid" &&
	: >"$KSERIES_CACHE/sid/fail" &&
	test_expect_code 1 "$K/provision-toolchain" >out 2>err &&
	grep "error:" err >errors && test_line_count = 1 errors &&
	grep "installing ccache in .* failed" errors &&
	! test -e "$KSERIES_CACHE/sid/.kseries-level" &&
	test -s "$KSERIES_CACHE/sid/.kseries-versions" &&
	! test -e "$KSERIES_CACHE/sid.tmp" &&
	echo "2;x" >"$KSERIES_CACHE/sid/.kseries-level" &&
	test_expect_code 1 "$K/provision-toolchain" >out 2>err &&
	test_line_count = 1 err && grep "holds no level" err
'

test_expect_success ROOT 'a tarball at level 1: restored, brought up, written again at level 2' '
	export KSERIES_CACHE=$TRASH/c4 && mkroot img && mkdir -p "$KSERIES_CACHE" &&
	tar -C img -I zstd -cf "$KSERIES_CACHE/sid.tar.zst" . &&
	"$K/provision-toolchain" >out 2>err || { cat err; return 1; }
	grep restoring err && grep "bringing .* to 2" err &&
	test "$(cat "$KSERIES_CACHE/sid/.kseries-level")" = 2 &&
	tar -I zstd -xOf "$KSERIES_CACHE/sid.tar.zst" ./.kseries-level >lvl &&
	test "$(cat lvl)" = 2 && ! test -e "$KSERIES_CACHE/sid.tmp"
'

test_expect_success ROOT 'chroot-run provisions a chroot below the level before it runs anything' '
	export KSERIES_CACHE=$TRASH/c5 && mkroot "$KSERIES_CACHE/sid" &&
	: >"$KSERIES_CACHE/sid/fail" &&
	test_expect_code 1 "$K/chroot-run" --root -C /tmp -- true 2>err &&
	grep "at level 2 yet: running kernel/provision-toolchain" err &&
	grep "installing ccache in .* failed" err &&
	rm "$KSERIES_CACHE/sid/fail" "$KSERIES_CACHE/sid/apt.log" &&
	"$K/chroot-run" --root -C /tmp -- /usr/bin/bash -c "echo ran" >out 2>err &&
	test "$(cat out)" = ran &&
	test "$(cat "$KSERIES_CACHE/sid/.kseries-level")" = 2 &&
	"$K/chroot-run" --root -C /tmp -- /usr/bin/bash -c "echo ran" >out 2>err &&
	test ! -s err
'

# The real chroot, at level 2 (ccache in it).
if test_have_prereq ROOT && [ -L "$REAL_CACHE/sid/usr/lib/ccache/gcc" ] &&
   [ -L "$REAL_CACHE/sid/usr/lib/ccache/clang" ] &&
   (KSERIES_CACHE=$REAL_CACHE && . "$K/lib.sh" && ks_sid_current); then
	test_set_prereq SIDCC
else
	SKIP_REASON="no sid chroot at level 2 in $REAL_CACHE/sid (kernel/provision-toolchain)"
fi

mkdir -p "$TRASH/tree/scripts"
cat >"$TRASH/tree/Makefile" <<'EOF'
ifneq ($(LLVM),)
CC = clang
else
CC = gcc
endif
hello.o:
	@echo 'cmd_hello.o := $(CC) -O2 -c -o $(O)/hello.o $(CURDIR)/hello.c' >$(O)/.hello.o.cmd
	$(CC) -O2 -c -o $(O)/hello.o $(CURDIR)/hello.c
EOF
printf 'int hello(int x) { return x * 42; }\n' >"$TRASH/tree/hello.c"
mkdir -p "$TRASH/tree/tools/testing/kunit"
cat >"$TRASH/tree/tools/testing/kunit/kunit.py" <<'EOF'
#!/usr/bin/env python3
# stand-in for kunit.py build: make ARCH=um O=DIR hello.o, as kunit.py runs make
import subprocess, sys
args = dict(a.split('=', 1) for a in sys.argv[2:] if a.startswith('--'))
sys.exit(subprocess.run(['make', 'ARCH=um', 'O=' + args['--build_dir'], 'hello.o']).returncode)
EOF
chmod +x "$TRASH/tree/tools/testing/kunit/kunit.py"
printf 'CONFIG_KUNIT=y\n' >"$TRASH/kunit-t.kunitconfig"

S=$TRASH/sc
mkdir -p "$S"
ln -s "$REAL_CACHE/sid" "$S/sid"
export KSERIES_NO_PROVISION=1
# configured BUILD CONFIG: a build dir whose .config kbuild takes as made
configured() {
	mkdir -p "$1" && cp "$K/$2.config" "$1/.kseries-fragment" &&
	echo CONFIG_64BIT=y >"$1/.config"
}
# sstat NAME: a counter of the chroot's cache, by the chroot's ccache
sstat() {
	local c
	c=$(readlink -f "$S")/ccache-sid
	"$K/chroot-run" --bind "$c" -- env CCACHE_DIR="$c" CCACHE_CONFIGPATH=/dev/null \
		ccache --print-stats | awk -v n="$1" '$1 == n { print $2 }'
}
shits() { echo $(( $(sstat direct_cache_hit) + $(sstat preprocessed_cache_hit) )); }

test_expect_success SIDCC '--sid (sid'"'"'s gcc): off, then on: the same command and object; a fresh build dir hits' '
	export KSERIES_CACHE=$S && B=$S/build/c-binder-sid &&
	configured "$B" c-binder &&
	KSERIES_CCACHE=0 "$K/kbuild" --sid c-binder tree hello.o 2>err || { cat err "$B/kbuild.log"; exit 1; }
	test ! -e "$S/ccache-sid" &&
	cp "$B/.hello.o.cmd" cmd.off && cp "$B/hello.o" o.off &&
	grep -x "cmd_hello.o := gcc -O2 -c -o $B/hello.o $TRASH/tree/hello.c" cmd.off &&
	rm "$B/hello.o" &&
	"$K/kbuild" --sid c-binder tree hello.o 2>err || { cat err "$B/kbuild.log"; exit 1; }
	test_cmp cmd.off "$B/.hello.o.cmd" && cmp o.off "$B/hello.o" &&
	test "$(stat -c %u "$S/ccache-sid")" = 7213 && ! test -e "$S/ccache" &&
	test "$(sstat cache_miss)" = 1 && test "$(shits)" = 0 &&
	mv "$B" "$B.first" && configured "$B" c-binder &&
	"$K/kbuild" --sid c-binder tree hello.o 2>err || { cat err "$B/kbuild.log"; exit 1; }
	cmp o.off "$B/hello.o" && test_cmp cmd.off "$B/.hello.o.cmd" &&
	test "$(sstat cache_miss)" = 1 && test "$(shits)" = 1
'

test_expect_success SIDCC 'rust-* (LLVM=1, CC=clang): the recorded command names clang as without ccache; a fresh build dir hits' '
	export KSERIES_CACHE=$S && B=$S/build/rust-binder &&
	configured "$B" rust-binder &&
	KSERIES_CCACHE=0 "$K/kbuild" rust-binder tree hello.o 2>err || { cat err "$B/kbuild.log"; exit 1; }
	cp "$B/.hello.o.cmd" rcmd.off && cp "$B/hello.o" ro.off &&
	grep -x "cmd_hello.o := clang -O2 -c -o $B/hello.o $TRASH/tree/hello.c" rcmd.off &&
	rm "$B/hello.o" &&
	"$K/kbuild" rust-binder tree hello.o 2>err || { cat err "$B/kbuild.log"; exit 1; }
	grep -x "clang -O2 -c -o $B/hello.o $TRASH/tree/hello.c" "$B/kbuild.log" &&
	test_cmp rcmd.off "$B/.hello.o.cmd" && cmp ro.off "$B/hello.o" &&
	test "$(sstat cache_miss)" = 2 && test "$(shits)" = 1 &&
	mv "$B" "$B.first" && configured "$B" rust-binder &&
	"$K/kbuild" rust-binder tree hello.o 2>err || { cat err "$B/kbuild.log"; exit 1; }
	cmp ro.off "$B/hello.o" &&
	test "$(sstat cache_miss)" = 2 && test "$(shits)" = 2
'

test_expect_success SIDCC 'kunit-run --sid: the UML build in the chroot hits what kbuild --sid stored' '
	export KSERIES_CACHE=$S &&
	"$K/kunit-run" --build-only --sid kunit-t.kunitconfig tree >out 2>err || { cat out err; exit 1; }
	grep -x "gcc -O2 -c -o $S/build/kunit-t/hello.o $TRASH/tree/hello.c" out &&
	cmp o.off "$S/build/kunit-t/hello.o" &&
	test "$(sstat cache_miss)" = 2 && test "$(shits)" = 3
'

test_done
