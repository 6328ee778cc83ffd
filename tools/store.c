// SPDX-License-Identifier: GPL-2.0-only
/*
 * The store transaction (store.h): the lock, a staging directory, the
 * renames into place.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "series.h"
#include "store.h"
#include "util.h"
#include "banned.h"

/*
 * Up to this many staged files are synced one by one (with their
 * directories); more at once by one syncfs(), as util.h's write batch.
 */
#define STORE_FSYNC_MAX 16

/* Every kind of staging directory a killed run may have left. */
static const char *const stage_kinds[] = { "import", "ingest" };

struct conf_kv {
	int version;		/* version.N.KEY, or 0: KEY */
	char *key;
	char *value;
	bool add;
};

static void kv_clear(gpointer p)
{
	struct conf_kv *kv = p;

	g_free(kv->key);
	g_free(kv->value);
}

static bool is_stage_name(const char *n)
{
	for (size_t i = 0; i < G_N_ELEMENTS(stage_kinds); i++) {
		size_t len = strlen(stage_kinds[i]);

		if (n[0] == '.' && !strncmp(n + 1, stage_kinds[i], len) &&
		    n[len + 1] == '-')
			return true;
	}
	return false;
}

/* What a transaction killed half-way left behind: its staging. */
static bool stale_entry(const char *dir, const char *name, void *data)
{
	(void)dir;
	(void)data;
	return is_stage_name(name);
}

static void remove_stale(const char *dir)
{
	GPtrArray *names = dir_names_sorted(dir, stale_entry, NULL);

	for (guint i = 0; i < names->len; i++) {
		char *p = g_build_filename(dir, names->pdata[i], NULL);

		remove_tree(p);
		g_free(p);
	}
	g_ptr_array_unref(names);
}

static int lock_store(int top)
{
	int fd = openat(top, ".kseries.lock",
			O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0666);

	if (fd < 0 || flock(fd, LOCK_EX) < 0) {
		error_errno("cannot lock '%s/series/.kseries.lock'", store_top());
		if (fd >= 0)
			close(fd);
		return -1;
	}
	return fd;
}

int store_txn_begin(struct store_txn *t, const char *name, const char *what)
{
	char *parent;
	struct stat st;

	memset(t, 0, sizeof(*t));
	t->lock = t->top = -1;
	t->name = g_strdup(name);
	t->what = g_strdup(what);
	t->sdir = g_build_filename(store_top(), "series", name, NULL);
	t->moves = g_ptr_array_new_with_free_func(g_free);
	t->files = g_ptr_array_new_with_free_func(g_free);
	t->batches = g_hash_table_new_full(g_str_hash, g_str_equal, g_free,
					   (GDestroyNotify)write_batch_free);
	t->kvs = g_array_new(FALSE, TRUE, sizeof(struct conf_kv));
	g_array_set_clear_func(t->kvs, kv_clear);
	t->top = open_dir_below(store_top(), "series", true);
	if (t->top < 0)
		return -1;
	t->lock = lock_store(t->top);
	if (t->lock < 0)
		return -1;
	parent = g_build_filename(store_top(), "series", NULL);
	remove_stale(parent);
	remove_stale(t->sdir);
	t->exists = fstatat(t->top, name, &st, AT_SYMLINK_NOFOLLOW) == 0;
	g_free(parent);
	return 0;
}

/*
 * The staging directory, made at the first file staged: a transaction
 * that writes nothing new touches nothing (a re-ingest leaves the store
 * as it was, directory times included).
 */
static int make_stage(struct store_txn *t)
{
	char *parent, *prefix;

	if (t->stage)
		return 0;
	parent = g_build_filename(store_top(), "series", NULL);
	prefix = g_strdup_printf(".%s-", t->what);
	t->stage = mkdtemp_at(t->top, parent, prefix);
	if (t->stage)
		t->stage_path = g_build_filename(parent, t->stage, NULL);
	g_free(prefix);
	g_free(parent);
	return t->stage ? 0 : -1;
}

bool store_txn_has_conf(const struct store_txn *t)
{
	char *rel = g_build_filename(t->name, "series.conf", NULL);
	struct stat st;
	bool ret = t->exists &&
		   fstatat(t->top, rel, &st, AT_SYMLINK_NOFOLLOW) == 0;

	g_free(rel);
	return ret;
}

/* rel (a path in series/NAME) is there already. */
static bool present(const struct store_txn *t, const char *rel)
{
	char *p = g_build_filename(t->name, rel, NULL);
	struct stat st;
	bool ret = t->exists &&
		   fstatat(t->top, p, &st, AT_SYMLINK_NOFOLLOW) == 0;

	g_free(p);
	return ret;
}

/* store_top()-relative path of dir (".": the top) under series/BELOW. */
static char *below(const char *in, const char *dir)
{
	return strcmp(dir, ".") ? g_build_filename("series", in, dir, NULL) :
				  g_build_filename("series", in, NULL);
}

/*
 * The staged rel will be moved in at commit: as itself, or with the
 * first of its directories that series/NAME does not have yet.
 */
static void note_move(struct store_txn *t, const char *rel)
{
	char **parts = g_strsplit(rel, "/", -1);
	GString *p = g_string_new(NULL);

	for (char **c = parts; *c; c++) {
		if (p->len)
			g_string_append_c(p, '/');
		g_string_append(p, *c);
		if (!c[1] || !present(t, p->str))
			break;
	}
	for (guint i = 0; i < t->moves->len; i++)
		if (!strcmp(t->moves->pdata[i], p->str))
			goto out;
	g_ptr_array_add(t->moves, g_strdup(p->str));
out:
	g_string_free(p, TRUE);
	g_strfreev(parts);
}

static int stage_open(struct store_txn *t, const char *rel)
{
	char *dir, *base, *drel;
	int dfd, fd = -1;

	if (make_stage(t) < 0)
		return -1;
	dir = g_path_get_dirname(rel);
	base = g_path_get_basename(rel);
	drel = below(t->stage, dir);
	dfd = open_dir_below(store_top(), drel, true);

	if (dfd >= 0) {
		fd = openat(dfd, base,
			    O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
			    0666);
		if (fd < 0)
			error_errno("cannot create '%s/%s'", t->sdir, rel);
		close(dfd);
	}
	if (fd >= 0)
		g_ptr_array_add(t->files, g_strdup(rel));
	g_free(drel);
	g_free(base);
	g_free(dir);
	return fd;
}

int store_write_all(int fd, const char *buf, size_t len, const char *name)
{
	while (len) {
		ssize_t n = write(fd, buf, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return error_errno("cannot write '%s'", name);
		buf += n;
		len -= (size_t)n;
	}
	return 0;
}

static int stage_write(struct store_txn *t, const char *rel, const char *buf,
		       size_t len)
{
	char *display = g_build_filename(t->sdir, rel, NULL);
	int fd = stage_open(t, rel), ret = -1;

	if (fd >= 0) {
		ret = store_write_all(fd, buf, len, display);
		if (close(fd) < 0 && !ret)
			ret = error_errno("cannot write '%s'", display);
	}
	g_free(display);
	return ret;
}

static struct write_batch *batch_for(struct store_txn *t, const char *dir)
{
	struct write_batch *b = g_hash_table_lookup(t->batches, dir);
	char *rel, *display;
	int fd;

	if (b)
		return b;
	rel = below(t->name, dir);
	display = g_build_filename(store_top(), rel, NULL);
	fd = open_dir_below(store_top(), rel, false);
	if (fd >= 0) {
		b = write_batch_new(fd, display);
		g_hash_table_insert(t->batches, g_strdup(dir), b);
	}
	g_free(display);
	g_free(rel);
	return b;
}

int store_txn_write(struct store_txn *t, const char *rel, const char *buf,
		    size_t len)
{
	char *dir = g_path_get_dirname(rel), *base = g_path_get_basename(rel);
	int ret;

	if (t->exists && present(t, dir)) {
		struct write_batch *b = batch_for(t, dir);

		ret = b ? write_batch_add(b, base, buf, len) : -1;
	} else {
		ret = stage_write(t, rel, buf, len);
		if (!ret && t->exists)
			note_move(t, rel);
	}
	g_free(base);
	g_free(dir);
	return ret;
}

int store_txn_create(struct store_txn *t, const char *rel)
{
	int fd = stage_open(t, rel);

	if (fd >= 0 && t->exists)
		note_move(t, rel);
	return fd;
}

int store_txn_drop(struct store_txn *t, const char *rel)
{
	char *p = g_build_filename(t->stage_path, rel, NULL);
	char *dir = g_path_get_dirname(rel);
	int ret = 0;

	if (unlink(p) < 0)
		ret = error_errno("cannot remove '%s'", p);
	for (guint i = 0; !ret && i < t->files->len; i++)
		if (!strcmp(t->files->pdata[i], rel))
			g_ptr_array_remove_index(t->files, i--);
	/* the directories it alone made go with it */
	while (strcmp(dir, ".")) {
		char *d = g_build_filename(t->stage_path, dir, NULL);
		char *up = g_path_get_dirname(dir);
		bool gone = rmdir(d) == 0;

		g_free(d);
		g_free(dir);
		dir = up;
		if (!gone)
			break;
	}
	for (guint i = 0; i < t->moves->len; i++) {
		char *s = g_build_filename(t->stage_path, t->moves->pdata[i], NULL);

		if (access(s, F_OK) < 0)
			g_ptr_array_remove_index(t->moves, i--);
		g_free(s);
	}
	g_free(dir);
	g_free(p);
	return ret;
}

int store_txn_conf(struct store_txn *t, const char *key, const char *value,
		   bool add)
{
	struct conf_kv kv = { 0, g_strdup(key), g_strdup(value), add };

	g_array_append_val(t->kvs, kv);
	return 0;
}

int store_txn_version_conf(struct store_txn *t, int version, const char *key,
			   const char *value)
{
	struct conf_kv kv = { version, g_strdup(key), g_strdup(value), false };

	g_array_append_val(t->kvs, kv);
	return 0;
}

static int apply_conf(struct store_txn *t, struct series *s)
{
	for (guint i = 0; i < t->kvs->len; i++) {
		struct conf_kv *kv = &g_array_index(t->kvs, struct conf_kv, i);
		int ret = kv->version ?
			  series_version_set(s, kv->version, kv->key, kv->value) :
			  kv->add ? series_add(s, kv->key, kv->value) :
			  series_set(s, kv->key, kv->value);

		if (ret < 0)
			return -1;
	}
	return 0;
}

/* series.conf in the staging directory, with the queued edits. */
static int stage_conf(struct store_txn *t)
{
	struct series s = { 0 };
	int ret;

	if (stage_write(t, "series.conf", "", 0) < 0)
		return -1;
	s.name = g_strdup(t->name);
	s.dir = g_strdup(t->stage_path);
	s.conf_path = g_build_filename(t->stage_path, "series.conf", NULL);
	ret = apply_conf(t, &s);
	series_release(&s);
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

/* The staged rel into series/NAME/rel. */
static int move_staged(struct store_txn *t, const char *rel)
{
	char *dir = g_path_get_dirname(rel), *base = g_path_get_basename(rel);
	char *from = below(t->stage, dir), *to = below(t->name, dir);
	char *display = g_build_filename(t->sdir, rel, NULL);
	int ffd = open_dir_below(store_top(), from, false);
	int tfd = ffd < 0 ? -1 : open_dir_below(store_top(), to, false);
	int ret = tfd < 0 ? -1 : move_into(ffd, base, tfd, base, display);

	if (tfd >= 0)
		close(tfd);
	if (ffd >= 0)
		close(ffd);
	g_free(display);
	g_free(to);
	g_free(from);
	g_free(base);
	g_free(dir);
	return ret;
}

/* The files, new directories and batches of a series that is there. */
static int commit_into(struct store_txn *t, bool conf_staged)
{
	GHashTableIter it;
	gpointer b;

	for (guint i = 0; i < t->moves->len; i++)
		if (move_staged(t, t->moves->pdata[i]) < 0)
			return -1;
	g_hash_table_iter_init(&it, t->batches);
	while (g_hash_table_iter_next(&it, NULL, &b))
		if (write_batch_commit(b) < 0)
			return -1;
	/* series.conf last: it makes the series */
	if (conf_staged)
		return move_staged(t, "series.conf");
	if (t->kvs->len) {
		struct series s;
		int ret;

		if (series_load(t->name, &s) < 0)
			return -1;
		ret = apply_conf(t, &s);
		series_release(&s);
		return ret;
	}
	return 0;
}

static int fsync_staged(struct store_txn *t, const char *dir,
			const char *name)
{
	char *drel = below(t->stage, dir);
	int dfd = open_dir_below(store_top(), drel, false);
	int fd = dfd < 0 || !name ? dfd :
		 openat(dfd, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	int ret = fd < 0 || fsync(fd) < 0 ? -1 : 0;

	if (ret < 0)
		error_errno("cannot sync '%s/%s'", t->stage_path, name ? name : dir);
	if (fd >= 0 && fd != dfd)
		close(fd);
	if (dfd >= 0)
		close(dfd);
	g_free(drel);
	return ret;
}

/* What is staged, on disk before any of it is moved in. */
static int sync_staged(struct store_txn *t)
{
	GHashTable *dirs;
	GHashTableIter it;
	gpointer d;
	int ret = 0;

	if (t->files->len > STORE_FSYNC_MAX) {
		if (syncfs(t->top) < 0)
			return error_errno("cannot sync '%s'", t->stage_path);
		return 0;
	}
	dirs = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
	for (guint i = 0; i < t->files->len && !ret; i++) {
		const char *rel = t->files->pdata[i];
		char *dir = g_path_get_dirname(rel), *base = g_path_get_basename(rel);

		ret = fsync_staged(t, dir, base);
		/* each directory up to the staging directory's own */
		while (strcmp(dir, ".")) {
			char *up = g_path_get_dirname(dir);

			g_hash_table_add(dirs, dir);
			dir = up;
		}
		g_hash_table_add(dirs, dir);
		g_free(base);
	}
	g_hash_table_iter_init(&it, dirs);
	while (!ret && g_hash_table_iter_next(&it, &d, NULL))
		ret = fsync_staged(t, d, NULL);
	g_hash_table_unref(dirs);
	return ret;
}

int store_txn_commit(struct store_txn *t)
{
	bool conf_staged = !t->exists || (!store_txn_has_conf(t) &&
					  t->kvs->len);
	int ret;

	if (conf_staged && stage_conf(t) < 0)
		return -1;
	if (sync_staged(t) < 0)
		return -1;
	if (!t->exists) {
		ret = move_into(t->top, t->stage, t->top, t->name, t->sdir);
		if (!ret)
			g_clear_pointer(&t->stage_path, g_free);
	} else {
		ret = commit_into(t, conf_staged);
	}
	if (!ret)
		store_txn_abort(t);
	return ret;
}

void store_txn_abort(struct store_txn *t)
{
	if (t->stage_path)
		remove_tree(t->stage_path);
	if (t->batches)
		g_hash_table_unref(t->batches);
	if (t->kvs)
		g_array_unref(t->kvs);
	if (t->moves)
		g_ptr_array_unref(t->moves);
	if (t->files)
		g_ptr_array_unref(t->files);
	if (t->lock >= 0)
		close(t->lock);
	if (t->top >= 0)
		close(t->top);
	g_free(t->stage_path);
	g_free(t->stage);
	g_free(t->sdir);
	g_free(t->what);
	g_free(t->name);
	memset(t, 0, sizeof(*t));
	t->lock = t->top = -1;
}
