// SPDX-License-Identifier: GPL-2.0-only
/*
 * version-status.c - one summary per version of its stage results, so
 * that status reads one file per version instead of one per stage.
 *
 * The summary, results/<series>/v<N>/version-status, is lines:
 *
 *	kseries version-status 1
 *	source <kseries source id>
 *	series <name> <N>
 *	stages <count>
 *	stage <name> <file identity, or -> <status word, ? or !>
 *	json <the stage file's JSON, compact, on one line>
 *	...
 *	end
 *
 * one "stage" line per row of check_stages[], in order, each followed
 * by a "json" line when its file held JSON. The word is the result's
 * "status" string ([a-z]+), "?" when it has none, "!" when the file
 * held no JSON. A result whose status is no plain word is not
 * summarised (its version is read from the files each time).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include "check.h"
#include "source-id.h"
#include "util.h"
#include "version-status.h"
#include "workbench.h"
#include "banned.h"

#define VS_FILE "version-status"
#define VS_MAGIC "kseries version-status 1"
/* a stage file larger than this is read, but its version not summarised */
#define VS_STAGE_MAX (16u << 20)
/* the summary itself; a stage file (json_load_file() has no limit) */
#define VS_MAX (64u << 20)
#define VS_READ_MAX (1u << 30)

/* The identity of a file as stat() gives it, as "dev:ino:size:mtime:ctime". */
static int file_identity(const struct stat *st, char *buf, size_t size)
{
	int n = snprintf(buf, size, "%llx:%llx:%lld:%lld.%09ld:%lld.%09ld",
			 (unsigned long long)st->st_dev,
			 (unsigned long long)st->st_ino,
			 (long long)st->st_size,
			 (long long)st->st_mtim.tv_sec, st->st_mtim.tv_nsec,
			 (long long)st->st_ctim.tv_sec, st->st_ctim.tv_nsec);

	return n > 0 && (size_t)n < size ? 0 : -1;
}

static bool same_file(const struct stat *a, const struct stat *b)
{
	return a->st_dev == b->st_dev && a->st_ino == b->st_ino &&
	       a->st_size == b->st_size &&
	       a->st_mtim.tv_sec == b->st_mtim.tv_sec &&
	       a->st_mtim.tv_nsec == b->st_mtim.tv_nsec &&
	       a->st_ctim.tv_sec == b->st_ctim.tv_sec &&
	       a->st_ctim.tv_nsec == b->st_ctim.tv_nsec;
}

static bool plain_word(const char *s)
{
	if (!*s)
		return false;
	for (; *s; s++)
		if (*s < 'a' || *s > 'z')
			return false;
	return true;
}

static void status_init(struct version_status *vs)
{
	vs->n = check_nr_stages;
	vs->st = g_new0(struct version_stage, vs->n);
	vs->from_summary = false;
}

void version_status_release(struct version_status *vs)
{
	for (unsigned i = 0; i < vs->n; i++) {
		g_free(vs->st[i].status);
		if (vs->st[i].json)
			json_decref(vs->st[i].json);
	}
	g_free(vs->st);
	memset(vs, 0, sizeof(*vs));
}

/* The whole of the open file fd (st its fstat()) into *buf; -1 if not. */
static int read_fd(int fd, const struct stat *st, size_t max, char **buf,
		   size_t *len)
{
	size_t cap = (size_t)st->st_size + 1, n = 0;
	char *p;

	if (st->st_size < 0 || (size_t)st->st_size > max)
		return -1;
	p = g_malloc(cap);
	for (;;) {
		ssize_t r;

		if (n + 1 == cap) {
			if (cap > max)
				break;
			cap *= 2;
			p = g_realloc(p, cap);
		}
		r = read(fd, p + n, cap - 1 - n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0) {
			if (r < 0)
				break;
			p[n] = '\0';
			*buf = p;
			*len = n;
			return 0;
		}
		n += (size_t)r;
	}
	g_free(p);
	return -1;
}

/*
 * Stage st's file as status has always read it (json_load_file()), its
 * identity into id. Returns 0 when it was read cleanly (or is absent),
 * -1 when the version should not be summarised from what was read.
 */
static int stage_read(int dirfd, const char *stage, struct version_stage *st,
		      char *id, size_t idsize)
{
	char name[256], *buf;
	struct stat a, b;
	size_t len;
	int fd, ret = 0;

	if ((size_t)snprintf(name, sizeof(name), "%s.json", stage) >= sizeof(name))
		return -1;
	fd = openat(dirfd, name, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
	if (fd < 0) {
		if (errno != ENOENT)
			return -1;
		g_strlcpy(id, "-", idsize);
		return 0;
	}
	if (fstat(fd, &a) < 0 || file_identity(&a, id, idsize) < 0) {
		close(fd);
		return -1;
	}
	/* what json_load_file() reads of anything else is no JSON either */
	if (!S_ISREG(a.st_mode)) {
		close(fd);
		return 0;
	}
	if (read_fd(fd, &a, VS_READ_MAX, &buf, &len) < 0) {
		close(fd);
		return -1;
	}
	/* rewritten in place while read: shown, never summarised */
	if (fstat(fd, &b) < 0 || !same_file(&a, &b) || len > VS_STAGE_MAX)
		ret = -1;
	close(fd);
	st->json = json_loadb(buf, len, 0, NULL);
	g_free(buf);
	if (st->json) {
		const char *word = json_string_value(
			json_object_get(st->json, "status"));

		st->loaded = true;
		st->status = g_strdup(word);
		if (word && !plain_word(word))
			ret = -1;
	}
	return ret;
}

static char *results_dir(const char *series, int version)
{
	return g_strdup_printf("%s/results/%s/v%d", cache_dir(), series,
			       version);
}

/* The summary of vs (read from the files, each with its identity). */
static GString *summary_text(const char *series, int version,
			     const struct version_status *vs, char **ids)
{
	GString *out = g_string_new(NULL);

	g_string_append_printf(out, "%s\nsource %s\nseries %s %d\nstages %u\n",
			       VS_MAGIC, KSERIES_SOURCE_ID, series, version,
			       vs->n);
	for (unsigned i = 0; i < vs->n; i++) {
		const struct version_stage *st = &vs->st[i];
		char *text;

		g_string_append_printf(out, "stage %s %s %s\n",
				       check_stages[i].name, ids[i],
				       !st->loaded ? "!" :
				       st->status ? st->status : "?");
		if (!st->loaded)
			continue;
		text = json_dumps(st->json, JSON_COMPACT | JSON_ENCODE_ANY);
		if (!text) {
			g_string_free(out, TRUE);
			return NULL;
		}
		g_string_append_printf(out, "json %s\n", text);
		free(text);
	}
	g_string_append(out, "end\n");
	return out;
}

/*
 * The stage files of dirfd into vs; when keep, their summary written
 * if they were all read cleanly. Returns 0 when it was written.
 */
static int files_load(int dirfd, const char *series, int version,
		      bool keep, struct version_status *vs)
{
	char **ids = g_new0(char *, vs->n + 1);
	bool clean = true;
	GString *text;
	int ret = -1;

	for (unsigned i = 0; i < vs->n; i++) {
		ids[i] = g_malloc(128);
		if (stage_read(dirfd, check_stages[i].name, &vs->st[i],
			       ids[i], 128) < 0)
			clean = false;
	}
	if (keep && clean &&
	    (text = summary_text(series, version, vs, ids))) {
		char *dir = results_dir(series, version);

		/* a cache, verified when read: no sync (util.h) */
		ret = write_file_replace_at(dirfd, dir, VS_FILE, text->str,
					    text->len);
		g_free(dir);
		g_string_free(text, TRUE);
	}
	g_strfreev(ids);
	return ret;
}

/* The next line of *p (up to end) without its '\n'; NULL at the end. */
static char *next_line(char **p, char *end)
{
	char *line = *p, *nl;

	if (line >= end)
		return NULL;
	nl = memchr(line, '\n', (size_t)(end - line));
	if (!nl)
		return NULL;
	*nl = '\0';
	*p = nl + 1;
	return line;
}

/* One "stage" line (and its "json" line) of the summary into st. */
static bool summary_stage(int dirfd, unsigned i, char **p, char *end,
			  unsigned flags, struct version_stage *st)
{
	const char *stage = check_stages[i].name;
	char *line = next_line(p, end), *sp, *word, name[256], id[128];
	size_t n = strlen(stage);
	struct stat now;

	if (!line || strncmp(line, "stage ", 6) || strncmp(line + 6, stage, n) ||
	    line[6 + n] != ' ')
		return false;
	line += 7 + n;
	sp = strchr(line, ' ');
	if (!sp)
		return false;
	*sp = '\0';
	word = sp + 1;
	/* the file now, as the summary saw it */
	if ((size_t)snprintf(name, sizeof(name), "%s.json", stage) >= sizeof(name))
		return false;
	if (fstatat(dirfd, name, &now, 0) < 0) {
		if (errno != ENOENT || strcmp(line, "-"))
			return false;
	} else if (file_identity(&now, id, sizeof(id)) < 0 || strcmp(line, id)) {
		return false;
	}
	if (!strcmp(word, "!"))
		return true;
	if (strcmp(word, "?") && !plain_word(word))
		return false;
	st->loaded = true;
	if (strcmp(word, "?"))
		st->status = g_strdup(word);
	line = next_line(p, end);
	if (!line || strncmp(line, "json ", 5))
		return false;
	if (flags & VERSION_STATUS_FULL) {
		st->json = json_loads(line + 5, 0, NULL);
		if (!st->json)
			return false;
	}
	return true;
}

/* vs from dirfd's summary when it is current; false when it is not. */
static bool summary_load(int dirfd, const char *series, int version,
			 unsigned flags, struct version_status *vs)
{
	char *buf = NULL, *p, *end, *line, *want = NULL;
	struct stat st;
	size_t len;
	bool ok = false;
	int fd = openat(dirfd, VS_FILE, O_RDONLY | O_CLOEXEC | O_NOFOLLOW |
			O_NONBLOCK | O_NOCTTY);

	if (fd < 0)
		return false;
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) ||
	    read_fd(fd, &st, VS_MAX, &buf, &len) < 0)
		goto out;
	p = buf;
	end = buf + len;
	want = g_strdup_printf("series %s %d", series, version);
	if (!(line = next_line(&p, end)) || strcmp(line, VS_MAGIC) ||
	    !(line = next_line(&p, end)) || strncmp(line, "source ", 7) ||
	    strcmp(line + 7, KSERIES_SOURCE_ID) ||
	    !(line = next_line(&p, end)) || strcmp(line, want) ||
	    !(line = next_line(&p, end)) || strncmp(line, "stages ", 7) ||
	    strtoul(line + 7, NULL, 10) != vs->n)
		goto out;
	for (unsigned i = 0; i < vs->n; i++)
		if (!summary_stage(dirfd, i, &p, end, flags, &vs->st[i]))
			goto out;
	line = next_line(&p, end);
	ok = line && !strcmp(line, "end") && p == end;
out:
	if (fd >= 0)
		close(fd);
	g_free(want);
	g_free(buf);
	return ok;
}

void version_status_load(const char *series, int version, unsigned flags,
			 struct version_status *vs)
{
	char *dir = results_dir(series, version);
	int dirfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	g_free(dir);
	status_init(vs);
	/* no results: nothing to read, nothing to keep */
	if (dirfd < 0)
		return;
	if (summary_load(dirfd, series, version, flags, vs)) {
		vs->from_summary = true;
	} else {
		version_status_release(vs);
		status_init(vs);
		/* a cache status may not write into is only read */
		files_load(dirfd, series, version,
			   (flags & VERSION_STATUS_KEEP) &&
			   faccessat(dirfd, ".", W_OK, AT_EACCESS) == 0, vs);
	}
	if (!(flags & VERSION_STATUS_FULL))
		for (unsigned i = 0; i < vs->n; i++)
			g_clear_pointer(&vs->st[i].json, json_decref);
	close(dirfd);
}

int version_status_write(const char *series, int version)
{
	char *dir = results_dir(series, version);
	int dirfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	struct version_status vs;
	int ret;

	if (dirfd < 0) {
		ret = error_errno("cannot open directory '%s'", dir);
		g_free(dir);
		return ret;
	}
	g_free(dir);
	status_init(&vs);
	ret = files_load(dirfd, series, version, true, &vs);
	version_status_release(&vs);
	close(dirfd);
	return ret;
}
