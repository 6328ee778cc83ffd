#!/usr/bin/env bash
test_description='check on a fresh machine: the base tree provisioned by the same check is used'
. "$(dirname "$0")/lib.sh"

# A kernel/ whose provision-base makes a small repository with a v7.2.13
# tag in $KSERIES_CACHE/linux (the real one unpacks Debian's source).
# No base tree is known beforehand: no KSERIES_TREE, an empty cache.
unset KSERIES_TREE
export KSERIES_CACHE=$TRASH/cache
export KSERIES_KERNEL_DIR=$TRASH/kernel

test_expect_success 'setup: a kernel/ that provisions a small tree, a one-patch series' '
	mkdir -p kernel &&
	cat >kernel/provision-base <<-\EOS &&
	#!/bin/sh
	set -e
	L=$KSERIES_CACHE/linux
	test -d "$L/.git" && exit 0
	mkdir -p "$L.tmp"
	cd "$L.tmp"
	git init -q -b master
	printf "one\ntwo\nthree\n" >file.c
	git add file.c
	git -c user.name=k -c user.email=k@localhost commit -q -m base
	git tag v7.2.13
	cd ..
	mv "$L.tmp" "$L"
	echo "$L"
	EOS
	chmod +x kernel/provision-base &&
	mkdir -p store/series/s/v1 &&
	printf "[series]\n\ttitle = t\n\tbase = v7.2.13\n\tprefix = PATCH\n" \
		>store/series/s/series.conf &&
	cat >store/series/s/v1/0001-file-two.patch <<-\EOP
	From 0000000000000000000000000000000000000000 Mon Sep 17 00:00:00 2001
	From: A U Thor <author@example.invalid>
	Date: Mon, 30 Nov 2026 10:00:00 +0000
	Subject: [PATCH] file: say two twice

	Signed-off-by: A U Thor <author@example.invalid>
	---
	diff --git a/file.c b/file.c
	--- a/file.c
	+++ b/file.c
	@@ -1,3 +1,3 @@
	 one
	-two
	+two two
	 three
	-- 
	2.39.5
	EOP
'

test_expect_success 'the first check provisions the tree and applies onto it' '
	test ! -e "$KSERIES_CACHE/linux" &&
	(cd store && kseries check s --stage apply >../out 2>../err) &&
	grep "provisioning the base tree" err &&
	test -d "$KSERIES_CACHE/linux/.git" &&
	grep "s  *v1  apply  *pass" out
'

test_expect_success 'a second check agrees' '
	(cd store && kseries check s --stage apply >../out2) &&
	grep "s  *v1  apply  *pass" out2
'

test_done
