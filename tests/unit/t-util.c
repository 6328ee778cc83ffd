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

/* No symlink below the root is followed for writing. */
static void test_write_below_refuses_links(void **state)
{
	char *root = g_dir_make_tmp("t-util-XXXXXX", NULL);
	char *out = g_dir_make_tmp("t-util-out-XXXXXX", NULL);
	char *p, *buf;
	size_t len;
	int fd;

	assert_int_equal(write_file_below(root, "series/a/v1/f", "x\n", 2), 0);
	p = g_build_filename(root, "series/a/v1/f", NULL);
	assert_int_equal(read_file(p, 10, &buf, &len), 0);
	assert_string_equal(buf, "x\n");
	g_free(buf);
	g_free(p);
	/* a directory that is a link */
	p = g_build_filename(root, "series/b", NULL);
	assert_int_equal(symlink(out, p), 0);
	g_free(p);
	assert_int_equal(write_file_below(root, "series/b/series.conf", "x", 1), -1);
	assert_int_equal(open_dir_below(root, "series/b", true), -1);
	assert_int_equal(check_below(root, "series/b/series.conf", S_IFREG), -1);
	assert_int_equal(check_below(root, "series/b", S_IFDIR), -1);
	/* a file that is a link, and the plain writer */
	p = g_build_filename(root, "series/a/v1/g", NULL);
	buf = g_build_filename(out, "target", NULL);
	assert_int_equal(symlink(buf, p), 0);
	assert_int_equal(write_file_below(root, "series/a/v1/g", "x", 1), -1);
	assert_int_equal(write_file_atomic(p, "x", 1), -1);
	assert_false(g_file_test(buf, G_FILE_TEST_EXISTS));
	assert_int_equal(check_below(root, "series/a/v1/g", S_IFREG), -1);
	g_free(buf);
	g_free(p);
	/* going up is refused; absent paths and real ones pass the check */
	assert_int_equal(write_file_below(root, "series/../../x", "x", 1), -1);
	assert_int_equal(check_below(root, "series/a/v1/f", S_IFREG), 0);
	assert_int_equal(check_below(root, "series/a/v1/f", S_IFDIR), -1);
	assert_int_equal(check_below(root, "series/a/v2/f", S_IFREG), 0);
	assert_int_equal(check_below(root, "series/a/v1", S_IFDIR), 0);
	/* a batch: every file there after the commit, no temporary left */
	fd = open_dir_below(root, "series/a/v1", false);
	assert_true(fd >= 0);
	{
		struct write_batch *b = write_batch_new(fd, "v1");
		GDir *d;
		const char *n;
		int files = 0;

		assert_int_equal(write_batch_add(b, "r1", "one\n", 4), 0);
		assert_int_equal(write_batch_add(b, "r2", "two\n", 4), 0);
		assert_int_equal(write_batch_add(b, "g", "x", 1), -1);
		assert_int_equal(write_batch_commit(b), 0);
		assert_int_equal(write_batch_add(b, "r3", "three\n", 6), 0);
		write_batch_free(b);	/* r3 not committed: gone */
		p = g_build_filename(root, "series/a/v1", NULL);
		d = g_dir_open(p, 0, NULL);
		while ((n = g_dir_read_name(d))) {
			assert_null(strstr(n, ".tmp."));
			files++;
		}
		g_dir_close(d);
		assert_int_equal(files, 4);	/* f g r1 r2 */
		g_free(p);
	}
	assert_int_equal(remove_tree(root), 0);
	assert_int_equal(remove_tree(out), 0);
	g_free(root);
	g_free(out);
}

/* Directories made for the store follow the umask, as git's. */
static void test_modes_follow_umask(void **state)
{
	char *root = g_dir_make_tmp("t-util-XXXXXX", NULL);
	mode_t old = umask(002);
	struct stat st;
	char *p, *name;
	int fd;

	assert_int_equal(write_file_below(root, "d/f", "x", 1), 0);
	p = g_build_filename(root, "d", NULL);
	assert_int_equal(stat(p, &st), 0);
	assert_int_equal(st.st_mode & 07777, 0775);
	g_free(p);
	p = g_build_filename(root, "d/f", NULL);
	assert_int_equal(stat(p, &st), 0);
	assert_int_equal(st.st_mode & 07777, 0664);
	g_free(p);
	fd = open_dir_below(root, "d", false);
	name = mkdtemp_at(fd, "d", ".import-");
	assert_non_null(name);
	p = g_build_filename(root, "d", name, NULL);
	assert_int_equal(stat(p, &st), 0);
	assert_int_equal(st.st_mode & 07777, 0775);
	close(fd);
	umask(old);
	g_free(p);
	g_free(name);
	assert_int_equal(remove_tree(root), 0);
	g_free(root);
}

/* Mail inputs: regular files only, and a FIFO does not block. */
static void test_open_regular(void **state)
{
	char *dir = g_dir_make_tmp("t-util-XXXXXX", NULL);
	char *fifo = g_build_filename(dir, "fifo", NULL);
	char *file = g_build_filename(dir, "f", NULL);
	int fd;

	assert_int_equal(mkfifo(fifo, 0600), 0);
	assert_int_equal(open_regular(fifo, NULL), -1);
	assert_int_equal(open_regular(dir, NULL), -1);
	assert_int_equal(g_file_set_contents(file, "x", 1, NULL), TRUE);
	fd = open_regular(file, NULL);
	assert_true(fd >= 0);
	assert_int_equal(fcntl(fd, F_GETFL) & O_NONBLOCK, 0);
	close(fd);
	assert_int_equal(remove_tree(dir), 0);
	g_free(fifo);
	g_free(file);
	g_free(dir);
}

static bool no_b(const char *dir, const char *name, void *data)
{
	assert_non_null(dir);
	(*(int *)data)++;
	return strcmp(name, "b");
}

static void test_dir_names_sorted(void **state)
{
	char *dir = g_dir_make_tmp("t-util-XXXXXX", NULL);
	const char *make[] = { "c", "a", ".hidden", "b", "A" };
	GPtrArray *names;
	int seen = 0;

	(void)state;
	assert_non_null(dir);
	for (size_t i = 0; i < G_N_ELEMENTS(make); i++) {
		char *p = g_build_filename(dir, make[i], NULL);

		assert_int_equal(g_file_set_contents(p, "x", 1, NULL), TRUE);
		g_free(p);
	}
	names = dir_names_sorted(dir, NULL, NULL);
	assert_int_equal(names->len, 5);
	assert_string_equal(names->pdata[0], ".hidden");
	assert_string_equal(names->pdata[1], "A");
	assert_string_equal(names->pdata[2], "a");
	assert_string_equal(names->pdata[3], "b");
	assert_string_equal(names->pdata[4], "c");
	g_ptr_array_unref(names);
	/* the filter sees every entry but "." and "..", keeps what it says */
	names = dir_names_sorted(dir, no_b, &seen);
	assert_int_equal(seen, 5);
	assert_int_equal(names->len, 4);
	assert_string_equal(names->pdata[3], "c");
	g_ptr_array_unref(names);
	assert_int_equal(remove_tree(dir), 0);
	/* a directory that cannot be read: no names */
	names = dir_names_sorted(dir, NULL, NULL);
	assert_int_equal(names->len, 0);
	g_ptr_array_unref(names);
	g_free(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_slugify_as_git),
		cmocka_unit_test(test_safe_component),
		cmocka_unit_test(test_atomic_write),
		cmocka_unit_test(test_atomic_write_sweeps_litter),
		cmocka_unit_test(test_write_below_refuses_links),
		cmocka_unit_test(test_modes_follow_umask),
		cmocka_unit_test(test_open_regular),
		cmocka_unit_test(test_dir_names_sorted),
	};

	return cmocka_run_group_tests_name("util", tests, NULL, NULL);
}
