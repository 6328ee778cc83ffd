#!/bin/bash
test_description='kernel/kunit-run with ccache: the cache bound into its sandbox, on and off, a hit from a second build dir, bad values refused'
. "$(dirname "$0")/lib.sh"

# kunit-run builds a KUnit kernel under UML (kunit.py build, whose make
# inherits the environment) or, --arch x86_64, with make from tinyconfig
# (lib.sh's ks_kbuild_make, as kbuild). Both now compile through ccache
# by masquerade, as kbuild does: the sandbox gets PATH with
# /usr/lib/ccache first and the cache $KSERIES_CACHE/ccache bound
# read-write (--sid: the chroot's masquerade, ccache-sid). The tree here
# is a stand-in kernel: its kunit.py build runs make as the real one does
# (subprocess, environment inherited), its Makefile compiles one object
# and records the command as kbuild does (a .cmd file), and makes a
# .config for tinyconfig; so a real compile goes through each path.

K=$SRC_DIR/kernel
if [ "$(id -u)" = 0 ] && unshare -m --propagation private true 2>/dev/null; then
	test_set_prereq ROOT
else
	SKIP_REASON='kunit-run needs root (chroot-run: unshare, mount)'
fi
if [ -L /usr/lib/ccache/gcc ] && command -v gcc >/dev/null &&
   command -v python3 >/dev/null; then
	test_set_prereq CCACHE
else
	SKIP_REASON='no /usr/lib/ccache/gcc (Debian package ccache) or no python3'
fi
unset KSERIES_DISTCC KSERIES_CCACHE KSERIES_CCACHE_SIZE KSERIES_BUILD_LOCKED
unset KS_MAKE_CAN_BIND KS_MAKE_SID

T=$TRASH/tree
mkdir -p "$T/scripts" "$T/tools/testing/kunit"
cat >"$T/Makefile" <<'EOF'
CC = gcc
all: hello.o
hello.o:
	@echo 'cmd_hello.o := $(CC) -O2 -c -o $(O)/hello.o $(CURDIR)/hello.c' >$(O)/.hello.o.cmd
	$(CC) -O2 -c -o $(O)/hello.o $(CURDIR)/hello.c
tinyconfig:
	echo CONFIG_64BIT=y >$(O)/.config
olddefconfig:
	@:
EOF
printf 'int hello(int x) { return x * 42; }\n' >"$T/hello.c"
cat >"$T/tools/testing/kunit/kunit.py" <<'EOF'
#!/usr/bin/env python3
# stand-in for kunit.py build: make ARCH=um O=DIR hello.o, as kunit.py runs make
import subprocess, sys
args = dict(a.split('=', 1) for a in sys.argv[2:] if a.startswith('--'))
assert sys.argv[1] == 'build', sys.argv
sys.exit(subprocess.run(['make', 'ARCH=um', 'O=' + args['--build_dir'],
			 '--jobs=' + args['--jobs'], 'hello.o']).returncode)
EOF
chmod +x "$T/tools/testing/kunit/kunit.py"
printf 'CONFIG_KUNIT=y\n' >"$TRASH/kunit-t.kunitconfig"

# stat_of NAME: a counter of the cache's stats
stat_of() {
	CCACHE_DIR=$KSERIES_CACHE/ccache CCACHE_CONFIGPATH=/dev/null ccache --print-stats |
		awk -v n="$1" '$1 == n { print $2 }'
}
hits() { echo $(( $(stat_of direct_cache_hit) + $(stat_of preprocessed_cache_hit) )); }
kr() { "$K/kunit-run" --build-only "$@" "$TRASH/kunit-t.kunitconfig" "$T"; }

# fk/: kunit-run with a chroot-run that records each call's argv
mkdir -p "$TRASH/fk"
cp "$K/kunit-run" "$K/lib.sh" "$TRASH/fk/"
cat >"$TRASH/fk/chroot-run" <<EOF
#!/bin/sh
printf "%s\n" "\$@" >>"$TRASH/argv"
printf "%s\n" ---- >>"$TRASH/argv"
EOF
chmod +x "$TRASH/fk/chroot-run"

test_expect_success CCACHE 'UML and x86_64: each build call binds the cache and has the masquerade PATH; 0 turns it off' '
	export KSERIES_CACHE=$TRASH/c0 &&
	C=$(readlink -m "$KSERIES_CACHE")/ccache &&
	for a in um x86_64; do
		rm -f argv &&
		fk/kunit-run --build-only --arch $a kunit-t.kunitconfig tree >out 2>err ||
			{ cat err; return 1; }
		test -s argv &&
		awk -v c="$C" "
			/^----\$/ { if (!(b && d && p)) bad = 1; b = d = p = 0; n++; next }
			\$0 == c { b = 1 }
			\$0 == \"CCACHE_DIR=\" c { d = 1 }
			\$0 == \"PATH=/usr/lib/ccache:/usr/local/bin:/usr/bin:/bin:/usr/sbin:/sbin\" { p = 1 }
			END { exit bad || !n }" argv || { echo "$a:"; cat argv; return 1; }
		test "$(stat -c %u "$C")" = 7213 || return 1
		rm -f argv &&
		KSERIES_CCACHE=0 fk/kunit-run --build-only --arch $a kunit-t.kunitconfig tree >out 2>err &&
		test -s argv && ! grep -e "^CCACHE_" -e "^PATH=" -e "/ccache$" argv || return 1
	done
'

test_expect_success CCACHE '--sid: the chroot'"'"'s masquerade and the ccache-sid cache' '
	export KSERIES_CACHE=$TRASH/c0 &&
	C=$(readlink -m "$KSERIES_CACHE")/ccache-sid &&
	rm -f argv &&
	fk/kunit-run --build-only --sid kunit-t.kunitconfig tree >out 2>err &&
	grep -x -- "$C" argv && grep -x "CCACHE_DIR=$C" argv &&
	grep -x "PATH=/usr/lib/ccache:/usr/local/bin:/usr/bin:/bin:/usr/sbin:/sbin" argv &&
	! grep -x -- --host argv
'

test_expect_success CCACHE 'KSERIES_DISTCC: the UML build does not use it (nor check it), x86_64 refuses a bad one' '
	export KSERIES_CACHE=$TRASH/c0 &&
	rm -f argv &&
	KSERIES_DISTCC=127.0.0.1:3632 fk/kunit-run --build-only kunit-t.kunitconfig tree >out 2>err &&
	grep "^CCACHE_DIR=" argv && ! grep -e DISTCC -e CCACHE_PREFIX argv &&
	rm -f argv &&
	KSERIES_DISTCC="a;b" fk/kunit-run --build-only kunit-t.kunitconfig tree >out 2>err &&
	grep "^CCACHE_DIR=" argv &&
	test_expect_code 1 env KSERIES_DISTCC="a;b" fk/kunit-run --build-only --arch x86_64 kunit-t.kunitconfig tree 2>err &&
	test_line_count = 1 err && grep "bad KSERIES_DISTCC" err
'

test_expect_success CCACHE 'bad KSERIES_CCACHE, KSERIES_CCACHE_SIZE, a symlink where the cache goes: one line, exit 1, nothing written' '
	export KSERIES_CACHE=$TRASH/c1 &&
	mkdir -p "$KSERIES_CACHE" elsewhere &&
	for v in "KSERIES_CCACHE=yes" "KSERIES_CCACHE=1;x" "KSERIES_CCACHE_SIZE=2T" \
		 "KSERIES_CCACHE_SIZE=100000G" link; do
		rm -f argv "$KSERIES_CACHE/ccache"
		if [ $v = link ]; then
			ln -s "$TRASH/elsewhere" "$KSERIES_CACHE/ccache" && set -- env
		else
			set -- env "$v"
		fi
		test_expect_code 1 "$@" fk/kunit-run --build-only kunit-t.kunitconfig tree >out 2>err ||
			{ echo "accepted: $v"; return 1; }
		test_line_count = 1 err && grep -q "kunit-run: error: " err &&
		test ! -e argv && test ! -e "$KSERIES_CACHE/build" || { echo "$v:"; cat err; return 1; }
	done &&
	test -z "$(ls elsewhere)"
'

test_expect_success ROOT,CCACHE 'UML: off then on, the same recorded command and object; the build wrote the cache' '
	export KSERIES_CACHE=$TRASH/c2 && B=$KSERIES_CACHE/build/kunit-t &&
	KSERIES_CCACHE=0 kr >out 2>err || { cat out err; return 1; }
	test ! -e "$KSERIES_CACHE/ccache" &&
	grep -x "cmd_hello.o := gcc -O2 -c -o $B/hello.o $T/hello.c" "$B/.hello.o.cmd" &&
	cp "$B/.hello.o.cmd" cmd.off && cp "$B/hello.o" o.off &&
	rm "$B/hello.o" &&
	kr >out 2>err || { cat out err; return 1; }
	grep -x "gcc -O2 -c -o $B/hello.o $T/hello.c" out &&
	test_cmp cmd.off "$B/.hello.o.cmd" && cmp o.off "$B/hello.o" &&
	test "$(stat_of cache_miss)" = 1 && test "$(hits)" = 0 &&
	find "$KSERIES_CACHE/ccache" -type f -name "*R" >results &&
	test_line_count = 1 results &&
	test "$(stat -c %u "$(cat results)")" = 7213
'

test_expect_success ROOT,CCACHE 'UML: a second, fresh build dir (--name): a hit, the same object' '
	export KSERIES_CACHE=$TRASH/c2 &&
	kr --name kunit-t2 >out 2>err || { cat out err; return 1; }
	cmp o.off "$KSERIES_CACHE/build/kunit-t2/hello.o" &&
	test "$(stat_of cache_miss)" = 1 && test "$(hits)" = 1
'

test_expect_success ROOT,CCACHE 'x86_64: a fresh build dir hits the cache the UML builds filled; off compiles past it' '
	export KSERIES_CACHE=$TRASH/c2 && B=$KSERIES_CACHE/build/kunit-x &&
	kr --arch x86_64 --name kunit-x >out 2>err || { cat out err; return 1; }
	grep -x "gcc -O2 -c -o $B/hello.o $T/hello.c" out &&
	cmp o.off "$B/hello.o" &&
	test "$(stat_of cache_miss)" = 1 && test "$(hits)" = 2 &&
	rm "$B/hello.o" &&
	KSERIES_CCACHE=0 kr --arch x86_64 --name kunit-x >out 2>err &&
	cmp o.off "$B/hello.o" && test "$(hits)" = 2
'

test_done
