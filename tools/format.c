// SPDX-License-Identifier: GPL-2.0-only
/*
 * format.c - a version as mail-ready files, written by git format-patch.
 */
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "apply.h"
#include "feedback.h"
#include "format.h"
#include "ident.h"
#include "mail.h"
#include "posting.h"
#include "recipients.h"
#include "run.h"
#include "scratch.h"
#include "series.h"
#include "subject.h"
#include "trailer.h"
#include "util.h"
#include "workbench.h"
#include "banned.h"

void format_opts_init(struct format_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->cover = -1;
	o->thread = true;
	o->recipients = true;
	o->trailers = true;
}

static void format_file_free(struct format_file *ff)
{
	if (!ff)
		return;
	g_free(ff->name);
	g_string_free(ff->text, TRUE);
	g_free(ff);
}

void formatted_init(struct formatted *f)
{
	memset(f, 0, sizeof(*f));
	f->commits = g_ptr_array_new_with_free_func(g_free);
	f->files = g_ptr_array_new_with_free_func(
		(GDestroyNotify)format_file_free);
	f->to = g_ptr_array_new_with_free_func(g_free);
	f->cc = g_ptr_array_new_with_free_func(g_free);
	f->added = g_ptr_array_new_with_free_func(g_free);
	f->notes = g_ptr_array_new_with_free_func(g_free);
}

void formatted_release(struct formatted *f)
{
	g_free(f->base);
	g_free(f->in_reply_to);
	g_free(f->change_id);
	g_free(f->title);
	g_free(f->blurb);
	g_free(f->prefix);
	if (f->commits)
		g_ptr_array_unref(f->commits);
	if (f->files)
		g_ptr_array_unref(f->files);
	if (f->to)
		g_ptr_array_unref(f->to);
	if (f->cc)
		g_ptr_array_unref(f->cc);
	if (f->added)
		g_ptr_array_unref(f->added);
	if (f->notes)
		g_ptr_array_unref(f->notes);
	memset(f, 0, sizeof(*f));
}

/* The deepest existing ancestor of path, resolved; new string. */
static char *resolve_existing(const char *path)
{
	char *p = g_canonicalize_filename(path, NULL);
	char *rest = g_strdup("");

	for (;;) {
		char buf[PATH_MAX];

		if (realpath(p, buf)) {
			char *r = g_build_filename(buf, rest, NULL);

			g_free(p);
			g_free(rest);
			return r;
		}
		if (!strcmp(p, "/")) {
			g_free(rest);
			return p;
		}
		{
			char *base = g_path_get_basename(p);
			char *up = g_path_get_dirname(p);
			char *nrest = g_build_filename(base, rest, NULL);

			g_free(base);
			g_free(rest);
			g_free(p);
			rest = nrest;
			p = up;
		}
	}
}

static bool path_within(const char *path, const char *dir)
{
	size_t n = strlen(dir);

	return !strncmp(path, dir, n) && (path[n] == '/' || !path[n]);
}

bool format_dir_in_store(const char *dir)
{
	const char *top = store_top();
	char *series, *rs, *rd;
	bool in;

	if (!top)
		return false;
	series = g_build_filename(top, "series", NULL);
	rs = resolve_existing(series);
	rd = resolve_existing(dir);
	in = path_within(rd, rs);
	g_free(series);
	g_free(rs);
	g_free(rd);
	return in;
}

/* Mail text pieces ---------------------------------------------------- */

/* Offset of the body (past the blank line after the headers). */
static size_t body_offset(const char *mail, size_t len)
{
	const char *p = memmem_str(mail, len, "\n\n");

	return p ? (size_t)(p - mail) + 2 : len;
}

char *format_stored_as_mailed(const char *mail, size_t len,
			      const char *identity)
{
	size_t off = body_offset(mail, len);
	const char *body = mail + off;
	const char *cut = memmem_str(body, len - off, "\n---\n");
	size_t msg_len = cut ? (size_t)(cut - body) + 1 : len - off;
	char *head = g_strndup(mail, off);
	char *msg = g_strndup(body, msg_len);
	GString *out = g_string_new(NULL);
	char *signed_msg;
	bool has_from = starts_with(head, "From: ") ||
			strstr(head, "\nFrom: ") != NULL;

	signed_msg = format_mailed_trailers(msg, NULL, NULL, identity, NULL);
	if (!has_from && starts_with(head, "From ")) {
		/* after the mbox "From <commit> <date>" line */
		const char *nl = strchr(head, '\n');
		size_t first = nl ? (size_t)(nl - head) + 1 : strlen(head);

		g_string_append_len(out, head, (gssize)first);
		g_string_append_printf(out, "From: %s\n", identity);
		g_string_append(out, head + first);
	} else {
		if (!has_from)
			g_string_append_printf(out, "From: %s\n", identity);
		g_string_append(out, head);
	}
	g_string_append(out, signed_msg);
	if (cut)
		g_string_append_len(out, cut + 1,
				    (gssize)(len - (size_t)(cut + 1 - mail)));
	g_free(signed_msg);
	g_free(msg);
	g_free(head);
	return g_string_free(out, FALSE);
}

/*
 * Whether the message above a patch mail's "---" (the commit message)
 * carries a Signed-off-by line.
 */
bool format_signed_off(const char *mail, size_t len)
{
	size_t off = body_offset(mail, len);
	const char *cut = memmem_str(mail + off, len - off, "\n---\n");
	char *msg = g_strndup(mail + off,
			      cut ? (size_t)(cut - mail) - off : len - off);
	bool sob = strstr(msg, "\nSigned-off-by: ") ||
		   starts_with(msg, "Signed-off-by: ");

	g_free(msg);
	return sob;
}

static bool is_diffstat_line(const char *l)
{
	static GRegex *stat, *sum;

	if (!stat) {
		stat = g_regex_new("^ \\S.* \\| +([0-9]+|Bin)", 0, 0, NULL);
		sum = g_regex_new("^ [0-9]+ files? changed", 0, 0, NULL);
	}
	return g_regex_match(stat, l, 0, NULL) ||
	       g_regex_match(sum, l, 0, NULL);
}

char *format_patch_notes(const char *mail, size_t len)
{
	size_t off = body_offset(mail, len);
	char *body = g_strndup(mail + off, len - off);
	char **lines = g_strsplit(body, "\n", -1);
	GString *notes = NULL;
	int i = 0;

	for (; lines[i]; i++) {
		if (!strcmp(lines[i], "---"))
			break;
		if (starts_with(lines[i], "diff --git "))
			goto out;
	}
	if (!lines[i])
		goto out;
	notes = g_string_new(NULL);
	for (i++; lines[i]; i++) {
		if (!strcmp(lines[i], "---") || is_diffstat_line(lines[i]) ||
		    starts_with(lines[i], "diff --git "))
			break;
		g_string_append(notes, lines[i]);
		g_string_append_c(notes, '\n');
	}
	g_strstrip(notes->str);
	notes->len = strlen(notes->str);
	if (!notes->len) {
		g_string_free(notes, TRUE);
		notes = NULL;
	}
out:
	g_strfreev(lines);
	g_free(body);
	return notes ? g_string_free(notes, FALSE) : NULL;
}

char *format_cover_blurb(const char *body, size_t len)
{
	GRegex *shortlog = g_regex_new("^\\S.* \\([0-9]+\\):$", 0, 0, NULL);
	char *text = g_strndup(body, len);
	char **lines = g_strsplit(text, "\n", -1);
	GString *b = g_string_new(NULL);
	int end = (int)g_strv_length(lines);

	for (int i = 0; lines[i]; i++) {
		if (g_regex_match(shortlog, lines[i], 0, NULL) && lines[i + 1] &&
		    starts_with(lines[i + 1], "  ")) {
			end = i;
			break;
		}
		if (!strcmp(lines[i], "-- ")) {
			end = i;
			break;
		}
	}
	/* b4 puts "---" between the cover text and the shortlog */
	while (end > 0 && (!*lines[end - 1] || !strcmp(lines[end - 1], "---")))
		end--;
	for (int i = 0; i < end; i++) {
		g_string_append(b, lines[i]);
		g_string_append_c(b, '\n');
	}
	g_strstrip(b->str);
	b->len = strlen(b->str);
	if (!strcmp(b->str, "*** BLURB HERE ***"))
		g_string_truncate(b, 0);
	g_strfreev(lines);
	g_free(text);
	g_regex_unref(shortlog);
	return g_string_free(b, FALSE);
}

char *format_add_prev_link(const char *text, int version, const char *url)
{
	char *hdr = g_strdup_printf("Changes in v%d:", version);
	char *link = g_strdup_printf("- Link to v%d: %s", version - 1, url);
	char *mark = g_strdup_printf("Link to v%d:", version - 1);
	char **lines = g_strsplit(text ? text : "", "\n", -1);
	GString *out = g_string_new(NULL);
	int at = -1, i;

	if ((text && strstr(text, mark)) || !url || version < 2) {
		g_string_append(out, text ? text : "");
		goto out;
	}
	for (i = 0; lines[i]; i++) {
		if (!strcmp(g_strchomp(lines[i]), hdr)) {
			at = i + 1;
			while (lines[at] && *lines[at] && strcmp(lines[at], "---"))
				at++;
			break;
		}
	}
	if (at < 0) {
		g_string_append(out, text ? text : "");
		g_strchomp(out->str);
		out->len = strlen(out->str);
		if (out->len)
			g_string_append(out, "\n\n");
		g_string_append_printf(out, "%s\n%s\n", hdr, link);
		goto out;
	}
	for (i = 0; lines[i]; i++) {
		if (i == at)
			g_string_append_printf(out, "%s\n", link);
		g_string_append(out, lines[i]);
		if (lines[i + 1])
			g_string_append_c(out, '\n');
	}
	if (i == at)
		g_string_append_printf(out, "\n%s", link);
out:
	g_strfreev(lines);
	g_free(hdr);
	g_free(link);
	g_free(mark);
	return g_string_free(out, FALSE);
}

bool format_has_changelog(const char *text)
{
	static GRegex *re;
	char **lines;
	bool in = false, found = false;

	if (!text)
		return false;
	if (!re)
		re = g_regex_new("^(Changes (in|since|from) v[0-9]|v[0-9]+ ?(->|-|:)|"
				 "Changelog|Change log)",
				 G_REGEX_CASELESS, 0, NULL);
	lines = g_strsplit(text, "\n", -1);
	for (char **l = lines; *l && !found; l++) {
		const char *t = *l + strspn(*l, " \t");

		if (g_regex_match(re, *l, 0, NULL)) {
			in = true;
			/* "v2: fixed the lock" carries its own entry */
			found = !g_ascii_strncasecmp(*l, "v", 1) &&
				strlen(*l) > 4 && !strstr(*l, "Link to");
		} else if (in && !*t) {
			in = false;
		} else if (in && !starts_with(t, "- Link to v") &&
			   !starts_with(t, "https://")) {
			found = true;
		}
	}
	g_strfreev(lines);
	return found;
}

/* Feedback records ---------------------------------------------------- */

void fb_item_free(struct fb_item *it)
{
	if (!it)
		return;
	g_free(it->id);
	g_free(it->patch_title);
	g_free(it->kind);
	g_free(it->status);
	g_free(it->author);
	g_free(it->message_id);
	g_free(it->file);
	g_free(it->trailer);
	g_free(it->scope);
	g_free(it->text);
	if (it->same)
		g_array_unref(it->same);
	g_free(it);
}

static char *strip_brackets(const char *s)
{
	char *r = g_strdup(s);

	g_strstrip(r);
	if (r[0] == '<' && r[strlen(r) - 1] == '>') {
		char *t = g_strndup(r + 1, strlen(r) - 2);

		g_free(r);
		r = t;
	}
	return r;
}

static void same_unref(gpointer a)
{
	if (a)
		g_array_unref(a);
}

/*
 * Which patch the mail gave trailer f for (it->at), and, when that was
 * on an earlier version, which patches of version are still that one
 * (it->same): format_trailer_targets() goes by these. same caches
 * feedback_same_patches() per earlier version.
 */
static void trailer_identity(struct feedback_ctx *ctx, GHashTable *same,
			     const struct feedback_item *f, int version,
			     struct fb_item *it)
{
	gpointer key = GINT_TO_POINTER(f->version), v;

	it->at = feedback_item_position(ctx, f);
	if (f->version >= version)
		return;
	if (!g_hash_table_lookup_extended(same, key, NULL, &v)) {
		v = feedback_same_patches(ctx, f->version, version);
		g_hash_table_insert(same, key, v);
	}
	if (v)
		it->same = g_array_ref(v);
}

int format_load_feedback(struct series *s, int version, GPtrArray *items)
{
	GPtrArray *fb = g_ptr_array_new_with_free_func(
		(GDestroyNotify)feedback_item_free);
	struct feedback_ctx *ctx;
	GHashTable *same;

	if (feedback_load(s, fb) < 0) {
		g_ptr_array_unref(fb);
		return -1;
	}
	ctx = feedback_ctx_new(s);
	same = g_hash_table_new_full(NULL, NULL, NULL, same_unref);
	for (guint i = 0; i < fb->len; i++) {
		const struct feedback_item *f = fb->pdata[i];
		struct fb_item *it;
		enum feedback_status st;
		int paired = -1;

		if (f->version > version)
			continue;
		st = feedback_status_at(ctx, f, version, &paired);
		it = g_new0(struct fb_item, 1);
		it->id = g_strdup(f->id);
		it->version = f->version;
		it->patch = f->version == version ? f->patch_index : paired;
		if (it->patch < 0)
			it->patch = -1;
		if (f->patch_subject) {
			struct subject sj;

			subject_parse(f->patch_subject, &sj);
			it->patch_title = g_strdup(sj.title);
			subject_release(&sj);
		}
		it->kind = g_strdup(f->kind ? f->kind : "comment");
		it->status = g_strdup(feedback_status_name(st));
		it->author = g_strdup(f->from);
		it->message_id = f->message_id ? strip_brackets(f->message_id) :
						 NULL;
		it->file = g_strdup(f->file);
		it->line = f->line;
		it->trailer = g_strdup(f->trailer);
		it->scope = g_strdup(f->scope);
		it->text = g_strdup(f->text ? f->text : "");
		it->at = -1;
		if (!strcmp(it->kind, "trailer"))
			trailer_identity(ctx, same, f, version, it);
		g_ptr_array_add(items, it);
	}
	g_hash_table_destroy(same);
	feedback_ctx_free(ctx);
	g_ptr_array_unref(fb);
	return 0;
}

static bool fb_addressed(const struct fb_item *it)
{
	return it->status && (starts_with(it->status, "addressed") ||
			      starts_with(it->status, "resolved") ||
			      starts_with(it->status, "fixed") ||
			      starts_with(it->status, "done"));
}

static char *person_name(const char *author)
{
	const char *lt;
	char *n;

	if (!author || !*author)
		return g_strdup("a reviewer");
	lt = strchr(author, '<');
	n = lt ? g_strndup(author, lt - author) : g_strdup(author);
	g_strstrip(n);
	if (n[0] == '"' && strlen(n) > 1 && n[strlen(n) - 1] == '"') {
		char *t = g_strndup(n + 1, strlen(n) - 2);

		g_free(n);
		n = t;
	}
	if (!*n) {
		g_free(n);
		n = g_strdup(author);
	}
	return n;
}

/* The first line of a comment, cut at a word boundary near 64 columns. */
static char *first_words(const char *text)
{
	const char *nl = strchr(text, '\n');
	char *l = nl ? g_strndup(text, nl - text) : g_strdup(text);

	g_strstrip(l);
	if (g_utf8_strlen(l, -1) > 64) {
		char *cut = g_utf8_substring(l, 0, 64);
		char *sp = strrchr(cut, ' ');

		if (sp && sp > cut + 20)
			*sp = 0;
		g_free(l);
		l = g_strdup_printf("%s...", cut);
		g_free(cut);
	}
	return l;
}

char *format_draft_changes(const GPtrArray *items, int version,
			   const char *prev_url)
{
	GString *s = g_string_new(NULL);
	bool any = false;

	g_string_append_printf(s, "Changes in v%d:\n", version);
	for (guint i = 0; items && i < items->len; i++) {
		const struct fb_item *it = items->pdata[i];
		char *who, *what;

		if (strcmp(it->kind, "comment") || it->version != version - 1 ||
		    !fb_addressed(it))
			continue;
		who = person_name(it->author);
		what = first_words(it->text ? it->text : "");
		g_string_append(s, "- ");
		if (it->patch > 0)
			g_string_append_printf(s, "%d: ", it->patch);
		if (it->file)
			g_string_append_printf(s, "%s: ", it->file);
		g_string_append_printf(s, "address %s's comment \"%s\"\n", who,
				       what);
		if (it->message_id)
			g_string_append_printf(s, "  %s%s\n", LORE_URL,
					       it->message_id);
		g_free(who);
		g_free(what);
		any = true;
	}
	for (guint i = 0; items && i < items->len; i++) {
		const struct fb_item *it = items->pdata[i];
		GArray *to;
		char *who;
		bool one;

		if (strcmp(it->kind, "trailer") || !it->trailer ||
		    it->version != version - 1)
			continue;
		/* what format_collect_trailers() applies, nothing else */
		to = g_array_new(FALSE, FALSE, sizeof(int));
		format_trailer_targets(it, version, NULL,
				       it->same ? it->same->len : 0, to, NULL);
		one = to->len == 1 && it->at > 0;
		if (!to->len) {
			g_array_unref(to);
			continue;
		}
		who = person_name(strchr(it->trailer, ':') ?
				  strchr(it->trailer, ':') + 1 : it->trailer);
		{
			const char *colon = strchr(it->trailer, ':');
			char *kind = colon ? g_strndup(it->trailer,
						       colon - it->trailer) :
					     g_strdup(it->trailer);

			g_string_append(s, "- ");
			if (one)
				g_string_append_printf(s, "%d: ",
						       g_array_index(to, int, 0));
			g_string_append_printf(s, "collect %s from %s\n", kind,
					       who);
			g_free(kind);
		}
		g_array_unref(to);
		if (it->message_id)
			g_string_append_printf(s, "  %s%s\n", LORE_URL,
					       it->message_id);
		g_free(who);
		any = true;
	}
	if (prev_url) {
		g_string_append_printf(s, "- Link to v%d: %s\n", version - 1,
				       prev_url);
		any = true;
	}
	if (!any) {
		g_string_free(s, TRUE);
		return NULL;
	}
	return g_string_free(s, FALSE);
}

/* Formatting a version ------------------------------------------------ */

struct patch_in {
	char *path;
	char *subject;		/* as in the file */
	char *title;		/* without the tag */
	char *notes;		/* below "---", or NULL */
	GPtrArray *trailers;	/* char *, to add */
};

static void patch_in_free(struct patch_in *p)
{
	g_free(p->path);
	g_free(p->subject);
	g_free(p->title);
	g_free(p->notes);
	g_ptr_array_unref(p->trailers);
	g_free(p);
}

static struct patch_in *patch_in_read(const char *path)
{
	struct patch_in *p;
	GPtrArray *mails;
	char *buf;
	size_t len;

	if (read_file(path, MAIL_MAX_FILE, &buf, &len) < 0)
		return NULL;
	mails = mail_array_new();
	if (mail_parse_mbox(buf, len, path, mails) < 0 || !mails->len) {
		if (!mails->len)
			error("no mail in '%s'", path);
		g_ptr_array_unref(mails);
		g_free(buf);
		return NULL;
	}
	p = g_new0(struct patch_in, 1);
	p->path = g_strdup(path);
	p->subject = g_strdup(((struct mail *)mails->pdata[0])->subject);
	{
		struct subject sj;

		subject_parse(p->subject, &sj);
		p->title = g_strdup(sj.title);
		subject_release(&sj);
	}
	p->notes = format_patch_notes(buf, len);
	p->trailers = g_ptr_array_new_with_free_func(g_free);
	g_ptr_array_unref(mails);
	g_free(buf);
	return p;
}

static char *lore_url(const char *msgid)
{
	char *id = strip_brackets(msgid);
	char *url = g_strdup_printf("%s%s", LORE_URL, id);

	g_free(id);
	return url;
}

static int git_out(const char *repo, const char *const *env,
		   const char *const *argv, const char *in, size_t in_len,
		   char **out)
{
	struct run_opts o = { .dir = repo, .env = env, .in = in,
			      .in_len = in_len };

	return run_capture_opts(&o, argv, out, NULL);
}

/* "Name <email> 1234 +0100" → name, email, "@1234 +0100". */
static bool split_ident(const char *l, char **name, char **email,
			char **date)
{
	const char *lt = strchr(l, '<'), *gt = lt ? strchr(lt, '>') : NULL;

	if (!lt || !gt)
		return false;
	*name = g_strndup(l, lt - l);
	g_strstrip(*name);
	*email = g_strndup(lt + 1, gt - lt - 1);
	{
		char *d = g_strstrip(g_strdup(gt + 1));

		*date = g_strdup_printf("@%s", d);
		g_free(d);
	}
	return true;
}

/*
 * Re-commits commit with message msg onto parent, keeping its tree,
 * author date and committer; *out is the new id. An author that is the
 * sender, or a placeholder (nobody), becomes the sender as configured.
 */
static int recommit(const char *repo, const char *commit, const char *parent,
		    const struct ident *sender,
		    const char *(*msg_fn)(void *, const char *), void *data,
		    char **out)
{
	const char *argv[] = { "git", "cat-file", "commit", commit, NULL };
	char *raw = NULL, *tree = NULL, *an = NULL, *ae = NULL, *ad = NULL;
	char *cn = NULL, *ce = NULL, *cd = NULL;
	const char *msg;
	int ret = -1;

	if (git_out(repo, NULL, argv, NULL, 0, &raw) < 0)
		return -1;
	msg = strstr(raw, "\n\n");
	msg = msg ? msg + 2 : "";
	{
		char *head = g_strndup(raw, msg - raw);
		char **lines = g_strsplit(head, "\n", -1);

		for (char **l = lines; *l; l++) {
			if (starts_with(*l, "tree "))
				tree = g_strdup(*l + 5);
			else if (starts_with(*l, "author "))
				split_ident(*l + 7, &an, &ae, &ad);
			else if (starts_with(*l, "committer "))
				split_ident(*l + 10, &cn, &ce, &cd);
		}
		g_strfreev(lines);
		g_free(head);
	}
	if (!tree || !an || !cn) {
		error("cannot read commit %s", commit);
		goto out;
	}
	if (ident_is_placeholder(ae) || ident_same_email(ae, sender->email)) {
		g_free(an);
		g_free(ae);
		an = g_strdup(sender->name);
		ae = g_strdup(sender->email);
	}
	{
		char *e[6];
		const char *env[7];
		const char *ct[] = { "git", "commit-tree", tree, "-p", parent,
				     NULL };
		const char *newmsg = msg_fn(data, msg);

		e[0] = g_strdup_printf("GIT_AUTHOR_NAME=%s", an);
		e[1] = g_strdup_printf("GIT_AUTHOR_EMAIL=%s", ae);
		e[2] = g_strdup_printf("GIT_AUTHOR_DATE=%s", ad);
		e[3] = g_strdup_printf("GIT_COMMITTER_NAME=%s", cn);
		e[4] = g_strdup_printf("GIT_COMMITTER_EMAIL=%s", ce);
		e[5] = g_strdup_printf("GIT_COMMITTER_DATE=%s", cd);
		for (int i = 0; i < 6; i++)
			env[i] = e[i];
		env[6] = NULL;
		ret = git_out(repo, env, ct, newmsg, strlen(newmsg), out);
		for (int i = 0; i < 6; i++)
			g_free(e[i]);
	}
out:
	g_free(raw);
	g_free(tree);
	g_free(an);
	g_free(ae);
	g_free(ad);
	g_free(cn);
	g_free(ce);
	g_free(cd);
	return ret;
}

struct trailer_ctx {
	const struct patch_in *p;
	const char *identity;
	const GPtrArray *assisted;	/* "Assisted-by: …" lines */
	char *msg;
};

/* recommit()'s message: the trailers as mailed (format-trailers.h). */
static const char *trailer_msg(void *data, const char *msg)
{
	struct trailer_ctx *c = data;

	c->msg = format_mailed_trailers(msg, c->p->trailers, c->assisted,
					c->identity, NULL);
	return c->msg;
}

/* Inserts ins after the first line of text (from off) equal to line. */
static bool insert_after_line(GString *text, size_t off, const char *line,
			      const char *ins)
{
	size_t n = strlen(line);
	const char *p = text->str + off;

	for (;;) {
		const char *nl;

		if (!strncmp(p, line, n) && (p[n] == '\n' || !p[n])) {
			size_t at = (size_t)(p - text->str) + n +
				    (p[n] == '\n' ? 1 : 0);

			g_string_insert(text, (gssize)at, ins);
			return true;
		}
		nl = strchr(p, '\n');
		if (!nl)
			return false;
		p = nl + 1;
	}
}

static void add_change_id(GString *text, const char *change_id)
{
	const char *b = strstr(text->str, "\nbase-commit: ");
	char *line;

	if (!b || !change_id || strstr(text->str, "\nchange-id: "))
		return;
	b = strchr(b + 1, '\n');
	if (!b)
		return;
	line = g_strdup_printf("change-id: %s\n", change_id);
	g_string_insert(text, (gssize)(b - text->str) + 1, line);
	g_free(line);
}

static void add_notes(GString *text, const char *notes)
{
	char *ins;

	if (!notes || !*notes)
		return;
	ins = g_strdup_printf("%s\n---\n", notes);
	insert_after_line(text, body_offset(text->str, text->len), "---", ins);
	g_free(ins);
}

static bool patch_name(const char *dir, const char *name, void *data)
{
	(void)dir;
	(void)data;
	return g_str_has_suffix(name, ".patch");
}

static bool version_exists(const struct series *s, int version)
{
	GArray *vs = series_versions(s);
	bool found = false;

	for (guint i = 0; i < vs->len; i++)
		if (g_array_index(vs, int, i) == version)
			found = true;
	g_array_unref(vs);
	return found;
}

/*
 * A scratch repository, dir/git, that borrows repo's objects (an
 * alternate) and holds refs/heads/kseries-format at tip. format-patch
 * runs there: the cover reads the description of the branch it formats,
 * and a branch made in repo is left there by a killed run; its config is
 * empty, so repo's own format.* and diff.* settings cannot change the
 * mails. *git_dir and *work_tree (NULL for a bare repo, whose
 * .gitattributes were never read) are new strings.
 */
static int scratch_repo(const char *repo, const char *dir, const char *tip,
			char **git_dir, char **work_tree)
{
	const char *where[] = { "git", "rev-parse", "--path-format=absolute",
				"--git-common-dir", "--is-bare-repository",
				NULL };
	const char *top[] = { "git", "rev-parse", "--show-toplevel", NULL };
	struct run_opts po = { .dir = repo, .git_pristine = true };
	char *out = NULL, *nl, *alt = NULL, *shallow = NULL, *buf = NULL;
	char *gd = g_build_filename(dir, "git", NULL);
	char *gd_opt = g_strdup_printf("--git-dir=%s", gd);
	const char *init[] = { "git", "init", "-q", "--bare", "--template=",
			       gd, NULL };
	const char *ur[] = { "git", gd_opt, "update-ref",
			     "refs/heads/kseries-format", tip, NULL };
	size_t len;
	int ret = -1;

	*git_dir = *work_tree = NULL;
	if (run_capture_opts(&po, where, &out, NULL) < 0)
		goto out;
	nl = strchr(out, '\n');
	if (!nl) {
		error("cannot find the objects of '%s'", repo);
		goto out;
	}
	*nl = '\0';
	if (strcmp(nl + 1, "true") &&
	    run_capture_opts(&po, top, work_tree, NULL) < 0)
		goto out;
	alt = g_strdup_printf("%s/objects\n", out);
	shallow = g_build_filename(out, "shallow", NULL);
	if (run_capture_opts(&po, init, NULL, NULL) < 0)
		goto out;
	{
		char *path = g_build_filename(gd, "objects", "info",
					      "alternates", NULL);
		int r = write_file_atomic(path, alt, strlen(alt));

		g_free(path);
		if (r < 0)
			goto out;
	}
	/* a shallow base tree: the same boundary */
	if (is_file(shallow)) {
		char *path = g_build_filename(gd, "shallow", NULL);
		int r = read_file(shallow, SIZE_MAX, &buf, &len);

		if (r == 0)
			r = write_file_atomic(path, buf, len);
		g_free(path);
		if (r < 0)
			goto out;
	}
	if (run_capture_opts(&po, ur, NULL, NULL) < 0)
		goto out;
	*git_dir = gd;
	gd = NULL;
	ret = 0;
out:
	if (ret < 0) {
		g_free(*work_tree);
		*work_tree = NULL;
	}
	g_free(out);
	g_free(alt);
	g_free(shallow);
	g_free(buf);
	g_free(gd);
	g_free(gd_opt);
	return ret;
}

char *format_subject_prefix(const char *prefix)
{
	char **w = g_strsplit(prefix ? prefix : "", " ", -1);
	GString *out = g_string_new("PATCH");

	for (char **p = w; *p; p++)
		if (**p && g_ascii_strcasecmp(*p, "PATCH"))
			g_string_append_printf(out, " %s", *p);
	g_strfreev(w);
	return g_string_free(out, FALSE);
}

bool format_msgid_reconstructed(const struct series *s, const char *msgid)
{
	GArray *vs;
	char *id;
	bool made_up = false;

	if (!msgid || !*msgid)
		return false;
	id = strip_brackets(msgid);
	made_up = ident_text_has_placeholder(id, strlen(id));
	vs = series_versions(s);
	for (guint i = 0; !made_up && i < vs->len; i++) {
		int v = g_array_index(vs, int, i);
		const char *have = series_version_get(s, v, "message-id");
		const char *rec = series_version_get(s, v, "reconstructed");
		const char *origin = series_version_get(s, v, "origin");
		char *mine;

		if (!have)
			continue;
		mine = strip_brackets(have);
		if (!strcmp(mine, id) &&
		    ((rec && strstr(rec, "Message-ID")) ||
		     (origin && !strcmp(origin, "reconstructed"))))
			made_up = true;
		g_free(mine);
	}
	g_array_unref(vs);
	g_free(id);
	return made_up;
}

char *format_version_record(const struct series *s, int version)
{
	const char *origin = series_version_get(s, version, "origin");
	const char *id = series_version_get(s, version, "message-id");

	if (origin && !strcmp(origin, "reconstructed"))
		return g_strdup_printf("v%d of '%s' is a reconstructed record (origin = reconstructed), not a submission: it is never mailed",
				       version, s->name);
	if (id && format_msgid_reconstructed(s, id))
		return g_strdup_printf("v%d of '%s' is a record: its Message-ID <%s> was reconstructed, not posted, and it is never mailed",
				       version, s->name, id);
	return NULL;
}

/*
 * One format_version() run: what each phase reads and leaves for the
 * next. The phases run in the order below; each returns 0, or -1 with
 * one error printed.
 */
struct format_job {
	struct series *s;
	int version;
	const struct format_opts *o;
	struct formatted *f;
	const char *repo;	/* the base repository */
	const char *base;	/* series.base, or the default */
	struct ident sender;
	char *identity;		/* "Name <addr>" of sender */
	GPtrArray *assisted;	/* "Assisted-by: …" lines */
	GPtrArray *files;	/* the stored patch files, in order */
	GPtrArray *patches;	/* struct patch_in *, one per file */
	GPtrArray *items;	/* struct fb_item *, the review */
	char *title;		/* the cover's subject */
	char *blurb;		/* the cover's text */
	char *prev_url;		/* v(N-1)'s link, or NULL */
	struct applied a;	/* the stored patches applied */
	char *tip;		/* the last commit, trailers added */
	char *tmp;		/* the scratch directory */
	char *git_dir, *work_tree;	/* the scratch repository */
	char *outdir;		/* where format-patch writes */
	char *branch;		/* the branch formatted, or NULL */
};

static void format_job_init(struct format_job *j, struct series *s,
			    int version, const struct format_opts *o,
			    struct formatted *f)
{
	memset(j, 0, sizeof(*j));
	j->s = s;
	j->version = version;
	j->o = o;
	j->f = f;
	j->repo = o->repo ? o->repo : kernel_tree();
	j->base = series_get(s, "series.base");
	if (!j->base)
		j->base = WORKBENCH_DEFAULT_BASE;
	ident_init(&j->sender);
	applied_init(&j->a);
}

static void format_job_release(struct format_job *j)
{
	scratch_dir_remove(j->tmp);
	g_free(j->git_dir);
	g_free(j->work_tree);
	g_free(j->outdir);
	g_free(j->branch);
	applied_release(&j->a);
	ident_release(&j->sender);
	g_free(j->identity);
	if (j->assisted)
		g_ptr_array_unref(j->assisted);
	if (j->files)
		g_ptr_array_unref(j->files);
	if (j->patches)
		g_ptr_array_unref(j->patches);
	if (j->items)
		g_ptr_array_unref(j->items);
	g_free(j->title);
	g_free(j->blurb);
	g_free(j->prev_url);
	g_free(j->tip);
}

/*
 * The version and who sends it: the version exists and has patches, the
 * sender is o->identity (never a placeholder) or ident_sender(), and
 * version.N.assisted-by is well formed.
 */
static int format_load_version(struct format_job *j)
{
	const char *who = j->o->identity;

	if (j->version < 1 || !version_exists(j->s, j->version))
		return error("no version v%d of '%s'", j->version, j->s->name);
	j->files = series_patch_files(j->s, j->version, false);
	if (!j->files->len)
		return error("v%d of '%s' has no patches", j->version,
			     j->s->name);
	if (who) {
		trailer_split_person(who, strlen(who), &j->sender.name,
				     &j->sender.email);
		if (ident_is_placeholder(j->sender.email))
			return error("sender identity '%s' is a placeholder",
				     who);
	} else if (ident_sender_or_error(&j->sender) < 0) {
		return -1;
	}
	j->identity = ident_format(&j->sender);
	j->assisted = format_assisted_by(j->s, j->version);
	return j->assisted ? 0 : -1;
}

/* The stored cover's subject (j->title) and blurb (j->blurb), if any. */
static int format_read_cover(struct format_job *j, const char *path)
{
	struct patch_in *c = patch_in_read(path);
	GPtrArray *m;
	char *buf;
	size_t len;

	if (!c)
		return -1;
	j->title = g_strdup(c->title);
	patch_in_free(c);
	if (read_file(path, MAIL_MAX_FILE, &buf, &len) < 0)
		return -1;
	m = mail_array_new();
	if (mail_parse_mbox(buf, len, path, m) == 0 && m->len) {
		struct mail *cm = m->pdata[0];

		j->blurb = format_cover_blurb(cm->body, cm->body_len);
	}
	g_ptr_array_unref(m);
	g_free(buf);
	return 0;
}

/*
 * The patches as stored (subjects, notes below "---"), the cover's
 * title and blurb, and whether a cover letter goes out: when there are
 * several patches (b4 sends one alone) unless o->cover says otherwise.
 */
static int format_read_patches(struct format_job *j)
{
	char *vdir, *cover_path;
	int ret = 0;

	j->patches = g_ptr_array_new_with_free_func(
		(GDestroyNotify)patch_in_free);
	for (guint i = 0; i < j->files->len; i++) {
		struct patch_in *p = patch_in_read(j->files->pdata[i]);

		/* subjects are data: no shell ever sees them */
		if (!p)
			return -1;
		g_ptr_array_add(j->patches, p);
	}
	vdir = series_version_dir(j->s, j->version);
	cover_path = g_build_filename(vdir, "0000-cover-letter.patch", NULL);
	if (is_file(cover_path))
		ret = format_read_cover(j, cover_path);
	g_free(cover_path);
	g_free(vdir);
	if (ret < 0)
		return -1;
	if (!j->title || !*j->title ||
	    !strcmp(j->title, "*** SUBJECT HERE ***")) {
		g_free(j->title);
		j->title = g_strdup(series_get(j->s, "series.title"));
	}
	if (!j->title && j->patches->len == 1)
		j->title = g_strdup(
			((struct patch_in *)j->patches->pdata[0])->title);
	j->f->cover = j->o->cover == 1 ||
		      (j->o->cover == -1 && j->patches->len > 1);
	if (j->f->cover && (!j->title || !*j->title))
		return error("'%s' has no title for its cover letter (series.title)",
			     j->s->name);
	return 0;
}

/* The stored patches applied onto the base, as commits (apply.h). */
static int format_apply(struct format_job *j)
{
	if (!j->repo)
		return error("no base tree: provision %s/linux or set KSERIES_TREE",
			     cache_dir());
	if (apply_series(j->repo, j->base, j->files, false, &j->a) < 0)
		return -1;
	j->f->base = g_strdup(j->a.base);
	return 0;
}

/* The review's trailers, to each patch they go to (format-trailers.h). */
static void format_collect_review(struct format_job *j)
{
	GPtrArray *titles = g_ptr_array_new();
	GPtrArray *lists = g_ptr_array_new();

	for (guint k = 0; k < j->patches->len; k++) {
		struct patch_in *p = j->patches->pdata[k];

		g_ptr_array_add(titles, p->title);
		g_ptr_array_add(lists, p->trailers);
	}
	format_collect_trailers(j->items, j->version, titles, lists,
				j->f->notes);
	g_ptr_array_unref(lists);
	g_ptr_array_unref(titles);
}

/*
 * Every commit again with its message's trailers as mailed: the
 * review's (when o->trailers), Assisted-by, the sender's sign-off. The
 * sender signs off at format time; j->tip is the last new commit.
 */
static int format_recommit(struct format_job *j)
{
	char *parent;

	j->items = g_ptr_array_new_with_free_func((GDestroyNotify)fb_item_free);
	if (format_load_feedback(j->s, j->version, j->items) < 0)
		return -1;
	if (j->o->trailers)
		format_collect_review(j);
	parent = g_strdup(j->a.base);
	for (guint i = 0; i < j->a.commits->len; i++) {
		struct patch_in *p = j->patches->pdata[i];
		struct trailer_ctx c = { .p = p, .identity = j->identity,
					 .assisted = j->assisted };
		char *nc = NULL;

		if (recommit(j->repo, j->a.commits->pdata[i], parent,
			     &j->sender, trailer_msg, &c, &nc) < 0) {
			g_free(c.msg);
			g_free(parent);
			return -1;
		}
		for (guint k = 0; k < p->trailers->len; k++)
			g_ptr_array_add(j->f->added, g_strdup_printf("%u: %s",
				i + 1, (char *)p->trailers->pdata[k]));
		g_free(c.msg);
		g_ptr_array_add(j->f->commits, g_strdup(nc));
		g_free(parent);
		parent = nc;
	}
	j->tip = parent;
	return 0;
}

/* To and Cc from the notes and get_maintainer.pl (recipients.h). */
static int format_recipients(struct format_job *j)
{
	struct formatted *f = j->f;
	struct recipients r;

	if (!j->o->recipients)
		return 0;
	recipients_init(&r);
	if (recipients_collect(j->s, j->files, j->repo, &r) < 0) {
		recipients_release(&r);
		return -1;
	}
	for (guint i = 0; i < r.to->len; i++)
		g_ptr_array_add(f->to, g_strdup(r.to->pdata[i]));
	for (guint i = 0; i < r.cc->len; i++)
		g_ptr_array_add(f->cc, g_strdup(r.cc->pdata[i]));
	for (guint i = 0; i < r.notes->len; i++)
		g_ptr_array_add(f->notes, g_strdup(r.notes->pdata[i]));
	recipients_release(&r);
	return 0;
}

/*
 * Threading under the previous posting (o->in_reply_to, else v(N-1)'s
 * Message-ID unless it was made up) and the link to v(N-1) for the
 * changelog: version.(N-1).link, else lore's address of the message
 * threaded under.
 */
static void format_thread(struct format_job *j)
{
	struct formatted *f = j->f;
	int prev = j->version - 1;
	const char *id, *link;

	if (j->o->in_reply_to && *j->o->in_reply_to) {
		f->in_reply_to = strip_brackets(j->o->in_reply_to);
	} else if (prev >= 1) {
		id = series_version_get(j->s, prev, "message-id");
		/* never under an id nobody posted: b4 would read the cover
		 * as a follow-up of a message that does not exist */
		if (id && format_msgid_reconstructed(j->s, id))
			g_ptr_array_add(f->notes, g_strdup_printf(
				"not threaded under v%d: its Message-ID <%s> was reconstructed",
				prev, id));
		else if (id)
			f->in_reply_to = strip_brackets(id);
	}
	if (prev < 1)
		return;
	link = series_version_get(j->s, prev, "link");
	if (link && starts_with(link, "http"))
		j->prev_url = g_strdup(link);
	else if (f->in_reply_to)
		j->prev_url = lore_url(f->in_reply_to);
}

/*
 * The changelog, in the cover's blurb or below the one patch's "---":
 * the stored one, with "- Link to v(N-1)" added, or, when there is
 * none, "Changes in vN:" drafted from the review (format_draft_changes()).
 * A one-patch series with a stored cover carries the cover's text there.
 */
static void format_changelog(struct format_job *j)
{
	struct formatted *f = j->f;
	struct patch_in *p1 = j->patches->pdata[0];
	char **where = f->cover ? &j->blurb : &p1->notes;
	char *changes_hdr = g_strdup_printf("Changes in v%d:", j->version);

	if (!f->cover && j->blurb && *j->blurb && !p1->notes) {
		p1->notes = j->blurb;
		j->blurb = NULL;
	}
	if (j->version > 1 && !(*where && strstr(*where, changes_hdr))) {
		char *draft = format_draft_changes(j->items, j->version,
						   j->prev_url);

		if (draft) {
			char *n;

			g_strchomp(draft);
			if (*where && **where)
				n = g_strdup_printf("%s\n\n%s%s", *where,
						    f->cover ? "---\n" : "",
						    draft);
			else
				n = g_strdup(draft);
			g_free(*where);
			*where = n;
			g_free(draft);
		}
	} else if (j->version > 1 && j->prev_url) {
		char *n = format_add_prev_link(*where, j->version, j->prev_url);

		g_free(*where);
		*where = n;
	}
	g_free(changes_hdr);
	f->title = g_strdup(j->title);
	f->blurb = g_strdup(*where);
}

/*
 * git format-patch's environment: the cover's subject and blurb as the
 * description of the branch formatted, a/ b/ prefixes and whole-tree
 * paths whatever the user's diff config says, and the sender as the
 * committer. NULL-terminated, new.
 */
static GPtrArray *format_patch_env(struct format_job *j)
{
	static const char *const diff_keys[] = {
		"diff.noprefix", "diff.mnemonicPrefix", "diff.relative" };
	GPtrArray *env = g_ptr_array_new_with_free_func(g_free);
	int nconf = 0;

	if (j->f->cover) {
		j->branch = g_strdup("kseries-format");
		g_ptr_array_add(env, g_strdup_printf(
			"GIT_CONFIG_KEY_%d=branch.%s.description", nconf,
			j->branch));
		g_ptr_array_add(env, g_strdup_printf(
			"GIT_CONFIG_VALUE_%d=%s\n\n%s\n", nconf, j->title,
			j->blurb && *j->blurb ? j->blurb : ""));
		nconf++;
	}
	for (size_t k = 0; k < G_N_ELEMENTS(diff_keys); k++) {
		g_ptr_array_add(env, g_strdup_printf("GIT_CONFIG_KEY_%d=%s",
						     nconf, diff_keys[k]));
		g_ptr_array_add(env, g_strdup_printf(
			"GIT_CONFIG_VALUE_%d=false", nconf));
		nconf++;
	}
	/*
	 * The cover's From: and the Message-Ids (git's form,
	 * "<commit.time.git.ADDRESS>") are the committer's: the sender's,
	 * never the base repository's own identity.
	 */
	g_ptr_array_add(env, g_strdup_printf("GIT_COMMITTER_NAME=%s",
					     j->sender.name));
	g_ptr_array_add(env, g_strdup_printf("GIT_COMMITTER_EMAIL=%s",
					     j->sender.email));
	g_ptr_array_add(env, g_strdup_printf("GIT_CONFIG_COUNT=%d", nconf));
	g_ptr_array_add(env, NULL);
	return env;
}

/* git format-patch's command line for the job. NULL-terminated, new. */
static GPtrArray *format_patch_argv(struct format_job *j)
{
	struct formatted *f = j->f;
	GPtrArray *argv = g_ptr_array_new_with_free_func(g_free);
	const char *prefix = series_get(j->s, "series.prefix");
	char *b4p;

	g_ptr_array_add(argv, g_strdup("git"));
	g_ptr_array_add(argv, g_strdup_printf("--git-dir=%s", j->git_dir));
	if (j->work_tree)
		g_ptr_array_add(argv, g_strdup_printf("--work-tree=%s",
						      j->work_tree));
	g_ptr_array_add(argv, g_strdup("format-patch"));
	g_ptr_array_add(argv, g_strdup("--quiet"));
	/* the user's format.* settings must not change the mails: no
	 * sign-off or notes added, .patch names */
	g_ptr_array_add(argv, g_strdup("--no-attach"));
	g_ptr_array_add(argv, g_strdup("--no-signoff"));
	g_ptr_array_add(argv, g_strdup("--no-notes"));
	g_ptr_array_add(argv, g_strdup("--suffix=.patch"));
	g_ptr_array_add(argv, g_strdup("--no-numbered-files"));
	g_ptr_array_add(argv, g_strdup(f->cover ? "--cover-letter" :
					       "--no-cover-letter"));
	if (f->cover)
		g_ptr_array_add(argv,
				g_strdup("--cover-from-description=subject"));
	if (!prefix || !*prefix)
		prefix = "PATCH";
	f->prefix = g_strdup(prefix);
	b4p = format_subject_prefix(prefix);
	if (j->version > 1)
		g_ptr_array_add(argv, g_strdup_printf("--subject-prefix=%s v%d",
						      b4p, j->version));
	else
		g_ptr_array_add(argv, g_strdup_printf("--subject-prefix=%s",
						      b4p));
	g_free(b4p);
	g_ptr_array_add(argv, g_strdup_printf("--base=%s", j->a.base));
	if (j->o->thread) {
		g_ptr_array_add(argv, g_strdup("--thread=shallow"));
		if (f->in_reply_to)
			g_ptr_array_add(argv, g_strdup_printf(
				"--in-reply-to=<%s>", f->in_reply_to));
	} else {
		g_ptr_array_add(argv, g_strdup("--no-thread"));
	}
	for (guint i = 0; i < f->to->len; i++)
		g_ptr_array_add(argv, g_strdup_printf("--to=%s",
					(char *)f->to->pdata[i]));
	for (guint i = 0; i < f->cc->len; i++)
		g_ptr_array_add(argv, g_strdup_printf("--cc=%s",
					(char *)f->cc->pdata[i]));
	g_ptr_array_add(argv, g_strdup("-o"));
	g_ptr_array_add(argv, g_strdup(j->outdir));
	g_ptr_array_add(argv, g_strdup_printf("%s..%s", j->a.base,
		j->branch ? j->branch : j->tip));
	g_ptr_array_add(argv, NULL);
	return argv;
}

/*
 * git format-patch, in a scratch repository (scratch_repo()) that a
 * later run sweeps, without the user's config: the mails in j->outdir.
 */
static int format_run_format_patch(struct format_job *j)
{
	GPtrArray *env, *argv;
	struct run_opts fo = { .dir = j->repo, .git_pristine = true };
	int ret;

	j->tmp = scratch_dir_make("format");
	if (!j->tmp ||
	    scratch_repo(j->repo, j->tmp, j->tip, &j->git_dir,
			 &j->work_tree) < 0)
		return -1;
	j->outdir = g_build_filename(j->tmp, "out", NULL);
	env = format_patch_env(j);
	argv = format_patch_argv(j);
	fo.env = (const char *const *)env->pdata;
	ret = run_capture_opts(&fo, (const char *const *)argv->pdata, NULL,
			       NULL);
	g_ptr_array_unref(argv);
	g_ptr_array_unref(env);
	return ret < 0 ? -1 : 0;
}

/*
 * The mails read back into f->files, with what git does not write: the
 * "change-id:" line under "base-commit:" (in the cover, or in the one
 * patch) and each patch's notes below its "---".
 */
static int format_read_mails(struct format_job *j)
{
	struct formatted *f = j->f;
	GPtrArray *names = dir_names_sorted(j->outdir, patch_name, NULL);
	guint k = 0;
	int ret = 0;

	for (guint i = 0; i < names->len; i++) {
		struct format_file *ff;
		char *path = g_build_filename(j->outdir, names->pdata[i], NULL);
		char *buf;
		size_t len;

		ret = read_file(path, MAIL_MAX_FILE, &buf, &len);
		g_free(path);
		if (ret < 0)
			break;
		ff = g_new0(struct format_file, 1);
		ff->name = g_strdup(names->pdata[i]);
		ff->text = g_string_new_len(buf, (gssize)len);
		g_free(buf);
		if (posting_file_kind(ff->name) == POSTING_COVER) {
			add_change_id(ff->text, f->change_id);
		} else {
			if (k < j->patches->len)
				add_notes(ff->text, ((struct patch_in *)
					j->patches->pdata[k])->notes);
			k++;
			if (!f->cover)
				add_change_id(ff->text, f->change_id);
		}
		g_ptr_array_add(f->files, ff);
	}
	g_ptr_array_unref(names);
	if (ret < 0)
		return -1;
	if (k != j->patches->len)
		return error("git format-patch wrote %u patches, want %u", k,
			     j->patches->len);
	return 0;
}

int format_version(struct series *s, int version,
		   const struct format_opts *o, struct formatted *f)
{
	struct format_job j;
	int ret = -1;

	format_job_init(&j, s, version, o, f);
	f->version = version;
	f->change_id = g_strdup(series_get(s, "series.change-id"));
	if (format_load_version(&j) < 0 || format_read_patches(&j) < 0 ||
	    format_apply(&j) < 0 || format_recommit(&j) < 0 ||
	    format_recipients(&j) < 0)
		goto out;
	format_thread(&j);
	format_changelog(&j);
	if (format_run_format_patch(&j) < 0 || format_read_mails(&j) < 0)
		goto out;
	ret = 0;
out:
	format_job_release(&j);
	return ret;
}

int format_spec(const char *spec, const struct format_opts *o,
		struct series *s, int *version, struct formatted *f)
{
	char *name;
	int v;

	if (series_parse_spec(spec, &name, &v) < 0)
		return -1;
	if (series_load(name, s) < 0) {
		g_free(name);
		return -1;
	}
	g_free(name);
	if (!v)
		v = series_latest_version(s);
	if (v < 1) {
		error("'%s' has no versions", s->name);
		series_release(s);
		return -1;
	}
	*version = v;
	{
		char *why = format_version_record(s, v);

		if (why) {
			error("%s", why);
			g_free(why);
			series_release(s);
			return -1;
		}
	}
	if (format_version(s, v, o, f) < 0) {
		series_release(s);
		return -1;
	}
	return 0;
}

int formatted_write(const struct formatted *f, const char *dir)
{
	if (format_dir_in_store(dir))
		return error("'%s' is inside the series store: write the mails elsewhere",
			     dir);
	if (mkdir_p(dir) < 0)
		return error_errno("cannot create '%s'", dir);
	for (guint i = 0; i < f->files->len; i++) {
		const struct format_file *ff = f->files->pdata[i];
		char *p;
		int r;

		if (!safe_component(ff->name))
			return error("unsafe file name '%s'", ff->name);
		p = g_build_filename(dir, ff->name, NULL);
		r = write_file_atomic(p, ff->text->str, ff->text->len);
		g_free(p);
		if (r < 0)
			return -1;
	}
	return 0;
}
