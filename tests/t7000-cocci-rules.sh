#!/bin/bash
# shellcheck disable=SC2016
test_description='cocci/ sleep-in-atomic rules against the case files'

. "$(dirname "$0")/lib.sh"
set -o pipefail

CASES=$SRC_DIR/cocci/tests
RUN=$SRC_DIR/cocci/run-sleep-check
# lib.sh moves HOME into the scratch directory; find the real cache.
real_home=$(getent passwd "$(id -u)" | cut -d: -f6)
BASE_ALLOC=${KSERIES_CACHE:-$real_home/.cache/kseries}/linux/drivers/android/binder_alloc.c

if command -v "${SPATCH:-spatch}" >/dev/null 2>&1 || test -n "${SPATCH:-}"; then
	test_set_prereq SPATCH
else
	SKIP_REASON='spatch not installed'
fi
test -f "$BASE_ALLOC" && test_set_prereq BASETREE

# expected CASE: the lines between check-output-start and check-output-end
expected() {
	sed -n '/check-output-start/,/check-output-end/p' "$1" | sed '1d;$d'
}

test_expect_success SPATCH 'every case file gives its expected findings' '
	cp "$CASES"/*.c . &&
	for c in *.c; do expected "$c"; done | sort -t: -k1,1 -k2,2n >expect &&
	rc=0 && "$RUN" *.c >actual || rc=$? &&
	test "$rc" -eq 1 &&
	test_cmp expect actual
'

test_expect_success SPATCH 'precision and recall over the case set' '
	cp "$CASES"/*.c . &&
	for c in *.c; do expected "$c"; done | sort >expect &&
	{ "$RUN" *.c || test $? -eq 1; } | sort >actual &&
	tp=$(comm -12 expect actual | wc -l) &&
	fp=$(comm -13 expect actual | wc -l) &&
	fn=$(comm -23 expect actual | wc -l) &&
	prec=$(awk -v t="$tp" -v f="$fp" "BEGIN { printf \"%.3f\", (t + f) ? t / (t + f) : 1 }") &&
	rec=$(awk -v t="$tp" -v f="$fn" "BEGIN { printf \"%.3f\", (t + f) ? t / (t + f) : 1 }") &&
	echo "# precision: $prec recall: $rec (tp $tp fp $fp fn $fn)" >&3 &&
	echo "t7000: Coccinelle rules on the case set: precision $prec recall $rec (tp $tp fp $fp fn $fn)" >&4 &&
	test "$tp" -gt 0
' 3>&1

# The spinlock fixtures: v1 (the seed RFC) and v2 (the whole
# series/binder-alloc-spinlock/v2 applied with git am).
for v in v1 v2; do
	test_expect_success SPATCH "binder_alloc.c with the $v spinlock series: no finding" '
		cp "$CASES"/binder_alloc-spinlock-'$v'.c . &&
		"$RUN" binder_alloc-spinlock-'$v'.c >actual &&
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
		test_expect_code 1 "$RUN" moved.c >actual &&
		test_line_count = 1 actual &&
		grep "^moved.c:[0-9]*: sleeping call .zap_vma_range. while holding .alloc->lock. (taken at line [0-9]*)\$" actual
	'
done

test_expect_success SPATCH,BASETREE 'unpatched 7.2.13 binder_alloc.c (mutex): no finding' '
	cp "$BASE_ALLOC" binder_alloc.c &&
	"$RUN" binder_alloc.c >actual &&
	test ! -s actual
'

test_expect_success 'a missing spatch is an error, not silence' '
	echo "void f(void) { }" >f.c &&
	test_expect_code 2 env SPATCH=/nonexistent/spatch "$RUN" f.c 2>err &&
	grep "cannot run" err
'

test_expect_success SPATCH 'a failing spatch is an error' '
	echo "void f(void) { }" >f.c &&
	test_expect_code 2 env SPATCH=false "$RUN" f.c
'

test_expect_success 'a missing input is an error' '
	test_expect_code 2 "$RUN" does-not-exist.c
'

test_done
