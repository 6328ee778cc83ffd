#!/usr/bin/env bash
test_description='kseries --version: git describe of the build, else VERSION; global options'
. "$(dirname "$0")/lib.sh"

# A copy of the Makefile and VERSION, to ask `make version` what a tree
# without .git (a tarball) or with a tag would be called.
mkcopy() {
	mkdir -p "$1" &&
	cp "$SRC_DIR/Makefile" "$SRC_DIR/VERSION" "$1/"
}

test_expect_success 'the binary says the version make computed for this tree' '
	want=$(make -s -C "$SRC_DIR" --no-print-directory version) &&
	test -n "$want" &&
	kseries --version >out &&
	echo "kseries $want" >expect &&
	test_cmp expect out
'

test_expect_success 'in a git checkout it is git describe (untagged: VERSION-g<commit>)' '
	if test -e "$SRC_DIR/.git"; then
		if d=$(git -C "$SRC_DIR" describe --tags --match "v[0-9]*" --dirty 2>/dev/null); then
			want=${d#v}
		else
			want=$(cat "$SRC_DIR/VERSION")-g$(git -C "$SRC_DIR" describe --always --dirty)
		fi &&
		test "$(make -s -C "$SRC_DIR" --no-print-directory version)" = "$want"
	fi
'

test_expect_success 'without .git it is the VERSION file' '
	mkcopy tarball &&
	echo 3.1.4 >tarball/VERSION &&
	test "$(make -s -C tarball --no-print-directory version)" = 3.1.4
'

test_expect_success 'a git checkout: a vX.Y tag is X.Y, past it git describe, untagged VERSION-gHASH' '
	mkcopy repo &&
	echo 0.9 >repo/VERSION &&
	(
		cd repo &&
		git init -q &&
		git add Makefile VERSION &&
		git commit -q -m one &&
		h=$(git rev-parse --short HEAD) &&
		test "$(make -s --no-print-directory version)" = "0.9-g$h" &&
		git tag -a -m v1.2 v1.2 &&
		test "$(make -s --no-print-directory version)" = 1.2 &&
		echo >>VERSION &&
		test "$(make -s --no-print-directory version)" = 1.2-dirty &&
		git commit -q -a -m two &&
		h=$(git rev-parse --short HEAD) &&
		test "$(make -s --no-print-directory version)" = "1.2-1-g$h"
	)
'

test_expect_success 'global options: -h, a bad option exits 129 with one error line' '
	kseries -h >out &&
	grep "^usage: kseries" out &&
	grep "^  check " out &&
	test_expect_code 129 kseries --bogus 2>err &&
	head -n 1 err >first &&
	echo "kseries: error: unknown option '\''--bogus'\''" >expect &&
	test_cmp expect first &&
	grep "^usage: kseries" err &&
	test_expect_code 129 kseries -C 2>err &&
	grep "option '\''-C'\'' requires a value" err &&
	test_expect_code 129 kseries 2>err &&
	grep "^commands:" err
'

test_expect_success 'a command answers -h outside a store, with its options' '
	mkdir nostore &&
	cd nostore &&
	kseries check -h >out &&
	grep "^usage: kseries check" out &&
	grep "^    --\[no-\]json  *the results as JSON" out &&
	grep "^stages: apply" out &&
	test_expect_code 128 kseries check x 2>err &&
	grep "not in a kseries store" err
'

test_expect_success 'every command answers -h on stdout, exit 0' '
	for cmd in $(kseries -h | sed -n "/^commands:/,\$ s/^  \([a-z0-9-]*\) .*/\1/p"); do
		kseries "$cmd" -h >out 2>err ||
		{ echo "kseries $cmd -h failed"; return 1; }
		grep -q "^usage: kseries $cmd" out &&
		test_line_count = 0 err || return 1
	done
'

test_done
