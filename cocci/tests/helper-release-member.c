// SPDX-License-Identifier: GPL-2.0-only
/*
 * A helper that drops a lock of a member of a member of its first
 * argument ends the region too, as one on &X->f does (helper-release.c):
 * 7.2.13 drivers/usb/gadget/function/f_fs.c ffs_ep0_read() calls
 * __ffs_ep0_queue_wait(ffs, data, len), which drops ffs->ev.waitq.lock
 * on every path ("unlocks spinlock", __releases) and then waits, before
 * copy_to_user(). Locks two and three members deep; a helper that drops
 * and takes the lock again, or one given another object, does not end
 * the region.
 */
struct xm_waitq { spinlock_t lock; };
struct xm_ev { struct xm_waitq waitq; int len; };
struct xm_st { spinlock_t lock; int n; };
struct xm_data { struct xm_ev ev; struct xm_st st; void *req; struct completion done; };

static int xm_queue_wait(struct xm_data *ffs, char *data)
{
	if (!ffs->req) {
		spin_unlock_irq(&ffs->ev.waitq.lock);
		return -EINVAL;
	}
	ffs->ev.len = 0;
	spin_unlock_irq(&ffs->ev.waitq.lock);
	return wait_for_completion_interruptible(&ffs->done);
}

int xm_read(struct xm_data *ffs, char __user *buf, char *data)
{
	int ret;

	spin_lock_irq(&ffs->ev.waitq.lock);
	/* unlocks spinlock */
	ret = xm_queue_wait(ffs, data);
	if (ret > 0 && copy_to_user(buf, data, ret))
		ret = -EFAULT;
	return ret;
}

static void xm_st_drop(struct xm_data *d)
{
	d->st.n = 0;
	spin_unlock(&d->st.lock);
}

void xm_depth2(struct xm_data *d)
{
	spin_lock(&d->st.lock);
	xm_st_drop(d);
	msleep(1);
}

static void xm_st_relax(struct xm_data *d)
{
	spin_unlock(&d->st.lock);
	cpu_relax();
	spin_lock(&d->st.lock);
}

void xm_keeps(struct xm_data *d)
{
	spin_lock(&d->st.lock);
	xm_st_relax(d);
	msleep(1);
	spin_unlock(&d->st.lock);
}

void xm_other(struct xm_data *a, struct xm_data *b)
{
	spin_lock(&a->st.lock);
	xm_st_drop(b);
	msleep(1);
	spin_unlock(&a->st.lock);
}

void xm_skips(struct xm_data *d, int fast)
{
	spin_lock(&d->st.lock);
	if (fast)
		xm_st_drop(d);
	msleep(1);
	if (!fast)
		spin_unlock(&d->st.lock);
}
/*
 * check-output-start
helper-release-member.c:64: sleeping call 'msleep' while holding 'd->st.lock' (taken at line 62)
helper-release-member.c:72: sleeping call 'msleep' while holding 'a->st.lock' (taken at line 70)
helper-release-member.c:81: sleeping call 'msleep' while holding 'd->st.lock' (taken at line 78)
 * check-output-end
 */
