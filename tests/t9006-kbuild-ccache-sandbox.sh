#!/bin/bash
test_description='kernel/kbuild with ccache through its sandbox: the build writes the shared cache, hits across build dirs, records the same command'
. "$(dirname "$0")/lib.sh"

# kbuild runs make as uid 7213 in a private mount namespace (chroot-run
# --host) that sees only the source tree (read-only) and what kbuild
# binds read-write. With ccache on (the default when /usr/lib/ccache is
# there) kbuild binds $KSERIES_CACHE/ccache too, and gcc is ccache by
# PATH: a small tree whose Makefile records its compile command as kbuild
# does (a .cmd file) builds in one build dir, then in a fresh one; the
# second compile must be a hit in the cache's stats, the objects and the
# recorded command the same as without ccache. Without the bind (a
# chroot-run that drops it) the same build fails.

K=$SRC_DIR/kernel
if [ "$(id -u)" = 0 ] && unshare -m --propagation private true 2>/dev/null; then
	test_set_prereq ROOT
else
	SKIP_REASON='kbuild needs root (chroot-run: unshare, mount)'
fi
if [ -L /usr/lib/ccache/gcc ] && command -v gcc >/dev/null; then
	test_set_prereq CCACHE
else
	SKIP_REASON='no /usr/lib/ccache/gcc (Debian package ccache)'
fi
unset KSERIES_DISTCC KSERIES_CCACHE KSERIES_CCACHE_SIZE KSERIES_BUILD_LOCKED

# The tree: the compile command recorded the way kbuild records it.
mkdir -p "$TRASH/tree/scripts"
cat >"$TRASH/tree/Makefile" <<'EOF'
CC = gcc
hello.o:
	@echo 'cmd_hello.o := $(CC) -O2 -c -o $(O)/hello.o $(CURDIR)/hello.c' >$(O)/.hello.o.cmd
	$(CC) -O2 -c -o $(O)/hello.o $(CURDIR)/hello.c
EOF
printf 'int hello(int x) { return x * 42; }\n' >"$TRASH/tree/hello.c"

# configured BUILD: a build dir whose .config kbuild takes as made
configured() {
	mkdir -p "$1" && cp "$K/c-binder.config" "$1/.kseries-fragment" &&
	echo CONFIG_64BIT=y >"$1/.config"
}
# stat_of NAME: a counter of the cache's stats
stat_of() {
	CCACHE_DIR=$KSERIES_CACHE/ccache CCACHE_CONFIGPATH=/dev/null ccache --print-stats |
		awk -v n="$1" '$1 == n { print $2 }'
}

test_expect_success ROOT,CCACHE 'off, then on: the same recorded command and object; the build wrote the cache' '
	export KSERIES_CACHE=$TRASH/c1 && B=$KSERIES_CACHE/build/c-binder &&
	configured "$B" &&
	KSERIES_CCACHE=0 "$K/kbuild" c-binder tree hello.o 2>err || { cat err "$B/kbuild.log"; exit 1; }
	test ! -e "$KSERIES_CACHE/ccache" &&
	cp "$B/.hello.o.cmd" cmd.off && cp "$B/hello.o" o.off &&
	grep -x "cmd_hello.o := gcc -O2 -c -o $B/hello.o $TRASH/tree/hello.c" cmd.off &&
	rm "$B/hello.o" &&
	"$K/kbuild" c-binder tree hello.o 2>err || { cat err "$B/kbuild.log"; exit 1; }
	test_cmp cmd.off "$B/.hello.o.cmd" &&
	cmp o.off "$B/hello.o" &&
	grep -x "gcc -O2 -c -o $B/hello.o $TRASH/tree/hello.c" "$B/kbuild.log" &&
	test "$(stat -c %u "$KSERIES_CACHE/ccache")" = 7213 &&
	test "$(stat_of cache_miss)" = 1 &&
	find "$KSERIES_CACHE/ccache" -type f -name "*R" >results &&
	test_line_count = 1 results &&
	test "$(stat -c %u "$(cat results)")" = 7213
'

test_expect_success ROOT,CCACHE 'a second, fresh build dir of the same config: a hit, the same object' '
	export KSERIES_CACHE=$TRASH/c1 && B=$KSERIES_CACHE/build/c-binder &&
	mv "$B" "$B.first" && configured "$B" &&
	"$K/kbuild" c-binder tree hello.o 2>err || { cat err "$B/kbuild.log"; exit 1; }
	cmp o.off "$B/hello.o" &&
	test_cmp cmd.off "$B/.hello.o.cmd" &&
	test "$(stat_of cache_miss)" = 1 &&
	test "$(( $(stat_of direct_cache_hit) + $(stat_of preprocessed_cache_hit) ))" = 1
'

test_expect_success ROOT,CCACHE 'a ccache.conf planted in the cache configures nothing' '
	export KSERIES_CACHE=$TRASH/c1 && B=$KSERIES_CACHE/build/c-binder &&
	printf "disable = true\n" >"$KSERIES_CACHE/ccache/ccache.conf" &&
	rm "$B/hello.o" &&
	"$K/kbuild" c-binder tree hello.o 2>err || { cat err "$B/kbuild.log"; exit 1; }
	test "$(( $(stat_of direct_cache_hit) + $(stat_of preprocessed_cache_hit) ))" = 2
'

# a kbuild whose chroot-run drops the bind of the cache
test_expect_success ROOT,CCACHE 'without the bind of the cache the build fails' '
	export KSERIES_CACHE=$TRASH/c2 && B=$KSERIES_CACHE/build/c-binder &&
	configured "$B" &&
	mkdir fk && cp "$K/kbuild" "$K/lib.sh" "$K/c-binder.config" fk/ &&
	C=$(readlink -f "$KSERIES_CACHE")/ccache &&
	cat >fk/chroot-run <<-EOF &&
	#!/bin/bash
	a=()
	while [ \$# -gt 0 ]; do
		if [ "\$1" = --bind ] && [ "\$2" = "$C" ]; then shift 2; continue; fi
		a+=("\$1"); shift
	done
	exec "$K/chroot-run" "\${a[@]}"
	EOF
	chmod +x fk/chroot-run &&
	test_must_fail fk/kbuild c-binder tree hello.o 2>err &&
	grep "ccache: error" "$B/kbuild.log" &&
	test ! -e "$B/hello.o" &&
	KSERIES_CCACHE=0 fk/kbuild c-binder tree hello.o 2>err &&
	test -s "$B/hello.o"
'

test_expect_success ROOT,CCACHE 'a symlink where the cache goes: one error line, nothing built' '
	export KSERIES_CACHE=$TRASH/c3 && B=$KSERIES_CACHE/build/c-binder &&
	configured "$B" && mkdir elsewhere &&
	ln -s "$TRASH/elsewhere" "$KSERIES_CACHE/ccache" &&
	test_expect_code 1 "$K/kbuild" c-binder tree hello.o 2>err &&
	test_line_count = 1 err && grep "kbuild: error: .*symlink" err &&
	test ! -e "$B/hello.o" && test -z "$(ls elsewhere)" &&
	test "$(stat -c %u elsewhere)" = 0
'

# A chroot-run that records its argv: which configs get which cache.
test_expect_success ROOT,CCACHE 'c-* on the host get the cache and its bind; rust-* and --sid (the chroot) the chroot'"'"'s' '
	export KSERIES_CACHE=$TRASH/c4 &&
	mkdir fk4 && cp "$K/kbuild" "$K/lib.sh" "$K/c-binder.config" "$K/rust-binder.config" fk4/ &&
	cat >fk4/chroot-run <<-EOF &&
	#!/bin/sh
	printf "%s\n" "\$@" >"$TRASH/argv"
	EOF
	chmod +x fk4/chroot-run &&
	configured "$KSERIES_CACHE/build/c-binder" &&
	fk4/kbuild c-binder tree hello.o 2>err &&
	C=$(readlink -f "$KSERIES_CACHE")/ccache &&
	grep -x -- "$C" argv && grep -x "CCACHE_DIR=$C" argv &&
	grep -x "PATH=/usr/lib/ccache:/usr/local/bin:/usr/bin:/bin:/usr/sbin:/sbin" argv &&
	grep -x -- --host argv &&
	sed -n "/^--\$/,\$p" argv >cmd &&
	printf "%s\n" -- nice make -C "$TRASH/tree" O="$KSERIES_CACHE/build/c-binder" -j2 hello.o >expect &&
	test_cmp expect cmd &&
	for a in "rust-binder" "--sid c-binder"; do
		b=${a#--sid }; [ "$a" = "$b" ] || b=$b-sid
		configured "$KSERIES_CACHE/build/$b" &&
		cp "$K/${a#--sid }.config" "$KSERIES_CACHE/build/$b/.kseries-fragment" &&
		fk4/kbuild $a tree hello.o 2>err || return 1
		! grep -x -- --host argv && ! grep -x -- "$C" argv &&
		grep -x -- "$C-sid" argv && grep -x "CCACHE_DIR=$C-sid" argv &&
		grep -x "PATH=/usr/lib/ccache:/usr/local/bin:/usr/bin:/bin:/usr/sbin:/sbin" argv &&
		test "$(stat -c %u "$C-sid")" = 7213 || return 1
		KSERIES_CCACHE=0 fk4/kbuild $a tree hello.o 2>err &&
		! grep -e "^CCACHE_" -e "^PATH=" -e "^$C" argv || return 1
	done
'

# distccd on 127.0.0.1 (a free port, as nobody), as t9004 runs it
if command -v distcc >/dev/null && command -v distccd >/dev/null &&
   command -v python3 >/dev/null; then
	test_set_prereq DISTCC
fi
DISTCCD_USER=nobody
. "$(dirname "$0")/lib-distcc.sh"

test_expect_success ROOT,CCACHE,DISTCC 'ccache and distcc: a miss goes to distccd as ccache'"'"'s prefix, the command line plain' '
	export KSERIES_CACHE=$TRASH/c5 && B=$KSERIES_CACHE/build/c-binder &&
	configured "$B" &&
	distccd_start &&
	KSERIES_DISTCC=127.0.0.1:$PORT "$K/kbuild" c-binder tree hello.o 2>err ||
		{ cat err "$B/kbuild.log"; distccd_stop; exit 1; }
	distccd_stop &&
	grep -x "gcc -O2 -c -o $B/hello.o $TRASH/tree/hello.c" "$B/kbuild.log" &&
	test -s "$B/hello.o" &&
	grep "COMPILE_OK" distccd.log | grep -q hello.c &&
	test "$(stat_of cache_miss)" = 1
'
distccd_stop

test_done
