// SPDX-License-Identifier: GPL-2.0-only
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <string.h>
#include <cmocka.h>

#include <glib.h>
#include "trailer.h"

static void yes(const char *line, const char *kind, const char *name,
		const char *email, bool series)
{
	struct trailer t;

	assert_true(trailer_parse_line(line, strlen(line), &t));
	assert_string_equal(t.kind, kind);
	assert_string_equal(t.name, name);
	assert_string_equal(t.email, email);
	assert_int_equal(t.for_series, series);
	trailer_release(&t);
}

static void no(const char *line)
{
	struct trailer t;

	assert_false(trailer_parse_line(line, strlen(line), &t));
}

static void test_kinds(void **state)
{
	yes("Reviewed-by: Alice Ryhl <aliceryhl@google.com>", "Reviewed-by",
	    "Alice Ryhl", "aliceryhl@google.com", false);
	yes("acked-by: Greg KH <gregkh@linuxfoundation.org>", "Acked-by",
	    "Greg KH", "gregkh@linuxfoundation.org", false);
	yes("Tested-by: \"Doe, Jane\" <jane@example.org>", "Tested-by",
	    "Doe, Jane", "jane@example.org", false);
	yes("Reported-by: syzbot+1234@syzkaller.appspotmail.com", "Reported-by",
	    "", "syzbot+1234@syzkaller.appspotmail.com", false);
	yes("  Suggested-by: Tim <tim@x.org>  ", "Suggested-by", "Tim",
	    "tim@x.org", false);
	yes("Nacked-by: N <n@x>", "Nacked-by", "N", "n@x", false);
}

static void test_nak(void **state)
{
	struct trailer t;

	assert_true(trailer_parse_line("NAK", 3, &t));
	assert_string_equal(t.kind, "Nacked-by");
	assert_true(t.bare_nak);
	trailer_release(&t);
	assert_true(trailer_parse_line("NAK.", 4, &t));
	trailer_release(&t);
	no("NAK, because this breaks the ABI");
	no("nakamura");
}

static void test_series(void **state)
{
	yes("Reviewed-by: A <a@b> # for the series", "Reviewed-by", "A", "a@b",
	    true);
	yes("Acked-by: A <a@b> for the whole series", "Acked-by", "A", "a@b",
	    true);
	assert_true(trailer_mentions_series("For the series:", 15));
	assert_false(trailer_mentions_series("Looks good", 10));
}

static void test_not_trailers(void **state)
{
	no("Signed-off-by: X <x@y>");
	no("Reviewed-by:");
	no("Reviewed-by:   ");
	no("I reviewed-by hand: nothing");
	no("Fixes: 1234 (\"x\")");
	no("");
}

static void test_person(void **state)
{
	char *n, *e;

	trailer_split_person("<a@b>", 5, &n, &e);
	assert_string_equal(n, "");
	assert_string_equal(e, "a@b");
	g_free(n);
	g_free(e);
	trailer_split_person("a@b (Alice)", 11, &n, &e);
	assert_string_equal(n, "(Alice)");
	assert_string_equal(e, "a@b");
	g_free(n);
	g_free(e);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_kinds),
		cmocka_unit_test(test_nak),
		cmocka_unit_test(test_series),
		cmocka_unit_test(test_not_trailers),
		cmocka_unit_test(test_person),
	};
	return cmocka_run_group_tests_name("trailer", tests, NULL, NULL);
}
