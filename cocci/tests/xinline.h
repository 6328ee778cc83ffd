/* A header-only inline sleeper (for xinline.c): no .c file defines it. */
struct xi { spinlock_t lock; struct rw_semaphore sem; };

static inline void xi_sync(struct xi *x)
{
	down_write(&x->sem);
	up_write(&x->sem);
}

static inline int xi_peek(struct xi *x)
{
	return x->n;
}
