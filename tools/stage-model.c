// SPDX-License-Identifier: GPL-2.0-only
/*
 * stage-model.c - the series' protocol model, checked exhaustively.
 */
#include <string.h>

#include "check.h"
#include "run.h"
#include "stage.h"
#include "util.h"
#include "banned.h"

void stage_model(struct check_ctx *ctx, struct stage_result *r)
{
	const char *arg = series_version_get(ctx->s, ctx->version, "model");
	char *chk = g_build_filename(ctx->s->dir, "model", "check", NULL);

	if (!arg || !g_file_test(chk, G_FILE_TEST_IS_EXECUTABLE)) {
		stage_skip(r, "no model for this version (series/NAME/model/check and version.N.model)");
	} else {
		const char *argv[] = { chk, arg, NULL };
		char *mdir = g_build_filename(ctx->s->dir, "model", NULL);
		struct run_opts o = { .dir = mdir, .capture_out = true,
				      .merge_err = true, .timeout = 3600 };
		struct run_result res;

		if (run_argv(argv, &o, &res) < 0) {
			stage_fail(r, "cannot run the model checker");
		} else {
			stage_save_log(ctx, r, res.out->str, res.out->len);
			if (res.status == 1) {
				char **lines = g_strsplit(res.out->str, "\n", -1);
				const char *first = NULL;

				/* spin names the failed assertion, or the cycle */
				for (char **l = lines; *l && !first; l++)
					if (strstr(*l, "text of failed assertion") ||
					    strstr(*l, "acceptance cycle") ||
					    strstr(*l, "non-progress cycle"))
						first = *l;
				for (char **l = lines; *l && !first; l++)
					if (strstr(*l, "violated"))
						first = *l;
				stage_finding(r, "model",
					      AT("model/binder_alloc.pml", 0, 0),
					      SEV_ERROR, "%s",
					      first ? first : "the model finds a violation (trace in the log)");
				stage_summary(r, "spin %s: counterexample found (trace: %s)",
					    arg, r->log ? r->log : "log");
				g_strfreev(lines);
			} else if (res.status) {
				stage_fail(r, "model/check %s failed (exit %d)", arg, res.status);
			} else {
				stage_summary(r, "spin %s: safety and liveness verified exhaustively",
					    arg);
			}
			run_result_release(&res);
		}
		g_free(mdir);
	}
	g_free(chk);
}

