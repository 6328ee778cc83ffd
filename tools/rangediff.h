/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KSERIES_RANGEDIFF_H
#define KSERIES_RANGEDIFF_H

#include <glib.h>

#include "apply.h"

/*
 * The one place that runs `git range-diff`: two versions of a series,
 * each applied to the base as commits (apply.h), compared commit by
 * commit in the base tree.
 */

/*
 * Applies fa and fb (patch files, in order) to base in tree into *a and
 * *b (initialized by the caller). 0, or -1 when one does not apply
 * (a->failed or b->failed says which).
 */
int rangediff_apply(const char *tree, const char *base, GPtrArray *fa,
		    GPtrArray *fb, struct applied *a, struct applied *b);

/* `git range-diff --no-color` of a and b, on our stdout; 0 or -1. */
int rangediff_print(const char *tree, const struct applied *a,
		    const struct applied *b);

/*
 * The pairing range-diff makes of its "-s" output: for each of the na
 * patches of A (0-based), the patch of B it pairs with ('=' or '!'),
 * -1 when none. New array.
 */
GArray *rangediff_parse(const char *out, guint na);

/*
 * rangediff_parse() of the range-diff of fa and fb applied to base in
 * tree; NULL when it cannot be run (a version does not apply). Kept in
 * the check cache (check-cache.h) under area "feedback-range-diff",
 * keyed by the base and the bytes of both versions' patches.
 */
GArray *rangediff_pairs(const char *tree, const char *base, GPtrArray *fa,
			GPtrArray *fb);

#endif
