// SPDX-License-Identifier: GPL-2.0-only
/*
 * A lock released by a helper ends the region (false positives of the
 * 7.2.13 mm triage, cocci/TRIAGE.md): pte_unmap_unlock(pte, ptl) drops
 * ptl (mm/memory.c copy_pte_range(), mm/khugepaged.c
 * collapse_pte_mapped_thp()); a static inline of a header that unlocks
 * &ci->lock (mm/swapfile.c swap_reclaim_full_clusters() through
 * swap_cluster_unlock()); a function that is called with the page table
 * lock held and drops it with pte_unmap_unlock() before it sleeps is not
 * a sleeper for its caller (mm/memory.c do_wp_page(), __releases).
 * A helper that drops the lock and takes it again does not end the region.
 */
#include "xrelease.h"

struct xr_fault {
	pte_t *pte;
	spinlock_t *ptl;
};

int xr_copy_range(pte_t *pte, spinlock_t *ptl)
{
	int ret;

	spin_lock(ptl);
	ret = xr_copy_one(pte);
	pte_unmap_unlock(pte, ptl);
	cond_resched();
	return kmalloc(16, GFP_KERNEL) != NULL;
}

void xr_reclaim(struct xr_cluster *ci)
{
	spin_lock(&ci->lock);
	ci->flags = 0;
	xr_cluster_unlock(ci);
	cond_resched();
}

void xr_relax(struct xr_cluster *ci)
{
	spin_lock(&ci->lock);
	xr_cluster_relax(ci);
	cond_resched();
	spin_unlock(&ci->lock);
}

static int xr_wp_page(struct xr_fault *vmf)
{
	pte_unmap_unlock(vmf->pte, vmf->ptl);
	msleep(1);
	return 0;
}

int xr_handle_pte(struct xr_fault *vmf)
{
	spin_lock(vmf->ptl);
	if (!vmf->pte)
		return xr_wp_page(vmf);
	spin_unlock(vmf->ptl);
	return 0;
}
/*
 * check-output-start
helper-release.c:43: sleeping call 'cond_resched' while holding 'ci->lock' (taken at line 41)
 * check-output-end
 */
