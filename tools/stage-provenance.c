// SPDX-License-Identifier: GPL-2.0-only
/*
 * stage-provenance.c - every trailer, author and link of a version traced
 * to a mail the store holds (DESIGN.md §4, §6).
 *
 * Evidence is what the series' store holds: the versions that were
 * posted (series.conf origin = posted: their patch files are the mails
 * of that posting), the patch mails and the replies in every version's
 * thread.mbox (read by review.c: its trailers are the replier's own
 * lines, never quoted ones), and series.conf's record of Message-IDs.
 * Per patch of the version checked, in its mail file:
 *
 *  - a Signed-off-by: other than the sender's (ident.h) appears on that
 *    patch in a posting (the patch matched by patch-id, else by title);
 *  - Reviewed-by/Acked-by/Tested-by: was given in a reply (or carried by
 *    a posting) to that patch, or to the cover of its series; a note
 *    names the Message-ID; given to a patch whose diff changed since
 *    (another patch-id), a warning names both versions. Reported-by and
 *    Suggested-by: also a mail from that person anywhere in the store.
 *    No source: an error;
 *  - Co-developed-by: is followed by the same person's Signed-off-by:
 *    (Documentation/process/submitting-patches.rst);
 *  - a From: other than the sender's needs that person's Signed-off-by:
 *    on a posting of that patch;
 *  - Link:, "Link to vN:" and In-Reply-To/References name no Message-ID
 *    that was made up (format_msgid_reconstructed()); one the store
 *    does not hold is a warning (it cannot be verified here);
 *  - no placeholder address (localhost, *.invalid) in the headers, the
 *    message or the notes below "---".
 * A reconstructed version (format_version_record()) is a record, not a
 * submission: what cannot be verified is reported as a warning, and the
 * stage never fails on it.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "format.h"
#include "ident.h"
#include "mail.h"
#include "review.h"
#include "run.h"
#include "series.h"
#include "subject.h"
#include "trailer.h"
#include "util.h"
#include "banned.h"

/* A patch as posted: a mail of a posted version, or one in a thread. */
struct posting {
	int version;
	char *title;
	char *pid;		/* git patch-id --stable, or NULL */
	char *msgid;		/* or NULL (a stored file without one) */
	char *author;		/* email */
	GPtrArray *sobs;	/* char *, emails */
	GPtrArray *tags;	/* char *, "kind\temail" lower case */
};

/* A trailer given in a reply. */
struct given {
	int version;
	char *kind;		/* "reviewed-by" */
	char *email;
	char *msgid;
	bool series;		/* for every patch of that posting */
	char *title;		/* the patch it was given to, or NULL */
	char *pid;
};

struct evidence {
	GPtrArray *postings;	/* struct posting * */
	GPtrArray *given;	/* struct given * */
	GHashTable *senders;	/* email (lower case) → a msgid they sent */
	GHashTable *ids;	/* Message-IDs the store holds */
	const struct series *s;
};

static void posting_free(struct posting *p)
{
	g_free(p->title);
	g_free(p->pid);
	g_free(p->msgid);
	g_free(p->author);
	g_ptr_array_unref(p->sobs);
	g_ptr_array_unref(p->tags);
	g_free(p);
}

static void given_free(struct given *g)
{
	g_free(g->kind);
	g_free(g->email);
	g_free(g->msgid);
	g_free(g->title);
	g_free(g->pid);
	g_free(g);
}

/* git patch-id --stable of a mail's text; new string or NULL. */
static char *patch_id_of(const char *text, size_t len)
{
	const char *argv[] = { "git", "patch-id", "--stable", NULL };
	struct run_opts o = { .in = text, .in_len = len };
	GString *out = g_string_new(NULL);
	char *pid = NULL;

	if (run_output(&o, argv, out, NULL) == 0 && out->len > 40)
		pid = g_strndup(out->str, strcspn(out->str, " \n"));
	g_string_free(out, TRUE);
	return pid;
}

static char *title_of(const char *subject)
{
	struct subject sj;
	char *t;

	subject_parse(subject ? subject : "", &sj);
	t = g_ascii_strdown(sj.title ? sj.title : "", -1);
	subject_release(&sj);
	return t;
}

/* The commit message: the body up to the "---" line (or the diff). */
static size_t message_len(const char *body)
{
	const char *p = body;

	for (;;) {
		const char *nl = strchr(p, '\n');
		size_t n = nl ? (size_t)(nl - p) : strlen(p);

		if ((n == 3 && !strncmp(p, "---", 3)) ||
		    starts_with(p, "diff --git "))
			return (size_t)(p - body);
		if (!nl)
			return strlen(body);
		p = nl + 1;
	}
}

/* "Key: Name <email>" → email (new, lower case) when the key matches. */
static char *person_of(const char *line, const char *key)
{
	size_t n = strlen(key);
	char *name, *email, *low;

	if (g_ascii_strncasecmp(line, key, n) || line[n] != ':')
		return NULL;
	trailer_split_person(line + n + 1, strlen(line + n + 1), &name, &email);
	low = g_ascii_strdown(email, -1);
	g_free(name);
	g_free(email);
	return low;
}

static struct posting *posting_from_mail(const struct mail *m, int version)
{
	struct posting *p = g_new0(struct posting, 1);
	char *msg = g_strndup(m->body, message_len(m->body));
	char **lines = g_strsplit(msg, "\n", -1);

	p->version = version;
	p->title = title_of(m->subject);
	p->pid = patch_id_of(m->raw, m->raw_len);
	p->msgid = g_strdup(m->message_id);
	p->author = g_ascii_strdown(m->from_email, -1);
	p->sobs = g_ptr_array_new_with_free_func(g_free);
	p->tags = g_ptr_array_new_with_free_func(g_free);
	for (char **l = lines; *l; l++) {
		char *e = person_of(*l, "Signed-off-by");
		struct trailer t;

		if (e)
			g_ptr_array_add(p->sobs, e);
		if (trailer_parse_line(*l, strlen(*l), &t)) {
			char *k = g_ascii_strdown(t.kind, -1);
			char *em = g_ascii_strdown(t.email, -1);

			g_ptr_array_add(p->tags, g_strdup_printf("%s\t%s", k, em));
			g_free(k);
			g_free(em);
			trailer_release(&t);
		}
	}
	g_strfreev(lines);
	g_free(msg);
	return p;
}

static bool version_posted(const struct series *s, int v)
{
	const char *origin = series_version_get(s, v, "origin");

	return origin && !strcmp(origin, "posted");
}

/* The replies of one thread.mbox: their trailers and their senders. */
static void add_thread(struct evidence *ev, int v, const GPtrArray *mails)
{
	GHashTable *pids = g_hash_table_new_full(g_str_hash, g_str_equal,
						 g_free, g_free);
	struct review rv;

	review_init(&rv);
	review_extract(&rv, mails);
	for (guint i = 0; i < rv.messages->len; i++) {
		const struct review_message *rm = rv.messages->pdata[i];
		char *from = g_ascii_strdown(rm->mail->from_email, -1);

		if (rm->mail->message_id)
			g_hash_table_add(ev->ids, g_strdup(rm->mail->message_id));
		if (*from && rm->mail->message_id &&
		    !g_hash_table_contains(ev->senders, from))
			g_hash_table_insert(ev->senders, g_strdup(from),
					    g_strdup(rm->mail->message_id));
		g_free(from);
		if (rm->kind == REVIEW_PATCH)
			g_ptr_array_add(ev->postings,
					posting_from_mail(rm->mail, v));
	}
	for (guint i = 0; i < rv.trailers->len; i++) {
		const struct review_trailer *t = rv.trailers->pdata[i];
		guint n = t->applies_to ? t->applies_to->len : 0;

		for (guint k = 0; k <= n; k++) {
			struct review_message *to = k < n ?
				review_find(&rv, t->applies_to->pdata[k]) : NULL;
			struct given *g;

			/* a trailer for the series applies to each of its
			 * patches, and also to those the mbox lacks */
			if (k == n && !(t->scope == SCOPE_SERIES || !n))
				break;
			g = g_new0(struct given, 1);
			g->version = v;
			g->kind = g_ascii_strdown(t->kind, -1);
			g->email = g_ascii_strdown(t->email, -1);
			g->msgid = g_strdup(t->given_in);
			g->series = k == n;
			if (to) {
				const char *key = to->id;
				const char *pid = g_hash_table_lookup(pids, key);

				/* one patch-id per patch, however many tags */
				if (!pid && !g_hash_table_contains(pids, key)) {
					char *np = patch_id_of(to->mail->raw,
							       to->mail->raw_len);

					g_hash_table_insert(pids, g_strdup(key), np);
					pid = np;
				}
				g->title = title_of(to->mail->subject);
				g->pid = g_strdup(pid);
			} else if (k < n) {
				/* the patch is not in the mbox: the reply's
				 * subject names it, its diff is unknown */
				struct review_message *by =
					review_find(&rv, t->given_in);

				if (by)
					g->title = title_of(by->mail->subject);
			}
			g_ptr_array_add(ev->given, g);
		}
	}
	g_hash_table_unref(pids);
	review_release(&rv);
}

static void line_ids(const char *line, bool header, GPtrArray *out);

static void evidence_load(struct evidence *ev, const struct series *s)
{
	GArray *vs = series_versions(s);

	ev->s = s;
	ev->postings = g_ptr_array_new_with_free_func(
		(GDestroyNotify)posting_free);
	ev->given = g_ptr_array_new_with_free_func((GDestroyNotify)given_free);
	ev->senders = g_hash_table_new_full(g_str_hash, g_str_equal, g_free,
					    g_free);
	ev->ids = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
	for (guint i = 0; i < vs->len; i++) {
		int v = g_array_index(vs, int, i);
		char *vdir = series_version_dir(s, v);
		char *mbox = g_build_filename(vdir, "thread.mbox", NULL);
		GPtrArray *mails = mail_array_new();
		const char *id;

		id = series_version_get(s, v, "message-id");
		if (id && !format_msgid_reconstructed(s, id))
			g_hash_table_add(ev->ids, g_strdup(id));
		/* what a later posting linked to, or a thread answered */
		id = series_version_get(s, v, "in-reply-to");
		if (id && !format_msgid_reconstructed(s, id))
			g_hash_table_add(ev->ids, g_strdup(id));
		id = series_version_get(s, v, "link");
		if (id) {
			GPtrArray *ids = g_ptr_array_new_with_free_func(g_free);

			line_ids(id, false, ids);
			for (guint k = 0; k < ids->len; k++)
				if (!format_msgid_reconstructed(s, ids->pdata[k]))
					g_hash_table_add(ev->ids,
							 g_strdup(ids->pdata[k]));
			g_ptr_array_unref(ids);
		}
		if (version_posted(s, v)) {
			GPtrArray *files = series_patch_files(s, v, false);

			for (guint k = 0; k < files->len; k++) {
				GPtrArray *m = mail_array_new();

				if (mail_read_mbox(files->pdata[k], m) == 0 &&
				    m->len)
					g_ptr_array_add(ev->postings,
						posting_from_mail(m->pdata[0], v));
				g_ptr_array_unref(m);
			}
			g_ptr_array_unref(files);
		}
		if (is_file(mbox) && mail_read_mbox(mbox, mails) == 0)
			add_thread(ev, v, mails);
		g_ptr_array_unref(mails);
		g_free(mbox);
		g_free(vdir);
	}
	g_array_unref(vs);
}

static void evidence_release(struct evidence *ev)
{
	g_ptr_array_unref(ev->postings);
	g_ptr_array_unref(ev->given);
	g_hash_table_unref(ev->senders);
	g_hash_table_unref(ev->ids);
}

/* The patch being checked. */
struct checked {
	const char *file;	/* basename */
	int index;		/* 1-based; 0 the cover */
	int version;
	char *title, *pid;
	bool record;		/* the version is a reconstructed record */
	const char *sender;	/* email, lower case, or NULL */
	struct stage_result *r;
	GHashTable *flagged;	/* lines already given an error */
	GString *log;		/* every trace, findings or not */
	unsigned *traced;
};

static bool same_patch(const struct checked *c, const char *title,
		       const char *pid, bool *changed)
{
	if (pid && c->pid && !strcmp(pid, c->pid)) {
		*changed = false;
		return true;
	}
	if (title && c->title && !strcmp(title, c->title)) {
		*changed = pid && c->pid;
		return true;
	}
	return false;
}

static void report(struct checked *c, int line, const char *sev,
		   const char *fmt, ...) G_GNUC_PRINTF(4, 5);
static void report(struct checked *c, int line, const char *sev,
		   const char *fmt, ...)
{
	va_list ap;
	char *msg, *full;

	va_start(ap, fmt);
	msg = g_strdup_vprintf(fmt, ap);
	va_end(ap);
	/* a record is not a submission: what it lacks is unverifiable */
	if (c->record && !strcmp(sev, "error")) {
		sev = "warning";
		full = g_strdup_printf("cannot verify (v%d is a reconstructed record): %s",
				       c->version, msg);
	} else {
		full = g_strdup(msg);
	}
	g_string_append_printf(c->log, "%s:%d: %s: %s\n", c->file, line, sev,
			       full);
	/* a trace found is the log's; findings are what is wrong */
	if (!strcmp(sev, "note")) {
		(*c->traced)++;
	} else {
		g_hash_table_add(c->flagged, GINT_TO_POINTER(line));
		stage_finding(c->r, "provenance", AT(c->file, line, c->index),
			      (enum severity)severity_parse(sev), "%s", full);
	}
	g_free(full);
	g_free(msg);
}

/* A posting of this patch that carries a Signed-off-by of email. */
static const struct posting *posted_sob(const struct evidence *ev,
					const struct checked *c,
					const char *email)
{
	for (guint i = 0; i < ev->postings->len; i++) {
		const struct posting *p = ev->postings->pdata[i];
		bool changed;

		if (!same_patch(c, p->title, p->pid, &changed))
			continue;
		for (guint k = 0; k < p->sobs->len; k++)
			if (!strcmp(p->sobs->pdata[k], email))
				return p;
	}
	return NULL;
}

static void check_sob(const struct evidence *ev, struct checked *c, int line,
		      const char *text, const char *email)
{
	const struct posting *p;

	/* the sender's own; a placeholder is reported as one */
	if ((c->sender && !strcmp(email, c->sender)) ||
	    ident_is_placeholder(email))
		return;
	p = posted_sob(ev, c, email);
	if (p)
		report(c, line, "note", "%s: as posted in v%d%s%s%s", text,
		       p->version, p->msgid ? " <" : "",
		       p->msgid ? p->msgid : "", p->msgid ? ">" : "");
	else
		report(c, line, "error",
		       "%s: that person never posted a Signed-off-by on this patch (no posting in the store carries it)",
		       text);
}

static void check_tag(const struct evidence *ev, struct checked *c, int line,
		      const char *text, const struct trailer *t)
{
	char *kind = g_ascii_strdown(t->kind, -1);
	char *email = g_ascii_strdown(t->email, -1);
	char *want = g_strdup_printf("%s\t%s", kind, email);
	const struct given *changed_g = NULL;
	const struct posting *changed_p = NULL;
	bool found = false;

	for (guint i = 0; !found && i < ev->given->len; i++) {
		const struct given *g = ev->given->pdata[i];
		bool changed = false;

		if (strcmp(g->kind, kind) || strcmp(g->email, email))
			continue;
		if (!g->series && !same_patch(c, g->title, g->pid, &changed))
			continue;
		if (changed) {
			changed_g = g;
			continue;
		}
		if (!g->series && !g->pid && g->version != c->version) {
			report(c, line, "warning",
			       "%s: given in <%s> on v%d, to a patch whose diff the store does not hold: cannot tell whether it changed since",
			       text, g->msgid ? g->msgid : "?", g->version);
			found = true;
			continue;
		}
		report(c, line, "note", "%s: given in <%s> (v%d)", text,
		       g->msgid ? g->msgid : "?", g->version);
		found = true;
	}
	for (guint i = 0; !found && i < ev->postings->len; i++) {
		const struct posting *p = ev->postings->pdata[i];
		bool changed = false, has = false;

		for (guint k = 0; k < p->tags->len; k++)
			has |= !strcmp(p->tags->pdata[k], want);
		if (!has || !same_patch(c, p->title, p->pid, &changed))
			continue;
		if (changed) {
			changed_p = p;
			continue;
		}
		report(c, line, "note", "%s: carried by the posting of v%d%s%s%s",
		       text, p->version, p->msgid ? " <" : "",
		       p->msgid ? p->msgid : "", p->msgid ? ">" : "");
		found = true;
	}
	if (!found && changed_g)
		report(c, line, "warning",
		       "%s: given in <%s> on v%d, but the patch changed since (v%d has another patch-id)",
		       text, changed_g->msgid ? changed_g->msgid : "?",
		       changed_g->version, c->version);
	else if (!found && changed_p)
		report(c, line, "warning",
		       "%s: carried by the posting of v%d, but the patch changed since (v%d has another patch-id)",
		       text, changed_p->version, c->version);
	else if (!found && (!strcmp(kind, "reported-by") ||
			    !strcmp(kind, "suggested-by")) &&
		 g_hash_table_lookup(ev->senders, email))
		report(c, line, "note", "%s: that person wrote <%s>", text,
		       (const char *)g_hash_table_lookup(ev->senders, email));
	else if (!found)
		report(c, line, "error",
		       "%s: given in no mail the store holds", text);
	g_free(kind);
	g_free(email);
	g_free(want);
}

/* Message-IDs named by a line: lore URLs, or <id> in a header. */
static void line_ids(const char *line, bool header, GPtrArray *out)
{
	static GRegex *lore, *angle;
	GMatchInfo *mi;

	if (!lore) {
		lore = g_regex_new("https?://lore\\.kernel\\.org/[A-Za-z0-9._-]+/"
				   "([^/\\s<>()]+@[^/\\s<>(),;]+)", 0, 0, NULL);
		angle = g_regex_new("<([^<>\\s]+@[^<>\\s]+)>", 0, 0, NULL);
	}
	g_regex_match(header ? angle : lore, line, 0, &mi);
	while (g_match_info_matches(mi)) {
		char *id = g_match_info_fetch(mi, 1);
		size_t n = strlen(id);

		/* "(https://lore…/id)." in prose */
		while (n && (id[n - 1] == '.' || id[n - 1] == ':'))
			id[--n] = 0;
		g_ptr_array_add(out, id);
		g_match_info_next(mi, NULL);
	}
	g_match_info_free(mi);
}

static void check_links(const struct evidence *ev, struct checked *c,
			int line, const char *text, bool header)
{
	GPtrArray *ids = g_ptr_array_new_with_free_func(g_free);

	line_ids(text, header, ids);
	for (guint i = 0; i < ids->len; i++) {
		const char *id = ids->pdata[i];

		if (format_msgid_reconstructed(ev->s, id))
			report(c, line, "error",
			       "names <%s>, a Message-ID that was reconstructed, never posted",
			       id);
		else if (!g_hash_table_contains(ev->ids, id))
			report(c, line, "warning",
			       "names <%s>, which the store does not hold: cannot verify it was posted",
			       id);
	}
	g_ptr_array_unref(ids);
}

/* The message lines (trailers) of one patch mail. */
static void check_message(const struct evidence *ev, struct checked *c,
			  const struct mail *m, int first_line)
{
	size_t len = message_len(m->body);
	char *msg = g_strndup(m->body, len);
	char **lines = g_strsplit(msg, "\n", -1);

	for (int i = 0; lines[i]; i++) {
		const char *l = lines[i];
		int at = first_line + i;
		char *e;
		struct trailer t;

		if ((e = person_of(l, "Signed-off-by"))) {
			check_sob(ev, c, at, l, e);
			g_free(e);
		} else if ((e = person_of(l, "Co-developed-by"))) {
			char *next = lines[i + 1] ?
				person_of(lines[i + 1], "Signed-off-by") : NULL;

			if (!next || strcmp(next, e))
				report(c, at, "error",
				       "%s is not followed by the same person's Signed-off-by (submitting-patches.rst)",
				       l);
			g_free(next);
			g_free(e);
		} else if (trailer_parse_line(l, strlen(l), &t)) {
			if (g_ascii_strcasecmp(t.kind, "Nacked-by"))
				check_tag(ev, c, at, l, &t);
			trailer_release(&t);
		}
	}
	g_strfreev(lines);
	g_free(msg);
}

/*
 * One mail file: its headers (From:, In-Reply-To:, References:), then
 * the body: the message's trailers (patches only), links and
 * placeholder addresses up to the diff.
 */
static void check_file(const struct evidence *ev, struct checked *c,
		       const char *path)
{
	GPtrArray *mails = mail_array_new();
	char *buf = NULL;
	size_t len;
	char **lines = NULL;
	int body_line = 0, from_line = 1;
	bool ids_hdr = false, own_id = false;

	if (read_file(path, MAIL_MAX_FILE, &buf, &len) < 0 ||
	    mail_parse_mbox(buf, len, path, mails) < 0 || !mails->len) {
		report(c, 0, "error", "cannot read the mail");
		goto out;
	}
	lines = g_strsplit(buf, "\n", -1);
	for (int i = 0; lines[i]; i++) {
		const char *l = lines[i];

		if (!*l && !body_line) {
			body_line = i + 2;
			continue;
		}
		if (body_line && starts_with(l, "diff --git "))
			break;
		if (!body_line && l[0] != ' ' && l[0] != '\t') {
			ids_hdr = !g_ascii_strncasecmp(l, "In-Reply-To:", 12) ||
				  !g_ascii_strncasecmp(l, "References:", 11);
			/* the mail's own id names no one */
			own_id = !g_ascii_strncasecmp(l, "Message-Id:", 11);
			if (!g_ascii_strncasecmp(l, "From:", 5))
				from_line = i + 1;
		}
		if (!body_line && ids_hdr)
			check_links(ev, c, i + 1, l, true);
		else if (body_line)
			check_links(ev, c, i + 1, l, false);
		if (!(own_id && !body_line) &&
		    !g_hash_table_contains(c->flagged, GINT_TO_POINTER(i + 1)) &&
		    ident_text_has_placeholder(l, strlen(l)))
			report(c, i + 1, "error",
			       "a placeholder identity, nobody's address: %s", l);
	}
	if (c->index > 0) {
		const struct mail *m = mails->pdata[0];
		char *from = g_ascii_strdown(m->from_email, -1);

		c->title = title_of(m->subject);
		c->pid = patch_id_of(buf, len);
		if (*from && !ident_is_placeholder(from) &&
		    !(c->sender && !strcmp(from, c->sender)) &&
		    !posted_sob(ev, c, from))
			report(c, from_line, "error",
			       "From: %s: the author never posted a Signed-off-by on this patch",
			       m->from);
		g_free(from);
		check_message(ev, c, m, body_line ? body_line : 1);
	}
out:
	g_strfreev(lines);
	g_free(buf);
	g_ptr_array_unref(mails);
}

void stage_provenance(struct check_ctx *ctx, struct stage_result *r)
{
	GPtrArray *all = series_patch_files(ctx->s, ctx->version, true);
	char *record = format_version_record(ctx->s, ctx->version);
	GString *why = g_string_new(NULL);
	struct evidence ev;
	struct ident id;
	char *sender = NULL;
	GString *log = g_string_new(NULL);
	unsigned traced = 0, errors = 0, warnings = 0;

	ident_init(&id);
	if (ident_sender(&id, why) == 0)
		sender = g_ascii_strdown(id.email, -1);
	else
		g_string_append_printf(log, "note: %s: every Signed-off-by needs a posted source\n",
				       why->str);
	evidence_load(&ev, ctx->s);
	for (guint i = 0; i < all->len; i++) {
		char *base = g_path_get_basename(all->pdata[i]);
		struct checked c = { .file = base, .version = ctx->version,
				     .record = record != NULL,
				     .sender = sender, .r = r, .log = log,
				     .traced = &traced };

		c.index = starts_with(base, "0000-") ? 0 : atoi(base);
		c.flagged = g_hash_table_new(g_direct_hash, g_direct_equal);
		check_file(&ev, &c, all->pdata[i]);
		g_hash_table_unref(c.flagged);
		g_free(c.title);
		g_free(c.pid);
		g_free(base);
	}
	for (guint i = 0; i < r->findings->len; i++) {
		enum severity sev = ((struct finding *)r->findings->pdata[i])->sev;

		errors += sev == SEV_ERROR;
		warnings += sev == SEV_WARNING;
	}
	r->status = errors ? ST_FAIL : warnings ? ST_WARN : ST_PASS;
	g_free(r->summary);
	r->summary = g_strdup_printf("%u mails, %u trailers traced: %u errors, %u warnings%s",
				     all->len, traced, errors, warnings,
				     record ? " (a reconstructed record)" : "");
	if (ctx->logdir) {
		char *path = g_strdup_printf("%s/provenance.log", ctx->logdir);

		if (write_file_atomic(path, log->str, log->len) == 0) {
			g_free(r->log);
			r->log = path;
		} else {
			g_free(path);
		}
	}
	g_string_free(log, TRUE);
	evidence_release(&ev);
	ident_release(&id);
	g_free(sender);
	g_free(record);
	g_string_free(why, TRUE);
	g_ptr_array_unref(all);
}
