/*
 * Header functions, false positives seen on 7.2.13 drivers/usb: the
 * xh_conv() of the header this file includes does not sleep (another
 * header's one does); xh_read() is followed by a macro that calls
 * msleep(), which is not its body.
 */
#include "xheaders-b.h"

struct xh { spinlock_t lock; int v; };

int xh_user(struct xh *x)
{
	int v;

	spin_lock(&x->lock);
	v = xh_conv(x) + xh_read(x) + xh_after(x);
	spin_unlock(&x->lock);
	return v;
}
/*
 * check-output-start
 * check-output-end
 */
