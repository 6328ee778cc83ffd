#!/usr/bin/env bash
test_description='make bench: the goals summary from made-up bench results (met, not met, missing)'
. "$(dirname "$0")/lib.sh"

SUMMARY=$SRC_DIR/tests/bench/summary

# verdict GOAL-PREFIX VERDICT: the summary's line for the goal has VERDICT
verdict() {
	grep -F "$1: $2" out >/dev/null || {
		echo "no '$1: $2' in:"; cat out; return 1
	}
}

met_results() {
	cat <<-EOF
	bench.mail-scale.exit 0
	bench.mail-scale.seconds 812
	mail.sizes 2000 10000 100000
	mail.only review import
	mail.review.2000.cpu 0.100
	mail.review.2000.b4_cpu 2.0
	mail.review.2000.split_cpu 5.0
	mail.review.10000.cpu 0.500
	mail.review.10000.b4_cpu 8.0
	mail.review.10000.split_cpu 25.0
	mail.review.100000.cpu 5.000
	mail.review.100000.b4_cpu 70.0
	mail.review.100000.split_cpu 250.0
	mail.review.100000.bytes 500000000
	mail.review.100000.rss_kb 160000
	mail.import.2000.cpu 0.080
	mail.import.2000.b4_cpu 1.0
	mail.import.2000.split_cpu 6.0
	mail.import.10000.cpu 0.400
	mail.import.10000.b4_cpu 5.0
	mail.import.10000.split_cpu 24.0
	mail.import.100000.cpu 4.200
	mail.import.100000.b4_cpu 50.0
	mail.import.100000.split_cpu 240.0
	mail.import.100000.bytes 370000000
	mail.import.100000.rss_kb 30000
	mail.import.100000.posting_bytes 52428
	bench.list-status.exit 0
	bench.list-status.seconds 95
	list.series 1000
	list.cpu 0.250
	status.series 1000
	status.cpu 0.280
	bench.feedback-ingest.exit 0
	ingest.records 1500
	ingest.ms 900
	bench.check-cache.exit 0
	check.series 20
	check.stages apply format
	check.warm_s 0.40
	check.j1_s 100.0
	check.j2_s 60.0
	check.j_output same
	check.cold_est_j1_s 1000.0
	check.cold_est_j2_s 800.0
	bench.cocci-vs-callkern.exit 0
	cocci.cold_cpu 2.30
	cocci.warm_cpu 1.06
	cocci.callkern_cpu 1.38
	cocci.triage_real 28
	cocci.triage_reported 64
	EOF
}

test_expect_success 'every goal met: a met line each, with the figures' '
	met_results >results &&
	"$SUMMARY" results >out &&
	verdict "review extract CPU, 10k -> 100k messages <= 11x" "met, 10.0x (0.500 s at 10k, 5.000 s at 100k)" &&
	verdict "import CPU, 10k -> 100k messages <= 11x" "met, 10.5x" &&
	verdict "review extract >= 10x faster than b4 am -m at 10k and 100k" "met, 16.0x at 10k (b4 8.00 s, kseries 0.500 s), 14.0x at 100k" &&
	verdict "import >= 10x faster than b4 am -m at 10k and 100k" "met, 12.5x at 10k" &&
	verdict "review extract >= 3x faster than mailsplit+mailinfo at every size" "met, 50.0x at 2k, 50.0x at 10k, 50.0x at 100k" &&
	verdict "import >= 3x faster than mailsplit+mailinfo at every size" "met, 75.0x at 2k, 60.0x at 10k, 57.1x at 100k" &&
	verdict "review extract peak RSS at 100k <= 0.5x the mbox" "met, 0.33x (156 MB peak RSS, 477 MB mbox)" &&
	verdict "import peak RSS at 100k <= 64 MiB + the posting" "met, 29.3 MB peak RSS, bound 64.0 MB (64 MiB + the 0.050 MB posting)" &&
	verdict "list over 1000 series <= 0.3 s CPU" "met, 0.250 s CPU over 1000 series" &&
	verdict "status over 1000 series <= 0.3 s CPU" "met, 0.280 s" &&
	verdict "feedback ingest of 1500 records <= 2 s wall" "met, 0.90 s wall for 1500 records" &&
	verdict "warm check (nothing changed) <= 3 s wall" "met, 0.40 s wall, 20 series" &&
	verdict "check -j 2 runs two versions at once and saves time" "met, light stages -j 1 100.0 s, -j 2 60.0 s (saves 40%), output same; cold run estimate -j 1 1000 s, -j 2 800 s (saves 20%)" &&
	verdict "cold ./ci/main-job <= 60 min wall" "not measured (not part of make bench" &&
	verdict "issue 20: run-sleep-check <= 2x call_kern.cocci CPU on drivers/android" "met, 1.67x cold, 0.77x warm" &&
	verdict "issue 20: triage precision (real / reported)" "measured, 0.44 (28 real of 64 reported)" &&
	grep -x "bench mail-scale: exit 0, 812 s" out &&
	grep -x "goals: 14 met, 1 not measured, 1 measured" out
'

test_expect_success 'a figure past its bound: NOT met, with the figure' '
	met_results | sed \
		-e "s/^mail.review.100000.cpu .*/mail.review.100000.cpu 6.000/" \
		-e "s/^mail.import.100000.b4_cpu .*/mail.import.100000.b4_cpu 40.0/" \
		-e "s/^mail.import.10000.split_cpu .*/mail.import.10000.split_cpu 1.0/" \
		-e "s/^mail.review.100000.rss_kb .*/mail.review.100000.rss_kb 300000/" \
		-e "s/^mail.import.100000.rss_kb .*/mail.import.100000.rss_kb 70000/" \
		-e "s/^list.cpu .*/list.cpu 0.310/" \
		-e "s/^status.cpu .*/status.cpu 0.900/" \
		-e "s/^ingest.ms .*/ingest.ms 2001/" \
		-e "s/^check.warm_s .*/check.warm_s 3.01/" \
		-e "s/^check.j_output .*/check.j_output DIFFERENT/" \
		-e "s/^cocci.cold_cpu .*/cocci.cold_cpu 2.80/" >results &&
	"$SUMMARY" results >out &&
	verdict "review extract CPU, 10k -> 100k messages <= 11x" "NOT met, 12.0x (0.500 s at 10k, 6.000 s at 100k)" &&
	verdict "import CPU, 10k -> 100k messages <= 11x" "met, 10.5x" &&
	verdict "review extract >= 10x faster than b4 am -m at 10k and 100k" "met, 16.0x at 10k (b4 8.00 s, kseries 0.500 s), 11.7x at 100k (b4 70.00 s, kseries 6.000 s)" &&
	verdict "import >= 10x faster than b4 am -m at 10k and 100k" "NOT met, 12.5x at 10k (b4 5.00 s, kseries 0.400 s), 9.5x at 100k" &&
	verdict "import >= 3x faster than mailsplit+mailinfo at every size" "NOT met, 75.0x at 2k, 2.5x at 10k, 57.1x at 100k" &&
	verdict "review extract peak RSS at 100k <= 0.5x the mbox" "NOT met, 0.61x (293 MB peak RSS" &&
	verdict "import peak RSS at 100k <= 64 MiB + the posting" "NOT met, 68.4 MB peak RSS, bound 64.0 MB" &&
	verdict "list over 1000 series <= 0.3 s CPU" "NOT met, 0.310 s CPU" &&
	verdict "status over 1000 series <= 0.3 s CPU" "NOT met, 0.900 s CPU" &&
	verdict "feedback ingest of 1500 records <= 2 s wall" "NOT met, 2.00 s wall" &&
	verdict "warm check (nothing changed) <= 3 s wall" "NOT met, 3.01 s wall" &&
	verdict "check -j 2 runs two versions at once and saves time" "NOT met, light stages -j 1 100.0 s, -j 2 60.0 s (saves 40%), output DIFFERENT" &&
	verdict "issue 20: run-sleep-check <= 2x call_kern.cocci CPU on drivers/android" "NOT met, 2.03x cold" &&
	grep -x "goals: 3 met, 11 NOT met, 1 not measured, 1 measured" out
'

test_expect_success 'missing figures: not measured, and why' '
	cat >results <<-EOF &&
	bench.mail-scale.exit 0
	bench.mail-scale.seconds 30
	mail.sizes 2000 10000
	mail.only review
	mail.review.2000.cpu 0.100
	mail.review.2000.b4_cpu ? no b4 (Debian package b4)
	mail.review.2000.split_cpu 5.0
	mail.review.10000.cpu 0.500
	mail.review.10000.b4_cpu ? no b4 (Debian package b4)
	mail.review.10000.split_cpu ? MAIL_SCALE_BASELINES=b4
	bench.list-status.exit 0
	list.series 50
	list.cpu 0.010
	status.series 50
	status.cpu 0.020
	bench.feedback-ingest.exit 1
	bench.feedback-ingest.seconds 3
	bench.check-cache.skip ? no base tree at /nowhere (kernel/provision-base)
	EOF
	"$SUMMARY" results >out &&
	verdict "review extract CPU, 10k -> 100k messages <= 11x" "not measured (100000 messages not in MAIL_SCALE_SIZES (2000 10000))" &&
	verdict "import CPU, 10k -> 100k messages <= 11x" "not measured (MAIL_SCALE_ONLY=review)" &&
	verdict "review extract >= 10x faster than b4 am -m at 10k and 100k" "not measured (no b4 (Debian package b4))" &&
	verdict "review extract >= 3x faster than mailsplit+mailinfo at every size" "not measured (at 10k: MAIL_SCALE_BASELINES=b4, 50.0x at 2k)" &&
	verdict "list over 1000 series <= 0.3 s CPU" "not measured (50 series, not 1000 (KSERIES_BENCH_SERIES_COUNT), 0.010 s CPU over 50 series)" &&
	verdict "feedback ingest of 1500 records <= 2 s wall" "not measured (feedback-ingest failed (exit 1))" &&
	verdict "warm check (nothing changed) <= 3 s wall" "not measured (check-cache skipped: no base tree at /nowhere (kernel/provision-base))" &&
	verdict "issue 20: run-sleep-check <= 2x call_kern.cocci CPU on drivers/android" "not measured (cocci-vs-callkern did not run)" &&
	grep -x "bench check-cache: skipped (no base tree at /nowhere (kernel/provision-base))" out &&
	grep -x "goals: 16 not measured" out
'

test_expect_success 'a bench that did not run at all: its goals not measured, no crash' '
	printf "%s\n" "bench.check-cache.exit 0" "check.warm_s 0.97" "check.series 20" \
		"check.stages apply" >results &&
	"$SUMMARY" results >out &&
	verdict "review extract >= 3x faster than mailsplit+mailinfo at every size" "not measured (mail-scale did not run)" &&
	verdict "review extract CPU, 10k -> 100k messages <= 11x" "not measured (mail-scale did not run)" &&
	verdict "warm check (nothing changed) <= 3 s wall" "met, 0.97 s wall, 20 series, stages apply"
'

test_expect_success 'a failed split size is NOT met even when another is missing' '
	cat >results <<-EOF &&
	mail.sizes 2000 10000
	mail.review.2000.cpu 1.0
	mail.review.2000.split_cpu 2.0
	mail.review.10000.cpu 1.0
	EOF
	"$SUMMARY" results >out &&
	verdict "review extract >= 3x faster than mailsplit+mailinfo at every size" "NOT met, 2.0x at 2k"
'

test_expect_success 'an unreadable results file is one error and exit 1' '
	test_must_fail "$SUMMARY" nowhere/results 2>err &&
	test_line_count = 1 err &&
	grep "^summary: cannot read nowhere/results" err
'

test_expect_success 'the lib records figures and skips only under make bench' '
	mkdir run &&
	(
		. "$SRC_DIR/tests/bench/lib" &&
		bench_result "list.cpu 0.5" &&
		KSERIES_BENCH_RUN=$PWD/run bench_result "list.cpu 0.25" &&
		KSERIES_BENCH_RUN=$PWD/run && bench_skip demo "no widget (Debian package widget)"
		echo "not reached"
	) >skip.out &&
	echo "demo: SKIP: no widget (Debian package widget)" >expect &&
	test_cmp expect skip.out &&
	printf "%s\n" "list.cpu 0.25" "bench.demo.skip ? no widget (Debian package widget)" >expect &&
	test_cmp expect run/results
'

# each key the summary reads is one a bench records (mail-scale's as
# templates over the command and size)
test_expect_success 'the benches record every figure the summary reads' '
	cd "$SRC_DIR/tests/bench" &&
	for k in mail.\$what.\$n.cpu mail.\$what.\$n.rss_kb mail.\$what.\$n.bytes \
		mail.\$what.\$n.posting_bytes mail.\$what.\$n.b4_cpu mail.\$what.\$n.split_cpu \
		mail.sizes mail.only; do
		grep -F "bench_result \"$k " mail-scale.sh >/dev/null || { echo "mail-scale: no $k"; exit 1; }
	done &&
	for k in \$c.series \$c.cpu; do
		grep -F "bench_result \"$k " list-status.sh >/dev/null || { echo "list-status: no $k"; exit 1; }
	done &&
	for k in ingest.records ingest.ms; do
		grep -F "bench_result \"$k " feedback-ingest.sh >/dev/null || { echo "feedback-ingest: no $k"; exit 1; }
	done &&
	for k in check.series check.stages check.warm_s check.j1_s check.j2_s check.j_output; do
		grep -F "bench_result \"$k " check-cache.sh >/dev/null || { echo "check-cache: no $k"; exit 1; }
	done &&
	for k in check.cold_est_j1_s check.cold_est_j2_s; do
		grep -F "result(\"$k " check-cache.sh >/dev/null || { echo "check-cache: no $k"; exit 1; }
	done &&
	for k in cocci.cold_cpu cocci.warm_cpu cocci.callkern_cpu cocci.triage_real cocci.triage_reported; do
		grep -F "bench_result \"$k " cocci-vs-callkern.sh >/dev/null || { echo "cocci-vs-callkern: no $k"; exit 1; }
	done
'

test_done
