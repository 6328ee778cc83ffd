/*
 * goto error paths: a path that jumps over the unlock keeps the lock; a
 * path that unlocks before the label does not. Modelled on
 * binder_alloc_free_page() (drivers/android/binder_alloc.c, 7.2.13).
 */
struct s { spinlock_t lock; struct mutex m; };

int gotos(struct s *a, int x)
{
	spin_lock(&a->lock);
	if (x == 1)
		goto out_unlock;
	if (x == 2)
		goto out;
	spin_unlock(&a->lock);
	return 0;
out_unlock:
	spin_unlock(&a->lock);
out:
	mutex_lock(&a->m);
	mutex_unlock(&a->m);
	return -1;
}

int gotos_ok(struct s *a, int x)
{
	spin_lock(&a->lock);
	if (x)
		goto err_unlock;
	spin_unlock(&a->lock);
	return 0;
err_unlock:
	spin_unlock(&a->lock);
	msleep(1);
	return -1;
}
/*
 * check-output-start
goto-paths.c:20: sleeping call 'mutex_lock' while holding 'a->lock' (taken at line 10)
 * check-output-end
 */
