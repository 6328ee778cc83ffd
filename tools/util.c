// SPDX-License-Identifier: GPL-2.0-only
/*
 * util.c - diagnostics, whole-file I/O, atomic writes, names.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "util.h"
#include "banned.h"

/*
 * s as a diagnostic shows it: control characters (a terminal's escape
 * sequences, line breaks) and the backslash as C octal escapes, so that
 * a hostile name or value in a message can neither write to the
 * terminal nor forge a second line.
 */
static void append_shown(GString *out, const char *s)
{
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		if (*p < 0x20 || *p == 0x7f || *p == '\\')
			g_string_append_printf(out, "\\%03o", *p);
		else
			g_string_append_c(out, (char)*p);
	}
}

/* One line, written whole (workers of check -j share stderr). */
static void vreport(const char *prefix, const char *fmt, va_list ap,
		    const char *suffix)
{
	char *msg = g_strdup_vprintf(fmt, ap);
	GString *line = g_string_new("kseries: ");

	g_string_append(line, prefix);
	append_shown(line, msg);
	if (suffix) {
		g_string_append(line, ": ");
		append_shown(line, suffix);
	}
	g_string_append_c(line, '\n');
	fputs(line->str, stderr);
	g_string_free(line, TRUE);
	g_free(msg);
}

int error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vreport("error: ", fmt, ap, NULL);
	va_end(ap);
	return -1;
}

int error_errno(const char *fmt, ...)
{
	int err = errno;
	va_list ap;

	va_start(ap, fmt);
	vreport("error: ", fmt, ap, strerror(err));
	va_end(ap);
	errno = err;
	return -1;
}

void warning(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vreport("warning: ", fmt, ap, NULL);
	va_end(ap);
}

void die(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vreport("fatal: ", fmt, ap, NULL);
	va_end(ap);
	exit(EXIT_FATAL);
}

void usage(const char *text)
{
	fprintf(stderr, "usage: %s\n", text);
	exit(EXIT_USAGE);
}

int open_regular(const char *path, struct stat *st)
{
	struct stat sb;
	int fd, flags;

	/*
	 * O_NONBLOCK: opening a FIFO for reading waits for a writer, and
	 * a device may wait too; the file type is known only after open.
	 */
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	if (fd < 0)
		return error_errno("cannot open '%s'", path);
	if (!st)
		st = &sb;
	if (fstat(fd, st) < 0) {
		error_errno("cannot stat '%s'", path);
		goto err_close;
	}
	if (!S_ISREG(st->st_mode)) {
		error("'%s' is not a regular file", path);
		goto err_close;
	}
	flags = fcntl(fd, F_GETFL);
	if (flags < 0 || fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) < 0) {
		error_errno("cannot read '%s'", path);
		goto err_close;
	}
	return fd;

err_close:
	close(fd);
	return -1;
}

int read_file(const char *path, size_t max, char **bufp, size_t *lenp)
{
	struct stat st;
	char *buf;
	size_t len = 0;
	int fd;

	fd = open_regular(path, &st);
	if (fd < 0)
		return -1;
	if ((size_t)st.st_size > max) {
		error("'%s' is too large (%lld bytes, limit %zu)", path,
		      (long long)st.st_size, max);
		goto err_close;
	}
	buf = g_malloc((size_t)st.st_size + 1);
	for (;;) {
		ssize_t n;

		if (len == (size_t)st.st_size)
			break;
		n = read(fd, buf + len, (size_t)st.st_size - len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			error_errno("cannot read '%s'", path);
			g_free(buf);
			goto err_close;
		}
		if (n == 0)
			break;
		len += (size_t)n;
	}
	buf[len] = '\0';
	close(fd);
	*bufp = buf;
	*lenp = len;
	return 0;

err_close:
	close(fd);
	return -1;
}

/*
 * A write killed between creating NAME.tmp.XXXXXX and renaming it
 * (SIGKILL, power loss) leaves it behind. A live one exists for the time
 * of a write and an fsync, so one older than this is litter.
 */
#define STALE_TMP_SECONDS (10 * 60)

static bool is_tmp_name(const char *name)
{
	const char *t = g_strrstr(name, ".tmp.");

	if (!t || t == name || strlen(t + 5) != 6)
		return false;
	for (t += 5; *t; t++)
		if (!g_ascii_isalnum(*t))
			return false;
	return true;
}

/*
 * Removes the litter of killed writes in the directory dirfd (dir names
 * it), once per directory and process.
 */
static void sweep_stale_tmp(int dirfd, const char *dir)
{
	static GHashTable *swept;
	time_t now = time(NULL);
	struct dirent *de;
	struct stat st;
	char *key;
	DIR *d;
	int fd;

	if (!swept)
		swept = g_hash_table_new_full(g_str_hash, g_str_equal, g_free,
					      NULL);
	if (fstat(dirfd, &st) < 0)
		return;
	/* the name too: a removed directory's inode is reused */
	key = g_strdup_printf("%ju:%ju:%s", (uintmax_t)st.st_dev,
			      (uintmax_t)st.st_ino, dir);
	if (g_hash_table_contains(swept, key)) {
		g_free(key);
		return;
	}
	g_hash_table_add(swept, key);
	fd = openat(dirfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	d = fd < 0 ? NULL : fdopendir(fd);
	if (!d) {
		if (fd >= 0)
			close(fd);
		return;
	}
	while ((de = readdir(d))) {
		if (!is_tmp_name(de->d_name) ||
		    fstatat(dirfd, de->d_name, &st, AT_SYMLINK_NOFOLLOW) < 0 ||
		    !S_ISREG(st.st_mode) || now - st.st_mtime < STALE_TMP_SECONDS)
			continue;
		unlinkat(dirfd, de->d_name, 0);
	}
	closedir(d);
}

/* name in dir, for messages; new string. */
static char *display_path(const char *dir, const char *name)
{
	return g_build_filename(dir, name, NULL);
}

/* Why name in dirfd cannot be opened as a directory or written over. */
static int refuse(int dirfd, const char *name, const char *path, int want)
{
	struct stat st;

	if (fstatat(dirfd, name, &st, AT_SYMLINK_NOFOLLOW) < 0)
		return error_errno("cannot open '%s'", path);
	if (S_ISLNK(st.st_mode))
		return error("'%s' is a symbolic link: not writing through it",
			     path);
	return error("'%s' is not a %s", path,
		     want == S_IFDIR ? "directory" : "regular file");
}

/* Opens (creating when asked) the directory name in dirfd, no symlink. */
static int open_subdir(int dirfd, const char *name, bool create,
		       const char *path)
{
	const int flags = O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC;
	int fd = openat(dirfd, name, flags);

	if (fd < 0 && errno == ENOENT && create) {
		if (mkdirat(dirfd, name, 0777) < 0 && errno != EEXIST)
			return error_errno("cannot create directory '%s'", path);
		fd = openat(dirfd, name, flags);
	}
	if (fd >= 0)
		return fd;
	if (errno == ELOOP || errno == ENOTDIR)
		return refuse(dirfd, name, path, S_IFDIR);
	return error_errno("cannot open directory '%s'", path);
}

int open_dir_below(const char *root, const char *rel, bool create)
{
	char **parts = g_strsplit(rel ? rel : "", "/", -1);
	GString *path = g_string_new(root);
	int fd;

	fd = open(root, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		error_errno("cannot open directory '%s'", root);
	for (char **p = parts; fd >= 0 && *p; p++) {
		int sub;

		if (!**p || !strcmp(*p, "."))
			continue;
		g_string_append_printf(path, "/%s", *p);
		if (!strcmp(*p, "..")) {
			error("'%s': a store path does not go up", path->str);
			sub = -1;
		} else {
			sub = open_subdir(fd, *p, create, path->str);
		}
		close(fd);
		fd = sub;
	}
	g_strfreev(parts);
	g_string_free(path, TRUE);
	return fd;
}

int check_below(const char *root, const char *rel, int type)
{
	char **parts = g_strsplit(rel, "/", -1);
	GString *path = g_string_new(root);
	int fd, ret = 0;
	char **p;

	fd = open(root, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0) {
		ret = error_errno("cannot open directory '%s'", root);
		goto out;
	}
	for (p = parts; *p; p++) {
		bool last = !p[1];
		struct stat st;
		int sub;

		if (!**p || !strcmp(*p, "."))
			continue;
		g_string_append_printf(path, "/%s", *p);
		if (!strcmp(*p, "..")) {
			ret = error("'%s': a store path does not go up", path->str);
			break;
		}
		if (fstatat(fd, *p, &st, AT_SYMLINK_NOFOLLOW) < 0) {
			if (errno != ENOENT)
				ret = error_errno("cannot stat '%s'", path->str);
			break;	/* absent: what would be made is ours */
		}
		if (S_ISLNK(st.st_mode)) {
			ret = error("'%s' is a symbolic link: not writing through it",
				    path->str);
			break;
		}
		if (last && type == S_IFREG && !S_ISREG(st.st_mode)) {
			ret = error("'%s' is not a regular file", path->str);
			break;
		}
		if (last && type != S_IFREG && !S_ISDIR(st.st_mode)) {
			ret = error("'%s' is not a directory", path->str);
			break;
		}
		if (last)
			break;
		if (!S_ISDIR(st.st_mode)) {
			ret = error("'%s' is not a directory", path->str);
			break;
		}
		sub = openat(fd, *p, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (sub < 0) {
			ret = error_errno("cannot open directory '%s'", path->str);
			break;
		}
		close(fd);
		fd = sub;
	}
out:
	if (fd >= 0)
		close(fd);
	g_strfreev(parts);
	g_string_free(path, TRUE);
	return ret;
}

struct pending_write {
	char *name, *tmp;
};

struct write_batch {
	int dirfd;		/* owned */
	char *dir;		/* for messages */
	GArray *pending;	/* struct pending_write */
	bool no_sync;		/* write_file_replace_at() */
};

/*
 * Files written before a commit happens by itself: what a kill leaves
 * (temporary files, swept later) stays bounded.
 */
#define BATCH_MAX 4096

struct write_batch *write_batch_new(int dirfd, const char *dir)
{
	struct write_batch *b = g_new0(struct write_batch, 1);

	b->dirfd = dirfd;
	b->dir = g_strdup(dir);
	b->pending = g_array_new(FALSE, FALSE, sizeof(struct pending_write));
	sweep_stale_tmp(dirfd, dir);
	return b;
}

static void pending_drop(struct write_batch *b, struct pending_write *w,
			 bool unlink_tmp)
{
	if (unlink_tmp)
		unlinkat(b->dirfd, w->tmp, 0);
	g_free(w->name);
	g_free(w->tmp);
}

/* NAME.tmp.XXXXXX, created O_EXCL in dirfd; *tmp is new. */
static int create_tmp(int dirfd, const char *name, char **tmp)
{
	static const char chars[] =
		"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";

	for (int tries = 0; tries < 100; tries++) {
		char sfx[7];
		int fd;

		for (int i = 0; i < 6; i++)
			sfx[i] = chars[g_random_int_range(0, sizeof(chars) - 1)];
		sfx[6] = '\0';
		*tmp = g_strdup_printf("%s.tmp.%s", name, sfx);
		/* 0666: the umask decides, as for git's files */
		fd = openat(dirfd, *tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW |
			    O_CLOEXEC, 0666);
		if (fd >= 0 || errno != EEXIST)
			return fd;
		g_free(*tmp);
	}
	*tmp = NULL;
	errno = EEXIST;
	return -1;
}

static int write_all(int fd, const char *buf, size_t len)
{
	size_t done = 0;

	while (done < len) {
		ssize_t n = write(fd, buf + done, len - done);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -1;
		done += (size_t)n;
	}
	return 0;
}

int write_batch_add(struct write_batch *b, const char *name, const char *buf,
		    size_t len)
{
	struct pending_write w = { NULL, NULL };
	char *path = display_path(b->dir, name);
	struct stat st;
	int fd, ret = -1;

	if (fstatat(b->dirfd, name, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
	    !S_ISREG(st.st_mode)) {
		refuse(b->dirfd, name, path, S_IFREG);
		goto out;
	}
	if (b->pending->len >= BATCH_MAX && write_batch_commit(b) < 0)
		goto out;
	fd = create_tmp(b->dirfd, name, &w.tmp);
	if (fd < 0) {
		error_errno("cannot create a temporary file for '%s'", path);
		goto out;
	}
	w.name = g_strdup(name);
	if (write_all(fd, buf, len) < 0 || close(fd) < 0) {
		error_errno("cannot write '%s'", path);
		pending_drop(b, &w, true);
		goto out;
	}
	g_array_append_val(b->pending, w);
	ret = 0;
out:
	g_free(path);
	return ret;
}

/* Writes the data and metadata of what the batch wrote to disk. */
static int sync_pending(struct write_batch *b)
{
	struct pending_write *w = &g_array_index(b->pending, struct pending_write, 0);
	int fd, ret = 0;

	/*
	 * fsync() of each file costs a journal commit apiece (about 2 ms
	 * on a virtual disk: 3 s for the 1 500 records of a large review);
	 * one syncfs() writes every file at once. A single file keeps
	 * fsync(), which does not wait for the rest of the filesystem.
	 */
	if (b->no_sync)
		return 0;
	if (b->pending->len > 1)
		return syncfs(b->dirfd);
	fd = openat(b->dirfd, w->tmp, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0 || fsync(fd) < 0)
		ret = -1;
	if (fd >= 0)
		close(fd);
	return ret;
}

/*
 * Crash safety: every file's data is on disk before any rename makes
 * it visible, so a name always holds an old or a new whole file; one
 * fsync of the directory then makes the renames durable. A crash in
 * between leaves some names old and some new, each whole, and
 * temporary files that a later write into the directory sweeps.
 */
int write_batch_commit(struct write_batch *b)
{
	GArray *p = b->pending;
	guint i, renamed = 0;
	int ret = 0;

	if (!p->len)
		return 0;
	if (sync_pending(b) < 0)
		ret = error_errno("cannot sync the files written in '%s'", b->dir);
	for (i = 0; i < p->len && !ret; i++) {
		struct pending_write *w = &g_array_index(p, struct pending_write, i);

		if (renameat(b->dirfd, w->tmp, b->dirfd, w->name) < 0) {
			char *path = display_path(b->dir, w->name);

			ret = error_errno("cannot rename a temporary file to '%s'",
					  path);
			g_free(path);
		} else {
			renamed++;
		}
	}
	for (i = 0; i < p->len; i++)
		pending_drop(b, &g_array_index(p, struct pending_write, i),
			     i >= renamed);
	g_array_set_size(p, 0);
	if (!ret && renamed && !b->no_sync && fsync(b->dirfd) < 0)
		ret = error_errno("cannot sync directory '%s'", b->dir);
	return ret;
}

void write_batch_free(struct write_batch *b)
{
	if (!b)
		return;
	for (guint i = 0; i < b->pending->len; i++)
		pending_drop(b, &g_array_index(b->pending, struct pending_write, i),
			     true);
	g_array_unref(b->pending);
	close(b->dirfd);
	g_free(b->dir);
	g_free(b);
}

static int write_one_at(int dirfd, const char *dir, const char *name,
			const char *buf, size_t len, bool no_sync)
{
	int fd = fcntl(dirfd, F_DUPFD_CLOEXEC, 0);
	struct write_batch *b;
	int ret;

	if (fd < 0)
		return error_errno("cannot write into '%s'", dir);
	b = write_batch_new(fd, dir);
	b->no_sync = no_sync;
	ret = write_batch_add(b, name, buf, len);
	if (!ret)
		ret = write_batch_commit(b);
	write_batch_free(b);
	return ret;
}

int write_file_atomic_at(int dirfd, const char *dir, const char *name,
			 const char *buf, size_t len)
{
	return write_one_at(dirfd, dir, name, buf, len, false);
}

int write_file_replace_at(int dirfd, const char *dir, const char *name,
			  const char *buf, size_t len)
{
	return write_one_at(dirfd, dir, name, buf, len, true);
}

int write_file_atomic(const char *path, const char *buf, size_t len)
{
	char *dir = g_path_get_dirname(path);
	char *name = g_path_get_basename(path);
	int fd, ret;

	fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	ret = fd < 0 ? error_errno("cannot open directory '%s'", dir) :
	      write_file_atomic_at(fd, dir, name, buf, len);
	if (fd >= 0)
		close(fd);
	g_free(dir);
	g_free(name);
	return ret;
}

int write_file_below(const char *root, const char *rel, const char *buf,
		     size_t len)
{
	char *dir = g_path_get_dirname(rel);
	char *name = g_path_get_basename(rel);
	char *where = g_build_filename(root, dir, NULL);
	int fd, ret = -1;

	fd = open_dir_below(root, dir, true);
	if (fd >= 0) {
		ret = write_file_atomic_at(fd, where, name, buf, len);
		close(fd);
	}
	g_free(where);
	g_free(dir);
	g_free(name);
	return ret;
}

int mkdir_p(const char *path)
{
	if (g_mkdir_with_parents(path, 0777) < 0)
		return error_errno("cannot create directory '%s'", path);
	return 0;
}

char *mkdtemp_at(int dirfd, const char *dir, const char *prefix)
{
	static const char chars[] =
		"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";

	for (int tries = 0; tries < 100; tries++) {
		char *name = g_strdup_printf("%sXXXXXX", prefix);
		char *x = name + strlen(prefix);

		for (int i = 0; i < 6; i++)
			x[i] = chars[g_random_int_range(0, sizeof(chars) - 1)];
		/* 0777: the umask decides, as git's directories */
		if (mkdirat(dirfd, name, 0777) == 0)
			return name;
		g_free(name);
		if (errno != EEXIST)
			break;
	}
	error_errno("cannot create a directory in '%s'", dir);
	return NULL;
}

/*
 * What another remover took meanwhile (two sweepers on one NAME.dead)
 * is gone as we wanted: ENOENT is no error at any step.
 */
int remove_tree(const char *path)
{
	struct stat st;
	DIR *dir;
	struct dirent *de;
	int ret = 0;

	if (lstat(path, &st) < 0)
		return errno == ENOENT ? 0 : error_errno("cannot stat '%s'", path);
	if (!S_ISDIR(st.st_mode)) {
		if (unlink(path) < 0 && errno != ENOENT)
			return error_errno("cannot remove '%s'", path);
		return 0;
	}
	dir = opendir(path);
	if (!dir)
		return errno == ENOENT ? 0 :
		       error_errno("cannot open directory '%s'", path);
	while ((de = readdir(dir))) {
		char *sub;

		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		sub = g_build_filename(path, de->d_name, NULL);
		if (remove_tree(sub) < 0)
			ret = -1;
		g_free(sub);
	}
	closedir(dir);
	if (ret == 0 && rmdir(path) < 0 && errno != ENOENT)
		ret = error_errno("cannot remove '%s'", path);
	return ret;
}

bool is_dir(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

static gint cmp_names(gconstpointer a, gconstpointer b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

GPtrArray *dir_names_sorted(const char *dir,
			    bool (*keep)(const char *dir, const char *name,
					 void *data),
			    void *data)
{
	GPtrArray *names = g_ptr_array_new_with_free_func(g_free);
	DIR *d = opendir(dir);
	struct dirent *de;

	while (d && (de = readdir(d))) {
		const char *n = de->d_name;

		if (!strcmp(n, ".") || !strcmp(n, ".."))
			continue;
		if (!keep || keep(dir, n, data))
			g_ptr_array_add(names, g_strdup(n));
	}
	if (d)
		closedir(d);
	g_ptr_array_sort(names, cmp_names);
	return names;
}

bool is_file(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

static bool istitlechar(char c)
{
	return g_ascii_isalnum(c) || c == '.' || c == '_';
}

char *slugify(const char *msg)
{
	GString *sb = g_string_new(NULL);
	int space = 2;		/* git's pretty.c: no '-' before the first word */
	size_t i;

	for (i = 0; msg[i]; i++) {
		if (istitlechar(msg[i])) {
			if (space == 1)
				g_string_append_c(sb, '-');
			space = 0;
			g_string_append_c(sb, msg[i]);
			if (msg[i] == '.')
				while (msg[i + 1] == '.')
					i++;
		} else {
			space |= 1;
		}
	}
	while (sb->len && (sb->str[sb->len - 1] == '.' ||
			   sb->str[sb->len - 1] == '-'))
		g_string_truncate(sb, sb->len - 1);
	return g_string_free(sb, FALSE);
}

bool safe_component(const char *name)
{
	const unsigned char *p;

	if (!*name || !strcmp(name, ".") || !strcmp(name, "..") ||
	    name[0] == '-')
		return false;
	for (p = (const unsigned char *)name; *p; p++)
		if (*p == '/' || *p < 0x20 || *p == 0x7f)
			return false;
	return true;
}

const char *memmem_str(const char *hay, size_t len, const char *needle)
{
	return memmem(hay, len, needle, strlen(needle));
}

bool starts_with(const char *s, const char *prefix)
{
	return strncmp(s, prefix, strlen(prefix)) == 0;
}

bool mem_starts_with(const char *p, size_t len, const char *prefix)
{
	size_t n = strlen(prefix);

	return len >= n && memcmp(p, prefix, n) == 0;
}
