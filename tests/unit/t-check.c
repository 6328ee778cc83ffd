// SPDX-License-Identifier: GPL-2.0-only
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "check.h"
#include "check-cache.h"
#include "series.h"
#include "stage.h"
#include "util.h"

/* The pipeline order DESIGN.md §4 describes, apply first. */
static void test_table_order(void **state)
{
	static const char *const order[] = {
		"apply", "format", "provenance", "checkpatch", "build",
		"sparse", "cocci", "rust", "kunit", "model", "vm", "perf",
		"feedback", "mail",
	};

	(void)state;
	assert_int_equal(check_nr_stages, G_N_ELEMENTS(order));
	for (size_t i = 0; i < check_nr_stages; i++) {
		assert_string_equal(check_stages[i].name, order[i]);
		assert_non_null(check_stages[i].fn);
		assert_ptr_equal(check_stage_find(order[i]), &check_stages[i]);
	}
	assert_null(check_stage_find("nope"));
	assert_null(check_stage_find(""));
}

static void test_table_rows(void **state)
{
	(void)state;
	/* apply is first, the only first, and reads nothing but commits */
	assert_true(check_stages[0].flags & CHECK_F_FIRST);
	assert_int_equal(check_stages[0].inputs, 0);
	for (size_t i = 0; i < check_nr_stages; i++) {
		const struct check_stage *st = &check_stages[i];

		if (i)
			assert_false(st->flags & CHECK_F_FIRST);
		/* every name once */
		for (size_t k = i + 1; k < check_nr_stages; k++)
			assert_string_not_equal(st->name, check_stages[k].name);
		/* what b4 review waits for names the patch it concerns */
		if (st->flags & CHECK_F_B4)
			assert_true(st->flags & CHECK_F_PER_PATCH);
		/* every stage after apply reads something of its own */
		if (i)
			assert_int_not_equal(st->inputs, 0);
	}
	assert_int_equal(check_stage_find("checkpatch")->inputs, CHECK_IN_MAILS);
	assert_int_equal(check_stage_find("cocci")->inputs, CHECK_IN_COCCI);
	assert_true(check_stage_find("kunit")->inputs & CHECK_IN_KUNIT);
	assert_true(check_stage_find("vm")->inputs & CHECK_IN_SCRIPTS);
	assert_true(check_stage_find("provenance")->inputs & CHECK_IN_SERIES);
	assert_true(check_stage_find("mail")->inputs & CHECK_IN_MAINTAINERS);
	assert_true(check_stage_find("format")->flags & CHECK_F_B4);
	assert_false(check_stage_find("build")->flags & CHECK_F_B4);
	assert_true(check_stage_find("build")->flags & CHECK_F_PER_PATCH);
}

static void put(const char *dir, const char *name, const char *text)
{
	char *p = g_build_filename(dir, name, NULL);

	assert_int_equal(mkdir_p(dir), 0);
	assert_int_equal(write_file_atomic(p, text, strlen(text)), 0);
	g_free(p);
}

struct keys {
	char *checkpatch, *cocci, *kunit, *model;
};

static void keys_of(struct check_ctx *ctx, struct keys *k)
{
	k->checkpatch = check_cache_key(ctx, check_stage_find("checkpatch"));
	k->cocci = check_cache_key(ctx, check_stage_find("cocci"));
	k->kunit = check_cache_key(ctx, check_stage_find("kunit"));
	k->model = check_cache_key(ctx, check_stage_find("model"));
}

static void keys_free(struct keys *k)
{
	g_free(k->checkpatch);
	g_free(k->cocci);
	g_free(k->kunit);
	g_free(k->model);
}

#define SAME(a, b, f) assert_string_equal((a)->f, (b)->f)
#define DIFF(a, b, f) assert_string_not_equal((a)->f, (b)->f)

/*
 * The store at top with series x (its files already put) loaded into s,
 * and ctx a check of its version on one commit over a fixed base, with
 * the kernel and cocci inputs at kdir and cdir.
 */
static void key_ctx(struct check_ctx *ctx, struct series *s, const char *top,
		    int version, char *kdir, char *cdir)
{
	g_setenv("KSERIES_CACHE", top, TRUE);
	g_unsetenv("KSERIES_KUNIT_RUNS");
	store_set_top(top);
	assert_int_equal(series_load("x", s), 0);
	ctx->s = s;
	ctx->version = version;
	ctx->kernel_dir = kdir;
	ctx->cocci_dir = cdir;
	ctx->base = g_strdup("1111111111111111111111111111111111111111");
	ctx->commits = g_ptr_array_new_with_free_func(g_free);
	g_ptr_array_add(ctx->commits,
			g_strdup("2222222222222222222222222222222222222222"));
}

/*
 * A stage's key changes with its own inputs (CHECK_IN_*) and with the
 * commits, never with another stage's inputs.
 */
static void test_cache_key(void **state)
{
	char *top = g_dir_make_tmp("t-check-XXXXXX", NULL);
	char *sdir = g_build_filename(top, "series", "x", NULL);
	char *v1 = g_build_filename(sdir, "v1", NULL);
	char *kdir = g_build_filename(top, "kernel", NULL);
	char *cdir = g_build_filename(top, "cocci", NULL);
	char *mdir = g_build_filename(sdir, "model", NULL);
	struct keys k0, k1, k2, k3, k4, k5;
	struct check_ctx ctx = { 0 };
	struct series s;

	(void)state;
	put(sdir, "series.conf", "[series]\n\ttitle = x\n");
	put(v1, "0001-x.patch", "Subject: [PATCH] x\n\nbody\n");
	put(kdir, "kbuild", "#!/bin/sh\n");
	put(cdir, "rule.cocci", "@@\n@@\n");
	put(mdir, "check", "#!/bin/sh\n");
	key_ctx(&ctx, &s, top, 1, kdir, cdir);

	keys_of(&ctx, &k0);
	/* the key is a function of its inputs: asked again, the same */
	keys_of(&ctx, &k1);
	SAME(&k0, &k1, checkpatch);
	SAME(&k0, &k1, cocci);
	SAME(&k0, &k1, kunit);
	/* not one key for two stages */
	assert_string_not_equal(k0.checkpatch, k0.cocci);
	assert_string_not_equal(k0.kunit, k0.model);
	keys_free(&k1);

	/* a rule: cocci's key only */
	put(cdir, "rule.cocci", "@@\nexpression E;\n@@\n");
	keys_of(&ctx, &k2);
	DIFF(&k0, &k2, cocci);
	SAME(&k0, &k2, checkpatch);
	SAME(&k0, &k2, kunit);
	SAME(&k0, &k2, model);

	/* the mails: checkpatch's, not cocci's or kunit's */
	put(v1, "0001-x.patch", "Subject: [PATCH] x\n\nother body\n");
	keys_of(&ctx, &k3);
	DIFF(&k2, &k3, checkpatch);
	SAME(&k2, &k3, cocci);
	SAME(&k2, &k3, kunit);

	/* a workbench script: the kernel stages', not checkpatch's */
	put(kdir, "kbuild", "#!/bin/sh\nexit 0\n");
	keys_of(&ctx, &k4);
	DIFF(&k3, &k4, kunit);
	SAME(&k3, &k4, checkpatch);
	SAME(&k3, &k4, cocci);
	SAME(&k3, &k4, model);

	/* the commits: every stage's */
	g_free(ctx.commits->pdata[0]);
	ctx.commits->pdata[0] =
		g_strdup("3333333333333333333333333333333333333333");
	keys_of(&ctx, &k5);
	DIFF(&k4, &k5, checkpatch);
	DIFF(&k4, &k5, cocci);
	DIFF(&k4, &k5, kunit);
	DIFF(&k4, &k5, model);

	keys_free(&k0);
	keys_free(&k2);
	keys_free(&k3);
	keys_free(&k4);
	keys_free(&k5);
	g_ptr_array_unref(ctx.commits);
	g_free(ctx.base);
	series_release(&s);
	assert_int_equal(remove_tree(top), 0);
	g_free(top);
	g_free(sdir);
	g_free(v1);
	g_free(kdir);
	g_free(cdir);
	g_free(mdir);
}

/*
 * version.N.kunit-against: in the kunit stage's key with the earlier
 * version's mails, and only there; a version without it keeps its key.
 */
static void test_kunit_against_key(void **state)
{
	char *top = g_dir_make_tmp("t-check-XXXXXX", NULL);
	char *sdir = g_build_filename(top, "series", "x", NULL);
	char *v1 = g_build_filename(sdir, "v1", NULL);
	char *v2 = g_build_filename(sdir, "v2", NULL);
	char *kdir = g_build_filename(top, "kernel", NULL);
	char *k0, *k1, *k2, *k3, *k4, *c0, *c1;
	struct check_ctx ctx = { 0 };
	struct series s;

	(void)state;
	put(sdir, "series.conf", "[series]\n\ttitle = x\n");
	put(v1, "0001-x.patch", "Subject: [PATCH] x\n\nold\n");
	put(v2, "0001-t.patch", "Subject: [PATCH 1/2] t\n\ntest\n");
	put(v2, "0002-x.patch", "Subject: [PATCH 2/2] x\n\nfix\n");
	put(kdir, "kbuild", "#!/bin/sh\n");
	key_ctx(&ctx, &s, top, 2, kdir, kdir);

	k0 = check_cache_key(&ctx, check_stage_find("kunit"));
	c0 = check_cache_key(&ctx, check_stage_find("checkpatch"));
	assert_int_equal(series_version_set(&s, 2, "kunit-against", "1:1"), 0);
	k1 = check_cache_key(&ctx, check_stage_find("kunit"));
	assert_string_not_equal(k0, k1);
	/* another range: another key */
	assert_int_equal(series_version_set(&s, 2, "kunit-against", "1:1-1"),
			 0);
	k2 = check_cache_key(&ctx, check_stage_find("kunit"));
	assert_string_not_equal(k1, k2);
	/* the earlier version's mail: the kunit key, not checkpatch's */
	put(v1, "0001-x.patch", "Subject: [PATCH] x\n\nold, reworded\n");
	k3 = check_cache_key(&ctx, check_stage_find("kunit"));
	assert_string_not_equal(k2, k3);
	assert_int_equal(series_version_unset(&s, 2, "kunit-against"), 0);
	c1 = check_cache_key(&ctx, check_stage_find("checkpatch"));
	assert_string_equal(c0, c1);
	/* without the setting, v1's mail is no input: the key it had */
	k4 = check_cache_key(&ctx, check_stage_find("kunit"));
	assert_string_equal(k0, k4);

	g_free(k0);
	g_free(k1);
	g_free(k2);
	g_free(k3);
	g_free(k4);
	g_free(c0);
	g_free(c1);
	g_ptr_array_unref(ctx.commits);
	g_free(ctx.base);
	series_release(&s);
	assert_int_equal(remove_tree(top), 0);
	g_free(top);
	g_free(sdir);
	g_free(v1);
	g_free(v2);
	g_free(kdir);
}

static void test_severity_status(void **state)
{
	static const enum severity all[] = { SEV_NOTE, SEV_CHECK, SEV_WARNING,
					     SEV_ERROR };
	struct stage_result r;

	(void)state;
	assert_int_equal(severity_status(SEV_ERROR), ST_FAIL);
	assert_int_equal(severity_status(SEV_WARNING), ST_WARN);
	assert_int_equal(severity_status(SEV_CHECK), ST_WARN);
	assert_int_equal(severity_status(SEV_NOTE), ST_WARN);
	for (size_t i = 0; i < G_N_ELEMENTS(all); i++)
		assert_int_equal(severity_parse(severity_name(all[i])),
				 (int)all[i]);
	assert_int_equal(severity_parse("fatal"), -1);
	assert_int_equal(severity_parse(NULL), -1);

	/* no finding: the stage passes */
	stage_result_init(&r, "format");
	stage_result_settle(&r);
	assert_int_equal(r.status, ST_PASS);
	/* a note warns; an error after it fails */
	stage_finding(&r, "format", AT("a.c", 3, 1), SEV_NOTE, "n");
	stage_result_settle(&r);
	assert_int_equal(r.status, ST_WARN);
	r.status = ST_PASS;
	stage_finding(&r, "format", AT(NULL, 0, 0), SEV_ERROR, "e %d", 2);
	stage_result_settle(&r);
	assert_int_equal(r.status, ST_FAIL);
	/* an error before a warning still fails */
	stage_result_release(&r);
	stage_result_init(&r, "format");
	stage_finding(&r, "format", AT("", 0, 0), SEV_ERROR, "e");
	stage_finding(&r, "format", AT("", 0, 0), SEV_WARNING, "w");
	stage_result_settle(&r);
	assert_int_equal(r.status, ST_FAIL);
	/* a stage that said why it skipped keeps its status */
	r.status = ST_SKIP;
	stage_result_settle(&r);
	assert_int_equal(r.status, ST_SKIP);
	stage_result_release(&r);
}

/*
 * checkpatch's --terse --show-types lines, as the checkpatch and mail
 * stages read them: only "FILE:LINE: SEVERITY:TYPE: message" counts.
 */
static void test_checkpatch_parse(void **state)
{
	const char *out =
		"/tmp/x/0001-a-b.patch:12: WARNING:LONG_LINE: line length of 101 exceeds 100 columns\n"
		"Must be run from the top-level dir. of a kernel tree\n"
		"/tmp/x/0001-a-b.patch:x: ERROR:FOO: no line number\n"
		"/tmp/x/0002-c.patch:3: CHECK:PARENTHESIS_ALIGNMENT: Alignment should match open parenthesis\n"
		"/tmp/x/0002-c.patch:40: ERROR:MISSING_SIGN_OFF: Missing Signed-off-by: line(s)\n"
		"total: 1 errors, 1 warnings, 1 checks, 9 lines checked\n";
	GPtrArray *found;
	const struct checkpatch_line *l;

	(void)state;
	found = checkpatch_parse(out);
	assert_int_equal(found->len, 3);
	l = found->pdata[0];
	assert_string_equal(l->file, "/tmp/x/0001-a-b.patch");
	assert_int_equal(l->line, 12);
	assert_int_equal(l->sev, SEV_WARNING);
	assert_string_equal(l->message,
			    "LONG_LINE: line length of 101 exceeds 100 columns");
	l = found->pdata[1];
	assert_string_equal(l->file, "/tmp/x/0002-c.patch");
	assert_int_equal(l->line, 3);
	assert_int_equal(l->sev, SEV_CHECK);
	l = found->pdata[2];
	assert_int_equal(l->line, 40);
	assert_int_equal(l->sev, SEV_ERROR);
	assert_string_equal(l->message,
			    "MISSING_SIGN_OFF: Missing Signed-off-by: line(s)");
	g_ptr_array_unref(found);
	found = checkpatch_parse("");
	assert_int_equal(found->len, 0);
	g_ptr_array_unref(found);
}

/* The severity survives the cache; a position is a position. */
static void test_finding_json(void **state)
{
	struct stage_result r, back;
	const struct finding *f;
	json_t *j;

	(void)state;
	stage_result_init(&r, "checkpatch");
	stage_finding(&r, "checkpatch", AT("0001-x.patch", 14, 1), SEV_CHECK,
		      "  Alignment should match open parenthesis \n");
	j = stage_result_to_json(&r);
	stage_result_init(&back, "checkpatch");
	assert_int_equal(stage_result_from_json(j, &back), 0);
	assert_int_equal(back.findings->len, 1);
	f = back.findings->pdata[0];
	assert_int_equal(f->sev, SEV_CHECK);
	assert_string_equal(severity_name(f->sev), "check");
	assert_string_equal(f->file, "0001-x.patch");
	assert_int_equal(f->line, 14);
	assert_int_equal(f->patch, 1);
	assert_string_equal(f->message,
			    "Alignment should match open parenthesis");
	/* an unknown severity is not a result: the stage runs again */
	json_object_set_new(json_array_get(json_object_get(j, "findings"), 0),
			    "severity", json_string("fatal"));
	stage_result_release(&back);
	stage_result_init(&back, "checkpatch");
	assert_int_equal(stage_result_from_json(j, &back), -1);
	json_decref(j);
	stage_result_release(&back);
	stage_result_release(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_table_order),
		cmocka_unit_test(test_table_rows),
		cmocka_unit_test(test_cache_key),
		cmocka_unit_test(test_kunit_against_key),
		cmocka_unit_test(test_severity_status),
		cmocka_unit_test(test_finding_json),
		cmocka_unit_test(test_checkpatch_parse),
	};

	return cmocka_run_group_tests_name("check", tests, NULL, NULL);
}
