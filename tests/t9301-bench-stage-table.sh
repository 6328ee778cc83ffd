#!/usr/bin/env bash
test_description='tests/bench/stage-table: the stage seconds a check stored, per series'
. "$(dirname "$0")/lib.sh"

TABLE=$SRC_DIR/tests/bench/stage-table

# result SERIES VERSION STAGE SECONDS [cached]: a stage result as
# kseries check stores it, written at a fixed time
result() {
	local d=cache/results/$1/v$2
	mkdir -p "$d" &&
	printf '{"stage": "%s", "status": "pass", "summary": "", "findings": [], "seconds": %s, "cached": %s}\n' \
		"$3" "$4" "${5:-false}" >"$d/$3.json" &&
	touch -d "2026-12-04 12:0$2:00 UTC" "$d/$3.json"
}

test_expect_success 'the latest version of each series, heaviest first, with the sum' '
	result big 1 build 900 &&
	result big 2 build 100.4 &&
	result big 2 kunit 50 true &&
	result big 2 format 0.2 &&
	result small 1 checkpatch 3 &&
	"$TABLE" cache >out &&
	sed -n 2p out | grep "^big v2 " &&
	sed -n 2p out | awk "{ exit !(\$4 == 100 && \$8 == \"50*\" && \$13 == 0 && \$14 == 151) }" &&
	sed -n 2p out | grep " 12:02:00-12:02:00$" &&
	sed -n 3p out | grep "^small v1  *3 " &&
	tail -n 1 out | awk "{ exit !(\$1 == \"sum\" && \$2 == 3 && \$3 == 100 && \$NF == 154) }" &&
	! grep "big v1" out
'

test_expect_success '--all: every version; --light N sums the rest into one row' '
	"$TABLE" --all cache >out &&
	grep "^big v1 " out && grep "^big v2 " out &&
	"$TABLE" --all --light 1 cache >out &&
	test_line_count = 4 out &&
	sed -n 2p out | grep "^big v1 " &&
	sed -n 3p out | grep "^2 more versions " &&
	tail -n 1 out | awk "{ exit !(\$NF == 1054) }"
'

test_expect_success 'KSERIES_CACHE is the default; no results, bad usage: errors' '
	KSERIES_CACHE=$TRASH/cache "$TABLE" >out &&
	grep "^big v2 " out &&
	test_expect_code 1 "$TABLE" "$TRASH/none" 2>err &&
	grep "^stage-table: error: no results directory in " err &&
	mkdir -p empty/results &&
	test_expect_code 1 "$TABLE" empty 2>err &&
	grep "^stage-table: error: no stage results in " err &&
	test_expect_code 129 "$TABLE" --light x cache &&
	test_expect_code 129 "$TABLE" cache other
'

test_done
