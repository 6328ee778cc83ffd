#!/usr/bin/env bash
test_description='check: the kunit stage fails an earlier version with this version'"'"'s test (version.N.kunit-against)'
. "$(dirname "$0")/lib.sh"

# patch FILE ADDED SUBJECT: a mail adding the line ADDED to FILE, whose
# first line of context is "int binder_alloc_x;" (a new file when FILE
# does not end in binder_alloc.c).
patch_mail() {
	local subject=$3
	printf 'From 0000000000000000000000000000000000000000 Mon Sep 17 00:00:00 2001\n'
	printf 'From: A U Thor <author@example.org>\n'
	printf 'Date: Mon, 30 Nov 2026 10:00:00 +0000\n'
	printf 'Subject: [PATCH] %s\n\nA change.\n---\n' "$subject"
	printf 'diff --git a/%s b/%s\n' "$1" "$1"
	case $1 in
	*binder_alloc.c)
		printf -- '--- a/%s\n+++ b/%s\n@@ -1 +1,2 @@\n %s\n+%s\n' \
			"$1" "$1" "${CONTEXT:-int binder_alloc_x;}" "$2" ;;
	*)
		printf 'new file mode 100644\n--- /dev/null\n+++ b/%s\n@@ -0,0 +1 @@\n+%s\n' \
			"$1" "$2" ;;
	esac
	printf -- '--\n2.39.5\n'
}

# A small base tree; v1, the earlier version (its one patch, "broken");
# v2: a test hook, the test, and the fix. The fake kernel/kunit-run says
# what it was asked, then passes each run on a tree with the fix (or
# without the test), and crashes it on a tree with the test and without
# the fix, printing a counter per run as the real test does. Files in
# $TRASH change its mind: always-pass, pass-first (the first run of a
# failing tree passes), no-build (a tree without the fix does not build).
setup() {
	mkdir -p kernel bin &&
	test_small_tree &&
	printf 'CONFIG_KUNIT=y\n' >kernel/kunit-binder.kunitconfig &&
	cat >kernel/kunit-run <<-\EOS &&
	#!/bin/sh
	printf "%s\n" "$*" >>"$TRASH/kunit-run.args"
	runs=1
	while [ $# -gt 2 ]; do
		case $1 in
		--runs) runs=$2; shift ;;
		--arch|--name) shift ;;
		esac
		shift
	done
	src=$2
	git -C "$src" rev-parse HEAD >>"$TRASH/kunit-run.trees"
	if grep -q fixed "$src/drivers/android/binder_alloc.c" ||
	   ! test -e "$src/drivers/android/tests/t.c" ||
	   test -e "$TRASH/always-pass"; then
		verdict=pass
	elif test -e "$TRASH/no-build"; then
		echo "binder_alloc.c:1: error: no" >&2
		exit 3
	else
		verdict="crash: BUG: kernel NULL pointer dereference, address: 0000000000000028"
	fi
	bad=0
	k=1
	while [ $k -le $runs ]; do
		v=$verdict
		[ $k != 1 ] || ! test -e "$TRASH/pass-first" || v=pass
		[ "$v" = pass ] || bad=1
		echo "run $k: $v  log: /dev/null"
		echo "  # binder_alloc_test_shrink_concurrent: $k -EBUSY, 0 waits"
		k=$((k + 1))
	done
	exit $bad
	EOS
	chmod +x kernel/kunit-run &&
	mkdir -p store/series/ks/v1 store/series/ks/v2 &&
	printf '[series]\n\ttitle = t\n\tbase = v7.2.13\n\tprefix = PATCH\n' \
		>store/series/ks/series.conf &&
	patch_mail drivers/android/binder_alloc.c "int broken;" "binder: v1" \
		>store/series/ks/v1/0001-binder-v1.patch &&
	patch_mail drivers/android/tests/hook.c "int hook;" "binder: hook" \
		>store/series/ks/v2/0001-binder-hook.patch &&
	patch_mail drivers/android/tests/t.c "int test;" "binder: test" \
		>store/series/ks/v2/0002-binder-test.patch &&
	patch_mail drivers/android/binder_alloc.c "int fixed;" "binder: fix" \
		>store/series/ks/v2/0003-binder-fix.patch
}

export KSERIES_TREE=$TRASH/tree KSERIES_CACHE=$TRASH/cache
export KSERIES_KERNEL_DIR=$TRASH/kernel PATH=$TRASH/bin:$PATH
unset KSERIES_KUNIT_RUNS
q="'"
conf() { git config -f "$TRASH/store/series/ks/series.conf" "$@"; }
check() { (cd "$TRASH/store" && kseries check ks@v2 --stage kunit "$@"); }
LOG=$TRASH/cache/results/ks/v2/kunit.log

test_expect_success 'without the key: the version'"'"'s tree only' '
	setup &&
	conf version.2.kunit 3 &&
	check >out &&
	grep "ks  *v2  kunit  *pass .*kunit-binder.kunitconfig: 3 of 3 runs clean (UML" out &&
	! grep against out &&
	test_line_count = 1 kunit-run.trees
'

test_expect_success 'the version passes and the earlier one with its test fails: pass' '
	rm -f kunit-run.args kunit-run.trees &&
	conf version.2.kunit-against 1:1-2 &&
	check >out &&
	grep -F "3 of 3 runs clean (UML, lockdep, atomic-sleep); against v1 (on patches 1-2): 3 of 3 runs failed" out &&
	grep "ks  *v2  kunit  *pass" out &&
	# the tip, then the comparison tree, same arguments and build directory
	test_line_count = 2 kunit-run.args &&
	test "$(sed -n 1p kunit-run.args)" = "$(sed -n 2p kunit-run.args)" &&
	tip=$(sed -n 1p kunit-run.trees) &&
	other=$(sed -n 2p kunit-run.trees) &&
	test "$tip" != "$other" &&
	# the comparison tree: base, the two test patches, v1 patch
	git -C tree log --format=%s v7.2.13..$other >subjects &&
	printf "binder: v1\nbinder: test\nbinder: hook\n" >expect &&
	test_cmp expect subjects &&
	git -C tree show $other:drivers/android/binder_alloc.c >ba &&
	grep broken ba && ! grep fixed ba &&
	# the kept log has both trees'"'"' verdicts and counters, run by run
	grep -F "== v2: tip $tip" "$LOG" &&
	grep -F "== against v1: " "$LOG" &&
	grep -F "tip $other" "$LOG" &&
	sed -n "/== against v1/,\$p" "$LOG" >theirs &&
	test "$(grep -c "^run [0-9]: crash: BUG: kernel NULL" theirs)" = 3 &&
	grep -F "  # binder_alloc_test_shrink_concurrent: 3 -EBUSY, 0 waits" theirs &&
	sed -n "1,/== against v1/p" "$LOG" >mine &&
	test "$(grep -c "^run [0-9]: pass" mine)" = 3
'

test_expect_success 'the run count is the same for both (KSERIES_KUNIT_RUNS)' '
	rm -f kunit-run.args &&
	KSERIES_KUNIT_RUNS=2 check >out &&
	grep -F "2 of 2 runs clean (UML, lockdep, atomic-sleep); against v1 (on patches 1-2): 2 of 2 runs failed" out &&
	test "$(grep -c -- "--runs 2 " kunit-run.args)" = 2
'

test_expect_success 'cached; the key changes with the setting and with the earlier version'"'"'s mails' '
	check >out &&
	rm -f kunit-run.args &&
	check >out &&
	grep "kunit  *pass .*(cached)" out &&
	! test -e kunit-run.args &&
	conf version.2.kunit-against 1:2 &&
	check >out &&
	! grep "(cached)" out &&
	grep -F "against v1 (on patches 2-2): 3 of 3 runs failed" out &&
	test_line_count = 2 kunit-run.args &&
	check >out &&
	grep "(cached)" out &&
	sed -i "s/^A change\.$/A change, reworded./" store/series/ks/v1/0001-binder-v1.patch &&
	rm -f kunit-run.args &&
	check >out &&
	! grep "(cached)" out &&
	test_line_count = 2 kunit-run.args &&
	conf version.2.kunit-against 1:1-2
'

test_expect_success 'the comparison tree passes too: fail, naming its runs' '
	rm -f kunit-run.args &&
	touch always-pass &&
	test_expect_code 1 check --no-cache >out &&
	grep "ks  *v2  kunit  *fail" out &&
	grep -F "against v1 (on patches 1-2): 0 of 3 runs failed" out &&
	grep -F "against v1: run 1: pass (it must fail there)" out &&
	rm always-pass
'

test_expect_success 'a comparison run that passes fails the stage' '
	touch pass-first &&
	test_expect_code 1 check --no-cache >out &&
	grep "kunit  *fail" out &&
	grep -F "against v1 (on patches 1-2): 2 of 3 runs failed" out &&
	grep -F "against v1: run 1: pass (it must fail there)" out &&
	! grep -F "against v1: run 2" out &&
	rm pass-first
'

test_expect_success 'the comparison tree does not build: one line, fail' '
	touch no-build &&
	test_expect_code 1 check --no-cache >out &&
	grep "kunit  *fail .*the comparison tree (v1 on patches 1-2 of v2) does not build (see log)" out &&
	grep -F "binder_alloc.c:1: error: no" "$LOG" &&
	rm no-build
'

test_expect_success 'the version'"'"'s own runs fail: the comparison is not run' '
	rm -f kunit-run.args &&
	cp store/series/ks/v2/0003-binder-fix.patch fix.save &&
	patch_mail drivers/android/binder_alloc.c "int still;" "binder: fix" \
		>store/series/ks/v2/0003-binder-fix.patch &&
	test_expect_code 1 check >out &&
	grep "kunit  *fail .*0 of 3 runs clean" out &&
	test_line_count = 1 kunit-run.args &&
	grep -F "== against v1: not run, the version${q}s own runs were not all clean" "$LOG" &&
	mv fix.save store/series/ks/v2/0003-binder-fix.patch
'

test_expect_success 'the comparison tree does not apply: one line, fail' '
	rm -f kunit-run.args &&
	cp store/series/ks/v1/0001-binder-v1.patch v1.save &&
	CONTEXT="int not_there;" patch_mail drivers/android/binder_alloc.c \
		"int broken;" "binder: v1" >store/series/ks/v1/0001-binder-v1.patch &&
	test_expect_code 1 check >out &&
	grep "kunit  *fail .*the comparison tree (v1 on patches 1-2 of v2) does not apply: 0001-binder-v1.patch of v1" out &&
	test_line_count = 1 kunit-run.args &&
	mv v1.save store/series/ks/v1/0001-binder-v1.patch
'

# refused VALUE: the stage fails with one line saying why, runs nothing
refused() {
	rm -f kunit-run.args &&
	conf version.2.kunit-against "$1" &&
	test_expect_code 1 check >out &&
	grep "ks  *v2  kunit  *fail" out &&
	grep -F "version.2.kunit-against $q$1$q${2:- is not M:A-B (M an earlier version, A-B this version${q}s test patches, from 1 to at most 2)}" out &&
	! test -e kunit-run.args
}

test_expect_success 'bad values are refused with one line' '
	refused "" &&
	refused 1 &&
	refused 1: &&
	refused 1:1-3 &&
	refused 1:0-2 &&
	refused 1:2-1 &&
	refused 1:1-2x &&
	refused 01:1 &&
	refused " 1:1" &&
	refused 1:1- &&
	refused 2:1 ": v2 is not an earlier version with patches in the store" &&
	refused 3:1 ": v3 is not an earlier version with patches in the store" &&
	mkdir store/series/ks/v0 &&
	refused 0:1 &&
	conf --unset version.2.kunit-against
'

test_done
