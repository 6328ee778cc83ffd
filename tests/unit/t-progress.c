// SPDX-License-Identifier: GPL-2.0-only
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>
#include <glib.h>

#include "progress.h"
#include "run.h"

static void fmt(const char *label, double secs, const char *last,
		unsigned width, const char *want)
{
	char *s = progress_format(label, secs, last, width);

	assert_string_equal(s, want);
	g_free(s);
}

static void test_format(void **state)
{
	fmt("spin v2 build", 83.9, "  CC      drivers/android/binder.o", 0,
	    "kseries: spin v2 build 1m23s: CC      drivers/android/binder.o");
	fmt("spin v2 kunit", 0, NULL, 80, "kseries: spin v2 kunit 0m00s");
	/* cut to the terminal, one column spare for the cursor */
	fmt("a", 5, "0123456789", 24, "kseries: a 0m05s: 01234");
	/* what a patch makes make print cannot move the cursor */
	fmt("x", 1, "\033[2J\033]0;pwned\007ok\tdone", 0,
	    "kseries: x 0m01s: [2J]0;pwnedok done");
	fmt("bad\033label", 1, NULL, 0, "kseries: bad?label 0m01s");
}

/*
 * What progress_begin() .. progress_end() draw on stderr, drawing forced
 * (KSERIES_PROGRESS=1) into a temporary file; each step of feed is fed,
 * then after 0.3 s (the status line is redrawn at most every 0.25 s) a
 * clock tick draws the line. New string.
 */
static char *drawn(const char *const *feed, bool via_child)
{
	char path[] = "/tmp/t-progress-XXXXXX";
	int fd = mkstemp(path), saved = dup(2);
	char *out = NULL;

	assert_true(fd >= 0 && saved >= 0);
	fflush(stderr);
	assert_int_equal(dup2(fd, 2), 2);
	setenv("KSERIES_PROGRESS", "1", 1);
	progress_begin("t");
	for (const char *const *f = feed; *f; f++) {
		if (via_child) {
			const char *argv[] = { "printf", "%s", *f, NULL };
			struct run_opts o = { .capture_out = true };
			struct run_result res;

			assert_int_equal(run_argv(argv, &o, &res), 0);
			assert_string_equal(res.out->str, *f);
			run_result_release(&res);
		} else {
			progress_feed(*f, strlen(*f));
		}
		usleep(300000);
		progress_feed(NULL, 0);
	}
	progress_end();
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	assert_true(g_file_get_contents(path, &out, NULL, NULL));
	close(fd);
	unlink(path);
	return out;
}

static void test_last_line(void **state)
{
	static const char *const feed[] = { "  CC  a.o\n  CC  b", ".o\n\n   \n",
					    "run 1: pass\r", NULL };
	char *s = drawn(feed, false);

	/* the last complete non-empty line, without its indent */
	assert_non_null(strstr(s, "s: CC  a.o\r"));
	assert_non_null(strstr(s, "s: CC  b.o\r"));
	assert_non_null(strstr(s, "s: run 1: pass\r"));
	assert_null(strstr(s, ": CC  b\r"));
	assert_null(run_progress_hook);
	g_free(s);
	/* fed outside a stage: ignored, nothing drawn */
	progress_feed("x\n", 2);
	assert_null(run_progress_hook);
}

static void test_child_output_reaches_it(void **state)
{
	static const char *const feed[] = { "one\ntwo\n", NULL };
	char *s = drawn(feed, true);

	assert_non_null(strstr(s, ": two\r"));
	g_free(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_format),
		cmocka_unit_test(test_last_line),
		cmocka_unit_test(test_child_output_reaches_it),
	};

	return cmocka_run_group_tests_name("progress", tests, NULL, NULL);
}
