// SPDX-License-Identifier: GPL-2.0-only
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <string.h>
#include <cmocka.h>

#include "anchor.h"

static const char diff[] =
	"diff --git a/k/a.c b/k/a.c\n"
	"--- a/k/a.c\n"
	"+++ b/k/a.c\n"
	"@@ -10,6 +10,7 @@ static int f(void)\n"
	" {\n"
	"-\tint x = 1;\n"
	"+\tint x = 2;\n"
	"+\tint y = 3;\n"
	" \tif (x)\n"
	" \t\treturn y;\n"
	" }\n"
	"@@ -30,3 +31,4 @@\n"
	" {\n"
	"+\tint z;\n"
	" \treturn 0;\n"
	" }\n"
	"diff --git a/k/b.c b/k/b.c\n"
	"--- a/k/b.c\n"
	"+++ b/k/b.c\n"
	"@@ -1,2 +1,2 @@\n"
	"-\tint x = 1;\n"
	"+\tint x = 5;\n"
	" }\n";

struct fixture {
	struct patch p;
	struct anchor_state st;
};

static int setup(void **state)
{
	struct fixture *f = g_new0(struct fixture, 1);

	patch_init(&f->p);
	patch_parse(&f->p, diff, strlen(diff));
	anchor_init(&f->st, &f->p);
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;

	anchor_release(&f->st);
	patch_release(&f->p);
	g_free(f);
	return 0;
}

static bool feed(struct fixture *f, const char *line, struct anchor *a)
{
	memset(a, 0, sizeof(*a));
	return anchor_feed(&f->st, line, strlen(line), a);
}

static void test_tabs_to_spaces(void **state)
{
	struct fixture *f = *state;
	struct anchor a;

	/* Gmail: tabs became spaces, trailing blanks gone */
	assert_true(feed(f, "+        int y = 3;", &a));
	assert_string_equal(a.file, "k/a.c");
	assert_int_equal(a.side, 'n');
	assert_int_equal(a.line, 12);
	assert_true(feed(f, "-  int x =   1;", &a));
	/* the first "-int x = 1;" after the cursor is in b.c */
	assert_string_equal(a.file, "k/b.c");
	assert_int_equal(a.side, 'o');
	assert_int_equal(a.line, 1);
}

static void test_cursor_and_headers(void **state)
{
	struct fixture *f = *state;
	struct anchor a;

	assert_false(feed(f, "@@ -30,3 +31,4 @@", &a));
	/* a weak line ("}") right after the cursor */
	assert_true(feed(f, " {", &a));
	assert_int_equal(a.line, 31);
	assert_true(feed(f, "+\tint z;", &a));
	assert_int_equal(a.line, 32);
	assert_true(feed(f, " }", &a));
	assert_int_equal(a.line, 34);
	anchor_reset(&f->st);
	assert_false(feed(f, "diff --git a/k/b.c b/k/b.c", &a));
	assert_true(feed(f, " }", &a));
	assert_string_equal(a.file, "k/b.c");
	assert_int_equal(a.line, 2);
}

static void test_no_match(void **state)
{
	struct fixture *f = *state;
	struct anchor a;

	assert_false(feed(f, "", &a));
	assert_false(feed(f, "   ", &a));
	assert_false(feed(f, "+\tint w;", &a));
	assert_false(feed(f, "Signed-off-by: someone", &a));
	assert_false(feed(f, "--- a/k/a.c", &a));
	/* a lone brace far from the cursor does not jump */
	anchor_reset(&f->st);
	assert_false(feed(f, "+}", &a));
	/* unmarked text only continues context after the cursor */
	assert_false(feed(f, "if (x)", &a));
	assert_true(feed(f, "+\tint x = 2;", &a));
	assert_true(feed(f, "+\tint y = 3;", &a));
	assert_true(feed(f, "if (x)", &a));
	assert_int_equal(a.line, 13);
}

static void test_key(void **state)
{
	char *k = anchor_key('+', "\tint  x =\xc2\xa0" "1; ", 14);

	assert_string_equal(k, "+intx=1;");
	g_free(k);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_tabs_to_spaces, setup, teardown),
		cmocka_unit_test_setup_teardown(test_cursor_and_headers, setup, teardown),
		cmocka_unit_test_setup_teardown(test_no_match, setup, teardown),
		cmocka_unit_test(test_key),
	};
	return cmocka_run_group_tests_name("anchor", tests, NULL, NULL);
}
