/*
 * Direct sleepers under spin_lock, spin_lock_irqsave, spin_lock_bh,
 * read_lock/write_lock and raw_spin_lock; calls after the unlock are fine.
 */
struct s { spinlock_t lock; raw_spinlock_t raw; rwlock_t rw; struct mutex m; };

void basic(struct s *a, void __user *u, void *k)
{
	unsigned long flags;

	spin_lock(&a->lock);
	mutex_lock(&a->m);
	spin_unlock(&a->lock);
	msleep(10);

	spin_lock_irqsave(&a->lock, flags);
	if (copy_to_user(u, k, 8))
		flags = 0;
	spin_unlock_irqrestore(&a->lock, flags);

	spin_lock_bh(&a->lock);
	usleep_range(10, 20);
	spin_unlock_bh(&a->lock);

	read_lock(&a->rw);
	down_read(&a->sem);
	read_unlock(&a->rw);

	write_lock_irq(&a->rw);
	wait_for_completion(&a->done);
	write_unlock_irq(&a->rw);

	raw_spin_lock(&a->raw);
	synchronize_rcu();
	raw_spin_unlock(&a->raw);
	schedule();
}
/*
 * check-output-start
lock-basic.c:12: sleeping call 'mutex_lock' while holding 'a->lock' (taken at line 11)
lock-basic.c:17: sleeping call 'copy_to_user' while holding 'a->lock' (taken at line 16)
lock-basic.c:22: sleeping call 'usleep_range' while holding 'a->lock' (taken at line 21)
lock-basic.c:26: sleeping call 'down_read' while holding 'a->rw' (taken at line 25)
lock-basic.c:30: sleeping call 'wait_for_completion' while holding 'a->rw' (taken at line 29)
lock-basic.c:34: sleeping call 'synchronize_rcu' while holding 'a->raw' (taken at line 33)
 * check-output-end
 */
