// SPDX-License-Identifier: GPL-2.0-only
/*
 * libFuzzer harness: the store's readers, from disk (tools/series.c,
 * tools/feedback.c): the input becomes files of a scratch store (on
 * /dev/shm when there is one) and is read back as kseries reads it.
 *
 * The first byte chooses:
 *   'c'    the rest is series/f/series.conf, read by series_load() (the
 *          reader of the tree: `git config -f`, so a few hundred runs a
 *          second); versions must come out sorted, 1..9999;
 *   else   the rest is up to four feedback records, split at "\n\1\n",
 *          each stored under its own Id (or a made-up one), read by
 *          feedback_load(): a record that does not parse is skipped,
 *          never freed twice; each one loaded has its file's name as Id,
 *          formats within FEEDBACK_MAX_RECORD and to a fixed point; after
 *          'g' its text is also made larger than a record may hold, and
 *          must come back cut, with the note.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "feedback.h"
#include "series.h"
#include "util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char *root;

static void cleanup(void)
{
	if (root)
		remove_tree(root);
}

static void setup(void)
{
	char *series;

	if (root)
		return;
	/* in memory when there is a tmpfs: the disk is not what is fuzzed */
	if (g_file_test("/dev/shm", G_FILE_TEST_IS_DIR) && !access("/dev/shm", W_OK))
		root = g_strdup("/dev/shm/fuzz-store-XXXXXX");
	else
		root = g_build_filename(g_get_tmp_dir(), "fuzz-store-XXXXXX", NULL);
	root = g_mkdtemp(root);
	if (!root)
		abort();
	atexit(cleanup);
	store_set_top(root);
	series = g_build_filename(root, "series", "f", NULL);
	if (g_mkdir_with_parents(series, 0777) < 0)
		abort();
	g_free(series);
	setenv("KSERIES_NO_RANGE_DIFF", "1", 1);
}

static void clear_dir(const char *rel)
{
	char *dir = g_build_filename(root, rel, NULL);

	remove_tree(dir);
	g_free(dir);
}

/*
 * A file of the scratch store, written plainly: the readers are what is
 * fuzzed, and the store's writers sync (a few runs a second).
 */
static void put(const char *rel, const char *buf, size_t len)
{
	char *path = g_build_filename(root, rel, NULL);
	char *dir = g_path_get_dirname(path);
	FILE *fp;

	g_mkdir_with_parents(dir, 0777);
	fp = fopen(path, "w");
	if (!fp || fwrite(buf, 1, len, fp) != len || fclose(fp))
		abort();
	g_free(dir);
	g_free(path);
}

static void conf_case(const char *buf, size_t len)
{
	struct series s;
	GArray *vs;

	clear_dir("series/f");
	put("series/f/series.conf", buf, len);
	if (series_load("f", &s) < 0)
		return;
	vs = series_versions(&s);
	for (guint i = 0; i < vs->len; i++) {
		int n = g_array_index(vs, int, i);

		if (n < 1 || n > 9999 || (i && g_array_index(vs, int, i - 1) >= n))
			abort();
	}
	g_array_unref(vs);
	(void)series_get(&s, "series.title");
	(void)series_get_all(&s, "series.cc");
	series_release(&s);
}

/* The record's own Id when it is one, else one made from its position. */
static char *record_name(const char *buf, size_t len, unsigned n)
{
	const char *p = len >= 16 && !memcmp(buf, "Id: ", 4) ? buf + 4 : NULL;

	if (p) {
		char *id = g_strndup(p, 12);
		bool ok = strlen(id) == 12;

		for (const char *c = id; ok && *c; c++)
			ok = g_ascii_isxdigit(*c) && !g_ascii_isupper(*c);
		if (ok)
			return id;
		g_free(id);
	}
	return g_strdup_printf("%012x", 0xabc000 + n);
}

static void check_item(const struct feedback_item *it, const char *cut)
{
	struct feedback_item *back;
	char *text = feedback_format(it), *again;

	if (strlen(text) > FEEDBACK_MAX_RECORD)
		abort();
	if (cut && !strstr(text, cut))
		abort();
	if (feedback_parse(text, strlen(text), &back) < 0)
		abort();	/* what the writer writes, the reader reads */
	again = feedback_format(back);
	if (strcmp(text, again))
		abort();
	g_free(again);
	g_free(text);
	feedback_item_free(back);
}

static void records_case(const char *buf, size_t len, bool grow)
{
	struct series s = { .name = (char *)"f" };
	const char *p = buf, *end = buf + len;
	GPtrArray *items;

	clear_dir("series/f/feedback");
	for (unsigned n = 0; p <= end && n < 4; n++) {
		const char *sep = memmem(p, (size_t)(end - p), "\n\1\n", 3);
		size_t l = sep ? (size_t)(sep - p) : (size_t)(end - p);
		char *name = record_name(p, l, n);
		char *rel = g_build_filename("series/f/feedback", name, NULL);

		put(rel, p, l);
		g_free(rel);
		g_free(name);
		if (!sep)
			break;
		p = sep + 3;
	}
	s.dir = g_build_filename(root, "series", "f", NULL);
	items = g_ptr_array_new_with_free_func((GDestroyNotify)feedback_item_free);
	feedback_load(&s, items);
	for (guint i = 0; i < items->len; i++) {
		struct feedback_item *it = items->pdata[i];

		if (!it->id || !it->kind || !it->message_id || it->version < 1)
			abort();
		check_item(it, NULL);
		if (grow && it->text) {
			size_t tl = strlen(it->text);
			GString *big = g_string_sized_new(FEEDBACK_MAX_TEXT + tl + 2);

			while (big->len <= FEEDBACK_MAX_TEXT)
				g_string_append(big, tl ? it->text : "x\n");
			g_free(it->text);
			it->text = g_string_free(big, FALSE);
			check_item(it, "bytes kept, the rest truncated]\n");
		}
	}
	g_ptr_array_unref(items);
	g_free(s.dir);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	setup();
	if (!size)
		return 0;
	if (data[0] == 'c')
		conf_case((const char *)data + 1, size - 1);
	else
		records_case((const char *)data + 1, size - 1, data[0] == 'g');
	return 0;
}
