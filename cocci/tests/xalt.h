/*
 * Two configurations' definitions, modelled on spinlock.h and
 * spinlock_rt.h: xa_unlock() is xalt-nort.h's for !CONFIG_XALT_RT and
 * xalt-rt.h's for CONFIG_XALT_RT (included from here, as spinlock.h
 * includes spinlock_rt.h); only the RT one sleeps (through xalt-rt.c).
 * In this header, xa_wait() and xa_sync() have an #ifdef alternative
 * each: one of xa_wait()'s sleeps, both of xa_sync()'s do.
 */
struct xa {
	spinlock_t lock;
	struct mutex m;
	struct rw_semaphore sem;
	int held;
};

#ifndef CONFIG_XALT_RT
#include "xalt-nort.h"

static inline void xa_wait(struct xa *a)
{
	a->held = 1;
}

static inline void xa_sync(struct xa *a)
{
	mutex_lock(&a->m);
	mutex_unlock(&a->m);
}
#else
#include "xalt-rt.h"

static inline void xa_wait(struct xa *a)
{
	msleep(1);
}

static inline void xa_sync(struct xa *a)
{
	down_write(&a->sem);
	up_write(&a->sem);
}
#endif
