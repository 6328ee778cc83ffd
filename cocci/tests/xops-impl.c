/*
 * An ops structure assigned in the tree: xo_ops.release sleeps
 * (xo_release() takes a mutex), xo_ops.peek does not. A member of the
 * same name in another ops type (xq_ops.release, which sleeps) must not
 * be taken for it.
 */
#include "xops.h"

static int xo_release(struct xo *o)
{
	mutex_lock(&o->m);
	mutex_unlock(&o->m);
	return 0;
}

static int xo_peek(struct xo *o)
{
	return o->n;
}

static const struct xo_ops xo_default_ops = {
	.release = xo_release,
	.peek = xo_peek,
};

struct xq_ops { int (*release)(struct xq *q); };

static int xq_release(struct xq *q)
{
	msleep(1);
	return 0;
}

static const struct xq_ops xq_default_ops = {
	.release = xq_release,
};
/*
 * check-output-start
 * check-output-end
 */
