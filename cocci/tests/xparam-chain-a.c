// SPDX-License-Identifier: GPL-2.0-only
/*
 * The callees of xparam-chain-b.c, in another file: xc_flush() sleeps
 * only when nowait is false, xc_flush_outer() passes its own nowait on
 * to it, xc_submit() sleeps only when flags lacks XC_F_ATOMIC (a named
 * constant of this file).
 */
struct xc { spinlock_t lock; };

#define XC_F_ATOMIC 0x4

static int xc_flush(struct xc *c, bool nowait)
{
	if (nowait)
		return 0;
	msleep(1);
	return 0;
}

int xc_flush_outer(struct xc *c, bool nowait)
{
	return xc_flush(c, nowait);
}

int xc_submit(struct xc *c, unsigned int flags)
{
	if (!(flags & XC_F_ATOMIC))
		msleep(2);
	return 0;
}
/*
 * check-output-start
 * check-output-end
 */
