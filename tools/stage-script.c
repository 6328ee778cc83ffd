// SPDX-License-Identifier: GPL-2.0-only
/*
 * stage-script.c - the stages a series or the workbench brings as scripts: vm, perf.
 */
#include <string.h>

#include "check.h"
#include "run.h"
#include "stage.h"
#include "util.h"
#include "banned.h"

/*
 * A stage script prints findings in compiler form on stdout and exits 0
 * (pass, or warn when it printed warnings), 1 (fail), 77 (not applicable:
 * the last line of stderr says why); anything else is a failure of the
 * stage itself.
 */
static void run_stage_script(struct check_ctx *ctx, struct stage_result *r,
			     const char *path, const char *arg)
{
	char *bdir = g_strdup_printf("KSERIES_BASE=%s", ctx->base);
	char *tdir = g_strdup_printf("KSERIES_TIP=%s", ctx->tip);
	char *wt = g_strdup_printf("KSERIES_TREE=%s", ctx->tree);
	char *ld = g_strdup_printf("KSERIES_LOGDIR=%s", ctx->logdir);
	char *sd = g_strdup_printf("KSERIES_SERIES_DIR=%s", ctx->s->dir);
	char *vv = g_strdup_printf("KSERIES_VERSION=%d", ctx->version);
	const char *env[] = { bdir, tdir, wt, ld, sd, vv, NULL };
	const char *argv[] = { path, arg, NULL };
	struct run_opts o = { .env = env, .capture_out = true,
			      .capture_err = true, .timeout = 3 * 3600 };
	struct run_result res;

	if (run_argv(argv, &o, &res) < 0) {
		stage_fail(r, "cannot run '%s'", path);
		goto out;
	}
	{
		GString *log = g_string_new(res.out->str);

		g_string_append(log, res.err->str);
		stage_save_log(ctx, r, log->str, log->len);
		g_string_free(log, TRUE);
	}
	if (res.status == 77) {
		char **lines = g_strsplit(g_strchomp(res.err->str), "\n", -1);
		guint n = g_strv_length(lines);

		stage_skip(r, n ? lines[n - 1] : "not applicable");
		g_strfreev(lines);
	} else {
		stage_parse_compiler_lines(ctx, r, r->name, res.out->str);
		if (res.status == 1 && !r->findings->len) {
			char **lines = g_strsplit(g_strchomp(res.err->str), "\n", -1);
			guint n = g_strv_length(lines);

			stage_finding(r, r->name, AT("", 0, 0), SEV_ERROR, "%s",
				      n ? lines[n - 1] : "the stage failed");
			g_strfreev(lines);
		}
		if (res.status > 1) {
			stage_fail(r, "'%s' failed (exit %d)", path, res.status);
		} else {
			char **lines = g_strsplit(g_strchomp(res.out->str), "\n", -1);
			guint n = g_strv_length(lines);

			/* the last line that is not a finding summarizes */
			stage_summary(r, "%s", n ? lines[n - 1] : "done");
			g_strfreev(lines);
		}
	}
	run_result_release(&res);
out:
	g_free(bdir);
	g_free(tdir);
	g_free(wt);
	g_free(ld);
	g_free(sd);
	g_free(vv);
}

/*
 * Stages that belong to a series: series/<name>/check/<stage> (an
 * executable) or the version's "version.N.<stage>" argument for it.
 * Kernel-wide stages come from kernel/stage-<name>.
 */
void stage_script_run(struct check_ctx *ctx, struct stage_result *r)
{
	char *sdir = g_build_filename(ctx->s->dir, "check", NULL);
	char *path = stage_script(sdir, r->name);
	const char *arg = series_version_get(ctx->s, ctx->version, r->name);

	if (!path)
		path = stage_script(ctx->kernel_dir,
			      !strcmp(r->name, "vm") ? "stage-vm" :
			      !strcmp(r->name, "perf") ? "stage-perf" : "-");
	if (!path) {
		char *why = g_strdup_printf("no %s test for this series (series/%s/check/%s)",
					    r->name, ctx->s->name, r->name);

		stage_skip(r, why);
		g_free(why);
	} else {
		/*
		 * No checkout: a script builds base and series kernels in one
		 * run, so it keeps its own worktree (and build directory) and
		 * does not hold the check's worktree through minutes of VM.
		 */
		run_stage_script(ctx, r, path, arg);
	}
	g_free(path);
	g_free(sdir);
}

