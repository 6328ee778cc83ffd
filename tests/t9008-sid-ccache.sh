#!/bin/bash
test_description='the sid chroot: ccache by level, brought up in place (no rebuild)'
. "$(dirname "$0")/lib.sh"

# provision-toolchain writes a level into the chroot (.kseries-level; none
# is level 1): level 2 adds ccache. A chroot below the level is brought
# up in place by apt-get install, never rebuilt, and never by upgrading a
# package it holds. The tests run it on a small stand-in root (the
# host's bash and env, and an apt-get that records what it is asked).

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

test_done
