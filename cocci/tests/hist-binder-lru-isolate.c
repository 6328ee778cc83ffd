/*
 * History: commit a1b2289cef92 ("android: binder: drop lru lock in isolate
 * callback"), 2017 (v4.14-rc3-117-ga1b2289cef92).
 * Verified: the id and subject are quoted together by Lorenzo Stoakes on
 * linux-mm ("Re: [PATCH ...] mm: rust: add MmWithUserAsync", 2024-11-20:
 * mmput_async() "was (re-)added in commit a1b2289cef92 (\"android: binder:
 * drop lru lock in isolate callback\") back in 2017"), where Alice Ryhl
 * explains that binder needs mmput_async() "in the shrinker to avoid
 * cleaning up the mm in the shrinker's context"; and independently by the
 * amdgpu DKMS configure check for mmput_async ("v4.14-rc3-117-ga1b2289cef92
 * android: binder: drop lru lock in isolate callback"). Both found with the
 * search tool's find_string. The fixed shape is still the one of 7.2.13's
 * binder_alloc_free_page(): it drops lru->lock before the mm work and ends
 * with mmput_async().
 *
 * The shape (not binder's code): list_lru_walk() calls the isolate
 * callback binder_alloc_free_page() with the lru spinlock held; before the
 * fix the callback did its mm work (mmap lock, zap, mmput()) under that
 * spinlock; the fix drops the lru lock in the callback first (returning
 * LRU_REMOVED_RETRY) and uses mmput_async(). The diff itself was not found
 * here: the model follows the subject, the explanation quoted above and the
 * fixed code still in 7.2.13, with 7.2 names (mmap_write_lock,
 * zap_page_range_single). The walk calls the callback directly here
 * (list_lru calls it through a pointer, which the rule does not follow).
 */
struct lru { spinlock_t lock; };
struct alloc { struct mm_struct *mm; struct vm_area_struct *vma; struct mutex mutex; };

static enum lru_status free_page_old(struct list_head *item, struct lru *lru,
				     spinlock_t *lock, struct alloc *alloc)
{
	struct mm_struct *mm = alloc->mm;

	if (!mutex_trylock(&alloc->mutex))
		return LRU_SKIP;
	if (!mmget_not_zero(mm))
		goto err_mmget;
	mmap_write_lock(mm);
	zap_page_range_single(alloc->vma, alloc->addr, PAGE_SIZE, NULL);
	mmap_write_unlock(mm);
	mmput(mm);
	list_lru_isolate(lru, item);
	mutex_unlock(&alloc->mutex);
	return LRU_REMOVED;
err_mmget:
	mutex_unlock(&alloc->mutex);
	return LRU_SKIP;
}

static enum lru_status free_page(struct list_head *item, struct lru *lru,
				 spinlock_t *lock, struct alloc *alloc)
{
	struct mm_struct *mm = alloc->mm;

	if (!mutex_trylock(&alloc->mutex))
		return LRU_SKIP;
	if (!mmget_not_zero(mm))
		goto err_mmget;
	list_lru_isolate(lru, item);
	spin_unlock(lock);
	if (mmap_read_trylock(mm)) {
		zap_page_range_single(alloc->vma, alloc->addr, PAGE_SIZE, NULL);
		mmap_read_unlock(mm);
	}
	mmput_async(mm);
	mutex_unlock(&alloc->mutex);
	spin_lock(lock);
	return LRU_REMOVED_RETRY;
err_mmget:
	mutex_unlock(&alloc->mutex);
	return LRU_SKIP;
}

void walk_old(struct lru *l, struct list_head *item, struct alloc *alloc)
{
	spin_lock(&l->lock);
	free_page_old(item, l, &l->lock, alloc);
	spin_unlock(&l->lock);
}

void walk(struct lru *l, struct list_head *item, struct alloc *alloc)
{
	spin_lock(&l->lock);
	free_page(item, l, &l->lock, alloc);
	spin_unlock(&l->lock);
}
/*
 * check-output-start
hist-binder-lru-isolate.c:77: sleeping call 'free_page_old' while holding 'l->lock' (taken at line 76) via 'free_page_old' -> 'mmap_write_lock'
 * check-output-end
 */
