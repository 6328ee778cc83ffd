// SPDX-License-Identifier: GPL-2.0-only
/*
 * series.c - the series store on disk.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <git2.h>

#include "posting.h"
#include "scratch.h"
#include "series.h"
#include "store.h"
#include "util.h"
#include "banned.h"

static char *top;

void store_set_top(const char *path)
{
	g_free(top);
	top = g_canonicalize_filename(path, NULL);
}

const char *store_top(void)
{
	char *dir;

	if (top)
		return top;
	if (getenv("KSERIES_DIR") && *getenv("KSERIES_DIR")) {
		store_set_top(getenv("KSERIES_DIR"));
		return top;
	}
	dir = g_get_current_dir();
	for (;;) {
		char *s = g_build_filename(dir, "series", NULL);
		bool found = is_dir(s);
		char *up;

		g_free(s);
		if (found) {
			top = dir;
			return top;
		}
		up = g_path_get_dirname(dir);
		if (!strcmp(up, dir)) {
			g_free(up);
			g_free(dir);
			return NULL;
		}
		g_free(dir);
		dir = up;
	}
}

static GHashTable *conf_new(void)
{
	return g_hash_table_new_full(g_str_hash, g_str_equal, g_free,
				     (GDestroyNotify)g_ptr_array_unref);
}

/* libgit2 is initialised once, on first use (it counts its users). */
static void git2_init(void)
{
	static bool done;

	if (!done) {
		git_libgit2_init();
		done = true;
	}
}

static const char *git2_message(void)
{
	const git_error *e = git_error_last();

	return e && e->message ? e->message : "unknown libgit2 error";
}

const char *conf_value_problem(const char *value)
{
	const char *p;

	if (!g_utf8_validate(value, -1, NULL))
		return "bytes that are not UTF-8";
	for (p = value; *p; p = g_utf8_next_char(p)) {
		gunichar c = g_utf8_get_char(p);

		if (c == '\n')
			return "a line break";
		if (c == '\r')
			return "a carriage return";
		/* C0 but TAB, DEL, C1: nothing a header may carry (RFC 5322 2.2) */
		if ((c < 0x20 && c != '\t') || (c >= 0x7f && c < 0xa0))
			return "a control character";
	}
	return NULL;
}

struct conf_fill {
	GHashTable *conf;
	const char *path;
	int ret;
};

static int conf_add_entry(const git_config_entry *e, void *data)
{
	struct conf_fill *f = data;
	const char *value = e->value ? e->value : "true";
	const char *problem = conf_value_problem(value);
	GPtrArray *vals;

	if (problem) {
		f->ret = error("%s: the value of '%s' has %s", f->path,
			       e->name, problem);
		return -1;
	}
	vals = g_hash_table_lookup(f->conf, e->name);
	if (!vals) {
		vals = g_ptr_array_new_with_free_func(g_free);
		g_hash_table_insert(f->conf, g_strdup(e->name), vals);
	}
	g_ptr_array_add(vals, g_strdup(value));
	return 0;
}

/* Reads the config file open at fd (named path in errors). */
static int conf_read_fd(int fd, const char *path, GHashTable **confp)
{
	char proc[64];
	struct conf_fill f = { conf_new(), path, 0 };
	git_config *cfg = NULL;

	*confp = NULL;
	git2_init();
	/* libgit2 opens a path: this one is the file we opened, no other */
	if (snprintf(proc, sizeof(proc), "/proc/self/fd/%d", fd) >=
	    (int)sizeof(proc))
		f.ret = error("cannot read '%s'", path);
	else if (git_config_open_ondisk(&cfg, proc) < 0)
		f.ret = error("cannot read '%s': %s", path, git2_message());
	else if (git_config_foreach(cfg, conf_add_entry, &f) < 0 && !f.ret)
		f.ret = error("cannot read '%s': %s", path, git2_message());
	if (cfg)
		git_config_free(cfg);
	if (f.ret < 0) {
		g_hash_table_unref(f.conf);
		return -1;
	}
	*confp = f.conf;
	return 0;
}

/*
 * Whether buf has an [include] or [includeIf ...] section. git config -f
 * does not follow include directives; libgit2 follows them as it parses
 * (reading any file, a FIFO included), so they are refused before it
 * sees them: a series.conf is kseries' own file and never has any.
 */
static bool has_include(const char *buf, size_t len)
{
	static const char ws[] = " \t\r\v\f";
	const char *p = buf, *end = buf + len;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *eol = nl ? nl : end;

		while (p < eol && strchr(ws, *p) && *p)
			p++;
		if (p < eol && *p == '[') {
			p++;
			while (p < eol && strchr(ws, *p) && *p)
				p++;
			if ((size_t)(eol - p) >= 7 && !g_ascii_strncasecmp(p, "include", 7))
				return true;
		}
		p = nl ? nl + 1 : end;
	}
	return false;
}

/* conf_parse(), naming path in errors. */
static GHashTable *conf_parse_named(const char *buf, size_t len,
				    const char *path)
{
	GHashTable *conf = NULL;
	size_t done = 0;
	int fd;

	if (has_include(buf, len)) {
		error("%s: include directives are not allowed", path);
		return NULL;
	}
	/* libgit2 parses a file: a private memory file, that no one can swap */
	fd = memfd_create("series.conf", MFD_CLOEXEC);
	if (fd < 0) {
		error_errno("cannot create a memory file");
		return NULL;
	}
	while (done < len) {
		ssize_t n = write(fd, buf + done, len - done);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			error_errno("cannot write a memory file");
			close(fd);
			return NULL;
		}
		done += (size_t)n;
	}
	conf_read_fd(fd, path, &conf);
	close(fd);
	return conf;
}

GHashTable *conf_parse(const char *buf, size_t len)
{
	return conf_parse_named(buf, len, "series.conf");
}

/* Reads all of the file open at fd. */
static int read_fd(int fd, const char *path, GString *buf)
{
	char chunk[65536];

	for (;;) {
		ssize_t n = read(fd, chunk, sizeof(chunk));

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return error_errno("cannot read '%s'", path);
		if (n == 0)
			return 0;
		g_string_append_len(buf, chunk, n);
	}
}

/* Opens a series.conf for reading: a regular file, never a link. */
static int conf_open(const char *path)
{
	struct stat st;
	int fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK);

	if (fd < 0 && errno == ELOOP)
		return error("refusing '%s': it is a symbolic link", path);
	if (fd < 0)
		return error_errno("cannot open '%s'", path);
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		close(fd);
		return error("refusing '%s': not a regular file", path);
	}
	return fd;
}

int conf_read(const char *path, GHashTable **confp)
{
	int fd = conf_open(path);
	GString *buf;

	*confp = NULL;
	if (fd < 0)
		return -1;
	buf = g_string_new(NULL);
	if (read_fd(fd, path, buf) == 0)
		*confp = conf_parse_named(buf->str, buf->len, path);
	close(fd);
	g_string_free(buf, TRUE);
	return *confp ? 0 : -1;
}

int series_parse_spec(const char *spec, char **name, int *version)
{
	const char *at = strchr(spec, '@');
	char *end;
	long v;

	*name = NULL;
	*version = 0;
	if (!at) {
		*name = g_strdup(spec);
	} else {
		if ((at[1] != 'v' && at[1] != 'V') || !g_ascii_isdigit(at[2]))
			return error("bad series spec '%s': want NAME or NAME@vN",
				     spec);
		v = strtol(at + 2, &end, 10);
		if (*end || v < 1 || v > 9999)
			return error("bad series spec '%s': want NAME or NAME@vN",
				     spec);
		*name = g_strndup(spec, (size_t)(at - spec));
		*version = (int)v;
	}
	if (!safe_component(*name)) {
		error("bad series name '%s'", *name);
		g_free(*name);
		*name = NULL;
		return -1;
	}
	return 0;
}

static const char *const state_names[] = {
	[SERIES_ACTIVE] = "active",
	[SERIES_WITHDRAWN] = "withdrawn",
};

const char *series_state_name(enum series_state st)
{
	return state_names[st];
}

enum series_state series_state(const struct series *s)
{
	const char *v = series_get(s, "series.state");

	return v && !strcmp(v, "withdrawn") ? SERIES_WITHDRAWN : SERIES_ACTIVE;
}

const char *series_state_reason(const struct series *s)
{
	if (series_state(s) != SERIES_WITHDRAWN)
		return NULL;
	return series_get(s, "series.state-reason");
}

/* series.state is a known word; a withdrawn series says why. */
static int state_check(const struct series *s)
{
	const char *v = series_get(s, "series.state");
	const char *why = series_get(s, "series.state-reason");

	if (v && strcmp(v, "active") && strcmp(v, "withdrawn"))
		return error("%s: unknown series.state '%s' (want active or withdrawn)",
			     s->conf_path, v);
	if (v && !strcmp(v, "withdrawn") && (!why || !*why))
		return error("%s: series.state is withdrawn without a series.state-reason",
			     s->conf_path);
	return 0;
}

int series_load(const char *name, struct series *s)
{
	const char *t = store_top();

	memset(s, 0, sizeof(*s));
	if (!safe_component(name))
		return error("bad series name '%s'", name);
	if (!t)
		return error("not in a kseries store (no series/ directory here or above)");
	s->name = g_strdup(name);
	s->dir = g_build_filename(t, "series", name, NULL);
	s->conf_path = g_build_filename(s->dir, "series.conf", NULL);
	if (!is_file(s->conf_path)) {
		error("no series '%s'", name);
		series_release(s);
		return -1;
	}
	if (conf_read(s->conf_path, &s->conf) < 0 || state_check(s) < 0) {
		series_release(s);
		return -1;
	}
	return 0;
}

void series_release(struct series *s)
{
	g_free(s->name);
	g_free(s->dir);
	g_free(s->conf_path);
	if (s->conf)
		g_hash_table_unref(s->conf);
	memset(s, 0, sizeof(*s));
}

/* a series: a safe name with a series.conf */
static bool series_entry(const char *dir, const char *name, void *data)
{
	char *conf;
	bool ok;

	(void)data;
	if (name[0] == '.' || !safe_component(name))
		return false;
	conf = g_build_filename(dir, name, "series.conf", NULL);
	ok = is_file(conf);
	g_free(conf);
	return ok;
}

GPtrArray *series_list_names(void)
{
	const char *t = store_top();
	char *dir;
	GPtrArray *names;

	if (!t)
		return g_ptr_array_new_with_free_func(g_free);
	dir = g_build_filename(t, "series", NULL);
	names = dir_names_sorted(dir, series_entry, NULL);
	g_free(dir);
	return names;
}

GPtrArray *series_get_all(const struct series *s, const char *key)
{
	char *lower = g_ascii_strdown(key, -1);
	GPtrArray *v;
	const char *dot1 = strchr(key, '.'), *dot2 = strrchr(key, '.');

	/* git lowercases the section and key, not the subsection */
	if (dot1 && dot2 && dot1 != dot2)
		memcpy(lower + (dot1 - key) + 1, dot1 + 1, (size_t)(dot2 - dot1 - 1));
	v = s->conf ? g_hash_table_lookup(s->conf, lower) : NULL;
	g_free(lower);
	return v;
}

const char *series_get(const struct series *s, const char *key)
{
	GPtrArray *v = series_get_all(s, key);

	return v && v->len ? v->pdata[v->len - 1] : NULL;
}

const char *series_version_get(const struct series *s, int version,
			       const char *key)
{
	char *k = g_strdup_printf("version.%d.%s", version, key);
	const char *v = series_get(s, k);

	g_free(k);
	return v;
}

/* A value as git config writes it (config.c, write_pair()). */
static void conf_quote(GString *out, const char *v)
{
	size_t n = strlen(v);
	bool quote = n && (v[0] == ' ' || v[0] == '\t' || v[n - 1] == ' ' ||
			   v[n - 1] == '\t' || strpbrk(v, ";#"));

	if (quote)
		g_string_append_c(out, '"');
	for (const char *p = v; *p; p++) {
		if (*p == '\\' || *p == '"')
			g_string_append_c(out, '\\');
		if (*p == '\t')
			g_string_append(out, "\\t");
		else
			g_string_append_c(out, *p);
	}
	if (quote)
		g_string_append_c(out, '"');
}

/*
 * git config --add, on the bytes of a series.conf: key = value at the
 * end, under a [section] header unless the last header is that one.
 * (libgit2 has the same behaviour, through a value pattern whose
 * non-matches leak in libgit2 1.5.)
 */
static int conf_append(GString *buf, const char *key, const char *value)
{
	const char *dot1 = strchr(key, '.'), *dot2 = strrchr(key, '.');
	GString *hdr = g_string_new("[");
	const char *last = NULL;

	if (!dot1 || dot2 == key + strlen(key) - 1 || dot1 == key) {
		g_string_free(hdr, TRUE);
		return error("bad configuration key '%s'", key);
	}
	g_string_append_len(hdr, key, dot1 - key);
	if (dot2 != dot1) {
		g_string_append(hdr, " \"");
		for (const char *p = dot1 + 1; p < dot2; p++) {
			if (*p == '\\' || *p == '"')
				g_string_append_c(hdr, '\\');
			g_string_append_c(hdr, *p);
		}
		g_string_append_c(hdr, '"');
	}
	g_string_append_c(hdr, ']');
	/* the last line that starts a section */
	for (const char *p = buf->str; *p;) {
		const char *q = p + strspn(p, " \t"), *nl = strchr(p, '\n');

		if (*q == '[')
			last = q;
		if (!nl)
			break;
		p = nl + 1;
	}
	if (buf->len && buf->str[buf->len - 1] != '\n')
		g_string_append_c(buf, '\n');
	if (!last || strncmp(last, hdr->str, hdr->len) ||
	    (last[hdr->len] != '\n' && last[hdr->len] != '\0')) {
		g_string_append(buf, hdr->str);
		g_string_append_c(buf, '\n');
	}
	g_string_append_printf(buf, "\t%s = ", dot2 + 1);
	conf_quote(buf, value);
	g_string_append_c(buf, '\n');
	g_string_free(hdr, TRUE);
	return 0;
}

/*
 * Edits a copy of path (its bytes in buf) in a scratch directory with
 * libgit2, and returns the edited bytes in *out. libgit2 writes a
 * config file through its own lock file and rename, following a
 * symbolic link at the path and without fsync; so it only ever writes
 * our private copy, and the store's file is replaced by
 * write_file_atomic().
 */
static int conf_edit_copy(const char *path, const char *buf, size_t len,
			  const char *key, const char *value, char **out,
			  size_t *out_len)
{
	char *dir = scratch_dir_make("conf");
	char *copy = dir ? g_build_filename(dir, "series.conf", NULL) : NULL;
	git_config *cfg = NULL;
	int ret = -1;

	if (!dir)
		return -1;
	if (write_file_atomic(copy, buf, len) < 0)
		goto out;
	git2_init();
	if (git_config_open_ondisk(&cfg, copy) < 0) {
		error("cannot read '%s': %s", path, git2_message());
		goto out;
	}
	if (value ? git_config_set_string(cfg, key, value) < 0 :
		    git_config_delete_entry(cfg, key) < 0)
		error("cannot %s '%s' in '%s': %s", value ? "set" : "unset",
		      key, path, git2_message());
	else
		ret = 0;
	git_config_free(cfg);
	if (ret == 0)
		ret = read_file(copy, SIZE_MAX, out, out_len);
out:
	scratch_dir_remove(dir);
	g_free(copy);
	return ret;
}

static int conf_write(struct series *s, const char *key, const char *value,
		      bool add)
{
	const char *problem = value ? conf_value_problem(value) : NULL;
	char *dir = g_path_get_dirname(s->conf_path);
	GString *buf = g_string_new(NULL);
	char *edited = NULL;
	size_t edited_len = 0;
	int dfd = -1, fd = -1, ret = -1;

	if (problem) {
		error("cannot set '%s': the value has %s", key, problem);
		goto out;
	}
	/* one writer at a time: the edit reads, changes, replaces the file */
	dfd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (dfd < 0 || flock(dfd, LOCK_EX) < 0) {
		error_errno("cannot lock '%s'", dir);
		goto out;
	}
	fd = conf_open(s->conf_path);
	if (fd < 0 || read_fd(fd, s->conf_path, buf) < 0)
		goto out;
	if (add) {
		if (conf_append(buf, key, value) < 0)
			goto out;
		edited_len = buf->len;
		edited = g_string_free(buf, FALSE);
		buf = NULL;
	} else if (conf_edit_copy(s->conf_path, buf->str, buf->len, key,
				  value, &edited, &edited_len) < 0) {
		goto out;
	}
	if (write_file_atomic(s->conf_path, edited, edited_len) < 0)
		goto out;
	if (s->conf)
		g_hash_table_unref(s->conf);
	s->conf = NULL;
	ret = conf_read(s->conf_path, &s->conf);
out:
	if (fd >= 0)
		close(fd);
	if (dfd >= 0)
		close(dfd);
	g_free(edited);
	if (buf)
		g_string_free(buf, TRUE);
	g_free(dir);
	return ret;
}

int series_set(struct series *s, const char *key, const char *value)
{
	const char *old = series_get(s, key);

	if (old && !strcmp(old, value))
		return 0;
	return conf_write(s, key, value, false);
}

int series_unset(struct series *s, const char *key)
{
	if (!series_get(s, key))
		return 0;
	return conf_write(s, key, NULL, false);
}

int series_version_set(struct series *s, int version, const char *key,
		       const char *value)
{
	char *k = g_strdup_printf("version.%d.%s", version, key);
	int ret = series_set(s, k, value);

	g_free(k);
	return ret;
}

int series_version_unset(struct series *s, int version, const char *key)
{
	char *k = g_strdup_printf("version.%d.%s", version, key);
	int ret = series_unset(s, k);

	g_free(k);
	return ret;
}

int series_add(struct series *s, const char *key, const char *value)
{
	GPtrArray *v = series_get_all(s, key);

	for (guint i = 0; v && i < v->len; i++)
		if (!strcmp(v->pdata[i], value))
			return 0;
	return conf_write(s, key, value, true);
}

static gint cmp_int(gconstpointer a, gconstpointer b)
{
	return *(const int *)a - *(const int *)b;
}

static void add_version(GArray *a, int v)
{
	for (guint i = 0; i < a->len; i++)
		if (g_array_index(a, int, i) == v)
			return;
	g_array_append_val(a, v);
}

GArray *series_versions(const struct series *s)
{
	GArray *a = g_array_new(FALSE, FALSE, sizeof(int));
	GHashTableIter it;
	gpointer key;
	DIR *d;
	struct dirent *de;

	d = opendir(s->dir);
	while (d && (de = readdir(d))) {
		char *end;
		long v;

		if (de->d_name[0] != 'v' || !g_ascii_isdigit(de->d_name[1]))
			continue;
		v = strtol(de->d_name + 1, &end, 10);
		if (!*end && v > 0 && v < 10000)
			add_version(a, (int)v);
	}
	if (d)
		closedir(d);
	if (s->conf) {
		g_hash_table_iter_init(&it, s->conf);
		while (g_hash_table_iter_next(&it, &key, NULL)) {
			const char *k = key;
			char *end;
			long v;

			if (!starts_with(k, "version.") || !g_ascii_isdigit(k[8]))
				continue;
			v = strtol(k + 8, &end, 10);
			if (*end == '.' && v > 0 && v < 10000)
				add_version(a, (int)v);
		}
	}
	g_array_sort(a, cmp_int);
	return a;
}

int series_latest_version(const struct series *s)
{
	GArray *a = series_versions(s);
	int v = a->len ? g_array_index(a, int, a->len - 1) : 0;

	g_array_unref(a);
	return v;
}

char *series_version_dir(const struct series *s, int version)
{
	char name[16];

	if (snprintf(name, sizeof(name), "v%d", version) >= (int)sizeof(name))
		return NULL;
	return g_build_filename(s->dir, name, NULL);
}

/* NNNN-slug.patch, without the cover unless *with_cover */
static bool patch_entry(const char *dir, const char *name, void *data)
{
	size_t n = strlen(name);

	(void)dir;
	if (n < 11 || !g_ascii_isdigit(name[0]) ||
	    strcmp(name + n - 6, ".patch"))
		return false;
	return *(bool *)data || posting_file_kind(name) != POSTING_COVER;
}

GPtrArray *series_patch_files(const struct series *s, int version,
			      bool with_cover)
{
	char *dir = series_version_dir(s, version);
	GPtrArray *names = dir ? dir_names_sorted(dir, patch_entry, &with_cover) :
				 g_ptr_array_new_with_free_func(g_free);

	/* the names, sorted, as paths: the same order */
	for (guint i = 0; i < names->len; i++) {
		char *name = names->pdata[i];

		names->pdata[i] = g_build_filename(dir, name, NULL);
		g_free(name);
	}
	g_free(dir);
	return names;
}

int series_withdraw(struct series *s, const char *reason)
{
	const char *problem = conf_value_problem(reason);
	struct store_txn t;
	int ret;

	if (!reason[strspn(reason, " \t")])
		return error("withdrawing '%s' needs a reason", s->name);
	if (problem)
		return error("cannot withdraw '%s': the reason has %s", s->name,
			     problem);
	if (store_txn_begin(&t, s->name, "withdraw") < 0)
		return -1;
	/* the reason first: no moment is withdrawn without one */
	ret = store_txn_conf(&t, "series.state-reason", reason, false) < 0 ||
	      store_txn_conf(&t, "series.state", "withdrawn", false) < 0 ||
	      store_txn_commit(&t) < 0 ? -1 : 0;
	store_txn_abort(&t);
	if (ret < 0)
		return -1;
	if (s->conf)
		g_hash_table_unref(s->conf);
	s->conf = NULL;
	return conf_read(s->conf_path, &s->conf);
}

int series_refuse_withdrawn(const char *spec, const char *what)
{
	struct series s;
	char *name;
	int version, ret = 0;

	if (series_parse_spec(spec, &name, &version) < 0)
		return -1;
	if (series_load(name, &s) < 0) {
		g_free(name);
		return -1;
	}
	if (series_state(&s) == SERIES_WITHDRAWN)
		ret = error("'%s' is withdrawn (%s): %s refuses it",
			    s.name, series_state_reason(&s), what);
	series_release(&s);
	g_free(name);
	return ret;
}

bool series_check_skips(const struct series *s, bool all, FILE *out)
{
	if (series_state(s) != SERIES_WITHDRAWN)
		return false;
	fprintf(out, "%s: withdrawn (%s): %s\n", s->name,
		series_state_reason(s), all ? "skipped" : "checked all the same");
	return all;
}
