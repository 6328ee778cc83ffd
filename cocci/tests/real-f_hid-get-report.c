/*
 * Modelled on 7.2.13 drivers/usb/gadget/function/f_hid.c
 * f_hidg_get_report() (cocci/TRIAGE.md): the "report already exists"
 * branch copies from user space again, with get_report_spinlock held
 * (irqsave). Upstream fix: not verified (none found in the stored code).
 */
struct f_hidg { spinlock_t get_report_spinlock; struct list_head report_list; };
struct report_entry { struct usb_hidg_report report_data; struct list_head node; };

static struct report_entry *f_hidg_search_for_report(struct f_hidg *hidg, u8 id);

static int f_hidg_get_report(struct f_hidg *hidg, struct usb_hidg_report __user *buffer)
{
	unsigned long flags;
	struct report_entry *entry, *ptr;

	entry = kmalloc_obj(*entry);
	if (!entry)
		return -ENOMEM;
	if (copy_from_user(&entry->report_data, buffer, sizeof(*buffer))) {
		kfree(entry);
		return -EINVAL;
	}

	spin_lock_irqsave(&hidg->get_report_spinlock, flags);
	ptr = f_hidg_search_for_report(hidg, entry->report_data.report_id);
	if (ptr) {
		if (copy_from_user(&ptr->report_data, buffer, sizeof(*buffer))) {
			spin_unlock_irqrestore(&hidg->get_report_spinlock, flags);
			kfree(entry);
			return -EINVAL;
		}
		kfree(entry);
	} else {
		list_add_tail(&entry->node, &hidg->report_list);
	}
	spin_unlock_irqrestore(&hidg->get_report_spinlock, flags);
	return 0;
}
/*
 * check-output-start
real-f_hid-get-report.c:28: sleeping call 'copy_from_user' while holding 'hidg->get_report_spinlock' (taken at line 25)
 * check-output-end
 */
