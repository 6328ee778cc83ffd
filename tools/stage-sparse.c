// SPDX-License-Identifier: GPL-2.0-only
/*
 * stage-sparse.c - new sparse warnings only, through kernel/sparse-check.
 */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "run.h"
#include "stage.h"
#include "util.h"
#include "banned.h"

/*
 * kernel/sparse-check exits 0 (no warning) or 1 (warnings on stdout) when
 * sparse ran; 2 when it did not (missing, too old: the tree would skip it
 * silently), 3 when the build failed.
 */
static int sparse_one(struct check_ctx *ctx, const char *config,
		      GPtrArray *targets, struct stage_result *into, GString *log)
{
	char *sc = g_build_filename(ctx->kernel_dir, "sparse-check", NULL);
	GPtrArray *argv = g_ptr_array_new();
	struct run_opts o = { .capture_out = true, .capture_err = true,
			      .timeout = 3 * 3600 };
	struct run_result res;
	int status = -1;

	g_ptr_array_add(argv, sc);
	/*
	 * sparse 0.6.5 lives in the sid chroot (chroot-run provisions it on
	 * first use); bookworm's 0.6.4 is too old for 7.2, and the tree would
	 * skip it: KSERIES_SPARSE_HOST=1 is for a host that has a newer one.
	 */
	if (getenv("KSERIES_SPARSE_HOST"))
		g_ptr_array_add(argv, (char *)"--host");
	else
		g_ptr_array_add(argv, (char *)"--sid");
	g_ptr_array_add(argv, (char *)config);
	g_ptr_array_add(argv, ctx->wt);
	for (guint i = 0; i < targets->len; i++)
		g_ptr_array_add(argv, targets->pdata[i]);
	g_ptr_array_add(argv, NULL);
	if (run_argv((const char *const *)argv->pdata, &o, &res) == 0) {
		status = res.status;
		g_string_append_printf(log, "(exit %d)\n%s%s", res.status,
				       res.out->str, res.err->str);
		if (status == 0 || status == 1)
			stage_parse_compiler_lines(ctx, into, "sparse", res.out->str);
		run_result_release(&res);
	}
	g_ptr_array_unref(argv);
	g_free(sc);
	return status;
}

/* The .o targets of a c-* config the series touches. */
static GPtrArray *sparse_targets(struct check_ctx *ctx, const char *config)
{
	GPtrArray *all = stage_build_targets(ctx, config);
	GPtrArray *t = g_ptr_array_new_with_free_func(g_free);

	for (guint i = 0; i < all->len; i++)
		if (g_str_has_suffix(all->pdata[i], ".o"))
			g_ptr_array_add(t, g_strdup(all->pdata[i]));
	g_ptr_array_unref(all);
	return t;
}

/* sparse_one() for every c-* config with targets: the worst exit. */
static int sparse_run(struct check_ctx *ctx, GPtrArray *sets,
		      struct stage_result *into, GString *log)
{
	int worst = 0;

	for (guint c = 0; c < sets->len; c++) {
		GPtrArray *t = sets->pdata[c];
		int st;

		if (!t->len)
			continue;
		st = sparse_one(ctx, stage_c_configs[c], t, into, log);
		if (st < 0 || st > 1)
			return st;
		if (st > worst)
			worst = st;
	}
	return worst;
}

void stage_sparse(struct check_ctx *ctx, struct stage_result *r)
{
	GPtrArray *sets = g_ptr_array_new_with_free_func(
		(GDestroyNotify)g_ptr_array_unref);
	GString *log = g_string_new(NULL);
	struct stage_result before;
	unsigned ntargets = 0;
	int st;

	stage_result_init(&before, "sparse");
	for (const char *const *n = stage_c_configs; *n; n++) {
		g_ptr_array_add(sets, sparse_targets(ctx, *n));
		ntargets += ((GPtrArray *)sets->pdata[sets->len - 1])->len;
	}
	if (!ntargets) {
		stage_skip(r, "no C object touched");
		goto out;
	}
	if (!stage_has_script(ctx->kernel_dir, "sparse-check")) {
		stage_fail(r, "kernel/sparse-check is missing");
		goto out;
	}
	g_string_append(log, "== base\n");
	if (stage_checkout(ctx, ctx->base) < 0) {
		stage_fail(r, "cannot check out the base");
		goto out;
	}
	st = sparse_run(ctx, sets, &before, log);
	if (st == 2) {
		/* never a silent pass: said, and checked again next time */
		stage_tool_missing(r, "sparse",
			     "sparse did not run: not available or not up to date (0.6.5 is in the sid chroot: kernel/provision-toolchain)");
		goto out;
	} else if (st != 0 && st != 1) {
		stage_fail(r, "sparse on the base failed (exit %d, see log)", st);
		goto out;
	}
	g_string_append(log, "\n== series\n");
	if (stage_checkout(ctx, ctx->tip) < 0) {
		stage_fail(r, "cannot check out the series");
		goto out;
	}
	st = sparse_run(ctx, sets, r, log);
	if (st != 0 && st != 1) {
		stage_fail(r, st == 3 ? "the build failed under sparse (see log)" :
			 "sparse on the series failed (exit %d, see log)", st);
		goto out;
	}
	stage_keep_new(r, &before);
	/* a new sparse warning is a defect the series adds: the stage fails */
	if (r->findings->len)
		stage_fail(r, "%u new sparse warnings (C=2 on %u objects; %u before)",
		     r->findings->len, ntargets, before.findings->len);
	else
		stage_summary(r, "C=2 on %u objects: %u warnings before, none new",
			    ntargets, before.findings->len);
out:
	stage_save_log(ctx, r, log->str, log->len);
	stage_result_release(&before);
	g_string_free(log, TRUE);
	g_ptr_array_unref(sets);
}

