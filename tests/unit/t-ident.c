// SPDX-License-Identifier: GPL-2.0-only
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "format.h"
#include "ident.h"
#include "util.h"

static void test_placeholder(void **state)
{
	assert_true(ident_is_placeholder("dev@kseries.invalid"));
	assert_true(ident_is_placeholder("kseries@localhost"));
	assert_true(ident_is_placeholder("me@box.localdomain"));
	assert_true(ident_is_placeholder("x@host.localhost"));
	assert_true(ident_is_placeholder("x@invalid"));
	assert_true(ident_is_placeholder("nobody"));
	assert_true(ident_is_placeholder("@example.org"));
	assert_true(ident_is_placeholder(""));
	assert_true(ident_is_placeholder(NULL));
	assert_false(ident_is_placeholder("sam@example.org"));
	assert_false(ident_is_placeholder("Sam@Kernel.ORG"));
	/* an address that merely mentions the word */
	assert_false(ident_is_placeholder("invalid@example.org"));
}

static void test_text_placeholder(void **state)
{
	const char *a = "Signed-off-by: Kseries Developers <dev@kseries.invalid>";
	const char *b = "Link: https://lore.kernel.org/r/1-x@seeds.invalid";
	const char *c = "Signed-off-by: Sam <sam@example.org>";
	const char *d = "From: kseries <KSERIES@LOCALHOST>";

	assert_true(ident_text_has_placeholder(a, strlen(a)));
	assert_true(ident_text_has_placeholder(b, strlen(b)));
	assert_false(ident_text_has_placeholder(c, strlen(c)));
	assert_true(ident_text_has_placeholder(d, strlen(d)));
	/* the length is honoured */
	assert_false(ident_text_has_placeholder(a, 20));
}

/* Documentation/process/coding-assistants.rst's form */
static void test_assisted_by(void **state)
{
	assert_true(ident_assisted_by_ok("Claude:claude-3-opus coccinelle sparse"));
	assert_true(ident_assisted_by_ok("Claude:claude-opus-4.5"));
	assert_false(ident_assisted_by_ok("Claude"));
	assert_false(ident_assisted_by_ok("Claude: claude-3-opus"));
	assert_false(ident_assisted_by_ok("Claude:claude-3-opus  sparse"));
	assert_false(ident_assisted_by_ok("Claude:claude-3-opus sparse\nSigned-off-by: x"));
	assert_false(ident_assisted_by_ok(""));
	assert_false(ident_assisted_by_ok(NULL));
}

static void test_format_and_domain(void **state)
{
	struct ident id = { .name = g_strdup("Sam Sender"),
			    .email = g_strdup("sam@example.org") };
	struct ident bare = { .name = g_strdup(""),
			      .email = g_strdup("sam@example.org") };
	char *s = ident_format(&id);

	assert_string_equal(s, "Sam Sender <sam@example.org>");
	g_free(s);
	s = ident_format(&bare);
	assert_string_equal(s, "<sam@example.org>");
	g_free(s);
	assert_string_equal(ident_domain(&id), "example.org");
	assert_true(ident_same_email("Sam@Example.org", "sam@example.org"));
	assert_false(ident_same_email("", ""));
	ident_release(&id);
	ident_release(&bare);
}

/* b4 writes "[PATCH RFC v2 1/3]": format uses the same order */
static void test_subject_prefix(void **state)
{
	char *p;

	p = format_subject_prefix("RFC PATCH");
	assert_string_equal(p, "PATCH RFC");
	g_free(p);
	p = format_subject_prefix("PATCH");
	assert_string_equal(p, "PATCH");
	g_free(p);
	p = format_subject_prefix("RFC");
	assert_string_equal(p, "PATCH RFC");
	g_free(p);
	p = format_subject_prefix("PATCH net-next");
	assert_string_equal(p, "PATCH net-next");
	g_free(p);
}

/* the sender's sign-off last, once; a placeholder one dropped */
static void test_own_signoff(void **state)
{
	const char *own = "Sam Sender <sam@example.org>";
	GPtrArray *t = g_ptr_array_new_with_free_func(g_free);
	unsigned added;
	char *got;

	g_ptr_array_add(t, g_strdup("Assisted-by: Claude:claude-opus-4"));
	g_ptr_array_add(t, g_strdup("Signed-off-by: Sam Sender <sam@example.org>"));
	got = format_add_trailers("x: y\n\nBody.\n\n"
				  "Signed-off-by: Kseries Developers <dev@kseries.invalid>\n"
				  "Signed-off-by: Sam Sender <sam@example.org>\n"
				  "Reviewed-by: R <r@example.org>\n", t, own, &added);
	assert_string_equal(got, "x: y\n\nBody.\n\n"
				 "Reviewed-by: R <r@example.org>\n"
				 "Assisted-by: Claude:claude-opus-4\n"
				 "Signed-off-by: Sam Sender <sam@example.org>\n");
	assert_int_equal(added, 1);
	g_free(got);
	g_ptr_array_unref(t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_placeholder),
		cmocka_unit_test(test_text_placeholder),
		cmocka_unit_test(test_assisted_by),
		cmocka_unit_test(test_format_and_domain),
		cmocka_unit_test(test_subject_prefix),
		cmocka_unit_test(test_own_signoff),
	};

	return cmocka_run_group_tests_name("ident", tests, NULL, NULL);
}
