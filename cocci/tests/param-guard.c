// SPDX-License-Identifier: GPL-2.0-only
/*
 * A callee that sleeps only when a test of one of its own parameters,
 * never modified, holds, called under a spinlock with a literal constant
 * that rules the test out: no finding. Called with a variable or the
 * constant that lets it sleep: a finding. Modelled on 7.2.13
 * drivers/usb/dwc2 dwc2_core_reset(hsotg, skip_wait) (`if
 * (wait_for_host_mode && !skip_wait) dwc2_wait_for_mode(...)`, which
 * usleep_range()s), called with true under hsotg->lock through
 * dwc2_hsotg_core_init_disconnected() (the same-file forms here, the
 * cross-file one in xparam-core.c and xparam-gadget.c).
 * Forms: a conjunct `!p`, an early return, if/else on a bool, a NULL
 * test, `p == 2`, through a function that passes the constant.
 */
struct xg { spinlock_t lock; bool host; int skip; };
struct xg_req { struct completion done; };

static void xg_wait_for_mode(struct xg *a)
{
	usleep_range(1000, 2000);
}

static int xg_reset(struct xg *a, bool skip_wait)
{
	bool wait_for_host = a->host;

	xg_write(a, 1);
	if (wait_for_host && !skip_wait)
		xg_wait_for_mode(a);
	return 0;
}

static void xg_flush(struct xg *a, int nowait)
{
	if (nowait)
		return;
	msleep(1);
}

static void xg_delay(struct xg *a, bool atomic)
{
	if (atomic)
		udelay(10);
	else
		usleep_range(10, 20);
}

static void xg_finish(struct xg *a, struct xg_req *req)
{
	if (req)
		wait_for_completion(&req->done);
}

static void xg_mode(struct xg *a, int mode)
{
	if (mode == 2)
		msleep(2);
}

static void xg_init(struct xg *a)
{
	xg_write(a, 0);
	xg_reset(a, true);
}

static void xg_init_wait(struct xg *a)
{
	xg_reset(a, false);
}

void xg_callers(struct xg *a, bool skip, struct xg_req *req)
{
	spin_lock(&a->lock);
	xg_reset(a, true);
	xg_flush(a, 1);
	xg_delay(a, true);
	xg_finish(a, NULL);
	xg_mode(a, 1);
	xg_init(a);
	spin_unlock(&a->lock);

	spin_lock(&a->lock);
	xg_reset(a, false);
	xg_reset(a, skip);
	xg_reset(a, a->skip);
	xg_flush(a, 0);
	xg_delay(a, false);
	xg_finish(a, req);
	xg_mode(a, 2);
	xg_init_wait(a);
	spin_unlock(&a->lock);
}

/*
 * Not ruled out, and rightly (each may sleep with that argument): the
 * parameter is modified before its test (by an assignment, or by a
 * macro it is given to), the callee sleeps before the test, a goto
 * jumps past the test, the test depends on the configuration.
 */
static void xg_modified(struct xg *a, int wait)
{
	if (!wait)
		wait = a->skip;
	if (wait)
		msleep(3);
}

static void xg_early(struct xg *a, bool skip)
{
	might_sleep();
	if (skip)
		return;
	msleep(4);
}

static void xg_swapped(struct xg *a, int skip)
{
	swap(skip, a->skip);
	if (skip)
		return;
	msleep(5);
}

static void xg_jump(struct xg *a, bool skip)
{
	if (a->host)
		goto again;
	if (skip)
		return;
again:
	msleep(6);
}

static void xg_config(struct xg *a, bool skip)
{
#ifdef CONFIG_XG_FAST
	if (skip)
		return;
#endif
	msleep(7);
}

void xg_kept(struct xg *a)
{
	spin_lock(&a->lock);
	xg_modified(a, 0);
	xg_early(a, true);
	xg_swapped(a, 1);
	xg_jump(a, true);
	xg_config(a, true);
	spin_unlock(&a->lock);
}
/*
 * check-output-start
param-guard.c:83: sleeping call 'xg_reset' while holding 'a->lock' (taken at line 82) via 'xg_reset' -> 'xg_wait_for_mode' -> 'usleep_range'
param-guard.c:84: sleeping call 'xg_reset' while holding 'a->lock' (taken at line 82) via 'xg_reset' -> 'xg_wait_for_mode' -> 'usleep_range'
param-guard.c:85: sleeping call 'xg_reset' while holding 'a->lock' (taken at line 82) via 'xg_reset' -> 'xg_wait_for_mode' -> 'usleep_range'
param-guard.c:86: sleeping call 'xg_flush' while holding 'a->lock' (taken at line 82) via 'xg_flush' -> 'msleep'
param-guard.c:87: sleeping call 'xg_delay' while holding 'a->lock' (taken at line 82) via 'xg_delay' -> 'usleep_range'
param-guard.c:88: sleeping call 'xg_finish' while holding 'a->lock' (taken at line 82) via 'xg_finish' -> 'wait_for_completion'
param-guard.c:89: sleeping call 'xg_mode' while holding 'a->lock' (taken at line 82) via 'xg_mode' -> 'msleep'
param-guard.c:90: sleeping call 'xg_init_wait' while holding 'a->lock' (taken at line 82) via 'xg_init_wait' -> 'xg_reset' -> 'xg_wait_for_mode' -> 'usleep_range'
param-guard.c:146: sleeping call 'xg_modified' while holding 'a->lock' (taken at line 145) via 'xg_modified' -> 'msleep'
param-guard.c:147: sleeping call 'xg_early' while holding 'a->lock' (taken at line 145) via 'xg_early' -> 'might_sleep'
param-guard.c:148: sleeping call 'xg_swapped' while holding 'a->lock' (taken at line 145) via 'xg_swapped' -> 'msleep'
param-guard.c:149: sleeping call 'xg_jump' while holding 'a->lock' (taken at line 145) via 'xg_jump' -> 'msleep'
param-guard.c:150: sleeping call 'xg_config' while holding 'a->lock' (taken at line 145) via 'xg_config' -> 'msleep'
 * check-output-end
 */
