#!/usr/bin/env bash
# What a user or a config hands kseries is shown as data: every
# diagnostic is one line, with control characters and the backslash as
# C octal escapes, whatever command or value it names.
test_description='hostile arguments and values: one escaped error line'
. "$(dirname "$0")/lib.sh"

test_synthetic_env
ESC=$(printf 'x\033]0;owned\007\nkseries: fatal: forged')
SHOWN='x\033]0;owned\007\012kseries: fatal: forged'

# one_line CODE EXPECTED-LINE CMD...: CMD exits CODE, says EXPECTED-LINE
# and nothing else, on stderr alone
one_line() {
	local code=$1 want=$2
	shift 2
	test_expect_code "$code" "$@" >out 2>err &&
	head -1 err >first &&
	printf "%s\n" "$want" >expect &&
	test_cmp expect first &&
	! grep -q "$(printf '\033')" err &&
	! grep -q "^kseries: fatal: forged" err
}

test_expect_success 'setup: a store' '
	mkdir -p store/series && printf "From x\n" >store/mbox &&
	cp -a store before
'

test_expect_success 'a hostile series name' '
	(cd store && one_line 128 "kseries: fatal: bad series name '\''$SHOWN'\''" \
		kseries import "$ESC" mbox) &&
	test_line_count = 1 store/err &&
	rm store/out store/err store/first store/expect && diff -r before store
'

test_expect_success 'a hostile --base' '
	(cd store && one_line 128 "kseries: fatal: bad base '\''$SHOWN'\''" \
		kseries import foo mbox --base "$ESC") &&
	test_line_count = 1 store/err &&
	rm store/out store/err store/first store/expect && diff -r before store
'

test_expect_success 'a hostile command name' '
	one_line 129 "kseries: error: '\''$SHOWN'\'' is not a kseries command" \
		kseries "$ESC"
'

test_done
