// SPDX-License-Identifier: GPL-2.0-only
/*
 * series.c - the series store on disk.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "run.h"
#include "series.h"
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

GHashTable *conf_parse(const char *buf, size_t len)
{
	GHashTable *conf = conf_new();
	const char *p = buf, *end = buf + len;

	while (p < end) {
		size_t n = strnlen(p, (size_t)(end - p));
		const char *nl = memchr(p, '\n', n);
		char *key = g_strndup(p, nl ? (size_t)(nl - p) : n);
		char *val = nl ? g_strndup(nl + 1, n - (size_t)(nl + 1 - p)) :
				 g_strdup("true");
		GPtrArray *vals = g_hash_table_lookup(conf, key);

		if (!vals) {
			vals = g_ptr_array_new_with_free_func(g_free);
			g_hash_table_insert(conf, g_strdup(key), vals);
		}
		g_ptr_array_add(vals, val);
		g_free(key);
		p += n + 1;
	}
	return conf;
}

int conf_read(const char *path, GHashTable **confp)
{
	const char *argv[] = { "git", "config", "-f", path, "--list", "-z", NULL };
	struct run_opts o = { .capture_out = true, .capture_err = true };
	struct run_result r;

	if (run_argv(argv, &o, &r) < 0)
		return -1;
	if (r.status) {
		g_strchomp(r.err->str);
		error("cannot read '%s': %s", path, r.err->str);
		run_result_release(&r);
		return -1;
	}
	*confp = conf_parse(r.out->str, r.out->len);
	run_result_release(&r);
	return 0;
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
	if (conf_read(s->conf_path, &s->conf) < 0) {
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

static int cmp_str(gconstpointer a, gconstpointer b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

GPtrArray *series_list_names(void)
{
	GPtrArray *names = g_ptr_array_new_with_free_func(g_free);
	const char *t = store_top();
	char *dir;
	DIR *d;
	struct dirent *de;

	if (!t)
		return names;
	dir = g_build_filename(t, "series", NULL);
	d = opendir(dir);
	while (d && (de = readdir(d))) {
		char *conf;

		if (de->d_name[0] == '.' || !safe_component(de->d_name))
			continue;
		conf = g_build_filename(dir, de->d_name, "series.conf", NULL);
		if (is_file(conf))
			g_ptr_array_add(names, g_strdup(de->d_name));
		g_free(conf);
	}
	if (d)
		closedir(d);
	g_free(dir);
	g_ptr_array_sort(names, cmp_str);
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

static int conf_write(struct series *s, const char *mode, const char *key,
		      const char *value)
{
	const char *argv[8] = { "git", "config", "-f", s->conf_path };
	int i = 4;
	char *out;

	if (mode)
		argv[i++] = mode;
	argv[i++] = key;
	argv[i++] = value;
	if (run_capture(NULL, argv, &out) < 0)
		return -1;
	g_free(out);
	if (s->conf)
		g_hash_table_unref(s->conf);
	s->conf = NULL;
	return conf_read(s->conf_path, &s->conf);
}

int series_set(struct series *s, const char *key, const char *value)
{
	const char *old = series_get(s, key);

	if (old && !strcmp(old, value))
		return 0;
	return conf_write(s, NULL, key, value);
}

int series_add(struct series *s, const char *key, const char *value)
{
	GPtrArray *v = series_get_all(s, key);

	for (guint i = 0; v && i < v->len; i++)
		if (!strcmp(v->pdata[i], value))
			return 0;
	return conf_write(s, "--add", key, value);
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

GPtrArray *series_patch_files(const struct series *s, int version,
			      bool with_cover)
{
	GPtrArray *files = g_ptr_array_new_with_free_func(g_free);
	char *dir = series_version_dir(s, version);
	DIR *d = dir ? opendir(dir) : NULL;
	struct dirent *de;

	while (d && (de = readdir(d))) {
		size_t n = strlen(de->d_name);

		if (n < 11 || !g_ascii_isdigit(de->d_name[0]) ||
		    strcmp(de->d_name + n - 6, ".patch"))
			continue;
		if (!with_cover && starts_with(de->d_name, "0000-"))
			continue;
		g_ptr_array_add(files, g_build_filename(dir, de->d_name, NULL));
	}
	if (d)
		closedir(d);
	g_free(dir);
	g_ptr_array_sort(files, cmp_str);
	return files;
}
