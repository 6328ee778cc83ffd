// SPDX-License-Identifier: GPL-2.0-only
/*
 * stage-kunit.c - the KUnit suites that cover the touched paths.
 */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "run.h"
#include "stage.h"
#include "util.h"
#include "banned.h"

/*
 * How many times the suites run: KSERIES_KUNIT_RUNS, else the version's
 * "version.N.kunit" (a series that must show a race gone asks for many
 * runs in a row), else once. NULL when the setting is not a count.
 */
const char *stage_kunit_runs(const struct check_ctx *ctx)
{
	const char *runs = getenv("KSERIES_KUNIT_RUNS");
	if (!runs || !*runs)
		runs = series_version_get(ctx->s, ctx->version, "kunit");
	if (!runs || !*runs)
		return "1";
	if (strspn(runs, "0123456789") != strlen(runs) || strlen(runs) > 4 ||
	    atoi(runs) < 1)
		return NULL;
	return runs;
}

void stage_kunit_key(const struct check_ctx *ctx, GChecksum *sum)
{
	const char *runs = stage_kunit_runs(ctx);

	if (runs)
		g_checksum_update(sum, (const guchar *)runs, -1);
}

void stage_kunit(struct check_ctx *ctx, struct stage_result *r)
{
	const char *name = stage_kunit_config_for(ctx, false);
	const char *runs = stage_kunit_runs(ctx);
	char *cfg = name ? g_strconcat(name, ".kunitconfig", NULL) : NULL;
	GString *log = g_string_new(NULL);

	if (!cfg) {
		stage_skip(r, "no KUnit suite covers the touched paths");
		goto out;
	}
	if (!runs) {
		stage_fail(r, "the KUnit run count (KSERIES_KUNIT_RUNS or version.%d.kunit) is not a number from 1 to 9999",
		     ctx->version);
		goto out;
	}
	if (!stage_has_script(ctx->kernel_dir, "kunit-run")) {
		stage_fail(r, "kernel/kunit-run is missing");
		goto out;
	}
	if (stage_checkout(ctx, ctx->tip) < 0) {
		stage_fail(r, "cannot check out the series");
		goto out;
	}
	{
		char *kr = g_build_filename(ctx->kernel_dir, "kunit-run", NULL);
		char *kc = g_build_filename(ctx->kernel_dir, cfg, NULL);
		const char *argv[] = { kr, "--runs", runs, kc, ctx->wt, NULL };
		struct run_opts o = { .capture_out = true, .capture_err = true,
				      .timeout = 3 * 3600 };
		struct run_result res;

		if (run_argv(argv, &o, &res) < 0) {
			stage_fail(r, "cannot run kernel/kunit-run");
		} else {
			char **lines = g_strsplit(res.out->str, "\n", -1);
			int runs_n = 0, bad = 0;

			g_string_append_printf(log, "(exit %d)\n%s%s", res.status,
					       res.out->str, res.err->str);
			for (char **l = lines; *l; l++) {
				char *colon;

				if (!g_str_has_prefix(*l, "run "))
					continue;
				runs_n++;
				colon = strstr(*l, ": ");
				if (!colon || g_str_has_prefix(colon + 2, "pass"))
					continue;
				bad++;
				{
					char *end = strstr(colon + 2, "  log: ");

					if (end)
						*end = '\0';
					stage_finding(r, "kunit", AT(cfg, 0, 0),
						      SEV_ERROR, "%s", *l);
				}
			}
			g_strfreev(lines);
			if (res.status == 3)
				stage_fail(r, "the KUnit kernel does not build (see log)");
			else if (res.status && !bad)
				stage_fail(r, "kunit-run failed (exit %d, see log)", res.status);
			else
				stage_summary(r, "%s: %d of %d runs clean (UML, lockdep, atomic-sleep)",
					    cfg, runs_n - bad, runs_n);
			run_result_release(&res);
		}
		g_free(kr);
		g_free(kc);
	}
out:
	stage_save_log(ctx, r, log->str, log->len);
	g_string_free(log, TRUE);
	g_free(cfg);
}

