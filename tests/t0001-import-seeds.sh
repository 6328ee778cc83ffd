#!/usr/bin/env bash
test_description='import the seed threads, list, show, re-import'
. "$(dirname "$0")/lib.sh"

import_all() {
	kseries import binder-alloc-spinlock "$FIXTURES/seed-000-binder-alloc-spinlock-v1.mbox" &&
	kseries import binder-defer-complete "$FIXTURES/seed-001-binder-defer-complete-v2.mbox" &&
	kseries import rtmutex-wake-check "$FIXTURES/seed-003-rtmutex-wake-check-v1.mbox" &&
	kseries import binder-large-handles "$FIXTURES/seed-004-binder-large-handles-v1.mbox"
}

test_expect_success 'import the four seed threads' '
	mkdir -p store/series && cd store &&
	import_all >out &&
	grep "binder-alloc-spinlock v1: cover, 1 patch, 2 new replies" out &&
	grep "binder-defer-complete v2: 1 patch, 2 new replies" out &&
	test -f series/binder-alloc-spinlock/v1/0000-cover-letter.patch &&
	test -f series/binder-alloc-spinlock/v1/0001-binder-switch-alloc-mutex-back-to-spinlock.patch &&
	test -f series/binder-defer-complete/v2/0001-rust_binder-add-TF_DEFER_COMPLETE-flag-for-avoiding.patch
'

test_expect_success 'list shows the four series and their versions' '
	cd store &&
	kseries list >out &&
	test_line_count = 4 out &&
	grep "^binder-alloc-spinlock  *v1  *posted" out &&
	grep "^binder-defer-complete  *v2  *posted" out &&
	grep "^binder-large-handles  *v1  *replies-only" out &&
	grep "^rtmutex-wake-check  *v1  *replies-only" out
'

test_expect_success 'posted versions keep author, date and wording' '
	cd store/series/binder-alloc-spinlock &&
	test "$(git config -f series.conf version.1.author)" = "Bo Zhang <zhangbo56@xiaomi.com>" &&
	test "$(git config -f series.conf version.1.date)" = "Wed, 05 Aug 2026 23:27:51 +0800" &&
	test "$(git config -f series.conf series.prefix)" = "RFC PATCH" &&
	grep "^From: Bo Zhang <zhangbo56@xiaomi.com>" v1/0001-*.patch &&
	grep "^Signed-off-by: Bo Zhang <zhangbo56@xiaomi.com>" v1/0001-*.patch &&
	grep -F "+	guard(spinlock)(&alloc->lock);" v1/0001-*.patch &&
	grep -c "^From " v1/thread.mbox >n && test "$(cat n)" = 2
'

test_expect_success 'v1 of TF_DEFER_COMPLETE is recorded as linked only' '
	cd store/series/binder-defer-complete &&
	test "$(git config -f series.conf version.1.origin)" = linked &&
	test "$(git config -f series.conf version.1.link)" = \
		https://lore.kernel.org/r/20260716-defer-complete-v1-1-ce0e38d30dc6@google.com &&
	test "$(git config -f series.conf series.change-id)" = 20260715-defer-complete-f1dea9af13a8 &&
	test ! -d v1
'

test_expect_success 'the QP seed is decoded and its reply kept raw' '
	cd store/series/binder-large-handles &&
	grep -F "=E2=80=AF" v1/thread.mbox &&
	git config -f series.conf series.title >title &&
	echo "binder: add support for PF_LARGE_HANDLES" >expect &&
	test_cmp expect title
'

test_expect_success 'show prints a version' '
	cd store &&
	kseries show binder-alloc-spinlock@v1 >out &&
	grep "\[RFC PATCH 1/1\] binder: switch alloc->mutex back to spinlock" out &&
	grep "thread.mbox: 2 replies" out &&
	test_expect_code 1 kseries show binder-alloc-spinlock@v9
'

test_expect_success 'importing the same mboxes again changes nothing' '
	cd store &&
	find series -type f ! -name .kseries.lock | sort | xargs sha1sum >before &&
	import_all >out &&
	grep "0 new replies" out &&
	find series -type f ! -name .kseries.lock | sort | xargs sha1sum >after &&
	test_cmp before after
'

test_expect_success 'a thread grows: only the new reply is appended' '
	cd store &&
	cat >more.mbox <<-\EOM &&
	From mboxrd@z Thu Jan  1 00:00:00 1970
	From: Carlos Llamas <cmllamas@google.com>
	Subject: Re: [RFC PATCH 0/1] binder: switch alloc->mutex back to spinlock
	Message-ID: <new-reply@example.invalid>
	In-Reply-To: <20260805152751.2501-1-zhangbo56@seeds.invalid>

	A later comment.
	EOM
	cat "$FIXTURES/seed-000-binder-alloc-spinlock-v1.mbox" more.mbox >all.mbox &&
	kseries import binder-alloc-spinlock all.mbox >out &&
	grep "1 new reply" out &&
	grep -c "^From " series/binder-alloc-spinlock/v1/thread.mbox >n &&
	test "$(cat n)" = 3
'

test_expect_success 'diff compares two versions on the patches alone' '
	cd store &&
	mkdir -p series/binder-alloc-spinlock/v2 &&
	sed "s/back to spinlock/back to a spinlock/; s/RFC PATCH 1\/1/RFC PATCH v2 1\/1/" \
		series/binder-alloc-spinlock/v1/0001-*.patch \
		>series/binder-alloc-spinlock/v2/0001-x.patch &&
	KSERIES_TREE=/nonexistent kseries diff binder-alloc-spinlock v1 v1 >same &&
	grep "^1:  binder: switch alloc->mutex back to spinlock = 1:" same &&
	KSERIES_TREE=/nonexistent kseries diff binder-alloc-spinlock v1 v2 >out &&
	grep "^1:  binder: switch alloc->mutex back to spinlock ! 1:  binder: switch alloc->mutex back to a spinlock" out &&
	grep "^    -binder: switch alloc->mutex back to spinlock" out &&
	rm -r series/binder-alloc-spinlock/v2
'

test_done
