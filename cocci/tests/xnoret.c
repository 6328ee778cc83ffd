/*
 * A call that reaches a sleep only inside a function that does not
 * return (__noreturn: panic(), do_exit()) is not a sleeper: that path
 * ends the kernel or the task. xn_taint() is not reported; xn_wait(),
 * which sleeps before its call of xn_die(), is.
 */
#include "xnoret.h"

static void xn_wait(struct xn *x)
{
	mutex_lock(&x->m);
	mutex_unlock(&x->m);
	xn_die("done");
}

void xn_use(struct xn *x, int bad)
{
	spin_lock(&x->lock);
	xn_taint(bad);
	if (bad)
		xn_wait(x);
	spin_unlock(&x->lock);
}
/*
 * check-output-start
xnoret.c:21: sleeping call 'xn_wait' while holding 'x->lock' (taken at line 18) via 'xn_wait' -> 'mutex_lock'
 * check-output-end
 */
