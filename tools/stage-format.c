// SPDX-License-Identifier: GPL-2.0-only
/*
 * stage-format.c - the form of each patch mail: subject, sign-off, Fixes:, changelog.
 */
#include <string.h>

#include "check.h"
#include "format.h"
#include "mail.h"
#include "posting.h"
#include "stage.h"
#include "subject.h"
#include "util.h"
#include "banned.h"

static bool is_fixes_ok(const char *line)
{
	/* Documentation/process/submitting-patches.rst: 12+ hex, ("subject") */
	const char *p = line + strlen("Fixes: ");
	int hex = 0;

	while (g_ascii_isxdigit(p[hex]))
		hex++;
	return hex >= 12 && p[hex] == ' ' && p[hex + 1] == '(' &&
	       p[hex + 2] == '"' && g_str_has_suffix(p, "\")");
}

/* What the version's mails say as a whole. */
struct format_scan {
	bool changelog;		/* format_has_changelog() of a cover or notes */
	bool link;		/* a link to an earlier version */
};

static void check_subject(const struct check_ctx *ctx, struct stage_result *r,
			  const struct mail *m, const char *base, int k)
{
	const char *prefix = series_get(ctx->s, "series.prefix");
	int n = (int)ctx->files->len;
	struct subject subj;

	subject_parse(m->subject, &subj);
	if (!subj.patch)
		stage_finding(r, "format", AT(base, 0, k), SEV_ERROR,
			      "subject has no [PATCH] tag");
	if (prefix && g_ascii_strcasecmp(subj.prefix, prefix))
		stage_finding(r, "format", AT(base, 0, k), SEV_WARNING,
			      "subject prefix differs from the series' prefix");
	if (subj.version != ctx->version)
		stage_finding(r, "format", AT(base, 0, k), SEV_ERROR,
			      "subject names another version");
	if (n > 1 && (subj.total != n || subj.index != k))
		stage_finding(r, "format", AT(base, 0, k), SEV_ERROR,
			      "subject counter does not match the patch's place");
	subject_release(&subj);
}

/* The changelog, the links and the Fixes: tags of the mail as sent. */
static void scan_body(struct stage_result *r, const struct mail *m,
		      const char *base, int k, bool cover,
		      struct format_scan *scan)
{
	char **lines = g_strsplit(m->body, "\n", -1);
	GString *notes = g_string_new(NULL);
	bool below = false;

	for (char **l = lines; *l; l++) {
		/* "- Link to v1: …" as b4 writes it, or "v1: https://lore…" */
		const char *t = *l + strspn(*l, "-* \t");

		if (!strcmp(*l, "---"))
			below = true;
		/* the cover's text, or what a patch carries below its "---" */
		if (cover || below)
			g_string_append_printf(notes, "%s\n", *l);
		if (g_str_has_prefix(t, "Link to v") ||
		    (g_str_has_prefix(t, "v") && strstr(t, "lore.kernel.org")))
			scan->link = true;
		if (below || cover)
			continue;
		if (g_str_has_prefix(*l, "Fixes: ") && !is_fixes_ok(*l))
			stage_finding(r, "format", AT(base, 0, k), SEV_ERROR,
				      "Fixes: tag not in the form 'Fixes: <12+ hex> (\"subject\")'");
	}
	/* the mail stage's rule: a "Changes in vN" header with an entry */
	if (format_has_changelog(notes->str))
		scan->changelog = true;
	g_string_free(notes, TRUE);
	g_strfreev(lines);
}

/*
 * The sign-offs the store holds: a posted version carries its own as
 * posted; one we write gets the sender's at format time (format.h) and
 * stores none.
 */
static void check_stored_sob(struct stage_result *r, const struct mail *m,
			     const char *base, int k, bool posted)
{
	char **lines = g_strsplit(m->body, "\n", -1);
	bool sob = false, author_sob = false;

	for (char **l = lines; *l && strcmp(*l, "---"); l++) {
		if (!g_str_has_prefix(*l, "Signed-off-by: "))
			continue;
		sob = true;
		if (strstr(*l, m->from_email) && *m->from_email)
			author_sob = true;
	}
	g_strfreev(lines);
	if (!sob && posted)
		stage_finding(r, "format", AT(base, 0, k), SEV_ERROR,
			      "no Signed-off-by");
	else if (sob && !author_sob)
		stage_finding(r, "format", AT(base, 0, k), SEV_WARNING,
			      "the sender has no Signed-off-by");
}

/*
 * The mail as format sends it signs off above the diff: a stored patch
 * with no "---" line between its message and its diff would get the
 * sender's Signed-off-by below the diff, out of the commit message.
 */
static void check_mailed_sob(struct stage_result *r, const struct mail *m,
			     const char *base, int k)
{
	char **lines = g_strsplit(m->body, "\n", -1);
	static const char own[] = "Signed-off-by: " FORMAT_CHECK_SENDER;
	int diff = -1, sob = -1;

	for (int i = 0; lines[i]; i++) {
		if (diff < 0 && (g_str_has_prefix(lines[i], "diff ") ||
				 g_str_has_prefix(lines[i], "--- ") ||
				 g_str_has_prefix(lines[i], "Index: ")))
			diff = i;
		if (!strcmp(lines[i], own))
			sob = i;
	}
	g_strfreev(lines);
	if (diff >= 0 && sob > diff)
		stage_finding(r, "format", AT(base, 0, k), SEV_ERROR,
			      "the sender's Signed-off-by would go below the diff: no '---' line between the message and the diff");
}

/* One mail of the version: patch k (0: the cover) in the file path. */
static void check_file(struct check_ctx *ctx, struct stage_result *r,
		       const char *path, int k, bool cover, bool posted,
		       struct format_scan *scan)
{
	GPtrArray *stored = mail_array_new(), *mailed = mail_array_new();
	char *base = g_path_get_basename(path);
	char *text = NULL, *as_mailed = NULL;
	size_t len;

	if (read_file(path, MAIL_MAX_FILE, &text, &len) < 0 ||
	    mail_parse_mbox(text, len, path, stored) < 0 || !stored->len) {
		stage_finding(r, "format", AT(base, 0, k), SEV_ERROR,
			      "cannot parse the patch mail");
		goto out;
	}
	/* the cover letter is format's own: it is checked as stored */
	as_mailed = cover ? g_strdup(text) :
		    format_stored_as_mailed(text, len, FORMAT_CHECK_SENDER);
	if (mail_parse_mbox(as_mailed, strlen(as_mailed), path, mailed) < 0 ||
	    !mailed->len) {
		stage_finding(r, "format", AT(base, 0, k), SEV_ERROR,
			      "cannot parse the patch mail as format sends it");
		goto out;
	}
	check_subject(ctx, r, mailed->pdata[0], base, k);
	scan_body(r, mailed->pdata[0], base, k, cover, scan);
	if (!cover) {
		check_stored_sob(r, stored->pdata[0], base, k, posted);
		check_mailed_sob(r, mailed->pdata[0], base, k);
	}
out:
	g_ptr_array_unref(stored);
	g_ptr_array_unref(mailed);
	g_free(as_mailed);
	g_free(text);
	g_free(base);
}

/*
 * format: the form of each mail as format sends it (format.h's
 * format_stored_as_mailed(), for the fixed check sender), and the
 * sign-offs the store holds.
 */
void stage_format(struct check_ctx *ctx, struct stage_result *r)
{
	GPtrArray *all = series_patch_files(ctx->s, ctx->version, true);
	const char *origin = series_version_get(ctx->s, ctx->version, "origin");
	bool posted = origin && !strcmp(origin, "posted");
	struct format_scan scan = { 0 };

	for (guint i = 0; i < all->len; i++) {
		char *base = g_path_get_basename(all->pdata[i]);
		bool cover = posting_file_kind(base) == POSTING_COVER;
		int k = cover ? 0 : (int)i + (all->len > ctx->files->len ? 0 : 1);

		g_free(base);
		check_file(ctx, r, all->pdata[i], k, cover, posted, &scan);
	}
	if (ctx->version > 1 && !scan.changelog)
		stage_finding(r, "format", AT("", 0, 0), SEV_ERROR,
			      "v2+ without a changelog (Changes in vN) in the cover or below ---");
	if (ctx->version > 1 && !scan.link)
		stage_finding(r, "format", AT("", 0, 0), SEV_WARNING,
			      "no link to the previous version");
	g_ptr_array_unref(all);
	stage_summary(r, "%u patch mails", ctx->files->len);
}
