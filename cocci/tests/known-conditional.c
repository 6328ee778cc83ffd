// SPDX-License-Identifier: GPL-2.0-only
/*
 * Known false positives, not fixed: a callee that sleeps only on a path
 * that its caller's argument or state excludes. The closure is per
 * definition, not per argument or path.
 * Modelled on 7.2.13 mm/swapfile.c swap_reclaim_full_clusters(si, false)
 * (with force false, one cluster and no cond_resched()) under
 * si->global_cluster_lock, drivers/usb/dwc2 dwc2_core_reset(hsotg, true)
 * (skip_wait), and mm/huge_memory.c copy_huge_pmd()'s
 * mm_get_huge_zero_folio() (the huge zero folio is mapped: its refcount
 * is not zero, get_huge_zero_folio() does not allocate).
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
known-conditional.c:33: sleeping call 'xk_reclaim' while holding 'si->global_lock' (taken at line 31) via 'xk_reclaim' -> 'cond_resched'
 * check-known-false-end
 */
