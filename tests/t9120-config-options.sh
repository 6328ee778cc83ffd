#!/usr/bin/env bash
test_description='options from git config kseries.<command>.<option>; the command line wins'
. "$(dirname "$0")/lib.sh"

SEED=$SRC_DIR/tests/t0001/seed-001-binder-defer-complete-v2.mbox
export KSERIES_CACHE=$TRASH/cache

test_expect_success 'setup: a store with a posted version and its feedback' '
	mkdir -p store/series &&
	cd store &&
	kseries import defer "$SEED" >/dev/null &&
	kseries feedback ingest defer "$SEED" >/dev/null
'

test_expect_success 'kseries.feedback.json: JSON unless --no-json' '
	cd store &&
	kseries feedback defer >text &&
	! grep -q "^\[" text &&
	git config --global kseries.feedback.json true &&
	kseries feedback defer >out &&
	head -c 1 out >first && printf "[" >expect && test_cmp expect first &&
	kseries feedback defer --no-json >out &&
	test_cmp text out &&
	git config --global kseries.feedback.json false &&
	kseries feedback defer >out &&
	test_cmp text out &&
	kseries feedback defer --json >out &&
	head -c 1 out >first && test_cmp expect first &&
	git config --global --unset kseries.feedback.json
'

test_expect_success 'the repository config is read too, and a bad boolean is fatal' '
	cd store &&
	git init -q . &&
	git config kseries.feedback.json yes &&
	kseries feedback defer >out &&
	head -c 1 out >first && printf "[" >expect && test_cmp expect first &&
	git config kseries.feedback.json maybe &&
	test_expect_code 128 kseries feedback defer 2>err &&
	echo "kseries: fatal: bad boolean config value '\''maybe'\'' for '\''kseries.feedback.json'\''" >expect &&
	test_cmp expect err &&
	kseries feedback defer --json >/dev/null &&
	rm -rf .git
'

test_expect_success 'kseries.send.dry-run: KSERIES_NO_SEND lets it through; --no-dry-run wins' '
	cd store &&
	KSERIES_NO_SEND=1 test_expect_code 128 kseries send defer 2>err &&
	grep "KSERIES_NO_SEND is set: only --dry-run is allowed" err &&
	git config --global kseries.send.dry-run true &&
	KSERIES_NO_SEND=1 kseries send defer >out 2>err || : &&
	! grep "KSERIES_NO_SEND" err &&
	KSERIES_NO_SEND=1 test_expect_code 128 kseries send defer --no-dry-run 2>err &&
	grep "KSERIES_NO_SEND is set: only --dry-run is allowed" err &&
	git config --global --unset kseries.send.dry-run
'

test_expect_success 'kseries.import.base: the base of a new series; --base wins' '
	cd store &&
	git config --global kseries.import.base v7.2.0 &&
	kseries import fromcfg "$SEED" >/dev/null &&
	test "$(git config -f series/fromcfg/series.conf series.base)" = v7.2.0 &&
	kseries import fromcli "$SEED" --base v7.2.1 >/dev/null &&
	test "$(git config -f series/fromcli/series.conf series.base)" = v7.2.1 &&
	git config --global --unset kseries.import.base
'

test_expect_success 'kseries.check.stage: every value a stage (a bad one is refused); --stage wins' '
	cd store &&
	git config --global kseries.check.stage bogus &&
	test_expect_code 128 kseries check defer 2>err &&
	grep "unknown stage '\''bogus'\''" err &&
	kseries check --b4 --stage format </dev/null >out 2>err || : &&
	! grep "unknown stage" err &&
	git config --global --unset kseries.check.stage
'

test_expect_success 'options that name one thing are never read: kseries.import.version, kseries.check.all, kseries.status.html' '
	cd store &&
	git config --global kseries.import.version 99 &&
	git config --global kseries.check.all true &&
	git config --global kseries.status.html "$TRASH/site" &&
	kseries status >/dev/null &&
	test ! -e "$TRASH/site" &&
	git config --global --unset kseries.status.html &&
	test_expect_code 129 kseries check 2>err &&
	grep "^usage: kseries check" err &&
	kseries import again "$SEED" >/dev/null &&
	ls series/again >dirs &&
	grep "^v2$" dirs &&
	git config --global --unset kseries.import.version &&
	git config --global --unset kseries.check.all
'

test_done
