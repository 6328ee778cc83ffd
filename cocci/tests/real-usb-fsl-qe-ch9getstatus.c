/*
 * Modelled on 7.2.13 drivers/usb/gadget/udc/fsl_qe_udc.c (cocci/TRIAGE.md):
 * the interrupt handler holds udc->lock; on a GET_STATUS setup packet
 * ch9getstatus() allocates a request with GFP_KERNEL, the allocation
 * nested in a container_of() argument. Upstream fix: not searched.
 */
struct qe_req { struct usb_request req; };
struct qe_udc { spinlock_t lock; struct usb_ep *ep0; };

static struct usb_request *qe_alloc_request(struct usb_ep *_ep, gfp_t gfp_flags)
{
	struct qe_req *req;

	req = kzalloc_obj(*req, gfp_flags);
	if (!req)
		return NULL;
	return &req->req;
}

static void ch9getstatus(struct qe_udc *udc)
{
	struct qe_req *req;

	req = container_of(qe_alloc_request(udc->ep0, GFP_KERNEL),
			   struct qe_req, req);
	req->req.length = 2;
}

static void rx_irq(struct qe_udc *udc)
{
	ch9getstatus(udc);
}

static irqreturn_t qe_udc_irq(int irq, void *_udc)
{
	struct qe_udc *udc = _udc;
	unsigned long flags;

	spin_lock_irqsave(&udc->lock, flags);
	rx_irq(udc);
	spin_unlock_irqrestore(&udc->lock, flags);
	return IRQ_HANDLED;
}
/*
 * The chain ends at 'qe_alloc_request', the allocating call inside the
 * container_of() argument (the rules read call arguments from the
 * source, so the macro is not taken for the callee).
 * check-output-start
real-usb-fsl-qe-ch9getstatus.c:40: sleeping call 'rx_irq' while holding 'udc->lock' (taken at line 39) via 'rx_irq' -> 'ch9getstatus' -> 'qe_alloc_request'
 * check-output-end
 */
