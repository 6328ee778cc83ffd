/*
 * Cross-file sleepers, the other half of xfile-caller.c: xf_helper()
 * sleeps two levels down (xf_inner() takes a mutex); xf_quiet() does not
 * sleep (a static function of the same name in xfile-static.c does, and
 * must not be taken for it); xf_drops() drops its caller's lock before it
 * sleeps; xf_gfp() sleeps or not by its gfp_t argument.
 * Modelled on a pcmcia-style helper defined in another file.
 */
struct xf { spinlock_t lock; struct mutex m; };

void xf_inner(struct xf *x)
{
	mutex_lock(&x->m);
	mutex_unlock(&x->m);
}

void xf_helper(struct xf *x)
{
	xf_inner(x);
}

int xf_quiet(struct xf *x)
{
	return x->n + 1;
}

void xf_drops(struct xf *x)
{
	spin_unlock(&x->lock);
	msleep(1);
	spin_lock(&x->lock);
}

void *xf_gfp(struct xf *x, gfp_t gfp)
{
	might_sleep_if(gfpflags_allow_blocking(gfp));
	return kmalloc(x->n, gfp);
}
/*
 * check-output-start
 * check-output-end
 */
