// SPDX-License-Identifier: GPL-2.0-only
/*
 * Known false positives, not fixed: a callee that sleeps only on a path
 * that its caller's argument or state excludes, where that is not a
 * test of an unmodified parameter (or of one its caller passes on) that
 * a literal or named constant argument rules out (param-guard.c and
 * param-guard-more.c have the forms the rules do rule out).
 * Modelled on 7.2.13 mm/swapfile.c swap_reclaim_full_clusters(si, false)
 * (with force false, one cluster and no cond_resched(): the loop's
 * counter, not the parameter, is tested before the sleeper) under
 * si->global_cluster_lock, and mm/huge_memory.c copy_huge_pmd()'s
 * mm_get_huge_zero_folio() (state: the huge zero folio is mapped, its
 * refcount is not zero, get_huge_zero_folio() does not allocate; no case
 * here). The bit tests, named constants and parameters passed on that
 * were listed here too are read since (param-guard-more.c).
 * Listed as known false (check-known-false): t7000 checks that they are
 * still reported and leaves them out of precision and recall.
 */
static void xk_reclaim(struct xk_info *si, bool force)
{
	long to_scan = 1;

	if (force)
		to_scan = si->n;
	while (xk_isolate(si)) {
		to_scan--;
		if (to_scan <= 0)
			break;
		cond_resched();
	}
}

void xk_alloc(struct xk_info *si)
{
	spin_lock(&si->global_lock);
	if (!xk_scan(si))
		xk_reclaim(si, false);
	spin_unlock(&si->global_lock);
}
/*
 * check-output-start
 * check-output-end
 * check-known-false-start
known-conditional.c:37: sleeping call 'xk_reclaim' while holding 'si->global_lock' (taken at line 35) via 'xk_reclaim' -> 'cond_resched'
 * check-known-false-end
 */
