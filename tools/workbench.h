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

#endif
