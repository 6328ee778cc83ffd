/* xa_unlock() for !CONFIG_XALT_RT (spinlock.h's spin_unlock()): no sleep. */
static inline void xa_unlock(struct xa *a)
{
	a->held = 0;
}
