#!/bin/bash
test_description='binder-alloc-spinlock v3: mail form, trailers, series.conf keys, applies and passes checkpatch'

. "$(dirname "$0")/lib.sh"

VN=3
. "$SRC_DIR/tests/lib-spinlock-series.sh"

test_expect_success 'the cover says v2 was never posted' '
	grep -q "^Changes in v3 (v2 was never posted; this is everything since v1):" "$VD/0000-cover-letter.patch"
'

# The kunit stage runs version 3's KUnit test on x86_64 under QEMU
# (SMP, PREEMPT=y), where the shrinker test can meet the race, with the
# run count of version.3.kunit (the test suite lowers it).
test_expect_success 'series.conf: version 3 is ours, with its model; KUnit on x86_64' '
	conf=$SRC_DIR/series/binder-alloc-spinlock/series.conf &&
	test "$(git config -f "$conf" version.3.origin)" = ours &&
	test "$(git config -f "$conf" version.3.model)" = V3 &&
	test "$(git config -f "$conf" version.3.kunit-arch)" = x86_64 &&
	kc=kunit/x86_64.kunitconfig &&
	test "$(git config -f "$conf" version.3.kunitconfig)" = $kc &&
	test "$(git config -f "$conf" version.3.kunit)" -ge 20 &&
	test -f "$SRC_DIR/series/binder-alloc-spinlock/$kc" &&
	grep -q "^CONFIG_PREEMPT=y$" "$SRC_DIR/series/binder-alloc-spinlock/$kc" &&
	grep -q "^CONFIG_SMP=y$" "$SRC_DIR/series/binder-alloc-spinlock/$kc" &&
	grep -q "^CONFIG_ANDROID_BINDER_ALLOC_KUNIT_TEST=y$" "$SRC_DIR/series/binder-alloc-spinlock/$kc" &&
	git config -f "$conf" version.3.assisted-by >ab &&
	grep -q "^Claude:" ab &&
	test -z "$(git config -f "$conf" version.3.message-id)"
'

test_expect_success 'the model names version 3 and the patches leave no placeholder' '
	grep -q "V1|V2|V3|V3A|BASE|MID" "$SRC_DIR/series/binder-alloc-spinlock/model/check" &&
	! grep -l -E "@@[A-Z]+@@" "$VD"/*.patch
'

test_expect_success 'patch 4 sleeps instead of spinning and allocates one page' '
	p4=$(ls "$VD"/0004-*.patch) &&
	grep "^+" "$p4" >added &&
	grep -q "wait_var_event(&alloc->pte_busy" added &&
	grep -q "wake_up_var(&alloc->pte_busy)" added &&
	! grep -q "cond_resched" added &&
	! grep -q "EAGAIN" added &&
	grep -q "^-.*get_user_pages_remote" "$p4"
'

# An empty pte is not enough: the zap clears it before it flushes the
# TLBs, so an installer publishes its page only once no zap is in flight.
test_expect_success 'patch 4 publishes a page only after the zaps in flight' '
	p4=$(ls "$VD"/0004-*.patch) &&
	grep "^+" "$p4" >added &&
	grep -q "wait_var_event(&alloc->zapping" added &&
	grep -q "wake_up_var(&alloc->zapping)" added &&
	sed -n "/^+.*ret = binder_page_insert(alloc, addr, page);/,/^+.*binder_set_installed_page(alloc, index, page);/p" \
		"$p4" >window &&
	grep -q "wait_var_event(&alloc->zapping" window
'

test_expect_success 'the KUnit waits have timeouts' '
	cat "$VD"/000[23]-*.patch | grep "^+" >added &&
	! grep -E "wait_for_completion\(" added &&
	grep -c "wait_for_completion_timeout(" added >n &&
	echo 2 >expect &&
	test_cmp expect n
'

test_done
