// SPDX-License-Identifier: GPL-2.0-only
/*
 * feedback.c - review feedback tracked across the versions of a series.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "anchor.h"
#include "apply.h"
#include "feedback.h"
#include "feedback-count.h"
#include "mail.h"
#include "patch.h"
#include "rangediff.h"
#include "review.h"
#include "run.h"
#include "series.h"
#include "store.h"
#include "subject.h"
#include "util.h"
#include "workbench.h"
#include "banned.h"


static const char *const status_names[] = {
	[FB_OPEN] = "open",
	[FB_ADDRESSED] = "addressed",
	[FB_OUTDATED] = "outdated",
	[FB_WONTFIX] = "wontfix",
	[FB_UNKNOWN] = "unknown",
};

const char *feedback_status_name(enum feedback_status st)
{
	return status_names[st];
}

int feedback_status_parse(const char *name)
{
	for (int i = 0; i < FB_UNKNOWN; i++)
		if (!strcmp(name, status_names[i]))
			return i;
	return -1;
}

void feedback_item_free(struct feedback_item *it)
{
	if (!it)
		return;
	g_free(it->id);
	g_free(it->kind);
	g_free(it->message_id);
	g_free(it->from);
	g_free(it->date);
	g_free(it->patch_id);
	g_free(it->patch_kind);
	g_free(it->patch_subject);
	g_free(it->file);
	g_free(it->quote);
	g_free(it->trailer);
	g_free(it->scope);
	if (it->applies_to)
		g_ptr_array_unref(it->applies_to);
	g_free(it->quoted_in);
	g_free(it->status);
	g_free(it->note);
	g_free(it->text);
	g_free(it);
}

/* ---- records ---- */

/* The end of the longest prefix of s[0..max) that cuts no UTF-8 character. */
static size_t utf8_cut(const char *s, size_t max)
{
	size_t n = max;

	/* back over continuation bytes to the start of the character */
	while (n && ((unsigned char)s[n] & 0xc0) == 0x80)
		n--;
	return n;
}

/*
 * One header line; the value made single-line (it comes from mail) and
 * at most FEEDBACK_MAX_VALUE bytes.
 */
static void header(GString *out, const char *name, const char *value)
{
	size_t n;

	if (!value)
		return;
	n = strlen(value);
	if (n > FEEDBACK_MAX_VALUE)
		n = utf8_cut(value, FEEDBACK_MAX_VALUE);
	g_string_append_printf(out, "%s: ", name);
	for (const char *p = value; p < value + n; p++)
		g_string_append_c(out, (unsigned char)*p < 0x20 || *p == 0x7f ?
					       ' ' : *p);
	g_string_append_c(out, '\n');
}

/*
 * The text, cut to FEEDBACK_MAX_TEXT bytes (at a line end when there is
 * one in the last quarter, else at a character) with a last line that
 * says so. The cut does not depend on the headers, so that a record
 * formats to the same bytes after its Status or Note change.
 */
static void body(GString *out, const char *text)
{
	/* what is kept and the note fit, so a cut text is not cut again */
	const size_t max = FEEDBACK_MAX_TEXT - 128;
	size_t n = strlen(text), keep = n;

	if (n > FEEDBACK_MAX_TEXT) {
		const char *nl = g_strrstr_len(text, max, "\n");

		keep = nl && (size_t)(nl + 1 - text) > max / 4 * 3 ?
		       (size_t)(nl + 1 - text) : utf8_cut(text, max);
	}
	g_string_append_len(out, text, (gssize)keep);
	if (keep && out->str[out->len - 1] != '\n')
		g_string_append_c(out, '\n');
	if (keep < n)
		g_string_append_printf(out,
			"[kseries: %zu of %zu bytes kept, the rest truncated]\n",
			keep, n);
}

static bool is_cover_kind(const struct feedback_item *it)
{
	return it->patch_kind && !strcmp(it->patch_kind, "cover");
}

char *feedback_format(const struct feedback_item *it)
{
	GString *out = g_string_new(NULL);
	char num[32];

	header(out, "Id", it->id);
	header(out, "Kind", it->kind);
	g_snprintf(num, sizeof(num), "%d", it->version);
	header(out, "Version", num);
	header(out, "Message-Id", it->message_id);
	g_snprintf(num, sizeof(num), "%u", it->index);
	header(out, "Index", num);
	header(out, "From", it->from);
	header(out, "Date", it->date);
	header(out, "Patch", it->patch_id);
	if (it->patch_index >= 0) {
		g_snprintf(num, sizeof(num), "%d", it->patch_index);
		header(out, "Patch-Index", num);
	}
	header(out, "Patch-Kind", it->patch_kind);
	header(out, "Patch-Subject", it->patch_subject);
	if (it->file) {
		header(out, "File", it->file);
		header(out, "Side", it->side == 'o' ? "old" : "new");
		g_snprintf(num, sizeof(num), "%d", it->line);
		header(out, "Line", num);
		header(out, "Quote", it->quote);
	}
	header(out, "Trailer", it->trailer);
	header(out, "Scope", it->scope);
	/* the headers stay within FEEDBACK_MAX_HEADERS (feedback.h) */
	if (it->applies_to)
		for (guint i = 0; i < it->applies_to->len &&
				  out->len < FEEDBACK_MAX_HEADERS / 2; i++)
			header(out, "Applies-To", it->applies_to->pdata[i]);
	header(out, "Quoted-In", it->quoted_in);
	header(out, "Status", it->status);
	header(out, "Note", it->note);
	g_string_append_c(out, '\n');
	if (it->text && *it->text)
		body(out, it->text);
	return g_string_free(out, FALSE);
}

static bool parse_int(const char *s, long lo, long hi, long *v)
{
	char *end;

	errno = 0;
	*v = strtol(s, &end, 10);
	return !errno && end != s && !*end && *v >= lo && *v <= hi;
}

int feedback_parse(const char *buf, size_t len, struct feedback_item **out)
{
	struct feedback_item *it = g_new0(struct feedback_item, 1);
	const char *p = buf, *end = buf + len;
	long v;

	*out = NULL;
	it->patch_index = -1;
	it->side = 'n';
	while (p < end) {
		const char *nl = memchr(p, '\n', end - p);
		size_t l = nl ? (size_t)(nl - p) : (size_t)(end - p);
		const char *colon = memchr(p, ':', l);
		char *name, *value;

		if (!l) {
			p = nl ? nl + 1 : end;
			break;
		}
		if (!colon || colon + 1 >= p + l + 1) {
			feedback_item_free(it);
			return -1;
		}
		name = g_strndup(p, (size_t)(colon - p));
		value = g_strndup(colon + 1 + (colon + 1 < p + l && colon[1] == ' '),
				  (size_t)(p + l - colon - 1 -
					   (colon + 1 < p + l && colon[1] == ' ')));
#define TAKE(field) do { g_free(it->field); it->field = value; value = NULL; } while (0)
		if (!strcmp(name, "Id"))
			TAKE(id);
		else if (!strcmp(name, "Kind"))
			TAKE(kind);
		else if (!strcmp(name, "Message-Id"))
			TAKE(message_id);
		else if (!strcmp(name, "From"))
			TAKE(from);
		else if (!strcmp(name, "Date"))
			TAKE(date);
		else if (!strcmp(name, "Patch"))
			TAKE(patch_id);
		else if (!strcmp(name, "Patch-Kind"))
			TAKE(patch_kind);
		else if (!strcmp(name, "Patch-Subject"))
			TAKE(patch_subject);
		else if (!strcmp(name, "File"))
			TAKE(file);
		else if (!strcmp(name, "Quote"))
			TAKE(quote);
		else if (!strcmp(name, "Trailer"))
			TAKE(trailer);
		else if (!strcmp(name, "Scope"))
			TAKE(scope);
		else if (!strcmp(name, "Quoted-In"))
			TAKE(quoted_in);
		else if (!strcmp(name, "Status"))
			TAKE(status);
		else if (!strcmp(name, "Note"))
			TAKE(note);
		else if (!strcmp(name, "Side"))
			it->side = !strcmp(value, "old") ? 'o' : 'n';
		else if (!strcmp(name, "Version") && parse_int(value, 1, 9999, &v))
			it->version = (int)v;
		else if (!strcmp(name, "Index") && parse_int(value, 0, 1 << 20, &v))
			it->index = (unsigned)v;
		else if (!strcmp(name, "Patch-Index") && parse_int(value, 0, 9999, &v))
			it->patch_index = (int)v;
		else if (!strcmp(name, "Line") && parse_int(value, 0, 100000000, &v))
			it->line = (int)v;
		else if (!strcmp(name, "Applies-To")) {
			if (!it->applies_to)
				it->applies_to = g_ptr_array_new_with_free_func(g_free);
			g_ptr_array_add(it->applies_to, value);
			value = NULL;
		}
#undef TAKE
		g_free(name);
		g_free(value);
		p = nl ? nl + 1 : end;
	}
	it->text = g_strndup(p, (size_t)(end - p));
	if (!it->id || !it->kind || !it->message_id || !it->version) {
		feedback_item_free(it);
		return -1;
	}
	*out = it;
	return 0;
}

static bool is_id(const char *s)
{
	size_t n = 0;

	for (; s[n]; n++)
		if (!g_ascii_isxdigit(s[n]) || g_ascii_isupper(s[n]))
			return false;
	return n == 12;
}

static gint item_cmp(gconstpointer a, gconstpointer b)
{
	const struct feedback_item *x = *(struct feedback_item *const *)a;
	const struct feedback_item *y = *(struct feedback_item *const *)b;
	int c;

	if (x->version != y->version)
		return x->version < y->version ? -1 : 1;
	c = g_strcmp0(x->date, y->date);
	if (c)
		return c;
	c = g_strcmp0(x->message_id, y->message_id);
	if (c)
		return c;
	c = g_strcmp0(x->kind, y->kind);
	if (c)
		return c;
	return x->index < y->index ? -1 : x->index > y->index;
}

int feedback_load(const struct series *s, GPtrArray *items)
{
	char *dir = g_build_filename(s->dir, "feedback", NULL);
	GDir *d;
	const char *name;
	int ret = 0;

	if (!is_dir(dir)) {
		g_free(dir);
		return 0;
	}
	d = g_dir_open(dir, 0, NULL);
	if (!d) {
		ret = error("cannot read '%s'", dir);
		g_free(dir);
		return ret;
	}
	while ((name = g_dir_read_name(d))) {
		char *path, *buf;
		size_t len;
		struct feedback_item *it = NULL;

		if (!is_id(name))
			continue;
		path = g_build_filename(dir, name, NULL);
		if (read_file(path, FEEDBACK_MAX_RECORD, &buf, &len) < 0) {
			g_free(path);
			ret = -1;
			continue;
		}
		if (feedback_parse(buf, len, &it) < 0 || strcmp(it->id, name)) {
			feedback_item_free(it);
			warning("'%s': not a feedback record, skipped", path);
		} else {
			g_ptr_array_add(items, it);
		}
		g_free(buf);
		g_free(path);
	}
	g_dir_close(d);
	g_free(dir);
	g_ptr_array_sort(items, item_cmp);
	return ret;
}

/* ---- ingest ---- */

static char *make_id(const char *message_id, const char *kind, unsigned n)
{
	char *key = g_strdup_printf("%s\n%s\n%u", message_id, kind, n);
	char *sum = g_compute_checksum_for_string(G_CHECKSUM_SHA1, key, -1);
	char *id = g_strndup(sum, 12);

	g_free(key);
	g_free(sum);
	return id;
}

/*
 * The records of one ingest, written in one store transaction (store.h):
 * under the store's lock, each record whole, all synced together.
 */
struct record_writer {
	const struct series *s;
	struct store_txn txn;
	unsigned written, kept;
};

static int write_item(struct record_writer *w, struct feedback_item *it)
{
	char *path = g_build_filename(w->s->dir, "feedback", it->id, NULL);
	char *old = NULL, *text;
	size_t old_len = 0;
	int ret = 0;

	if (is_file(path) &&
	    read_file(path, FEEDBACK_MAX_RECORD, &old, &old_len) == 0) {
		struct feedback_item *prev;

		/* the author's override survives a re-ingest */
		if (feedback_parse(old, old_len, &prev) == 0) {
			g_free(it->status);
			g_free(it->note);
			it->status = g_strdup(prev->status);
			it->note = g_strdup(prev->note);
			feedback_item_free(prev);
		}
	}
	text = feedback_format(it);
	if (old && strlen(text) == old_len && !memcmp(text, old, old_len)) {
		w->kept++;
	} else {
		char *rel = g_build_filename("feedback", it->id, NULL);

		ret = store_txn_write(&w->txn, rel, text, strlen(text));
		if (!ret)
			w->written++;
		g_free(rel);
	}
	g_free(text);
	g_free(old);
	g_free(path);
	return ret;
}

static void map_version(GHashTable *map, const char *id, int v)
{
	if (id && *id && !g_hash_table_contains(map, id))
		g_hash_table_insert(map, g_strdup(id), GINT_TO_POINTER(v));
}

/* A Message-ID as a record shows it: in angle brackets. */
static char *bracket(const char *id)
{
	return id ? g_strdup_printf("<%s>", id) : NULL;
}

static char *date_of(const struct mail *m)
{
	GDateTime *dt;
	char *s;

	if (!m->time)
		return g_strdup(m->date);
	dt = g_date_time_new_from_unix_utc(m->time);
	if (!dt)
		return g_strdup(m->date);
	s = g_date_time_format(dt, "%Y-%m-%dT%H:%M:%SZ");
	g_date_time_unref(dt);
	return s;
}

static void fill_target(struct feedback_item *it, const struct review *r,
			const struct review_message *rm, GHashTable *vmap,
			const GArray *versions, int latest)
{
	const struct review_message *t = review_find(r, rm->target);
	gpointer v;

	it->patch_id = bracket(rm->target);
	if (rm->target && g_hash_table_lookup_extended(vmap, rm->target, NULL, &v))
		it->version = GPOINTER_TO_INT(v);
	else if (t && t->subj.version)
		it->version = t->subj.version;
	else
		it->version = rm->subj.version;
	/* a version the store does not have: the latest */
	bool have = false;

	for (guint i = 0; i < versions->len; i++)
		if (g_array_index(versions, int, i) == it->version)
			have = true;
	if (!have)
		it->version = latest;
	if (t && t->kind != REVIEW_REPLY) {
		it->patch_index = t->subj.index;
		it->patch_kind = g_strdup(t->kind == REVIEW_COVER ? "cover" : "patch");
		it->patch_subject = g_strdup(t->subj.title);
	} else if (rm->subj.patch) {
		/* the target is not here: what the reply's subject says */
		it->patch_index = rm->subj.index;
		it->patch_kind = g_strdup(rm->subj.index == 0 && rm->subj.total > 1 ?
					  "cover" : "patch");
		it->patch_subject = g_strdup(rm->subj.title);
	} else {
		it->patch_index = -1;
	}
}

/* What one ingest works with. */
struct ingest {
	struct series *s;
	GHashTable *vmap;	/* Message-ID → the version it belongs to */
	GArray *versions;
	int latest;
	struct review r;
	struct record_writer w;
};

/* The stored versions first: they tell each target its version. */
static void map_stored_versions(struct ingest *in, GPtrArray *mails)
{
	for (guint i = 0; i < in->versions->len; i++) {
		int v = g_array_index(in->versions, int, i);
		GPtrArray *files = series_patch_files(in->s, v, true);

		for (guint f = 0; f < files->len; f++) {
			guint before = mails->len;

			if (mail_read_mbox(files->pdata[f], mails) < 0)
				continue;
			for (guint k = before; k < mails->len; k++)
				map_version(in->vmap, ((struct mail *)mails->pdata[k])
							      ->message_id, v);
		}
		g_ptr_array_unref(files);
		map_version(in->vmap, series_version_get(in->s, v, "message-id"), v);
		map_version(in->vmap, series_version_get(in->s, v, "in-reply-to"),
			    v);
	}
}

/* The record of comment c (given in rm, numbered index). */
static struct feedback_item *comment_item(struct ingest *in,
					  const struct review_comment *c,
					  const struct review_message *rm,
					  bool quoted, unsigned index)
{
	struct feedback_item *it = g_new0(struct feedback_item, 1);

	it->kind = g_strdup("comment");
	it->id = make_id(c->reply_id, it->kind, index);
	it->message_id = bracket(c->reply_id);
	it->index = index;
	if (quoted) {
		it->from = *c->author_email ?
			g_strdup_printf("%s <%s>", c->author_name, c->author_email) :
			g_strdup(c->author_name);
		it->quoted_in = bracket(rm->mail->message_id);
	} else {
		it->from = g_strdup(rm->mail->from);
	}
	it->date = date_of(rm->mail);
	fill_target(it, &in->r, rm, in->vmap, in->versions, in->latest);
	if (c->is_inline) {
		it->file = g_strdup(c->file);
		it->side = c->side;
		it->line = c->line;
		it->quote = g_strdup(c->quote);
	}
	it->text = g_strdup(c->text);
	return it;
}

/* The comments: the repliers' own, then the ones quoted from elsewhere. */
static int ingest_comments(struct ingest *in)
{
	const struct review *r = &in->r;
	GHashTable *done = g_hash_table_new_full(g_str_hash, g_str_equal,
						 g_free, NULL);
	GHashTable *qcount = g_hash_table_new(g_str_hash, g_str_equal);
	int ret = 0;

	for (guint i = 0; i < r->comments->len + r->quoted->len && !ret; i++) {
		bool quoted = i >= r->comments->len;
		const struct review_comment *c = quoted ?
			r->quoted->pdata[i - r->comments->len] : r->comments->pdata[i];
		const struct review_message *rm =
			review_find(r, quoted ? c->quoted_in : c->reply_id);
		struct feedback_item *it;
		unsigned index = c->index;

		if (!rm->mail->message_id)
			continue;	/* no stable ID without one */
		if (quoted) {
			/* numbered per quoted message, as its own would be */
			index = GPOINTER_TO_UINT(g_hash_table_lookup(qcount, c->reply_id));
			g_hash_table_insert(qcount, (gpointer)c->reply_id,
					    GUINT_TO_POINTER(index + 1));
		}
		it = comment_item(in, c, rm, quoted, index);
		if (g_hash_table_contains(done, it->id)) {
			/* quoted again by another reply: the first one wins */
			feedback_item_free(it);
			continue;
		}
		g_hash_table_add(done, g_strdup(it->id));
		if (write_item(&in->w, it) < 0)
			ret = -1;
		feedback_item_free(it);
	}
	g_hash_table_destroy(qcount);
	g_hash_table_destroy(done);
	return ret;
}

/* The record of trailer t, the n-th given in rm. */
static struct feedback_item *trailer_item(struct ingest *in,
					  const struct review_trailer *t,
					  const struct review_message *rm,
					  unsigned n)
{
	struct feedback_item *it = g_new0(struct feedback_item, 1);

	it->kind = g_strdup("trailer");
	it->id = make_id(rm->mail->message_id, it->kind, n);
	it->message_id = bracket(rm->mail->message_id);
	it->index = n;
	it->from = g_strdup(rm->mail->from);
	it->date = date_of(rm->mail);
	fill_target(it, &in->r, rm, in->vmap, in->versions, in->latest);
	it->trailer = *t->email ?
		g_strdup_printf("%s: %s <%s>", t->kind, t->name, t->email) :
		g_strdup_printf("%s: %s", t->kind, t->name);
	it->scope = g_strdup(review_scope_name(t->scope));
	it->applies_to = g_ptr_array_new_with_free_func(g_free);
	for (guint k = 0; k < t->applies_to->len; k++)
		g_ptr_array_add(it->applies_to, bracket(t->applies_to->pdata[k]));
	it->text = g_strdup("");
	return it;
}

static int ingest_trailers(struct ingest *in)
{
	GHashTable *tcount = g_hash_table_new(g_str_hash, g_str_equal);
	int ret = 0;

	for (guint i = 0; i < in->r.trailers->len && !ret; i++) {
		const struct review_trailer *t = in->r.trailers->pdata[i];
		const struct review_message *rm = review_find(&in->r, t->given_in);
		struct feedback_item *it;
		unsigned n;

		if (!rm->mail->message_id)
			continue;
		n = GPOINTER_TO_UINT(g_hash_table_lookup(tcount, rm->id));
		g_hash_table_insert(tcount, rm->id, GUINT_TO_POINTER(n + 1));
		it = trailer_item(in, t, rm, n);
		if (write_item(&in->w, it) < 0)
			ret = -1;
		feedback_item_free(it);
	}
	g_hash_table_destroy(tcount);
	return ret;
}

int feedback_ingest(struct series *s, const char *path, unsigned *written,
		    unsigned *kept)
{
	GPtrArray *mails = mail_array_new();
	struct ingest in = { .s = s, .w.s = s };
	int ret = -1;

	*written = *kept = 0;
	in.vmap = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
	in.versions = series_versions(s);
	in.latest = series_latest_version(s);
	if (!in.versions->len) {
		/* a record names the version it was given on */
		error("series '%s' has no versions: import one first", s->name);
		goto out;
	}
	map_stored_versions(&in, mails);
	if (mail_read_mbox(path, mails) < 0)
		goto out;
	review_init(&in.r);
	review_extract(&in.r, mails);
	if (store_txn_begin(&in.w.txn, s->name, "ingest") == 0) {
		ret = ingest_comments(&in) < 0 || ingest_trailers(&in) < 0 ||
		      store_txn_commit(&in.w.txn) < 0 ? -1 : 0;
	}
	store_txn_abort(&in.w.txn);
	/*
	 * The count kept with the feedback (feedback-count.h), after the
	 * records are in place; should this fail, list rebuilds it.
	 */
	if (!ret && in.w.written)
		feedback_open_update(s);
	review_release(&in.r);
	*written = in.w.written;
	*kept = in.w.kept;
out:
	g_array_unref(in.versions);
	g_hash_table_destroy(in.vmap);
	g_ptr_array_unref(mails);
	return ret;
}

/* ---- carrying to later versions ---- */

struct vpatch {
	const struct mail *m;
	struct subject subj;
	struct patch patch;
	bool cover;
	char *norm;		/* what a reviewer would see change */
	GHashTable *keys;	/* anchor keys of the changed lines */
	char *pid;		/* git patch-id --stable, when asked; "" none */
};

struct vinfo {
	int version;
	GPtrArray *mails;
	GPtrArray *patches;	/* struct vpatch *, in file order */
};

struct feedback_ctx {
	const struct series *s;
	GHashTable *versions;	/* int → struct vinfo * */
	GHashTable *pairs;	/* "A:B" → GArray of int, or NULL: range-diff
				 * pairing of A's patches with B's */
};

static void vpatch_free(struct vpatch *vp)
{
	subject_release(&vp->subj);
	patch_release(&vp->patch);
	g_free(vp->norm);
	g_free(vp->pid);
	g_hash_table_destroy(vp->keys);
	g_free(vp);
}

static void vinfo_free(gpointer data)
{
	struct vinfo *vi = data;

	g_ptr_array_unref(vi->patches);
	g_ptr_array_unref(vi->mails);
	g_free(vi);
}

static void pairs_free(gpointer a)
{
	if (a)
		g_array_free(a, TRUE);
}

struct feedback_ctx *feedback_ctx_new(const struct series *s)
{
	struct feedback_ctx *ctx = g_new0(struct feedback_ctx, 1);

	ctx->s = s;
	ctx->versions = g_hash_table_new_full(g_direct_hash, g_direct_equal,
					      NULL, vinfo_free);
	ctx->pairs = g_hash_table_new_full(g_str_hash, g_str_equal, g_free,
					   pairs_free);
	return ctx;
}

void feedback_ctx_free(struct feedback_ctx *ctx)
{
	if (!ctx)
		return;
	g_hash_table_destroy(ctx->versions);
	g_hash_table_destroy(ctx->pairs);
	g_free(ctx);
}

/*
 * The message and the changed lines, without what changes on every
 * posting (trailers, the text below "---", positions, index lines).
 */
static char *normalize(const struct mail *m, const struct patch *p,
		       const struct subject *subj)
{
	GString *out = g_string_new(subj->title);
	const char *b = m->body ? m->body : "";
	size_t n = p->files->len ? p->diff_start : m->body_len;
	char *msg = g_strndup(b, n);
	char **lines = g_strsplit(msg, "\n", -1);

	g_free(msg);
	g_string_append_c(out, '\n');
	for (char **l = lines; *l; l++) {
		if (!strcmp(*l, "---"))
			break;
		/* trailers are added between versions: not a change */
		if (strstr(*l, "-by: ") || g_str_has_prefix(*l, "Link: ") ||
		    g_str_has_prefix(*l, "Cc: "))
			continue;
		g_string_append_printf(out, "%s\n", *l);
	}
	g_strfreev(lines);
	for (guint i = 0; i < p->lines->len; i++) {
		const struct patch_line *pl =
			&g_array_index(p->lines, struct patch_line, i);
		const struct patch_file *f = p->files->pdata[pl->file];

		if (pl->kind == ' ')
			continue;
		g_string_append_printf(out, "%s%c%.*s\n", f->path, pl->kind,
				       (int)pl->len, pl->text);
	}
	return g_string_free(out, FALSE);
}

static struct vinfo *load_version(struct feedback_ctx *ctx, int v)
{
	struct vinfo *vi = g_hash_table_lookup(ctx->versions, GINT_TO_POINTER(v));
	GPtrArray *files;

	if (vi)
		return vi;
	vi = g_new0(struct vinfo, 1);
	vi->version = v;
	vi->mails = mail_array_new();
	vi->patches = g_ptr_array_new_with_free_func((GDestroyNotify)vpatch_free);
	files = series_patch_files(ctx->s, v, true);
	for (guint f = 0; f < files->len; f++) {
		guint before = vi->mails->len;

		if (mail_read_mbox(files->pdata[f], vi->mails) < 0)
			continue;
		for (guint k = before; k < vi->mails->len; k++) {
			struct vpatch *vp = g_new0(struct vpatch, 1);
			const struct mail *m = vi->mails->pdata[k];

			vp->m = m;
			subject_parse(m->subject ? m->subject : "", &vp->subj);
			patch_init(&vp->patch);
			vp->cover = !patch_parse(&vp->patch, m->body ? m->body : "",
						 m->body_len);
			vp->norm = normalize(m, &vp->patch, &vp->subj);
			vp->keys = g_hash_table_new_full(g_str_hash, g_str_equal,
							 g_free, NULL);
			for (guint i = 0; i < vp->patch.lines->len; i++) {
				const struct patch_line *pl = &g_array_index(
					vp->patch.lines, struct patch_line, i);
				const struct patch_file *pf =
					vp->patch.files->pdata[pl->file];
				char *k2, *key;

				if (pl->kind == ' ')
					continue;
				k2 = anchor_key(pl->kind, pl->text, pl->len);
				key = g_strdup_printf("%s\n%s", pf->path, k2);
				g_free(k2);
				g_hash_table_add(vp->keys, key);
			}
			g_ptr_array_add(vi->patches, vp);
		}
	}
	g_ptr_array_unref(files);
	g_hash_table_insert(ctx->versions, GINT_TO_POINTER(v), vi);
	return vi;
}

static const struct vpatch *find_patch(const struct vinfo *vi,
				       const struct feedback_item *it)
{
	bool cover = is_cover_kind(it);

	if (it->patch_id)
		for (guint i = 0; i < vi->patches->len; i++) {
			const struct vpatch *vp = vi->patches->pdata[i];
			char *b = bracket(vp->m->message_id);
			bool same = b && !strcmp(b, it->patch_id);

			g_free(b);
			if (same)
				return vp;
		}
	for (guint i = 0; i < vi->patches->len; i++) {
		const struct vpatch *vp = vi->patches->pdata[i];

		if (vp->cover == cover && it->patch_index >= 0 &&
		    vp->subj.index == it->patch_index)
			return vp;
	}
	return NULL;
}

/*
 * The pairing `git range-diff` makes of two versions applied to the
 * series' base in the kernel tree (rangediff.h): for each patch of A
 * (0-based, cover excluded), the patch of B it pairs with, -1 when none.
 * NULL when it cannot be run (no tree, a version does not apply).
 */
static GArray *run_range_diff(const struct series *s, int va, int vb)
{
	const char *tree = kernel_tree();
	const char *base = series_get(s, "series.base");
	GPtrArray *fa, *fb;
	GArray *pairs = NULL;

	if (!tree || !base || getenv("KSERIES_NO_RANGE_DIFF"))
		return NULL;
	fa = series_patch_files(s, va, false);
	fb = series_patch_files(s, vb, false);
	if (fa->len && fb->len)
		pairs = rangediff_pairs(tree, base, fa, fb);
	g_ptr_array_unref(fa);
	g_ptr_array_unref(fb);
	return pairs;
}

static GArray *range_diff_pairs(struct feedback_ctx *ctx, int va, int vb)
{
	char key[32];
	gpointer v;

	g_snprintf(key, sizeof(key), "%d:%d", va, vb);
	if (g_hash_table_lookup_extended(ctx->pairs, key, NULL, &v))
		return v;
	v = run_range_diff(ctx->s, va, vb);
	g_hash_table_insert(ctx->pairs, g_strdup(key), v);
	return v;
}

static int position(const struct vinfo *vi, const struct vpatch *vp)
{
	int pos = 0;

	for (guint i = 0; i < vi->patches->len; i++) {
		const struct vpatch *x = vi->patches->pdata[i];

		if (x == vp)
			return x->cover ? -1 : pos;
		if (!x->cover)
			pos++;
	}
	return -1;
}

static const struct vpatch *at_position(const struct vinfo *vi, int pos)
{
	for (guint i = 0; i < vi->patches->len; i++) {
		const struct vpatch *x = vi->patches->pdata[i];

		if (!x->cover && pos-- == 0)
			return x;
	}
	return NULL;
}

/* The patch of b that range-diff would pair with a: same subject, else
 * the most similar changed lines. */
static const struct vpatch *pair(const struct vpatch *a, const struct vinfo *b)
{
	const struct vpatch *best = NULL;
	double best_score = 0.5;

	for (guint i = 0; i < b->patches->len; i++) {
		const struct vpatch *vp = b->patches->pdata[i];

		if (vp->cover == a->cover && !strcmp(vp->subj.title, a->subj.title))
			return vp;
	}
	if (a->cover)
		for (guint i = 0; i < b->patches->len; i++)
			if (((struct vpatch *)b->patches->pdata[i])->cover)
				return b->patches->pdata[i];
	for (guint i = 0; i < b->patches->len; i++) {
		const struct vpatch *vp = b->patches->pdata[i];
		GHashTableIter iter;
		gpointer key;
		guint common = 0, all;
		double score;

		if (vp->cover)
			continue;
		g_hash_table_iter_init(&iter, a->keys);
		while (g_hash_table_iter_next(&iter, &key, NULL))
			common += g_hash_table_contains(vp->keys, key);
		all = g_hash_table_size(a->keys) + g_hash_table_size(vp->keys) - common;
		score = all ? (double)common / all : 0;
		if (score > best_score) {
			best_score = score;
			best = vp;
		}
	}
	return best;
}

/*
 * The pairing range-diff makes when it can be run; what it leaves
 * unpaired (a patch changed past its creation factor) and every pairing
 * without the kernel tree fall back to pair().
 */
static const struct vpatch *pair_through(struct feedback_ctx *ctx,
					 const struct vinfo *va,
					 const struct vpatch *a,
					 const struct vinfo *vb)
{
	GArray *pairs = range_diff_pairs(ctx, va->version, vb->version);
	int pos = position(va, a);
	const struct vpatch *b;

	if (pairs && pos >= 0 && (guint)pos < pairs->len &&
	    g_array_index(pairs, int, pos) >= 0)
		return at_position(vb, g_array_index(pairs, int, pos));
	b = pair(a, vb);
	if (b && pairs) {
		/* not one range-diff gave to another patch */
		int bp = position(vb, b);

		for (guint i = 0; i < pairs->len; i++)
			if (g_array_index(pairs, int, i) == bp)
				return NULL;
	}
	return b;
}

/*
 * vp's `git patch-id --stable` (its diff, whitespace and line numbers
 * aside), as record pairs patches; "" when git gives none. Computed
 * once, when first asked.
 */
static const char *vpatch_pid(struct vpatch *vp)
{
	const char *argv[] = { "git", "patch-id", "--stable", NULL };
	const char *body = vp->m->body ? vp->m->body : "";
	struct run_opts o = { .in = body, .in_len = vp->m->body_len,
			      .timeout = 60, .git_pristine = true };
	GString *out, *err;

	if (vp->pid)
		return vp->pid;
	out = g_string_new(NULL);
	err = g_string_new(NULL);
	if (!vp->cover && run_output(&o, argv, out, err) == 0 && out->len)
		g_string_truncate(out, strcspn(out->str, " \n"));
	else
		g_string_truncate(out, 0);
	g_string_free(err, TRUE);
	vp->pid = g_string_free(out, FALSE);
	return vp->pid;
}

GArray *feedback_same_patches(struct feedback_ctx *ctx, int a, int b)
{
	struct vinfo *va = load_version(ctx, a), *vb = load_version(ctx, b);
	GArray *out;
	GPtrArray *used;

	if (!at_position(va, 0) || !at_position(vb, 0))
		return NULL;
	out = g_array_new(FALSE, TRUE, sizeof(int));
	used = g_ptr_array_new();
	for (int k = 0; at_position(vb, k); k++) {
		struct vpatch *y = (struct vpatch *)at_position(vb, k);
		const char *py = vpatch_pid(y);
		int same = 0;

		for (int i = 0; *py && !same && at_position(va, i); i++) {
			struct vpatch *x = (struct vpatch *)at_position(va, i);

			/* each patch of a once, as record pairs them */
			if (!g_ptr_array_find(used, x, NULL) &&
			    !strcmp(vpatch_pid(x), py)) {
				g_ptr_array_add(used, x);
				same = i + 1;
			}
		}
		g_array_append_val(out, same);
	}
	g_ptr_array_unref(used);
	return out;
}

int feedback_item_position(struct feedback_ctx *ctx,
			   const struct feedback_item *it)
{
	const struct vpatch *vp;
	struct vinfo *vi;

	if (is_cover_kind(it))
		return 0;
	vi = load_version(ctx, it->version);
	vp = find_patch(vi, it);
	/* "[PATCH vN]" as mailed, "[PATCH vN 1/1]" as record stores it */
	if (!vp && it->patch_index == 0 && at_position(vi, 0) &&
	    !at_position(vi, 1))
		vp = at_position(vi, 0);
	if (!vp)
		return -1;
	return vp->cover ? 0 : position(vi, vp) + 1;
}

/* The changed lines a comment at (file, side, line) is about. */
static GPtrArray *anchored_keys(const struct vpatch *vp,
				const struct feedback_item *it)
{
	GPtrArray *keys = g_ptr_array_new_with_free_func(g_free);
	const struct patch *p = &vp->patch;
	long at = -1;

	for (guint i = 0; i < p->lines->len && at < 0; i++) {
		const struct patch_line *pl =
			&g_array_index(p->lines, struct patch_line, i);
		const struct patch_file *f = p->files->pdata[pl->file];

		if (strcmp(f->path, it->file))
			continue;
		if (it->side == 'o' ? (pl->kind == '-' && pl->old_line == it->line)
				    : (pl->kind != '-' && pl->new_line == it->line))
			at = i;
	}
	if (at < 0)
		return keys;

	const struct patch_line *al = &g_array_index(p->lines, struct patch_line, at);
	const struct patch_hunk *h = &g_array_index(p->hunks, struct patch_hunk, al->hunk);
	long lo = at, hi = at;

	if (al->kind == ' ') {
		/* a context line: the changes around it */
		lo = MAX((long)h->first, at - 3);
		hi = MIN((long)(h->first + h->nr) - 1, at + 3);
	}
	for (int pass = 0; pass < 2 && !keys->len; pass++) {
		for (long i = lo; i <= hi; i++) {
			const struct patch_line *pl =
				&g_array_index(p->lines, struct patch_line, i);

			if (pl->kind == ' ')
				continue;
			char *k = anchor_key(pl->kind, pl->text, pl->len);

			g_ptr_array_add(keys, g_strdup_printf("%s\n%s", it->file, k));
			g_free(k);
		}
		lo = h->first;
		hi = (long)(h->first + h->nr) - 1;
	}
	return keys;
}

enum feedback_status feedback_status_at(struct feedback_ctx *ctx,
					const struct feedback_item *it,
					int version, int *paired)
{
	struct vinfo *va, *vb;
	const struct vpatch *a, *b;
	int ov;

	*paired = -1;
	if (it->status && (ov = feedback_status_parse(it->status)) >= 0)
		return (enum feedback_status)ov;
	if (version <= it->version)
		return FB_OPEN;
	va = load_version(ctx, it->version);
	vb = load_version(ctx, version);
	if (!vb->patches->len)
		return FB_UNKNOWN;
	if (is_cover_kind(it) || (it->patch_index < 0 && !it->file)) {
		/* about the series: open while no patch of it changed */
		guint same = 0;

		if (!strcmp(it->kind, "trailer")) {
			*paired = 0;
			return FB_OPEN;	/* for the series: carried as is */
		}

		if (!va->patches->len)
			return FB_UNKNOWN;
		for (guint i = 0; i < va->patches->len; i++) {
			const struct vpatch *x = va->patches->pdata[i];
			const struct vpatch *y = pair_through(ctx, va, x, vb);

			if (x->cover)
				continue;
			if (y && !strcmp(x->norm, y->norm))
				same++;
		}
		*paired = 0;
		return same == va->patches->len - (va->patches->len > 0 &&
			((struct vpatch *)va->patches->pdata[0])->cover) &&
		       va->patches->len == vb->patches->len ? FB_OPEN : FB_ADDRESSED;
	}
	a = find_patch(va, it);
	if (!a) {
		/*
		 * The version was only seen through replies (no patches in
		 * the store): pair by the subject the reply carries. Whether
		 * the lines changed cannot be told, so the item stays open.
		 */
		const char *title = it->patch_subject;

		if (!title)
			return FB_UNKNOWN;
		for (guint i = 0; i < vb->patches->len; i++) {
			b = vb->patches->pdata[i];
			if (!b->cover && !strcmp(b->subj.title, title)) {
				*paired = b->subj.index;
				return FB_OPEN;
			}
		}
		return FB_UNKNOWN;
	}
	b = pair_through(ctx, va, a, vb);
	if (!b)
		return FB_OUTDATED;
	*paired = b->subj.index;
	if (!strcmp(it->kind, "trailer"))
		return FB_OPEN;
	if (!it->file)
		return strcmp(a->norm, b->norm) ? FB_ADDRESSED : FB_OPEN;
	if (!patch_find_file(&b->patch, it->file))
		return FB_OUTDATED;

	GPtrArray *keys = anchored_keys(a, it);
	enum feedback_status st = FB_OPEN;

	for (guint i = 0; i < keys->len; i++)
		if (!g_hash_table_contains(b->keys, keys->pdata[i]))
			st = FB_ADDRESSED;
	if (!keys->len)
		st = strcmp(a->norm, b->norm) ? FB_ADDRESSED : FB_OPEN;
	g_ptr_array_unref(keys);
	return st;
}

/* ---- lookup, JSON ---- */

int feedback_find(const char *id, char **series_name, char **path)
{
	GPtrArray *names;
	int ret = -1;

	*series_name = *path = NULL;
	if (!is_id(id))
		return error("'%s' is not a feedback ID (12 hex digits)", id);
	names = series_list_names();
	for (guint i = 0; i < names->len && ret; i++) {
		char *p = g_build_filename(store_top(), "series", names->pdata[i],
					   "feedback", id, NULL);

		if (is_file(p)) {
			*series_name = g_strdup(names->pdata[i]);
			*path = p;
			ret = 0;
		} else {
			g_free(p);
		}
	}
	g_ptr_array_unref(names);
	if (ret)
		error("no feedback item '%s'", id);
	return ret;
}

static json_t *jstr(const char *s)
{
	json_t *j;
	char *v;

	if (!s)
		return json_null();
	if ((j = json_string(s)))
		return j;
	v = g_utf8_make_valid(s, -1);
	j = json_string(v);
	g_free(v);
	return j ? j : json_null();
}

json_t *feedback_item_json(const struct feedback_item *it,
			   enum feedback_status st, int version, int paired)
{
	json_t *o = json_object();

	json_object_set_new(o, "id", jstr(it->id));
	json_object_set_new(o, "kind", jstr(it->kind));
	json_object_set_new(o, "version", json_integer(it->version));
	json_object_set_new(o, "message_id", jstr(it->message_id));
	json_object_set_new(o, "index", json_integer(it->index));
	json_object_set_new(o, "from", jstr(it->from));
	json_object_set_new(o, "date", jstr(it->date));
	json_object_set_new(o, "patch_message_id", jstr(it->patch_id));
	json_object_set_new(o, "patch_index", it->patch_index >= 0 ?
				json_integer(it->patch_index) : json_null());
	json_object_set_new(o, "patch_kind", jstr(it->patch_kind));
	json_object_set_new(o, "patch_subject", jstr(it->patch_subject));
	json_object_set_new(o, "file", jstr(it->file));
	json_object_set_new(o, "side", it->file ? json_string(it->side == 'o' ?
							      "old" : "new")
						: json_null());
	json_object_set_new(o, "line", it->file ? json_integer(it->line)
						: json_null());
	if (it->trailer)
		json_object_set_new(o, "trailer", jstr(it->trailer));
	json_object_set_new(o, "status", json_string(feedback_status_name(st)));
	json_object_set_new(o, "status_version", json_integer(version));
	json_object_set_new(o, "override", it->status ? json_true() : json_false());
	json_object_set_new(o, "paired_patch_index",
			    paired >= 0 ? json_integer(paired) : json_null());
	json_object_set_new(o, "quoted_in", jstr(it->quoted_in));
	json_object_set_new(o, "note", jstr(it->note));
	json_object_set_new(o, "text", jstr(it->text));
	return o;
}
