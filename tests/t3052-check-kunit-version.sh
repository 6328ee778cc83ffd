#!/usr/bin/env bash
test_description='check: the kunit stage takes a version'"'"'s kunitconfig and architecture'
. "$(dirname "$0")/lib.sh"

# A small base tree, a fake kernel/kunit-run that says what it was asked
# and passes, and a fake QEMU: no kernel is built here.
setup() {
	mkdir -p kernel bin &&
	test_small_tree &&
	printf 'CONFIG_KUNIT=y\n' >kernel/kunit-binder.kunitconfig &&
	cat >kernel/kunit-run <<-\EOS &&
	#!/bin/sh
	printf "%s\n" "$*" >>"$TRASH/kunit-run.args"
	echo "run 1: pass  log: /dev/null"
	EOS
	printf '#!/bin/sh\nexit 0\n' >bin/qemu-system-x86_64 &&
	chmod +x kernel/kunit-run bin/qemu-system-x86_64 &&
	mkdir -p store/series/ks/v1 store/series/ks/kunit &&
	printf '[series]\n\ttitle = t\n\tbase = v7.2.13\n\tprefix = PATCH\n' \
		>store/series/ks/series.conf &&
	printf 'CONFIG_KUNIT=y\nCONFIG_ANDROID_BINDER_ALLOC_KUNIT_TEST=y\n' \
		>store/series/ks/kunit/alloc.kunitconfig &&
	cat >store/series/ks/v1/0001-x.patch <<-\EOS
	From 0000000000000000000000000000000000000000 Mon Sep 17 00:00:00 2001
	From: A U Thor <author@example.org>
	Date: Mon, 30 Nov 2026 10:00:00 +0000
	Subject: [PATCH] binder: x

	A change.
	---
	diff --git a/drivers/android/binder_alloc.c b/drivers/android/binder_alloc.c
	--- a/drivers/android/binder_alloc.c
	+++ b/drivers/android/binder_alloc.c
	@@ -1 +1,2 @@
	 int binder_alloc_x;
	+int binder_alloc_y;
	--
	2.39.5
	EOS
}

export KSERIES_TREE=$TRASH/tree KSERIES_CACHE=$TRASH/cache
export KSERIES_KERNEL_DIR=$TRASH/kernel PATH=$TRASH/bin:$PATH
q="'"
conf() { git config -f "$TRASH/store/series/ks/series.conf" "$@"; }
check() { (cd "$TRASH/store" && kseries check ks --stage kunit "$@"); }

test_expect_success 'without the keys: kernel/ config, UML, the build directory it had' '
	setup &&
	check >out &&
	grep "ks  *v1  kunit  *pass .*kunit-binder.kunitconfig: 1 of 1 runs clean (UML" out &&
	echo "--runs 1 $KSERIES_KERNEL_DIR/kunit-binder.kunitconfig $KSERIES_CACHE/wt/kseries-check" >expect &&
	test_cmp expect kunit-run.args
'

test_expect_success 'the version'"'"'s kunitconfig and x86_64: its own build directory' '
	rm -f kunit-run.args &&
	conf version.1.kunitconfig kunit/alloc.kunitconfig &&
	conf version.1.kunit-arch x86_64 &&
	check >out &&
	grep "kunit  *pass .*kunit/alloc.kunitconfig: 1 of 1 runs clean (x86_64 under QEMU" out &&
	echo "--runs 1 --arch x86_64 --name kunit-ks-alloc-x86_64 $TRASH/store/series/ks/kunit/alloc.kunitconfig $KSERIES_CACHE/wt/kseries-check" >expect &&
	test_cmp expect kunit-run.args
'

test_expect_success 'cached until the kunitconfig changes' '
	rm -f kunit-run.args &&
	check >out &&
	grep "kunit  *pass .*(cached)" out &&
	! test -e kunit-run.args &&
	echo "CONFIG_PROVE_LOCKING=y" >>store/series/ks/kunit/alloc.kunitconfig &&
	check >out &&
	! grep "(cached)" out &&
	test -s kunit-run.args
'

test_expect_success 'UML with the version'"'"'s kunitconfig' '
	rm -f kunit-run.args &&
	conf --unset version.1.kunit-arch &&
	check >out &&
	echo "--runs 1 --name kunit-ks-alloc $TRASH/store/series/ks/kunit/alloc.kunitconfig $KSERIES_CACHE/wt/kseries-check" >expect &&
	test_cmp expect kunit-run.args
'

# refused BAD: the kunit stage fails saying why, and runs nothing
refused() {
	rm -f kunit-run.args &&
	conf version.1.kunitconfig "$1" &&
	test_expect_code 1 check >out &&
	grep "ks  *v1  kunit  *fail" out &&
	grep -F "version.1.kunitconfig $q$1$q is not a regular file inside the series directory" out &&
	! test -e kunit-run.args
}

test_expect_success 'a kunitconfig outside the series directory is refused' '
	refused ../ks/kunit/alloc.kunitconfig &&
	refused /etc/passwd &&
	refused kunit/../kunit/alloc.kunitconfig
'

test_expect_success 'a directory, a missing file or a symbolic link is refused' '
	refused kunit &&
	refused kunit/none.kunitconfig &&
	ln -s /etc/passwd store/series/ks/kunit/link.kunitconfig &&
	refused kunit/link.kunitconfig &&
	ln -s ../.. store/series/ks/up &&
	refused up/ks/kunit/alloc.kunitconfig
'

test_expect_success 'an architecture kunit.py does not run here is refused' '
	rm -f kunit-run.args &&
	conf version.1.kunitconfig kunit/alloc.kunitconfig &&
	conf version.1.kunit-arch arm64 &&
	test_expect_code 1 check >out &&
	grep "kunit  *fail" out &&
	grep -F "version.1.kunit-arch ${q}arm64$q is not one of um, x86_64" out &&
	! test -e kunit-run.args
'

test_done
