// SPDX-License-Identifier: GPL-2.0-only
/*
 * util.c - diagnostics, whole-file I/O, atomic writes, names.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "util.h"
#include "banned.h"

static void vreport(const char *prefix, const char *fmt, va_list ap,
		    const char *suffix)
{
	fprintf(stderr, "kseries: %s", prefix);
	vfprintf(stderr, fmt, ap);
	if (suffix)
		fprintf(stderr, ": %s", suffix);
	fputc('\n', stderr);
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

static int fsync_dir_of(const char *path)
{
	char *dir = g_path_get_dirname(path);
	int fd, ret = 0;

	fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0 || fsync(fd) < 0)
		ret = error_errno("cannot sync directory '%s'", dir);
	if (fd >= 0)
		close(fd);
	g_free(dir);
	return ret;
}

/*
 * A write killed between mkstemp and rename (SIGKILL, power loss) leaves
 * its NAME.tmp.XXXXXX behind. A live one exists for the time of a write
 * and an fsync, so one older than this is litter.
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
 * Removes the litter of killed writes in path's directory, once per
 * directory and process.
 */
static void sweep_stale_tmp(const char *path)
{
	static GHashTable *swept;
	char *dir = g_path_get_dirname(path);
	time_t now = time(NULL);
	struct dirent *de;
	DIR *d;

	if (!swept)
		swept = g_hash_table_new_full(g_str_hash, g_str_equal, g_free,
					      NULL);
	if (g_hash_table_contains(swept, dir)) {
		g_free(dir);
		return;
	}
	d = opendir(dir);
	while (d && (de = readdir(d))) {
		struct stat st;

		if (!is_tmp_name(de->d_name) ||
		    fstatat(dirfd(d), de->d_name, &st, AT_SYMLINK_NOFOLLOW) < 0 ||
		    !S_ISREG(st.st_mode) || now - st.st_mtime < STALE_TMP_SECONDS)
			continue;
		unlinkat(dirfd(d), de->d_name, 0);
	}
	if (d)
		closedir(d);
	g_hash_table_add(swept, dir);
}

int write_file_atomic(const char *path, const char *buf, size_t len)
{
	char *tmp = g_strdup_printf("%s.tmp.XXXXXX", path);
	size_t done = 0;
	int fd;

	sweep_stale_tmp(path);
	fd = g_mkstemp_full(tmp, O_WRONLY | O_CLOEXEC, 0666 & ~0022);
	if (fd < 0) {
		error_errno("cannot create a temporary file for '%s'", path);
		g_free(tmp);
		return -1;
	}
	while (done < len) {
		ssize_t n = write(fd, buf + done, len - done);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			error_errno("cannot write '%s'", tmp);
			goto err;
		}
		done += (size_t)n;
	}
	if (fchmod(fd, 0644) < 0 || fsync(fd) < 0) {
		error_errno("cannot sync '%s'", tmp);
		goto err;
	}
	if (close(fd) < 0) {
		fd = -1;
		error_errno("cannot close '%s'", tmp);
		goto err;
	}
	fd = -1;
	if (rename(tmp, path) < 0) {
		error_errno("cannot rename '%s' to '%s'", tmp, path);
		goto err;
	}
	g_free(tmp);
	return fsync_dir_of(path);

err:
	if (fd >= 0)
		close(fd);
	unlink(tmp);
	g_free(tmp);
	return -1;
}

int mkdir_p(const char *path)
{
	if (g_mkdir_with_parents(path, 0777) < 0)
		return error_errno("cannot create directory '%s'", path);
	return 0;
}

int remove_tree(const char *path)
{
	struct stat st;
	DIR *dir;
	struct dirent *de;
	int ret = 0;

	if (lstat(path, &st) < 0)
		return errno == ENOENT ? 0 : error_errno("cannot stat '%s'", path);
	if (!S_ISDIR(st.st_mode)) {
		if (unlink(path) < 0)
			return error_errno("cannot remove '%s'", path);
		return 0;
	}
	dir = opendir(path);
	if (!dir)
		return error_errno("cannot open directory '%s'", path);
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
	if (ret == 0 && rmdir(path) < 0)
		ret = error_errno("cannot remove '%s'", path);
	return ret;
}

bool is_dir(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
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

int for_each_line(const char *buf, size_t len,
		  int (*fn)(const char *line, size_t len, void *data),
		  void *data)
{
	const char *p = buf, *end = buf + len;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p);
		size_t trim = n;
		int ret;

		if (trim && p[trim - 1] == '\r')
			trim--;
		ret = fn(p, trim, data);
		if (ret)
			return ret;
		p += n + (nl ? 1 : 0);
	}
	return 0;
}
