// SPDX-License-Identifier: GPL-2.0-only
/*
 * stage-mail.c - the last stage of `kseries check` (DESIGN.md §4, §6):
 * the mails `kseries format` would send for the version, checked as they
 * would go out.
 *
 * The version is formatted (format.h) for FORMAT_CHECK_SENDER, then:
 * that it formats at all; a Signed-off-by in every patch mail; each
 * patch's subject prefix against the MAINTAINERS-notes that match its
 * files; recipients; for v2+ a changelog in the cover or below the one
 * patch's "---" (format_has_changelog()); checkpatch.pl --strict on each
 * patch mail (errors and warnings; the checkpatch stage has the rest).
 * format's notes (trailers left out, recipients) become notes here.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "format.h"
#include "mail.h"
#include "posting.h"
#include "recipients.h"
#include "run.h"
#include "scratch.h"
#include "stage.h"
#include "subject.h"
#include "util.h"
#include "banned.h"

static void check_checkpatch(struct check_ctx *ctx, struct formatted *f,
			     struct stage_result *r)
{
	char *cp = g_build_filename(ctx->tree, "scripts", "checkpatch.pl",
				    NULL);
	char *tmp = NULL;
	GPtrArray *argv;
	struct run_opts o = { .dir = ctx->tree, .capture_out = true,
			      .capture_err = true, .timeout = 600 };
	struct run_result res;
	GRegex *re;

	if (!is_file(cp)) {
		finding_add(r, "mail", "", 0, "note",
			    "checkpatch.pl not run: the base tree has none", 0);
		g_free(cp);
		return;
	}
	tmp = scratch_dir_make("mailcheck");
	if (!tmp || formatted_write(f, tmp) < 0) {
		finding_add(r, "mail", "", 0, "error",
			    "cannot write the mails for checkpatch", 0);
		goto out;
	}
	argv = g_ptr_array_new_with_free_func(g_free);
	g_ptr_array_add(argv, g_strdup("perl"));
	g_ptr_array_add(argv, g_strdup(cp));
	g_ptr_array_add(argv, g_strdup("--strict"));
	g_ptr_array_add(argv, g_strdup("--terse"));
	g_ptr_array_add(argv, g_strdup("--no-summary"));
	g_ptr_array_add(argv, g_strdup("--show-types"));
	/* as the checkpatch stage: the tarball base has no history to look in */
	g_ptr_array_add(argv, g_strdup("--ignore"));
	g_ptr_array_add(argv, g_strdup("UNKNOWN_COMMIT_ID"));
	for (guint i = 0; i < f->files->len; i++) {
		const struct format_file *ff = f->files->pdata[i];

		if (posting_file_kind(ff->name) != POSTING_COVER)
			g_ptr_array_add(argv, g_build_filename(tmp, ff->name,
							       NULL));
	}
	g_ptr_array_add(argv, NULL);
	re = g_regex_new("^(.*?):([0-9]+): (ERROR|WARNING|CHECK):(\\S+:)? ?(.*)$",
			 0, 0, NULL);
	if (run_argv((const char *const *)argv->pdata, &o, &res) == 0) {
		char **lines = g_strsplit(res.out->str, "\n", -1);

		for (char **l = lines; *l; l++) {
			GMatchInfo *mi;

			if (g_regex_match(re, *l, 0, &mi)) {
				char *file = g_match_info_fetch(mi, 1);
				char *line = g_match_info_fetch(mi, 2);
				char *sev = g_match_info_fetch(mi, 3);
				char *type = g_match_info_fetch(mi, 4);
				char *msg = g_match_info_fetch(mi, 5);
				char *base = g_path_get_basename(file);
				char *text = g_strdup_printf("checkpatch %s %s",
							     type, msg);

				if (strcmp(sev, "CHECK"))
					finding_add(r, "mail", base, atoi(line),
						    !strcmp(sev, "ERROR") ?
							    "error" : "warning",
						    text, atoi(base));
				g_free(file);
				g_free(line);
				g_free(sev);
				g_free(type);
				g_free(msg);
				g_free(base);
				g_free(text);
			}
			g_match_info_free(mi);
		}
		g_strfreev(lines);
		run_result_release(&res);
	}
	g_regex_unref(re);
	g_ptr_array_unref(argv);
out:
	scratch_dir_remove(tmp);
	g_free(cp);
}

/*
 * Each patch's subject prefix against the Prefix: lines of the notes
 * whose Paths: match the files it touches (a warning: maintainers ask).
 */
static void check_prefixes(const struct formatted *f, struct stage_result *r)
{
	GPtrArray *notes = g_ptr_array_new_with_free_func(
		(GDestroyNotify)maint_note_free);

	maint_notes_read(notes);
	for (guint i = 0; notes->len && i < f->files->len; i++) {
		const struct format_file *ff = f->files->pdata[i];
		GPtrArray *paths = g_ptr_array_new_with_free_func(g_free);
		GPtrArray *want = g_ptr_array_new();
		GPtrArray *mails = mail_array_new();

		if (posting_file_kind(ff->name) == POSTING_COVER)
			goto next;
		recipients_touched(ff->text->str, ff->text->len, paths);
		for (guint n = 0; n < notes->len; n++) {
			struct maint_note *note = notes->pdata[n];
			bool match = false;

			for (guint k = 0; !match && k < paths->len; k++)
				match = maint_note_matches(note, paths->pdata[k]);
			for (guint k = 0; match && k < note->prefixes->len; k++)
				g_ptr_array_add(want, note->prefixes->pdata[k]);
		}
		if (!want->len ||
		    mail_parse_mbox(ff->text->str, ff->text->len, ff->name,
				    mails) < 0 || !mails->len)
			goto next;
		{
			struct subject sj;

			subject_parse(((struct mail *)mails->pdata[0])->subject,
				      &sj);
			if (!maint_prefix_ok(want, sj.title)) {
				GString *msg = g_string_new(
					"subject prefix is not one its maintainers expect (");

				for (guint k = 0; k < want->len; k++)
					g_string_append_printf(msg, "%s%s",
						k ? " " : "",
						(char *)want->pdata[k]);
				g_string_append_c(msg, ')');
				finding_add(r, "mail", ff->name, 0, "warning",
					    msg->str, atoi(ff->name));
				g_string_free(msg, TRUE);
			}
			subject_release(&sj);
		}
next:
		g_ptr_array_unref(mails);
		g_ptr_array_unref(want);
		g_ptr_array_unref(paths);
	}
	g_ptr_array_unref(notes);
}

void format_check(struct check_ctx *ctx, struct stage_result *r)
{
	struct format_opts o;
	struct formatted f;
	unsigned errors = 0, warnings = 0;
	char *record = format_version_record(ctx->s, ctx->version);

	if (record) {
		/* a record is never mailed: nothing here would go out */
		r->status = ST_SKIP;
		g_free(r->summary);
		r->summary = record;
		return;
	}
	format_opts_init(&o);
	o.repo = ctx->tree;
	formatted_init(&f);
	/*
	 * check never needs the user's identity (CI has none), and its
	 * results must not depend on it: the mails are checked as
	 * FORMAT_CHECK_SENDER would send them; format and send refuse
	 * to write without a real sender.
	 */
	o.identity = FORMAT_CHECK_SENDER;
	if (format_version(ctx->s, ctx->version, &o, &f) < 0) {
		finding_add(r, "mail", "", 0, "error",
			    "the version does not format (see the error above)",
			    0);
		goto done;
	}
	for (guint i = 0; i < f.files->len; i++) {
		const struct format_file *ff = f.files->pdata[i];

		if (posting_file_kind(ff->name) != POSTING_COVER &&
		    !format_signed_off(ff->text->str, ff->text->len))
			finding_add(r, "mail", ff->name, 0, "error",
				    "no Signed-off-by", atoi(ff->name));
	}
	check_prefixes(&f, r);
	if (!f.to->len && !f.cc->len)
		finding_add(r, "mail", "", 0, "error",
			    "no recipients: no series.to/cc, no MAINTAINERS-notes match, no get_maintainer.pl output",
			    0);
	if (ctx->version > 1 && !format_has_changelog(f.blurb))
		finding_add(r, "mail", f.cover ? "0000-cover-letter.patch" : "",
			    0, "error",
			    f.cover ? "v2+ without a changelog in the cover letter" :
				      "v2+ without a changelog below ---",
			    0);
	for (guint i = 0; i < f.notes->len; i++)
		finding_add(r, "mail", "", 0, "note", f.notes->pdata[i], 0);
	check_checkpatch(ctx, &f, r);
done:
	for (guint i = 0; i < r->findings->len; i++) {
		const struct finding *fd = r->findings->pdata[i];

		if (!strcmp(fd->severity, "error"))
			errors++;
		else if (!strcmp(fd->severity, "warning"))
			warnings++;
	}
	r->status = errors ? ST_FAIL : warnings ? ST_WARN : ST_PASS;
	g_free(r->summary);
	r->summary = g_strdup_printf("%u mails to %u+%u recipients: %u errors, %u warnings",
				     f.files->len, f.to->len, f.cc->len, errors,
				     warnings);
	formatted_release(&f);
}
