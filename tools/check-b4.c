// SPDX-License-Identifier: GPL-2.0-only
/*
 * check-b4.c - kseries check --b4: the results of a check in b4's
 * review-check protocol.
 */
#include <stdlib.h>
#include <string.h>
#include <glib.h>

#include "check-b4.h"
#include "mail.h"
#include "series.h"
#include "subject.h"
#include "util.h"
#include "banned.h"

/*
 * The fingerprint of a mail's diff, in the spirit of `git patch-id
 * --stable`: the file names and the added and removed lines with their
 * white space taken out, hashed; line numbers, context, index lines and
 * the mail around the diff do not count. Unlike git patch-id it also
 * reads diffs without "diff --git" headers (quilt, diff -u). New string,
 * NULL when the text holds no diff.
 */
static char *diff_fingerprint(const char *text, size_t len)
{
	GChecksum *sum = g_checksum_new(G_CHECKSUM_SHA1);
	const char *p = text, *end = text + len;
	bool in_diff = false, any = false;
	char *id = NULL;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *le = nl ? nl : end;
		size_t n = (size_t)(le - p);

		if (!in_diff) {
			/* "--- a" followed by "+++ b" starts a diff */
			if (n > 4 && !strncmp(p, "--- ", 4) && nl && end - nl > 5 &&
			    !strncmp(nl + 1, "+++ ", 4))
				in_diff = true;
		} else if (n == 3 && !strncmp(p, "-- ", 3)) {
			break;		/* the signature */
		}
		if (in_diff) {
			if (n > 4 && (!strncmp(p, "--- ", 4) || !strncmp(p, "+++ ", 4))) {
				const char *f = p + 4, *fe = memchr(f, '\t', n - 4);

				fe = fe ? fe : le;
				if (fe - f > 2 && (f[0] == 'a' || f[0] == 'b') && f[1] == '/')
					f += 2;
				g_checksum_update(sum, (const guchar *)p, 4);
				g_checksum_update(sum, (const guchar *)f, fe - f);
			} else if (n && (*p == '+' || *p == '-')) {
				g_checksum_update(sum, (const guchar *)p, 1);
				for (const char *c = p + 1; c < le; c++)
					if (!g_ascii_isspace(*c))
						g_checksum_update(sum, (const guchar *)c, 1);
				any = true;
			}
		}
		p = nl ? nl + 1 : end;
	}
	if (any)
		id = g_strdup(g_checksum_get_string(sum));
	g_checksum_free(sum);
	return id;
}

struct wanted {
	const struct mail *m;
	struct subject subj;
	char *pid;
};

/*
 * Does the stored mail at path hold the message we look for? The same
 * Message-ID; or the same diff in a mail of the same version (an
 * unchanged patch is in several versions); or, for a cover letter, the
 * same version and title.
 */
static bool same_message(const struct wanted *w, const char *path, int index)
{
	GPtrArray *mails = mail_array_new();
	const struct mail *f;
	struct subject fs;
	bool same = false;

	if (mail_read_mbox(path, mails) < 0 || mails->len != 1)
		goto out;
	f = mails->pdata[0];
	if (w->m->message_id && f->message_id &&
	    !strcmp(w->m->message_id, f->message_id)) {
		same = true;
		goto out;
	}
	subject_parse(f->subject, &fs);
	if (fs.version == w->subj.version) {
		if (w->pid && index) {
			char *pid = diff_fingerprint(f->body, f->body_len);

			same = pid && !strcmp(pid, w->pid);
			g_free(pid);
		} else if (!w->pid && !index && !w->subj.index) {
			same = !strcmp(fs.title, w->subj.title);
		}
	}
	subject_release(&fs);
out:
	g_ptr_array_unref(mails);
	return same;
}

int b4_locate(const char *raw, size_t len, char **name, int *version,
	      int *index)
{
	GPtrArray *mails = mail_array_new();
	GPtrArray *names = NULL;
	struct wanted w = { 0 };
	int found = 0;

	if (mail_parse_mbox(raw, len, "<stdin>", mails) < 0) {
		g_ptr_array_unref(mails);
		return -1;
	}
	if (mails->len != 1) {
		error("<stdin>: want one message, got %u", mails->len);
		g_ptr_array_unref(mails);
		return -1;
	}
	w.m = mails->pdata[0];
	subject_parse(w.m->subject, &w.subj);
	w.pid = diff_fingerprint(w.m->body, w.m->body_len);
	names = series_list_names();
	for (guint i = 0; i < names->len && !found; i++) {
		struct series s;
		GArray *versions;

		if (series_load(names->pdata[i], &s) < 0)
			continue;
		versions = series_versions(&s);
		for (guint k = 0; k < versions->len && !found; k++) {
			int v = g_array_index(versions, int, k);
			GPtrArray *files = series_patch_files(&s, v, true);

			for (guint f = 0; f < files->len && !found; f++) {
				char *bn = g_path_get_basename(files->pdata[f]);
				int idx = atoi(bn);

				if (same_message(&w, files->pdata[f], idx)) {
					*name = g_strdup(s.name);
					*version = v;
					*index = idx;
					found = 1;
				}
				g_free(bn);
			}
			g_ptr_array_unref(files);
		}
		g_array_unref(versions);
		series_release(&s);
	}
	g_ptr_array_unref(names);
	g_free(w.pid);
	subject_release(&w.subj);
	g_ptr_array_unref(mails);
	return found;
}

static const char *const per_patch[] = { "apply", "format", "provenance",
					  "checkpatch", "build", NULL };

static bool is_per_patch(const char *stage)
{
	for (int i = 0; per_patch[i]; i++)
		if (!strcmp(per_patch[i], stage))
			return true;
	return false;
}

/* "file:line: severity: message" lines of the findings for patch index. */
static char *details(json_t *findings, int index, bool *errors, bool *warnings)
{
	GString *d = g_string_new(NULL);
	size_t i;
	json_t *f;

	json_array_foreach(findings, i, f) {
		const char *file = json_string_value(json_object_get(f, "file"));
		const char *sev = json_string_value(json_object_get(f, "severity"));
		const char *msg = json_string_value(json_object_get(f, "message"));
		int line = (int)json_integer_value(json_object_get(f, "line"));
		int patch = (int)json_integer_value(json_object_get(f, "patch"));

		if (index && patch != index)
			continue;
		if (!strcmp(sev ? sev : "", "error"))
			*errors = true;
		else
			*warnings = true;
		if (line)
			g_string_append_printf(d, "%s:%d: %s: %s\n", file ? file : "",
					       line, sev ? sev : "", msg ? msg : "");
		else
			g_string_append_printf(d, "%s: %s: %s\n",
					       file && *file ? file : "series",
					       sev ? sev : "", msg ? msg : "");
	}
	return g_string_free(d, FALSE);
}

json_t *b4_report(json_t *checked, int index)
{
	json_t *out = json_array(), *st;
	size_t i;

	json_array_foreach(json_object_get(checked, "stages"), i, st) {
		const char *stage = json_string_value(json_object_get(st, "stage"));
		const char *status = json_string_value(json_object_get(st, "status"));
		const char *summary = json_string_value(json_object_get(st, "summary"));
		bool errors = false, warnings = false;
		char *tool, *text;
		json_t *r;

		if (!stage || !status || !strcmp(status, "skip"))
			continue;
		if (index && !is_per_patch(stage))
			continue;
		text = details(json_object_get(st, "findings"), index, &errors,
			       &warnings);
		if (index && strcmp(stage, "apply")) {
			/* this patch's findings decide; a stage that failed
			 * without naming a patch fails every patch */
			if (!errors && !warnings && strcmp(status, "pass") &&
			    !json_array_size(json_object_get(st, "findings")))
				errors = !strcmp(status, "fail");
			status = errors ? "fail" : warnings ? "warn" : "pass";
		}
		tool = g_strdup_printf("kseries-%s", stage);
		r = json_pack("{s:s, s:s, s:s}", "tool", tool, "status", status,
			      "summary", summary ? summary : "");
		if (*text)
			json_object_set_new(r, "details", json_string(text));
		json_array_append_new(out, r);
		g_free(tool);
		g_free(text);
	}
	return out;
}
