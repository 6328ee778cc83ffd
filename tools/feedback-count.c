// SPDX-License-Identifier: GPL-2.0-only
/*
 * feedback-count.c - the open-comment count kept with the feedback
 * (feedback-count.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "feedback.h"
#include "feedback-count.h"
#include "series.h"
#include "store.h"
#include "util.h"
#include "workbench.h"
#include "banned.h"

#define COUNT_FILE "feedback-open"

/* One input's state: what any change to the file changes. */
static void key_file(GChecksum *sum, const char *name, const char *path)
{
	struct stat st;
	char line[256];
	int n;

	if (lstat(path, &st) < 0)
		n = snprintf(line, sizeof(line), "%s -\n", name);
	else
		n = snprintf(line, sizeof(line), "%s %o %lld %lld.%09ld %lld.%09ld %llu\n",
			     name, (unsigned)st.st_mode, (long long)st.st_size,
			     (long long)st.st_mtim.tv_sec, st.st_mtim.tv_nsec,
			     (long long)st.st_ctim.tv_sec, st.st_ctim.tv_nsec,
			     (unsigned long long)st.st_ino);
	if (n > 0 && (size_t)n < sizeof(line))
		g_checksum_update(sum, (const guchar *)line, n);
	else
		g_checksum_update(sum, (const guchar *)path, -1);
}

/* The feedback records, sorted (every entry: a new one changes the key). */
static void key_records(GChecksum *sum, const struct series *s)
{
	char *dir = g_build_filename(s->dir, "feedback", NULL);
	GPtrArray *names = dir_names_sorted(dir, NULL, NULL);

	key_file(sum, "feedback/", dir);
	for (guint i = 0; i < names->len; i++) {
		char *p = g_build_filename(dir, names->pdata[i], NULL);

		key_file(sum, names->pdata[i], p);
		g_free(p);
	}
	g_ptr_array_unref(names);
	g_free(dir);
}

/* New string: the key of s's inputs as they are now. */
static char *count_key(const struct series *s, const GArray *versions)
{
	GChecksum *sum = g_checksum_new(G_CHECKSUM_SHA1);
	const char *tree = kernel_tree();
	char *key;

	g_checksum_update(sum, (const guchar *)"kseries-feedback-open-1\n", -1);
	/* range-diff pairs the versions only with a tree (feedback.h) */
	g_checksum_update(sum, (const guchar *)(tree ? tree : "-"), -1);
	g_checksum_update(sum, (const guchar *)
			  (getenv("KSERIES_NO_RANGE_DIFF") ? "\nno\n" : "\nrd\n"), -1);
	key_file(sum, "series.conf", s->conf_path);
	key_records(sum, s);
	for (guint i = 0; i < versions->len; i++) {
		int v = g_array_index(versions, int, i);
		GPtrArray *files = series_patch_files(s, v, true);
		char *vd = series_version_dir(s, v);

		key_file(sum, "v/", vd ? vd : "");
		for (guint k = 0; k < files->len; k++) {
			const char *p = files->pdata[k];

			key_file(sum, strrchr(p, '/') + 1, p);
		}
		g_free(vd);
		g_ptr_array_unref(files);
	}
	key = g_strdup(g_checksum_get_string(sum));
	g_checksum_free(sum);
	return key;
}

/* The kept count, when it was computed from key at version. */
static bool count_read(const struct series *s, const char *key, int version,
		       unsigned *open)
{
	char *path = g_build_filename(s->dir, COUNT_FILE, NULL);
	char *buf = NULL, *want;
	size_t len;
	unsigned long n;
	struct stat st;
	char *end;
	bool ok = false;

	want = g_strdup_printf("Key: %s\nVersion: %d\nOpen: ", key, version);
	/* a regular file, never read through a link */
	if (lstat(path, &st) == 0 && S_ISREG(st.st_mode) && st.st_size < 4096 &&
	    read_file(path, 4096, &buf, &len) == 0 &&
	    starts_with(buf, want)) {
		const char *p = buf + strlen(want);

		n = strtoul(p, &end, 10);
		if (end != p && g_ascii_isdigit(*p) && !strcmp(end, "\n") &&
		    n <= G_MAXUINT) {
			*open = (unsigned)n;
			ok = true;
		}
	}
	g_free(want);
	g_free(buf);
	g_free(path);
	return ok;
}

/* Comments of earlier versions still open at version (feedback.h). */
static unsigned count_compute(const struct series *s, int version,
			      bool *unreadable)
{
	GPtrArray *items = g_ptr_array_new_with_free_func(
		(GDestroyNotify)feedback_item_free);
	struct feedback_ctx *fc;
	unsigned n = 0;

	*unreadable = feedback_load(s, items) < 0;
	fc = feedback_ctx_new(s);
	for (guint i = 0; i < items->len; i++) {
		const struct feedback_item *it = items->pdata[i];
		int paired;

		if (!strcmp(it->kind, "trailer"))
			continue;
		if (feedback_status_at(fc, it, MAX(version, it->version),
				       &paired) == FB_OPEN)
			n++;
	}
	feedback_ctx_free(fc);
	g_ptr_array_unref(items);
	return n;
}

static int count_write(const struct series *s, const char *key, int version,
		       unsigned open)
{
	char *text = g_strdup_printf("Key: %s\nVersion: %d\nOpen: %u\n", key,
				     version, open);
	struct store_txn t;
	int ret = -1;

	if (store_txn_begin(&t, s->name, "count") == 0 &&
	    store_txn_write(&t, COUNT_FILE, text, strlen(text)) == 0 &&
	    store_txn_commit(&t) == 0)
		ret = 0;
	store_txn_abort(&t);
	g_free(text);
	return ret;
}

/* The key before the count: inputs that change meanwhile change the key. */
static unsigned count_get(struct series *s, bool use_kept, bool *unreadable,
			  int *written)
{
	GArray *versions = series_versions(s);
	int v = versions->len ? g_array_index(versions, int, versions->len - 1) : 0;
	char *key = count_key(s, versions);
	unsigned open;

	*unreadable = false;
	*written = 0;
	if (!use_kept || !count_read(s, key, v, &open)) {
		open = count_compute(s, v, unreadable);
		/* a store one may not write (a read-only checkout): not kept */
		if (!*unreadable && access(s->dir, W_OK) == 0)
			*written = count_write(s, key, v, open);
		/* refused (a symbolic link there): said once, and it fails */
		if (*written < 0)
			*unreadable = true;
	}
	g_free(key);
	g_array_unref(versions);
	return open;
}

unsigned feedback_open_count(struct series *s, bool *unreadable)
{
	int written;

	return count_get(s, true, unreadable, &written);
}

int feedback_open_update(struct series *s)
{
	bool unreadable;
	int written;

	count_get(s, false, &unreadable, &written);
	return unreadable || written < 0 ? -1 : 0;
}
