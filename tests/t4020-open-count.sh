#!/usr/bin/env bash
test_description='the open-comment count kept with the feedback: written at ingest, used by list, rebuilt when missing or stale'
. "$(dirname "$0")/lib.sh"

SEED=$SRC_DIR/tests/t0001/seed-001-binder-defer-complete-v2.mbox
export KSERIES_CACHE=$TRASH/cache KSERIES_NO_RANGE_DIFF=1

# opened: the open comments feedback --json counts (the slow way)
opened() {
	kseries feedback defer --json |
		python3 -c 'import json,sys; print(sum(1 for i in json.load(sys.stdin) if i["kind"] == "comment" and i["status"] == "open"))'
}
# listed: the count kseries list prints for defer
listed() {
	kseries list | sed -n "s/^defer .* \([0-9]*\) open$/\1/p"
}
# state: what changes when the file is written
state() {
	stat -c "%i %Y %y" series/defer/feedback-open
}

test_expect_success 'setup: ingest writes the count' '
	mkdir -p store/series &&
	cd store &&
	kseries import defer "$SEED" >/dev/null &&
	test ! -e series/defer/feedback-open &&
	kseries feedback ingest defer "$SEED" >/dev/null &&
	test -f series/defer/feedback-open &&
	n=$(opened) && test "$n" -gt 0 &&
	sed -n "2,3p" series/defer/feedback-open >got &&
	printf "Version: 2\nOpen: %s\n" "$n" >expect &&
	test_cmp expect got &&
	grep -q "^Key: [0-9a-f]\{40\}$" series/defer/feedback-open
'

test_expect_success 'list uses it: the same count, the file not rewritten' '
	cd store &&
	state >before &&
	test "$(listed)" = "$(opened)" &&
	kseries list >/dev/null &&
	state >after &&
	test_cmp before after
'

test_expect_success 'list uses the kept count: a planted count with the current key is what it prints' '
	cd store &&
	cp series/defer/feedback-open kept &&
	sed "s/^Open: .*/Open: 77/" kept >planted &&
	cat planted >series/defer/feedback-open &&
	test "$(listed)" = 77 &&
	cp kept series/defer/feedback-open
'

test_expect_success 'stale after a resolve: list counts again and keeps the new count' '
	cd store &&
	n=$(opened) &&
	id=$(kseries feedback defer --json | python3 -c "import json,sys; print([i[\"id\"] for i in json.load(sys.stdin) if i[\"kind\"] == \"comment\" and i[\"status\"] == \"open\"][0])") &&
	sleep 0.01 &&
	kseries feedback resolve "$id" --status wontfix >/dev/null &&
	test "$(listed)" = $((n - 1)) &&
	test "$(opened)" = $((n - 1)) &&
	grep "^Open: $((n - 1))$" series/defer/feedback-open
'

test_expect_success 'stale after a hand edit of a record, or one removed' '
	cd store &&
	n=$(opened) &&
	rec=$(grep -l "^Status: wontfix" series/defer/feedback/*) &&
	sed -i "/^Status: wontfix/d" "$rec" &&
	test "$(listed)" = $((n + 1)) &&
	rm "$(grep -L "^Kind: trailer" series/defer/feedback/* | head -n 1)" &&
	test "$(listed)" = "$(opened)" &&
	test "$(listed)" = "$n"
'

test_expect_success 'missing, or not ours (garbage, an old key, another version): rebuilt' '
	cd store &&
	n=$(opened) &&
	rm series/defer/feedback-open &&
	test "$(listed)" = "$n" &&
	test -f series/defer/feedback-open &&
	printf "garbage\n" >series/defer/feedback-open &&
	test "$(listed)" = "$n" &&
	grep "^Open: $n$" series/defer/feedback-open &&
	sed -i "s/^Version: 2/Version: 1/; s/^Open: .*/Open: 99/" series/defer/feedback-open &&
	test "$(listed)" = "$n" &&
	sed -i "s/^Key: ./Key: x/; s/^Open: .*/Open: 99/" series/defer/feedback-open &&
	test "$(listed)" = "$n"
'

test_expect_success 'a new version makes it stale: counted at the new latest version' '
	cd store &&
	mkdir series/defer/v3 &&
	cp series/defer/v2/*.patch series/defer/v3/ &&
	kseries list >/dev/null &&
	grep "^Version: 3$" series/defer/feedback-open &&
	test "$(listed)" = "$(kseries feedback defer@v3 --json | python3 -c "import json,sys; print(sum(1 for i in json.load(sys.stdin) if i[\"kind\"] == \"comment\" and i[\"status\"] == \"open\"))")" &&
	rm -r series/defer/v3 &&
	grep -q "^Version: 3$" series/defer/feedback-open &&
	kseries list >/dev/null &&
	grep "^Version: 2$" series/defer/feedback-open
'

test_expect_success 'a symbolic link there is neither read nor written through' '
	cd store &&
	n=$(opened) &&
	sed "s/^Open: .*/Open: 55/" series/defer/feedback-open >"$TRASH/target" &&
	cp "$TRASH/target" target-before &&
	rm series/defer/feedback-open &&
	ln -s "$TRASH/target" series/defer/feedback-open &&
	test_expect_code 1 kseries list >out 2>err &&
	grep "^defer .* $n open$" out &&
	echo "kseries: error: '\''$PWD/series/defer/feedback-open'\'' is a symbolic link: not writing through it" >expect &&
	test_cmp expect err &&
	test_cmp target-before "$TRASH/target" &&
	rm series/defer/feedback-open &&
	test "$(listed)" = "$n" &&
	grep "^Open: $n$" series/defer/feedback-open
'

test_expect_success 'an unreadable record: list exits 1 and keeps no count' '
	cd store &&
	rm series/defer/feedback-open &&
	rec=$(ls series/defer/feedback/* | head -n 1) &&
	mv "$rec" rec.bak && mkdir "$rec" &&
	test_expect_code 1 kseries list >out 2>err &&
	test -s err &&
	test ! -e series/defer/feedback-open &&
	rmdir "$rec" && mv rec.bak "$rec" &&
	kseries list >/dev/null &&
	test -f series/defer/feedback-open
'

test_expect_success 'no staging directory is left behind' '
	cd store &&
	! ls -a series series/defer | grep "^\.count-"
'

test_done
