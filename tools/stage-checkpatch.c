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

/* How far the stored and the mailed form may drift before they meet. */
#define MAILED_LOOKAHEAD 8

/*
 * For each line of mailed (1-based), the line of stored it is, 0 for a
 * line format_stored_as_mailed() added (the sender's From:, a sign-off
 * and the blank line before it). The forms differ by a few lines added
 * or dropped: a short look-ahead finds where they meet again.
 */
static GArray *mailed_line_map(const char *stored, const char *mailed)
{
	char **a = g_strsplit(stored, "\n", -1);
	char **b = g_strsplit(mailed, "\n", -1);
	guint na = g_strv_length(a), nb = g_strv_length(b), i = 0, j = 0;
	GArray *map = g_array_sized_new(FALSE, TRUE, sizeof(int), nb + 1);
	int none = 0;

	g_array_append_val(map, none);	/* lines count from 1 */
	while (j < nb) {
		guint ins = 0, del = 0;
		int at;

		if (i < na && !strcmp(a[i], b[j])) {
			at = (int)++i;
			g_array_append_val(map, at);
			j++;
			continue;
		}
		for (guint d = 1; d <= MAILED_LOOKAHEAD && !ins && !del; d++) {
			if (i < na && j + d < nb && !strcmp(b[j + d], a[i]))
				ins = d;
			else if (i + d < na && !strcmp(a[i + d], b[j]))
				del = d;
		}
		if (ins) {
			for (; ins; ins--, j++)
				g_array_append_val(map, none);
		} else if (del) {
			i += del;
		} else {
			/* a line changed in place */
			at = i < na ? (int)++i : 0;
			g_array_append_val(map, at);
			j++;
		}
	}
	g_strfreev(a);
	g_strfreev(b);
	return map;
}

void checkpatch_line_free(struct checkpatch_line *l)
{
	if (!l)
		return;
	g_free(l->file);
	g_free(l->message);
	g_free(l);
}

GPtrArray *checkpatch_parse(const char *out)
{
	GPtrArray *found = g_ptr_array_new_with_free_func(
		(GDestroyNotify)checkpatch_line_free);
	GRegex *re = g_regex_new("^(.*?):([0-9]+): (ERROR|WARNING|CHECK):(.*)$",
				 0, 0, NULL);
	char **lines = g_strsplit(out, "\n", -1);

	for (char **l = lines; *l; l++) {
		struct checkpatch_line *cl;
		GMatchInfo *mi;
		char *sev, *line;

		if (!g_regex_match(re, *l, 0, &mi)) {
			g_match_info_free(mi);
			continue;
		}
		cl = g_new0(struct checkpatch_line, 1);
		cl->file = g_match_info_fetch(mi, 1);
		line = g_match_info_fetch(mi, 2);
		cl->line = atoi(line);
		sev = g_match_info_fetch(mi, 3);
		cl->sev = !strcmp(sev, "ERROR") ? SEV_ERROR :
			  !strcmp(sev, "WARNING") ? SEV_WARNING : SEV_CHECK;
		cl->message = g_match_info_fetch(mi, 4);
		g_ptr_array_add(found, cl);
		g_free(line);
		g_free(sev);
		g_match_info_free(mi);
	}
	g_strfreev(lines);
	g_regex_unref(re);
	return found;
}

char *checkpatch_script(const char *tree)
{
	char *cp = g_build_filename(tree, "scripts", "checkpatch.pl", NULL);

	if (is_file(cp))
		return cp;
	g_free(cp);
	return NULL;
}

int checkpatch_run_mails(const char *tree, const char *root,
			 const char *const *paths, struct run_result *res)
{
	char *cp = checkpatch_script(tree);
	GPtrArray *argv = g_ptr_array_new();
	/*
	 * The base is a release tarball without history: commit ids
	 * cannot be looked up there, so that check says nothing.
	 */
	const char *const opts[] = { "perl", cp, "--strict", "--terse",
				     "--show-types", "--no-summary",
				     "--ignore", "UNKNOWN_COMMIT_ID" };
	struct run_opts o = { .dir = tree, .capture_out = true,
			      .capture_err = true, .timeout = 600 };
	int ret = -1;

	if (!cp)
		goto out;
	for (size_t i = 0; i < G_N_ELEMENTS(opts); i++)
		g_ptr_array_add(argv, (char *)opts[i]);
	if (root) {
		g_ptr_array_add(argv, (char *)"--root");
		g_ptr_array_add(argv, (char *)root);
	}
	for (size_t i = 0; paths[i]; i++)
		g_ptr_array_add(argv, (char *)paths[i]);
	g_ptr_array_add(argv, NULL);
	ret = run_argv((const char *const *)argv->pdata, &o, res);
out:
	g_ptr_array_unref(argv);
	g_free(cp);
	return ret;
}

/*
 * checkpatch's findings in res for patch n (file base), their lines
 * given in the stored file through map.
 */
static void checkpatch_findings(struct stage_result *r, const char *out,
				const char *base, int n, const GArray *map)
{
	GPtrArray *found = checkpatch_parse(out);

	for (guint i = 0; i < found->len; i++) {
		const struct checkpatch_line *cl = found->pdata[i];
		int line = cl->line;

		if (line > 0 && (guint)line < map->len)
			line = g_array_index(map, int, line);
		stage_finding(r, "checkpatch", AT(base, line, n), cl->sev,
			      "%s", cl->message);
	}
	g_ptr_array_unref(found);
}

/*
 * checkpatch.pl on patch i as format mails it (sender's From: and
 * sign-off), written in tmp. -1 when it could not be run (r says why).
 */
static int checkpatch_one(struct check_ctx *ctx, struct stage_result *r,
			  const char *tmp, guint i, GString *log)
{
	char *base = g_path_get_basename(ctx->files->pdata[i]);
	char *path = g_build_filename(tmp, base, NULL);
	const char *paths[] = { path, NULL };
	struct run_result res;
	char *text = NULL, *mailed = NULL;
	GArray *map = NULL;
	size_t len;
	int ret = -1;

	if (read_file(ctx->files->pdata[i], MAIL_MAX_FILE, &text, &len) < 0) {
		stage_fail(r, "cannot read the patch");
		goto out;
	}
	mailed = format_stored_as_mailed(text, len, FORMAT_CHECK_SENDER);
	if (write_file_atomic(path, mailed, strlen(mailed)) < 0) {
		stage_fail(r, "cannot write the patch for checkpatch");
		goto out;
	}
	if (checkpatch_run_mails(ctx->tree, ctx->tree, paths, &res) < 0) {
		stage_fail(r, "cannot run checkpatch");
		goto out;
	}
	g_string_append_printf(log, "== %s (exit %d)\n%s%s", base,
			       res.status, res.out->str, res.err->str);
	/* 0: clean, 1: findings; anything else: it did not check */
	if (res.status != 0 && res.status != 1)
		stage_finding(r, "checkpatch", AT(base, 0, (int)i + 1),
			      SEV_ERROR,
			      "checkpatch.pl did not check the patch (see checkpatch.log)");
	/* findings name the lines of the stored file, not the mailed one */
	map = mailed_line_map(text, mailed);
	checkpatch_findings(r, res.out->str, base, (int)i + 1, map);
	run_result_release(&res);
	ret = 0;
out:
	if (map)
		g_array_unref(map);
	g_free(text);
	g_free(mailed);
	g_free(path);
	g_free(base);
	return ret;
}

static const struct stage_tool checkpatch_tools[] = {
	{ "perl", NULL, "perl" },
};

static void checkpatch_run(struct check_ctx *ctx, struct stage_result *r)
{
	char *cp = checkpatch_script(ctx->tree);
	GString *log;
	char *tmp;

	if (!cp) {
		stage_fail(r, "no scripts/checkpatch.pl in the base tree");
		return;
	}
	g_free(cp);
	tmp = scratch_dir_make("checkpatch");
	if (!tmp) {
		stage_fail(r, "cannot make a scratch directory for checkpatch");
		return;
	}
	log = g_string_new(NULL);
	for (guint i = 0; i < ctx->files->len; i++)
		if (checkpatch_one(ctx, r, tmp, i, log) < 0)
			break;
	scratch_dir_remove(tmp);
	stage_save_log(ctx, r, log->str, log->len);
	stage_summary(r, "checkpatch --strict on %u patches (commit ids not checked: the base has no history)",
		      ctx->files->len);
	g_string_free(log, TRUE);
}

void stage_checkpatch(struct check_ctx *ctx, struct stage_result *r)
{
	if (stage_need_tools(r, checkpatch_tools, G_N_ELEMENTS(checkpatch_tools)))
		checkpatch_run(ctx, r);
}
