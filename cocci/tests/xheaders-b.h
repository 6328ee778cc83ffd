/* The quiet xh_conv() (see xheaders-a.h). */
struct xh;

static inline int xh_conv(struct xh *x)
{
	return x->v + 1;
}
