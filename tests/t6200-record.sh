#!/usr/bin/env bash
test_description='kseries record: the branch as the next version, or the draft'
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-loop.sh"

export KSERIES_TREE=$TRASH/base KSERIES_CACHE=$TRASH/cache
unset GIT_AUTHOR_NAME GIT_AUTHOR_EMAIL GIT_COMMITTER_NAME GIT_COMMITTER_EMAIL


test_expect_success 'a posted v1, worked on in a tree of ours' '
	git config --global user.name "Una User" &&
	git config --global user.email una@example.invalid &&
	loop_base base && mkdir -p store/series &&
	loop_series base store foo &&
	git clone -q base linux &&
	(cd store && kseries work foo -w ../linux >/dev/null)
'

# refuse: one line, exit 1, the store as it was
refuses() {
	local want=$1
	shift
	rm -rf before && cp -a store/series before &&
	(cd store && test_expect_code 1 kseries record foo -w ../linux "$@" >../out 2>../err) &&
	cat err &&
	test_line_count = 1 err && grep "^kseries: error: .*$want" err &&
	test_line_count = 0 out &&
	diff -r before store/series
}

test_expect_success 'refused: no commits, a merge, a rewritten base' '
	git -C linux branch bare v7.2.13 &&
	refuses "has no commits" -b bare &&
	git -C linux branch cover-only kseries/foo~2 &&
	refuses "has no commits" -b cover-only &&
	(
		cd linux && git checkout -q -b merged kseries/foo~1 &&
		git checkout -q -b side v7.2.13 && echo x >side.txt && git add side.txt &&
		git commit -q -m side && git checkout -q merged &&
		git merge -q --no-edit side && git checkout -q kseries/foo
	) &&
	refuses "merge commit" -b merged &&
	(
		cd linux && git checkout -q --orphan rewritten &&
		git commit -q -m "another base" && echo y >>drivers/foo/foo.c &&
		git commit -q -a -m "foo: on another base" && git checkout -q kseries/foo
	) &&
	refuses "rewrote the base" -b rewritten
'

test_expect_success 'refused: an unresolved conflict, a base not in the base tree' '
	(
		cd linux && git checkout -q -b conflict v7.2.13 &&
		sed -i "s/ret = frob(f);/ret = other(f);/" drivers/foo/foo.c &&
		git commit -q -a -m other &&
		test_must_fail git cherry-pick kseries/foo~1 >/dev/null 2>&1
	) &&
	refuses "unresolved conflict" -b conflict &&
	(cd linux && git cherry-pick --abort && git checkout -q kseries/foo) &&
	git -C store/series/foo config -f series.conf series.base v9.9 2>/dev/null ||
	git config -f store/series/foo/series.conf series.base v9.9 &&
	refuses "base .v9.9. is not in the base repository" &&
	git config -f store/series/foo/series.conf series.base v7.2.13
'

test_expect_success 'v1 was posted: the branch becomes v2' '
	(cd store && kseries record foo -w ../linux >../out) &&
	echo "foo v2: recorded from kseries/foo (2 patches)" >expect &&
	test_cmp expect out &&
	d=store/series/foo &&
	ls $d/v2 >files &&
	printf "%s\n" 0000-cover-letter.patch 0001-foo-drop-the-frob-lock.patch \
		0002-foo-count-the-frobs.patch >expect && test_cmp expect files &&
	grep -x "Subject: \[PATCH v2 0/2\] foo: make the frobnicator faster" $d/v2/0000-*.patch &&
	grep -x "Subject: \[PATCH v2 1/2\] foo: drop the frob lock" $d/v2/0001-*.patch &&
	grep -x "From: Alice Author <alice@example.org>" $d/v2/0001-*.patch &&
	grep -x "Date: Mon, 1 Jun 2026 10:00:01 +0000" $d/v2/0001-*.patch &&
	grep -x "The frobnicator takes a lock it does not need." $d/v2/0000-*.patch &&
	grep -x "base-commit: $(git -C base rev-parse v7.2.13)" $d/v2/0000-*.patch &&
	grep -x "change-id: 20260601-foo-frob-0123456789ab" $d/v2/0000-*.patch &&
	v1=$(git config -f $d/series.conf version.1.message-id) &&
	grep -x "Changes in v2:" $d/v2/0000-*.patch &&
	grep -x -- "- Link to v1: https://lore.kernel.org/r/$v1" $d/v2/0000-*.patch &&
	test "$(git config -f $d/series.conf version.2.origin)" = ours &&
	test_must_fail git config -f $d/series.conf version.2.author &&
	test "$(stat -c %a $d/v2)" = "$(stat -c %a $d/v1)" &&
	for k in 1 2; do
		sed -n "/^diff --git/,/^-- $/p" $d/v1/000$k-*.patch >a &&
		sed -n "/^diff --git/,/^-- $/p" $d/v2/000$k-*.patch >b &&
		test_cmp a b || exit 1
	done
'

test_expect_success 'the draft again, unchanged branch: nothing changes' '
	rm -rf before && cp -a store/series before &&
	(cd store && kseries record foo -w ../linux >../out) &&
	echo "foo v2: unchanged" >expect && test_cmp expect out &&
	diff -r before store/series
'

test_expect_success 'review on v1, a fix: the draft is updated, trailers carried by patch-id' '
	d=store/series/foo &&
	test_reply_mail r1 "Rita Reviewer <rita@example.invalid>" $d/v1/0001-*.patch \
"> -	ret = frob(f);
> +	ret = __frob(f);

__frob() is the locked one; call frob_nolock() here.

Reviewed-by: Rita Reviewer <rita@example.invalid>" &&
	test_reply_mail r2 "Sam Second <sam@example.invalid>" $d/v1/0002-*.patch \
"Looks right.

Acked-by: Sam Second <sam@example.invalid>" &&
	cat r1 r2 >review.mbox &&
	(cd store && kseries feedback ingest foo ../review.mbox) &&
	(
		cd linux &&
		git checkout -q HEAD~1 && sed -i "s/ret = __frob(f);/ret = frob_nolock(f);/" drivers/foo/foo.c &&
		git commit -q -a --amend --no-edit && git cherry-pick kseries/foo >/dev/null &&
		git checkout -q -B kseries/foo
	) &&
	(cd store && kseries record foo -w ../linux >../out) &&
	cat out &&
	head -1 out >first &&
	echo "foo v2: recorded from kseries/foo (2 patches, the unsent draft updated)" >expect &&
	test_cmp expect first &&
	grep -x -- "- 1/2 foo: drop the frob lock: changed; review tags dropped: Reviewed-by: Rita Reviewer <rita@example.invalid>" $d/v2/0000-*.patch &&
	grep -x "Acked-by: Sam Second <sam@example.invalid>" $d/v2/0002-*.patch &&
	! grep "Reviewed-by" $d/v2/0001-*.patch &&
	grep "frob_nolock" $d/v2/0001-*.patch &&
	grep "address Rita Reviewer.s comment" $d/v2/0000-*.patch &&
	grep -x -- "- 2: collect Acked-by from Sam Second" $d/v2/0000-*.patch &&
	! grep -- "collect Reviewed-by" $d/v2/0000-*.patch &&
	grep -x "  https://lore.kernel.org/r/r1@example.invalid" $d/v2/0000-*.patch &&
	grep -c "^Changes in v2:" $d/v2/0000-*.patch >n && echo 1 >expect && test_cmp expect n &&
	rm -rf before && cp -a store/series before &&
	(cd store && kseries record foo -w ../linux >../out) &&
	echo "foo v2: unchanged" >expect && test_cmp expect out &&
	diff -r before store/series
'

test_expect_success 'a draft an older record gave an author: the author goes' '
	d=store/series/foo &&
	git config -f $d/series.conf version.2.author "Una User <una@example.invalid>" &&
	(cd store && kseries record foo -w ../linux >../out) &&
	head -1 out >first &&
	echo "foo v2: recorded from kseries/foo (2 patches, the unsent draft updated)" >expect &&
	test_cmp expect first &&
	test_must_fail git config -f $d/series.conf version.2.author &&
	test "$(git config -f $d/series.conf version.2.origin)" = ours
'

test_expect_success 'once v2 is posted, the next record makes v3' '
	d=store/series/foo &&
	git config -f $d/series.conf version.2.message-id v2-cover@example.invalid &&
	(cd store && kseries record foo -w ../linux >../out) &&
	echo "foo v3: recorded from kseries/foo (2 patches)" >expect &&
	test_cmp expect out &&
	grep -x "Subject: \[PATCH v3 0/2\] foo: make the frobnicator faster" $d/v3/0000-*.patch &&
	grep -x -- "- Link to v2: https://lore.kernel.org/r/v2-cover@example.invalid" $d/v3/0000-*.patch &&
	! grep "Changes in v2:" $d/v3/0000-*.patch &&
	grep -x "Acked-by: Sam Second <sam@example.invalid>" $d/v3/0002-*.patch
'

test_expect_success 'a patch of the user with a placeholder identity: stored without From:' '
	d=store/series/foo &&
	git config -f $d/series.conf version.3.message-id v3-cover@example.invalid &&
	(
		cd linux &&
		echo "/* frob notes */" >>drivers/foo/foo.c &&
		GIT_AUTHOR_NAME="Una User" GIT_AUTHOR_EMAIL=una@example.invalid \
			git commit -q -a -m "foo: note the frobs" -m "A note."
	) &&
	(cd store && kseries record foo -w ../linux >../out) &&
	grep "^foo v4: recorded from kseries/foo (3 patches)" out &&
	! grep "^From: " $d/v4/0003-*.patch &&
	! grep "^From: " $d/v4/0000-*.patch &&
	grep -x "From: Alice Author <alice@example.org>" $d/v4/0001-*.patch &&
	! grep -r "una@example.invalid" $d/v4
'

test_expect_success 'a patch of the user with a real identity: no From: in it or the cover' '
	d=store/series/foo &&
	git config -f $d/series.conf version.4.message-id v4-cover@example.invalid &&
	git config --global user.name "Rea Person" &&
	git config --global user.email rea@example.org &&
	(
		cd linux &&
		echo "/* more frob notes */" >>drivers/foo/foo.c &&
		git commit -q -a -m "foo: more notes" -m "Another note."
	) &&
	(cd store && kseries record foo -w ../linux >../out) &&
	grep "^foo v5: recorded from kseries/foo (4 patches)" out &&
	! grep "^From: " $d/v5/0000-*.patch &&
	! grep "^From: " $d/v5/0004-*.patch &&
	grep -x "From: Alice Author <alice@example.org>" $d/v5/0001-*.patch &&
	! grep -r "rea@example.org" $d/v5
'

test_done
