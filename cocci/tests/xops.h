/* The ops structure of xops-impl.c and xops-caller.c. */
struct xo_ops {
	int (*release)(struct xo *o);
	int (*peek)(struct xo *o);
};

struct xo {
	spinlock_t lock;
	struct mutex m;
	const struct xo_ops *ops;
};
