// SPDX-License-Identifier: GPL-2.0-only
/*
 * A GFP that picks a zone allocates nothing (false positive of the
 * 7.2.13 mm triage, cocci/TRIAGE.md: mm/mempolicy.c mpol_misplaced(),
 * called by do_numa_page() under the page table lock, reads
 * node_zonelist(thisnid, GFP_HIGHUSER) and gfp_zone(GFP_HIGHUSER)). A GFP
 * given to a call nested in an argument is that call's; the allocation
 * below still is a finding.
 */
int xz_misplaced(int thisnid, nodemask_t *nodes)
{
	struct zoneref *z;

	z = first_zones_zonelist(node_zonelist(thisnid, GFP_HIGHUSER),
				 gfp_zone(GFP_HIGHUSER), nodes);
	return zonelist_node_idx(z);
}

int xz_fault(spinlock_t *ptl, int nid, nodemask_t *nodes)
{
	int target;

	spin_lock(ptl);
	target = xz_misplaced(nid, nodes);
	if (target < 0)
		target = xz_store(kmalloc(16, GFP_HIGHUSER));
	spin_unlock(ptl);
	return target;
}
/*
 * check-output-start
not-gfp-zone.c:26: sleeping call 'kmalloc' while holding 'ptl' (taken at line 23)
 * check-output-end
 */
