// SPDX-License-Identifier: GPL-2.0-only
/*
 * The callee of xparam-gadget.c, in another file: sleeps only when
 * skip_wait is false (7.2.13 drivers/usb/dwc2/core.c dwc2_core_reset()).
 */
struct xp { spinlock_t lock; bool host; };

static void xp_wait_for_mode(struct xp *h, bool host_mode)
{
	while (xp_mode(h) != host_mode)
		usleep_range(1000, 2000);
}

int xp_core_reset(struct xp *h, bool skip_wait)
{
	bool wait_for_host_mode = false;

	if (xp_iddig(h))
		wait_for_host_mode = true;
	xp_writel(h, 1);
	if (wait_for_host_mode && !skip_wait)
		xp_wait_for_mode(h, true);
	return 0;
}
/*
 * check-output-start
 * check-output-end
 */
