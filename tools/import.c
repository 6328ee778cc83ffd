// SPDX-License-Identifier: GPL-2.0-only
/*
 * import_mbox() (import.h): a posted version into the store.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <gmime/gmime.h>

#include "import.h"
#include "mail.h"
#include "posting.h"
#include "series.h"
#include "store.h"
#include "subject.h"
#include "util.h"
#include "banned.h"

/* thread.mbox is written in pieces of about this size */
#define THREAD_CHUNK (64u << 10)

/*
 * A patch or cover of the mbox (or one of the replies a replies-only
 * import names the series after): its decoded mail.
 */
struct item {
	struct mail *mail;
	struct subject subj;
	enum posting_kind kind;
};

/*
 * A reply: only where it is in the mbox, and its key. Kept in one array
 * and one string chunk, not a small allocation each: what lives to the
 * end is not scattered between what each message frees (glibc's malloc
 * slows down in such a heap as the mbox grows).
 */
struct reply {
	const char *key;	/* mail_key(), in the import's keys */
	gint64 offset;
	size_t size;
	unsigned nr;
	int version;		/* what its subject says */
	bool patch;		/* its subject has a [PATCH] tag */
};

struct out_file {
	char *rel;		/* path relative to the series directory */
	GString *data;
};

struct import {
	const struct import_opts *o;
	struct mail_reader rd;
	bool rd_open;
	GPtrArray *items;	/* struct item *: the patches and covers */
	GArray *replies;	/* struct reply, in mbox order */
	GStringChunk *keys;	/* the replies' keys */
	struct item *cover, *first, **patches;
	struct item *head;	/* the first message, when it is a reply */
	struct item *named;	/* the first reply with a [PATCH] tag */
	int version, total, npatches, nreplies;
	char *vdir_rel;		/* "vN" */
	GPtrArray *outs;	/* struct out_file *: the patch files */
	struct store_txn txn;
	bool in_txn, new_series;
};

static void item_free(struct item *it)
{
	if (!it)
		return;
	mail_free(it->mail);
	subject_release(&it->subj);
	g_free(it);
}

static void out_file_free(struct out_file *f)
{
	g_free(f->rel);
	g_string_free(f->data, TRUE);
	g_free(f);
}

static void add_out(GPtrArray *outs, char *rel, GString *data)
{
	struct out_file *f = g_new0(struct out_file, 1);

	f->rel = rel;
	f->data = data;
	g_ptr_array_add(outs, f);
}

/* "Link to v1: https://lore.kernel.org/r/<msgid>" as b4 writes it. */
static void find_links(const char *body, GHashTable *links)
{
	char **lines = g_strsplit(body, "\n", -1);

	for (char **l = lines; *l; l++) {
		const char *p = *l, *colon, *url;
		char *end;
		long v;

		while (*p == ' ' || *p == '-' || *p == '*')
			p++;
		if (g_ascii_strncasecmp(p, "Link to v", 9))
			continue;
		v = strtol(p + 9, &end, 10);
		colon = end;
		if (v < 1 || v > 9999 || *colon != ':')
			continue;
		url = colon + 1;
		while (*url == ' ')
			url++;
		if (!starts_with(url, "https://") || strpbrk(url, " \t<>\""))
			continue;
		g_hash_table_insert(links, GINT_TO_POINTER((int)v), g_strdup(url));
	}
	g_strfreev(lines);
}

/* A "change-id: …" line (b4 puts it after the diff, or in the cover). */
static char *find_change_id(const char *body)
{
	char **lines = g_strsplit(body, "\n", -1);
	char *id = NULL;

	for (char **l = lines; *l && !id; l++) {
		if (!starts_with(*l, "change-id: "))
			continue;
		id = g_strstrip(g_strdup(*l + 11));
		for (const char *c = id; *c; c++)
			if (!g_ascii_isalnum(*c) && *c != '-' && *c != '_') {
				g_free(id);
				id = NULL;
				break;
			}
	}
	g_strfreev(lines);
	return id;
}

static char *make_change_id(const char *name, const struct mail *m)
{
	GDateTime *dt = g_date_time_new_from_unix_utc(m->time ? m->time : 0);
	char *day = g_date_time_format(dt, "%Y%m%d");
	char *sum = g_compute_checksum_for_string(G_CHECKSUM_SHA1,
						  m->message_id ? m->message_id :
						  m->subject, -1);
	char *id;

	/* b4's form: YYYYMMDD-name-<12 hex> */
	sum[12] = '\0';
	id = g_strdup_printf("%s-%s-%s", day, name, sum);
	g_date_time_unref(dt);
	g_free(day);
	g_free(sum);
	return id;
}

/* The mboxrd form of one message (raw, as in its mbox), for thread.mbox. */
static void append_mbox(GString *out, const char *raw, size_t raw_len)
{
	if (!mem_starts_with(raw, raw_len, "From ")) {
		const char *p = raw, *end = raw + raw_len;

		g_string_append(out, "From mboxrd@z Thu Jan  1 00:00:00 1970\n");
		while (p < end) {
			const char *nl = memchr(p, '\n', (size_t)(end - p));
			size_t n = nl ? (size_t)(nl + 1 - p) : (size_t)(end - p);
			const char *q = p;

			while (q < p + n && *q == '>')
				q++;
			if (mem_starts_with(q, (size_t)(p + n - q), "From "))
				g_string_append_c(out, '>');
			g_string_append_len(out, p, (gssize)n);
			p += n;
		}
	} else {
		g_string_append_len(out, raw, (gssize)raw_len);
	}
	if (out->len && out->str[out->len - 1] != '\n')
		g_string_append_c(out, '\n');
	/* an empty line before the next From_ line */
	if (out->len < 2 || out->str[out->len - 2] != '\n')
		g_string_append_c(out, '\n');
}

static char *mail_key(const struct mail *m)
{
	return m->message_id ? g_strdup(m->message_id) :
	       g_compute_checksum_for_data(G_CHECKSUM_SHA1,
					   (const guchar *)m->raw, m->raw_len);
}

/*
 * Everything import may write, checked before it writes anything: the
 * series directory, its series.conf, the version directory and each
 * file are what they should be when they exist (no symlink, no
 * directory where a file goes).
 */
static int check_targets(const char *name, const char *vdir_rel,
			 GPtrArray *outs)
{
	char *sd = g_build_filename("series", name, NULL);
	char *conf = g_build_filename(sd, "series.conf", NULL);
	char *vd = g_build_filename(sd, vdir_rel, NULL);
	char *thread = g_build_filename(vd, "thread.mbox", NULL);
	int ret = 0;

	if (check_below(store_top(), sd, S_IFDIR) < 0 ||
	    check_below(store_top(), conf, S_IFREG) < 0 ||
	    check_below(store_top(), vd, S_IFDIR) < 0 ||
	    check_below(store_top(), thread, S_IFREG) < 0)
		ret = -1;
	for (guint i = 0; outs && i < outs->len && !ret; i++) {
		struct out_file *f = outs->pdata[i];
		char *path = g_build_filename(sd, f->rel, NULL);

		ret = check_below(store_top(), path, S_IFREG);
		g_free(path);
	}
	g_free(thread);
	g_free(vd);
	g_free(conf);
	g_free(sd);
	return ret;
}

/*
 * A patch or cover by its subject: its whole mail (the recipients and
 * the text too), read again, and by its text which of the two it is.
 */
static int keep_posting(struct import *im, struct item *it, struct mail **m)
{
	unsigned flags = im->rd.flags;
	struct mail *full;
	int ret;

	/* not held twice while it is read again */
	g_clear_pointer(&(*m)->raw, g_free);
	im->rd.flags = 0;
	ret = mail_reader_reread(&im->rd, *m, &full);
	im->rd.flags = flags;
	mail_free(*m);
	*m = NULL;
	if (ret < 0)
		return -1;
	g_clear_pointer(&full->raw, g_free);
	full->raw_len = 0;
	it->mail = full;
	subject_release(&it->subj);
	it->kind = posting_classify(full->subject, full->body, full->body_len,
				    &it->subj, NULL);
	return 0;
}

/* A reply the series may be named after: its headers, read again. */
static int keep_headers(struct import *im, struct item *it, struct mail *m)
{
	unsigned flags = im->rd.flags;
	struct mail *h;
	int ret;

	im->rd.flags = MAIL_NO_RECIPIENTS | MAIL_NO_BODY | MAIL_NO_RAW;
	ret = mail_reader_reread(&im->rd, m, &h);
	im->rd.flags = flags;
	mail_free(m);
	if (ret < 0)
		return -1;
	h->body = g_strdup("");
	it->mail = h;
	return 0;
}

/*
 * A reply: where it is, its key; its headers only for the first ones
 * (read again: the first read has its ids and subject only).
 */
static int keep_reply(struct import *im, struct item *it, struct mail *m,
		      bool head)
{
	char *key = mail_key(m);
	struct reply r = {
		.key = g_string_chunk_insert(im->keys, key),
		.offset = m->offset, .size = m->size, .nr = m->nr,
		.version = it->subj.version, .patch = it->subj.patch,
	};

	g_free(key);
	g_array_append_val(im->replies, r);
	if (head || (it->subj.patch && !im->named)) {
		if (head)
			im->head = it;
		if (it->subj.patch && !im->named)
			im->named = it;
		return keep_headers(im, it, m);
	}
	mail_free(m);
	item_free(it);
	return 0;
}

/* Reads and classifies the mbox a message at a time. */
static int read_items(struct import *im)
{
	struct mail *m;
	int ret;

	/*
	 * The headers say what a reply is; the recipients (costly to
	 * format) and the text are read again for the posting only.
	 */
	if (mail_reader_open(&im->rd, im->o->mbox, MAIL_ONLY_IDS) < 0)
		return -1;
	im->rd_open = true;
	while ((ret = mail_reader_next(&im->rd, &m)) > 0) {
		struct item *it = g_new0(struct item, 1);
		bool head = m->nr == 1;

		it->kind = posting_classify(m->subject, NULL, 0, &it->subj,
					    NULL);
		if (it->kind == POSTING_REPLY) {
			if (keep_reply(im, it, m, head) < 0)
				return -1;
			continue;
		}
		if (keep_posting(im, it, &m) < 0) {
			item_free(it);
			return -1;
		}
		g_ptr_array_add(im->items, it);
	}
	return ret;
}

static int two_versions(struct import *im, int other)
{
	return error("'%s' holds v%d and v%d: import one with --version",
		     im->o->mbox, im->version, other);
}

/* Which version, when --version does not say. */
static int pick_version(struct import *im)
{
	/* a reply's [PATCH vN] says it only when no patch is here */
	for (guint i = 0; i < im->items->len; i++) {
		struct item *it = im->items->pdata[i];

		if (im->version && it->subj.version != im->version)
			return two_versions(im, it->subj.version);
		im->version = it->subj.version;
	}
	for (guint i = 0; i < im->replies->len && !im->items->len; i++) {
		const struct reply *r = &g_array_index(im->replies,
						       struct reply, i);

		if (!r->patch)
			continue;
		if (im->version && r->version != im->version)
			return two_versions(im, r->version);
		im->version = r->version;
	}
	if (!im->version)
		return error("'%s': no patch mail says which version this is: use --version",
			     im->o->mbox);
	return 0;
}

/* The patch count the version's subjects agree on. */
static int count_patches(struct import *im)
{
	for (guint i = 0; i < im->items->len; i++) {
		struct item *it = im->items->pdata[i];

		if (it->subj.version != im->version)
			continue;
		if (!im->total)
			im->total = it->subj.total;
		if (it->subj.total != im->total)
			return error("'%s': v%d patches disagree on the count (%d and %d)",
				     im->o->mbox, im->version, im->total,
				     it->subj.total);
	}
	return 0;
}

static int missing_patches(struct import *im)
{
	GString *missing = g_string_new(NULL);

	for (int k = 1; k <= im->total; k++)
		if (!im->patches[k])
			g_string_append_printf(missing, " %d/%d", k, im->total);
	error("'%s': v%d is incomplete: missing%s", im->o->mbox, im->version,
	      missing->str);
	g_string_free(missing, TRUE);
	return -1;
}

/* The cover and the patches of the version, each in its place. */
static int collect_posting(struct import *im)
{
	if (count_patches(im) < 0)
		return -1;
	im->patches = g_new0(struct item *, (gsize)im->total + 1);
	for (guint i = 0; i < im->items->len; i++) {
		struct item *it = im->items->pdata[i];
		int index = posting_index(it->kind, &it->subj);

		if (it->subj.version != im->version)
			continue;
		if (it->kind == POSTING_COVER) {
			if (it->subj.index != 0 || im->cover)
				return error("'%s': unexpected mail without a diff: '%s'",
					     im->o->mbox, it->mail->subject);
			im->cover = it;
			continue;
		}
		if (index < 1 || index > im->total || im->patches[index])
			return error("'%s': duplicate or misnumbered patch '%s'",
				     im->o->mbox, it->mail->subject);
		im->patches[index] = it;
		im->npatches++;
	}
	if (im->npatches && im->npatches != im->total)
		return missing_patches(im);
	im->first = im->cover ? im->cover :
		    (im->npatches ? im->patches[1] : NULL);
	for (int k = 1; k <= im->total && im->npatches; k++)
		if (!im->patches[k]->mail->message_id)
			return error("'%s': patch '%s' has no Message-ID",
				     im->o->mbox, im->patches[k]->mail->subject);
	return 0;
}

/* NNNN-slug.patch, as git format-patch names it. */
static char *patch_file_name(int k, const char *title)
{
	char *slug = slugify(title);
	char *file = g_strdup_printf("%04d-%s", k, slug);
	char *name;

	/* git log-tree.c fmt_output_subject: 64 with ".patch" */
	if (strlen(file) > 64 - 7)
		file[64 - 7] = '\0';
	while (strlen(file) > 5 && (file[strlen(file) - 1] == '-' ||
				    file[strlen(file) - 1] == '.'))
		file[strlen(file) - 1] = '\0';
	name = g_strdup_printf("%s.patch", file);
	g_free(file);
	g_free(slug);
	return name;
}

/* The vN/ files of the posting, in memory (the posting is small). */
static void posting_files(struct import *im)
{
	im->outs = g_ptr_array_new_with_free_func((GDestroyNotify)out_file_free);
	if (im->cover) {
		GString *d = g_string_new(NULL);

		mail_format_patch(im->cover->mail, NULL, d);
		add_out(im->outs, g_build_filename(im->vdir_rel,
						   "0000-cover-letter.patch",
						   NULL), d);
	}
	for (int k = 1; k <= im->total && im->npatches; k++) {
		GString *d = g_string_new(NULL);
		char *f = patch_file_name(k, im->patches[k]->subj.title);

		mail_format_patch(im->patches[k]->mail, NULL, d);
		add_out(im->outs, g_build_filename(im->vdir_rel, f, NULL), d);
		g_free(f);
	}
}

static int flush_chunk(int fd, GString *buf, const char *name, bool all)
{
	int ret = 0;

	if (buf->len >= THREAD_CHUNK || (all && buf->len))
		ret = store_write_all(fd, buf->str, buf->len, name);
	if (buf->len >= THREAD_CHUNK || all)
		g_string_truncate(buf, 0);
	return ret;
}

/*
 * The thread.mbox there: its keys into seen, and unless fd is -1 the
 * messages copied through, a message at a time.
 */
static int copy_old_thread(struct import *im, const char *path, int fd,
			   GString *buf, GHashTable *seen)
{
	struct mail_reader rd;
	struct mail *m;
	int ret;

	if (!is_file(path))
		return 0;
	if (mail_reader_open(&rd, path, MAIL_ONLY_IDS) < 0)
		return -1;
	while ((ret = mail_reader_next(&rd, &m)) > 0) {
		char *key = mail_key(m);

		g_hash_table_add(seen, g_string_chunk_insert(im->keys, key));
		g_free(key);
		if (fd >= 0)
			append_mbox(buf, m->raw, m->raw_len);
		mail_free(m);
		if (fd >= 0 && flush_chunk(fd, buf, path, false) < 0) {
			ret = -1;
			break;
		}
	}
	mail_reader_close(&rd);
	return ret;
}

static bool wanted(const struct import *im, const struct reply *r)
{
	return !r->patch || r->version == im->version;
}

/* A reply of the version that thread.mbox does not have yet is here. */
static bool has_new_replies(const struct import *im, GHashTable *seen)
{
	for (guint i = 0; i < im->replies->len; i++) {
		const struct reply *r = &g_array_index(im->replies,
						       struct reply, i);

		if (wanted(im, r) && !g_hash_table_contains(seen, r->key))
			return true;
	}
	return false;
}

/* The replies of the version that thread.mbox does not have yet. */
static int append_replies(struct import *im, int fd, GString *buf,
			  GHashTable *seen, const char *path)
{
	for (guint i = 0; i < im->replies->len; i++) {
		const struct reply *r = &g_array_index(im->replies,
						       struct reply, i);
		char *raw;

		if (!wanted(im, r) || g_hash_table_contains(seen, r->key))
			continue;
		if (mail_reader_raw(&im->rd, r->offset, r->size, r->nr, &raw) < 0)
			return -1;
		g_hash_table_add(seen, (gpointer)r->key);
		append_mbox(buf, raw, r->size);
		g_free(raw);
		im->nreplies++;
		if (flush_chunk(fd, buf, path, false) < 0)
			return -1;
	}
	return 0;
}

/*
 * thread.mbox: the replies, old ones kept, new ones appended, written as
 * they are read into the transaction; not written when none is new (a
 * re-import touches nothing).
 */
static int write_thread(struct import *im)
{
	char *rel = g_build_filename(im->vdir_rel, "thread.mbox", NULL);
	char *path = g_build_filename(im->txn.sdir, rel, NULL);
	GHashTable *seen = g_hash_table_new(g_str_hash, g_str_equal);
	GString *buf = g_string_new(NULL);
	int fd, ret = -1;

	if (copy_old_thread(im, path, -1, NULL, seen) < 0)
		goto out;
	if (!has_new_replies(im, seen)) {
		ret = 0;
		goto out;
	}
	fd = store_txn_create(&im->txn, rel);
	if (fd < 0)
		goto out;
	if (copy_old_thread(im, path, fd, buf, seen) < 0 ||
	    append_replies(im, fd, buf, seen, path) < 0 ||
	    flush_chunk(fd, buf, path, true) < 0) {
		close(fd);
		goto out;
	}
	if (close(fd) < 0) {
		error_errno("cannot write '%s'", path);
		goto out;
	}
	ret = 0;
out:
	g_string_free(buf, TRUE);
	g_hash_table_unref(seen);
	g_free(path);
	g_free(rel);
	return ret;
}

/* Posted patches must not silently replace different ones. */
static int drop_unchanged(struct import *im)
{
	for (guint i = 0; i < im->outs->len; i++) {
		struct out_file *f = im->outs->pdata[i];
		char *path = g_build_filename(im->txn.sdir, f->rel, NULL);
		char *old;
		size_t len;
		bool same;

		if (!is_file(path)) {
			g_free(path);
			continue;
		}
		if (read_file(path, MAIL_MAX_FILE, &old, &len) < 0) {
			g_free(path);
			return -1;
		}
		same = len == f->data->len && !memcmp(old, f->data->str, len);
		g_free(old);
		if (!same) {
			error("'%s' exists with other content: v%d was imported from another mail",
			      path, im->version);
			g_free(path);
			return -1;
		}
		g_free(path);
		g_ptr_array_remove_index(im->outs, i--);
	}
	return 0;
}

static void conf(struct import *im, const char *key, const char *value)
{
	/* a header the mail lacks: nothing to record */
	if (value)
		store_txn_conf(&im->txn, key, value, false);
}

static void conf_v(struct import *im, int v, const char *key,
		   const char *value)
{
	if (value)
		store_txn_version_conf(&im->txn, v, key, value);
}

static void conf_addresses(struct import *im, const char *key,
			   const char *list)
{
	InternetAddressList *l = internet_address_list_parse(NULL, list);

	for (int i = 0; l && i < internet_address_list_length(l); i++) {
		char *a = internet_address_to_string(
			internet_address_list_get_address(l, i), NULL, FALSE);

		if (a)
			store_txn_conf(&im->txn, key, a, true);
		g_free(a);
	}
	if (l)
		g_object_unref(l);
}

/* A new series: what it is, from the first mail that tells. */
static void conf_series(struct import *im, const struct item *it,
			const char *cid)
{
	const char *prefix = it->subj.prefix;

	conf(im, "series.title", it->subj.title);
	conf(im, "series.change-id", cid);
	conf(im, "series.base", im->o->base);
	conf(im, "series.prefix", prefix && *prefix ? prefix : "PATCH");
}

/* series.conf of the posted version (its cover, else its first patch). */
static void conf_posting(struct import *im)
{
	const struct mail *m = im->first->mail;
	char *cid = find_change_id(m->body);

	if (im->new_series) {
		if (!cid)
			cid = make_change_id(im->o->name, m);
		conf_series(im, im->first, cid);
		conf_addresses(im, "series.to", m->to);
		conf_addresses(im, "series.cc", m->cc);
	}
	g_free(cid);
	conf_v(im, im->version, "message-id", m->message_id);
	if (m->date)
		conf_v(im, im->version, "date", m->date);
	conf_v(im, im->version, "author", m->from);
	conf_v(im, im->version, "origin", "posted");
	if (m->reconstructed)
		conf_v(im, im->version, "reconstructed", m->reconstructed);
}

/*
 * Replies only: the version was posted, but is not here. The series is
 * named after the first mail with a [PATCH] tag (a patch of another
 * version, or a reply), else after the first mail.
 */
static void conf_replies_only(struct import *im)
{
	const struct item *r = im->named;
	char *cid;

	if (im->items->len) {
		const struct item *p = im->items->pdata[0];

		if (!r || p->mail->nr < r->mail->nr)
			r = p;
	}
	if (!r)
		r = im->head;
	cid = make_change_id(im->o->name, r->mail);
	conf_series(im, r, cid);
	g_free(cid);
	conf_v(im, im->version, "origin", "replies-only");
	if (r->mail->in_reply_to)
		conf_v(im, im->version, "in-reply-to", r->mail->in_reply_to);
}

/* "Link to vN:" lines of the posting: where the earlier versions are. */
static void conf_links(struct import *im)
{
	GHashTable *links = g_hash_table_new_full(NULL, NULL, NULL, g_free);
	GHashTableIter it;
	gpointer k, v;

	find_links(im->first->mail->body, links);
	g_hash_table_iter_init(&it, links);
	while (g_hash_table_iter_next(&it, &k, &v)) {
		int lv = GPOINTER_TO_INT(k);
		const char *url = v;
		const char *slash = strrchr(url, '/');

		if (lv >= im->version)
			continue;
		conf_v(im, lv, "link", url);
		if (slash && slash[1] && safe_component(slash + 1))
			conf_v(im, lv, "message-id", slash + 1);
		conf_v(im, lv, "origin", "linked");
	}
	g_hash_table_unref(links);
}

/* Under the lock: the files, thread.mbox and series.conf, committed. */
static int write_store(struct import *im)
{
	/* refused before the lock too: a refused import leaves no trace */
	if (check_targets(im->o->name, im->vdir_rel, NULL) < 0 ||
	    store_txn_begin(&im->txn, im->o->name, "import") < 0)
		return -1;
	im->in_txn = true;
	if (check_targets(im->o->name, im->vdir_rel, NULL) < 0)
		return -1;
	/* versions we write may be there before the posted ones */
	im->new_series = !store_txn_has_conf(&im->txn);
	if (write_thread(im) < 0 || drop_unchanged(im) < 0)
		return -1;
	if (im->first)
		conf_posting(im);
	else if (im->new_series)
		conf_replies_only(im);
	if (im->first)
		conf_links(im);
	if (check_targets(im->o->name, im->vdir_rel, im->outs) < 0)
		return -1;
	for (guint i = 0; i < im->outs->len; i++) {
		struct out_file *f = im->outs->pdata[i];

		if (store_txn_write(&im->txn, f->rel, f->data->str,
				    f->data->len) < 0)
			return -1;
	}
	return store_txn_commit(&im->txn);
}

static void import_release(struct import *im)
{
	if (im->in_txn)
		store_txn_abort(&im->txn);
	if (im->rd_open)
		mail_reader_close(&im->rd);
	if (im->outs)
		g_ptr_array_unref(im->outs);
	if (im->items)
		g_ptr_array_unref(im->items);
	if (im->replies)
		g_array_unref(im->replies);
	if (im->keys)
		g_string_chunk_free(im->keys);
	item_free(im->head);
	if (im->named != im->head)
		item_free(im->named);
	g_free(im->patches);
	g_free(im->vdir_rel);
}

int import_mbox(const struct import_opts *o, struct import_result *res)
{
	struct import im = { .o = o, .version = o->version };
	int ret = -1;

	memset(res, 0, sizeof(*res));
	im.items = g_ptr_array_new_with_free_func((GDestroyNotify)item_free);
	im.replies = g_array_new(FALSE, FALSE, sizeof(struct reply));
	im.keys = g_string_chunk_new(64u << 10);
	if (read_items(&im) < 0 || (!im.version && pick_version(&im) < 0) ||
	    collect_posting(&im) < 0)
		goto out;
	im.vdir_rel = g_strdup_printf("v%d", im.version);
	posting_files(&im);
	if (write_store(&im) < 0)
		goto out;
	res->version = im.version;
	res->cover = im.cover != NULL;
	res->npatches = im.npatches;
	res->nreplies = im.nreplies;
	ret = 0;
out:
	import_release(&im);
	return ret;
}
