#!/usr/bin/env bash
test_description='bash completion: commands, options, series names, stage names'
. "$(dirname "$0")/lib.sh"

test_expect_success 'setup: a store with two series' '
	mkdir -p store/series/binder-a/v1 store/series/binder-a/v2 \
		store/series/binder-b/v1 store/series/rtmutex/v3 &&
	for s in binder-a binder-b rtmutex; do
		printf "[series]\n\ttitle = t\n" >store/series/$s/series.conf || return 1
	done
'

test_expect_success 'commands' '
	test_complete_words kseries ch >out &&
	echo check >expect && test_cmp expect out &&
	test_complete_words kseries "" >out &&
	kseries -h | sed -n "/^commands:/,\$ s/^  \([a-z0-9-]*\) .*/\1/p" | sort >expect &&
	test_cmp expect out &&
	grep -x b4-branch out &&
	test_complete_words kseries -C store s >out &&
	printf "send\nshow\nstatus\n" >expect && test_cmp expect out
'

test_expect_success 'global options' '
	test_complete_words kseries --v >out &&
	echo --version >expect && test_cmp expect out &&
	test_complete_words kseries --no >out &&
	echo --no-color >expect && test_cmp expect out
'

test_expect_success 'a command'\''s options, from its -h' '
	cd store &&
	test_complete_words kseries check --st >out &&
	echo --stage >expect && test_cmp expect out &&
	test_complete_words kseries format x --no-t >out &&
	printf "%s\n" --no-thread --no-trailers >expect && test_cmp expect out &&
	test_complete_words kseries send x --d >out &&
	echo --dry-run >expect && test_cmp expect out
'

test_expect_success 'stage names, from check --list-stages' '
	cd store &&
	test_complete_words kseries check x --stage k >out &&
	echo kunit >expect && test_cmp expect out &&
	test_complete_words kseries check --stage "" >out &&
	kseries check --list-stages | sort >expect &&
	test_cmp expect out &&
	grep -x apply out && grep -x checkpatch out
'

test_expect_success 'series names from the store, here, by -C, by KSERIES_DIR' '
	(cd store && test_complete_words kseries show bi) >out &&
	printf "binder-a\nbinder-b\n" >expect && test_cmp expect out &&
	mkdir -p store/series/binder-a/sub && (cd store/series/binder-a/sub &&
		test_complete_words kseries check r) >out &&
	echo rtmutex >expect && test_cmp expect out &&
	test_complete_words kseries -C store work "" >out &&
	printf "binder-a\nbinder-b\nrtmutex\n" >expect && test_cmp expect out &&
	KSERIES_DIR=$TRASH/store test_complete_words kseries send rt >out &&
	echo rtmutex >expect && test_cmp expect out &&
	test_complete_words kseries -C store show x >out &&
	test_must_fail test -s out
'

test_expect_success 'versions: SERIES@vN, and diff'\''s vA vB' '
	cd store &&
	test_complete_words kseries show binder-a@ >out &&
	printf "binder-a@v1\nbinder-a@v2\n" >expect && test_cmp expect out &&
	test_complete_words kseries diff binder-a v >out &&
	printf "v1\nv2\n" >expect && test_cmp expect out
'

test_expect_success 'subcommands: review extract, feedback ingest/resolve' '
	cd store &&
	test_complete_words kseries review e >out &&
	echo extract >expect && test_cmp expect out &&
	test_complete_words kseries feedback res >out &&
	echo resolve >expect && test_cmp expect out &&
	test_complete_words kseries feedback resolve x --status o >out &&
	printf "open\noutdated\n" >expect && test_cmp expect out
'

test_done
