#!/bin/bash
test_description='binder-alloc-spinlock: the spin model finds the v1 race'

. "$(dirname "$0")/lib.sh"

CHECK=$SRC_DIR/series/binder-alloc-spinlock/model/check

. "$TEST_DIR/lib-spin-model.sh"

# v1.out is kept in $TRASH for the tests that read the trace
test_expect_success SPIN 'v1 violates the model (exit 1)' '
	test_expect_code 1 "$CHECK" V1 >v1.out 2>&1
'

test_expect_success SPIN 'v1 counterexample is printed by spin -t -p' '
	test -s v1.out &&
	grep -q "safety violated; counterexample (spin -t -p)" v1.out &&
	grep -q "proc .*(shrinker:" v1.out &&
	grep -q "spin: text of failed assertion" v1.out
'

test_expect_success SPIN 'v1 trace: shrinker takes the page, installer looks it up, then the zap' '
	test -s v1.out &&
	took=$(first_line v1.out "MSC: shrinker: took page [0-9]+ off pages")
	busy=$(first_line v1.out "MSC: installer [0-9]+: -EBUSY")
	lookup=$(first_line v1.out "MSC: installer [0-9]+: lookup pte -> page [1-9]")
	zap=$(first_line v1.out "MSC: shrinker: zap pte of page")
	fail=$(first_line v1.out "Error: assertion violated")
	echo "took=$took busy=$busy lookup=$lookup zap=$zap fail=$fail" &&
	test -n "$took" && test -n "$busy" && test -n "$lookup" &&
	test -n "$zap" && test -n "$fail" &&
	test "$took" -lt "$busy" &&
	test "$busy" -lt "$lookup" &&
	test "$lookup" -lt "$zap" &&
	test "$zap" -lt "$fail"
'

test_expect_success SPIN 'v1 trace: the page looked up is the page zapped' '
	test -s v1.out &&
	looked=$(sed -n -E "s/.*MSC: installer [0-9]+: lookup pte -> page ([0-9]+).*/\1/p" v1.out | head -n 1)
	zapped=$(sed -n -E "s/.*MSC: shrinker: zap pte of page ([0-9]+).*/\1/p" v1.out | head -n 1)
	test -n "$looked" && test "$looked" = "$zapped"
'

# Show the race in the log: the events of the v1 counterexample.
if test_have_prereq SPIN; then
	say "v1 counterexample (events of spin -t -p):"
 grep -E "MSC:|violated" "$TRASH/v1.out" | sed -E 's/^[[:space:]]+/  /' |
		while IFS= read -r line; do say "$line"; done
fi

# v2, v3, v7.2.13 and patch 3 alone: t8103

test_expect_success SPIN 'check rejects an unknown protocol' '
	test_expect_code 2 "$CHECK" V9 2>err &&
	grep -q usage err
'

test_done
