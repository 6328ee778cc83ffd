/*
 * Calls under a spinlock of functions defined in xfile-callee.c: the one
 * that sleeps through a chain there is reported with the chain and the
 * places of its calls; the quiet one, the lock-dropping one and the gfp_t
 * one called with GFP_ATOMIC are not; xf_gfp() with GFP_KERNEL is (by its
 * GFP argument). A same-file helper reaching the cross-file sleeper is
 * reported through both.
 */
struct xf { spinlock_t lock; struct mutex m; };

void xf_helper(struct xf *x);
int xf_quiet(struct xf *x);
void xf_drops(struct xf *x);
void *xf_gfp(struct xf *x, gfp_t gfp);

static void local_step(struct xf *x)
{
	xf_helper(x);
}

void xf_caller(struct xf *x)
{
	void *p;

	spin_lock(&x->lock);
	xf_helper(x);
	xf_quiet(x);
	xf_drops(x);
	p = xf_gfp(x, GFP_ATOMIC);
	local_step(x);
	spin_unlock(&x->lock);
	xf_helper(x);

	spin_lock(&x->lock);
	p = xf_gfp(x, GFP_KERNEL);
	spin_unlock(&x->lock);
}
/*
 * check-output-start
xfile-caller.c:26: sleeping call 'xf_helper' while holding 'x->lock' (taken at line 25) via 'xf_helper' -> 'xf_inner' (xfile-callee.c:19) -> 'mutex_lock' (xfile-callee.c:13)
xfile-caller.c:30: sleeping call 'local_step' while holding 'x->lock' (taken at line 25) via 'local_step' -> 'xf_helper' -> 'xf_inner' (xfile-callee.c:19) -> 'mutex_lock' (xfile-callee.c:13)
xfile-caller.c:35: sleeping call 'xf_gfp' while holding 'x->lock' (taken at line 34)
 * check-output-end
 */
