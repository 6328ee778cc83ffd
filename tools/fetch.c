// SPDX-License-Identifier: GPL-2.0-only
/*
 * fetch.c - new replies and newer postings of a series, from the list.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <gmime/gmime.h>

#include "feedback.h"
#include "fetch.h"
#include "lore.h"
#include "mail.h"
#include "subject.h"
#include "util.h"
#include "work.h"
#include "banned.h"

static void thread_free(struct fetch_thread *t)
{
	g_free(t->path);
	if (t->content)
		g_string_free(t->content, TRUE);
	g_string_free(t->postings, TRUE);
	g_free(t);
}

void fetch_plan_init(struct fetch_plan *p)
{
	memset(p, 0, sizeof(*p));
	p->threads = g_ptr_array_new_with_free_func((GDestroyNotify)thread_free);
}

void fetch_plan_release(struct fetch_plan *p)
{
	if (p->threads)
		g_ptr_array_unref(p->threads);
	if (p->newer_mbox)
		g_string_free(p->newer_mbox, TRUE);
	memset(p, 0, sizeof(*p));
}

bool fetch_plan_empty(const struct fetch_plan *p)
{
	for (guint i = 0; i < p->threads->len; i++)
		if (((struct fetch_thread *)p->threads->pdata[i])->content)
			return false;
	return !p->newer_version;
}

static char *mail_key(const struct mail *m)
{
	return m->message_id ? g_strdup(m->message_id) :
	       g_compute_checksum_for_data(G_CHECKSUM_SHA1,
					   (const guchar *)m->raw, m->raw_len);
}

/* One message in mboxrd form, an empty line before the next From_ line. */
static void append_raw(GString *out, const struct mail *m)
{
	if (!mem_starts_with(m->raw, m->raw_len, "From "))
		g_string_append(out, "From mboxrd@z Thu Jan  1 00:00:00 1970\n");
	g_string_append_len(out, m->raw, (gssize)m->raw_len);
	if (out->len && out->str[out->len - 1] != '\n')
		g_string_append_c(out, '\n');
	if (out->len < 2 || out->str[out->len - 2] != '\n')
		g_string_append_c(out, '\n');
}

static bool posted(const struct series *s, int v)
{
	char *dir;
	bool ok;

	if (!work_version_posted(s, v))
		return false;
	dir = series_version_dir(s, v);
	ok = is_dir(dir);
	g_free(dir);
	return ok;
}

/* The Message-IDs of the version's own mails (cover and patches). */
static int own_ids(const struct series *s, int v, GHashTable *ids)
{
	GPtrArray *files = series_patch_files(s, v, true);
	GPtrArray *mails = mail_array_new();
	int ret = 0;

	for (guint i = 0; i < files->len && !ret; i++)
		ret = mail_read_mbox(files->pdata[i], mails);
	for (guint i = 0; i < mails->len; i++) {
		struct mail *m = mails->pdata[i];

		if (m->message_id)
			g_hash_table_add(ids, g_strdup(m->message_id));
	}
	g_ptr_array_unref(mails);
	g_ptr_array_unref(files);
	return ret;
}

/*
 * A reply of this version's thread: not a posting of its own (a patch or
 * cover letter, of this version or another), not one of ours.
 */
static bool is_reply_of(const struct mail *m, int v, GHashTable *own)
{
	struct subject subj;
	bool ok;

	if (m->message_id && g_hash_table_contains(own, m->message_id))
		return false;
	subject_parse(m->subject, &subj);
	ok = !(subj.patch && !subj.reply) &&
	     !(subj.patch && subj.version != v);
	subject_release(&subj);
	return ok;
}

/* A patch or cover letter of version v. */
static bool is_posting_of(const struct mail *m, int v)
{
	struct subject subj;
	bool ok;

	subject_parse(m->subject, &subj);
	ok = subj.patch && !subj.reply && subj.version == v;
	subject_release(&subj);
	return ok;
}

/* The new messages of the fetched thread, appended to the old file. */
static int plan_thread(const struct series *s, int v, const GString *got,
		       struct fetch_thread *t)
{
	GHashTable *seen = g_hash_table_new_full(g_str_hash, g_str_equal,
						 g_free, NULL);
	GPtrArray *old = mail_array_new(), *mails = mail_array_new();
	char *vdir = series_version_dir(s, v);
	char *buf = NULL;
	size_t len = 0;
	int ret = -1;

	t->version = v;
	t->path = g_build_filename(vdir, "thread.mbox", NULL);
	t->postings = g_string_new(NULL);
	if (own_ids(s, v, seen) < 0)
		goto out;
	if (is_file(t->path)) {
		if (read_file(t->path, MAIL_MAX_FILE, &buf, &len) < 0 ||
		    mail_parse_mbox(buf, len, t->path, old) < 0)
			goto out;
		for (guint i = 0; i < old->len; i++)
			g_hash_table_add(seen, mail_key(old->pdata[i]));
	}
	if (mail_parse_mbox(got->str, got->len, t->path, mails) < 0)
		goto out;
	for (guint i = 0; i < mails->len; i++) {
		struct mail *m = mails->pdata[i];
		char *key = mail_key(m);

		if (is_posting_of(m, v))
			append_raw(t->postings, m);
		if (g_hash_table_contains(seen, key) ||
		    !is_reply_of(m, v, seen)) {
			g_free(key);
			continue;
		}
		g_hash_table_add(seen, key);
		if (!t->content) {
			t->content = g_string_new_len(buf, (gssize)len);
			if (len && buf[len - 1] != '\n')
				g_string_append_c(t->content, '\n');
			if (len && (len < 2 || buf[len - 2] != '\n'))
				g_string_append_c(t->content, '\n');
		}
		append_raw(t->content, m);
		t->replies++;
	}
	ret = 0;
out:
	g_free(buf);
	g_free(vdir);
	g_ptr_array_unref(old);
	g_ptr_array_unref(mails);
	g_hash_table_unref(seen);
	return ret;
}

/* "d:YYYYMMDD.." from the latest posted version's date, or "". */
static char *date_limit(const struct series *s, GArray *versions)
{
	for (guint i = versions->len; i-- > 0;) {
		const char *date = series_version_get(s,
			g_array_index(versions, int, i), "date");
		GDateTime *dt;
		char *d;

		if (!date || !(dt = g_mime_utils_header_decode_date(date)))
			continue;
		d = g_date_time_format(dt, " AND d:%Y%m%d..");
		g_date_time_unref(dt);
		return d;
	}
	return g_strdup("");
}

static char *search_query(const struct series *s, GArray *versions)
{
	const char *cid = series_get(s, "series.change-id");
	const char *title = series_get(s, "series.title");
	GString *q = g_string_new("(");
	char *lim = date_limit(s, versions);

	if (cid && *cid)
		g_string_append_printf(q, "nq:\"change-id: %s\"", cid);
	if (title && *title) {
		if (q->len > 1)
			g_string_append(q, " OR ");
		g_string_append(q, "s:\"");
		for (const char *c = title; *c; c++)
			if (*c != '"')
				g_string_append_c(q, *c);
		g_string_append_c(q, '"');
	}
	g_string_append_printf(q, ")%s", lim);
	g_free(lim);
	if (q->len <= 2 + strlen(")")) {
		g_string_free(q, TRUE);
		return NULL;
	}
	return g_string_free(q, FALSE);
}

static bool has_change_id(const struct mail *m, const char *cid)
{
	char *line;
	bool ok;

	if (!cid || !*cid)
		return false;
	line = g_strdup_printf("\nchange-id: %s\n", cid);
	ok = memmem(m->body, m->body_len, line, strlen(line)) != NULL ||
	     mem_starts_with(m->body, m->body_len, line + 1);
	g_free(line);
	return ok;
}

/*
 * The root (cover, else patch 1) of the newest posting above latest that
 * is this series by change-id, else by title; NULL when none.
 */
static const struct mail *newest_posting(const struct series *s,
					 GPtrArray *mails, int latest,
					 int *version)
{
	const char *cid = series_get(s, "series.change-id");
	const char *title = series_get(s, "series.title");
	const struct mail *best = NULL;
	int best_v = 0, best_rank = 0;

	for (guint i = 0; i < mails->len; i++) {
		const struct mail *m = mails->pdata[i];
		struct subject subj;
		int rank = 0;

		subject_parse(m->subject, &subj);
		if (subj.patch && !subj.reply && subj.version > latest &&
		    subj.index <= 1 && m->message_id) {
			if (has_change_id(m, cid))
				rank = 2;
			else if (title && subj.title && !strcmp(subj.title, title))
				rank = 1;
		}
		/* a cover before patch 1 of the same version */
		if (rank && (subj.version > best_v ||
			     (subj.version == best_v &&
			      (rank > best_rank ||
			       (rank == best_rank && subj.index == 0))))) {
			best = m;
			best_v = subj.version;
			best_rank = rank;
		}
		subject_release(&subj);
	}
	*version = best_v;
	return best;
}

static bool refers_to(const struct mail *m, GHashTable *ids)
{
	if (m->in_reply_to && g_hash_table_contains(ids, m->in_reply_to))
		return true;
	for (guint i = 0; m->references && i < m->references->len; i++)
		if (g_hash_table_contains(ids, m->references->pdata[i]))
			return true;
	return false;
}

/* The messages of version v in a thread: its postings, replies below. */
static void cut_version(GPtrArray *mails, const char *root, int v,
			GString *out)
{
	GHashTable *ids = g_hash_table_new(g_str_hash, g_str_equal);
	GHashTable *taken = g_hash_table_new(NULL, NULL);
	bool more = true;

	g_hash_table_add(ids, (gpointer)root);
	while (more) {
		more = false;
		for (guint i = 0; i < mails->len; i++) {
			struct mail *m = mails->pdata[i];
			struct subject subj;
			bool in;

			if (g_hash_table_contains(taken, m) || !m->message_id)
				continue;
			subject_parse(m->subject, &subj);
			in = !strcmp(m->message_id, root) ||
			     (subj.patch && !subj.reply && subj.version == v &&
			      refers_to(m, ids)) ||
			     (!(subj.patch && !subj.reply) && refers_to(m, ids));
			subject_release(&subj);
			if (!in)
				continue;
			g_hash_table_add(taken, m);
			g_hash_table_add(ids, m->message_id);
			more = true;
		}
	}
	for (guint i = 0; i < mails->len; i++)
		if (g_hash_table_contains(taken, mails->pdata[i]))
			append_raw(out, mails->pdata[i]);
	g_hash_table_unref(taken);
	g_hash_table_unref(ids);
}

static int plan_newer(struct series *s, const char *base, GArray *versions,
		      struct fetch_plan *p)
{
	int latest = versions->len ?
		g_array_index(versions, int, versions->len - 1) : 0;
	char *q = search_query(s, versions), *url;
	GString *got = g_string_new(NULL);
	GPtrArray *mails = mail_array_new();
	const struct mail *root;
	int ret, v = 0;

	if (!q) {
		ret = 0;
		goto out;
	}
	url = lore_search_url(base, q);
	ret = lore_get_mbox(url, true, got);
	g_free(url);
	if (ret)
		goto out_nothing;
	ret = mail_parse_mbox(got->str, got->len, "search results", mails);
	if (ret < 0)
		goto out;
	root = newest_posting(s, mails, latest, &v);
	if (!root)
		goto out;
	/* the whole thread of that posting (the search gave matches) */
	url = lore_thread_url(base, root->message_id);
	g_string_truncate(got, 0);
	{
		char *rid = g_strdup(root->message_id);

		g_ptr_array_set_size(mails, 0);
		ret = lore_get_mbox(url, false, got);
		if (!ret)
			ret = mail_parse_mbox(got->str, got->len, url, mails);
		if (!ret) {
			p->newer_mbox = g_string_new(NULL);
			p->newer_version = v;
			cut_version(mails, rid, v, p->newer_mbox);
		}
		g_free(rid);
	}
	g_free(url);
out_nothing:
	if (ret > 0)
		ret = 0;	/* 404: nothing found */
out:
	g_free(q);
	g_string_free(got, TRUE);
	g_ptr_array_unref(mails);
	return ret < 0 ? -1 : 0;
}

int fetch_plan(struct series *s, const char *base, struct fetch_plan *p)
{
	GArray *versions = series_versions(s);
	int ret = 0;

	p->s = s;
	for (guint i = 0; i < versions->len && !ret; i++) {
		int v = g_array_index(versions, int, i);
		char *url;
		GString *got;

		if (!posted(s, v))
			continue;
		url = lore_thread_url(base,
				      series_version_get(s, v, "message-id"));
		got = g_string_new(NULL);
		ret = lore_get_mbox(url, false, got);
		if (ret == 0) {
			struct fetch_thread *t = g_new0(struct fetch_thread, 1);

			g_ptr_array_add(p->threads, t);
			ret = plan_thread(s, v, got, t);
		} else if (ret > 0) {
			ret = 0;	/* the server does not have it */
		}
		g_string_free(got, TRUE);
		g_free(url);
	}
	if (!ret)
		ret = plan_newer(s, base, versions, p);
	g_array_unref(versions);
	return ret;
}

static GHashTable *feedback_ids(const struct series *s)
{
	GHashTable *ids = g_hash_table_new_full(g_str_hash, g_str_equal,
						g_free, NULL);
	GPtrArray *items = g_ptr_array_new_with_free_func(
		(GDestroyNotify)feedback_item_free);

	feedback_load(s, items);
	for (guint i = 0; i < items->len; i++)
		g_hash_table_add(ids, g_strdup(((struct feedback_item *)
						items->pdata[i])->id));
	g_ptr_array_unref(items);
	return ids;
}

/*
 * Ingests path (with postings, the patch mails the replies answer, in
 * front when given) and counts the records that were not there before.
 */
static int ingest_count(struct series *s, const char *path,
			const GString *postings, struct fetch_count *c)
{
	GHashTable *before = feedback_ids(s);
	GPtrArray *items = g_ptr_array_new_with_free_func(
		(GDestroyNotify)feedback_item_free);
	unsigned written, kept;
	char *tmp = NULL;
	int ret = 0;

	if (postings && postings->len) {
		char *buf = NULL;
		size_t len;
		int fd = g_file_open_tmp("kseries-ingest-XXXXXX.mbox", &tmp, NULL);
		GString *all = g_string_new_len(postings->str,
						(gssize)postings->len);

		if (fd < 0)
			ret = error_errno("cannot create a temporary file");
		else
			close(fd);
		if (!ret)
			ret = read_file(path, MAIL_MAX_FILE, &buf, &len);
		if (!ret) {
			g_string_append_len(all, buf, (gssize)len);
			ret = write_file_atomic(tmp, all->str, all->len);
		}
		g_free(buf);
		g_string_free(all, TRUE);
	}
	if (!ret)
		ret = feedback_ingest(s, tmp ? tmp : path, &written, &kept);
	if (tmp) {
		unlink(tmp);
		g_free(tmp);
	}

	if (!ret)
		ret = feedback_load(s, items);
	for (guint i = 0; !ret && i < items->len; i++) {
		const struct feedback_item *it = items->pdata[i];

		if (g_hash_table_contains(before, it->id))
			continue;
		if (!strcmp(it->kind, "trailer"))
			c->trailers++;
		else
			c->comments++;
	}
	g_ptr_array_unref(items);
	g_hash_table_unref(before);
	return ret < 0 ? -1 : 0;
}

int fetch_apply(struct fetch_plan *p, GArray *counts)
{
	for (guint i = 0; i < p->threads->len; i++) {
		struct fetch_thread *t = p->threads->pdata[i];
		struct fetch_count c = { t->version, t->replies, 0, 0 };

		if (!t->content)
			continue;
		if (write_file_atomic(t->path, t->content->str,
				      t->content->len) < 0 ||
		    ingest_count(p->s, t->path, t->postings, &c) < 0)
			return -1;
		g_array_append_val(counts, c);
	}
	return 0;
}

int fetch_ingest_version(struct series *s, int version,
			 struct fetch_count *count)
{
	char *vdir = series_version_dir(s, version);
	char *path = g_build_filename(vdir, "thread.mbox", NULL);
	int ret = 0;

	memset(count, 0, sizeof(*count));
	count->version = version;
	if (is_file(path)) {
		GPtrArray *mails = mail_array_new();

		ret = mail_read_mbox(path, mails);
		count->replies = mails->len;
		g_ptr_array_unref(mails);
		if (!ret)
			ret = ingest_count(s, path, NULL, count);
	}
	g_free(path);
	g_free(vdir);
	return ret;
}
