#!/bin/bash
test_description='kernel/lib.sh with KSERIES_CCACHE=1: ccache gcc, one cache for every build dir; unset unchanged'
. "$(dirname "$0")/lib.sh"

# ks_kbuild_make's command line with KSERIES_CCACHE: opt-in, since kbuild
# records CC in every object's command line (turning it on rebuilds a
# warm build directory once). Unset or 0, the argv is the plain one; on,
# CC="ccache gcc" with the cache under $KSERIES_CACHE/ccache, and a
# compile made twice through that command line, from two source trees
# (two worktrees) into two build directories, hits the second time.

K=$SRC_DIR/kernel
if command -v ccache >/dev/null && command -v gcc >/dev/null; then
	test_set_prereq CCACHE
else
	SKIP_REASON='no ccache (Debian package ccache)'
fi
export KSERIES_CACHE=$TRASH/cache
unset KSERIES_DISTCC KSERIES_CCACHE

for t in tree tree2; do
	mkdir -p "$TRASH/$t"
	cat >"$TRASH/$t/Makefile" <<-'EOF'
	hello.o: ; $(CC) -c -o $(O)/hello.o $(CURDIR)/hello.c
	EOF
	printf 'int hello(void) { return 42; }\n' >"$TRASH/$t/hello.c"
done

argv_of() {	# argv_of: ks_kbuild_make's argv and env, one a line, in argv, env
	. "$K/lib.sh" &&
	ks_kbuild_make /src /build 3 LLVM=1 &&
	printf "%s\n" "${KS_MAKE[@]}" >argv &&
	: >env &&
	for e in "${KS_MAKE_ENV[@]}" "${KS_MAKE_BIND[@]}"; do
		printf "%s\n" "$e" >>env
	done
}

test_expect_success 'unset or 0: the command line is the one without ccache, byte for byte' '
	printf "%s\n" nice make -C /src O=/build -j3 LLVM=1 >expect &&
	(argv_of) && test_cmp expect argv && test ! -s env &&
	(KSERIES_CCACHE=0 && argv_of) && test_cmp expect argv && test ! -s env
'

test_expect_success 'on: CC="ccache gcc", the one cache under KSERIES_CACHE' '
	(KSERIES_CCACHE=1 && argv_of) &&
	printf "%s\n" nice make -C /src O=/build -j3 LLVM=1 "CC=ccache gcc" >expect &&
	test_cmp expect argv &&
	printf "%s\n" "CCACHE_DIR=$KSERIES_CACHE/ccache" CCACHE_BASEDIR=/src \
		"$KSERIES_CACHE/ccache" >expect &&
	test_cmp expect env
'

test_expect_success 'with distcc too: ccache first, distcc as its prefix' '
	(KSERIES_CCACHE=1 KSERIES_DISTCC=127.0.0.1:3632/2 && argv_of) &&
	grep -x "CC=ccache gcc" argv && ! grep distcc argv &&
	grep -x "CCACHE_PREFIX=distcc" env &&
	grep -x "DISTCC_HOSTS=127.0.0.1:3632/2" env
'

test_expect_success 'a bad value: one error line, status 1' '
	(KSERIES_CCACHE=yes && . "$K/lib.sh" && ks_kbuild_make /src /build 2) 2>err;
	test $? = 1 &&
	test $(wc -l <err) = 1 && grep "bad KSERIES_CCACHE" err
'

test_expect_success CCACHE 'two trees, two build dirs: the second compile is a hit' '
	mkdir -p b1 b2 &&
	for n in 1 2; do
		t=tree; [ $n = 2 ] && t=tree2
		(KSERIES_CCACHE=1 && . "$K/lib.sh" &&
		 ks_kbuild_make "$TRASH/$t" "$TRASH/b$n" 1 &&
		 env "${KS_MAKE_ENV[@]}" "${KS_MAKE[@]}" hello.o) >make$n.log 2>&1 || return 1
		test -s b$n/hello.o || return 1
	done &&
	grep "ccache gcc" make1.log &&
	CCACHE_DIR=$KSERIES_CACHE/ccache ccache --print-stats >stats &&
	grep -E "^(direct_cache_hit|preprocessed_cache_hit)[[:space:]]+[1-9]" stats
'

test_done
