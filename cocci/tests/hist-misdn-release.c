/*
 * History: commit 6510e80a0b81b5d814e3aea6297ba42f5e76f73c ("isdn: mISDN:
 * Fix sleeping function called from invalid context"), Zheyu Ma, 2021.
 * Verified: the stable AUTOSEL mail "[PATCH AUTOSEL 4.4 4/7] isdn: mISDN:
 * Fix sleeping function called from invalid context" (netdev, 2021-10-21,
 * public mailing-list archive) quotes "[ Upstream commit
 * 6510e80a0b81b5d814e3aea6297ba42f5e76f73c ]", the "BUG: sleeping function
 * called from invalid context at kernel/workqueue.c" trace (flush_work <-
 * mISDN_freedchannel <- isac_release <- nj_release) and the diff in
 * drivers/isdn/hardware/mISDN/netjet.c; other stable shortlogs list the same
 * id with the same subject.
 *
 * The shape (not the driver's code): nj_release() calls the ISAC release
 * (card->isac.release(), which flushes a work item: mISDN_freedchannel() ->
 * flush_work()) inside spin_lock_irqsave(&card->lock); the fix moves the
 * call after spin_unlock_irqrestore(). The rule does not follow function
 * pointers, so the release is a direct call of a function of this file
 * here; flush_work() is in cocci/sleepers.txt.
 */
struct isac { struct work_struct work; };
struct card { spinlock_t lock; struct isac isac; unsigned long base; int base_s; };

static void freedchannel(struct isac *isac)
{
	flush_work(&isac->work);
}

static void isac_release(struct isac *isac)
{
	freedchannel(isac);
}

void nj_release_old(struct card *card)
{
	unsigned long flags;

	if (card->base_s) {
		spin_lock_irqsave(&card->lock, flags);
		disable_hwirq(card);
		isac_release(&card->isac);
		spin_unlock_irqrestore(&card->lock, flags);
		release_region(card->base, card->base_s);
		card->base_s = 0;
	}
}

void nj_release(struct card *card)
{
	unsigned long flags;

	if (card->base_s) {
		spin_lock_irqsave(&card->lock, flags);
		disable_hwirq(card);
		spin_unlock_irqrestore(&card->lock, flags);
		isac_release(&card->isac);
		release_region(card->base, card->base_s);
		card->base_s = 0;
	}
}
/*
 * check-output-start
hist-misdn-release.c:40: sleeping call 'isac_release' while holding 'card->lock' (taken at line 38) via 'isac_release' -> 'freedchannel' -> 'flush_work'
 * check-output-end
 */
