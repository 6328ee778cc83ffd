#!/usr/bin/env bash
test_description='check -j N: versions at once, builds one at a time, the output of -j 1'
. "$(dirname "$0")/lib.sh"

# A small base tree; a fake kernel/kbuild that notes its worktree and
# fails loudly when two builds overlap; two series whose vm stage (a
# script of their own) can only pass when the two run at the same time
# (each waits for the other's mark), or, with VM_ALONE=1, only when no
# other vm stage runs.
setup() {
	mkdir -p kernel &&
	test_small_tree &&
	cat >kernel/kbuild <<-\EOS &&
	#!/bin/sh
	mkdir "$TRASH/in-build" 2>/dev/null || { echo "OVERLAP" >>"$TRASH/builds"; exit 1; }
	for a; do case $a in /*) src=$a ;; esac; done
	echo "$src $(git -C "$src" log -1 --format=%s)" >>"$TRASH/builds"
	sleep 1
	rmdir "$TRASH/in-build"
	echo "kbuild: ok"
	EOS
	printf '#!/bin/sh\nexit 0\n' >kernel/kunit-run &&
	chmod +x kernel/kbuild kernel/kunit-run &&
	for s in a b; do
		mkdir -p store/series/$s/v1 store/series/$s/check &&
		printf "[series]\n\ttitle = t\n\tbase = v7.2.13\n\tprefix = PATCH\n" \
			>store/series/$s/series.conf &&
		cat >store/series/$s/check/vm <<-\EOS &&
		#!/bin/sh
		me=$(basename "$KSERIES_SERIES_DIR")
		if [ "${VM_ALONE:-}" = 1 ]; then
			mkdir "$TRASH/in-vm" 2>/dev/null || { echo "two vm stages at once"; exit 1; }
			sleep 1; rmdir "$TRASH/in-vm"; echo "alone"; exit 0
		fi
		touch "$TRASH/vm-$me"
		for i in $(seq 100); do
			[ -e "$TRASH/vm-a" ] && [ -e "$TRASH/vm-b" ] && break
			sleep 0.1
		done
		[ -e "$TRASH/vm-a" ] && [ -e "$TRASH/vm-b" ] || { echo "ran alone"; exit 1; }
		# a finishes last: its output must still come first
		[ "$me" = a ] && sleep 1
		echo "met the other"
		EOS
		chmod +x store/series/$s/check/vm &&
		for n in 1 2; do
			cat >store/series/$s/v1/000$n-x.patch <<-EOS || return 1
			From 0000000000000000000000000000000000000000 Mon Sep 17 00:00:00 2001
			From: A U Thor <author@example.org>
			Date: Mon, 30 Nov 2026 10:00:00 +0000
			Subject: [PATCH $n/2] binder: $s change $n

			Change $n of $s.
			---
			diff --git a/drivers/android/binder_alloc.c b/drivers/android/binder_alloc.c
			--- a/drivers/android/binder_alloc.c
			+++ b/drivers/android/binder_alloc.c
			@@ -1 +1 @@
			-int binder_alloc_$( [ $n = 1 ] && echo x || echo $s);
			+int binder_alloc_$( [ $n = 1 ] && echo $s || echo $s$s);
			--
			2.39.5
			EOS
		done
	done
}

export KSERIES_TREE=$TRASH/tree KSERIES_CACHE=$TRASH/cache
export KSERIES_KERNEL_DIR=$TRASH/kernel
unset KSERIES_CHECK_WORKTREE
ck() { (cd "$TRASH/store" && kseries check "$@"); }

test_expect_success 'setup' '
	setup
'

test_expect_success 'two versions at once: their vm stages meet' '
	ck a b --stage apply --stage vm -j 2 >out &&
	grep "a  *v1  vm  *pass .*met the other" out &&
	grep "b  *v1  vm  *pass .*met the other" out
'

test_expect_success 'the output is -j 1'"'"'s: a first though b ended first, whole' '
	cat >want <<-\EOF &&
	a apply
	a vm
	b apply
	b vm
	EOF
	awk "{print \$1, \$3}" out >got &&
	test_cmp want got
'

test_expect_success 'without -j the same vm stages never meet' '
	rm -f vm-a vm-b &&
	test_expect_code 1 ck a b --stage vm --no-cache >out1 &&
	grep "a  *v1  vm  *fail .*ran alone" out1
'

test_expect_success 'builds take turns in the one worktree of the build directories' '
	rm -f builds &&
	ck a b --stage build -j 2 >out &&
	grep "a  *v1  build  *pass .*2 builds" out &&
	grep "b  *v1  build  *pass .*2 builds" out &&
	! grep OVERLAP builds &&
	test $(wc -l <builds) = 4 &&
	! grep -v "^$KSERIES_CACHE/wt/kseries-check binder: " builds
'

test_expect_success 'the same version twice is checked once at a time' '
	rm -f vm-a vm-b &&
	VM_ALONE=1 ck a a a --stage vm --no-cache -j 3 >out &&
	test $(grep -c "a  *v1  vm  *pass .*alone" out) = 3
'

test_expect_success '-j 2 and -j 1 print the same, stage for stage (JSON too)' '
	ck a b --stage apply --stage format --stage build --no-cache -j 2 >cold &&
	sed "s/(cached) //" cold >cold.plain && test_cmp cold cold.plain &&
	ck a b --stage apply --stage format --stage build >one &&
	sed "s/(cached) //" one >one.plain && test_cmp cold one.plain &&
	ck a b --stage apply --stage format --stage build -j 2 >two &&
	test_cmp one two &&
	ck a b --stage apply --stage format --json >one.json &&
	ck a b --stage apply --stage format --json -j 2 >two.json &&
	test_cmp one.json two.json
'

test_expect_success 'a failing version fails the check, under -j too' '
	sed -i "s/^-int binder_alloc_x;/-int no_such;/" store/series/b/v1/0001-x.patch &&
	test_expect_code 1 ck a b --stage apply -j 2 >out &&
	grep "b  *v1  apply  *fail" out &&
	grep "a  *v1  apply  *pass" out
'

# The status line: series, version, stage, the patch a stage has
# checked out, and how long the stage took the last time.
test_expect_success '--progress: the stage, its patch, and how long it took last time' '
	sed -i "s/^-int no_such;/-int binder_alloc_x;/" store/series/b/v1/0001-x.patch &&
	rm -rf cache/results/a &&
	ck a --stage build --progress >out 2>err &&
	tr "\r" "\n" <err >lines &&
	grep "^.\[Kkseries: a v1 build patch 1/2 0m0.s" lines &&
	grep "^.\[Kkseries: a v1 build patch 2/2 0m0.s" lines &&
	! grep "last took" lines &&
	! grep "kseries: a v1" out &&
	ck a --stage build --progress --no-cache >out 2>err &&
	tr "\r" "\n" <err >lines &&
	grep "kseries: a v1 build patch 2/2 (last took 0m0[1-9]s) 0m0.s" lines
'

test_expect_success 'no status line without a terminal or --progress; none in --json' '
	ck a --stage build --no-cache >out 2>err &&
	! grep "kseries: a v1 build" err &&
	ck a --stage build --no-cache --progress --json >out.json 2>err &&
	grep "kseries: a v1 build" err &&
	python3 -c "import json; json.load(open(\"out.json\"))"
'

test_expect_success '-j 2 --progress: one line for the running versions' '
	ck a b --stage build --no-cache --progress -j 2 >out 2>err &&
	tr "\r" "\n" <err >lines &&
	grep "kseries: \[0/2 done\] a v1 build .* | b v1 build" lines &&
	! grep "kseries:" out
'

# -v without a terminal: each stage's start and end are said while the
# versions run (a CI log), once each, not held back until a version ends.
test_expect_success '-j 2 -v: stage lines as they happen, once each' '
	rm -f vm-a vm-b &&
	ck a b --stage vm --no-cache -v -j 2 >out 2>err &&
	test $(grep -c "^kseries: a v1 vm \.\.\." err) = 1 &&
	test $(grep -c "^kseries: b v1 vm \.\.\. (last took 0m0[0-9]s)$" err) = 1 &&
	grep "^kseries: a v1 vm: pass in 0m0[0-9]s$" err &&
	grep "^kseries: b v1 vm: pass in 0m0[0-9]s$" err &&
	# b, which ended first, is said to have ended before a had
	test $(grep -n "b v1 vm: pass" err | cut -d: -f1) -lt \
	     $(grep -n "a v1 vm: pass" err | cut -d: -f1) &&
	! grep "kseries: . v1 vm" out
'

# The longest first: a version whose stages took long last time, or on
# a first run a series with VM or perf scripts, starts before the rest;
# the output stays in name order.
test_expect_success '-j 2 starts the heaviest version first' '
	for s in c d z; do
		rm -rf store/series/$s cache/results/$s &&
		cp -r store/series/a store/series/$s &&
		rm -rf store/series/$s/check || return 1
	done &&
	mkdir store/series/c/check store/series/z/check &&
	printf "#!/bin/sh\nsleep 1\necho slow\n" >store/series/c/check/vm &&
	printf "#!/bin/sh\necho heavy\n" >store/series/z/check/perf &&
	chmod +x store/series/c/check/vm store/series/z/check/perf &&
	ck c --stage vm >out &&
	ck c d z --stage vm --stage perf --no-cache -v -j 2 >out 2>err &&
	awk "{print \$1, \$3}" out >got &&
	printf "c vm\nc perf\nd vm\nd perf\nz vm\nz perf\n" >want &&
	test_cmp want got &&
	z=$(grep -n "^kseries: z v1 " err | head -n 1 | cut -d: -f1) &&
	d=$(grep -n "^kseries: d v1 " err | head -n 1 | cut -d: -f1) &&
	test "$z" -lt "$d"
'

test_expect_success 'bad -j values are refused' '
	test_expect_code 128 ck a -j 0 2>err &&
	grep "wants a number of jobs" err &&
	test_expect_code 128 ck a -j x
'

test_done
