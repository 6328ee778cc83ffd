/*
 * Lock release helpers in a header (modelled on 7.2.13 mm/swap.h's
 * swap_cluster_unlock() and mm/hugetlb.c's unlock_or_release_subpool()),
 * and the page table macro of include/linux/mm.h.
 */
#define pte_unmap_unlock(pte, ptl)	do {		\
	spinlock_t *__ptl = (ptl);			\
	pte_unmap(pte);					\
	spin_unlock(__ptl);				\
} while (0)

struct xr_cluster {
	spinlock_t lock;
	int flags;
};

#ifdef CONFIG_XR
static inline void xr_cluster_unlock(struct xr_cluster *ci)
{
	spin_unlock(&ci->lock);
}
#else
/* the other configuration's stub: no lock */
static inline void xr_cluster_unlock(struct xr_cluster *ci)
{
}
#endif

/* drops the caller's lock and takes it again: not a release */
static inline void xr_cluster_relax(struct xr_cluster *ci)
{
	spin_unlock(&ci->lock);
	cpu_relax();
	spin_lock(&ci->lock);
}
