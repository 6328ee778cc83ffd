#!/usr/bin/env bash
test_description='series state withdrawn: list and status show it, check --all skips it, format and send refuse it'
. "$(dirname "$0")/lib.sh"

export KSERIES_CACHE=$TRASH/cache KSERIES_NO_RANGE_DIFF=1

test_expect_success 'setup: two one-patch series' '
	test_sender &&
	printf "a\n" >old && printf "b\n" >new &&
	test_series act 1 && test_series w 1 &&
	test_patch_mail store/series/act/v1/0001-a-change.patch "binder: a change" drivers/android/binder_alloc.c old new &&
	cp store/series/act/v1/0001-a-change.patch store/series/w/v1/ &&
	cd store && kseries list >../list-before
'

test_expect_success 'withdraw: needs --reason, refuses an empty or multi-line one and writes nothing' '
	cd store &&
	cp series/w/series.conf conf-before &&
	test_expect_code 129 kseries withdraw w 2>err &&
	grep "^usage: kseries withdraw" err &&
	test_expect_code 1 kseries withdraw w --reason "  " 2>err &&
	echo "kseries: error: withdrawing '\''w'\'' needs a reason" >expect &&
	test_cmp expect err &&
	test_expect_code 1 kseries withdraw w --reason "$(printf "a\nb")" 2>err &&
	echo "kseries: error: cannot withdraw '\''w'\'': the reason has a line break" >expect &&
	test_cmp expect err &&
	test_cmp conf-before series/w/series.conf &&
	test_expect_code 1 kseries withdraw nosuch --reason x 2>err &&
	test_line_count = 1 err &&
	! ls -a series | grep "^\.withdraw"
'

test_expect_success 'withdraw: state and state-reason in [series]' '
	cd store &&
	kseries withdraw w --reason "no gain on 7.2: see NOTES" >out &&
	echo "w: withdrawn: no gain on 7.2: see NOTES" >expect &&
	test_cmp expect out &&
	test "$(git config -f series/w/series.conf series.state)" = withdrawn &&
	test "$(git config -f series/w/series.conf series.state-reason)" = "no gain on 7.2: see NOTES"
'

test_expect_success 'list: the state column says withdrawn; -v gives the reason' '
	cd store &&
	kseries list >out &&
	grep "^w  *v1   withdrawn " out &&
	grep "^act  *v1   draft " out &&
	test_line_count = 2 out &&
	kseries list -v >out &&
	grep -A1 "^w " out | tail -n 1 >reason &&
	echo "    withdrawn: no gain on 7.2: see NOTES" >expect &&
	test_cmp expect reason &&
	test_line_count = 3 out
'

test_expect_success 'status: the reason on a line of its own' '
	cd store &&
	kseries status >out &&
	grep "^w  *withdrawn: no gain on 7.2: see NOTES$" out &&
	grep "^w  *v1  (not checked)$" out &&
	! grep "^act .*withdrawn" out
'

test_expect_success 'status --html: the entry says withdrawn' '
	cd store &&
	kseries status --html "$TRASH/site" >/dev/null &&
	grep "<p class=\"withdrawn\"><b>withdrawn</b>: no gain on 7.2: see NOTES" "$TRASH/site/index.html" &&
	test "$(grep -c "class=\"withdrawn\"" "$TRASH/site/index.html")" = 1
'

test_expect_success 'format refuses it with one line, exit 1, nothing written' '
	cd store &&
	test_expect_code 1 kseries format w -o "$TRASH/fmt" 2>err &&
	echo "kseries: error: '\''w'\'' is withdrawn (no gain on 7.2: see NOTES): format refuses it" >expect &&
	test_cmp expect err &&
	test ! -e "$TRASH/fmt" &&
	test_expect_code 1 kseries format w@v1 -o "$TRASH/fmt" 2>err &&
	test_cmp expect err &&
	kseries format act -o "$TRASH/fmt-act" 2>err || : &&
	! grep withdrawn err
'

test_expect_success 'send refuses it, --dry-run too, nothing recorded' '
	cd store &&
	cp series/w/series.conf conf-before &&
	test_expect_code 1 kseries send w --dry-run >out 2>err &&
	echo "kseries: error: '\''w'\'' is withdrawn (no gain on 7.2: see NOTES): send refuses it" >expect &&
	test_cmp expect err &&
	test ! -s out &&
	test_expect_code 1 kseries send --b4 w --dry-run 2>err || : &&
	grep "withdrawn" err &&
	test_cmp conf-before series/w/series.conf
'

test_expect_success 'check --all skips it with one line; check NAME runs it and says so' '
	cd store &&
	kseries check --all --stage format >out 2>err || : &&
	grep "^w: withdrawn (no gain on 7.2: see NOTES): skipped$" out &&
	test "$(grep -c "^w:" out)" = 1 &&
	test ! -e "$KSERIES_CACHE/results/w" &&
	kseries check --all --json --stage format >out 2>err || : &&
	grep "^w: withdrawn (no gain on 7.2: see NOTES): skipped$" err &&
	! grep "^w: withdrawn" out &&
	kseries check w --stage format >out 2>err || : &&
	grep "^w: withdrawn (no gain on 7.2: see NOTES): checked all the same$" err &&
	test -e "$KSERIES_CACHE/results/w/v1"
'

test_expect_success 'a bad state, or withdrawn without a reason, is refused in one line' '
	cd store &&
	cp series/w/series.conf good.conf &&
	git config -f series/w/series.conf --unset series.state-reason &&
	test_expect_code 1 kseries list >out 2>err &&
	echo "kseries: error: $PWD/series/w/series.conf: series.state is withdrawn without a series.state-reason" >expect &&
	test_cmp expect err &&
	grep "^act " out &&
	test_expect_code 1 kseries format w -o "$TRASH/fmt" 2>err &&
	test_cmp expect err &&
	test ! -e "$TRASH/fmt" &&
	git config -f series/w/series.conf series.state withdrwan &&
	test_expect_code 1 kseries show w 2>err &&
	echo "kseries: error: $PWD/series/w/series.conf: unknown series.state '\''withdrwan'\'' (want active or withdrawn)" >expect &&
	test_cmp expect err &&
	git config -f series/w/series.conf series.state active &&
	kseries list >out &&
	grep "^w  *v1   draft " out &&
	cp good.conf series/w/series.conf
'

test_expect_success 'withdrawing again replaces the reason' '
	cd store &&
	kseries withdraw w --reason "superseded by act" >/dev/null &&
	test "$(git config -f series/w/series.conf --get-all series.state-reason)" = "superseded by act" &&
	test "$(git config -f series/w/series.conf --get-all series.state)" = withdrawn
'

test_done
