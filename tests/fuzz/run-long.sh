#!/usr/bin/env bash
# tests/fuzz/run-long.sh SECONDS HARNESS... - long libFuzzer runs by hand.
#
# Runs each harness (fuzz-mail, fuzz-patch, ...) for SECONDS, one at a
# time, at nice 19, on its working corpus tests/fuzz/corpus-NAME (seeded
# from the committed tests/fuzz/regress-NAME and the test fixtures).
# Output goes to tests/fuzz/long-NAME.log; crashes to tests/fuzz/crash-NAME-*.
# Results are written down by hand in tests/fuzz/README.
set -euo pipefail

cd "$(dirname "$0")/../.."
secs=$1
shift
for h in "$@"; do
	n=${h#fuzz-}
	c=tests/fuzz/corpus-$n
	mkdir -p "$c"
	if [ -d "tests/fuzz/regress-$n" ]; then
		cp -n "tests/fuzz/regress-$n"/* "$c"/ 2>/dev/null || :
	fi
	echo "== fuzz-$n $secs s $(date -u +%FT%TZ)"
	rc=0
	nice -n 19 "tests/fuzz/fuzz-$n" -max_total_time="$secs" -max_len=65536 \
		-rss_limit_mb=2048 -timeout=25 -print_final_stats=1 \
		-artifact_prefix="tests/fuzz/crash-$n-" "$c" \
		>"tests/fuzz/long-$n.log" 2>&1 || rc=$?
	echo "rc=$rc corpus=$(find "$c" -type f | wc -l)"
	grep -E '^(#[0-9]+.*(DONE|pulse)|stat::|Done )' "tests/fuzz/long-$n.log" | tail -n 8
done
