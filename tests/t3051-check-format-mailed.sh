#!/usr/bin/env bash
test_description='check: the format stage looks at the mails as format sends them'
. "$(dirname "$0")/lib.sh"

SKIP_REASON=${SKIP_REASON_TREE:-}

# mkpatch OUT SEP: a patch mail of ours (no sign-off stored) editing
# binder_alloc.c of v7.2.13, with a "---" line between its message and
# its diff when SEP is "yes"
mkpatch() {
	out=$1 sep=$2
	git -C "$KSERIES_TREE" show v7.2.13:drivers/android/binder_alloc.c >old.c
	sed "s|^static struct page \*binder_page_lookup|/* Looks up the page installed at addr. */\n&|" \
		old.c >new.c
	{
		echo "From 0000000000000000000000000000000000000000 Mon Sep 17 00:00:00 2001"
		echo "From: A U Thor <author@example.org>"
		echo "Date: Mon, 30 Nov 2026 10:00:00 +0000"
		echo "Subject: [PATCH] binder: explain the lookup"
		echo
		echo "A change to binder_alloc.c for the check tests."
		echo
		[ "$sep" = yes ] && echo "---"
		diff -u --label a/drivers/android/binder_alloc.c \
			--label b/drivers/android/binder_alloc.c old.c new.c
		echo "-- "
		echo "2.39.5"
	} >"$out" || test $? = 1
}

mkseries() {
	mkdir -p "store/series/$1/v1" &&
	printf '[series]\n\ttitle = t\n\tbase = v7.2.13\n\tprefix = PATCH\n' \
		>"store/series/$1/series.conf" &&
	git config -f "store/series/$1/series.conf" version.1.origin ours
}

test_expect_success TREE 'a patch format signs off above its diff passes' '
	mkseries sep &&
	mkpatch store/series/sep/v1/0001-x.patch yes &&
	cd store &&
	kseries check sep --stage apply --stage format >out &&
	grep "sep  *v1  apply  *pass" out &&
	grep "sep  *v1  format  *pass" out
'

test_expect_success TREE 'one with no "---" above its diff would be signed off below it: format fails' '
	mkseries nosep &&
	mkpatch store/series/nosep/v1/0001-x.patch no &&
	cd store &&
	test_expect_code 1 kseries check nosep --stage apply --stage format >out &&
	grep "nosep  *v1  apply  *pass" out &&
	grep "nosep  *v1  format  *fail" out &&
	grep "Signed-off-by would go below the diff" out
'

# mkv2 NAME NOTES: a v2 of ours whose patch carries NOTES below its "---"
mkv2() {
	mkseries "$1" &&
	git config -f "store/series/$1/series.conf" version.2.origin ours &&
	mkdir -p "store/series/$1/v2" &&
	mkpatch "store/series/$1/v2/0001-x.patch" yes &&
	sed -i -e "s/\[PATCH\]/[PATCH v2]/" \
		-e "s|^---\$|---\n$2|" "store/series/$1/v2/0001-x.patch"
}

test_expect_success TREE 'a v2 whose changelog is only the link to v1 fails format and mail alike' '
	mkv2 linkonly "Changes in v2:\n- Link to v1: https://lore.kernel.org/r/a@x\n" &&
	cd store &&
	test_expect_code 1 kseries check linkonly@v2 --stage apply --stage format >out &&
	grep "linkonly  *v2  format  *fail" out &&
	grep "v2+ without a changelog" out
'

test_expect_success TREE 'a v2 with an entry under its header passes the format stage' '
	mkv2 entry "Changes in v2:\n- explain the lookup\n- Link to v1: https://lore.kernel.org/r/a@x\n" &&
	cd store &&
	kseries check entry@v2 --stage apply --stage format >out &&
	grep "entry  *v2  format  *pass" out
'

test_done
