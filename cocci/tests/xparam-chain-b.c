// SPDX-License-Identifier: GPL-2.0-only
/*
 * Calls under a spinlock of xparam-chain-a.c's functions: a named
 * constant of this file, a parameter of this file passed on through
 * xc_flush_outer() to xc_flush(), a mask of the callee's file. No
 * finding for the ones that rule the sleep out; the literal or
 * parameter that lets it sleep, and an expression, are still reported.
 */
struct xc { spinlock_t lock; };

#define XC_NOWAIT true
#define XC_F_ATOMIC 0x4

int xc_flush_outer(struct xc *c, bool nowait);
int xc_submit(struct xc *c, unsigned int flags);

static void xc_sync(struct xc *c, int nowait)
{
	xc_flush_outer(c, nowait);
}

void xc_callers(struct xc *c, int v)
{
	spin_lock(&c->lock);
	xc_flush_outer(c, XC_NOWAIT);
	xc_sync(c, 1);
	xc_submit(c, 4);
	xc_submit(c, XC_F_ATOMIC);
	spin_unlock(&c->lock);

	spin_lock(&c->lock);
	xc_flush_outer(c, false);
	xc_sync(c, v);
	xc_submit(c, 1);
	xc_submit(c, XC_F_ATOMIC | 1);
	spin_unlock(&c->lock);
}
/*
 * check-output-start
xparam-chain-b.c:32: sleeping call 'xc_flush_outer' while holding 'c->lock' (taken at line 31) via 'xc_flush_outer' -> 'xc_flush' (xparam-chain-a.c:22) -> 'msleep' (xparam-chain-a.c:16)
xparam-chain-b.c:33: sleeping call 'xc_sync' while holding 'c->lock' (taken at line 31) via 'xc_sync' -> 'xc_flush_outer' -> 'xc_flush' (xparam-chain-a.c:22) -> 'msleep' (xparam-chain-a.c:16)
xparam-chain-b.c:34: sleeping call 'xc_submit' while holding 'c->lock' (taken at line 31) via 'xc_submit' -> 'msleep' (xparam-chain-a.c:28)
xparam-chain-b.c:35: sleeping call 'xc_submit' while holding 'c->lock' (taken at line 31) via 'xc_submit' -> 'msleep' (xparam-chain-a.c:28)
 * check-output-end
 */
