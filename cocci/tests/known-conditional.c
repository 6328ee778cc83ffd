// SPDX-License-Identifier: GPL-2.0-only
/*
 * Known false positives, not fixed: a callee that sleeps only on a path
 * that its caller's argument or state excludes, where that is not a
 * direct test of an unmodified parameter against a literal argument
 * (param-guard.c has the forms the rules do rule out).
 * Modelled on 7.2.13 mm/swapfile.c swap_reclaim_full_clusters(si, false)
 * (with force false, one cluster and no cond_resched(): the loop's
 * counter, not the parameter, is tested before the sleeper) under
 * si->global_cluster_lock, and mm/huge_memory.c copy_huge_pmd()'s
 * mm_get_huge_zero_folio() (state: the huge zero folio is mapped, its
 * refcount is not zero, get_huge_zero_folio() does not allocate; no case
 * here). Also not read: a bit test of the parameter, a named constant as
 * the argument, a parameter passed on to the guarded callee.
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

#define XK_NOWAIT 1

static void xk_wait(struct xk_info *si, unsigned int flags)
{
	if (flags & XK_NOWAIT)
		return;
	msleep(1);
}

static void xk_flush(struct xk_info *si, int nowait)
{
	if (nowait)
		return;
	msleep(1);
}

static void xk_flush_outer(struct xk_info *si, int nowait)
{
	xk_flush(si, nowait);
}

void xk_free(struct xk_info *si)
{
	spin_lock(&si->global_lock);
	xk_wait(si, XK_NOWAIT);
	xk_flush(si, XK_NOWAIT);
	xk_flush_outer(si, 1);
	spin_unlock(&si->global_lock);
}
/*
 * check-output-start
 * check-output-end
 * check-known-false-start
known-conditional.c:36: sleeping call 'xk_reclaim' while holding 'si->global_lock' (taken at line 34) via 'xk_reclaim' -> 'cond_resched'
known-conditional.c:64: sleeping call 'xk_wait' while holding 'si->global_lock' (taken at line 63) via 'xk_wait' -> 'msleep'
known-conditional.c:65: sleeping call 'xk_flush' while holding 'si->global_lock' (taken at line 63) via 'xk_flush' -> 'msleep'
known-conditional.c:66: sleeping call 'xk_flush_outer' while holding 'si->global_lock' (taken at line 63) via 'xk_flush_outer' -> 'xk_flush' -> 'msleep'
 * check-known-false-end
 */
