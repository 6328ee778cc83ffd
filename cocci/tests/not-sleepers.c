/*
 * Tricky negatives: trylocks, cond_resched_lock, mmput_async,
 * schedule_work (not schedule*), disable_irq_nosync, vfree_atomic,
 * get_user_pages_fast_only, a mutex-only region, and a sleep after the
 * unlock of the same lock. mmput_async is what commit 9a9ab0d96362
 * ("binder: fix race between mmput() and do_exit()")'s successors use in
 * the binder shrinker instead of mmput(), which may sleep.
 */
struct s { spinlock_t lock; struct mutex m; struct work_struct w; };

void negatives(struct s *a, struct mm_struct *mm, struct page **pages)
{
	spin_lock(&a->lock);
	if (mutex_trylock(&a->m))
		mutex_unlock(&a->m);
	if (down_read_trylock(&mm->mmap_lock))
		up_read(&mm->mmap_lock);
	cond_resched_lock(&a->lock);
	mmput_async(mm);
	schedule_work(&a->w);
	disable_irq_nosync(3);
	vfree_atomic(pages);
	get_user_pages_fast_only(0, 1, 0, pages);
	spin_unlock(&a->lock);
	mmput(mm);

	mutex_lock(&a->m);
	msleep(1);
	mutex_unlock(&a->m);
}
/*
 * check-output-start
 * check-output-end
 */
