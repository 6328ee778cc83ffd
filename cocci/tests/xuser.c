/*
 * Kernel names defined outside the kernel proper (modelled on memcpy(),
 * whose only C definitions are arch/x86/boot/compressed/string.c's,
 * other architectures' and tools/include/nolibc's): xk_copy() is defined
 * in tools/ (user space) and arch/x86/boot/ (the decompressor), both
 * sleeping; xk_clock() in arch/um/ (another architecture, sleeping).
 * Neither stands for the kernel's: not reported. xk_arch() is this
 * architecture's (arch/x86/lib/): reported.
 */
#include "xuser.h"

void xk_use(struct xk *k)
{
	spin_lock(&k->lock);
	xk_copy(k);
	xk_clock(k);
	xk_arch(k);
	spin_unlock(&k->lock);
}
/*
 * check-output-start
xuser.c:17: sleeping call 'xk_arch' while holding 'k->lock' (taken at line 14) via 'xk_arch' -> 'mutex_lock' (arch/x86/lib/xk-arch.c:7)
 * check-output-end
 */
