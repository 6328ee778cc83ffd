/* The object of xuser.c. */
struct xk {
	spinlock_t lock;
	struct mutex m;
	char buf[16];
};

void xk_copy(struct xk *k);
void xk_clock(struct xk *k);
void xk_arch(struct xk *k);
