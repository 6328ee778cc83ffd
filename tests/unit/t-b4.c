// SPDX-License-Identifier: GPL-2.0-only
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "b4.h"

/* b4 0.12's send, as it logs a real send and a dry run. */
static void test_count(void **state)
{
	static const char sent[] =
		"Converted the branch to 3 messages\n"
		"---\n"
		"To: Demo List <list@example.org>\n"
		"---\n"
		"  [PATCH 0/2] demo: add two\n"
		"Connecting to 127.0.0.1:2525\n"
		"---\n"
		"Sent 3 messages\n"
		"Tagging sent/two-v1\n"
		"Recording series message-id in cover letter tracking\n"
		"Created new revision v2\n";
	static const char dry[] =
		"Converted the branch to 1 messages\n"
		"    | Subject: Sent 9 messages\n"
		"DRYRUN: Would have sent 1 messages\n";

	assert_int_equal(b4_count(sent, "Converted the branch to"), 3);
	assert_int_equal(b4_count(sent, "Sent"), 3);
	assert_int_equal(b4_count(sent, "DRYRUN: Would have sent"), 0);
	assert_int_equal(b4_count(dry, "DRYRUN: Would have sent"), 1);
	/* only a line that starts with it: a mail's text is not b4's word */
	assert_int_equal(b4_count(dry, "Sent"), 0);
	assert_int_equal(b4_count("Sent three messages\n", "Sent"), 0);
	assert_int_equal(b4_count("Sent 3 mails\n", "Sent"), 0);
	assert_int_equal(b4_count("", "Sent"), 0);
}

static void test_history(void **state)
{
	static const char msg[] =
		"demo: add two\n\nblurb\n\n"
		"--- b4-submit-tracking ---\n"
		"# This section is used internally by b4 prep for tracking purposes.\n"
		"{\n  \"series\": {\n    \"revision\": 3,\n"
		"    \"change-id\": \"20260101-two-0123456789ab\",\n"
		"    \"history\": {\n"
		"      \"v1\": [\"20260101-two-v1-0-aaaa@example.org\"],\n"
		"      \"v2\": [\"first@example.org\", \"resent@example.org\"]\n"
		"    }\n  }\n}\n";
	static const char none[] =
		"demo\n\n--- b4-submit-tracking ---\n"
		"{ \"series\": { \"revision\": 1 } }\n";
	char *id;

	id = b4_history_msgid(msg, 1);
	assert_string_equal(id, "20260101-two-v1-0-aaaa@example.org");
	g_free(id);
	/* the last one of the version's sends */
	id = b4_history_msgid(msg, 2);
	assert_string_equal(id, "resent@example.org");
	g_free(id);
	assert_null(b4_history_msgid(msg, 3));
	assert_null(b4_history_msgid(none, 1));
	assert_null(b4_history_msgid("no tracking at all\n", 1));
	assert_null(b4_history_msgid("--- b4-submit-tracking ---\n{ broken", 1));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_count),
		cmocka_unit_test(test_history),
	};

	return cmocka_run_group_tests_name("b4", tests, NULL, NULL);
}
