#!/bin/bash
# shellcheck disable=SC2016
test_description='cocci/ sleep-in-atomic rules against the case files'

. "$(dirname "$0")/lib.sh"
set -o pipefail

CASES=$SRC_DIR/cocci/tests
RUN=$SRC_DIR/cocci/run-sleep-check
BASE_ALLOC=${KSERIES_TREE:-$REAL_CACHE/linux}/drivers/android/binder_alloc.c

if command -v "${SPATCH:-spatch}" >/dev/null 2>&1 || test -n "${SPATCH:-}"; then
	test_set_prereq SPATCH
else
	SKIP_REASON='spatch not installed'
fi
test -f "$BASE_ALLOC" && test_set_prereq BASETREE

# a private facts cache (cocci/sleepfacts.py)
FACTS=$HOME/facts-cache
run() { "$RUN" --cache "$FACTS" "$@"; }

# expected CASE: the lines between check-output-start and check-output-end
expected() {
	sed -n '/check-output-start/,/check-output-end/p' "$1" | sed '1d;$d'
}
# known CASE: known false positives of a class the rules do not fix
# (between check-known-false-start and -end): still reported, and no part
# of precision and recall
known() {
	sed -n '/check-known-false-start/,/check-known-false-end/p' "$1" | sed '1d;$d'
}
# real: the findings on stdin, less the known false positives
real() {
	grep -vxF -f known || test $? -eq 1
}

# The case set is a tree of its own (--tree .): its headers are facts too
# (xinline.h), and the cross-file cases (xfile-*.c, xops-*.c) see each
# other through the whole-tree closure.
test_expect_success SPATCH 'every case file gives its expected findings' '
	mkdir cases && cp -R "$CASES"/. cases/ &&
	(cd cases && for c in *.c; do known "$c"; done) >known &&
	(cd cases && for c in *.c; do expected "$c"; done) | sort -t: -k1,1 -k2,2n >expect &&
	rc=0 && (cd cases && run --tree . *.c) >all || rc=$? &&
	test "$rc" -eq 1 &&
	real <all >actual &&
	test_cmp expect actual
'

test_expect_success SPATCH 'the known false positives are still reported' '
	test -s known &&
	grep -xF -f known all >seen &&
	test_line_count = $(wc -l <known) seen &&
	echo "# known false positives (classes not fixed): $(wc -l <known)" >&3
' 3>&1

test_expect_success SPATCH 'precision and recall over the case set' '
	(cd cases && for c in *.c; do expected "$c"; done) | sort >expect &&
	{ (cd cases && run --tree . *.c) || test $? -eq 1; } | real | sort >actual &&
	tp=$(comm -12 expect actual | wc -l) &&
	fp=$(comm -13 expect actual | wc -l) &&
	fn=$(comm -23 expect actual | wc -l) &&
	prec=$(awk -v t="$tp" -v f="$fp" "BEGIN { printf \"%.3f\", (t + f) ? t / (t + f) : 1 }") &&
	rec=$(awk -v t="$tp" -v f="$fn" "BEGIN { printf \"%.3f\", (t + f) ? t / (t + f) : 1 }") &&
	echo "# precision: $prec recall: $rec (tp $tp fp $fp fn $fn)" >&3 &&
	echo "t7000: Coccinelle rules on the case set: precision $prec recall $rec (tp $tp fp $fp fn $fn)" >&4 &&
	test "$tp" -gt 0
' 3>&1

test_expect_success SPATCH 'the facts are cached by content: a second run gives the same' '
	n=$(find cases -name "*.[ch]" | wc -l) &&
	test "$(find "$FACTS/files" -name "*.json" | wc -l)" -eq "$n" &&
	{ (cd cases && run --stats --tree . *.c) 2>stats || test $? -eq 1; } | real | sort >again &&
	test_cmp actual again &&
	grep "^run-sleep-check: facts: $n files, 0 given to spatch;" stats
'

test_expect_success SPATCH 'a changed file is the only one run again; its new facts count' '
	cp -r cases changed &&
	sed -i "s/^	mutex_lock(&x->m);/	spin_lock(\&x->lock);/" changed/xfile-callee.c &&
	rc=0 && (cd changed && run --stats --tree . xfile-caller.c) >out 2>stats || rc=$? &&
	test "$rc" -eq 1 &&
	grep "^run-sleep-check: facts: [0-9]* files, 1 given to spatch;" stats &&
	test_line_count = 1 out &&
	grep "^xfile-caller.c:35: sleeping call .xf_gfp." out
'

test_expect_success SPATCH 'without --tree: the given files still see each other, headers are not read' '
	(cd cases && run xfile-caller.c xfile-callee.c xinline.c) >plain || test $? -eq 1 &&
	grep "^xfile-caller.c:26: .* via .xf_helper. -> .xf_inner. (xfile-callee.c:19) -> .mutex_lock. (xfile-callee.c:13)\$" plain &&
	! grep "^xinline.c" plain
'

test_expect_success SPATCH '--scope narrows the tree, bad options are usage errors' '
	(cd cases && run --tree . --scope xinline.h xinline.c) >scoped || test $? -eq 1 &&
	grep "^xinline.c:13: .* via .xi_sync. -> .down_write. (xinline.h:6)\$" scoped &&
	(cd cases && run --tree . --scope xfile-callee.c xinline.c) >scoped2 || test $? -eq 1 &&
	! grep "^xinline.c" scoped2 &&
	test_expect_code 129 run --scope x xinline.c &&
	test_expect_code 129 run --jobs 0 xinline.c &&
	test_expect_code 2 run --tree does-not-exist xinline.c 2>err &&
	grep "cannot open" err
'

# The spinlock fixtures: v1 (the seed RFC) and v2 (the whole
# series/binder-alloc-spinlock/v2 applied with git am).
for v in v1 v2; do
	test_expect_success SPATCH "binder_alloc.c with the $v spinlock series: no finding" '
		cp "$CASES"/binder_alloc-spinlock-'$v'.c . &&
		run binder_alloc-spinlock-'$v'.c >actual &&
		test ! -s actual
	'

	test_expect_success SPATCH "$v: spin_unlock moved after zap_vma_range: exactly one finding" '
		python3 - "$CASES"/binder_alloc-spinlock-'$v'.c moved.c <<-\EOF &&
		import sys
		s = open(sys.argv[1]).read()
		a = "\tlist_lru_isolate(lru, item);\n\tspin_unlock(&alloc->lock);\n"
		b = "\t\ttrace_binder_unmap_user_end(alloc, index);\n\t}\n\n"
		assert s.count(a) == 1 and s.count(b) == 1
		s = s.replace(a, "\tlist_lru_isolate(lru, item);\n")
		s = s.replace(b, b + "\tspin_unlock(&alloc->lock);\n")
		open(sys.argv[2], "w").write(s)
		EOF
		test_expect_code 1 run moved.c >actual &&
		test_line_count = 1 actual &&
		grep "^moved.c:[0-9]*: sleeping call .zap_vma_range. while holding .alloc->lock. (taken at line [0-9]*)\$" actual
	'
done

test_expect_success SPATCH,BASETREE 'unpatched 7.2.13 binder_alloc.c (mutex): no finding' '
	cp "$BASE_ALLOC" binder_alloc.c &&
	run binder_alloc.c >actual &&
	test ! -s actual
'

test_expect_success 'a missing spatch is an error, not silence' '
	echo "void f(void) { }" >f.c &&
	test_expect_code 2 env SPATCH=/nonexistent/spatch "$RUN" --cache "$FACTS" f.c 2>err &&
	grep "cannot run" err
'

test_expect_success SPATCH 'a failing spatch is an error' '
	echo "void f(void) { }" >f.c &&
	test_expect_code 2 env SPATCH=false "$RUN" --cache "$FACTS" f.c
'

test_expect_success 'a missing input is an error' '
	test_expect_code 2 run does-not-exist.c
'

# The facts pass over a tree: a file with no brace outside comments and
# strings (register #defines) is proved to define nothing and not given
# to spatch; a file on which spatch runs out of its CPU time is recorded
# as not analysed (said, not dropped), and the other files still count.
FACTS_PY=$SRC_DIR/cocci/sleepfacts.py
test_expect_success SPATCH 'facts: the pre-scan skips files that define nothing' '
	mkdir pre &&
	printf "/* { */\n#define REG_A \"{\"\n#define REG_B 0x10\n" >pre/regs.h &&
	printf "#define LOCKED(x) do { f(x); } while (0)\n" >pre/macro.h &&
	printf "void s(void)\n{\n\tmutex_lock(&m);\n}\n" >pre/small.c &&
	"$FACTS_PY" --cache pre-cache pre >out 2>err &&
	grep "^files 3, given to spatch 2, no function (pre-scan) 1, not analysed 0, sleeping names 1," out &&
	test "$(find pre-cache/files -name "*.json" | wc -l)" -eq 2
'

test_expect_success SPATCH 'facts: a file over its CPU time is not analysed, and said so' '
	mkdir cpu &&
	python3 -c "
print(\"#include <linux/x.h>\")
for i in range(4000):
    print(\"static int f%d(int x)\n{\n\treturn g%d(x) + h(x, %d);\n}\n\" % (i, i, i))
" >cpu/big.c &&
	printf "/* { */\n#define REG_A 1\n" >cpu/regs.h &&
	env KSERIES_COCCI_FACTS_CPU=1 "$FACTS_PY" --cache cpu-cache cpu >out 2>err &&
	grep "^files 2, given to spatch 1, no function (pre-scan) 1, not analysed 1," out &&
	grep "^not analysed: big.c (cpu limit 1 s)\$" out
'

# kseries check's cocci stage: a call, added under a spinlock in binder.c,
# of a binder_alloc.c function that sleeps (mutex_lock) is reported with
# the chain and its place in the other file; the place's line is no part
# of the finding's identity.
if test_have_prereq TREE && test_have_prereq SPATCH; then
	test_set_prereq CHECK
	export KSERIES_CHECK_WORKTREE=$REAL_CACHE/wt/kseries-test
fi

# xpatch OUT SHIFT: the patch adding binder_demo_release() to binder.c;
# with SHIFT, it also adds SHIFT comment lines at the top of binder_alloc.c.
xpatch() {
	for f in binder.c binder_alloc.c; do
		git -C "$KSERIES_TREE" show v7.2.13:drivers/android/$f >old-$f || return 1
		cp old-$f new-$f
	done
	cat >>new-binder.c <<-\EOF
	static void binder_demo_release(struct binder_proc *proc,
					struct binder_buffer *buffer)
	{
		spin_lock(&proc->inner_lock);
		binder_alloc_free_buf(&proc->alloc, buffer);
		spin_unlock(&proc->inner_lock);
	}
	EOF
	if [ "$2" -gt 0 ]; then
		{ sed -n 1p old-binder_alloc.c; for i in $(seq "$2"); do echo "/* shift $i */"; done;
		  sed 1d old-binder_alloc.c; } >new-binder_alloc.c
	fi
	{
		printf "From: A U Thor <author@example.invalid>\nDate: Mon, 30 Nov 2026 10:00:00 +0000\n"
		printf "Subject: [PATCH] binder: demo release\n\nA sleeping call under a spinlock.\n\n"
		printf "Signed-off-by: A U Thor <author@example.invalid>\n---\n"
		for f in binder.c binder_alloc.c; do
			diff -u --label a/drivers/android/$f --label b/drivers/android/$f old-$f new-$f
		done
		printf -- "-- \n2.39.5\n"
	} >"$1"
	return 0
}

test_expect_success CHECK 'check: a cross-file sleeper is reported with its chain; the places are not identity' '
	for n in 0 3; do
		mkdir -p store/series/x$n/v1 &&
		printf "[series]\n\ttitle = t\n\tbase = v7.2.13\n\tprefix = PATCH\n" \
			>store/series/x$n/series.conf &&
		xpatch store/series/x$n/v1/0001-demo.patch $n || return 1
	done &&
	cd store &&
	test_expect_code 1 kseries check x0 --stage cocci >out &&
	grep "x0  *v1  cocci      fail   1" out &&
	test_expect_code 1 kseries check x0 --stage cocci --json >x0.json &&
	test_expect_code 1 kseries check x3 --stage cocci --json >x3.json &&
	grep "\"message\": \"sleeping call .binder_alloc_free_buf. while holding .proc->inner_lock. (taken at line [0-9]*) via .binder_alloc_free_buf. -> .mutex_lock. (drivers/android/binder_alloc.c:875)\"" x0.json &&
	grep "\"message\": .* -> .mutex_lock. (drivers/android/binder_alloc.c:878)\"" x3.json &&
	grep "\"id\": \"cocci|drivers/android/binder.c|.*(drivers/android/binder_alloc.c:N)\"" x0.json >id0 &&
	grep "\"id\": \"cocci|drivers/android/binder.c|.*(drivers/android/binder_alloc.c:N)\"" x3.json >id3 &&
	test_line_count = 1 id0 &&
	test_cmp id0 id3
'

test_done
