/*
 * A region ends at the unlock of the same lock expression, not another
 * one; nested locks report for every lock still held.
 */
struct s { spinlock_t lock; spinlock_t other; };

void nested(struct s *a, struct s *b)
{
	spin_lock(&a->lock);
	spin_lock(&b->other);
	msleep(1);
	spin_unlock(&b->other);
	might_sleep();
	spin_unlock(&a->lock);
	ssleep(1);
}
/*
 * check-output-start
same-lock.c:11: sleeping call 'msleep' while holding 'a->lock' (taken at line 9)
same-lock.c:11: sleeping call 'msleep' while holding 'b->other' (taken at line 10)
same-lock.c:13: sleeping call 'might_sleep' while holding 'a->lock' (taken at line 9)
 * check-output-end
 */
