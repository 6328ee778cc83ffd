#!/bin/bash
test_description='kernel/lib.sh ccache: masquerade, the command line unchanged, one cache for every build dir, bad values refused'
. "$(dirname "$0")/lib.sh"

# ks_kbuild_make's command line with ccache. ccache works by masquerade
# (PATH starts with /usr/lib/ccache, where gcc is ccache), so make's argv,
# and so every command line kbuild records in a build dir, is the same
# with ccache on, off or unset: only the environment differs, and only
# for a caller that binds the cache (KS_MAKE_CAN_BIND=1, as kbuild). A
# compile made twice through that environment, from two source trees
# into two build directories, hits the second time.

K=$SRC_DIR/kernel
if [ -L /usr/lib/ccache/gcc ] && command -v gcc >/dev/null; then
	test_set_prereq CCACHE
else
	SKIP_REASON='no /usr/lib/ccache/gcc (Debian package ccache)'
fi
export KSERIES_CACHE=$TRASH/cache
mkdir -p "$KSERIES_CACHE"
unset KSERIES_DISTCC KSERIES_CCACHE KSERIES_CCACHE_SIZE KS_MAKE_CAN_BIND

for t in tree tree2; do
	mkdir -p "$TRASH/$t"
	cat >"$TRASH/$t/Makefile" <<-'EOF'
	hello.o: ; $(CC) -c -o $(O)/hello.o $(CURDIR)/hello.c
	EOF
	printf 'int hello(void) { return 42; }\n' >"$TRASH/$t/hello.c"
done

argv_of() {	# argv_of: ks_kbuild_make's argv, env and binds, one a line
	. "$K/lib.sh" &&
	ks_kbuild_make /src /build 3 LLVM=1 &&
	printf "%s\n" "${KS_MAKE[@]}" >argv &&
	: >env &&
	for e in "${KS_MAKE_ENV[@]}" "${KS_MAKE_BIND[@]}"; do
		printf "%s\n" "$e" >>env
	done
}

test_expect_success CCACHE 'the argv is the plain one whether ccache is on, off or unset' '
	printf "%s\n" nice make -C /src O=/build -j3 LLVM=1 >expect &&
	for v in unset 0 1; do
		(if [ $v != unset ]; then KSERIES_CCACHE=$v; fi
		 KS_MAKE_CAN_BIND=1 && argv_of) 2>err || { cat err; return 1; }
		test_cmp expect argv || return 1
	done
'

test_expect_success 'off, or a caller that does not bind the cache: no environment at all' '
	(KSERIES_CCACHE=0 KS_MAKE_CAN_BIND=1 && argv_of) && test ! -s env &&
	(argv_of) 2>err && test ! -s env && test ! -s err &&
	test ! -e "$KSERIES_CACHE/ccache"
'

test_expect_success CCACHE 'on (and unset): the masquerade PATH, the one cache under KSERIES_CACHE, bound' '
	C=$(readlink -f "$KSERIES_CACHE")/ccache &&
	printf "%s\n" "PATH=/usr/lib/ccache:/usr/local/bin:/usr/bin:/bin:/usr/sbin:/sbin" \
		"CCACHE_DIR=$C" CCACHE_MAXSIZE=2G \
		CCACHE_CONFIGPATH=/dev/null "$C" >expect &&
	(KSERIES_CCACHE=1 KS_MAKE_CAN_BIND=1 && argv_of) && test_cmp expect env &&
	(KS_MAKE_CAN_BIND=1 && argv_of) && test_cmp expect env &&
	(KSERIES_CCACHE_SIZE=500M KS_MAKE_CAN_BIND=1 && argv_of) &&
	grep -x CCACHE_MAXSIZE=500M env &&
	test ! -e "$C"
'

test_expect_success 'in the sid chroot (KS_MAKE_SID=1): its own cache, ccache-sid, the same masquerade PATH' '
	C=$(readlink -f "$KSERIES_CACHE")/ccache-sid &&
	printf "%s\n" "PATH=/usr/lib/ccache:/usr/local/bin:/usr/bin:/bin:/usr/sbin:/sbin" \
		"CCACHE_DIR=$C" CCACHE_MAXSIZE=2G \
		CCACHE_CONFIGPATH=/dev/null "$C" >expect &&
	(KS_MAKE_SID=1 KS_MAKE_CAN_BIND=1 && argv_of) 2>err && test_cmp expect env &&
	test ! -s err &&
	printf "%s\n" nice make -C /src O=/build -j3 LLVM=1 >expect &&
	test_cmp expect argv &&
	(KSERIES_CCACHE=0 KS_MAKE_SID=1 KS_MAKE_CAN_BIND=1 && argv_of) && test ! -s env &&
	mkdir -p c5 && ln -s "$TRASH/elsewhere" c5/ccache-sid &&
	(KSERIES_CACHE=$TRASH/c5 KS_MAKE_SID=1 KS_MAKE_CAN_BIND=1 && argv_of) 2>err
	test $? = 1 && test_line_count = 1 err && grep -q "symlink" err &&
	test ! -e "$C"
'

test_expect_success CCACHE 'with distcc: distcc is ccache'"'"'s prefix, the argv still plain' '
	(KSERIES_DISTCC=127.0.0.1:3632/2 KS_MAKE_CAN_BIND=1 && argv_of) &&
	printf "%s\n" nice make -C /src O=/build -j3 LLVM=1 >expect &&
	test_cmp expect argv &&
	grep -x "CCACHE_PREFIX=distcc" env &&
	grep -x "DISTCC_HOSTS=127.0.0.1:3632/2" env &&
	(KSERIES_CCACHE=0 KSERIES_DISTCC=127.0.0.1:3632/2 KS_MAKE_CAN_BIND=1 && argv_of) &&
	grep -x "CC=distcc gcc" argv && ! grep CCACHE env
'

test_expect_success 'bad KSERIES_CCACHE or KSERIES_CCACHE_SIZE: one error line, status 1' '
	for v in yes 2 on "1;reboot" "$(printf "1\nx")"; do
		(KSERIES_CCACHE=$v KS_MAKE_CAN_BIND=1 && . "$K/lib.sh" &&
		 ks_kbuild_make /src /build 2) 2>err
		test $? = 1 || { echo "accepted: $v"; return 1; }
		test_line_count = 1 err && grep -q "bad KSERIES_CCACHE " err || return 1
	done &&
	if test_have_prereq CCACHE; then
		for v in 0 2T -1G 1.5G "2G;x" 100000G G ""; do
			[ -n "$v" ] || continue
			(KSERIES_CCACHE_SIZE=$v KS_MAKE_CAN_BIND=1 && . "$K/lib.sh" &&
			 ks_kbuild_make /src /build 2) 2>err
			test $? = 1 || { echo "accepted: $v"; return 1; }
			test_line_count = 1 err && grep -q "bad KSERIES_CCACHE_SIZE" err || return 1
		done
	fi
'

test_expect_success CCACHE 'a symlink, a file, a colon or a newline where the cache goes: refused, nothing written' '
	mkdir -p c1 elsewhere && ln -s "$TRASH/elsewhere" c1/ccache &&
	mkdir -p c2 && : >c2/ccache &&
	mkdir -p "c3:x" "$(printf "c4\nx")" &&
	for c in c1 c2 "c3:x" "$(printf "c4\nx")"; do
		(KSERIES_CACHE=$TRASH/$c KS_MAKE_CAN_BIND=1 && . "$K/lib.sh" &&
		 ks_kbuild_make /src /build 2) 2>err
		test $? = 1 || { echo "accepted: $c"; return 1; }
		test_line_count = 1 err && grep -q "error:" err || return 1
	done &&
	test -z "$(ls elsewhere)" && test -f c2/ccache && test ! -s c2/ccache &&
	test ! -e "c3:x/ccache"
'

test_expect_success CCACHE 'one tree, two build dirs, one cache: the second compile is a hit' '
	mkdir -p b1 b2 &&
	for n in 1 2; do
		(KS_MAKE_CAN_BIND=1 && . "$K/lib.sh" &&
		 ks_kbuild_make "$TRASH/tree" "$TRASH/b$n" 1 &&
		 mkdir -p "${KS_MAKE_BIND[@]}" &&
		 env "${KS_MAKE_ENV[@]}" "${KS_MAKE[@]}" hello.o) >make$n.log 2>&1 || return 1
		test -s b$n/hello.o || return 1
	done &&
	grep -x "cc -c -o $TRASH/b1/hello.o $TRASH/tree/hello.c" make1.log &&
	cmp b1/hello.o b2/hello.o &&
	CCACHE_DIR=$KSERIES_CACHE/ccache ccache --print-stats >stats &&
	grep -E "^(direct_cache_hit|preprocessed_cache_hit)[[:space:]]+[1-9]" stats &&
	grep -E "^cache_miss[[:space:]]+1$" stats
'

test_expect_success CCACHE 'a diagnostic through ccache names the source as make gave it' '
	mkdir -p tree3 b3 &&
	printf "bad.o: ; \$(CC) -c -Wall -o \$(O)/bad.o \$(CURDIR)/bad.c\n" >tree3/Makefile &&
	printf "int bad(void) { return undeclared_fn(); }\n" >tree3/bad.c &&
	(KS_MAKE_CAN_BIND=1 && . "$K/lib.sh" &&
	 ks_kbuild_make "$TRASH/tree3" "$TRASH/b3" 1 &&
	 mkdir -p "${KS_MAKE_BIND[@]}" &&
	 env "${KS_MAKE_ENV[@]}" "${KS_MAKE[@]}" bad.o) >make3.log 2>&1 &&
	grep "^$TRASH/tree3/bad.c:1:[0-9]*: warning: implicit declaration" make3.log &&
	! grep "^\.\./" make3.log
'

test_done
