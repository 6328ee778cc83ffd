/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A named constant defined in a header: not read (param-guard-more.c
 * calls xk_flush() with it and is reported). A function that
 * param-guard-more.c hides behind a macro of the same name.
 */
#define XM_HDR_NOWAIT 1

static inline void xm_touch(int x)
{
}
