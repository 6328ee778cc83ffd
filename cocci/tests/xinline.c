/*
 * A static inline sleeper defined only in a header (xinline.h, seen by
 * the facts pass with --tree: header files are facts too; this file
 * does not include it, as --no-includes would not read it anyway), and
 * a quiet inline of the same header.
 */
struct xi;

void xi_user(struct xi *x)
{
	spin_lock(&x->lock);
	xi_peek(x);
	xi_sync(x);
	spin_unlock(&x->lock);
}
/*
 * check-output-start
xinline.c:13: sleeping call 'xi_sync' while holding 'x->lock' (taken at line 11) via 'xi_sync' -> 'down_write' (xinline.h:6)
 * check-output-end
 */
