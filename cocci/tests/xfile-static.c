/*
 * A static xf_quiet() that sleeps: not the one xfile-caller.c calls (that
 * is the non-static one of xfile-callee.c).
 */
struct xf;

static int xf_quiet(struct xf *x)
{
	msleep(10);
	return 0;
}

int xf_static_user(struct xf *x)
{
	return xf_quiet(x);
}
/*
 * check-output-start
 * check-output-end
 */
