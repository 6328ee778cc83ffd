#!/usr/bin/env bash
test_description='fuzz harnesses replay their regression inputs and fuzz briefly'
. "$(dirname "$0")/lib.sh"

# LIBFUZZER: clang can link a libFuzzer binary with ASan and UBSan (on
# bookworm: clang and libclang-rt-14-dev).
: "${FUZZ_CC:=clang}"
if ! command -v "$FUZZ_CC" >/dev/null 2>&1; then
	SKIP_REASON="no $FUZZ_CC: install clang and libclang-rt-14-dev"
else
	printf '%s\n' '#include <stdint.h>' '#include <stddef.h>' \
		'int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n);' \
		'int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n) { (void)d; (void)n; return 0; }' \
		>"$TRASH/probe.c"
	if "$FUZZ_CC" -fsanitize=fuzzer,address,undefined -o "$TRASH/probe" \
		"$TRASH/probe.c" >"$TRASH/probe.err" 2>&1 &&
		"$TRASH/probe" -runs=1 >/dev/null 2>&1; then
		test_set_prereq LIBFUZZER
	else
		SKIP_REASON="$FUZZ_CC cannot link a libFuzzer binary: install libclang-rt-14-dev"
	fi
fi

test_expect_success LIBFUZZER 'every parser has a harness and a committed corpus' '
	for p in mail review subject patch anchor trailer conf store; do
		test -f "$SRC_DIR/tests/fuzz/fuzz-$p.c" &&
		test -n "$(ls "$SRC_DIR/tests/fuzz/regress-$p")" || exit 1
	done
'

test_expect_success LIBFUZZER 'make fuzz-replay: no crash on the fixtures, none in a short run' '
	make -C "$SRC_DIR" --no-print-directory FUZZ_CC="$FUZZ_CC" \
		FUZZ_REPLAY_SECONDS="${FUZZ_REPLAY_SECONDS:-20}" fuzz-replay >out 2>&1 ||
		{ cat out; exit 1; }
	cat out &&
	test "$(grep -c "^== fuzz-.*: replay" out)" -ge 7 &&
	! grep -E "ERROR: (AddressSanitizer|libFuzzer)|runtime error" out
'

test_done
