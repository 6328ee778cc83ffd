/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KSERIES_WORKBENCH_H
#define KSERIES_WORKBENCH_H

/*
 * The workbench: where kseries keeps what it builds and checks against
 * (HACKING.md "The workbench cache", kernel/README.md). The shell side
 * reads the same defaults from kernel/lib.sh.
 */

/* The base every series names when series.conf names none. */
#define WORKBENCH_DEFAULT_BASE "v7.2.13"

/* The cache directory: $KSERIES_CACHE, else ~/.cache/kseries; borrowed. */
const char *cache_dir(void);

/*
 * The base kernel tree: $KSERIES_TREE, else <cache>/linux, when it is a
 * git repository; NULL otherwise (asked again at the next call: a
 * missing tree may be provisioned meanwhile). Borrowed.
 */
const char *kernel_tree(void);

/*
 * The workbench scripts (kernel/) and rules (cocci/) that a check uses:
 * $KSERIES_KERNEL_DIR / $KSERIES_COCCI_DIR, else the store's own when it
 * has them (this repository), else those beside the kseries program.
 * Borrowed.
 */
const char *workbench_kernel_dir(void);
const char *workbench_cocci_dir(void);

/*
 * The base tree, provisioned through kernel/provision-base when it is
 * missing and $KSERIES_TREE does not name one; NULL when it cannot be
 * had. Borrowed.
 */
const char *workbench_ensure_tree(void);

/*
 * The toolchain's versions as the sid chroot records them
 * (<cache>/sid/.kseries-versions), a cache key's input; NULL when there
 * is no such record. New string, its length in *len.
 */
char *workbench_toolchain_versions(size_t *len);

#endif
