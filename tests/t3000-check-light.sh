#!/usr/bin/env bash
test_description='check: apply, format, checkpatch, feedback on seeded defects'
. "$(dirname "$0")/lib.sh"

SKIP_REASON=${SKIP_REASON_TREE:-}

test_expect_success TREE 'a clean one-patch series passes apply, format, checkpatch' '
	test_series good 1 &&
	test_binder_patch store/series/good/v1/0001-binder-comment.patch \
		"[PATCH] binder: explain the lru lock" \
		"s|^static struct page \*binder_page_lookup|/* Looks up the page installed at addr. */\n&|" &&
	cd store &&
	kseries check good --stage apply --stage format --stage checkpatch >out &&
	grep "good  *v1  apply  *pass" out &&
	grep "good  *v1  format  *pass" out &&
	grep "good  *v1  checkpatch pass" out
'

test_expect_success TREE 'a checkpatch error fails the checkpatch stage with that finding' '
	test_series cp 1 &&
	test_binder_patch store/series/cp/v1/0001-x.patch "[PATCH] binder: x" \
		"s|^static struct page \*binder_page_lookup|int  bad_global_with_trailing_space = 0 ;  \n&|" &&
	cd store &&
	test_expect_code 1 kseries check cp --stage checkpatch >out &&
	grep "cp  *v1  checkpatch fail" out &&
	kseries check cp --stage checkpatch --json >json || test $? = 1 &&
	grep "\"message\": \"TRAILING_WHITESPACE: trailing whitespace\"" json
'

test_expect_success TREE 'a posted patch without Signed-off-by fails the format stage' '
	test_series nosob 1 &&
	git config -f store/series/nosob/series.conf version.1.origin posted &&
	test_binder_patch -n store/series/nosob/v1/0001-x.patch "[PATCH] binder: x" \
		"s|^static struct page \*binder_page_lookup|/* c */\n&|" &&
	cd store &&
	test_expect_code 1 kseries check nosob --stage format >out &&
	grep "nosob  *v1  format  *fail" out &&
	grep "no Signed-off-by" out
'

test_expect_success TREE 'a version we write stores no sign-off: format signs at format time' '
	test_series ours 1 &&
	git config -f store/series/ours/series.conf version.1.origin ours &&
	test_binder_patch -n store/series/ours/v1/0001-x.patch "[PATCH] binder: x" \
		"s|^static struct page \*binder_page_lookup|/* c */\n&|" &&
	cd store &&
	kseries check ours --stage format >out &&
	grep "ours  *v1  format  *pass" out
'

test_expect_success TREE 'a v2 without a changelog fails the format stage' '
	test_series nolog 2 &&
	test_binder_patch store/series/nolog/v2/0001-x.patch "[PATCH v2] binder: x" \
		"s|^static struct page \*binder_page_lookup|/* c */\n&|" &&
	cd store &&
	test_expect_code 1 kseries check nolog --stage format >out &&
	grep "v2+ without a changelog" out
'

test_expect_success TREE 'a Fixes: tag in the wrong form is an error' '
	test_series fixes 1 &&
	test_binder_patch store/series/fixes/v1/0001-x.patch "[PATCH] binder: x" \
		"s|^static struct page \*binder_page_lookup|/* c */\n&|" &&
	sed -i "s/^Signed-off-by/Fixes: 1234 (binder: bad)\nSigned-off-by/" \
		store/series/fixes/v1/0001-x.patch &&
	cd store &&
	test_expect_code 1 kseries check fixes --stage format >out &&
	grep "Fixes: tag not in the form" out
'

test_expect_success TREE 'a patch that does not apply fails apply and stops' '
	test_series noapply 1 &&
	test_binder_patch store/series/noapply/v1/0001-x.patch "[PATCH] binder: x" \
		"s|^static struct page \*binder_page_lookup|/* c */\n&|" &&
	sed -i "s/^ static struct page \*binder_page_lookup/ static struct page *no_such_context_line/" \
		store/series/noapply/v1/0001-x.patch &&
	cd store &&
	test_expect_code 1 kseries check noapply >out &&
	grep "noapply  *v1  apply  *fail .*patch 1 of 1 does not apply" out &&
	! grep checkpatch out
'

test_expect_success TREE 'an unchanged version is served from the cache' '
	cp -r store/series/good store/series/good2 &&
	cd store &&
	kseries check good2 --stage format --stage checkpatch >first &&
	! grep cached first &&
	kseries check good2 --stage format --stage checkpatch >second &&
	grep "format  *pass .*(cached)" second &&
	grep "checkpatch pass .*(cached)" second &&
	kseries status >st &&
	grep "^good2  *v1 .*checkpatch:pass" st
'

test_expect_success TREE 'a stage re-runs when its own inputs change, not when another stage'"'"'s do' '
	cp -r "$SRC_DIR/kernel" kdir && cp -r "$SRC_DIR/cocci" cdir &&
	export KSERIES_KERNEL_DIR=$PWD/kdir KSERIES_COCCI_DIR=$PWD/cdir &&
	cd store &&
	kseries check good2 --stage format --stage checkpatch --stage cocci >first &&
	# kernel/ is no input of these three; documentation is no input at all
	echo "x" >../kdir/some-new-script && echo "more" >>../cdir/README.md &&
	kseries check good2 --stage format --stage checkpatch --stage cocci >second &&
	grep "format  *pass .*(cached)" second &&
	grep "checkpatch pass .*(cached)" second &&
	grep "cocci  *[a-z]* .*(cached)" second &&
	echo "x" >../cdir/some-new-input &&
	kseries check good2 --stage format --stage checkpatch --stage cocci >third &&
	grep "checkpatch pass .*(cached)" third &&
	grep "cocci  *[a-z]* " third >c &&
	! grep "(cached)" c &&
	# a note below the "---" changes the mail, not the commit
	sed -i "0,/^---\$/ s//---\nA note below the fold./" series/good2/v1/0001-*.patch &&
	grep -q "^A note below the fold" series/good2/v1/0001-*.patch &&
	kseries check good2 --stage format --stage checkpatch --stage cocci >fourth &&
	grep "cocci  *[a-z]* .*(cached)" fourth &&
	! grep "format  *pass .*(cached)" fourth &&
	! grep "checkpatch pass .*(cached)" fourth
'

test_expect_success TREE 'a failing series does not make the next one fail' '
	cd store &&
	test_expect_code 1 kseries check cp good --stage checkpatch >out &&
	grep "^fail " "$HOME/.cache/kseries/results/cp/v1/summary" &&
	grep "^pass " "$HOME/.cache/kseries/results/good/v1/summary"
'

test_expect_success TREE 'KCIDB output names the checkout and the stages' '
	cd store &&
	kseries check good --stage format --stage checkpatch --kcidb k.json >/dev/null &&
	if python3 -c "import jsonschema" 2>/dev/null; then
		python3 "$SRC_DIR/tests/t3030/kcidb-validate.py" \
			"$SRC_DIR/tests/t3030/kcidb-v5.3.schema.json" k.json
	fi &&
	python3 -c "
import json,sys
k=json.load(open(\"k.json\"))
assert k[\"version\"]=={\"major\":5,\"minor\":3}, k[\"version\"]
assert k[\"checkouts\"][0][\"id\"]==\"kseries:good-v1\"
paths=sorted(t[\"path\"] for t in k[\"tests\"])
assert paths==[\"checkpatch\",\"format\"], paths
"
'

test_expect_success TREE 'a comment on v1 whose lines v2 leaves alone is still open at v2' '
	test_series fb 1 && mkdir -p store/series/fb/v2 &&
	test_binder_patch store/series/fb/v1/0001-x.patch "[PATCH] binder: x" \
		"s|^static struct page \*binder_page_lookup|/* c */\n&|" &&
	sed -e "s/^Subject: \[PATCH\]/Subject: [PATCH v2]/" \
	    -e "s/^---\$/---\nChanges in v2:\n- none\n- Link to v1: https:\/\/lore.kernel.org\/r\/fb1@x/" \
		store/series/fb/v1/0001-x.patch >store/series/fb/v2/0001-x.patch &&
	sed -i "s/^Subject:/Message-ID: <fb1@x>\nSubject:/" store/series/fb/v1/0001-x.patch &&
	cat >reply.mbox <<-\EOM &&
	From mboxrd@z Thu Jan  1 00:00:00 1970
	From: R E Viewer <reviewer@example.invalid>
	Subject: Re: [PATCH] binder: x
	Message-ID: <r1@x>
	In-Reply-To: <fb1@x>

	On Mon, Nov 30, 2026, A U Thor wrote:
	> +/* c */

	This comment says nothing useful.
	EOM
	cd store &&
	kseries feedback ingest fb ../reply.mbox &&
	kseries check fb@v2 --stage feedback >out &&
	grep "fb  *v2  feedback   warn   1  1 of 1 comments on earlier versions still open" out &&
	grep "by R E Viewer <reviewer@example.invalid> on v1 still open" out
'

test_expect_success TREE 'check --b4 answers b4 review-check: per patch and for the cover' '
	cd store &&
	kseries check --b4 --stage format --stage checkpatch \
		<series/good/v1/0001-binder-comment.patch >good.json &&
	python3 -c "
import json
r = json.load(open(\"good.json\"))
assert [(x[\"tool\"], x[\"status\"]) for x in r] == [(\"kseries-apply\", \"pass\"), (\"kseries-format\", \"pass\"), (\"kseries-checkpatch\", \"pass\")], r
" &&
	kseries check --b4 --stage checkpatch <series/cp/v1/0001-x.patch >cp.json &&
	python3 -c "
import json
r = {x[\"tool\"]: x for x in json.load(open(\"cp.json\"))}
c = r[\"kseries-checkpatch\"]
assert c[\"status\"] == \"fail\", c
assert \"TRAILING_WHITESPACE\" in c[\"details\"], c
" &&
	# the same diff in another mail (b4 hands over what lore has) is found by patch-id
	sed -e "s/^From: A U Thor.*/From: Someone Else <else@example.invalid>/" \
	    -e "s/^Subject: .*/Subject: [PATCH] binder: x, as the list saw it/" \
		series/cp/v1/0001-x.patch >lore.eml &&
	kseries check --b4 --stage checkpatch <lore.eml >lore.json &&
	grep "\"kseries-checkpatch\"" lore.json &&
	# a message not in the store: nothing to report
	sed "s/bad_global_with_trailing_space/another_name/" lore.eml >other.eml &&
	kseries check --b4 <other.eml >none.json &&
	echo "[]" >want && test_cmp want none.json &&
	# a cover letter gets every stage; a patch only the per-patch ones
	mkdir -p series/cov/v1 && cp series/good/series.conf series/cov/ &&
	sed "s/^Subject: .*/Subject: [PATCH 1\/1] binder: explain the lru lock/" \
		series/good/v1/0001-binder-comment.patch >series/cov/v1/0001-binder-comment.patch &&
	printf "%s\n" "From 0000000000000000000000000000000000000000 Mon Sep 17 00:00:00 2001" \
		"From: A U Thor <author@example.invalid>" \
		"Subject: [PATCH 0/1] binder: a comment" "" "Why." "" "A U Thor (1):" \
		>series/cov/v1/0000-cover-letter.patch &&
	sed "s/^Subject:/Message-ID: <cover@lore.example>\nSubject:/" \
		series/cov/v1/0000-cover-letter.patch >cover.eml &&
	kseries check --b4 --stage format --stage feedback <cover.eml >cover.json &&
	grep "\"tool\": \"kseries-feedback\"" cover.json &&
	kseries check --b4 --stage format --stage feedback \
		<series/cov/v1/0001-binder-comment.patch >p1.json &&
	grep "\"tool\": \"kseries-format\"" p1.json &&
	! grep "kseries-feedback" p1.json &&
	test_expect_code 128 kseries check --b4 </dev/null &&
	test_expect_code 129 kseries check --b4 good
'

# The stages that need files checked out share one worktree of the base
# tree across runs (a checkout of the whole tree is too slow for each).
if test_have_prereq TREE && command -v spatch >/dev/null; then
	test_set_prereq SPATCH
	export KSERIES_CHECK_WORKTREE=$REAL_CACHE/wt/kseries-test
fi

test_expect_success TREE,SPATCH 'a sleeping call added under alloc->lock fails the cocci stage' '
	test_series sleepy 1 &&
	test_binder_patch store/series/sleepy/v1/0001-x.patch "[PATCH] binder: x" \
		"/^int binder_alloc_get_allocated_count(/,/^}/ s|^\tint count = 0;|&\n\n\tspin_lock(\&alloc->lru_demo_lock);\n\tmsleep(1);\n\tspin_unlock(\&alloc->lru_demo_lock);|" &&
	grep "+	msleep(1);" store/series/sleepy/v1/0001-x.patch &&
	cd store &&
	test_expect_code 1 kseries check sleepy --stage cocci >out &&
	grep "sleepy  *v1  cocci      fail   1" out &&
	grep "sleeping call .msleep. while holding .alloc->lru_demo_lock." out
'

test_expect_success TREE,SPATCH 'findings already in the base are not new' '
	cd store &&
	kseries check good --stage cocci >out &&
	grep "good  *v1  cocci      pass   0" out
'

test_expect_success TREE,SPATCH 'the worktree lock is held by the stages that use the worktree, only' '
	cd store &&
	flock -o "$KSERIES_CHECK_WORKTREE.lock" sleep 30 &
	holder=$! &&
	sleep 1 &&
	kseries check good --stage format --stage checkpatch --no-cache >out &&
	grep "good  *v1  checkpatch pass" out &&
	test_expect_code 124 timeout 5 kseries check good --stage cocci --no-cache 2>err &&
	grep "waiting for .*kseries-test.lock" err &&
	kill $holder && wait $holder || :
'

test_expect_success 'a version whose patches are not here is skipped, with the reason' '
	mkdir -p store2/series && cd store2 &&
	kseries import handles "$SRC_DIR/tests/t0001/seed-004-binder-large-handles-v1.mbox" >/dev/null &&
	kseries check handles >out &&
	grep "handles  *v1  apply  *skip .*no patches in the store" out
'

test_expect_success 'usage errors' '
	mkdir -p store3/series && cd store3 &&
	test_expect_code 129 kseries check &&
	test_expect_code 129 kseries check --all x &&
	test_expect_code 128 kseries check --stage nosuch --all
'

test_done
