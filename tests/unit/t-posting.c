// SPDX-License-Identifier: GPL-2.0-only
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <string.h>
#include <cmocka.h>

#include "posting.h"

static const char diff[] =
	"Fix it.\n"
	"\n"
	"Signed-off-by: A U Thor <author@example.invalid>\n"
	"---\n"
	" foo.c | 2 +-\n"
	"\n"
	"diff --git a/foo.c b/foo.c\n"
	"--- a/foo.c\n"
	"+++ b/foo.c\n"
	"@@ -1 +1 @@\n"
	"-old\n"
	"+new\n";

static enum posting_kind kind_of(const char *subject, const char *body)
{
	struct subject subj;
	enum posting_kind k = posting_classify(subject, body,
					       body ? strlen(body) : 0, &subj,
					       NULL);

	subject_release(&subj);
	return k;
}

static void test_kinds(void **state)
{
	(void)state;
	assert_int_equal(kind_of("[PATCH 1/2] foo: fix it", diff), POSTING_PATCH);
	assert_int_equal(kind_of("[PATCH 0/2] foo: fixes", "Two fixes.\n"),
			 POSTING_COVER);
	/* a reply quoting the diff is a reply, whatever its body holds */
	assert_int_equal(kind_of("Re: [PATCH 1/2] foo: fix it", diff),
			 POSTING_REPLY);
	assert_int_equal(kind_of("foo: fix it", diff), POSTING_REPLY);
	assert_int_equal(kind_of("[RFC PATCH] foo", NULL), POSTING_COVER);
	assert_int_equal(kind_of(NULL, diff), POSTING_REPLY);
	/* a diff needs its hunk: "---" and "+++" alone are prose */
	assert_int_equal(kind_of("[PATCH] foo",
				 "--- a/foo.c\n+++ b/foo.c\nno hunk\n"),
			 POSTING_COVER);
}

static void test_patch_filled(void **state)
{
	struct subject subj;
	struct patch p;

	(void)state;
	assert_int_equal(posting_classify("[PATCH v3 2/5] foo: fix it", diff,
					  strlen(diff), &subj, &p),
			 POSTING_PATCH);
	assert_int_equal(subj.version, 3);
	assert_int_equal(subj.index, 2);
	assert_int_equal(subj.total, 5);
	assert_int_equal(p.files->len, 1);
	assert_string_equal(((struct patch_file *)p.files->pdata[0])->path,
			    "foo.c");
	patch_release(&p);
	subject_release(&subj);
	/* a reply's patch is initialised, and empty */
	assert_int_equal(posting_classify("Re: [PATCH] x", diff, strlen(diff),
					  &subj, &p), POSTING_REPLY);
	assert_int_equal(p.files->len, 0);
	patch_release(&p);
	subject_release(&subj);
}

static void test_index(void **state)
{
	struct subject subj;

	(void)state;
	subject_parse("[PATCH v2] lone", &subj);
	assert_int_equal(posting_index(POSTING_PATCH, &subj), 1);
	assert_int_equal(posting_index(POSTING_COVER, &subj), 0);
	subject_release(&subj);
	subject_parse("[PATCH 0/3] cover", &subj);
	assert_int_equal(posting_index(POSTING_COVER, &subj), 0);
	assert_int_equal(posting_index(POSTING_PATCH, &subj), 0);
	subject_release(&subj);
	subject_parse("[PATCH 3/3] last", &subj);
	assert_int_equal(posting_index(POSTING_PATCH, &subj), 3);
	subject_release(&subj);
}

static void test_files(void **state)
{
	(void)state;
	assert_int_equal(posting_file_kind("0000-cover-letter.patch"),
			 POSTING_COVER);
	assert_int_equal(posting_file_kind("0001-foo-fix-it.patch"),
			 POSTING_PATCH);
	assert_int_equal(posting_file_kind("0012-x.patch"), POSTING_PATCH);
	assert_int_equal(posting_file_kind("thread.mbox"), POSTING_REPLY);
	assert_int_equal(posting_file_kind("001-short.patch"), POSTING_REPLY);
	assert_int_equal(posting_file_kind("00001-long.patch"), POSTING_REPLY);
	assert_int_equal(posting_file_kind(""), POSTING_REPLY);
	assert_string_equal(posting_kind_name(POSTING_PATCH), "patch");
	assert_string_equal(posting_kind_name(POSTING_COVER), "cover");
	assert_string_equal(posting_kind_name(POSTING_REPLY), "reply");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_kinds),
		cmocka_unit_test(test_patch_filled),
		cmocka_unit_test(test_index),
		cmocka_unit_test(test_files),
	};

	return cmocka_run_group_tests_name("posting", tests, NULL, NULL);
}
