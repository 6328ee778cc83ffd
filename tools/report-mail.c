// SPDX-License-Identifier: GPL-2.0-only
/*
 * report-mail.c - the bot's reply to a posted version (report-mail.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <gmime/gmime.h>
#include <jansson.h>

#include "check.h"
#include "format.h"
#include "ident.h"
#include "lore.h"
#include "mail.h"
#include "report-mail.h"
#include "series.h"
#include "util.h"
#include "workbench.h"
#include "banned.h"

/* The stages that judge each patch on its own (DESIGN.md §4). */
static const char *const per_patch_stages[] = {
	"apply", "format", "provenance", "checkpatch", "build", NULL
};

struct report {
	const struct series *s;
	int version;
	guint nstages;
	struct stage_result *r;		/* one per check_stages[].name */
	bool *have;
	bool any;			/* some stage has a result */
	GPtrArray *subjects;		/* of patch 1..n (char *) */
	struct mail *posted;		/* the mail the reply answers */
	char *msgid;			/* its Message-ID, without <> */
	char *base;			/* base-commit, or series.base */
};

/* Text from results and mail on one line: control characters are spaces. */
static void append_line(GString *out, const char *s)
{
	for (const char *p = s ? s : ""; *p; p++)
		g_string_append_c(out, (unsigned char)*p < 0x20 || *p == 0x7f ?
				  ' ' : *p);
}

static void results_load(struct report *rp)
{
	rp->nstages = check_nr_stages;
	rp->r = g_new0(struct stage_result, rp->nstages);
	rp->have = g_new0(bool, rp->nstages);
	for (guint i = 0; i < rp->nstages; i++) {
		const char *name = check_stages[i].name;
		char *path = g_strdup_printf("%s/results/%s/v%d/%s.json",
					     cache_dir(), rp->s->name,
					     rp->version, name);
		json_t *j = is_file(path) ? json_load_file(path, 0, NULL) : NULL;

		stage_result_init(&rp->r[i], name);
		if (j && stage_result_from_json(j, &rp->r[i]) == 0)
			rp->have[i] = rp->any = true;
		json_decref(j);
		g_free(path);
	}
}

static char *strip_brackets(const char *id)
{
	size_t n = strlen(id);

	if (n >= 2 && id[0] == '<' && id[n - 1] == '>')
		return g_strndup(id + 1, n - 2);
	return g_strdup(id);
}

/* "base-commit: X" in the version's mails, else series.base. */
static char *find_base(const char *buf, const struct series *s)
{
	const char *p = buf ? strstr(buf, "\nbase-commit: ") : NULL;

	if (p) {
		p += strlen("\nbase-commit: ");
		return g_strndup(p, strcspn(p, " \n"));
	}
	return g_strdup(series_get(s, "series.base") ?
			series_get(s, "series.base") : "(unknown)");
}

/*
 * The posted mail (the one whose Message-ID the version records; else
 * the cover letter or the first patch), the subjects, the base.
 */
static int load_mails(struct report *rp)
{
	GPtrArray *files = series_patch_files(rp->s, rp->version, true);
	GString *all = g_string_new(NULL);
	int ret = 0;

	rp->subjects = g_ptr_array_new_with_free_func(g_free);
	for (guint i = 0; i < files->len && ret == 0; i++) {
		GPtrArray *mails = mail_array_new();
		struct mail *m;

		if (mail_read_mbox(files->pdata[i], mails) < 0 || !mails->len) {
			ret = error("cannot read '%s'", (char *)files->pdata[i]);
			g_ptr_array_unref(mails);
			break;
		}
		m = g_ptr_array_steal_index(mails, 0);
		g_ptr_array_unref(mails);
		g_string_append_len(all, m->body, m->body_len);
		if (!g_str_has_suffix(files->pdata[i], "/0000-cover-letter.patch"))
			g_ptr_array_add(rp->subjects, g_strdup(m->subject));
		if (!rp->posted || (m->message_id && !strcmp(m->message_id, rp->msgid) &&
				    g_strcmp0(rp->posted->message_id, rp->msgid))) {
			if (rp->posted)
				mail_free(rp->posted);
			rp->posted = m;
		} else {
			mail_free(m);
		}
	}
	if (ret == 0 && !rp->posted)
		ret = error("%s v%d has no mails", rp->s->name, rp->version);
	rp->base = find_base(all->str, rp->s);
	g_string_free(all, TRUE);
	g_ptr_array_unref(files);
	return ret;
}

static void report_release(struct report *rp)
{
	for (guint i = 0; i < rp->nstages; i++)
		stage_result_release(&rp->r[i]);
	g_free(rp->r);
	g_free(rp->have);
	if (rp->subjects)
		g_ptr_array_unref(rp->subjects);
	if (rp->posted)
		mail_free(rp->posted);
	g_free(rp->msgid);
	g_free(rp->base);
}

/* ---- headers ---- */

static void add_mailbox(InternetAddressList *l, const char *text,
			const char *skip1, const char *skip2)
{
	InternetAddressList *in = internet_address_list_parse(NULL, text ? text : "");

	for (int i = 0; in && i < internet_address_list_length(in); i++) {
		InternetAddress *a = internet_address_list_get_address(in, i);
		const char *addr;
		bool dup = false;

		if (!INTERNET_ADDRESS_IS_MAILBOX(a))
			continue;
		addr = internet_address_mailbox_get_addr(INTERNET_ADDRESS_MAILBOX(a));
		if ((skip1 && ident_same_email(addr, skip1)) ||
		    (skip2 && ident_same_email(addr, skip2)))
			continue;
		for (int k = 0; k < internet_address_list_length(l); k++) {
			InternetAddress *b = internet_address_list_get_address(l, k);

			dup |= ident_same_email(addr, internet_address_mailbox_get_addr(
				INTERNET_ADDRESS_MAILBOX(b)));
		}
		if (!dup)
			internet_address_list_add(l, a);
	}
	if (in)
		g_object_unref(in);
}

static void header_list(GString *out, const char *name, InternetAddressList *l)
{
	char *s;

	if (!internet_address_list_length(l))
		return;
	s = internet_address_list_to_string(l, NULL, TRUE);
	g_string_append_printf(out, "%s: %s\n", name, s);
	g_free(s);
}

static bool is_ascii(const char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s >= 0x80)
			return false;
	return true;
}

/* RFC 5322 3.3, in English whatever the locale. */
static void header_date(GString *out)
{
	static const char *const days[] = { "Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun" };
	static const char *const months[] = { "Jan", "Feb", "Mar", "Apr", "May", "Jun",
					       "Jul", "Aug", "Sep", "Oct", "Nov", "Dec" };
	GDateTime *now = g_date_time_new_now_local();
	gint64 off = g_date_time_get_utc_offset(now) / G_TIME_SPAN_MINUTE;

	g_string_append_printf(out, "Date: %s, %02d %s %d %02d:%02d:%02d %c%02d%02d\n",
			       days[g_date_time_get_day_of_week(now) - 1],
			       g_date_time_get_day_of_month(now),
			       months[g_date_time_get_month(now) - 1],
			       g_date_time_get_year(now), g_date_time_get_hour(now),
			       g_date_time_get_minute(now), g_date_time_get_second(now),
			       off < 0 ? '-' : '+', (int)(llabs(off) / 60),
			       (int)(llabs(off) % 60));
	g_date_time_unref(now);
}

static void headers(GString *out, const struct report *rp,
		    const struct ident *from)
{
	InternetAddressList *to = internet_address_list_new();
	InternetAddressList *cc = internet_address_list_new();
	InternetAddressList *me = internet_address_list_new();
	const struct mail *m = rp->posted;
	GString *subj = g_string_new(NULL);
	char *key = g_strdup_printf("%s\n%s\n%d\n%" G_GINT64_FORMAT, rp->msgid,
				    rp->s->name, rp->version, g_get_real_time());
	char *sum = g_compute_checksum_for_string(G_CHECKSUM_SHA1, key, -1);

	internet_address_list_add(me, internet_address_mailbox_new(from->name, from->email));
	add_mailbox(to, *m->from ? m->from : series_version_get(rp->s, rp->version, "author"),
		    from->email, NULL);
	add_mailbox(cc, m->to, from->email, m->from_email);
	add_mailbox(cc, m->cc, from->email, m->from_email);
	if (!internet_address_list_length(cc)) {
		/* a posting without its recipients: the series' own */
		GPtrArray *lists[] = { series_get_all(rp->s, "series.to"),
				       series_get_all(rp->s, "series.cc") };

		for (size_t i = 0; i < G_N_ELEMENTS(lists); i++)
			for (guint k = 0; lists[i] && k < lists[i]->len; k++)
				add_mailbox(cc, lists[i]->pdata[k], from->email,
					    m->from_email);
	}
	g_string_append(out, "From 0000000000000000000000000000000000000000 Mon Sep 17 00:00:00 2001\n");
	header_list(out, "From", me);
	header_date(out);
	if (g_ascii_strncasecmp(m->subject, "Re:", 3))
		g_string_append(subj, "Re: ");
	append_line(subj, m->subject);
	if (is_ascii(subj->str)) {
		g_string_append_printf(out, "Subject: %s\n", subj->str);
	} else {
		char *enc = g_mime_utils_header_encode_text(NULL, subj->str, NULL);

		g_string_append_printf(out, "Subject: %s\n", enc);
		g_free(enc);
	}
	header_list(out, "To", to);
	header_list(out, "Cc", cc);
	g_string_append_printf(out, "Message-ID: <kseries-report-%.16s@%s>\n", sum,
			       ident_domain(from));
	g_string_append_printf(out, "In-Reply-To: <%s>\nReferences: <%s>\n",
			       rp->msgid, rp->msgid);
	g_string_append(out, "MIME-Version: 1.0\n"
			"Content-Type: text/plain; charset=UTF-8\n"
			"Content-Transfer-Encoding: 8bit\n\n");
	g_object_unref(to);
	g_object_unref(cc);
	g_object_unref(me);
	g_string_free(subj, TRUE);
	g_free(sum);
	g_free(key);
}

/* ---- the body ---- */

static bool is_per_patch(const char *stage)
{
	for (int i = 0; per_patch_stages[i]; i++)
		if (!strcmp(per_patch_stages[i], stage))
			return true;
	return false;
}

static bool counts(const struct finding *f)
{
	return f->sev != SEV_NOTE;
}

/* A stage's verdict on patch k: its findings there, or its status. */
static const char *patch_verdict(const struct stage_result *r, int k,
				 unsigned *n)
{
	bool err = false;

	*n = 0;
	if (r->status == ST_SKIP)
		return "skip";
	for (guint i = 0; i < r->findings->len; i++) {
		const struct finding *f = r->findings->pdata[i];

		if (f->patch != k || !counts(f))
			continue;
		(*n)++;
		err |= f->sev == SEV_ERROR;
	}
	return err ? "fail" : *n ? "warn" : "pass";
}

static unsigned count_new(const struct report *rp)
{
	unsigned n = 0;

	for (guint i = 0; i < rp->nstages; i++)
		for (guint k = 0; rp->have[i] && k < rp->r[i].findings->len; k++)
			n += strcmp(rp->r[i].name, "feedback") &&
			     counts(rp->r[i].findings->pdata[k]);
	return n;
}

static void body_stages(GString *out, const struct report *rp)
{
	g_string_append(out, "Stages, for the series:\n\n");
	for (guint i = 0; i < rp->nstages; i++) {
		if (!rp->have[i])
			continue;
		g_string_append_printf(out, "  %-11s %-5s ", rp->r[i].name,
				       stage_status_name(rp->r[i].status));
		append_line(out, rp->r[i].summary);
		g_string_append_c(out, '\n');
	}
	g_string_append(out, "\n");
}

static void body_patches(GString *out, const struct report *rp)
{
	guint n = rp->subjects->len;

	g_string_append(out, "Per patch:\n\n");
	for (guint k = 1; k <= n; k++) {
		GString *line = g_string_new("       ");
		bool any = false;

		g_string_append_printf(out, "  patch %u/%u: ", k, n);
		append_line(out, rp->subjects->pdata[k - 1]);
		g_string_append_c(out, '\n');
		for (guint i = 0; i < rp->nstages; i++) {
			const char *v;
			unsigned cnt;

			if (!rp->have[i] || !is_per_patch(rp->r[i].name))
				continue;
			v = patch_verdict(&rp->r[i], (int)k, &cnt);
			g_string_append_printf(line, " %s: %s", rp->r[i].name, v);
			if (cnt)
				g_string_append_printf(line, " (%u)", cnt);
			any = true;
		}
		if (any)
			g_string_append_printf(out, "%s\n", line->str);
		g_string_free(line, TRUE);
	}
	g_string_append(out, "\n");
}

static void finding_line(GString *out, const struct stage_result *r,
			 const struct finding *f)
{
	g_string_append(out, ">> ");
	append_line(out, f->file && *f->file ? f->file : r->name);
	if (f->line)
		g_string_append_printf(out, ":%d", f->line);
	g_string_append(out, ": ");
	append_line(out, severity_name(f->sev));
	g_string_append(out, ": ");
	append_line(out, f->message);
	g_string_append_printf(out, " [%s]\n", r->name);
}

/* The findings of patch k (0: the series as a whole). */
static bool findings_of(GString *out, const struct report *rp, int k)
{
	bool any = false;

	for (guint i = 0; i < rp->nstages; i++) {
		const struct stage_result *r = &rp->r[i];

		if (!rp->have[i] || !strcmp(r->name, "feedback"))
			continue;
		for (guint j = 0; j < r->findings->len; j++) {
			const struct finding *f = r->findings->pdata[j];

			if (f->patch != k || !counts(f))
				continue;
			if (!any) {
				if (k > 0 && (guint)k <= rp->subjects->len) {
					append_line(out, rp->subjects->pdata[k - 1]);
					g_string_append(out, ":\n");
				} else {
					g_string_append(out, "The series as a whole:\n");
				}
			}
			any = true;
			finding_line(out, r, f);
		}
	}
	if (any)
		g_string_append(out, "\n");
	return any;
}

static void body(GString *out, const struct report *rp, const char *lore)
{
	const struct mail *m = rp->posted;
	unsigned nnew = count_new(rp);
	char *url = lore_thread_url(lore, rp->msgid);

	url[strlen(url) - strlen("t.mbox.gz")] = '\0';
	g_string_append(out, "Hi ");
	append_line(out, *m->from_name ? m->from_name : m->from_email);
	g_string_append(out, ",\n\n");
	g_string_append_printf(out, "kseries checked v%d of this series (%u patch%s) "
			       "on its base,\nand found %s.\n\n",
			       rp->version, rp->subjects->len,
			       rp->subjects->len == 1 ? "" : "es",
			       nnew ? "new problems" : "no new problems");
	g_string_append_printf(out, "series: %s v%d\nbase:   ", rp->s->name, rp->version);
	append_line(out, rp->base);
	g_string_append_printf(out, "\nlink:   %s", url);
	g_string_append(out, "\n\n");
	body_stages(out, rp);
	body_patches(out, rp);
	if (nnew) {
		g_string_append(out, "New findings (the ones the series adds; "
				"each prefixed by >>):\n\n");
		for (guint k = 1; k <= rp->subjects->len; k++)
			findings_of(out, rp, (int)k);
		findings_of(out, rp, 0);
	}
	g_string_append(out, "To reproduce, in a kseries store that holds the series:\n\n");
	g_string_append_printf(out, "    kseries check %s@v%d\n\n", rp->s->name, rp->version);
	g_string_append(out, "which applies the patches on base-commit\n");
	append_line(out, rp->base);
	g_string_append_printf(out, " and runs the stages above (one of them:\n"
			       "kseries check %s@v%d --stage NAME).\n\n"
			       "-- \nkseries\n", rp->s->name, rp->version);
	g_free(url);
}

/* mboxrd: a body line starting with ">*From " gets one more '>'. */
static void append_body_escaped(GString *out, const char *text)
{
	const char *p = text;

	while (*p) {
		const char *nl = strchr(p, '\n'), *q = p;
		size_t len = nl ? (size_t)(nl - p + 1) : strlen(p);

		while (*q == '>')
			q++;
		if (starts_with(q, "From "))
			g_string_append_c(out, '>');
		g_string_append_len(out, p, len);
		p += len;
	}
}

int report_mail_build(const struct series *s, int version,
		      const struct ident *from, GString *out)
{
	struct report rp = { .s = s, .version = version };
	const char *msgid = series_version_get(s, version, "message-id");
	char *why, *lore = NULL;
	GString *text;
	int ret = -1;

	if (!msgid || !*msgid)
		return error("%s v%d was not posted (no version.%d.message-id): there is nothing to reply to",
			     s->name, version, version);
	why = format_version_record(s, version);
	if (why) {
		error("%s: there is nothing to reply to", why);
		g_free(why);
		return -1;
	}
	rp.msgid = strip_brackets(msgid);
	results_load(&rp);
	if (!rp.any) {
		error("%s v%d has no check results: run 'kseries check %s@v%d' first",
		      s->name, version, s->name, version);
		goto out;
	}
	lore = lore_base();
	if (!lore || load_mails(&rp) < 0)
		goto out;
	headers(out, &rp, from);
	text = g_string_new(NULL);
	body(text, &rp, lore);
	append_body_escaped(out, text->str);
	g_string_free(text, TRUE);
	ret = 0;
out:
	g_free(lore);
	report_release(&rp);
	return ret;
}

int report_mail_write(const struct series *s, int version, const char *dir,
		      char **path)
{
	struct ident id;
	GString *out = g_string_new(NULL);
	int ret = -1;

	*path = NULL;
	ident_init(&id);
	if (ident_sender_or_error(&id) < 0)
		goto out;
	if (report_mail_build(s, version, &id, out) < 0)
		goto out;
	if (mkdir_p(dir) < 0) {
		error_errno("cannot make '%s'", dir);
		goto out;
	}
	*path = g_strdup_printf("%s/%s-v%d-report.mbox", dir, s->name, version);
	ret = write_file_atomic(*path, out->str, out->len);
	if (ret < 0)
		g_clear_pointer(path, g_free);
out:
	ident_release(&id);
	g_string_free(out, TRUE);
	return ret;
}
