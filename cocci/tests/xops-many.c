/*
 * An ops member with several implementations (bio.bi_end_io,
 * request.end_io, blk_mq_ops.queue_rq in the whole tree): which one a
 * call reaches is not known, so it sleeps only if every one stored there
 * can. xm_ops.done has a sleeping and a non-sleeping implementation:
 * xm_finish() under the lock is not reported; xm_ops.flush has two
 * sleeping ones: xm_drain() is.
 */
struct xm;

struct xm_ops {
	void (*done)(struct xm *m);
	void (*flush)(struct xm *m);
};

struct xm {
	spinlock_t lock;
	struct mutex mu;
	int n;
	const struct xm_ops *ops;
};

static void xm_done_wait(struct xm *m)
{
	mutex_lock(&m->mu);
	mutex_unlock(&m->mu);
}

static void xm_done_count(struct xm *m)
{
	m->n++;
}

static void xm_flush_a(struct xm *m)
{
	msleep(1);
}

static void xm_flush_b(struct xm *m)
{
	mutex_lock(&m->mu);
	mutex_unlock(&m->mu);
}

static const struct xm_ops xm_wait_ops = {
	.done = xm_done_wait,
	.flush = xm_flush_a,
};

static const struct xm_ops xm_count_ops = {
	.done = xm_done_count,
	.flush = xm_flush_b,
};

static void xm_finish(struct xm *m)
{
	m->ops->done(m);
}

static void xm_drain(struct xm *m)
{
	m->ops->flush(m);
}

void xm_close(struct xm *m)
{
	spin_lock(&m->lock);
	xm_finish(m);
	xm_drain(m);
	spin_unlock(&m->lock);
}
/*
 * check-output-start
xops-many.c:69: sleeping call 'xm_drain' while holding 'm->lock' (taken at line 67) via 'xm_drain' -> 'xm_ops.flush' -> 'xm_flush_a' -> 'msleep'
 * check-output-end
 */
