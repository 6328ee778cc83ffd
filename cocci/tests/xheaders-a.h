/*
 * Two headers with a static inline of the same name (as ehci.h and
 * ohci.h both have hc32_to_cpup()): this one sleeps, xheaders-b.h's does
 * not; xheaders.c includes xheaders-b.h only. After xh_read(), a macro
 * calls a sleeper: it is no part of xh_read() (a definition ends at its
 * closing brace, not at the next one).
 */
struct xh;

static inline int xh_read(struct xh *x)
{
	return x->v;
}

#define xh_dbg(x) xh_wait_dbg(x, msleep(1))

static inline int xh_conv(struct xh *x)
{
	msleep(1);
	return x->v;
}

static inline int xh_after(struct xh *x)
{
	return x->v;
}
