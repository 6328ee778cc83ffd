/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KSERIES_CHECK_CACHE_H
#define KSERIES_CHECK_CACHE_H

#include <stdbool.h>
#include <stddef.h>

#include "check.h"

/*
 * The check cache: results kept under <cache>/results/, keyed by the
 * content of what produced them, so that an unchanged input is never
 * worked on twice. Two forms share it:
 *
 *  - a stage's result, results/<series>/v<N>/<stage>.json, valid while
 *    its key (check_cache_key()) is the one stored in it;
 *  - a blob, results/<area>/<key>, for a computation named by its key
 *    alone (feedback's range-diff pairing, rangediff.h).
 */

/*
 * The content key of stage st for ctx's applied version: the commits,
 * kseries' sources, the toolchain, the version's setting for the stage,
 * and the inputs st->inputs names for it alone, so that a change to a
 * VM script does not re-run every build. New string (SHA-256, hex).
 */
char *check_cache_key(struct check_ctx *ctx, const struct check_stage *st);

/*
 * check_cache_key() of the stage named stage for version of s, the
 * version applied to its base first (quietly). NULL, with an error
 * printed, when there is no such stage or the version does not apply.
 * New string.
 */
char *check_version_stage_key(struct series *s, int version,
			      const char *stage);

/* The stored result of r->name under key into r; false when none. */
bool check_cache_load(const struct check_ctx *ctx, const char *key,
		      struct stage_result *r);
/* Stores r under key, unless it is not cacheable (stage.h). */
void check_cache_store(const struct check_ctx *ctx, const char *key,
		       const struct stage_result *r);

/*
 * The key of a computation over two versions' patches on base: the
 * base and the bytes of each patch file of fa, then of fb (SHA-1, hex).
 * New string.
 */
char *check_cache_patches_key(const char *base, GPtrArray *fa,
			      GPtrArray *fb);

/* The blob results/<area>/<key>: 0 and *buf (new), or -1 when none. */
int check_cache_blob_get(const char *area, const char *key, char **buf,
			 size_t *len);
int check_cache_blob_put(const char *area, const char *key, const char *buf,
			 size_t len);

#endif
