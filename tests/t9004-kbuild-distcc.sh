#!/bin/bash
test_description='kernel/kbuild with KSERIES_DISTCC: distcc gcc, the hosts checked, unset unchanged'
. "$(dirname "$0")/lib.sh"

# kernel/lib.sh's ks_kbuild_make makes kbuild's make command line. With
# KSERIES_DISTCC=HOST[:PORT][/N],... it adds CC="distcc gcc" and
# DISTCC_HOSTS; unset, the command line is what it always was, so the
# build directories stay warm. A distccd on 127.0.0.1 (a free port; as
# nobody when the test runs as root) takes the compile of a small C file
# made through that command line, and its log must show the job.

K=$SRC_DIR/kernel
if command -v distcc >/dev/null && command -v distccd >/dev/null &&
   command -v gcc >/dev/null && command -v python3 >/dev/null; then
	test_set_prereq DISTCC
else
	SKIP_REASON='no distcc/distccd (Debian package distcc)'
fi
if [ "$(id -u)" = 0 ]; then
	test_set_prereq ROOT
	DISTCCD_USER=nobody	# distccd refuses to run as root
fi

# distcc alone (CC="distcc gcc"): ccache, on by default, is t9005's and
# t9006's.
export KSERIES_CCACHE=0

# A small tree: make -C tree O=DIR hello.o compiles hello.c with $(CC).
mkdir -p "$TRASH/tree/scripts"
cat >"$TRASH/tree/Makefile" <<'EOF'
hello.o: ; $(CC) -c -o $(O)/hello.o $(CURDIR)/hello.c
EOF
printf 'int hello(void) { return 42; }\n' >"$TRASH/tree/hello.c"

. "$(dirname "$0")/lib-distcc.sh"

test_expect_success 'unset: the make command line is the one without distcc' '
	(unset KSERIES_DISTCC; . "$K/lib.sh" &&
	 ks_kbuild_make /src /build 3 LLVM=1 &&
	 printf "%s\n" "${KS_MAKE[@]}" >argv &&
	 test ${#KS_MAKE_ENV[@]} = 0) &&
	printf "%s\n" nice make -C /src O=/build -j3 LLVM=1 >expect &&
	test_cmp expect argv
'

# fake_kbuild: kbuild and lib.sh beside a chroot-run that records its
# argv, one argument a line, in $TRASH/chroot-run.argv
fake_kbuild() {
	mkdir -p fk && cp "$K/kbuild" "$K/lib.sh" "$K/c-binder.config" fk/ &&
	cat >fk/chroot-run <<-\EOF &&
	#!/bin/sh
	printf "%s\n" "$@" >"$TRASH/chroot-run.argv"
	EOF
	chmod +x fk/chroot-run &&
	B=$KSERIES_CACHE/build/c-binder && mkdir -p "$B" &&
	cp "$K/c-binder.config" "$B/.kseries-fragment" &&
	echo CONFIG_64BIT=y >"$B/.config"
}

test_expect_success ROOT 'unset: kbuild runs chroot-run with the command line it always had' '
	export KSERIES_CACHE=$TRASH/cache-fake && unset KSERIES_DISTCC &&
	fake_kbuild &&
	fk/kbuild c-binder tree hello.o 2>err &&
	T=$TRASH/tree &&
	printf "%s\n" --host --ro-bind "$T" --bind "$B" \
		--env KBUILD_BUILD_USER=kseries --env KBUILD_BUILD_HOST=kseries \
		--env "KBUILD_BUILD_TIMESTAMP=2026-01-01 00:00:00 UTC" -C "$B" -- \
		nice make -C "$T" O="$B" -j2 hello.o >expect &&
	test_cmp expect chroot-run.argv &&
	KSERIES_DISTCC=10.1.2.3:4000/3 fk/kbuild c-binder tree hello.o 2>err &&
	printf "%s\n" --host --ro-bind "$T" --bind "$B" \
		--env KBUILD_BUILD_USER=kseries --env KBUILD_BUILD_HOST=kseries \
		--env "KBUILD_BUILD_TIMESTAMP=2026-01-01 00:00:00 UTC" \
		--env "DISTCC_HOSTS=10.1.2.3:4000/3" -C "$B" -- \
		nice make -C "$T" O="$B" -j2 "CC=distcc gcc" hello.o >expect &&
	test_cmp expect chroot-run.argv
'

test_expect_success 'set: CC="distcc gcc" and DISTCC_HOSTS from the list' '
	(. "$K/lib.sh" &&
	 KSERIES_DISTCC=10.0.0.2/8,build-1.example.org:3633/4,127.0.0.1:3632 &&
	 ks_kbuild_make /src /build 2 &&
	 printf "%s\n" "${KS_MAKE[@]}" "${KS_MAKE_ENV[@]}" >argv) &&
	printf "%s\n" nice make -C /src O=/build -j2 "CC=distcc gcc" \
		"DISTCC_HOSTS=10.0.0.2/8 build-1.example.org:3633/4 127.0.0.1:3632" >expect &&
	test_cmp expect argv
'

test_expect_success 'anything but HOST[:PORT][/N],... is refused with one line' '
	for v in "" "," "a,,b" "a," "-a" "a b" "a;rm" "a:0" "a:65536" "a:1x" \
		 "a/0" "a/1000" "a/2:3" "@a" "a:b" "a/" "a:" "*" "a.-b" "--zeroconf" \
		 "$(printf "a\nb")"; do
		(. "$K/lib.sh" && KSERIES_DISTCC=$v && ks_kbuild_make /s /b 2) 2>err &&
			{ echo "accepted: $v"; exit 1; }
		test_line_count = 1 err || { echo "for: $v"; cat err; exit 1; }
		grep -q "error: bad KSERIES_DISTCC" err || exit 1
	done
'

test_expect_success ROOT 'kbuild: a bad KSERIES_DISTCC writes nothing' '
	export KSERIES_CACHE=$TRASH/cache-bad &&
	mkdir -p tree2/scripts && cp tree/Makefile tree2/ &&
	test_expect_code 1 env KSERIES_DISTCC="host;reboot" "$K/kbuild" c-binder tree2 2>err &&
	test_line_count = 1 err &&
	grep -q "^kbuild: error: bad KSERIES_DISTCC" err &&
	test ! -e "$KSERIES_CACHE/build"
'

test_expect_success DISTCC 'the make command line sends the compile to distccd' '
	distccd_start &&
	(. "$K/lib.sh" && KSERIES_DISTCC=127.0.0.1:$PORT/2 &&
	 ks_kbuild_make "$TRASH/tree" "$TRASH/obj" 1 &&
	 mkdir -p "$TRASH/obj" "$TRASH/dcc" &&
	 env DISTCC_DIR="$TRASH/dcc" DISTCC_FALLBACK=0 "${KS_MAKE_ENV[@]}" \
		"${KS_MAKE[@]}" hello.o) >make.out 2>&1 || { cat make.out; distccd_stop; exit 1; }
	distccd_stop &&
	grep "distcc gcc -c" make.out &&
	test -s obj/hello.o &&
	grep "COMPILE_OK" distccd.log | grep -q hello.c
'

test_expect_success DISTCC,ROOT 'kbuild c-* through chroot-run: the job reaches distccd' '
	export KSERIES_CACHE=$TRASH/cache-ok &&
	mkdir -p "$KSERIES_CACHE/build/c-binder" &&
	# the config is made already, so that kbuild only builds
	cp "$K/c-binder.config" "$KSERIES_CACHE/build/c-binder/.kseries-fragment" &&
	echo CONFIG_64BIT=y >"$KSERIES_CACHE/build/c-binder/.config" &&
	distccd_start &&
	KSERIES_DISTCC=127.0.0.1:$PORT "$K/kbuild" c-binder tree hello.o 2>err ||
		{ cat err; cat "$KSERIES_CACHE/build/c-binder/kbuild.log"; distccd_stop; exit 1; }
	distccd_stop &&
	grep -q "kbuild: c-binder: ok" err &&
	grep -q "distcc gcc -c" "$KSERIES_CACHE/build/c-binder/kbuild.log" &&
	test -s "$KSERIES_CACHE/build/c-binder/hello.o" &&
	grep "COMPILE_OK" distccd.log | grep -q hello.c
'

distccd_stop
test_done
