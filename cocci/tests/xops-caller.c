/*
 * Calls through an ops structure (struct xo, in xops.h, whose ops member
 * points to a struct xo_ops): the target is known from the initializer in
 * xops-impl.c. xo_put() calls ->release (a sleeper), xo_look() calls
 * ->peek (not one); both are called under the object's spinlock.
 */
#include "xops.h"

static void xo_put(struct xo *o)
{
	o->ops->release(o);
}

static int xo_look(struct xo *o)
{
	return o->ops->peek(o);
}

void xo_close(struct xo *o)
{
	spin_lock(&o->lock);
	xo_look(o);
	xo_put(o);
	spin_unlock(&o->lock);
}
/*
 * check-output-start
xops-caller.c:23: sleeping call 'xo_put' while holding 'o->lock' (taken at line 21) via 'xo_put' -> 'xo_ops.release' -> 'xo_release' (xops-impl.c:21) -> 'mutex_lock' (xops-impl.c:11)
 * check-output-end
 */
