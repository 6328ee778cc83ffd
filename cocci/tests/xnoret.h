/* A function that does not return (panic()'s declaration in panic.h). */
__printf(1, 2)
void xn_die(const char *fmt, ...) __noreturn __cold;
void xn_taint(int flag);

struct xn {
	spinlock_t lock;
	struct mutex m;
};
