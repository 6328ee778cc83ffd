#!/bin/bash
test_description='binder-large-handles: the in-kernel timing (measure/run) and its verdict'
. "$(dirname "$0")/lib.sh"

# series/binder-large-handles/measure/run times binder_get_ref_for_node_olocked()
# in UML KUnit, large handles off against on on v7.2.13 + vN (v2:
# PF_LARGE_HANDLES, v3: BINDER_ENABLE_LARGE_HANDLES), and v7.2.13 off, and
# writes measure/log/vN/results (every result line) and summary (the rank
# tests); on v3 the suite's binder_handles_clear case checks what clearing
# the flag does. Fast: the summary is re-made from a results file,
# synthetic and the committed ones, and the committed v3 boots passed the
# clear case. Heavy (KERNEL, make check-kernel): the two UML kernels, one
# boot each with a small count, must pass the suite.

SERIES=$SRC_DIR/series/binder-large-handles
RUN=$SERIES/measure/run

# res KERNEL MODE BOOT ROUND PROBE FILL: one result line as the suite prints it
res() {
	echo "boot=$3 binder-handles-kunit: kernel=$1 round=$4 mode=$2 refs=100000 probe=1000 fill_ns=$6 probe_tmean_ns=$5 probe_min_ns=1 probe_med_ns=$5 probe_p90_ns=9 probe_max_ns=99 last_desc=101000 dmap_nbits=131072"
}

test_expect_success 'bad usage exits 129 with the synopsis' '
	test_expect_code 129 "$RUN" --boots 0 2>err &&
	grep -q "^usage: measure/run" err &&
	test_expect_code 129 "$RUN" --rounds 1x 2>err &&
	test_expect_code 129 "$RUN" sideways 2>err &&
	test_expect_code 129 "$RUN" --version 4 --summary-only 2>err &&
	test_expect_code 129 "$RUN" --version 2x --summary-only 2>err
'

test_expect_success '--summary-only without results fails with one line' '
	mkdir empty &&
	test_must_fail "$RUN" --summary-only --out empty 2>err &&
	grep -q "no empty/results" err &&
	test ! -e empty/summary
'

test_expect_success 'summary: a flag that gains is found lower, p exact' '
	mkdir gain &&
	echo "# synthetic" >gain/results &&
	for r in 1 2 3 4 5 6 7 8 9 10; do
		res v3 off 1 $r $((2000 + r)) $((900000 + r)) &&
		res v3 on 1 $r $((1000 + r)) $((800000 + r)) &&
		res v7.2.13 off 1 $r $((2000 + 2 * r)) $((900000 - r)) || return 1
	done >>gain/results &&
	echo "boot=1 binder-handles-kunit: kernel=v3 clear held=200 off_descs=5,100,201,202 on_again=203 dmap_nbits=256" >>gain/results &&
	"$RUN" --summary-only --out gain >out &&
	test_cmp out gain/summary &&
	grep -q "^# synthetic" out &&
	grep "^flag: probe_med_ns: A=v3 off median 2005.5, B=v3 on median 1005.5; U=0 n=10+10 p=.* lower=B$" out &&
	grep "^flag: fill_ns: .* lower=B$" out
'

test_expect_success 'summary: interleaved samples are no difference' '
	mkdir same &&
	: >same/results &&
	for r in 1 2 3 4 5 6 7 8 9 10; do
		res v2 off 1 $r $((1000 + 2 * r)) $((500 + 2 * r)) &&
		res v2 on 1 $r $((1001 + 2 * r)) $((501 + 2 * r)) &&
		res v7.2.13 off 1 $r $((1000 + 2 * r)) $((500 + 2 * r)) || return 1
	done >>same/results &&
	"$RUN" --version 2 --summary-only --out same >out &&
	grep "^flag: probe_med_ns: A=v2 off" out &&
	grep "^flag: probe_med_ns: .* lower=none$" out &&
	grep "^base: probe_med_ns: .* lower=none$" out &&
	grep "^base: fill_ns: .* lower=none$" out
'

test_expect_success 'a version without its results is no summary of another' '
	test_must_fail "$RUN" --version 2 --summary-only --out gain/none 2>err &&
	grep -q "no gain/none/results" err
'

for v in 2 3; do
	test_expect_success "the committed v$v summary is what its raw results give" '
		mkdir committed-v$v &&
		cp "$SERIES/measure/log/v$v/results" committed-v$v/ &&
		"$RUN" --version $v --summary-only --out committed-v$v >/dev/null &&
		test_cmp "$SERIES/measure/log/v$v/summary" committed-v$v/summary &&
		test "$(grep -c "kernel=v$v .* mode=off " committed-v$v/results)" -ge 10 &&
		test "$(grep -c "kernel=v$v .* mode=on " committed-v$v/results)" -ge 10 &&
		test "$(grep -c "kernel=v7.2.13 .* mode=off " committed-v$v/results)" -ge 10 &&
		test -z "$(grep -v "^#" committed-v$v/results | grep " mode=" | grep -v " refs=100000 ")"
	'
done

test_expect_success 'v3: every committed boot passed the clear case, with the handles it defines' '
	boots=$(ls "$SERIES"/measure/log/v3/boot-*-v3.log | wc -l) &&
	test "$boots" -ge 4 &&
	test "$(grep -l "^ *ok 2 binder_handles_clear" "$SERIES"/measure/log/v3/boot-*-v3.log | wc -l)" = "$boots" &&
	test "$(grep -c "kernel=v3 clear held=200 off_descs=5,100,201,202 on_again=203 dmap_nbits=256$" "$SERIES/measure/log/v3/results")" = "$boots" &&
	! grep -q "not ok" "$SERIES"/measure/log/v3/boot-*.log
'

test_kernel_prereq "$REAL_CACHE"

test_expect_success KERNEL 'both UML kernels build and pass the suite (one small boot each)' '
	KSERIES_CACHE=$REAL_CACHE "$RUN" --boots 1 --rounds 1 --refs 2000 --probe 100 \
		--out "$TRASH/kernel" >out &&
	grep -c "kernel=v3 .* mode=on " kernel/results &&
	grep -c "kernel=v3 .* mode=off " kernel/results &&
	grep -c "kernel=v7.2.13 .* mode=off " kernel/results &&
	grep -q "^ *ok 2 binder_handles_clear" kernel/boot-1-v3.log &&
	grep -q "^ *ok 1 binder_handles" kernel/boot-1-v3.log &&
	grep -q "^ *ok 1 binder_handles" kernel/boot-1-base.log
'

test_done
