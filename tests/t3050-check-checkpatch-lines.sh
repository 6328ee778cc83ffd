#!/usr/bin/env bash
test_description='check: checkpatch findings name lines of the stored patch file'
. "$(dirname "$0")/lib.sh"

SKIP_REASON=${SKIP_REASON_TREE:-}

# mkpatch OUT FROM SOB: a patch mail adding a line with trailing white
# space to binder_alloc.c of v7.2.13; with a From: when FROM is "yes",
# signed off when SOB is "yes". checkpatch reads it as format mails it:
# the sender's From: when there is none, the sender's sign-off.
mkpatch() {
	out=$1 from=$2 sob=$3
	git -C "$KSERIES_TREE" show v7.2.13:drivers/android/binder_alloc.c >old.c
	sed "s|^static struct page \*binder_page_lookup|int  trailing_space_here = 0;  \n&|" \
		old.c >new.c
	{
		echo "From 0000000000000000000000000000000000000000 Mon Sep 17 00:00:00 2001"
		[ "$from" = yes ] && echo "From: A U Thor <author@example.org>"
		echo "Date: Mon, 30 Nov 2026 10:00:00 +0000"
		echo "Subject: [PATCH] binder: x"
		echo
		echo "A change to binder_alloc.c for the check tests."
		echo
		[ "$sob" = yes ] && echo "Signed-off-by: A U Thor <author@example.org>"
		echo "---"
		diff -u --label a/drivers/android/binder_alloc.c \
			--label b/drivers/android/binder_alloc.c old.c new.c
		echo "-- "
		echo "2.39.5"
	} >"$out" || test $? = 1
}

# lines NAME FROM SOB: the stored line of the added line, and the line
# the checkpatch stage's trailing-white-space finding names
lines() {
	mkdir -p "store/series/$1/v1" &&
	printf '[series]\n\ttitle = t\n\tbase = v7.2.13\n\tprefix = PATCH\n' \
		>"store/series/$1/series.conf" &&
	mkpatch "store/series/$1/v1/0001-x.patch" "$2" "$3" &&
	grep -n "^+int  trailing_space_here" "store/series/$1/v1/0001-x.patch" |
		cut -d: -f1 >"$1.expect" &&
	(cd store && kseries check "$1" --stage checkpatch --json >"../$1.json" ||
		test $? = 1) &&
	jq -r ".[0].stages[] | select(.stage == \"checkpatch\") | .findings[] |
		select(.message | test(\"TRAILING_WHITESPACE\")) | .line" \
		"$1.json" >"$1.actual" &&
	test_cmp "$1.expect" "$1.actual"
}

test_expect_success TREE 'a finding names its line in the stored file (From:, signed off)' '
	lines signed yes yes
'

test_expect_success TREE 'the same when format adds the sign-off and a blank line' '
	lines unsigned yes no
'

test_expect_success TREE 'the same when format adds the From: too' '
	lines nofrom no no
'

test_done
