#!/usr/bin/env bash
test_description='status: one summary per version, written by check, the same output as the stage files'
. "$(dirname "$0")/lib.sh"

export KSERIES_CACHE=$TRASH/cache KSERIES_NO_RANGE_DIFF=1
unset KSERIES_LORE
SKIP_REASON=${SKIP_REASON_TREE:-}
R=$KSERIES_CACHE/results/good/v1
S=$R/version-status

test_expect_success TREE 'setup: a light check of a real patch writes the summary' '
	test_series good 1 &&
	test_binder_patch store/series/good/v1/0001-binder-comment.patch \
		"[PATCH] binder: explain the lru lock" \
		"s|^static struct page \*binder_page_lookup|/* Looks up the page installed at addr. */\n&|" &&
	test_series never 1 &&
	cp store/series/good/v1/0001-binder-comment.patch store/series/never/v1/ &&
	cd store &&
	kseries check good --stage apply --stage format --stage checkpatch >out &&
	test -f "$S" &&
	head -n 1 "$S" >head &&
	echo "kseries version-status 1" >expect &&
	test_cmp expect head &&
	grep "^stage checkpatch [^ ]* pass$" "$S" &&
	grep "^stage sparse - !$" "$S" &&
	test ! -e "$KSERIES_CACHE/results/never"
'

test_expect_success TREE 'status prints the same from the summary as from the stage files' '
	cd store &&
	kseries status >from-summary &&
	grep "^good  *v1  format:pass checkpatch:pass$" from-summary &&
	grep "^never  *v1  (not checked)$" from-summary &&
	cp "$S" by-check &&
	rm "$S" &&
	kseries status >from-files &&
	test_cmp from-files from-summary &&
	# the files read cleanly: status kept the summary check would write
	test_cmp by-check "$S" &&
	test ! -e "$KSERIES_CACHE/results/never"
'

test_expect_success TREE 'status --html makes the same site from the summary as from the files' '
	cd store &&
	kseries status --html "$TRASH/site-summary" >/dev/null &&
	rm "$S" &&
	kseries status --html "$TRASH/site-files" >/dev/null &&
	test -f "$S" &&
	diff -r "$TRASH/site-files" "$TRASH/site-summary" &&
	grep "checkpatch" "$TRASH/site-summary/good-v1.html"
'

# doctor WORD: the summary says format's status is WORD, its file the same
doctor() {
	sed -i "s/^\(stage format [^ ]*\) [a-z!?]*$/\1 $1/" "$S"
}

test_expect_success TREE 'a current summary is what status reads' '
	cd store &&
	doctor fail &&
	kseries status >out &&
	grep "^good  *v1  format:fail checkpatch:pass$" out
'

test_expect_success TREE 'a stage result replaced since is seen: the summary is not believed' '
	cd store &&
	doctor fail &&
	# the same bytes, a new file, as check writes it
	cp "$R/format.json" "$R/format.json.new" &&
	mv "$R/format.json.new" "$R/format.json" &&
	kseries status >out &&
	grep "^good  *v1  format:pass checkpatch:pass$" out &&
	# and status kept the summary of what it read
	grep "^stage format [^ ]* pass$" "$S"
'

test_expect_success TREE 'a stage result rewritten in place, added or removed is seen' '
	cd store &&
	python3 -c "
import json, sys
p = sys.argv[1]
j = json.load(open(p))
j[\"status\"] = \"warn\"
j[\"summary\"] = \"rewritten in place, longer than before\"
open(p, \"w\").write(json.dumps(j))
" "$R/format.json" &&
	kseries status >out &&
	grep "^good  *v1  format:warn checkpatch:pass$" out &&
	sed "s/format/sparse/" "$R/format.json" >"$R/sparse.json" &&
	kseries status >out &&
	grep " checkpatch:pass sparse:warn$" out &&
	rm "$R/sparse.json" "$R/checkpatch.json" &&
	kseries status >out &&
	grep "^good  *v1  format:warn$" out
'

test_expect_success TREE 'a summary of another kseries, version or form is not believed' '
	cd store &&
	kseries status >expect &&
	cp "$S" good-summary &&
	doctor fail &&
	sed -i "s/^source .*/source 0123/" "$S" &&
	kseries status >out &&
	test_cmp expect out &&
	cp good-summary "$S" && doctor fail &&
	sed -i "s/^series good 1$/series good 2/" "$S" &&
	kseries status >out &&
	test_cmp expect out &&
	cp good-summary "$S" && doctor fail &&
	sed -i "/^end$/d" "$S" &&
	kseries status >out &&
	test_cmp expect out &&
	cp good-summary "$S" && doctor fail &&
	sed -i "/^stage model /d" "$S" &&
	kseries status >out &&
	test_cmp expect out &&
	printf "garbage" >"$S" &&
	kseries status >out &&
	test_cmp expect out
'

test_expect_success TREE 'a result status cannot summarise is read from its file each time' '
	cd store &&
	python3 -c "
import json, os, sys
p = sys.argv[1]
j = json.load(open(p))
j[\"status\"] = \"odd word\"
open(p + \".new\", \"w\").write(json.dumps(j))
os.replace(p + \".new\", p)
" "$R/format.json" &&
	rm -f "$S" &&
	kseries status >out &&
	grep "^good  *v1  format:odd word$" out &&
	test ! -e "$S"
'

test_done
