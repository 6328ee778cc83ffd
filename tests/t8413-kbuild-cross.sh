#!/bin/bash
# kernel/kbuild builds a c-cross-* config with the Debian cross gcc its
# fragment's "# kseries-cross: ARCH CROSS_COMPILE PACKAGE" line names:
# ARCH= and CROSS_COMPILE= on make's command line (the rest of it the
# host builds'), in build/CONFIG, never --sid, without distcc. A bad
# value in that line, an ARCH the tree does not have, a compiler that is
# not installed (the package named) or a kseries-cross line in another
# config is refused with one line, before anything is written. kbuild
# runs beside a chroot-run that records its argv (t9004's way).
test_description='kernel/kbuild: c-cross-* configs, ARCH and CROSS_COMPILE from the fragment'
. "$(dirname "$0")/lib.sh"

K=$SRC_DIR/kernel
[ "$(id -u)" = 0 ] && test_set_prereq ROOT
# the build's PATH (chroot-run --host's) has the MIPS cross gcc
if PATH=/usr/local/bin:/usr/bin:/bin command -v mips-linux-gnu-gcc >/dev/null; then
	test_set_prereq MIPS_GCC
else
	SKIP_REASON='no mips-linux-gnu-gcc (Debian package gcc-mips-linux-gnu)'
fi
# A cross gcc of bookworm that no test machine needs: never installed here.
ABSENT=mipsisa64r6el-linux-gnuabi64-
if ! PATH=/usr/local/bin:/usr/bin:/bin command -v ${ABSENT}gcc >/dev/null; then
	test_set_prereq ABSENT_GCC
fi
export KSERIES_CCACHE=0
unset KSERIES_DISTCC

# A small tree with arch/mips: make -C tree O=DIR hello.o
mkdir -p "$TRASH/tree/scripts" "$TRASH/tree/arch/mips"
: >"$TRASH/tree/arch/mips/Kconfig"
cat >"$TRASH/tree/Makefile" <<'EOF'
hello.o: ; $(CROSS_COMPILE)gcc -c -o $(O)/hello.o $(CURDIR)/hello.c
EOF
printf 'int hello(void) { return 42; }\n' >"$TRASH/tree/hello.c"
T=$TRASH/tree

# fake_kbuild [FRAGMENT]: kbuild and lib.sh beside a chroot-run that
# records its argv in $TRASH/chroot-run.argv, with c-cross-mips.config
# (or FRAGMENT as it); the build dir configured already when it exists
fake_kbuild() {
	rm -rf fk && mkdir -p fk && cp "$K/kbuild" "$K/lib.sh" "$K/c-binder.config" fk/ &&
	cp "${1:-$K/c-cross-mips.config}" fk/c-cross-mips.config &&
	cat >fk/chroot-run <<-\EOF &&
	#!/bin/sh
	printf "%s\n" "$@" >"$TRASH/chroot-run.argv"
	EOF
	chmod +x fk/chroot-run && rm -f "$TRASH/chroot-run.argv"
}
configured() {
	B=$KSERIES_CACHE/build/c-cross-mips && mkdir -p "$B" &&
	cp fk/c-cross-mips.config "$B/.kseries-fragment" &&
	echo CONFIG_BCM63XX=y >"$B/.config"
}

test_expect_success ROOT,MIPS_GCC 'the make command line: the host builds'"'"' with ARCH= and CROSS_COMPILE=' '
	export KSERIES_CACHE=$TRASH/cache &&
	fake_kbuild && configured &&
	fk/kbuild c-cross-mips tree hello.o 2>err &&
	printf "%s\n" --host --ro-bind "$T" --bind "$B" \
		--env KBUILD_BUILD_USER=kseries --env KBUILD_BUILD_HOST=kseries \
		--env "KBUILD_BUILD_TIMESTAMP=2026-01-01 00:00:00 UTC" -C "$B" -- \
		nice make -C "$T" O="$B" -j2 ARCH=mips CROSS_COMPILE=mips-linux-gnu- hello.o >expect &&
	test_cmp expect chroot-run.argv &&
	grep -q "kbuild: c-cross-mips: ok" err
'

test_expect_success ROOT,MIPS_GCC 'KSERIES_DISTCC: said, and the command line without distcc' '
	export KSERIES_CACHE=$TRASH/cache &&
	fake_kbuild && configured &&
	KSERIES_DISTCC=10.1.2.3 fk/kbuild c-cross-mips tree hello.o 2>err &&
	grep -q "KSERIES_DISTCC: c-cross-mips builds with mips-linux-gnu-gcc, without distcc" err &&
	! grep -i distcc chroot-run.argv &&
	grep -qx "CROSS_COMPILE=mips-linux-gnu-" chroot-run.argv
'

test_expect_success ROOT,MIPS_GCC 'ccache on: the masquerade PATH, the cross gcc found through it' '
	test -L /usr/lib/ccache/mips-linux-gnu-gcc || { say "no ccache link for mips-linux-gnu-gcc"; exit 0; }
	export KSERIES_CACHE=$TRASH/cache &&
	fake_kbuild && configured &&
	KSERIES_CCACHE=1 fk/kbuild c-cross-mips tree hello.o 2>err &&
	grep -qx "PATH=/usr/lib/ccache:/usr/local/bin:/usr/bin:/bin:/usr/sbin:/sbin" chroot-run.argv &&
	! grep -q "compiles without ccache" err
'

# refused FRAGMENT WANT [ARGS]: kbuild ARGS c-cross-mips fails with one
# line matching WANT, runs nothing and writes nothing
refused() {
	export KSERIES_CACHE=$TRASH/cache-refused && rm -rf "$KSERIES_CACHE" &&
	fake_kbuild "$1" &&
	test_expect_code 1 fk/kbuild ${3:-} c-cross-mips tree hello.o 2>err &&
	test_line_count = 1 err &&
	grep -q "^kbuild: error: $2" err &&
	test ! -e chroot-run.argv &&
	test ! -e "$KSERIES_CACHE/build"
}

test_expect_success 'a bad kseries-cross line: one line, nothing run or written' '
	while IFS="|" read -r line want; do
		sed "s|^# kseries-cross:.*|$line|" "$K/c-cross-mips.config" >frag &&
		refused frag "$want" || { echo "for: $line"; cat err; exit 1; }
	done <<-\EOF
	# kseries-cross: mips /usr/bin/mips-linux-gnu- gcc-mips-linux-gnu|c-cross-mips.config: bad CROSS_COMPILE .?usr?bin?mips-linux-gnu-.
	# kseries-cross: mips ../mips-linux-gnu- gcc-mips-linux-gnu|c-cross-mips.config: bad CROSS_COMPILE
	# kseries-cross: mips mips-linux-gnu gcc-mips-linux-gnu|c-cross-mips.config: bad CROSS_COMPILE .mips-linux-gnu.
	# kseries-cross: mips mips-linux-gnu-$(id)- gcc-mips-linux-gnu|c-cross-mips.config: bad CROSS_COMPILE .mips-linux-gnu-??id?-.
	# kseries-cross: ../../etc mips-linux-gnu- gcc-mips-linux-gnu|c-cross-mips.config: bad ARCH .\.\.?\.\.?etc.
	# kseries-cross: sparc mips-linux-gnu- gcc-mips-linux-gnu|c-cross-mips.config: bad ARCH .sparc.: want a directory of arch/ in the tree
	# kseries-cross: mips mips-linux-gnu- gcc;reboot|c-cross-mips.config: bad PACKAGE .gcc?reboot.
	# kseries-cross: mips mips-linux-gnu- gcc-mips-linux-gnu more|c-cross-mips.config: bad PACKAGE .gcc-mips-linux-gnu \.\.\..
	# kseries-cross: mips mips-linux-gnu-|c-cross-mips.config: bad PACKAGE ..
	# kseries-base: tinyconfig|c-cross-mips.config has 0 .# kseries-cross
	EOF
'

test_expect_success 'two kseries-cross lines: one line, nothing written' '
	cp "$K/c-cross-mips.config" frag &&
	echo "# kseries-cross: mips mips-linux-gnu- gcc-mips-linux-gnu" >>frag &&
	refused frag "c-cross-mips.config has 2 .# kseries-cross"
'

test_expect_success ABSENT_GCC 'a cross gcc not installed: one line naming its package' '
	sed "s|^# kseries-cross:.*|# kseries-cross: mips $ABSENT gcc-${ABSENT%-}|" "$K/c-cross-mips.config" >frag &&
	refused frag "no ${ABSENT}gcc (Debian package gcc-${ABSENT%-}): install it to build this config"
'

test_expect_success '--sid: refused, the sid chroot has no cross gcc' '
	refused "$K/c-cross-mips.config" "c-cross-mips builds with the host.s cross gcc" --sid
'

test_expect_success 'a kseries-cross line in a config that is not c-cross-*: refused' '
	export KSERIES_CACHE=$TRASH/cache-refused && rm -rf "$KSERIES_CACHE" &&
	fake_kbuild &&
	echo "# kseries-cross: mips mips-linux-gnu- gcc-mips-linux-gnu" >>fk/c-binder.config &&
	test_expect_code 1 fk/kbuild c-binder tree hello.o 2>err &&
	test_line_count = 1 err &&
	grep -q "^kbuild: error: .*c-binder.config has a kseries-cross line: only c-cross-\* configs cross-compile" err &&
	test ! -e chroot-run.argv && test ! -e "$KSERIES_CACHE/build"
'

test_expect_success TREE 'every kernel/c-cross-*.config: its line holds against the base tree' '
	for f in "$K"/c-cross-*.config; do
		(. "$K/lib.sh" && ks_cross "$f" "$KSERIES_TREE" &&
		 test "$KS_CROSS_PACKAGE" = "gcc-${KS_CROSS_COMPILE%-}") ||
			{ echo "$f"; exit 1; }
	done
'

test_done
