// SPDX-License-Identifier: GPL-2.0-only
/*
 * stage-format.c - the form of each patch mail: subject, sign-off, Fixes:, changelog.
 */
#include <string.h>

#include "check.h"
#include "mail.h"
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

void stage_format(struct check_ctx *ctx, struct stage_result *r)
{
	const char *prefix = series_get(ctx->s, "series.prefix");
	GPtrArray *all = series_patch_files(ctx->s, ctx->version, true);
	bool changelog = false, link = false;
	int n = (int)ctx->files->len;
	const char *origin;
	bool posted;

	/*
	 * A posted version carries its sign-offs as posted; one we write
	 * gets the sender's at format time (format.h), none is stored.
	 */
	origin = series_version_get(ctx->s, ctx->version, "origin");
	posted = origin && !strcmp(origin, "posted");

	for (guint i = 0; i < all->len; i++) {
		GPtrArray *mails = mail_array_new();
		char *base = g_path_get_basename(all->pdata[i]);
		bool cover = g_str_has_prefix(base, "0000-");
		struct subject subj;
		struct mail *m;
		char **lines;
		bool sob = false, author_sob = false, below = false;
		int k = cover ? 0 : (int)i + (all->len > ctx->files->len ? 0 : 1);

		if (mail_read_mbox(all->pdata[i], mails) < 0 || !mails->len) {
			stage_finding(r, "format", AT(base, 0, k), SEV_ERROR,
				      "cannot parse the patch mail");
			g_ptr_array_unref(mails);
			g_free(base);
			continue;
		}
		m = mails->pdata[0];
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
		lines = g_strsplit(m->body, "\n", -1);
		for (char **l = lines; *l; l++) {
			if (!strcmp(*l, "---"))
				below = true;
			if (g_str_has_prefix(*l, "Changes in v") ||
			    g_str_has_prefix(*l, "Changes since v") ||
			    g_regex_match_simple("^v[0-9]+ ?[:-]", *l, 0, 0))
				changelog = true;
			{
				/* "- Link to v1: …" as b4 writes it, or "v1: https://lore…" */
				const char *t = *l + strspn(*l, "-* \t");

				if (g_str_has_prefix(t, "Link to v") ||
				    (g_str_has_prefix(t, "v") &&
				     strstr(t, "lore.kernel.org")))
					link = true;
			}
			if (below || cover)
				continue;
			if (g_str_has_prefix(*l, "Signed-off-by: ")) {
				sob = true;
				if (strstr(*l, m->from_email) && *m->from_email)
					author_sob = true;
			}
			if (g_str_has_prefix(*l, "Fixes: ") && !is_fixes_ok(*l))
				stage_finding(r, "format", AT(base, 0, k),
					      SEV_ERROR,
					      "Fixes: tag not in the form 'Fixes: <12+ hex> (\"subject\")'");
		}
		g_strfreev(lines);
		if (!cover && !sob && posted)
			stage_finding(r, "format", AT(base, 0, k), SEV_ERROR,
				      "no Signed-off-by");
		else if (!cover && sob && !author_sob)
			stage_finding(r, "format", AT(base, 0, k), SEV_WARNING,
				      "the sender has no Signed-off-by");
		subject_release(&subj);
		g_ptr_array_unref(mails);
		g_free(base);
	}
	if (ctx->version > 1 && !changelog)
		stage_finding(r, "format", AT("", 0, 0), SEV_ERROR,
			      "v2+ without a changelog (Changes in vN) in the cover or below ---");
	if (ctx->version > 1 && !link)
		stage_finding(r, "format", AT("", 0, 0), SEV_WARNING,
			      "no link to the previous version");
	g_ptr_array_unref(all);
	stage_summary(r, "%u patch mails", ctx->files->len);
}

