// SPDX-License-Identifier: GPL-2.0-only
/*
 * stage-cocci.c - the project's Coccinelle rules, new findings only.
 */
#include <string.h>

#include "check.h"
#include "run.h"
#include "stage.h"
#include "util.h"
#include "workbench.h"
#include "banned.h"

static int run_cocci(struct check_ctx *ctx, GPtrArray *cfiles,
		     struct stage_result *r, GString *log)
{
	char *runner = stage_script(ctx->cocci_dir, "run-sleep-check");
	GPtrArray *argv = g_ptr_array_new_with_free_func(g_free);
	struct run_opts o = { .dir = ctx->wt, .capture_out = true,
			      .capture_err = true, .timeout = 1800 };
	struct run_result res;
	int ret = 0;

	g_ptr_array_add(argv, runner);
	/*
	 * The facts of the touched files' directories (cached by content: the
	 * base's are reused for the series, only the files it changes are
	 * read again): a sleeper in another file is seen, with its chain.
	 * KSERIES_COCCI_SCOPE widens it (cocci/README.md).
	 */
	g_ptr_array_add(argv, g_strdup("--tree"));
	g_ptr_array_add(argv, g_strdup("."));
	g_ptr_array_add(argv, g_strdup("--cache"));
	g_ptr_array_add(argv, g_build_filename(cache_dir(), "cocci-facts", NULL));
	for (guint i = 0; i < cfiles->len; i++) {
		char *dir = g_path_get_dirname(cfiles->pdata[i]);

		g_ptr_array_add(argv, g_strdup("--scope"));
		g_ptr_array_add(argv, dir);
	}
	for (guint i = 0; i < cfiles->len; i++)
		g_ptr_array_add(argv, g_strdup(cfiles->pdata[i]));
	g_ptr_array_add(argv, NULL);
	if (run_argv((const char *const *)argv->pdata, &o, &res) < 0) {
		g_ptr_array_unref(argv);
		return -1;
	}
	g_string_append_printf(log, "(exit %d)\n%s%s", res.status, res.out->str,
			       res.err->str);
	if (res.status > 1)
		ret = -1;
	else
		stage_parse_compiler_lines(ctx, r, "cocci", res.out->str);
	run_result_release(&res);
	g_ptr_array_unref(argv);
	return ret;
}

static const struct stage_tool cocci_tools[] = {
	{ "python3", NULL, "python3" },
	{ "spatch", "SPATCH", "coccinelle" },
};

static void cocci_run(struct check_ctx *ctx, struct stage_result *r)
{
	GPtrArray *cfiles = stage_touched_with_suffix(ctx, ".c", NULL);
	GString *log = g_string_new(NULL);
	struct stage_result before;
	char *runner = stage_script(ctx->cocci_dir, "run-sleep-check");

	stage_result_init(&before, "cocci");
	for (guint i = 0; i < cfiles->len; i++)
		if (g_str_has_prefix(cfiles->pdata[i], "tools/"))
			g_ptr_array_remove_index(cfiles, i--);
	if (!cfiles->len) {
		stage_skip(r, "no kernel C file touched");
		goto out;
	}
	if (!runner) {
		stage_fail(r, "cocci/run-sleep-check is missing");
		goto out;
	}
	g_string_append(log, "== base\n");
	if (stage_checkout(ctx, ctx->base) < 0 ||
	    run_cocci(ctx, cfiles, &before, log) < 0) {
		stage_fail(r, "the Coccinelle rules failed on the base (see log)");
		goto out;
	}
	g_string_append(log, "== series\n");
	if (stage_checkout(ctx, ctx->tip) < 0 ||
	    run_cocci(ctx, cfiles, r, log) < 0) {
		stage_fail(r, "the Coccinelle rules failed on the series (see log)");
		goto out;
	}
	stage_keep_new(r, &before);
	for (guint i = 0; i < r->findings->len; i++) {
		struct finding *f = r->findings->pdata[i];

		f->sev = SEV_ERROR;
	}
	stage_summary(r, "sleep-under-spinlock rules on %u files", cfiles->len);
out:
	stage_save_log(ctx, r, log->str, log->len);
	stage_result_release(&before);
	g_string_free(log, TRUE);
	g_ptr_array_unref(cfiles);
	g_free(runner);
}

void stage_cocci(struct check_ctx *ctx, struct stage_result *r)
{
	if (stage_need_tools(r, cocci_tools, G_N_ELEMENTS(cocci_tools)))
		cocci_run(ctx, r);
}
