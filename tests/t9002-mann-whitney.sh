#!/usr/bin/env bash
test_description='kernel/mann-whitney: exact and approximate two-sided p, ties, bad input'
. "$(dirname "$0")/lib.sh"

MW=$SRC_DIR/kernel/mann-whitney

# samples A-VALUES B-VALUES: the tool's input
samples() {
	local x
	for x in $1; do echo "A $x"; done
	for x in $2; do echo "B $x"; done
}

test_expect_success 'six against six, wholly apart: p = 2/924, A lower' '
	samples "1 2 3 4 5 6" "7 8 9 10 11 12" | "$MW" >out &&
	echo "U=36 n=6+6 p=0.0022 lower=A" >want && test_cmp want out &&
	samples "7 8 9 10 11 12" "1 2 3 4 5 6" | "$MW" >out &&
	echo "U=0 n=6+6 p=0.0022 lower=B" >want && test_cmp want out
'

test_expect_success 'exact tails: U=2 of 36 is 8/924; interleaved samples differ in nothing' '
	samples "10 11 12 13 14 5" "1 2 3 4 6 7" | "$MW" >out &&
	echo "U=2 n=6+6 p=0.0087 lower=B" >want && test_cmp want out &&
	samples "1 3 5 7" "2 4 6 8" | "$MW" >out &&
	grep "lower=none" out
'

test_expect_success 'ties count a half and never make p smaller' '
	samples "1 2 3" "1 2 3" | "$MW" >out &&
	echo "U=4.5 n=3+3 p=1.0000 lower=none" >want && test_cmp want out
'

test_expect_success 'large samples: the normal approximation' '
	samples "$(seq 1 30)" "$(seq 21 50)" | "$MW" >out &&
	grep "^U=8[0-9][0-9]\(\.5\)\? n=30+30 p=0.0000 lower=A$" out &&
	samples "$(seq 1 2 59)" "$(seq 2 2 60)" | "$MW" >out &&
	grep "lower=none" out
'

test_expect_success 'an empty sample or a bad line: exit 2 and a message' '
	test_expect_code 2 "$MW" </dev/null 2>err &&
	grep "both samples need values" err &&
	echo "A 1" | test_expect_code 2 "$MW" 2>err &&
	printf "A 1\nB x\n" | test_expect_code 2 "$MW" 2>err &&
	grep "bad line 2" err
'

test_done
