// SPDX-License-Identifier: GPL-2.0-only
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <string.h>
#include <cmocka.h>

#include "feedback.h"

static struct feedback_item *item(void)
{
	struct feedback_item *it = g_new0(struct feedback_item, 1);

	it->id = g_strdup("0123456789ab");
	it->kind = g_strdup("comment");
	it->version = 2;
	it->message_id = g_strdup("<r@x>");
	it->index = 3;
	/* hostile: header values come from mail */
	it->from = g_strdup("Eve <eve@x>\nStatus: wontfix\r\n\nInjected body");
	it->date = g_strdup("2026-07-23T18:31:05Z");
	it->patch_id = g_strdup("<p@x>");
	it->patch_index = 1;
	it->patch_kind = g_strdup("patch");
	it->patch_subject = g_strdup("x: y");
	it->file = g_strdup("../../etc/passwd");
	it->side = 'o';
	it->line = 42;
	it->quote = g_strdup("-\tint x;");
	it->text = g_strdup("Line one.\n\nFrom: not a header\nline three");
	return it;
}

static void test_roundtrip(void **state)
{
	struct feedback_item *it = item(), *back;
	char *text = feedback_format(it), *again;

	assert_int_equal(feedback_parse(text, strlen(text), &back), 0);
	assert_string_equal(back->id, "0123456789ab");
	assert_int_equal(back->version, 2);
	assert_int_equal(back->index, 3);
	/* the injected header stayed inside From:, on one line */
	assert_null(back->status);
	assert_string_equal(back->from, "Eve <eve@x> Status: wontfix   Injected body");
	assert_string_equal(back->file, "../../etc/passwd");
	assert_int_equal(back->side, 'o');
	assert_int_equal(back->line, 42);
	assert_string_equal(back->quote, "- int x;");
	assert_string_equal(back->text, "Line one.\n\nFrom: not a header\nline three\n");
	assert_int_equal(back->patch_index, 1);
	assert_string_equal(back->patch_kind, "patch");
	/* stable: formatting what was parsed gives the same bytes */
	again = feedback_format(back);
	assert_string_equal(again, text);
	g_free(again);
	g_free(text);
	feedback_item_free(back);
	feedback_item_free(it);
}

static void test_malformed(void **state)
{
	static const char *const bad[] = {
		"",
		"no colon here\n\nbody",
		"Id: 0123456789ab\nKind: comment\n\nno version",
		"Id: x\nKind: comment\nVersion: 99999999999\nMessage-Id: <a>\n\n",
		"Id: x\nKind: comment\nVersion: -1\nMessage-Id: <a>\n\n",
	};
	struct feedback_item *it;

	for (size_t i = 0; i < G_N_ELEMENTS(bad); i++) {
		it = (struct feedback_item *)&it;	/* a stale pointer */
		assert_int_equal(feedback_parse(bad[i], strlen(bad[i]), &it), -1);
		assert_null(it);
	}
	static const char ok[] = "Id: x\nKind: trailer\nVersion: 1\n"
				 "Message-Id: <a>\nLine: zz\nSide: old\n";

	assert_int_equal(feedback_parse(ok, strlen(ok), &it), 0);
	assert_int_equal(it->line, 0);
	assert_string_equal(it->text, "");
	feedback_item_free(it);
}

/* Whatever the mail held, the record fits the readers' limit. */
static void test_size_limit(void **state)
{
	struct feedback_item *it = item(), *back;
	size_t big = 20u << 20;
	char *text, *again;

	g_free(it->text);
	it->text = g_malloc(big + 1);
	memset(it->text, 'x', big);
	for (size_t i = 79; i < big; i += 80)
		it->text[i] = '\n';
	it->text[big] = '\0';
	g_free(it->quote);
	it->quote = g_strnfill(1u << 20, 'q');
	it->applies_to = g_ptr_array_new_with_free_func(g_free);
	for (int i = 0; i < 100; i++)
		g_ptr_array_add(it->applies_to, g_strnfill(60000, 'a'));
	text = feedback_format(it);
	assert_true(strlen(text) <= FEEDBACK_MAX_RECORD);
	assert_non_null(strstr(text, "bytes kept, the rest truncated]\n"));
	assert_int_equal(feedback_parse(text, strlen(text), &back), 0);
	assert_int_equal(strlen(back->quote), FEEDBACK_MAX_VALUE);
	/* a cut record formats to itself, with an override too */
	again = feedback_format(back);
	assert_string_equal(again, text);
	g_free(again);
	back->status = g_strdup("wontfix");
	back->note = g_strnfill(1u << 20, 'n');
	again = feedback_format(back);
	assert_true(strlen(again) <= FEEDBACK_MAX_RECORD);
	assert_non_null(g_strrstr(again, "bytes kept, the rest truncated]\n"));
	assert_null(strstr(strstr(again, "bytes kept") + 1, "bytes kept"));
	g_free(again);
	feedback_item_free(back);
	g_free(text);
	feedback_item_free(it);
}

static void test_status_names(void **state)
{
	assert_int_equal(feedback_status_parse("addressed"), FB_ADDRESSED);
	assert_int_equal(feedback_status_parse("wontfix"), FB_WONTFIX);
	assert_int_equal(feedback_status_parse("unknown"), -1);
	assert_int_equal(feedback_status_parse("fixed"), -1);
	assert_string_equal(feedback_status_name(FB_OUTDATED), "outdated");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_roundtrip),
		cmocka_unit_test(test_malformed),
		cmocka_unit_test(test_size_limit),
		cmocka_unit_test(test_status_names),
	};
	return cmocka_run_group_tests_name("feedback", tests, NULL, NULL);
}
