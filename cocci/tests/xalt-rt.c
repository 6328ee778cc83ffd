/*
 * Built for CONFIG_XALT_RT only (kernel/locking/spinlock_rt.c's
 * rt_spin_unlock(), whose migrate_enable() may wait).
 */
#include "xalt.h"

void xa_rt_unlock(struct xa *a)
{
	a->held = 0;
	might_sleep();
}
/*
 * check-output-start
 * check-output-end
 */
