// SPDX-License-Identifier: GPL-2.0-only
/*
 * stage-checkpatch.c - scripts/checkpatch.pl --strict on each patch as format mails it.
 */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "format.h"
#include "mail.h"
#include "run.h"
#include "scratch.h"
#include "stage.h"
#include "util.h"
#include "banned.h"

void stage_checkpatch(struct check_ctx *ctx, struct stage_result *r)
{
	char *cp = g_build_filename(ctx->tree, "scripts", "checkpatch.pl", NULL);
	GString *log = g_string_new(NULL);
	char *tmp;

	if (!is_file(cp)) {
		stage_fail(r, "no scripts/checkpatch.pl in the base tree");
		g_free(cp);
		g_string_free(log, TRUE);
		return;
	}
	tmp = scratch_dir_make("checkpatch");
	if (!tmp) {
		stage_fail(r, "cannot make a scratch directory for checkpatch");
		g_free(cp);
		g_string_free(log, TRUE);
		return;
	}
	for (guint i = 0; i < ctx->files->len; i++) {
		char *base = g_path_get_basename(ctx->files->pdata[i]);
		char *path = g_build_filename(tmp, base, NULL);
		/*
		 * The base is a release tarball without history: commit ids
		 * cannot be looked up there, so that check says nothing.
		 */
		const char *argv[] = { "perl", cp, "--strict", "--terse",
				       "--show-types", "--no-summary",
				       "--ignore", "UNKNOWN_COMMIT_ID",
				       "--root", ctx->tree, path, NULL };
		struct run_opts o = { .dir = ctx->tree, .capture_out = true,
				      .capture_err = true, .timeout = 600 };
		struct run_result res;
		char **lines;
		char *text = NULL, *mailed;
		size_t len;

		/* the patch as format mails it: sender's From: and sign-off */
		if (read_file(ctx->files->pdata[i], MAIL_MAX_FILE, &text,
			      &len) < 0) {
			stage_fail(r, "cannot read the patch");
			g_free(path);
			g_free(base);
			break;
		}
		mailed = format_stored_as_mailed(text, len, FORMAT_CHECK_SENDER);
		g_free(text);
		if (write_file_atomic(path, mailed, strlen(mailed)) < 0) {
			stage_fail(r, "cannot write the patch for checkpatch");
			g_free(mailed);
			g_free(path);
			g_free(base);
			break;
		}
		g_free(mailed);
		if (run_argv(argv, &o, &res) < 0) {
			stage_fail(r, "cannot run checkpatch");
			g_free(path);
			g_free(base);
			break;
		}
		g_free(path);
		g_string_append_printf(log, "== %s (exit %d)\n%s%s", base,
				       res.status, res.out->str, res.err->str);
		/* 0: clean, 1: findings; anything else: it did not check */
		if (res.status != 0 && res.status != 1)
			stage_finding(r, "checkpatch", AT(base, 0, (int)i + 1),
				      SEV_ERROR,
				      "checkpatch.pl did not check the patch (see checkpatch.log)");
		lines = g_strsplit(res.out->str, "\n", -1);
		for (char **l = lines; *l; l++) {
			/* FILE:LINE: TYPE:KIND: message */
			char *p = strstr(*l, ": ");
			enum severity sev;
			char *colon, *lineno;
			int line = 0;

			if (!p)
				continue;
			p += 2;
			if (g_str_has_prefix(p, "ERROR:"))
				sev = SEV_ERROR;
			else if (g_str_has_prefix(p, "WARNING:"))
				sev = SEV_WARNING;
			else if (g_str_has_prefix(p, "CHECK:"))
				sev = SEV_CHECK;
			else
				continue;
			lineno = strchr(*l, ':');
			if (lineno)
				line = atoi(lineno + 1);
			colon = strchr(p, ':');
			stage_finding(r, "checkpatch",
				      AT(base, line, (int)i + 1), sev, "%s",
				      colon + 1);
		}
		g_strfreev(lines);
		g_free(base);
		run_result_release(&res);
	}
	scratch_dir_remove(tmp);
	stage_save_log(ctx, r, log->str, log->len);
	stage_summary(r, "checkpatch --strict on %u patches (commit ids not checked: the base has no history)",
		    ctx->files->len);
	g_string_free(log, TRUE);
	g_free(cp);
}

