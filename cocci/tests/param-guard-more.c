// SPDX-License-Identifier: GPL-2.0-only
/*
 * Parameter guards read through a named constant, a bit test and a
 * parameter passed on (param-guard.c has the plain forms): the first
 * three callees were known false positives of known-conditional.c.
 * Negative cases first (no finding under the lock of xk_free() and
 * xm_quiet()), then the positive ones (xm_kept(): each may sleep, or
 * is not known not to). The cross-file forms are xparam-chain-a.c and
 * xparam-chain-b.c.
 */
#include "xparam-more.h"

struct xk_info { spinlock_t global_lock; };
struct xm { spinlock_t lock; int force; };

#define XK_NOWAIT 1
#define XM_ATOMIC (1U)
#define XM_WAIT 0
#define XM_BIT2 0x4UL

static void xk_wait(struct xk_info *si, unsigned int flags)
{
	if (flags & XK_NOWAIT)
		return;
	msleep(1);
}

static void xk_flush(struct xk_info *si, int nowait)
{
	if (nowait)
		return;
	msleep(1);
}

static void xk_flush_outer(struct xk_info *si, int nowait)
{
	xk_flush(si, nowait);
}

void xk_free(struct xk_info *si)
{
	spin_lock(&si->global_lock);
	xk_wait(si, XK_NOWAIT);
	xk_flush(si, XK_NOWAIT);
	xk_flush_outer(si, 1);
	spin_unlock(&si->global_lock);
}

/* the other bit tests: !(p & M), (p & M) == 0, (p & M) != 0, M & p */
static void xm_bit_not(struct xm *a, unsigned int flags)
{
	if (!(flags & 2))
		msleep(2);
}

static void xm_bit_eq(struct xm *a, unsigned int flags)
{
	if ((flags & XM_BIT2) == 0)
		msleep(3);
}

static void xm_bit_ne(struct xm *a, unsigned long flags)
{
	if ((flags & 0x8) != 0)
		return;
	msleep(4);
}

static void xm_bit_left(struct xm *a, unsigned int flags)
{
	if (XK_NOWAIT & flags)
		return;
	msleep(5);
}

static void xm_bit_set(struct xm *a, unsigned int flags)
{
	if (likely(flags & 16))
		msleep(6);
}

/* a bool tested with a mask: its value is 0 or 1 */
static void xm_bool_bit(struct xm *a, bool atomic)
{
	if (atomic & 1)
		return;
	msleep(7);
}

static void xm_delay(struct xm *a, bool atomic)
{
	if (atomic)
		return;
	msleep(8);
}

/* passed on: two levels, to a bool, at another position */
static void xm_outer2(struct xk_info *si, int nowait)
{
	xk_flush_outer(si, nowait);
}

static void xm_delay_outer(struct xm *a, int n)
{
	xm_delay(a, n);
}

static void xm_pair(struct xm *a, int wait, int nowait)
{
	if (nowait)
		return;
	msleep(9);
}

static void xm_pair_swapped(struct xm *a, int nowait, int wait)
{
	xm_pair(a, wait, nowait);
}

/* given bare to a function first: a function cannot assign it */
static void xm_note(int n)
{
	xm_log(n + 1);
}

static void xm_flush_fn(struct xk_info *si, int nowait)
{
	xm_note(nowait);
	xk_flush(si, nowait);
}

/* the caller's own test and the callee's guard together */
static void xm_both(struct xm *a, int nowait, bool now)
{
	if (now)
		xk_flush((struct xk_info *)a, nowait);
}

void xm_quiet(struct xm *a, struct xk_info *si)
{
	spin_lock(&a->lock);
	xm_bit_not(a, 2);
	xm_bit_eq(a, XM_BIT2);
	xm_bit_ne(a, 8);
	xm_bit_left(a, 3);
	xm_bit_set(a, 0);
	xm_bool_bit(a, true);
	xm_delay(a, XM_ATOMIC);
	xm_outer2(si, 1);
	xm_delay_outer(a, 5);
	xm_pair_swapped(a, 1, 0);
	xm_both(a, 0, false);
	xm_both(a, XK_NOWAIT, true);
	xm_flush_fn(si, 1);
	spin_unlock(&a->lock);
}

/*
 * Still reported: a constant defined in a header only, defined twice,
 * #undef'd, tested by #ifndef (a header may give it first), defined
 * after the call, an expression, an enumerator; a mask the literal does
 * not match; the constant that lets it sleep; a passed-on parameter that
 * the intermediate function modifies or gives to a name with no
 * definition or to a macro of this file that hides a function of the
 * same name (a macro may assign it), or passes at a position the guard
 * does not test.
 */
#ifdef CONFIG_XM_FAST
#define XM_TWICE 1
#else
#define XM_TWICE 0
#endif
#define XM_UNDEF 1
#undef XM_UNDEF
#define XM_UNDEF 1
#ifndef XM_DFLT
#define XM_DFLT 1
#endif
#define XM_EXPR (1 << 0)
enum { XM_ENUM_NOWAIT = 1 };
#define xm_touch(x) ((x) = 0)

static void xm_flush_mod(struct xk_info *si, int nowait)
{
	if (si->global_lock.x)
		nowait = 0;
	xk_flush(si, nowait);
}

static void xm_flush_macro(struct xk_info *si, int nowait)
{
	XM_CHECK(nowait);
	xk_flush(si, nowait);
}

static void xm_flush_touch(struct xk_info *si, int nowait)
{
	xm_touch(nowait);
	xk_flush(si, nowait);
}

static void xm_flush_other(struct xk_info *si, int nowait)
{
	xm_pair((struct xm *)si, nowait, 0);
}

void xm_kept(struct xm *a, struct xk_info *si, int v)
{
	spin_lock(&a->lock);
	xk_flush(si, XM_HDR_NOWAIT);
	xk_flush(si, XM_TWICE);
	xk_flush(si, XM_UNDEF);
	xk_flush(si, XM_DFLT);
	xk_flush(si, XM_LATE);
	xk_flush(si, XM_EXPR);
	xk_flush(si, XM_ENUM_NOWAIT);
	xk_flush(si, XM_WAIT);
	xk_wait(si, 2);
	xm_bit_eq(a, 3);
	xm_bool_bit(a, false);
	xk_flush_outer(si, 0);
	xm_outer2(si, v);
	xm_delay_outer(a, 0);
	xm_pair_swapped(a, 0, 1);
	xm_both(a, 0, true);
	xm_flush_mod(si, 1);
	xm_flush_macro(si, 1);
	xm_flush_touch(si, 1);
	xm_flush_other(si, 1);
	spin_unlock(&a->lock);
}
#define XM_LATE 1
/*
 * check-output-start
param-guard-more.c:210: sleeping call 'xk_flush' while holding 'a->lock' (taken at line 209) via 'xk_flush' -> 'msleep'
param-guard-more.c:211: sleeping call 'xk_flush' while holding 'a->lock' (taken at line 209) via 'xk_flush' -> 'msleep'
param-guard-more.c:212: sleeping call 'xk_flush' while holding 'a->lock' (taken at line 209) via 'xk_flush' -> 'msleep'
param-guard-more.c:213: sleeping call 'xk_flush' while holding 'a->lock' (taken at line 209) via 'xk_flush' -> 'msleep'
param-guard-more.c:214: sleeping call 'xk_flush' while holding 'a->lock' (taken at line 209) via 'xk_flush' -> 'msleep'
param-guard-more.c:215: sleeping call 'xk_flush' while holding 'a->lock' (taken at line 209) via 'xk_flush' -> 'msleep'
param-guard-more.c:216: sleeping call 'xk_flush' while holding 'a->lock' (taken at line 209) via 'xk_flush' -> 'msleep'
param-guard-more.c:217: sleeping call 'xk_flush' while holding 'a->lock' (taken at line 209) via 'xk_flush' -> 'msleep'
param-guard-more.c:218: sleeping call 'xk_wait' while holding 'a->lock' (taken at line 209) via 'xk_wait' -> 'msleep'
param-guard-more.c:219: sleeping call 'xm_bit_eq' while holding 'a->lock' (taken at line 209) via 'xm_bit_eq' -> 'msleep'
param-guard-more.c:220: sleeping call 'xm_bool_bit' while holding 'a->lock' (taken at line 209) via 'xm_bool_bit' -> 'msleep'
param-guard-more.c:221: sleeping call 'xk_flush_outer' while holding 'a->lock' (taken at line 209) via 'xk_flush_outer' -> 'xk_flush' -> 'msleep'
param-guard-more.c:222: sleeping call 'xm_outer2' while holding 'a->lock' (taken at line 209) via 'xm_outer2' -> 'xk_flush_outer' -> 'xk_flush' -> 'msleep'
param-guard-more.c:223: sleeping call 'xm_delay_outer' while holding 'a->lock' (taken at line 209) via 'xm_delay_outer' -> 'xm_delay' -> 'msleep'
param-guard-more.c:224: sleeping call 'xm_pair_swapped' while holding 'a->lock' (taken at line 209) via 'xm_pair_swapped' -> 'xm_pair' -> 'msleep'
param-guard-more.c:225: sleeping call 'xm_both' while holding 'a->lock' (taken at line 209) via 'xm_both' -> 'xk_flush' -> 'msleep'
param-guard-more.c:226: sleeping call 'xm_flush_mod' while holding 'a->lock' (taken at line 209) via 'xm_flush_mod' -> 'xk_flush' -> 'msleep'
param-guard-more.c:227: sleeping call 'xm_flush_macro' while holding 'a->lock' (taken at line 209) via 'xm_flush_macro' -> 'xk_flush' -> 'msleep'
param-guard-more.c:228: sleeping call 'xm_flush_touch' while holding 'a->lock' (taken at line 209) via 'xm_flush_touch' -> 'xk_flush' -> 'msleep'
param-guard-more.c:229: sleeping call 'xm_flush_other' while holding 'a->lock' (taken at line 209) via 'xm_flush_other' -> 'xm_pair' -> 'msleep'
 * check-output-end
 */
