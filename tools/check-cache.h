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
 * check_cache_key() of every stage of version of s, in check_stages[]
 * order (NULL for the first stage, apply, which is not keyed so), the
 * version applied once (from the apply cache when it is there) and each
 * input hashed once. NULL, with an error printed, when the version does
 * not apply. New array of new strings.
 */
GPtrArray *check_version_keys(struct series *s, int version);

/* An empty table for check_ctx.input_digests. */
GHashTable *check_input_digests_new(void);

/*
 * The apply stage's cache (stage-apply.c): what applying files onto
 * base_rev in tree gave (the base and commit ids, the touched paths,
 * the stage's result), kept as the blob results/apply/<key>. The key
 * covers what those commit ids are a function of: the base commit
 * (base_rev resolved in tree, in-process), each patch file's position,
 * name and bytes, kseries' sources (how apply.c makes commits, its
 * fixed sender), the git program that applies them and the tree's own
 * git config (the only one its children read, run.h). NULL when base_rev
 * does not resolve or a file cannot be read: apply runs and says why.
 * New string.
 */
char *check_cache_apply_key(const char *tree, const char *base_rev,
			    GPtrArray *files);
/*
 * The applied version kept under key into ctx (base, commits, tip,
 * touched) and r (marked cached); false when there is none, or when an
 * object it names is not in ctx->tree (a tree provisioned afresh).
 */
bool check_cache_apply_load(struct check_ctx *ctx, const char *key,
			    struct stage_result *r);
/* Keeps ctx's applied version and r under key, when r passed cleanly. */
void check_cache_apply_store(const struct check_ctx *ctx, const char *key,
			     const struct stage_result *r);

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
