/*
 * Allocations: a GFP that allows direct reclaim sleeps, GFP_ATOMIC and
 * GFP_NOWAIT do not; the 7.2 k*alloc_obj*() helpers default to GFP_KERNEL
 * (include/linux/slab.h: kmalloc_obj(VAR_OR_TYPE, ...), kzalloc_objs(P,
 * COUNT, ...), kvzalloc_flex(P, FAM, COUNT, ...), default_gfp() in gfp.h).
 * Modelled on commit 7710e2cca32e ("binder: switch alloc->mutex to
 * spinlock_t"), which had to make sure no allocation stayed under the lock,
 * and on the many GFP_KERNEL -> GFP_ATOMIC fixes that call_kern.cocci finds.
 */
struct s { spinlock_t lock; struct item *it; };

void gfp(struct s *a, int n, gfp_t gfp)
{
	struct item *p, *q, *r;

	spin_lock(&a->lock);
	p = kmalloc(sizeof(*p), GFP_KERNEL);
	q = kzalloc(sizeof(*q), GFP_ATOMIC);
	r = kcalloc(n, sizeof(*r), GFP_NOWAIT | __GFP_NOWARN);
	p = kzalloc_obj(*p);
	q = kzalloc_obj(*q, GFP_ATOMIC);
	r = kmalloc_objs(*r, n);
	r = kvzalloc_flex(*r, ents, n, GFP_KERNEL_ACCOUNT);
	p = kmalloc(16, gfp);
	q = alloc_page(GFP_KERNEL & ~__GFP_DIRECT_RECLAIM);
	r = vmalloc(n);
	kvfree(r);
	spin_unlock(&a->lock);
	p = kmalloc(sizeof(*p), GFP_KERNEL);
}
/*
 * check-output-start
gfp.c:17: sleeping call 'kmalloc' while holding 'a->lock' (taken at line 16)
gfp.c:20: sleeping call 'kzalloc_obj' while holding 'a->lock' (taken at line 16)
gfp.c:22: sleeping call 'kmalloc_objs' while holding 'a->lock' (taken at line 16)
gfp.c:23: sleeping call 'kvzalloc_flex' while holding 'a->lock' (taken at line 16)
gfp.c:26: sleeping call 'vmalloc' while holding 'a->lock' (taken at line 16)
gfp.c:27: sleeping call 'kvfree' while holding 'a->lock' (taken at line 16)
 * check-output-end
 */
