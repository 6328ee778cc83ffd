/*
 * Names with several definitions, one per configuration (xalt.h): a call
 * sleeps only if every definition it may reach can sleep. xa_unlock()
 * sleeps only in the RT configuration's definition (xalt-rt.h, as
 * spin_unlock() -> rt_spin_unlock() did in the whole-tree run), xa_wait()
 * only in one #ifdef branch of xalt.h: neither is reported. xa_sync()
 * sleeps in both: reported.
 */
#include "xalt.h"

void xa_use(struct xa *a, struct xa *b)
{
	spin_lock(&a->lock);
	xa_unlock(b);
	xa_wait(b);
	xa_sync(b);
	spin_unlock(&a->lock);
}
/*
 * check-output-start
xalt.c:16: sleeping call 'xa_sync' while holding 'a->lock' (taken at line 13) via 'xa_sync' -> 'mutex_lock' (xalt.h:26)
 * check-output-end
 */
