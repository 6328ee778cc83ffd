// SPDX-License-Identifier: GPL-2.0-only
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <cmocka.h>

#include "util.h"

static void slug(const char *in, const char *want)
{
	char *s = slugify(in);

	assert_string_equal(s, want);
	g_free(s);
}

/* Expected values are what git format-patch names these subjects. */
static void test_slugify_as_git(void **state)
{
	slug("binder: switch alloc->mutex back to spinlock",
	     "binder-switch-alloc-mutex-back-to-spinlock");
	slug("rust_binder: add TF_DEFER_COMPLETE flag",
	     "rust_binder-add-TF_DEFER_COMPLETE-flag");
	slug("locking/rtmutex: Stop spinning", "locking-rtmutex-Stop-spinning");
	slug("...a..b...", ".a.b");
	slug("../../etc/passwd", ".-.-etc-passwd");
	slug("$(rm -rf /); `id`", "rm-rf-id");
	slug("---", "");
	slug("trailing dots...", "trailing-dots");
}

static void test_safe_component(void **state)
{
	assert_true(safe_component("binder-alloc-spinlock"));
	assert_false(safe_component(""));
	assert_false(safe_component("."));
	assert_false(safe_component(".."));
	assert_false(safe_component("a/b"));
	assert_false(safe_component("-rf"));
	assert_false(safe_component("a\nb"));
}

static void test_atomic_write(void **state)
{
	char *dir = g_dir_make_tmp("t-util-XXXXXX", NULL);
	char *path = g_build_filename(dir, "f", NULL);
	char *buf;
	size_t len;
	GDir *d;
	int n = 0;

	assert_non_null(dir);
	assert_int_equal(write_file_atomic(path, "one\n", 4), 0);
	assert_int_equal(write_file_atomic(path, "two\n", 4), 0);
	assert_int_equal(read_file(path, 100, &buf, &len), 0);
	assert_int_equal(len, 4);
	assert_string_equal(buf, "two\n");
	g_free(buf);
	/* no temporary file is left behind */
	d = g_dir_open(dir, 0, NULL);
	while (g_dir_read_name(d))
		n++;
	g_dir_close(d);
	assert_int_equal(n, 1);
	/* a file over the limit is refused */
	assert_int_equal(read_file(path, 3, &buf, &len), -1);
	assert_int_equal(remove_tree(dir), 0);
	assert_false(is_dir(dir));
	/* writing into a missing directory fails cleanly */
	assert_int_equal(write_file_atomic(path, "x", 1), -1);
	g_free(path);
	g_free(dir);
}

static int count_line(const char *line, size_t len, void *data)
{
	int *n = data;

	(*n)++;
	return len == 4 && !memcmp(line, "stop", 4) ? 7 : 0;
}

/* touch -d: a file at path with mtime age seconds ago */
static void make_aged(const char *path, time_t age)
{
	struct timespec ts[2] = { { .tv_sec = time(NULL) - age },
				  { .tv_sec = time(NULL) - age } };

	assert_int_equal(g_file_set_contents(path, "x", 1, NULL), TRUE);
	assert_int_equal(utimensat(AT_FDCWD, path, ts, 0), 0);
}

/* What a killed write left (NAME.tmp.XXXXXX, old) goes; nothing else. */
static void test_atomic_write_sweeps_litter(void **state)
{
	char *dir = g_dir_make_tmp("t-util-XXXXXX", NULL);
	char *path = g_build_filename(dir, "rec", NULL);
	char *old = g_build_filename(dir, "other.tmp.AbC123", NULL);
	char *fresh = g_build_filename(dir, "rec.tmp.Zz9Yy8", NULL);
	char *kept = g_build_filename(dir, "notes.tmp.log", NULL);
	char *odd = g_build_filename(dir, "x.tmp.ab-cde", NULL);

	make_aged(old, 3600);
	make_aged(fresh, 5);		/* a write in flight */
	make_aged(kept, 3600);		/* not the pattern */
	make_aged(odd, 3600);		/* not the pattern */
	assert_int_equal(write_file_atomic(path, "one\n", 4), 0);
	assert_false(g_file_test(old, G_FILE_TEST_EXISTS));
	assert_true(g_file_test(fresh, G_FILE_TEST_EXISTS));
	assert_true(g_file_test(kept, G_FILE_TEST_EXISTS));
	assert_true(g_file_test(odd, G_FILE_TEST_EXISTS));
	assert_true(g_file_test(path, G_FILE_TEST_EXISTS));
	unlink(fresh);
	unlink(kept);
	unlink(odd);
	unlink(path);
	assert_int_equal(rmdir(dir), 0);
	g_free(dir);
	g_free(path);
	g_free(old);
	g_free(fresh);
	g_free(kept);
	g_free(odd);
}

static void test_for_each_line(void **state)
{
	int n = 0;

	assert_int_equal(for_each_line("a\r\nb\nstop\nd", 11, count_line, &n), 7);
	assert_int_equal(n, 3);
	n = 0;
	assert_int_equal(for_each_line("a\nb", 3, count_line, &n), 0);
	assert_int_equal(n, 2);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_slugify_as_git),
		cmocka_unit_test(test_safe_component),
		cmocka_unit_test(test_atomic_write),
		cmocka_unit_test(test_atomic_write_sweeps_litter),
		cmocka_unit_test(test_for_each_line),
	};

	return cmocka_run_group_tests_name("util", tests, NULL, NULL);
}
