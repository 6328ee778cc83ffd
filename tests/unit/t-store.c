// SPDX-License-Identifier: GPL-2.0-only
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/file.h>
#include <unistd.h>
#include <cmocka.h>
#include <glib.h>

#include "series.h"
#include "store.h"
#include "util.h"

static char *top;

static char *at(const char *rel)
{
	return g_build_filename(top, "series", rel, NULL);
}

static bool exists(const char *rel)
{
	char *p = at(rel);
	bool ret = access(p, F_OK) == 0;

	g_free(p);
	return ret;
}

static char *slurp(const char *rel)
{
	char *p = at(rel), *buf = NULL;
	size_t len;

	if (read_file(p, 1 << 20, &buf, &len) < 0)
		buf = NULL;
	g_free(p);
	return buf;
}

static void put(const char *rel, const char *text)
{
	char *p = at(rel), *dir = g_path_get_dirname(p);

	assert_int_equal(mkdir_p(dir), 0);
	assert_true(g_file_set_contents(p, text, -1, NULL));
	g_free(dir);
	g_free(p);
}

/* How many staging directories series/ (and series/s/) hold. */
static int stagings(void)
{
	const char *dirs[] = { "", "s" };
	int n = 0;

	for (size_t i = 0; i < G_N_ELEMENTS(dirs); i++) {
		char *p = at(dirs[i]);
		GDir *d = g_dir_open(p, 0, NULL);
		const char *e;

		while (d && (e = g_dir_read_name(d)))
			if (g_str_has_prefix(e, ".import-") ||
			    g_str_has_prefix(e, ".ingest-"))
				n++;
		if (d)
			g_dir_close(d);
		g_free(p);
	}
	return n;
}

/* The store's lock is free: another open file can take it at once. */
static bool lock_free(void)
{
	char *p = at(".kseries.lock");
	int fd = open(p, O_RDWR | O_CREAT | O_CLOEXEC, 0666);
	bool ret = fd >= 0 && flock(fd, LOCK_EX | LOCK_NB) == 0;

	if (fd >= 0)
		close(fd);
	g_free(p);
	return ret;
}

static int setup(void **state)
{
	char *series;

	(void)state;
	top = g_dir_make_tmp("t-store-XXXXXX", NULL);
	series = g_build_filename(top, "series", NULL);
	mkdir_p(series);
	g_free(series);
	store_set_top(top);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	remove_tree(top);
	g_free(top);
	return 0;
}

static void test_new_series(void **state)
{
	struct store_txn t;
	struct series s;
	char *text;

	(void)state;
	assert_int_equal(store_txn_begin(&t, "s", "import"), 0);
	assert_false(store_txn_has_conf(&t));
	assert_int_equal(store_txn_write(&t, "v1/0001-a.patch", "a\n", 2), 0);
	assert_int_equal(store_txn_conf(&t, "series.title", "T", false), 0);
	assert_int_equal(store_txn_version_conf(&t, 1, "origin", "posted"), 0);
	assert_false(lock_free());
	/* nothing shows before the commit */
	assert_false(exists("s"));
	assert_int_equal(stagings(), 1);
	assert_int_equal(store_txn_commit(&t), 0);
	store_txn_abort(&t);	/* a no-op after a commit */
	assert_true(lock_free());
	assert_int_equal(stagings(), 0);
	text = slurp("s/v1/0001-a.patch");
	assert_string_equal(text, "a\n");
	g_free(text);
	assert_int_equal(series_load("s", &s), 0);
	assert_string_equal(series_get(&s, "series.title"), "T");
	assert_string_equal(series_version_get(&s, 1, "origin"), "posted");
	series_release(&s);
}

static void test_abort(void **state)
{
	struct store_txn t;
	char *before = slurp("s/series.conf"), *after;

	(void)state;
	assert_int_equal(store_txn_begin(&t, "s", "import"), 0);
	assert_true(store_txn_has_conf(&t));
	assert_int_equal(store_txn_write(&t, "v2/0001-b.patch", "b\n", 2), 0);
	/* into a directory that is there: beside its file, not over it */
	assert_int_equal(store_txn_write(&t, "v1/0001-a.patch", "c\n", 2), 0);
	store_txn_conf(&t, "series.title", "U", false);
	store_txn_abort(&t);
	assert_false(exists("s/v2"));
	after = slurp("s/v1/0001-a.patch");
	assert_string_equal(after, "a\n");
	g_free(after);
	after = slurp("s/series.conf");
	assert_string_equal(after, before);
	assert_int_equal(stagings(), 0);
	assert_true(lock_free());
	g_free(after);
	g_free(before);
}

static void test_existing_series(void **state)
{
	struct store_txn t;
	struct series s;
	char *text;

	(void)state;
	assert_int_equal(store_txn_begin(&t, "s", "import"), 0);
	assert_int_equal(store_txn_write(&t, "v1/0001-a.patch", "new\n", 4), 0);
	assert_int_equal(store_txn_write(&t, "v2/0001-b.patch", "b\n", 2), 0);
	assert_int_equal(store_txn_write(&t, "v2/0002-c.patch", "c\n", 2), 0);
	store_txn_version_conf(&t, 2, "origin", "posted");
	text = slurp("s/v1/0001-a.patch");
	assert_string_equal(text, "a\n");
	g_free(text);
	assert_int_equal(store_txn_commit(&t), 0);
	text = slurp("s/v1/0001-a.patch");
	assert_string_equal(text, "new\n");
	g_free(text);
	text = slurp("s/v2/0002-c.patch");
	assert_string_equal(text, "c\n");
	g_free(text);
	assert_int_equal(series_load("s", &s), 0);
	assert_string_equal(series_get(&s, "series.title"), "T");
	assert_string_equal(series_version_get(&s, 2, "origin"), "posted");
	series_release(&s);
	assert_int_equal(stagings(), 0);
}

static void test_create_drop(void **state)
{
	struct store_txn t;
	char *text;
	int fd;

	(void)state;
	assert_int_equal(store_txn_begin(&t, "s", "import"), 0);
	/* a file written as it is made, then given up: no empty v3/ */
	fd = store_txn_create(&t, "v3/thread.mbox");
	assert_true(fd >= 0);
	assert_int_equal(store_write_all(fd, "x\n", 2, "thread.mbox"), 0);
	close(fd);
	assert_int_equal(store_txn_drop(&t, "v3/thread.mbox"), 0);
	/* and one over a file that is there */
	fd = store_txn_create(&t, "v1/thread.mbox");
	assert_true(fd >= 0);
	assert_int_equal(store_write_all(fd, "From x\n\nhi\n", 11, "thread.mbox"),
			 0);
	close(fd);
	assert_int_equal(store_txn_commit(&t), 0);
	assert_false(exists("s/v3"));
	text = slurp("s/v1/thread.mbox");
	assert_string_equal(text, "From x\n\nhi\n");
	g_free(text);
}

static void test_stale_staging(void **state)
{
	struct store_txn t;

	(void)state;
	put(".import-AbC123/v1/0001-x.patch", "torn\n");
	put(".ingest-XyZ789/feedback/0123456789ab", "torn\n");
	put("s/.import-Old456/f", "torn\n");
	put("s/.importer", "not staging\n");
	assert_int_equal(stagings(), 3);
	assert_int_equal(store_txn_begin(&t, "s", "ingest"), 0);
	/* and none of its own until it stages a file */
	assert_int_equal(stagings(), 0);
	assert_int_equal(store_txn_write(&t, "v9/x", "x\n", 2), 0);
	assert_int_equal(stagings(), 1);
	store_txn_abort(&t);
	assert_int_equal(stagings(), 0);
	assert_true(exists("s/.importer"));
}

static void test_new_directory_whole(void **state)
{
	struct store_txn t;
	char *text;

	(void)state;
	assert_int_equal(store_txn_begin(&t, "s", "ingest"), 0);
	assert_int_equal(store_txn_write(&t, "feedback/0123456789ab", "r\n", 2), 0);
	assert_int_equal(store_txn_write(&t, "feedback/0123456789ac", "s\n", 2), 0);
	assert_false(exists("s/feedback"));
	assert_int_equal(store_txn_commit(&t), 0);
	text = slurp("s/feedback/0123456789ac");
	assert_string_equal(text, "s\n");
	g_free(text);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_new_series),
		cmocka_unit_test(test_abort),
		cmocka_unit_test(test_existing_series),
		cmocka_unit_test(test_create_drop),
		cmocka_unit_test(test_stale_staging),
		cmocka_unit_test(test_new_directory_whole),
	};

	return cmocka_run_group_tests_name("store", tests, setup, teardown);
}
