// SPDX-License-Identifier: GPL-2.0-only
/*
 * dwc2_hsotg_core_init_disconnected() calls dwc2_core_reset(hsotg, true)
 * (7.2.13 drivers/usb/dwc2/gadget.c:3397) and is called under hsotg->lock
 * (gadget.c:3763 and four more): skip_wait is set, the wait is not made,
 * no finding. A function that passes false, or its own parameter, still
 * sleeps under the lock.
 */
struct xp { spinlock_t lock; bool host; };

int xp_core_reset(struct xp *h, bool skip_wait);

static void xp_core_init_disconnected(struct xp *h, bool is_usb_reset)
{
	if (!is_usb_reset) {
		if (xp_core_reset(h, true))
			return;
	}
	xp_writel(h, 2);
}

static void xp_core_init_waiting(struct xp *h)
{
	xp_core_reset(h, false);
}

void xp_udc_start(struct xp *h, bool skip)
{
	unsigned long flags;

	spin_lock_irqsave(&h->lock, flags);
	xp_core_init_disconnected(h, false);
	xp_core_init_waiting(h);
	xp_core_reset(h, skip);
	spin_unlock_irqrestore(&h->lock, flags);
}
/*
 * check-output-start
xparam-gadget.c:33: sleeping call 'xp_core_init_waiting' while holding 'h->lock' (taken at line 31) via 'xp_core_init_waiting' -> 'xp_core_reset' -> 'xp_wait_for_mode' (xparam-core.c:22) -> 'usleep_range' (xparam-core.c:11)
xparam-gadget.c:34: sleeping call 'xp_core_reset' while holding 'h->lock' (taken at line 31) via 'xp_core_reset' -> 'xp_wait_for_mode' (xparam-core.c:22) -> 'usleep_range' (xparam-core.c:11)
 * check-output-end
 */
