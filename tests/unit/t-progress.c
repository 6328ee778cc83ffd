// SPDX-License-Identifier: GPL-2.0-only
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>
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

static void test_last_line(void **state)
{
	setenv("KSERIES_PROGRESS", "0", 1);
	progress_begin("t");
	assert_false(progress_active());
	assert_non_null(run_progress_hook);
	assert_null(progress_last());
	progress_feed("  CC  a.o\n  CC  b", 17);
	assert_string_equal(progress_last(), "CC  a.o");
	progress_feed(".o\n\n   \n", 8);
	assert_string_equal(progress_last(), "CC  b.o");
	progress_feed(NULL, 0);
	progress_feed("run 1: pass\r", 12);
	assert_string_equal(progress_last(), "run 1: pass");
	progress_end();
	assert_null(run_progress_hook);
	assert_null(progress_last());
	/* fed outside a stage: ignored */
	progress_feed("x\n", 2);
	assert_null(progress_last());
}

static void test_child_output_reaches_it(void **state)
{
	static const char *const argv[] = { "printf", "one\\ntwo\\n", NULL };
	struct run_opts o = { .capture_out = true };
	struct run_result res;

	setenv("KSERIES_PROGRESS", "0", 1);
	progress_begin("t");
	assert_int_equal(run_argv(argv, &o, &res), 0);
	assert_string_equal(res.out->str, "one\ntwo\n");
	assert_string_equal(progress_last(), "two");
	run_result_release(&res);
	progress_end();
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
