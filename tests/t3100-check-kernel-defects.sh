#!/usr/bin/env bash
test_description='check: seeded defects fail the kernel stages (sparse, build midway, KUnit build midway, rustfmt)'
. "$(dirname "$0")/lib.sh"

# These run real kernel builds through kernel/kbuild in the workbench
# cache (base tree, sid chroot, build directories): make test and make
# check-kernel run them.
# The series live in a store private to the test; their results go to
# the cache under t3100-* names and are removed again.
SKIP_REASON=${SKIP_REASON_TREE:-"kernel builds: make test or make check-kernel"}
export KSERIES_CACHE=$REAL_CACHE
unset KSERIES_CHECK_WORKTREE
if test_have_prereq TREE,WORKBENCH; then
	rm -rf "$KSERIES_CACHE"/results/t3100-*
	trap 'rm -rf "$KSERIES_CACHE"/results/t3100-* "$TRASH"' EXIT
fi

# base PATH: the file at v7.2.13
base() { git -C "$KSERIES_TREE" show "v7.2.13:$1"; }

# the kernel check tests' patch mails (test_patch_mail)
MAIL=(-a "A U Thor <author@example.invalid>" -d "Tue, 1 Dec 2026 10:00:00 +0000"
      -b "A change for the kernel check tests.")

finding() { # JSON FILE: the stage's findings as "patch file:line: message"
	python3 -c '
import json, sys
for v in json.load(open(sys.argv[1])):
    for s in v["stages"]:
        for f in s["findings"]:
            print("%d %s:%d: %s" % (f["patch"], f["file"], f["line"], f["message"]))
' "$1"
}

# fails_at_2 SERIES CONFIG FILE: SERIES (three patches, 2/3 calls the
# undeclared kseries_t3100_undefined() in FILE) fails the build stage at
# 2/3 alone, with the compiler's error, after building CONFIG 3 times
fails_at_2() {
	test_expect_code 1 kseries check "$1" --stage build --json >json &&
	finding json >f &&
	cat f &&
	grep "^2 $3:[0-9]*: .*kseries_t3100_undefined" f &&
	grep "^2 0002-b.patch:0: $2: the build fails after this patch" f &&
	! grep -v "^2 " f &&
	grep -c "^== $2 " "$KSERIES_CACHE/results/$1/v1/build.log" >n &&
	echo 3 >want && test_cmp want n
}

test_expect_success TREE,WORKBENCH 'a new sparse warning fails the sparse stage, the old ones do not count' '
	test_series t3100-sparse &&
	base drivers/android/binder_alloc.c >old.c &&
	sed "s|^static struct page \*binder_page_lookup|int kseries_t3100_probe;\n\n&|" old.c >new.c &&
	! cmp -s old.c new.c &&
	test_patch_mail "${MAIL[@]}" store/series/t3100-sparse/v1/0001-binder-probe.patch \
		"[PATCH] binder: add a probe" drivers/android/binder_alloc.c old.c new.c &&
	cd store &&
	test_expect_code 1 kseries check t3100-sparse --stage sparse --json >json &&
	finding json >f &&
	cat f &&
	grep "drivers/android/binder_alloc.c:[0-9]*: symbol .kseries_t3100_probe. was not declared. Should it be static?" f &&
	test_line_count = 1 f
'

test_expect_success TREE,WORKBENCH 'a patch that breaks the build midway fails the build stage at that patch' '
	test_series t3100-build &&
	base drivers/android/binder_alloc.c >f0.c &&
	sed "s|^static struct page \*binder_page_lookup|/* Looks up the page installed at addr. */\n&|" f0.c >f1.c &&
	sed "/^int binder_alloc_get_allocated_count(/,/^}/ s|^\tint count = 0;|&\n\n\tkseries_t3100_undefined();|" f1.c >f2.c &&
	! cmp -s f1.c f2.c &&
	sed "/kseries_t3100_undefined/d" f2.c >f3.c &&
	test_patch_mail "${MAIL[@]}" store/series/t3100-build/v1/0001-a.patch "[PATCH 1/3] binder: a" drivers/android/binder_alloc.c f0.c f1.c &&
	test_patch_mail "${MAIL[@]}" store/series/t3100-build/v1/0002-b.patch "[PATCH 2/3] binder: b" drivers/android/binder_alloc.c f1.c f2.c &&
	test_patch_mail "${MAIL[@]}" store/series/t3100-build/v1/0003-c.patch "[PATCH 3/3] binder: c" drivers/android/binder_alloc.c f2.c f3.c &&
	cd store &&
	fails_at_2 t3100-build c-binder drivers/android/binder_alloc.c
'

test_expect_success TREE,WORKBENCH 'a KUnit test that stops building midway fails the build stage at that patch' '
	# the tests/ sources build only in the KUnit kernel: 1/3 makes the
	# suite build at all (binder-alloc-spinlock v2 1/5), 2/3 breaks the
	# test, 3/3 mends it
	test_series t3100-kunit &&
	cp "$SRC_DIR"/series/binder-alloc-spinlock/v2/0001-*.patch \
		store/series/t3100-kunit/v1/0001-a.patch &&
	base drivers/android/tests/binder_alloc_kunit.c >k1.c &&
	sed "/^static void binder_alloc_test_init_freelist(/,/^}/ s|^\tstruct binder_alloc_test \*priv = test->priv;|&\n\n\tkseries_t3100_undefined();|" k1.c >k2.c &&
	! cmp -s k1.c k2.c &&
	cp k1.c k3.c &&
	test_patch_mail "${MAIL[@]}" store/series/t3100-kunit/v1/0002-b.patch "[PATCH 2/3] binder: b" drivers/android/tests/binder_alloc_kunit.c k1.c k2.c &&
	test_patch_mail "${MAIL[@]}" store/series/t3100-kunit/v1/0003-c.patch "[PATCH 3/3] binder: c" drivers/android/tests/binder_alloc_kunit.c k2.c k3.c &&
	cd store &&
	fails_at_2 t3100-kunit kunit-binder drivers/android/tests/binder_alloc_kunit.c
'

test_expect_success TREE,WORKBENCH 'a Rust change rustfmt would rewrite fails the rust stage' '
	test_series t3100-rustfmt &&
	base drivers/android/binder/error.rs >old.rs &&
	sed "s|^        self.reply == BR_DEAD_REPLY\$|        self.reply  ==  BR_DEAD_REPLY|" old.rs >new.rs &&
	! cmp -s old.rs new.rs &&
	test_patch_mail "${MAIL[@]}" store/series/t3100-rustfmt/v1/0001-rust-binder-spacing.patch \
		"[PATCH] rust_binder: spacing" drivers/android/binder/error.rs old.rs new.rs &&
	cd store &&
	test_expect_code 1 kseries check t3100-rustfmt --stage rust --json >json &&
	finding json >f &&
	cat f &&
	grep "drivers/android/binder/error.rs:[0-9]*: not formatted as rustfmt would" f &&
	test_line_count = 1 f
'

test_done
