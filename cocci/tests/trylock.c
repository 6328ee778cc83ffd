/*
 * The success path of spin_trylock: `if (!spin_trylock(l)) goto out;` and
 * `if (spin_trylock(l)) { ... }`. The failure path holds nothing, so the
 * mutex_lock after `out:` is fine. Modelled on binder_alloc_free_page()
 * after the seed RFC (mutex_trylock -> spin_trylock, commit 7710e2cca32e
 * "binder: switch alloc->mutex to spinlock_t" did the same in 2023).
 */
struct s { spinlock_t lock; struct mutex m; };

int try_goto(struct s *a)
{
	if (!spin_trylock(&a->lock))
		goto out;
	mutex_lock(&a->m);
	spin_unlock(&a->lock);
	return 0;
out:
	mutex_lock(&a->m);
	mutex_unlock(&a->m);
	return -1;
}

void try_if(struct s *a)
{
	if (spin_trylock_bh(&a->lock)) {
		msleep(1);
		spin_unlock_bh(&a->lock);
	} else {
		msleep(2);
	}
	if (!raw_spin_trylock(&a->raw))
		return;
	might_sleep();
	raw_spin_unlock(&a->raw);
	might_sleep();
}
/*
 * check-output-start
trylock.c:14: sleeping call 'mutex_lock' while holding 'a->lock' (taken at line 12)
trylock.c:26: sleeping call 'msleep' while holding 'a->lock' (taken at line 25)
trylock.c:33: sleeping call 'might_sleep' while holding 'a->raw' (taken at line 31)
 * check-output-end
 */
