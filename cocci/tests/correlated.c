// SPDX-License-Identifier: GPL-2.0-only
/*
 * Correlated conditions: a lock taken and dropped under the same test of
 * a parameter or local that cannot change between them (cocci/sleepcorr.py).
 * The path that takes the lock and skips the unlock is infeasible, and
 * not reported; what the lock really covers still is.
 * Modelled on 7.2.13 mm/khugepaged.c retract_page_tables() (ptl != pml,
 * in a loop; ptl assigned each round before the lock: rule B) and
 * drivers/char/ipmi/ipmi_msghandler.c handle_new_recv_msgs() (a local
 * copy of run_to_completion, never assigned again: rule A).
 */
struct xr_msg { struct list_head link; };
struct xr_intf { spinlock_t lock; struct list_head msgs; int rtc; };

/* rule A: parameters, never modified */
void xr_retract(spinlock_t *pml, spinlock_t *ptl)
{
	spin_lock(pml);
	if (ptl != pml)
		spin_lock_nested(ptl, SINGLE_DEPTH_NESTING);
	xr_collapse();
	if (ptl != pml)
		spin_unlock(ptl);
	spin_unlock(pml);
	might_sleep();
}

/* rule A: a local, set once; the lock dropped around the sleeper */
void xr_handle(struct xr_intf *intf)
{
	unsigned long flags = 0;
	int rtc = READ_ONCE(intf->rtc);
	struct xr_msg *m;

	if (!rtc)
		spin_lock_irqsave(&intf->lock, flags);
	while (!list_empty(&intf->msgs)) {
		m = list_first_entry(&intf->msgs, struct xr_msg, link);
		list_del(&m->link);
		if (!rtc)
			spin_unlock_irqrestore(&intf->lock, flags);
		msleep(1);
		if (!rtc)
			spin_lock_irqsave(&intf->lock, flags);
	}
	if (!rtc)
		spin_unlock_irqrestore(&intf->lock, flags);
	might_sleep();
}

/* rule B: assigned in the loop, but not while the lock may be held */
void xr_loop(struct xr_intf *intf, spinlock_t *pml, int n)
{
	spinlock_t *ptl;
	int i;

	for (i = 0; i < n; i++) {
		might_sleep();
		spin_lock(pml);
		ptl = xr_lockptr(intf, i);
		if (ptl != pml) {
			spin_lock_nested(ptl, SINGLE_DEPTH_NESTING);
		}
		xr_collapse(intf);
		if (ptl != pml)
			spin_unlock(ptl);
		spin_unlock(pml);
	}
}

/* still reported: a sleep while the lock is held, on the path where it is */
void xr_real(spinlock_t *pml, spinlock_t *ptl)
{
	if (ptl != pml)
		spin_lock(ptl);
	msleep(1);
	if (ptl != pml)
		spin_unlock(ptl);
}

/* still reported: the condition's variable changes while the lock is held */
void xr_changed(spinlock_t *l, int a)
{
	if (a)
		spin_lock(l);
	a = xr_next(a);
	if (a)
		spin_unlock(l);
	might_sleep();
}

/* still reported: a member can change behind the function's back */
void xr_member(struct xr_intf *intf)
{
	if (intf->rtc)
		spin_lock(&intf->lock);
	xr_collapse(&intf->lock);
	if (intf->rtc)
		spin_unlock(&intf->lock);
	might_sleep();
}

/* still reported: two different tests */
void xr_differ(spinlock_t *l, int a, int b)
{
	if (a)
		spin_lock(l);
	if (b)
		spin_unlock(l);
	might_sleep();
}

/* still reported: one unlock is not under the test */
void xr_unguarded(spinlock_t *l, int a, int b)
{
	if (a)
		spin_lock(l);
	if (b) {
		spin_unlock(l);
		return;
	}
	if (a)
		spin_unlock(l);
	might_sleep();
}

/* still reported: rule B, but a jump between the lock and the unlock */
void xr_jump(spinlock_t *l, struct xr_intf *intf, int n)
{
	int a;

	while (n--) {
		a = xr_next(n);
		if (a)
			spin_lock(l);
		if (xr_done(intf))
			continue;
		if (a)
			spin_unlock(l);
	}
	might_sleep();
}

/* still reported: the variable is given bare to a macro-like call */
void xr_macro(spinlock_t *l, int a)
{
	if (a)
		spin_lock(l);
	xr_frob(a);
	if (a)
		spin_unlock(l);
	might_sleep();
}

/* still reported: a global may change under the function */
extern int xr_global;

void xr_global_test(spinlock_t *l)
{
	if (xr_global)
		spin_lock(l);
	xr_collapse(l);
	if (xr_global)
		spin_unlock(l);
	might_sleep();
}
/*
 * check-output-start
correlated.c:76: sleeping call 'msleep' while holding 'ptl' (taken at line 75)
correlated.c:89: sleeping call 'might_sleep' while holding 'l' (taken at line 85)
correlated.c:100: sleeping call 'might_sleep' while holding 'intf->lock' (taken at line 96)
correlated.c:110: sleeping call 'might_sleep' while holding 'l' (taken at line 107)
correlated.c:124: sleeping call 'might_sleep' while holding 'l' (taken at line 117)
correlated.c:141: sleeping call 'might_sleep' while holding 'l' (taken at line 135)
correlated.c:152: sleeping call 'might_sleep' while holding 'l' (taken at line 148)
correlated.c:165: sleeping call 'might_sleep' while holding 'l' (taken at line 161)
 * check-output-end
 */
