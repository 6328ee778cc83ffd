#!/usr/bin/env bash
test_description='kseries work: a version as a branch of your tree (and b4 prep)'
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-loop.sh"

command -v b4 >/dev/null && test_set_prereq B4
export KSERIES_TREE=$TRASH/base KSERIES_CACHE=$TRASH/cache
# the identity is the user's git config (set below), as on a real machine
unset GIT_AUTHOR_NAME GIT_AUTHOR_EMAIL GIT_COMMITTER_NAME GIT_COMMITTER_EMAIL

test_expect_success 'a base repository, a posted v1, a kernel tree' '
	git config --global user.name "Una User" &&
	git config --global user.email una@example.invalid &&
	loop_base base && mkdir -p store/series &&
	loop_series base store foo &&
	git clone -q base linux &&
	git -C base rev-parse v7.2.13 >base.id
'

test_expect_success 'work writes the branch: cover commit, patches as posted' '
	cd store &&
	kseries work foo -w ../linux >out &&
	echo "foo v1: 2 patches on v7.2.13 as branch kseries/foo in $TRASH/linux" >expect &&
	test_cmp expect out &&
	cd ../linux &&
	test "$(git symbolic-ref HEAD)" = refs/heads/kseries/foo &&
	git log --reverse --format="%an <%ae>|%aI|%s" v7.2.13.. >log &&
	cat >expect <<-\EOT &&
	Una User <una@example.invalid>|REPLACE|foo: make the frobnicator faster
	Alice Author <alice@example.org>|2026-06-01T10:00:01+00:00|foo: drop the frob lock
	Alice Author <alice@example.org>|2026-06-01T10:00:02+00:00|foo: count the frobs
	EOT
	sed -i "1s/|[^|]*|/|$(sed -n "1s/^[^|]*|\([^|]*\)|.*/\1/p" log)|/" expect &&
	test_cmp expect log &&
	git log -1 --format=%B HEAD~1 >msg &&
	printf "%s\n" "foo: drop the frob lock" "" \
		"The lock only guards a counter that is never read." "" \
		"Signed-off-by: Alice Author <alice@example.org>" "" >expect &&
	test_cmp expect msg &&
	test "$(git rev-parse HEAD~3)" = "$(cat ../base.id)" &&
	git diff --quiet HEAD~2 HEAD~3 &&
	git log -1 --format=%B HEAD~2 >cover &&
	grep -x -- "--- b4-submit-tracking ---" cover &&
	grep -x "The frobnicator takes a lock it does not need." cover &&
	test "$(git config branch.kseries/foo.b4-prep-cover-strategy)" = commit &&
	git status --porcelain --untracked-files=no >st && test_line_count = 0 st
'

test_expect_success B4 'b4 prep takes the branch for its own (b4 0.12)' '
	cd linux &&
	b4 --offline-mode prep --show-info >info 2>&1 &&
	cat info &&
	grep -x "branch: kseries/foo" info &&
	grep -x "change-id: 20260601-foo-frob-0123456789ab" info &&
	grep -x "revision: 2" info &&
	grep -x "cover-strategy: commit" info &&
	grep -x "cover-subject: foo: make the frobnicator faster" info &&
	grep -x "base-commit: $(cat ../base.id)" info &&
	grep "^commit-[0-9a-f]*: foo: drop the frob lock$" info &&
	grep "^commit-[0-9a-f]*: foo: count the frobs$" info
'

test_expect_success 'work again resets the branch to the version' '
	cd linux &&
	echo "/* edit */" >>drivers/foo/foo.c && git commit -q -a -m "wip" &&
	(cd ../store && kseries work foo -w ../linux) &&
	git log --format=%s v7.2.13.. >log &&
	! grep -x wip log && test_line_count = 3 log
'

test_expect_success 'a dirty tree is refused, nothing touched' '
	cd linux &&
	git rev-parse HEAD >before &&
	git checkout -q -b other &&
	echo "/* dirty */" >>drivers/foo/foo.c &&
	(cd ../store && test_must_fail kseries work foo -w ../linux -b mine 2>../err) &&
	test_line_count = 1 ../err &&
	grep "^kseries: error: .*has uncommitted changes" ../err &&
	test "$(git symbolic-ref HEAD)" = refs/heads/other &&
	! git rev-parse -q --verify refs/heads/mine &&
	grep -q "dirty" drivers/foo/foo.c &&
	git checkout -q drivers/foo/foo.c && git checkout -q kseries/foo
'

test_expect_success 'a tree without the base gets it from the base repository' '
	git init -q -b main other &&
	(cd store && kseries work foo -w ../other -b topic >../out 2>../err) &&
	grep -x "kseries: v7.2.13 is not in .*other.: fetching it from .*base." err &&
	git -C other rev-parse v7.2.13 >id && test_cmp base.id id &&
	test "$(git -C other symbolic-ref HEAD)" = refs/heads/topic &&
	git -C other log --format=%s v7.2.13.. >log && test_line_count = 3 log
'

test_expect_success 'the tree: kseries.tree, else the current directory; never the base repository' '
	(cd store && test_must_fail kseries work foo -w ../base 2>../err) &&
	grep "the workbench.s base repository" err && test_line_count = 1 err &&
	git config --global kseries.tree "$TRASH/other" &&
	(cd store && kseries work foo -b via-config >../out) &&
	grep " in $TRASH/other$" out &&
	git config --global --unset kseries.tree &&
	(cd linux && kseries -C ../store work foo -b via-cwd >../out) &&
	grep " in $TRASH/linux$" out &&
	test "$(git -C linux symbolic-ref HEAD)" = refs/heads/via-cwd
'

test_done
