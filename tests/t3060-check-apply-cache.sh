#!/usr/bin/env bash
test_description='check: the applied version comes from a cache keyed by its content'
. "$(dirname "$0")/lib.sh"

# A small base tree made the same way every time (fixed identity and
# dates: the same base commit id when it is made afresh), a two-patch
# series, and a git in PATH that logs every run before it execs the
# real one.
mktree() {
	rm -rf "$TRASH/tree" &&
	mkdir -p "$TRASH/tree/drivers/android" &&
	printf 'int binder_alloc_x;\n' >"$TRASH/tree/drivers/android/binder_alloc.c" &&
	git -C "$TRASH/tree" init -q -b master &&
	git -C "$TRASH/tree" add . &&
	GIT_AUTHOR_DATE="2026-01-01T00:00:00Z" GIT_COMMITTER_DATE="2026-01-01T00:00:00Z" \
		git -C "$TRASH/tree" -c user.name=T -c user.email=t@example.org \
		commit -q -m base &&
	git -C "$TRASH/tree" tag v7.2.13
}

patch_mail() {	# patch_mail FILE N OLD NEW
	cat >"$1" <<-EOS
	From 0000000000000000000000000000000000000000 Mon Sep 17 00:00:00 2001
	From: A U Thor <author@example.org>
	Date: Mon, 30 Nov 2026 10:00:00 +0000
	Subject: [PATCH $2/2] binder: change $2

	Change number $2.

	Signed-off-by: A U Thor <author@example.org>
	---
	diff --git a/drivers/android/binder_alloc.c b/drivers/android/binder_alloc.c
	--- a/drivers/android/binder_alloc.c
	+++ b/drivers/android/binder_alloc.c
	@@ -1 +1 @@
	-$3
	+$4
	--
	2.39.5
	EOS
}

real_git=$(command -v git)
export KSERIES_TREE=$TRASH/tree KSERIES_CACHE=$TRASH/cache
export PATH=$TRASH/bin:$PATH
check() { (cd "$TRASH/store" && kseries check s --stage apply --stage format "$@"); }
gits() { if test -e "$TRASH/git.log"; then wc -l <"$TRASH/git.log"; else echo 0; fi; }

test_expect_success 'setup' '
	mktree &&
	mkdir -p bin &&
	printf "#!/bin/sh\necho \"\$*\" >>\"$TRASH/git.log\"\nexec \"$real_git\" \"\$@\"\n" >bin/git &&
	chmod +x bin/git &&
	test_series s &&
	patch_mail store/series/s/v1/0001-one.patch 1 "int binder_alloc_x;" "int binder_alloc_y;" &&
	patch_mail store/series/s/v1/0002-two.patch 2 "int binder_alloc_y;" "int binder_alloc_z;"
'

# What apply runs (kseries reads the user's git config through git config
# too, which is no apply work).
apply_gits() {
	grep -E "^(rev-parse|read-tree|mailinfo|apply|write-tree|stripspace|commit-tree|diff) " "$@"
}

test_expect_success 'the first check applies; the second runs no apply git' '
	check >out &&
	grep "s  *v1  apply  *pass   0  2 patches on v7.2.13" out &&
	grep -c "^mailinfo" git.log >n && echo 2 >two && test_cmp two n &&
	rm git.log &&
	check --json >json &&
	! apply_gits git.log &&
	python3 -c "
import json
v = json.load(open(\"json\"))[0]
a = [s for s in v[\"stages\"] if s[\"stage\"] == \"apply\"][0]
assert a[\"cached\"] and a[\"status\"] == \"pass\", a
assert len(v[\"tip\"]) == 40 and v[\"tip\"] != v[\"base\"], v
" &&
	check >out2 &&
	grep "s  *v1  apply  *pass   0  (cached) 2 patches" out2
'

test_expect_success 'the same commits either way: the tip and the stage keys agree' '
	check --json --no-cache >nocache &&
	grep -q "^mailinfo" git.log &&
	check --json >cached &&
	python3 -c "
import json
a = json.load(open(\"nocache\"))[0]; b = json.load(open(\"cached\"))[0]
assert (a[\"base\"], a[\"tip\"]) == (b[\"base\"], b[\"tip\"]), (a, b)
"
'

# Each change below must apply again (mailinfo runs) and give the
# commits a fresh apply gives.
applies_again() {
	rm -f "$TRASH/git.log" &&
	check >"$TRASH/out" &&
	grep -q "^mailinfo" "$TRASH/git.log" &&
	! grep "apply .*(cached)" "$TRASH/out"
}

test_expect_success 'ci --gitlab applies a version once for all its stage keys' '
	rm -rf cache git.log &&
	(cd store && kseries ci --gitlab s >../ci.yml) &&
	grep -c "^mailinfo" git.log >n && echo 2 >two && test_cmp two n &&
	grep -c "key: " ci.yml >keys && test "$(cat keys)" -gt 5 &&
	# and from the apply cache the next time
	rm git.log && (cd store && kseries ci --gitlab s >../ci2.yml) &&
	! apply_gits git.log && test_cmp ci.yml ci2.yml
'

test_expect_success 'a patch changed: applied again' '
	sed -i "s/^Change number 2\\./Change number two./" store/series/s/v1/0002-two.patch &&
	applies_again && check >again && grep "apply .*(cached)" again
'

test_expect_success 'a patch renamed or reordered: applied again' '
	mv store/series/s/v1/0002-two.patch store/series/s/v1/0002-deux.patch &&
	applies_again
'

test_expect_success 'the base tag moved: applied again, onto the new base' '
	git -C tree -c user.name=T -c user.email=t@example.org \
		commit -q --allow-empty -m "another base" &&
	git -C tree tag -f v7.2.13 >/dev/null &&
	applies_again &&
	check --json >json &&
	python3 -c "
import json, subprocess
v = json.load(open(\"json\"))[0]
want = subprocess.check_output([\"git\", \"-C\", \"tree\", \"rev-parse\", \"v7.2.13\"]).decode().strip()
assert v[\"base\"] == want, (v[\"base\"], want)
"
'

test_expect_success 'the series names another base: applied again' '
	git -C tree tag other v7.2.13~1 &&
	git config -f store/series/s/series.conf series.base other &&
	applies_again &&
	git config -f store/series/s/series.conf series.base v7.2.13
'

test_expect_success 'the tree made afresh (same base, commits gone): applied again' '
	check >/dev/null &&
	mktree &&
	applies_again
'

test_expect_success 'the tree'"'"'s own git config changed: applied again' '
	check >/dev/null &&
	git -C tree config i18n.commitEncoding ISO-8859-1 &&
	applies_again
'

test_expect_success 'another git program: applied again' '
	check >/dev/null &&
	cp bin/git bin/git.new && mv bin/git.new bin/git &&
	applies_again
'

test_expect_success 'a damaged cache entry is not used' '
	check >/dev/null &&
	for f in cache/results/apply/*; do printf "{\"base\": 1}" >"$f"; done &&
	applies_again &&
	for f in cache/results/apply/*; do
		grep -q commits "$f" || continue
		python3 -c "
import json, sys
j = json.load(open(sys.argv[1]))
j[\"commits\"] = [\"not-a-commit\"] * len(j[\"commits\"])
json.dump(j, open(sys.argv[1], \"w\"))
" "$f"
	done &&
	applies_again
'

test_expect_success 'a patch that does not apply is not kept: it fails each time' '
	check >/dev/null &&
	sed -i "s/^-int binder_alloc_y;/-int no_such_line;/" store/series/s/v1/0002-deux.patch &&
	test_expect_code 1 check >out &&
	grep "apply  *fail .*patch 2 of 2 does not apply" out &&
	rm -f git.log &&
	test_expect_code 1 check >out &&
	grep -q "^mailinfo" git.log &&
	! grep "(cached)" out
'

test_done
