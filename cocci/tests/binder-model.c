/*
 * Small models of the real binder_alloc.c (7.2.13) functions under a
 * spinlock alloc->lock, as the seed RFC would have them, and of the
 * variants that sleep. History: commit 7710e2cca32e ("binder: switch
 * alloc->mutex to spinlock_t") made this lock a spinlock; commit
 * 8b52c7261e04 reverted it for commit d1716b4b78fb ("binder: concurrent
 * page installation"), whose shrinker calls zap_page_range_single() under
 * the lock -- a sleeping call that a spinlock cannot cover.
 */
struct binder_alloc { spinlock_t lock; struct binder_lru_page **pages; struct mm_struct *mm; };

/* binder_alloc_deferred_release(): kvfree() after the unlock is fine. */
void deferred_release(struct binder_alloc *alloc)
{
	spin_lock(&alloc->lock);
	alloc->buffers = 0;
	spin_unlock(&alloc->lock);
	kvfree(alloc->pages);
	if (alloc->mm)
		mmdrop(alloc->mm);
}

/* The same with kvfree() moved under the lock. */
void deferred_release_bad(struct binder_alloc *alloc)
{
	spin_lock(&alloc->lock);
	kvfree(alloc->pages);
	spin_unlock(&alloc->lock);
}

/* binder_alloc_free_page(): trylock, goto error paths, zap under the lock. */
enum lru_status free_page(struct list_head *item, struct list_lru_one *lru,
			  struct binder_alloc *alloc, struct vm_area_struct *vma,
			  struct mm_struct *mm)
{
	if (!mmap_read_trylock(mm))
		goto err_mmap_read_lock_failed;
	if (!spin_trylock(&alloc->lock))
		goto err_get_alloc_lock_failed;
	if (vma && !binder_alloc_is_mapped(alloc))
		goto err_invalid_vma;
	list_lru_isolate(lru, item);
	spin_unlock(&lru->lock);
	if (vma)
		zap_page_range_single(vma, 0, PAGE_SIZE, NULL);
	spin_unlock(&alloc->lock);
	mmap_read_unlock(mm);
	mmput_async(mm);
	return LRU_REMOVED_RETRY;
err_invalid_vma:
	spin_unlock(&alloc->lock);
err_get_alloc_lock_failed:
	mmap_read_unlock(mm);
err_mmap_read_lock_failed:
	mmput(mm);
	return LRU_SKIP;
}

/* binder_install_single_page(): sleeps, so new_buf must not call it locked. */
static int install_single_page(struct binder_alloc *alloc, unsigned long addr)
{
	struct page *page = alloc_page(GFP_KERNEL | __GFP_HIGHMEM | __GFP_ZERO);

	mmap_read_lock(alloc->mm);
	vm_insert_page(alloc->vma, addr, page);
	mmap_read_unlock(alloc->mm);
	return 0;
}

/* binder_alloc_new_buf(): installs pages after the unlock, as 7.2.13 does. */
struct binder_buffer *new_buf(struct binder_alloc *alloc, unsigned long addr)
{
	struct binder_buffer *buffer, *next = kzalloc_obj(*next);

	spin_lock(&alloc->lock);
	buffer = new_buf_locked(alloc, next);
	spin_unlock(&alloc->lock);
	install_single_page(alloc, addr);
	return buffer;
}

struct binder_buffer *new_buf_bad(struct binder_alloc *alloc, unsigned long addr)
{
	struct binder_buffer *buffer;

	spin_lock(&alloc->lock);
	buffer = new_buf_locked(alloc, NULL);
	install_single_page(alloc, addr);
	spin_unlock(&alloc->lock);
	return buffer;
}
/*
 * check-output-start
binder-model.c:27: sleeping call 'kvfree' while holding 'alloc->lock' (taken at line 26)
binder-model.c:45: sleeping call 'zap_page_range_single' while holding 'alloc->lock' (taken at line 38)
binder-model.c:88: sleeping call 'install_single_page' while holding 'alloc->lock' (taken at line 86) via 'install_single_page' -> 'alloc_page'
 * check-output-end
 */
