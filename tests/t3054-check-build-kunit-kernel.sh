#!/usr/bin/env bash
test_description='check: the build stage builds the KUnit kernel the kunit stage runs'
. "$(dirname "$0")/lib.sh"

# A series that touches drivers/android/tests/ (a path only a KUnit kernel
# compiles) makes the build stage build a KUnit kernel at every patch.
# When the version names its own KUnit kernel (version.N.kunitconfig,
# version.N.kunit-arch) and that kunitconfig sets every option the
# kernel/ one does, the build stage builds that one, in the build dir the
# kunit stage then runs it from, instead of a second kernel of its own.
# Fake kernel/kbuild and kernel/kunit-run say what they were asked: no
# kernel is built here.
setup() {
	mkdir -p kernel bin &&
	test_small_tree &&
	printf 'CONFIG_KUNIT=y\nCONFIG_NET=y\n' >kernel/kunit-binder.kunitconfig &&
	cat >kernel/kbuild <<-\EOS &&
	#!/bin/sh
	printf "%s\n" "$*" >>"$TRASH/kbuild.args"
	[ "$1" = --log ] && : >"$2"
	exit 0
	EOS
	cat >kernel/kunit-run <<-\EOS &&
	#!/bin/sh
	printf "%s\n" "$*" >>"$TRASH/kunit-run.args"
	echo "run 1: pass  log: /dev/null"
	EOS
	printf '#!/bin/sh\nexit 0\n' >bin/qemu-system-x86_64 &&
	chmod +x kernel/kbuild kernel/kunit-run bin/qemu-system-x86_64 &&
	mkdir -p store/series/ks/v1 store/series/ks/kunit &&
	printf '[series]\n\ttitle = t\n\tbase = v7.2.13\n\tprefix = PATCH\n' \
		>store/series/ks/series.conf &&
	printf '# x86_64\nCONFIG_KUNIT=y\nCONFIG_NET=y\nCONFIG_SMP=y\n' \
		>store/series/ks/kunit/alloc.kunitconfig &&
	for n in 1 2; do
		cat >store/series/ks/v1/000$n-t$n.patch <<-EOS || return 1
		From 0000000000000000000000000000000000000000 Mon Sep 17 00:00:00 2001
		From: A U Thor <author@example.org>
		Date: Mon, 30 Nov 2026 10:00:00 +0000
		Subject: [PATCH $n/2] binder: test $n

		A test.
		---
		diff --git a/drivers/android/tests/t$n.c b/drivers/android/tests/t$n.c
		new file mode 100644
		--- /dev/null
		+++ b/drivers/android/tests/t$n.c
		@@ -0,0 +1 @@
		+int binder_test_$n;
		--
		2.39.5
		EOS
	done
}

export KSERIES_TREE=$TRASH/tree KSERIES_CACHE=$TRASH/cache
export KSERIES_KERNEL_DIR=$TRASH/kernel PATH=$TRASH/bin:$PATH
conf() { git config -f "$TRASH/store/series/ks/series.conf" "$@"; }
check() { (cd "$TRASH/store" && kseries check ks --stage build "$@"); }
WT=$KSERIES_CACHE/wt/kseries-check

test_expect_success 'without the keys: kernel/kunit-binder at every patch' '
	setup &&
	check >out &&
	grep "ks  *v1  build  *pass .*4 builds (c-binder, kunit-binder; every patch)" out &&
	printf "%s\n" "--build-only $KSERIES_KERNEL_DIR/kunit-binder.kunitconfig $WT" \
		"--build-only $KSERIES_KERNEL_DIR/kunit-binder.kunitconfig $WT" >expect &&
	test_cmp expect kunit-run.args
'

test_expect_success 'the version'"'"'s own KUnit kernel instead, where the kunit stage runs it' '
	rm -f kunit-run.args &&
	conf version.1.kunitconfig kunit/alloc.kunitconfig &&
	conf version.1.kunit-arch x86_64 &&
	check >out &&
	grep "ks  *v1  build  *pass .*4 builds (c-binder, kunit/alloc.kunitconfig; every patch)" out &&
	own="--build-only --arch x86_64 --name kunit-ks-alloc-x86_64 $TRASH/store/series/ks/kunit/alloc.kunitconfig $WT" &&
	printf "%s\n" "$own" "$own" >expect &&
	test_cmp expect kunit-run.args &&
	rm -f kunit-run.args &&
	(cd store && kseries check ks --stage kunit) >out &&
	grep -e "--runs 1 --arch x86_64 --name kunit-ks-alloc-x86_64 " kunit-run.args
'

test_expect_success 'the build stage is checked again when the version'"'"'s kernel changes' '
	rm -f kunit-run.args &&
	check >out &&
	grep "build  *pass .*(cached)" out &&
	! test -e kunit-run.args &&
	conf version.1.kunit-arch um &&
	check >out &&
	! grep "(cached)" out &&
	grep -e "--build-only --name kunit-ks-alloc $TRASH" kunit-run.args
'

test_expect_success 'a kunitconfig without an option of kernel/'"'"'s: kernel/kunit-binder' '
	rm -f kunit-run.args &&
	printf "CONFIG_KUNIT=y\n" >store/series/ks/kunit/alloc.kunitconfig &&
	check >out &&
	grep "build  *pass .*4 builds (c-binder, kunit-binder; every patch)" out &&
	grep -c -x -e "--build-only $KSERIES_KERNEL_DIR/kunit-binder.kunitconfig $WT" kunit-run.args >n &&
	echo 2 >expect && test_cmp expect n
'

test_expect_success 'a version setting the kunit stage refuses: kernel/kunit-binder' '
	rm -f kunit-run.args &&
	conf version.1.kunitconfig ../elsewhere.kunitconfig &&
	check >out &&
	grep "build  *pass .*4 builds (c-binder, kunit-binder; every patch)" out &&
	! grep -e "--name" kunit-run.args
'

test_done
