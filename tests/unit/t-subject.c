// SPDX-License-Identifier: GPL-2.0-only
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <string.h>
#include <cmocka.h>

#include "subject.h"

static void check(const char *s, bool reply, bool patch, bool rfc, int v,
		  int k, int n, const char *prefix, const char *title)
{
	struct subject subj;

	subject_parse(s, &subj);
	assert_int_equal(subj.reply, reply);
	assert_int_equal(subj.patch, patch);
	assert_int_equal(subj.rfc, rfc);
	assert_int_equal(subj.version, v);
	assert_int_equal(subj.index, k);
	assert_int_equal(subj.total, n);
	assert_string_equal(subj.prefix, prefix);
	assert_string_equal(subj.title, title);
	subject_release(&subj);
}

static void test_plain_tags(void **state)
{
	check("[PATCH] x: y", false, true, false, 1, 0, 1, "PATCH", "x: y");
	check("[PATCH v2] rust_binder: add TF_DEFER_COMPLETE flag", false,
	      true, false, 2, 0, 1, "PATCH", "rust_binder: add TF_DEFER_COMPLETE flag");
	check("[RFC PATCH 0/1] binder: switch alloc->mutex back to spinlock",
	      false, true, true, 1, 0, 1, "RFC PATCH",
	      "binder: switch alloc->mutex back to spinlock");
	check("[PATCH net-next v12 03/17] net: z", false, true, false, 12, 3,
	      17, "PATCH net-next", "net: z");
}

static void test_replies(void **state)
{
	check("Re: [PATCH 3/4] binder: add support for PF_LARGE_HANDLES", true,
	      true, false, 1, 3, 4, "PATCH",
	      "binder: add support for PF_LARGE_HANDLES");
	check("RE: AW: Re: [PATCH v3 2/2] a", true, true, false, 3, 2, 2,
	      "PATCH", "a");
	check("Fwd: [PATCH] a", false, true, false, 1, 0, 1, "PATCH", "a");
}

static void test_odd(void **state)
{
	check("[RFC][PATCH 1/2] a", false, true, true, 1, 1, 2, "RFC PATCH", "a");
	check("no tag at all", false, false, false, 1, 0, 1, "", "no tag at all");
	check("[PATCH 5/3] bad counter", false, true, false, 1, 0, 1,
	      "PATCH 5/3", "bad counter");
	check("[unclosed PATCH", false, false, false, 1, 0, 1, "",
	      "[unclosed PATCH");
	check("", false, false, false, 1, 0, 1, "", "");
	check("[PATCH v0] zero", false, true, false, 1, 0, 1, "PATCH v0", "zero");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_plain_tags),
		cmocka_unit_test(test_replies),
		cmocka_unit_test(test_odd),
	};

	return cmocka_run_group_tests_name("subject", tests, NULL, NULL);
}
