// SPDX-License-Identifier: GPL-2.0-only
/*
 * kseries import SERIES MBOX [--version N] [--base REV]
 *
 * Takes a posted version of a series from an mbox (as b4 mbox or lore
 * give it): its cover letter and patches become the vN/ patch files, the rest of
 * the thread vN/thread.mbox, and series.conf records where and when it
 * was posted. Everything is checked before anything is written; a new
 * series or version appears by one rename, so an interrupted import
 * leaves nothing half-made, and importing the same mbox again changes
 * nothing.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>
#include <gmime/gmime.h>

#include "builtin.h"
#include "mail.h"
#include "parse-options.h"
#include "series.h"
#include "subject.h"
#include "util.h"
#include "workbench.h"
#include "banned.h"

static const char import_usage[] =
	"kseries import SERIES MBOX [--version N] [--base REV]";

enum kind { K_REPLY, K_COVER, K_PATCH };

struct item {
	struct mail *mail;	/* borrowed from the mails array */
	struct subject subj;
	enum kind kind;
};

/* A unified diff starts somewhere in the body. */
static bool body_has_diff(const char *b, size_t len)
{
	const char *p = b, *end = b + len;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *next = nl ? nl + 1 : end;

		if (mem_starts_with(p, (size_t)(end - p), "diff --git "))
			return true;
		if (mem_starts_with(p, (size_t)(end - p), "--- ") &&
		    mem_starts_with(next, (size_t)(end - next), "+++ ")) {
			const char *nl2 = memchr(next, '\n', (size_t)(end - next));

			if (nl2 && mem_starts_with(nl2 + 1,
						   (size_t)(end - nl2 - 1), "@@ "))
				return true;
		}
		p = next;
	}
	return false;
}

struct out_file {
	char *rel;		/* path relative to the series directory */
	GString *data;
};

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

/* The mboxrd form of one message, for thread.mbox. */
static void append_mbox(GString *out, const struct mail *m)
{
	if (!mem_starts_with(m->raw, m->raw_len, "From ")) {
		const char *p = m->raw, *end = m->raw + m->raw_len;

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
		g_string_append_len(out, m->raw, (gssize)m->raw_len);
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
 * Writes the files into rel (relative to the top of the store) through
 * the store's directory descriptors: no symlink is followed (util.h).
 */
static int write_files(const char *rel, GPtrArray *outs)
{
	for (guint i = 0; i < outs->len; i++) {
		struct out_file *f = outs->pdata[i];
		char *path = g_build_filename(rel, f->rel, NULL);
		int ret = write_file_below(store_top(), path, f->data->str,
					   f->data->len);

		g_free(path);
		if (ret < 0)
			return -1;
	}
	return 0;
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

/* renameat() of from in fromfd to to in tofd, then a sync of tofd. */
static int move_into(int fromfd, const char *from, int tofd, const char *to,
		     const char *display)
{
	if (renameat(fromfd, from, tofd, to) < 0)
		return error_errno("cannot create '%s'", display);
	if (fsync(tofd) < 0)
		return error_errno("cannot sync the directory of '%s'", display);
	return 0;
}

struct conf_kv {
	const char *key;
	char *value;
	bool add;
};

static int write_conf(struct series *s, GArray *kvs)
{
	for (guint i = 0; i < kvs->len; i++) {
		struct conf_kv *kv = &g_array_index(kvs, struct conf_kv, i);
		int ret = kv->add ? series_add(s, kv->key, kv->value) :
				    series_set(s, kv->key, kv->value);

		if (ret < 0)
			return -1;
	}
	return 0;
}

static void kv_clear(gpointer p)
{
	struct conf_kv *kv = p;

	g_free((char *)kv->key);
	g_free(kv->value);
}

static void kv(GArray *kvs, bool add, char *key, const char *value)
{
	struct conf_kv c = { key, g_strdup(value), add };

	if (!value) {
		/* a header the mail lacks: nothing to record */
		g_free(key);
		return;
	}

	g_array_append_val(kvs, c);
}

static void add_addresses(GArray *kvs, const char *key, const char *list)
{
	InternetAddressList *l = internet_address_list_parse(NULL, list);

	for (int i = 0; l && i < internet_address_list_length(l); i++) {
		char *a = internet_address_to_string(
			internet_address_list_get_address(l, i), NULL, FALSE);

		kv(kvs, true, g_strdup(key), a);
		g_free(a);
	}
	if (l)
		g_object_unref(l);
}

/* What an import killed half-way left behind: its staging directories. */
static void remove_stale(const char *dir)
{
	GDir *d = g_dir_open(dir, 0, NULL);
	const char *n;

	while (d && (n = g_dir_read_name(d))) {
		char *p;

		if (!starts_with(n, ".import-"))
			continue;
		p = g_build_filename(dir, n, NULL);
		remove_tree(p);
		g_free(p);
	}
	if (d)
		g_dir_close(d);
}

static int lock_store(void)
{
	int dir = open_dir_below(store_top(), "series", true);
	int fd;

	if (dir < 0)
		return -1;
	fd = openat(dir, ".kseries.lock", O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC,
		    0666);
	if (fd < 0 || flock(fd, LOCK_EX) < 0) {
		error_errno("cannot lock '%s/series/.kseries.lock'", store_top());
		if (fd >= 0)
			close(fd);
		fd = -1;
	}
	close(dir);
	return fd;
}

/*
 * A new series: series.conf is written in a staging directory, then the
 * staging directory becomes series/NAME by one rename, or, when
 * series/NAME holds versions already (ours, unposted), the files go in
 * first and series.conf is moved in last: it makes the series. *tmp
 * gets the staging directory for the caller to remove.
 */
static int write_new_series(const char *name, const char *sdir, GArray *kvs,
			    GPtrArray *outs, char **tmp)
{
	char *parent = g_build_filename(store_top(), "series", NULL);
	char *staged = NULL, *rel = NULL, *conf = NULL;
	struct series s = { 0 };
	int pfd, tfd = -1, sfd = -1, ret = -1;

	pfd = open_dir_below(store_top(), "series", false);
	if (pfd < 0)
		goto out;
	staged = mkdtemp_at(pfd, parent, ".import-");
	if (!staged)
		goto out;
	*tmp = g_build_filename(parent, staged, NULL);
	rel = g_build_filename("series", staged, NULL);
	conf = g_build_filename(rel, "series.conf", NULL);
	s.name = g_strdup(name);
	s.dir = g_strdup(*tmp);
	s.conf_path = g_build_filename(*tmp, "series.conf", NULL);
	if (write_file_below(store_top(), conf, "", 0) < 0 ||
	    write_conf(&s, kvs) < 0)
		goto out;
	if (!is_dir(sdir)) {
		if (write_files(rel, outs) < 0 ||
		    move_into(pfd, staged, pfd, name, sdir) < 0)
			goto out;
		g_free(*tmp);
		*tmp = NULL;
	} else {
		char *sub = g_build_filename("series", name, NULL);
		char *dest = g_build_filename(sdir, "series.conf", NULL);

		/* the files first: series.conf makes the series */
		sfd = open_dir_below(store_top(), sub, false);
		tfd = open_dir_below(store_top(), rel, false);
		if (sfd >= 0 && tfd >= 0 && write_files(sub, outs) == 0 &&
		    move_into(tfd, "series.conf", sfd, "series.conf", dest) == 0)
			ret = 0;
		g_free(dest);
		g_free(sub);
		goto out;
	}
	ret = 0;
out:
	if (tfd >= 0)
		close(tfd);
	if (sfd >= 0)
		close(sfd);
	if (pfd >= 0)
		close(pfd);
	series_release(&s);
	g_free(conf);
	g_free(rel);
	g_free(staged);
	g_free(parent);
	return ret;
}

/*
 * A version of a series that exists: a new version directory appears
 * by one rename from a staging directory (*tmp, for the caller to
 * remove); files of a version that is there are written in place; then
 * series.conf. s is loaded here.
 */
static int write_version(const char *name, const char *sdir,
			 const char *vdir_rel, bool new_version, GArray *kvs,
			 GPtrArray *outs, struct series *s, char **tmp)
{
	char *sub = g_build_filename("series", name, NULL);
	char *staged = NULL, *rel = NULL;
	int sfd = -1, tfd = -1, ret = -1;

	if (series_load(name, s) < 0)
		goto out;
	if (new_version && outs->len) {
		char *vdir = g_build_filename(sdir, vdir_rel, NULL);

		sfd = open_dir_below(store_top(), sub, false);
		staged = sfd < 0 ? NULL : mkdtemp_at(sfd, sdir, ".import-");
		if (staged) {
			*tmp = g_build_filename(sdir, staged, NULL);
			rel = g_build_filename(sub, staged, NULL);
			tfd = write_files(rel, outs) < 0 ? -1 :
			      open_dir_below(store_top(), rel, false);
		}
		if (tfd < 0 ||
		    move_into(tfd, vdir_rel, sfd, vdir_rel, vdir) < 0) {
			g_free(vdir);
			goto out;
		}
		g_free(vdir);
	} else if (write_files(sub, outs) < 0) {
		goto out;
	}
	ret = write_conf(s, kvs);
out:
	if (tfd >= 0)
		close(tfd);
	if (sfd >= 0)
		close(sfd);
	g_free(rel);
	g_free(staged);
	g_free(sub);
	return ret;
}

/*
 * Reads and classifies the mbox a message at a time, keeping of each what
 * the import writes: a reply's raw message (for thread.mbox), a patch's
 * or cover's decoded mail; never the whole mbox.
 */
static int read_items(const char *mbox, GPtrArray *mails, GPtrArray *items)
{
	struct mail_reader rd;
	struct mail *m;
	int ret;

	/* the recipients (costly to format) are read for the posting only */
	if (mail_reader_open(&rd, mbox, MAIL_NO_RECIPIENTS) < 0)
		return -1;
	while ((ret = mail_reader_next(&rd, &m)) > 0) {
		struct item *it = g_new0(struct item, 1);

		subject_parse(m->subject, &it->subj);
		if (it->subj.patch && !it->subj.reply) {
			struct mail *full;

			it->kind = body_has_diff(m->body, m->body_len) ?
				   K_PATCH : K_COVER;
			/* not held twice while it is read again */
			g_clear_pointer(&m->body, g_free);
			g_clear_pointer(&m->raw, g_free);
			rd.flags = 0;
			ret = mail_reader_reread(&rd, m, &full);
			rd.flags = MAIL_NO_RECIPIENTS;
			mail_free(m);
			if (ret < 0) {
				subject_release(&it->subj);
				g_free(it);
				break;
			}
			m = full;
		}
		it->mail = m;
		if (it->kind == K_REPLY) {
			g_clear_pointer(&m->body, g_free);
			m->body = g_strdup("");
			m->body_len = 0;
		} else {
			g_clear_pointer(&m->raw, g_free);
			m->raw_len = 0;
		}
		g_ptr_array_add(mails, m);
		g_ptr_array_add(items, it);
	}
	mail_reader_close(&rd);
	return ret;
}

int cmd_import(int argc, const char **argv)
{
	const char *name = NULL, *mbox = NULL, *base = WORKBENCH_DEFAULT_BASE;
	GPtrArray *mails = NULL, *items = NULL, *outs = NULL;
	GHashTable *links = NULL;
	GArray *kvs = NULL;
	struct item *cover = NULL, *first = NULL;
	struct item **patches = NULL;
	struct series s = { 0 };
	char *sdir = NULL, *vdir_rel = NULL, *tmp = NULL;
	int version = 0, total = 0, npatches = 0, ret = EXIT_FATAL;
	int lock = -1, nreplies = 0;
	bool new_series, new_version;
	const char *version_arg = NULL;
	const struct option options[] = {
		OPT_STRING_F('v', "version", &version_arg, "N",
			     "import vN of the mbox (default: the one it holds)",
			     PARSE_OPT_NOCONFIG),
		OPT_STRING(0, "base", &base, "REV",
			   "the base of a new series (default: the base tree's)"),
		OPT_END(),
	};

	if (parse_options(argc, argv, "import", options, import_usage, 0) != 2)
		usage(import_usage);
	name = argv[0];
	mbox = argv[1];
	if (version_arg) {
		char *end;

		version = (int)strtol(version_arg, &end, 10);
		if (*end || version < 1 || version > 9999)
			die("bad version '%s'", version_arg);
	}
	if (!safe_component(name) || name[0] == '.')
		die("bad series name '%s'", name);
	if (!safe_component(base) && !strchr(base, '/'))
		die("bad base '%s'", base);

	mails = mail_array_new();
	items = g_ptr_array_new();
	if (read_items(mbox, mails, items) < 0)
		goto out;
	/* which version */
	if (!version) {
		bool posted = false;

		/* a reply's [PATCH vN] says it only when no patch is here */
		for (guint j = 0; j < items->len && !posted; j++)
			if (((struct item *)items->pdata[j])->kind != K_REPLY)
				posted = true;
		for (guint i = 0; i < items->len; i++) {
			struct item *it = items->pdata[i];

			if (it->kind == K_REPLY && (!it->subj.patch || posted))
				continue;
			if (version && it->subj.version != version) {
				error("'%s' holds v%d and v%d: import one with --version",
				      mbox, version, it->subj.version);
				goto out;
			}
			version = it->subj.version;
		}
	}
	if (!version) {
		error("'%s': no patch mail says which version this is: use --version",
		      mbox);
		goto out;
	}
	/* the patches and cover of that version */
	for (guint i = 0; i < items->len; i++) {
		struct item *it = items->pdata[i];

		if (it->kind == K_REPLY || it->subj.version != version)
			continue;
		if (!total)
			total = it->subj.total;
		if (it->subj.total != total) {
			error("'%s': v%d patches disagree on the count (%d and %d)",
			      mbox, version, total, it->subj.total);
			goto out;
		}
	}
	patches = g_new0(struct item *, (gsize)total + 1);
	for (guint i = 0; i < items->len; i++) {
		struct item *it = items->pdata[i];

		if (it->kind == K_REPLY || it->subj.version != version)
			continue;
		if (it->kind == K_COVER) {
			if (it->subj.index != 0 || cover) {
				error("'%s': unexpected mail without a diff: '%s'",
				      mbox, it->mail->subject);
				goto out;
			}
			cover = it;
			continue;
		}
		if (it->subj.index == 0 && total == 1)
			it->subj.index = 1;
		if (it->subj.index < 1 || patches[it->subj.index]) {
			error("'%s': duplicate or misnumbered patch '%s'", mbox,
			      it->mail->subject);
			goto out;
		}
		patches[it->subj.index] = it;
		npatches++;
	}
	if (npatches && npatches != total) {
		GString *missing = g_string_new(NULL);

		for (int k = 1; k <= total; k++)
			if (!patches[k])
				g_string_append_printf(missing, " %d/%d", k, total);
		error("'%s': v%d is incomplete: missing%s", mbox, version,
		      missing->str);
		g_string_free(missing, TRUE);
		goto out;
	}
	first = cover ? cover : (npatches ? patches[1] : NULL);
	for (int k = 1; k <= total && npatches; k++)
		if (!patches[k]->mail->message_id) {
			error("'%s': patch '%s' has no Message-ID", mbox,
			      patches[k]->mail->subject);
			goto out;
		}

	/* what to write */
	outs = g_ptr_array_new_with_free_func((GDestroyNotify)out_file_free);
	vdir_rel = g_strdup_printf("v%d", version);
	if (cover) {
		GString *d = g_string_new(NULL);

		mail_format_patch(cover->mail, NULL, d);
		add_out(outs, g_build_filename(vdir_rel, "0000-cover-letter.patch",
					       NULL), d);
	}
	for (int k = 1; k <= total && npatches; k++) {
		GString *d = g_string_new(NULL);
		char *slug = slugify(patches[k]->subj.title);
		char *file = g_strdup_printf("%04d-%s", k, slug);

		/* git log-tree.c fmt_output_subject: 64 with ".patch" */
		if (strlen(file) > 64 - 7)
			file[64 - 7] = '\0';
		while (strlen(file) > 5 && (file[strlen(file) - 1] == '-' ||
					    file[strlen(file) - 1] == '.'))
			file[strlen(file) - 1] = '\0';
		mail_format_patch(patches[k]->mail, NULL, d);
		{
			char *f = g_strdup_printf("%s.patch", file);

			add_out(outs, g_build_filename(vdir_rel, f, NULL), d);
			g_free(f);
		}
		g_free(file);
		g_free(slug);
	}

	/* refused before the lock too: a refused import leaves no trace */
	if (check_targets(name, vdir_rel, NULL) < 0)
		goto out;
	lock = lock_store();
	if (lock < 0 || check_targets(name, vdir_rel, NULL) < 0)
		goto out;
	sdir = g_build_filename(store_top(), "series", name, NULL);
	{
		char *parent = g_build_filename(store_top(), "series", NULL);

		remove_stale(parent);
		remove_stale(sdir);
		g_free(parent);
	}
	{
		char *conf = g_build_filename(sdir, "series.conf", NULL);

		/* versions we write may be there before the posted ones */
		new_series = !is_file(conf);
		g_free(conf);
	}
	{
		char *vd = g_build_filename(sdir, vdir_rel, NULL);

		new_version = !is_dir(vd);
		g_free(vd);
	}

	/* thread.mbox: the replies, old ones kept, new ones appended */
	{
		char *path = g_build_filename(sdir, vdir_rel, "thread.mbox", NULL);
		GHashTable *seen = g_hash_table_new_full(g_str_hash, g_str_equal,
							 g_free, NULL);
		GString *mb = g_string_new(NULL);
		bool added = false;

		if (is_file(path)) {
			GPtrArray *old = mail_array_new();

			if (mail_read_mbox(path, old) < 0) {
				g_ptr_array_unref(old);
				g_hash_table_unref(seen);
				g_string_free(mb, TRUE);
				g_free(path);
				goto out;
			}
			for (guint i = 0; i < old->len; i++) {
				g_hash_table_add(seen, mail_key(old->pdata[i]));
				append_mbox(mb, old->pdata[i]);
			}
			g_ptr_array_unref(old);
		}
		for (guint i = 0; i < items->len; i++) {
			struct item *it = items->pdata[i];
			char *key;

			if (it->kind != K_REPLY)
				continue;
			if (it->subj.patch && it->subj.version != version)
				continue;
			key = mail_key(it->mail);
			if (g_hash_table_contains(seen, key)) {
				g_free(key);
				continue;
			}
			g_hash_table_add(seen, key);
			append_mbox(mb, it->mail);
			added = true;
			nreplies++;
		}
		g_hash_table_unref(seen);
		if (added)
			add_out(outs, g_build_filename(vdir_rel, "thread.mbox", NULL),
				mb);
		else
			g_string_free(mb, TRUE);
		g_free(path);
	}

	/* posted patches must not silently replace different ones */
	for (guint i = 0; i < outs->len; i++) {
		struct out_file *f = outs->pdata[i];
		char *path = g_build_filename(sdir, f->rel, NULL);
		char *old;
		size_t len;

		if (!g_str_has_suffix(f->rel, ".patch") || !is_file(path)) {
			g_free(path);
			continue;
		}
		if (read_file(path, MAIL_MAX_FILE, &old, &len) < 0) {
			g_free(path);
			goto out;
		}
		if (len != f->data->len || memcmp(old, f->data->str, len)) {
			error("'%s' exists with other content: v%d was imported from another mail",
			      path, version);
			g_free(old);
			g_free(path);
			goto out;
		}
		g_free(old);
		g_free(path);
		g_ptr_array_remove_index(outs, i--);
	}

	/* series.conf */
	links = g_hash_table_new_full(NULL, NULL, NULL, g_free);
	kvs = g_array_new(FALSE, TRUE, sizeof(struct conf_kv));
	g_array_set_clear_func(kvs, kv_clear);
	if (first) {
		char *cid = find_change_id(first->mail->body);
		char *vkey = g_strdup_printf("version.%d.", version);

		if (new_series) {
			if (!cid)
				cid = make_change_id(name, first->mail);
			kv(kvs, false, g_strdup("series.title"), first->subj.title);
			kv(kvs, false, g_strdup("series.change-id"), cid);
			kv(kvs, false, g_strdup("series.base"), base);
			kv(kvs, false, g_strdup("series.prefix"),
			   first->subj.prefix && *first->subj.prefix ?
			   first->subj.prefix : "PATCH");
			add_addresses(kvs, "series.to", first->mail->to);
			add_addresses(kvs, "series.cc", first->mail->cc);
		}
		g_free(cid);
		kv(kvs, false, g_strconcat(vkey, "message-id", NULL),
		   first->mail->message_id);
		if (first->mail->date)
			kv(kvs, false, g_strconcat(vkey, "date", NULL),
			   first->mail->date);
		kv(kvs, false, g_strconcat(vkey, "author", NULL), first->mail->from);
		kv(kvs, false, g_strconcat(vkey, "origin", NULL), "posted");
		if (first->mail->reconstructed)
			kv(kvs, false, g_strconcat(vkey, "reconstructed", NULL),
			   first->mail->reconstructed);
		find_links(first->mail->body, links);
		g_free(vkey);
	} else if (new_series) {
		/* replies only: the version was posted, but is not here */
		struct item *r = NULL;
		char *vkey = g_strdup_printf("version.%d.", version);

		for (guint i = 0; i < items->len && !r; i++)
			if (((struct item *)items->pdata[i])->subj.patch)
				r = items->pdata[i];
		if (!r)
			r = items->pdata[0];
		kv(kvs, false, g_strdup("series.title"), r->subj.title);
		{
			char *cid = make_change_id(name, r->mail);

			kv(kvs, false, g_strdup("series.change-id"), cid);
			g_free(cid);
		}
		kv(kvs, false, g_strdup("series.base"), base);
		kv(kvs, false, g_strdup("series.prefix"),
		   r->subj.prefix && *r->subj.prefix ? r->subj.prefix : "PATCH");
		kv(kvs, false, g_strconcat(vkey, "origin", NULL), "replies-only");
		if (r->mail->in_reply_to)
			kv(kvs, false, g_strconcat(vkey, "in-reply-to", NULL),
			   r->mail->in_reply_to);
		g_free(vkey);
	}
	{
		GHashTableIter it;
		gpointer k, v;

		g_hash_table_iter_init(&it, links);
		while (g_hash_table_iter_next(&it, &k, &v)) {
			int lv = GPOINTER_TO_INT(k);
			const char *url = v;
			const char *slash = strrchr(url, '/');
			char *vkey = g_strdup_printf("version.%d.", lv);

			if (lv >= version) {
				g_free(vkey);
				continue;
			}
			kv(kvs, false, g_strconcat(vkey, "link", NULL), url);
			if (slash && slash[1] && safe_component(slash + 1))
				kv(kvs, false, g_strconcat(vkey, "message-id", NULL),
				   slash + 1);
			kv(kvs, false, g_strconcat(vkey, "origin", NULL), "linked");
			g_free(vkey);
		}
	}

	/* write: a new series or version appears by one rename */
	if (check_targets(name, vdir_rel, outs) < 0)
		goto out;
	if (new_series ? write_new_series(name, sdir, kvs, outs, &tmp) < 0 :
	    write_version(name, sdir, vdir_rel, new_version, kvs, outs, &s,
			  &tmp) < 0)
		goto out;
	printf("%s v%d: %s%d patch%s, %d new repl%s\n", name, version,
	       cover ? "cover, " : "", npatches, npatches == 1 ? "" : "es",
	       nreplies, nreplies == 1 ? "y" : "ies");
	ret = 0;
out:
	if (tmp) {
		remove_tree(tmp);
		g_free(tmp);
	}
	if (lock >= 0)
		close(lock);
	series_release(&s);
	if (kvs)
		g_array_unref(kvs);
	if (links)
		g_hash_table_unref(links);
	if (outs)
		g_ptr_array_unref(outs);
	if (items) {
		for (guint i = 0; i < items->len; i++) {
			struct item *it = items->pdata[i];

			subject_release(&it->subj);
			g_free(it);
		}
		g_ptr_array_unref(items);
	}
	g_free(patches);
	g_free(sdir);
	g_free(vdir_rel);
	if (mails)
		g_ptr_array_unref(mails);
	return ret;
}
