/*
 * History: commit 69c93f9674c97dc439cdc0527811f8ad104c2e35
 * ("ath11k: use GFP_ATOMIC under spin lock"), Wei Yongjun, 2020, fixing
 * d5c65159f289 ("ath11k: driver for Qualcomm IEEE 802.11ax devices").
 * Verified: the stable review mail "[PATCH 5.7 117/376] ath11k: use
 * GFP_ATOMIC under spin lock" (stable@vger.kernel.org, 2020-06-19, in the
 * public mailing-list archive linux-mailinglist-archives/stable.vger.kernel.org.0)
 * quotes "[ Upstream commit 69c93f9674c97dc439cdc0527811f8ad104c2e35 ]" with
 * the subject, the message "A spin lock is taken here so we should use
 * GFP_ATOMIC." and the one-line diff in ath11k_peer_rx_tid_setup()
 * (drivers/net/wireless/ath/ath11k/dp_rx.c).
 *
 * The shape (not the driver's code): spin_lock_bh(&ab->base_lock) is taken
 * before a peer lookup; further down the same region allocates the REO
 * queue descriptor with kzalloc(..., GFP_KERNEL); the error path of the
 * allocation unlocks and returns. rx_tid_setup_old() is before the fix
 * (one finding), rx_tid_setup() after it (none).
 */
struct ab { spinlock_t base_lock; };
struct peer { void *vaddr; };

int rx_tid_setup_old(struct ab *ab, const u8 *mac, int tid, size_t sz)
{
	struct peer *peer;
	void *vaddr;

	spin_lock_bh(&ab->base_lock);
	peer = find_peer(ab, mac);
	if (!peer) {
		spin_unlock_bh(&ab->base_lock);
		return -ENOENT;
	}
	vaddr = kzalloc(sz + ALIGN - 1, GFP_KERNEL);
	if (!vaddr) {
		spin_unlock_bh(&ab->base_lock);
		return -ENOMEM;
	}
	peer->vaddr = vaddr;
	spin_unlock_bh(&ab->base_lock);
	return 0;
}

int rx_tid_setup(struct ab *ab, const u8 *mac, int tid, size_t sz)
{
	struct peer *peer;
	void *vaddr;

	spin_lock_bh(&ab->base_lock);
	peer = find_peer(ab, mac);
	if (!peer) {
		spin_unlock_bh(&ab->base_lock);
		return -ENOENT;
	}
	vaddr = kzalloc(sz + ALIGN - 1, GFP_ATOMIC);
	if (!vaddr) {
		spin_unlock_bh(&ab->base_lock);
		return -ENOMEM;
	}
	peer->vaddr = vaddr;
	spin_unlock_bh(&ab->base_lock);
	return 0;
}
/*
 * check-output-start
hist-ath11k-gfp.c:33: sleeping call 'kzalloc' while holding 'ab->base_lock' (taken at line 27)
 * check-output-end
 */
