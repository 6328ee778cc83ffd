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

/*
 * checkpatch.pl on the patch mails, in one run (stage-checkpatch.c): its
 * errors and warnings, at the lines of the mails; the checkpatch stage
 * has its CHECKs.
 */
static void check_checkpatch(struct check_ctx *ctx, struct formatted *f,
			     struct stage_result *r)
{
	char *cp = checkpatch_script(ctx->tree);
	char *tmp = NULL;
	GPtrArray *paths;
	struct run_result res;

	if (!cp) {
		stage_finding(r, "mail", AT("", 0, 0), SEV_NOTE,
			      "checkpatch.pl not run: the base tree has none");
		return;
	}
	g_free(cp);
	tmp = scratch_dir_make("mailcheck");
	if (!tmp || formatted_write(f, tmp) < 0) {
		stage_finding(r, "mail", AT("", 0, 0), SEV_ERROR,
			      "cannot write the mails for checkpatch");
		goto out;
	}
	paths = g_ptr_array_new_with_free_func(g_free);
	for (guint i = 0; i < f->files->len; i++) {
		const struct format_file *ff = f->files->pdata[i];

		if (posting_file_kind(ff->name) != POSTING_COVER)
			g_ptr_array_add(paths, g_build_filename(tmp, ff->name,
								NULL));
	}
	g_ptr_array_add(paths, NULL);
	/* no --root: checkpatch takes the tree it runs in, as "." */
	if (checkpatch_run_mails(ctx->tree, NULL,
				 (const char *const *)paths->pdata, &res) == 0) {
		GPtrArray *found = checkpatch_parse(res.out->str);

		for (guint i = 0; i < found->len; i++) {
			const struct checkpatch_line *cl = found->pdata[i];
			char *base = g_path_get_basename(cl->file);

			if (cl->sev != SEV_CHECK)
				stage_finding(r, "mail",
					      AT(base, cl->line, atoi(base)),
					      cl->sev, "checkpatch %s",
					      cl->message);
			g_free(base);
		}
		g_ptr_array_unref(found);
		run_result_release(&res);
	}
	g_ptr_array_unref(paths);
out:
	scratch_dir_remove(tmp);
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
				stage_finding(r, "mail",
					      AT(ff->name, 0, atoi(ff->name)),
					      SEV_WARNING, "%s", msg->str);
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
		stage_skip(r, record);
		g_free(record);
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
		stage_finding(r, "mail", AT("", 0, 0), SEV_ERROR,
			      "the version does not format (see the error above)");
		goto done;
	}
	for (guint i = 0; i < f.files->len; i++) {
		const struct format_file *ff = f.files->pdata[i];

		if (posting_file_kind(ff->name) != POSTING_COVER &&
		    !format_signed_off(ff->text->str, ff->text->len))
			stage_finding(r, "mail",
				      AT(ff->name, 0, atoi(ff->name)), SEV_ERROR,
				      "no Signed-off-by");
	}
	check_prefixes(&f, r);
	if (!f.to->len && !f.cc->len)
		stage_finding(r, "mail", AT("", 0, 0), SEV_ERROR,
			      "no recipients: no series.to/cc, no MAINTAINERS-notes match, no get_maintainer.pl output");
	if (ctx->version > 1 && !format_has_changelog(f.blurb))
		stage_finding(r, "mail",
			      AT(f.cover ? "0000-cover-letter.patch" : "", 0, 0),
			      SEV_ERROR, "%s",
			      f.cover ? "v2+ without a changelog in the cover letter" :
					"v2+ without a changelog below ---");
	for (guint i = 0; i < f.notes->len; i++)
		stage_finding(r, "mail", AT("", 0, 0), SEV_NOTE, "%s",
			      (const char *)f.notes->pdata[i]);
	check_checkpatch(ctx, &f, r);
done:
	for (guint i = 0; i < r->findings->len; i++) {
		const struct finding *fd = r->findings->pdata[i];

		if (fd->sev == SEV_ERROR)
			errors++;
		else if (fd->sev == SEV_WARNING)
			warnings++;
	}
	/* notes say what format did: they neither warn nor fail */
	r->status = errors ? ST_FAIL : warnings ? ST_WARN : ST_PASS;
	stage_summary(r, "%u mails to %u+%u recipients: %u errors, %u warnings",
		      f.files->len, f.to->len, f.cc->len, errors, warnings);
	formatted_release(&f);
}
