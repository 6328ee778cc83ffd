// SPDX-License-Identifier: GPL-2.0-only
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <string.h>
#include <cmocka.h>

#include "patch.h"

static const char simple[] =
	"Subject: x\n\nmessage\n---\n a.c | 2 +-\n\n"
	"diff --git a/dir/a.c b/dir/a.c\n"
	"index 1111111..2222222 100644\n"
	"--- a/dir/a.c\n"
	"+++ b/dir/a.c\n"
	"@@ -10,4 +10,5 @@ int f(void)\n"
	" \tint x;\n"
	"-\tx = 1;\n"
	"+\tx = 2;\n"
	"+\ty = 3;\n"
	"\n"
	" \treturn x;\n"
	"@@ -40 +41 @@\n"
	"-old\n"
	"+new\n"
	"-- \n"
	"2.43.0\n";

static void test_simple(void **state)
{
	struct patch p;
	const struct patch_file *f;
	const struct patch_line *l;

	patch_init(&p);
	assert_int_equal(patch_parse(&p, simple, strlen(simple)), 1);
	f = p.files->pdata[0];
	assert_string_equal(f->path, "dir/a.c");
	assert_string_equal(f->old_path, "dir/a.c");
	assert_false(f->is_new);
	assert_int_equal(f->nr_hunks, 2);
	assert_int_equal(p.lines->len, 8);
	l = &g_array_index(p.lines, struct patch_line, 1);
	assert_int_equal(l->kind, '-');
	assert_int_equal(l->old_line, 11);
	assert_int_equal(l->new_line, 0);
	l = &g_array_index(p.lines, struct patch_line, 3);
	assert_int_equal(l->kind, '+');
	assert_int_equal(l->new_line, 12);
	/* the blank line is context (its space was eaten by a mailer) */
	l = &g_array_index(p.lines, struct patch_line, 4);
	assert_int_equal(l->kind, ' ');
	assert_int_equal(l->old_line, 12);
	assert_int_equal(l->new_line, 13);
	l = &g_array_index(p.lines, struct patch_line, 7);
	assert_int_equal(l->kind, '+');
	assert_int_equal(l->new_line, 41);
	assert_memory_equal(l->text, "new", 3);
	assert_true(p.diff_start > 0);
	assert_memory_equal(p.buf + p.diff_start, "diff --git", 10);
	patch_release(&p);
}

static const char kinds[] =
	"diff --git a/new.c b/new.c\n"
	"new file mode 100644\n"
	"index 0000000..1111111\n"
	"--- /dev/null\n"
	"+++ b/new.c\n"
	"@@ -0,0 +1 @@\n"
	"+int a;\n"
	"diff --git a/gone.c b/gone.c\n"
	"deleted file mode 100644\n"
	"--- a/gone.c\n"
	"+++ /dev/null\n"
	"@@ -1 +0,0 @@\n"
	"-int b;\n"
	"diff --git a/old name.c b/new name.c\n"
	"similarity index 90%\n"
	"rename from old name.c\n"
	"rename to new name.c\n"
	"diff --git a/img.png b/img.png\n"
	"index 1..2 100644\n"
	"Binary files a/img.png and b/img.png differ\n"
	"diff --git \"a/../../etc/\\tpasswd\" \"b/../../etc/\\tpasswd\"\n"
	"old mode 100644\n"
	"new mode 100755\n";

static void test_kinds(void **state)
{
	struct patch p;
	const struct patch_file *f;

	patch_init(&p);
	assert_int_equal(patch_parse(&p, kinds, strlen(kinds)), 5);
	f = p.files->pdata[0];
	assert_true(f->is_new);
	assert_null(f->old_path);
	assert_string_equal(f->path, "new.c");
	f = p.files->pdata[1];
	assert_true(f->is_deleted);
	assert_null(f->new_path);
	assert_string_equal(f->path, "gone.c");
	f = p.files->pdata[2];
	assert_true(f->is_rename);
	assert_string_equal(f->old_path, "old name.c");
	assert_string_equal(f->new_path, "new name.c");
	assert_string_equal(f->path, "new name.c");
	f = p.files->pdata[3];
	assert_true(f->is_binary);
	/* hostile names are data, kept as the diff spells them */
	f = p.files->pdata[4];
	assert_string_equal(f->path, "../../etc/\tpasswd");
	assert_non_null(patch_find_file(&p, "gone.c"));
	assert_null(patch_find_file(&p, "nope.c"));
	patch_release(&p);
}

static void test_plain_diff_and_none(void **state)
{
	static const char plain[] =
		"some text\n--- x.c.orig\t2024-01-01\n+++ x.c\t2024-01-02\n"
		"@@ -1,2 +1,2 @@\n a\n-b\n+c\n";
	static const char prose[] =
		"--- this is not a diff\nand neither is\n@@ this\n";
	struct patch p;

	patch_init(&p);
	assert_int_equal(patch_parse(&p, plain, strlen(plain)), 1);
	assert_string_equal(((struct patch_file *)p.files->pdata[0])->path, "x.c");
	assert_int_equal(p.lines->len, 3);
	patch_release(&p);
	patch_init(&p);
	assert_int_equal(patch_parse(&p, prose, strlen(prose)), 0);
	assert_int_equal(patch_parse(&p, "", 0), 0);
	patch_release(&p);
}

static void test_malformed(void **state)
{
	static const char *const bad[] = {
		"diff --git \n",
		"diff --git \"a/unterminated\n@@ -1 +1 @@\n",
		"--- a\n+++ b\n@@ -99999999999999999999,1 +1 @@\n-x\n",
		"--- a\n+++ b\n@@ -1,5 +1,5 @@\n x\n",	/* short hunk */
		"diff --git a/x b/x\nGIT binary patch\nliteral 5\nzcmV\n\n",
		"diff --git a/x b/x\n@@ -1 +1 @@\n\\ No newline\n+y\n-x\n",
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct patch p;

		patch_init(&p);
		patch_parse(&p, bad[i], strlen(bad[i]));
		patch_release(&p);
	}
}

static void test_unquote(void **state)
{
	static const char q[] = "\"b/caf\\303\\251 \\\"x\\\"\"";
	char *s = patch_unquote_path(q, strlen(q), true);

	assert_string_equal(s, "caf\xc3\xa9 \"x\"");
	g_free(s);
	s = patch_unquote_path("b/x.c\t2024-01-01 10:00", 22, true);
	assert_string_equal(s, "x.c");
	g_free(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_simple),
		cmocka_unit_test(test_kinds),
		cmocka_unit_test(test_plain_diff_and_none),
		cmocka_unit_test(test_malformed),
		cmocka_unit_test(test_unquote),
	};
	return cmocka_run_group_tests_name("patch", tests, NULL, NULL);
}
