/*
 * Transitive sleepers in the same file, several levels deep; a callee that
 * drops the caller's lock before sleeping does not count; a callee that
 * takes and releases its own lock before sleeping does; a name from
 * cocci/sleepers.txt (flush_work) counts.
 * Modelled on binder_alloc_new_buf() -> binder_install_buffer_pages() ->
 * binder_install_single_page() -> vm_insert_page(), which is why commit
 * d1716b4b78fb ("binder: concurrent page installation") installs pages
 * outside alloc->lock.
 */
struct s { spinlock_t lock; spinlock_t own; struct work_struct w; };

static int install_single_page(struct s *a)
{
	return vm_insert_page(a->vma, a->addr, a->page);
}

static int install_pages(struct s *a)
{
	return install_single_page(a);
}

static int new_buf_locked(struct s *a)
{
	if (a->n)
		return install_pages(a);
	return 0;
}

static void relock_sleep(struct s *a)
{
	spin_unlock(&a->lock);
	msleep(1);
	spin_lock(&a->lock);
}

static void own_lock_sleep(struct s *a)
{
	spin_lock(&a->own);
	a->n++;
	spin_unlock(&a->own);
	usleep_range(1, 2);
}

static void flusher(struct s *a)
{
	flush_work(&a->w);
}

void callers(struct s *a)
{
	spin_lock(&a->lock);
	new_buf_locked(a);
	relock_sleep(a);
	own_lock_sleep(a);
	flusher(a);
	spin_unlock(&a->lock);
	new_buf_locked(a);
}
/*
 * check-output-start
transitive.c:53: sleeping call 'new_buf_locked' while holding 'a->lock' (taken at line 52) via 'new_buf_locked' -> 'install_pages' -> 'install_single_page' -> 'vm_insert_page'
transitive.c:55: sleeping call 'own_lock_sleep' while holding 'a->lock' (taken at line 52) via 'own_lock_sleep' -> 'usleep_range'
transitive.c:56: sleeping call 'flusher' while holding 'a->lock' (taken at line 52) via 'flusher' -> 'flush_work'
 * check-output-end
 */
