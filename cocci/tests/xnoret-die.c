/*
 * xn_die() does not return; on its way it may sleep (vpanic() ->
 * console_unblank() -> console_lock() in the whole-tree run: 91 of the
 * lines on drivers/block and drivers/char went kfree() -> ... ->
 * bad_page() -> add_taint() -> panic()). xn_taint() calls it, as
 * add_taint() calls panic() under panic_on_taint.
 */
#include "xnoret.h"

void xn_die(const char *fmt, ...)
{
	msleep(10);
	for (;;)
		;
}

void xn_taint(int flag)
{
	if (flag)
		xn_die("tainted");
}
/*
 * check-output-start
 * check-output-end
 */
