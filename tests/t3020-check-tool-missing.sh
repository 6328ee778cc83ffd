#!/usr/bin/env bash
test_description='check: a stage whose tool is missing is skipped with the reason, never cached'
. "$(dirname "$0")/lib.sh"

SKIP_REASON=${SKIP_REASON_TREE:-}

# Results private to this test; the worktree is the one t3000 uses.
export KSERIES_CHECK_WORKTREE=$REAL_CACHE/wt/kseries-test
export KSERIES_CACHE=$TRASH/cache
if test_have_prereq TREE && command -v spatch >/dev/null &&
   command -v python3 >/dev/null; then
	test_set_prereq SPATCH
fi

# without NAME...: a directory of links to every program in PATH but NAMEs
without() {
	dir=$TRASH/without-$(echo "$*" | tr " " -)
	rm -rf "$dir" && mkdir -p "$dir"
	local IFS=:
	for d in $PATH; do
		for f in "$d"/*; do
			n=${f##*/}
			case " $* " in *" $n "*) continue ;; esac
			[ -x "$f" ] && [ ! -e "$dir/$n" ] && ln -s "$f" "$dir/$n"
		done
	done
	echo "$dir"
}

test_expect_success TREE 'setup: a one-patch series touching binder_alloc.c' '
	test_series good &&
	test_binder_patch -s -b "A comment." store/series/good/v1/0001-binder-a-comment.patch \
		"[PATCH] binder: a comment" \
		"s|^static struct page \*binder_page_lookup|/* Looks up the page. */\n&|"
'

test_expect_success TREE,SPATCH 'no spatch: cocci is skipped with the reason, exit 0, nothing cached' '
	bin=$(without spatch) && echo "bin=$bin" &&
	test ! -e "$bin/spatch" && test -e "$bin/git" &&
	cd store &&
	PATH=$bin kseries check good --stage cocci >out &&
	cat out &&
	grep "good  *v1  cocci  *skip .*spatch" out &&
	! grep "failed on the base" out &&
	test ! -e "$KSERIES_CACHE/results/good/v1/cocci.json" &&
	PATH=$bin kseries check good --stage cocci --json >json &&
	python3 -c "
import json
s = [x for x in json.load(open(\"json\"))[0][\"stages\"] if x[\"stage\"] == \"cocci\"][0]
assert s[\"status\"] == \"skip\" and s[\"missing\"] == \"spatch\" and not s[\"cached\"], s
"
'

test_expect_success TREE,SPATCH 'spatch back: cocci runs, not the answer of before' '
	cd store &&
	kseries check good --stage cocci >out &&
	cat out &&
	grep "good  *v1  cocci  *pass " out &&
	! grep "(cached)" out &&
	kseries check good --stage cocci >again &&
	grep "good  *v1  cocci  *pass .*(cached)" again
'

test_expect_success TREE,SPATCH 'no python3: cocci is skipped, never cached' '
	rm -rf "$KSERIES_CACHE/results" &&
	bin=$(without python3) &&
	cd store &&
	PATH=$bin kseries check good --stage cocci >out &&
	grep "good  *v1  cocci  *skip .*python3" out &&
	test ! -e "$KSERIES_CACHE/results/good/v1/cocci.json" &&
	kseries check good --stage cocci >back &&
	grep "good  *v1  cocci  *pass " back && ! grep "(cached)" back
'

test_expect_success TREE 'no perl: checkpatch is skipped, never cached' '
	bin=$(without perl) &&
	cd store &&
	PATH=$bin kseries check good --stage checkpatch >out &&
	grep "good  *v1  checkpatch skip .*perl" out &&
	test ! -e "$KSERIES_CACHE/results/good/v1/checkpatch.json" &&
	kseries check good --stage checkpatch >back &&
	grep "good  *v1  checkpatch pass " back && ! grep "(cached)" back
'

test_done
