// SPDX-License-Identifier: GPL-2.0-only
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "run.h"
#include "series.h"
#include "util.h"

/* A store with one empty series "s"; returns its top. */
static char *make_store(struct series *s)
{
	char *top = g_dir_make_tmp("t-series-XXXXXX", NULL);
	char *dir = g_build_filename(top, "series", "s", NULL);
	char *conf = g_build_filename(dir, "series.conf", NULL);

	assert_int_equal(mkdir_p(dir), 0);
	assert_int_equal(write_file_atomic(conf, "", 0), 0);
	store_set_top(top);
	assert_int_equal(series_load("s", s), 0);
	g_free(conf);
	g_free(dir);
	return top;
}

static void drop_store(struct series *s, char *top)
{
	series_release(s);
	remove_tree(top);
	g_free(top);
}

/* What git config -f reads from the file: `--get-all KEY`, whole. */
static char *git_get_all(const char *path, const char *key)
{
	const char *argv[] = { "git", "config", "-f", path, "-z", "--get-all",
			       key, NULL };
	struct run_opts o = { 0 };
	GString *out = g_string_new(NULL);

	assert_int_equal(run_output(&o, argv, out, NULL), 0);
	return g_string_free(out, FALSE);
}

static void test_value_problem(void **state)
{
	assert_null(conf_value_problem("RFC PATCH"));
	assert_null(conf_value_problem("Arve Hjønnevåg <arve@android.com>"));
	assert_null(conf_value_problem("a\tb"));
	assert_null(conf_value_problem(""));
	assert_string_equal(conf_value_problem("PATCH\nBcc: x@y"), "a line break");
	assert_string_equal(conf_value_problem("x\r"), "a carriage return");
	assert_string_equal(conf_value_problem("a\033[2Jb"), "a control character");
	assert_string_equal(conf_value_problem("a\x7f"), "a control character");
	/* U+0085 NEL, a C1 control */
	assert_string_equal(conf_value_problem("a\xc2\x85"), "a control character");
	assert_string_equal(conf_value_problem("\xff\xfe"), "bytes that are not UTF-8");
}

static void test_parse(void **state)
{
	static const char ok[] =
		"# a comment\n[series]\n\ttitle = binder: a ; \"quoted\" b\n"
		"\tto = A <a@x>\n\tto = B <b@x>\n\tflag\n"
		"[Version \"2\"]\n\tMessage-Id = <m@x>\n";
	static const char nl[] = "[series]\n\tprefix = \"PATCH\\nBcc: evil@x\"\n";
	static const char inc[] = "[include]\n\tpath = /etc/passwd\n";
	static const char bad[] = "[series\n\ttitle = x\n";
	GHashTable *c = conf_parse(ok, sizeof(ok) - 1);
	GPtrArray *to;

	assert_non_null(c);
	to = g_hash_table_lookup(c, "series.to");
	assert_non_null(to);
	assert_int_equal(to->len, 2);
	assert_string_equal(to->pdata[1], "B <b@x>");
	assert_string_equal(((GPtrArray *)g_hash_table_lookup(c,
		"series.title"))->pdata[0], "binder: a");
	assert_string_equal(((GPtrArray *)g_hash_table_lookup(c,
		"series.flag"))->pdata[0], "true");
	/* git's case rules: section and key lowered, subsection kept */
	assert_non_null(g_hash_table_lookup(c, "version.2.message-id"));
	g_hash_table_unref(c);
	assert_null(conf_parse(nl, sizeof(nl) - 1));
	assert_null(conf_parse(inc, sizeof(inc) - 1));
	assert_null(conf_parse(bad, sizeof(bad) - 1));
}

/* Values git config -f reads back as written, whatever their bytes. */
static void test_write_round_trip(void **state)
{
	static const char *const values[] = {
		"plain", "  leading and trailing  ", "semi ; colon", "hash # x",
		"back\\slash \"quotes\"", "tab\there", "Hjønnevåg", "",
	};
	struct series s;
	char *top = make_store(&s);

	for (size_t i = 0; i < G_N_ELEMENTS(values); i++) {
		char *got;

		assert_int_equal(series_set(&s, "series.title", values[i]), 0);
		got = git_get_all(s.conf_path, "series.title");
		assert_string_equal(got, values[i]);
		assert_string_equal(series_get(&s, "series.title"), values[i]);
		g_free(got);
	}
	for (size_t i = 0; i < G_N_ELEMENTS(values); i++)
		assert_int_equal(series_add(&s, "series.cc", values[i]), 0);
	assert_int_equal(series_set(&s, "version.2.message-id", "<m@x>"), 0);
	/* after another section: appended under a header of its own */
	assert_int_equal(series_add(&s, "series.cc", "late"), 0);
	assert_int_equal(series_add(&s, "series.cc", "late"), 0);
	{
		GString *want = g_string_new(NULL);
		char *got = git_get_all(s.conf_path, "series.cc");
		GPtrArray *v = series_get_all(&s, "series.cc");

		for (size_t i = 0; i < G_N_ELEMENTS(values); i++)
			g_string_append_len(want, values[i],
					    (gssize)strlen(values[i]) + 1);
		g_string_append_len(want, "late", 5);
		assert_int_equal(v->len, G_N_ELEMENTS(values) + 1);
		assert_memory_equal(got, want->str, want->len);
		g_string_free(want, TRUE);
		g_free(got);
	}
	drop_store(&s, top);
}

/* Over git's argument limit (128 KiB per argument): in-process, no limit. */
static void test_large_value(void **state)
{
	size_t n = 300 * 1024;
	char *big = g_malloc(n + 1);
	struct series s;
	char *top = make_store(&s);
	char *got;

	for (size_t i = 0; i < n; i++)
		big[i] = "abcdefgh <>@."[i % 13];
	big[n] = '\0';
	assert_int_equal(series_set(&s, "series.title", big), 0);
	assert_string_equal(series_get(&s, "series.title"), big);
	got = git_get_all(s.conf_path, "series.title");
	assert_string_equal(got, big);
	g_free(got);
	assert_int_equal(series_add(&s, "series.cc", big), 0);
	assert_string_equal(series_get(&s, "series.cc"), big);
	g_free(big);
	drop_store(&s, top);
}

static void test_bad_value_refused(void **state)
{
	struct series s;
	char *top = make_store(&s);
	char *before, *after;
	size_t blen, alen;

	assert_int_equal(series_set(&s, "series.prefix", "PATCH"), 0);
	assert_int_equal(read_file(s.conf_path, SIZE_MAX, &before, &blen), 0);
	assert_int_equal(series_set(&s, "series.prefix", "PATCH\nBcc: e@x"), -1);
	assert_int_equal(series_add(&s, "series.to", "a@x\r\nBcc: e@x"), -1);
	assert_int_equal(read_file(s.conf_path, SIZE_MAX, &after, &alen), 0);
	assert_int_equal(alen, blen);
	assert_memory_equal(after, before, blen);
	assert_string_equal(series_get(&s, "series.prefix"), "PATCH");
	g_free(before);
	g_free(after);
	drop_store(&s, top);
}

/* A series.conf that is a symbolic link is neither read nor written through. */
static void test_symlink_refused(void **state)
{
	struct series s;
	char *top = make_store(&s);
	char *target = g_build_filename(top, "outside.conf", NULL);
	GHashTable *c = NULL;
	char *buf;
	size_t len;

	assert_int_equal(write_file_atomic(target, "[series]\n\ttitle = t\n", 20), 0);
	assert_int_equal(unlink(s.conf_path), 0);
	assert_int_equal(symlink(target, s.conf_path), 0);
	assert_int_equal(conf_read(s.conf_path, &c), -1);
	assert_null(c);
	assert_int_equal(series_set(&s, "series.title", "new"), -1);
	assert_int_equal(read_file(target, SIZE_MAX, &buf, &len), 0);
	assert_int_equal(len, 20);
	assert_memory_equal(buf, "[series]\n\ttitle = t\n", 20);
	g_free(buf);
	g_free(target);
	drop_store(&s, top);
}

static void test_parse_spec(void **state)
{
	static const char *const bad[] = {
		"s@3", "s@v", "s@v0", "s@v1x", "s@v10000", "s@v-1", "../s@v1",
		"a/b", "", "@v1", NULL
	};
	char *name;
	int v;

	assert_int_equal(series_parse_spec("binder-x", &name, &v), 0);
	assert_string_equal(name, "binder-x");
	assert_int_equal(v, 0);
	g_free(name);
	assert_int_equal(series_parse_spec("binder-x@v12", &name, &v), 0);
	assert_string_equal(name, "binder-x");
	assert_int_equal(v, 12);
	g_free(name);
	assert_int_equal(series_parse_spec("s@V2", &name, &v), 0);
	assert_int_equal(v, 2);
	g_free(name);
	for (const char *const *b = bad; *b; b++) {
		if (series_parse_spec(*b, &name, &v) == 0)
			fail_msg("accepted '%s'", *b);
		assert_null(name);
	}
}

/* The versions: vN directories and [version "N"] sections, sorted. */
static void test_versions_and_files(void **state)
{
	static const char *const names[] = {
		"0002-b.patch", "0000-cover-letter.patch", "0001-a.patch",
		"0010-j.patch", "notes.txt", "thread.mbox", "0003-c.patch.orig",
		"x001-bad.patch",
	};
	struct series s;
	char *top = make_store(&s);
	GArray *v;
	GPtrArray *f;

	for (int i = 0; i < 3; i++) {
		static const char *const d[] = { "v3", "v1", "vx", };
		char *p = g_build_filename(s.dir, d[i], NULL);

		assert_int_equal(mkdir_p(p), 0);
		g_free(p);
	}
	for (size_t i = 0; i < G_N_ELEMENTS(names); i++) {
		char *p = g_build_filename(s.dir, "v3", names[i], NULL);

		assert_int_equal(write_file_atomic(p, "x", 1), 0);
		g_free(p);
	}
	assert_int_equal(series_version_set(&s, 5, "origin", "posted"), 0);
	assert_int_equal(series_version_set(&s, 3, "origin", "ours"), 0);
	v = series_versions(&s);
	assert_int_equal(v->len, 3);
	assert_int_equal(g_array_index(v, int, 0), 1);
	assert_int_equal(g_array_index(v, int, 1), 3);
	assert_int_equal(g_array_index(v, int, 2), 5);
	g_array_unref(v);
	assert_int_equal(series_latest_version(&s), 5);

	f = series_patch_files(&s, 3, false);
	assert_int_equal(f->len, 3);
	assert_true(g_str_has_suffix(f->pdata[0], "/v3/0001-a.patch"));
	assert_true(g_str_has_suffix(f->pdata[1], "/v3/0002-b.patch"));
	assert_true(g_str_has_suffix(f->pdata[2], "/v3/0010-j.patch"));
	g_ptr_array_unref(f);
	f = series_patch_files(&s, 3, true);
	assert_int_equal(f->len, 4);
	assert_true(g_str_has_suffix(f->pdata[0], "/v3/0000-cover-letter.patch"));
	g_ptr_array_unref(f);
	f = series_patch_files(&s, 7, true);
	assert_int_equal(f->len, 0);
	g_ptr_array_unref(f);
	drop_store(&s, top);
}

/* series_version_get/set: the one accessor of version.N.KEY. */
static void test_version_accessor(void **state)
{
	struct series s;
	char *top = make_store(&s);
	char *got;

	assert_null(series_version_get(&s, 2, "message-id"));
	assert_int_equal(series_version_set(&s, 2, "message-id", "m@x"), 0);
	assert_int_equal(series_version_set(&s, 12, "message-id", "n@x"), 0);
	assert_string_equal(series_version_get(&s, 2, "message-id"), "m@x");
	assert_string_equal(series_get(&s, "version.2.message-id"), "m@x");
	assert_string_equal(series_version_get(&s, 12, "message-id"), "n@x");
	assert_int_equal(series_version_set(&s, 2, "message-id", "m2@x"), 0);
	assert_string_equal(series_version_get(&s, 2, "message-id"), "m2@x");
	got = git_get_all(s.conf_path, "version.2.message-id");
	assert_string_equal(got, "m2@x");
	g_free(got);
	/* a value a header could not carry: refused, nothing written */
	assert_int_equal(series_version_set(&s, 2, "date", "x\nBcc: y"), -1);
	assert_null(series_version_get(&s, 2, "date"));
	/* unset: that version's key only; a key not there is no error */
	assert_int_equal(series_version_unset(&s, 2, "message-id"), 0);
	assert_null(series_version_get(&s, 2, "message-id"));
	assert_true(g_file_get_contents(s.conf_path, &got, NULL, NULL));
	assert_null(strstr(got, "m2@x"));
	assert_non_null(strstr(got, "n@x"));
	g_free(got);
	assert_string_equal(series_version_get(&s, 12, "message-id"), "n@x");
	assert_int_equal(series_version_unset(&s, 2, "message-id"), 0);
	assert_int_equal(series_version_unset(&s, 7, "origin"), 0);
	drop_store(&s, top);
}

static void test_state(void **state)
{
	struct series s, again;
	char *top = make_store(&s);

	assert_int_equal(series_state(&s), SERIES_ACTIVE);
	assert_null(series_state_reason(&s));
	assert_string_equal(series_state_name(SERIES_WITHDRAWN), "withdrawn");
	assert_false(series_check_skips(&s, true, stderr));
	/* refused: nothing written */
	assert_int_equal(series_withdraw(&s, " "), -1);
	assert_int_equal(series_withdraw(&s, "a\nb"), -1);
	assert_null(series_get(&s, "series.state-reason"));
	assert_int_equal(series_withdraw(&s, "no gain"), 0);
	assert_int_equal(series_state(&s), SERIES_WITHDRAWN);
	assert_string_equal(series_state_reason(&s), "no gain");
	assert_true(series_check_skips(&s, true, stderr));
	assert_false(series_check_skips(&s, false, stderr));
	assert_int_equal(series_refuse_withdrawn("s@v1", "format"), -1);
	/* withdrawn without a reason, or an unknown word: not loaded */
	assert_int_equal(series_set(&s, "series.state-reason", ""), 0);
	assert_int_equal(series_load("s", &again), -1);
	assert_int_equal(series_set(&s, "series.state-reason", "r"), 0);
	assert_int_equal(series_set(&s, "series.state", "gone"), 0);
	assert_int_equal(series_load("s", &again), -1);
	assert_int_equal(series_set(&s, "series.state", "active"), 0);
	assert_int_equal(series_load("s", &again), 0);
	assert_int_equal(series_state(&again), SERIES_ACTIVE);
	assert_null(series_state_reason(&again));
	assert_int_equal(series_refuse_withdrawn("s", "format"), 0);
	series_release(&again);
	drop_store(&s, top);
}

static void test_list_names(void **state)
{
	struct series s;
	char *top = make_store(&s);
	GPtrArray *n;

	for (int i = 0; i < 3; i++) {
		static const char *const d[] = { "zeta", "alpha", ".hidden" };
		char *p = g_build_filename(top, "series", d[i], NULL);
		char *c = g_build_filename(p, "series.conf", NULL);

		assert_int_equal(mkdir_p(p), 0);
		assert_int_equal(write_file_atomic(c, "", 0), 0);
		g_free(c);
		g_free(p);
	}
	n = series_list_names();
	assert_true(n->len >= 3);
	assert_string_equal(n->pdata[0], "alpha");
	assert_string_equal(n->pdata[1], "s");
	assert_string_equal(n->pdata[2], "zeta");
	assert_int_equal(n->len, 3);
	g_ptr_array_unref(n);
	drop_store(&s, top);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_value_problem),
		cmocka_unit_test(test_parse),
		cmocka_unit_test(test_write_round_trip),
		cmocka_unit_test(test_large_value),
		cmocka_unit_test(test_bad_value_refused),
		cmocka_unit_test(test_symlink_refused),
		cmocka_unit_test(test_parse_spec),
		cmocka_unit_test(test_versions_and_files),
		cmocka_unit_test(test_version_accessor),
		cmocka_unit_test(test_state),
		cmocka_unit_test(test_list_names),
	};

	return cmocka_run_group_tests_name("series", tests, NULL, NULL);
}
