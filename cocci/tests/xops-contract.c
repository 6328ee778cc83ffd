/*
 * An ops member whose implementations must not sleep by contract
 * (cocci/atomic-ops.txt: usb_ep_ops.dequeue, "may be called in interrupt
 * context"): one implementation sleeps anyway (as renesas_usbhs'
 * usbhsg_ep_dequeue() reaches dmaengine_terminate_sync() on 7.2.13), but
 * its callers are not sleepers through the member: 13 false positives
 * of the drivers/usb triage (f_fs.c, u_ether.c, u_serial.c, f_phonet.c,
 * the UDCs calling usb_gadget_udc_reset()). The implementation's own
 * sleep under its own lock is still reported (slow_dequeue()).
 */
struct usb_ep;
struct usb_ep_ops { int (*dequeue)(struct usb_ep *ep); };
struct usb_ep { spinlock_t lock; const struct usb_ep_ops *ops; };

static int slow_dequeue(struct usb_ep *ep)
{
	spin_lock(&ep->lock);
	msleep(1);
	spin_unlock(&ep->lock);
	return 0;
}

static const struct usb_ep_ops slow_ops = {
	.dequeue = slow_dequeue,
};

static int ep_dequeue(struct usb_ep *ep)
{
	return ep->ops->dequeue(ep);
}

struct fn_dev { spinlock_t lock; struct usb_ep *ep; };

void fn_stop(struct fn_dev *d)
{
	spin_lock(&d->lock);
	ep_dequeue(d->ep);
	spin_unlock(&d->lock);
}
/*
 * check-output-start
xops-contract.c:18: sleeping call 'msleep' while holding 'ep->lock' (taken at line 17)
 * check-output-end
 */
