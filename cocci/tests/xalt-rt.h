/* xa_unlock() for CONFIG_XALT_RT (spinlock_rt.h's spin_unlock()). */
void xa_rt_unlock(struct xa *a);

static inline void xa_unlock(struct xa *a)
{
	xa_rt_unlock(a);
}
