// SPDX-License-Identifier: GPL-2.0-only
/*
 * stage-apply.c - the first stage: the version's patches applied to its
 * base as commits (apply.h), which every other stage looks at and whose
 * ids key the cache.
 */
#include <stdio.h>
#include <string.h>

#include "apply.h"
#include "check.h"
#include "check-cache.h"
#include "run.h"
#include "stage.h"
#include "util.h"
#include "workbench.h"
#include "banned.h"

/* The tree paths the series touches, base to tip; false when unknown. */
static bool touched_files(struct check_ctx *ctx)
{
	const char *argv[] = { "git", "diff", "--name-only", "-z", ctx->base,
			       ctx->tip, NULL };
	struct run_opts o = { .dir = ctx->tree, .capture_out = true,
			      .capture_err = true };
	struct run_result r;
	bool ok = false;

	ctx->touched = g_ptr_array_new_with_free_func(g_free);
	if (run_argv(argv, &o, &r) == 0 && r.status == 0) {
		ok = true;
		const char *p = r.out->str, *end = p + r.out->len;

		while (p < end) {
			size_t n = strnlen(p, (size_t)(end - p));

			if (n)
				g_ptr_array_add(ctx->touched, g_strndup(p, n));
			p += n + 1;
		}
	}
	run_result_release(&r);
	return ok;
}

static void not_applied(struct check_ctx *ctx, struct stage_result *r,
			const struct applied *a, const char *base)
{
	r->status = ST_FAIL;
	if (a->failed >= 0 && (guint)a->failed < ctx->files->len) {
		char *bn = g_path_get_basename(ctx->files->pdata[a->failed]);

		stage_finding(r, "apply", AT(bn, 0, a->failed + 1), SEV_ERROR,
			      "does not apply to %s", base);
		g_free(bn);
	}
	stage_summary(r, "patch %d of %u does not apply", a->failed + 1,
		      ctx->files->len);
	stage_save_log(ctx, r, a->log->str, a->log->len);
}

/*
 * The patches applied (apply.h), or the applied version from the apply
 * cache when nothing it is a function of changed: a warm check then
 * runs no git at all.
 */
void stage_apply(struct check_ctx *ctx, struct stage_result *r)
{
	const char *base = series_get(ctx->s, "series.base");
	char *key = NULL;
	struct applied a;

	if (!base)
		base = WORKBENCH_DEFAULT_BASE;
	applied_init(&a);
	if (!ctx->files->len) {
		stage_skip(r, "no patches in the store for this version (posted elsewhere; only its review is here)");
	} else if (!(ctx->tree = workbench_ensure_tree())) {
		stage_fail(r, "no base tree: kernel/provision-base failed or is missing");
	} else if ((key = check_cache_apply_key(ctx->tree, base, ctx->files)) &&
		   !ctx->no_cache && check_cache_apply_load(ctx, key, r)) {
		goto out;
	} else if (apply_series(ctx->tree, base, ctx->files, true, &a) < 0) {
		not_applied(ctx, r, &a, base);
	} else {
		r->status = a.three_way ? ST_WARN : ST_PASS;
		stage_summary(r, "%u patches on %s%s", ctx->files->len, base,
			      a.three_way ? " (3-way fallback)" : "");
		if (a.three_way)
			stage_finding(r, "apply", AT("", 0, 0), SEV_WARNING,
				      "needed the 3-way fallback");
	}
	/* the base, when known, is what the reports name */
	g_free(ctx->base);
	ctx->base = g_strdup(a.base);
	if (r->status != ST_FAIL && r->status != ST_SKIP) {
		ctx->commits = a.commits;
		a.commits = NULL;
		ctx->tip = g_strdup(ctx->commits->len ?
				    ctx->commits->pdata[ctx->commits->len - 1] :
				    a.base);
		if (touched_files(ctx) && key)
			check_cache_apply_store(ctx, key, r);
	}
out:
	g_free(key);
	applied_release(&a);
}
