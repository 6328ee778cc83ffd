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
#include "format.h"
#include "recipients.h"
#include "run.h"
#include "series.h"
#include "util.h"

#define IDENT "Sam Sender <sam@example.org>"
#define OWN "Signed-off-by: " IDENT

static void trailers_case(const char *msg, const char *const *add,
			  const char *want, unsigned want_added)
{
	GPtrArray *t = g_ptr_array_new();
	unsigned added = 99;
	char *got;

	for (; add && *add; add++)
		g_ptr_array_add(t, (char *)*add);
	got = format_add_trailers(msg, t, IDENT, &added);
	assert_string_equal(got, want);
	assert_int_equal(added, want_added);
	g_free(got);
	g_ptr_array_unref(t);
}

/* b4's LoreMessage.fix_trailers: after the existing ones, own SoB last */
static void test_trailers_b4_order(void **state)
{
	static const char *const rb[] = {
		"Reviewed-by: Alice Ryhl <aliceryhl@google.com>", NULL };
	static const char *const two[] = {
		"Acked-by: A <a@x>", "Tested-by: T <t@x>", NULL };

	trailers_case("binder: x\n\nBody.\n\nSigned-off-by: Bo <bo@x>\n" OWN "\n",
		      rb,
		      "binder: x\n\nBody.\n\nSigned-off-by: Bo <bo@x>\n"
		      "Reviewed-by: Alice Ryhl <aliceryhl@google.com>\n" OWN "\n",
		      1);
	/* no trailers yet: a new paragraph */
	trailers_case("binder: x\n\nBody.\n", two,
		      "binder: x\n\nBody.\n\nAcked-by: A <a@x>\nTested-by: T <t@x>\n",
		      2);
	/* the subject alone is never a trailer block */
	trailers_case("Fixes: a subject that looks like one\n", two,
		      "Fixes: a subject that looks like one\n\n"
		      "Acked-by: A <a@x>\nTested-by: T <t@x>\n", 2);
	/* own SoB moves to the bottom even when nothing is added */
	trailers_case("x\n\n" OWN "\nCc: stable@vger.kernel.org\n", NULL,
		      "x\n\nCc: stable@vger.kernel.org\n" OWN "\n", 0);
}

static void test_trailers_no_duplicates(void **state)
{
	static const char *const dup[] = {
		"reviewed-by: alice ryhl <ALICERYHL@google.com>",
		"Reviewed-by: Alice Ryhl <aliceryhl@google.com>", OWN, NULL };

	trailers_case("x\n\nBody.\n\nReviewed-by: Alice Ryhl <aliceryhl@google.com>\n"
		      OWN "\n", dup,
		      "x\n\nBody.\n\nReviewed-by: Alice Ryhl <aliceryhl@google.com>\n"
		      OWN "\n", 0);
	/* continuation lines stay with their trailer */
	trailers_case("x\n\nBody.\n\nLink: https://a\n  /b\nSigned-off-by: Bo <bo@x>\n",
		      dup + 1,
		      "x\n\nBody.\n\nLink: https://a\n  /b\nSigned-off-by: Bo <bo@x>\n"
		      "Reviewed-by: Alice Ryhl <aliceryhl@google.com>\n" OWN "\n",
		      2);
}

static const char patch_mail[] =
	"From 0 Mon Sep 17 00:00:00 2001\n"
	"From: A <a@x>\n"
	"Subject: [PATCH v3] x\n"
	"\n"
	"Body.\n"
	"\n"
	"Signed-off-by: A <a@x>\n"
	"---\n"
	"Changes in v3:\n"
	"- one\n"
	"- Link to v2: https://lore.kernel.org/r/v2@x\n"
	"---\n"
	" drivers/android/binder.c | 2 +-\n"
	" 1 file changed, 1 insertion(+), 1 deletion(-)\n"
	"\n"
	"diff --git a/drivers/android/binder.c b/drivers/android/binder.c\n"
	"--- a/drivers/android/binder.c\n"
	"+++ b/drivers/android/binder.c\n";

static void test_patch_notes(void **state)
{
	char *n = format_patch_notes(patch_mail, strlen(patch_mail));
	const char *plain = "From: A <a@x>\n\nBody.\n---\n x.c | 2 +-\n";

	assert_non_null(n);
	assert_string_equal(n, "Changes in v3:\n- one\n"
			       "- Link to v2: https://lore.kernel.org/r/v2@x");
	g_free(n);
	assert_null(format_patch_notes(plain, strlen(plain)));
}

static void test_cover_blurb(void **state)
{
	const char *git = "The blurb.\n\nMore.\n\nA U Thor (2):\n  x: a\n  x: b\n\n"
			  " x.c | 2 +-\n\nbase-commit: 0123\n-- \n2.39.5\n";
	const char *b4 = "The blurb.\n\n---\nA U Thor (1):\n  x: a\n";
	const char *empty = "*** BLURB HERE ***\n\nA (1):\n  x\n";
	char *b;

	b = format_cover_blurb(git, strlen(git));
	assert_string_equal(b, "The blurb.\n\nMore.");
	g_free(b);
	b = format_cover_blurb(b4, strlen(b4));
	assert_string_equal(b, "The blurb.");
	g_free(b);
	b = format_cover_blurb(empty, strlen(empty));
	assert_string_equal(b, "");
	g_free(b);
}

static void test_prev_link(void **state)
{
	char *t;

	t = format_add_prev_link("Blurb.\n\nChanges in v2:\n- a\n- b\n\nMore.", 2,
				 "https://lore.kernel.org/r/v1@x");
	assert_string_equal(t, "Blurb.\n\nChanges in v2:\n- a\n- b\n"
			       "- Link to v1: https://lore.kernel.org/r/v1@x\n\nMore.");
	g_free(t);
	t = format_add_prev_link("Changes in v2:\n- a", 2, "u");
	assert_string_equal(t, "Changes in v2:\n- a\n- Link to v1: u");
	g_free(t);
	/* already there: unchanged */
	t = format_add_prev_link("Changes in v2:\n- Link to v1: u\n", 2, "u");
	assert_string_equal(t, "Changes in v2:\n- Link to v1: u\n");
	g_free(t);
	/* no changes section: one is added */
	t = format_add_prev_link("Blurb.", 3, "u");
	assert_string_equal(t, "Blurb.\n\nChanges in v3:\n- Link to v2: u\n");
	g_free(t);
}

static struct fb_item *item(const char *kind, int version, int patch,
			    const char *status, const char *trailer,
			    const char *text)
{
	struct fb_item *it = g_new0(struct fb_item, 1);

	it->kind = g_strdup(kind);
	it->version = version;
	it->patch = patch;
	it->status = g_strdup(status);
	it->author = g_strdup("Carlos Llamas <cmllamas@google.com>");
	it->message_id = g_strdup("reply@x");
	it->trailer = g_strdup(trailer);
	it->text = g_strdup(text);
	it->at = patch;
	return it;
}

/* v3's two patches: 1 is v2's patch 1 unchanged, 2 changed */
static struct fb_item *v2_trailer(int at, const char *trailer)
{
	struct fb_item *it = item("trailer", 2, at, "open", trailer, "");
	int same[] = { 1, 0 };

	it->same = g_array_new(FALSE, FALSE, sizeof(int));
	g_array_append_vals(it->same, same, 2);
	return it;
}

static void test_draft_changes(void **state)
{
	GPtrArray *items = g_ptr_array_new_with_free_func(
		(GDestroyNotify)fb_item_free);
	char *d;

	g_ptr_array_add(items, item("comment", 2, 1, "addressed", NULL,
				    "This must be !is_empty().\nMore."));
	g_ptr_array_add(items, item("comment", 2, 1, "open", NULL, "Still open."));
	g_ptr_array_add(items, item("comment", 1, 1, "addressed", NULL, "Old."));
	g_ptr_array_add(items, v2_trailer(1,
		"Reviewed-by: Carlos Llamas <cmllamas@google.com>"));
	g_ptr_array_add(items, v2_trailer(1,
		"Nacked-by: Carlos Llamas <cmllamas@google.com>"));
	/* only what format applies: not a tag of a patch that changed */
	g_ptr_array_add(items, v2_trailer(2,
		"Acked-by: Carlos Llamas <cmllamas@google.com>"));
	/* for the series: collected, without a patch number */
	g_ptr_array_add(items, v2_trailer(0,
		"Tested-by: Carlos Llamas <cmllamas@google.com>"));
	d = format_draft_changes(items, 3, "https://lore.kernel.org/r/v2@x");
	assert_string_equal(d,
		"Changes in v3:\n"
		"- 1: address Carlos Llamas's comment \"This must be !is_empty().\"\n"
		"  https://lore.kernel.org/r/reply@x\n"
		"- 1: collect Reviewed-by from Carlos Llamas\n"
		"  https://lore.kernel.org/r/reply@x\n"
		"- collect Tested-by from Carlos Llamas\n"
		"  https://lore.kernel.org/r/reply@x\n"
		"- Link to v2: https://lore.kernel.org/r/v2@x\n");
	g_free(d);
	assert_null(format_draft_changes(items, 5, NULL));
	g_ptr_array_unref(items);
}

static void test_notes_and_recipients(void **state)
{
	const char note[] =
		"Subsystem: x\nTo: Greg <gregkh@linuxfoundation.org>\n"
		"Cc: linux-kernel@vger.kernel.org\nPrefix: binder:\n"
		"Paths: drivers/android/binder*.c include/uapi/linux/android/*\n"
		"Paths: drivers/android/tests/\n\nTo: not@parsed.x\n";
	struct maint_note *n = maint_note_parse(note, strlen(note), "binder");
	GPtrArray *to = g_ptr_array_new_with_free_func(g_free);
	GPtrArray *paths = g_ptr_array_new_with_free_func(g_free);

	assert_int_equal(n->to->len, 1);
	assert_int_equal(n->cc->len, 1);
	assert_int_equal(n->paths->len, 3);
	assert_string_equal(n->prefixes->pdata[0], "binder:");
	assert_true(maint_note_matches(n, "drivers/android/binder_alloc.c"));
	assert_true(maint_note_matches(n, "include/uapi/linux/android/binder.h"));
	assert_true(maint_note_matches(n, "drivers/android/tests/a/b.c"));
	assert_false(maint_note_matches(n, "drivers/android/binder/thread.rs"));
	assert_false(maint_note_matches(n, "kernel/locking/rtmutex.c"));
	maint_note_free(n);

	{
		GPtrArray *pf = g_ptr_array_new();

		g_ptr_array_add(pf, (char *)"locking/ww_mutex:");
		g_ptr_array_add(pf, (char *)"binder:");
		assert_true(maint_prefix_ok(pf, "binder: switch alloc->mutex"));
		assert_true(maint_prefix_ok(pf, "locking/ww_mutex/test: Add"));
		assert_true(maint_prefix_ok(pf, "Binder: x"));
		assert_false(maint_prefix_ok(pf, "binder_alloc: x"));
		assert_false(maint_prefix_ok(pf, "locking/ww: x"));
		assert_false(maint_prefix_ok(pf, "no prefix at all"));
		g_ptr_array_unref(pf);
	}
	assert_true(recipients_add(to, NULL, "\"Arve Hjønnevåg\" <arve@android.com>"));
	assert_string_equal(to->pdata[0], "Arve Hjønnevåg <arve@android.com>");
	assert_false(recipients_add(to, NULL, "arve@ANDROID.com"));
	assert_false(recipients_add(to, NULL, "no address"));
	g_ptr_array_unref(to);

	{
		const char *d = "diff --git a/x/a.c b/x/b.c\n--- a/x/a.c\n"
				"diff --git a/y.c b/y.c\n";

		recipients_touched(d, strlen(d), paths);
	}
	assert_int_equal(paths->len, 3);
	assert_string_equal(paths->pdata[0], "x/a.c");
	assert_string_equal(paths->pdata[1], "x/b.c");
	assert_string_equal(paths->pdata[2], "y.c");
	g_ptr_array_unref(paths);
}

static void git(const char *dir, const char *a1, const char *a2,
		const char *a3, const char *a4, const char *a5)
{
	const char *argv[] = { "git", a1, a2, a3, a4, a5, NULL };
	const char *env[] = { "GIT_AUTHOR_NAME=A U Thor",
			      "GIT_AUTHOR_EMAIL=author@example.invalid",
			      "GIT_COMMITTER_NAME=A U Thor",
			      "GIT_COMMITTER_EMAIL=author@example.invalid",
			      "GIT_AUTHOR_DATE=@1767225600 +0000",
			      "GIT_COMMITTER_DATE=@1767225600 +0000",
			      "GIT_CONFIG_NOSYSTEM=1", NULL };
	struct run_opts o = { .dir = dir, .env = env, .capture_out = true,
			      .capture_err = true };
	struct run_result r;

	assert_int_equal(run_argv(argv, &o, &r), 0);
	if (r.status)
		fprintf(stderr, "git %s: %s", a1, r.err->str);
	assert_int_equal(r.status, 0);
	run_result_release(&r);
}

static bool has_finding(const struct stage_result *r, const char *sev,
			const char *text)
{
	for (guint i = 0; i < r->findings->len; i++) {
		const struct finding *f = r->findings->pdata[i];

		if (!strcmp(severity_name(f->sev), sev) && strstr(f->message, text))
			return true;
	}
	return false;
}

/*
 * format_check() on a store made here, under a HOME of its own: without
 * a sender identity it fails saying so; with one, a v2 of one patch
 * without recipients and without a changelog fails with those findings
 * (the sender signs it off: no "no Signed-off-by"); with them it passes.
 */
static void test_format_check(void **state)
{
	char *top = g_dir_make_tmp("t-format-XXXXXX", NULL);
	char *base = g_build_filename(top, "base", NULL);
	char *sdir = g_build_filename(top, "series", "x", NULL);
	char *v2 = g_build_filename(sdir, "v2", NULL);
	char *file = g_build_filename(base, "a.c", NULL);
	char *conf = g_build_filename(sdir, "series.conf", NULL);
	struct series s;
	struct check_ctx ctx = { 0 };
	struct stage_result r;
	const char *c1 = "int a;\n", *c2 = "int a;\nint b;\n";

	assert_int_equal(mkdir_p(v2), 0);
	assert_int_equal(mkdir_p(base), 0);
	git(base, "init", "-q", "-b", "master", NULL);
	assert_int_equal(write_file_atomic(file, c1, strlen(c1)), 0);
	git(base, "add", "a.c", NULL, NULL, NULL);
	git(base, "commit", "-q", "-m", "base", NULL);
	git(base, "tag", "v7.2.13", NULL, NULL, NULL);
	assert_int_equal(write_file_atomic(file, c2, strlen(c2)), 0);
	git(base, "commit", "-q", "-am", "x: add b", NULL);
	git(base, "format-patch", "-q", "-o", v2, "v7.2.13..HEAD");
	{
		const char *sc = "[series]\n\ttitle = x: add b\n"
				 "\tchange-id = 20260101-x-0123456789ab\n";

		assert_int_equal(write_file_atomic(conf, sc, strlen(sc)), 0);
	}
	store_set_top(top);
	assert_int_equal(series_load("x", &s), 0);
	ctx.s = &s;
	ctx.version = 2;
	ctx.tree = base;

	/* the machine's identity never reaches this test */
	g_setenv("HOME", top, TRUE);
	g_setenv("GIT_CONFIG_NOSYSTEM", "1", TRUE);
	g_unsetenv("GIT_CONFIG_COUNT");
	/*
	 * check needs no identity (CI has none): the mails are checked as
	 * FORMAT_CHECK_SENDER sends them, with its sign-off
	 */
	stage_result_init(&r, "mail");
	format_check(&ctx, &r);
	assert_int_equal(r.status, ST_FAIL);
	assert_false(has_finding(&r, "error", "no sender identity"));
	assert_false(has_finding(&r, "error", "no Signed-off-by"));
	assert_true(has_finding(&r, "error", "no recipients"));
	stage_result_release(&r);
	{
		char *gc = g_build_filename(top, ".gitconfig", NULL);
		const char *id = "[user]\n\tname = Sam Sender\n"
				 "\temail = sam@example.org\n";

		assert_int_equal(write_file_atomic(gc, id, strlen(id)), 0);
		g_free(gc);
	}

	stage_result_init(&r, "mail");
	format_check(&ctx, &r);
	assert_int_equal(r.status, ST_FAIL);
	assert_false(has_finding(&r, "error", "no Signed-off-by"));
	assert_true(has_finding(&r, "error", "no recipients"));
	assert_true(has_finding(&r, "error", "without a changelog"));
	stage_result_release(&r);

	/* recipients, a sign-off and a changelog: it passes */
	git(base, "reset", "-q", "--hard", "v7.2.13", NULL);
	assert_int_equal(write_file_atomic(file, c2, strlen(c2)), 0);
	git(base, "commit", "-q", "-am",
	    "x: add b\n\nSigned-off-by: A U Thor <author@example.invalid>", NULL);
	remove_tree(v2);
	git(base, "format-patch", "-q", "-o", v2, "v7.2.13..HEAD");
	series_release(&s);
	{
		const char *sc = "[series]\n\ttitle = x: add b\n"
				 "\tto = M <m@example.invalid>\n"
				 "[version \"1\"]\n\tmessage-id = v1@example.invalid\n";

		assert_int_equal(write_file_atomic(conf, sc, strlen(sc)), 0);
	}
	assert_int_equal(series_load("x", &s), 0);
	ctx.s = &s;
	/* only the link that the draft adds: still no changelog */
	stage_result_init(&r, "mail");
	format_check(&ctx, &r);
	assert_true(has_finding(&r, "error", "without a changelog"));
	assert_false(has_finding(&r, "error", "no Signed-off-by"));
	assert_false(has_finding(&r, "error", "no recipients"));
	stage_result_release(&r);
	{
		GPtrArray *files = series_patch_files(&s, 2, false);
		char *buf;
		size_t len;
		GString *g;

		assert_int_equal(files->len, 1);
		assert_int_equal(read_file(files->pdata[0], 1 << 20, &buf, &len), 0);
		g = g_string_new(buf);
		g_string_insert(g, strstr(g->str, "\n---\n") - g->str + 5,
				"Changes in v2:\n- Add b.\n---\n");
		assert_int_equal(write_file_atomic(files->pdata[0], g->str,
						   g->len), 0);
		g_string_free(g, TRUE);
		g_free(buf);
		g_ptr_array_unref(files);
	}
	stage_result_init(&r, "mail");
	format_check(&ctx, &r);
	assert_false(has_finding(&r, "error", ""));
	assert_int_equal(r.status, ST_PASS);
	stage_result_release(&r);

	series_release(&s);
	remove_tree(top);
	g_free(top);
	g_free(base);
	g_free(sdir);
	g_free(v2);
	g_free(file);
	g_free(conf);
}

static int count_str(const char *hay, const char *needle)
{
	int n = 0;

	for (const char *p = strstr(hay, needle); p;
	     p = strstr(p + 1, needle))
		n++;
	return n;
}

/* a stored patch as format mails it: the check stages' input */
static void test_stored_as_mailed(void **state)
{
	const char *ours =
		"From 0123 Mon Sep 17 00:00:00 2001\n"
		"Date: Mon, 30 Nov 2026 23:29:47 +0000\n"
		"Subject: [PATCH] x: add b\n\n"
		"Body.\n\n"
		"Suggested-by: B <b@example.org>\n"
		"---\n a.c | 1 +\n";
	const char *theirs =
		"From 0123 Mon Sep 17 00:00:00 2001\n"
		"From: A U Thor <author@example.org>\n"
		"Subject: [PATCH] x: add b\n\n"
		"Body.\n\n"
		"Signed-off-by: A U Thor <author@example.org>\n"
		"Signed-off-by: Sender <sender@example.org>\n"
		"[sender: rebased]\n"
		"---\n a.c | 1 +\n";
	char *m;

	(void)state;
	m = format_stored_as_mailed(ours, strlen(ours), FORMAT_CHECK_SENDER);
	assert_string_equal(m,
		"From 0123 Mon Sep 17 00:00:00 2001\n"
		"From: Sender <sender@example.org>\n"
		"Date: Mon, 30 Nov 2026 23:29:47 +0000\n"
		"Subject: [PATCH] x: add b\n\n"
		"Body.\n\n"
		"Suggested-by: B <b@example.org>\n"
		"Signed-off-by: Sender <sender@example.org>\n"
		"---\n a.c | 1 +\n");
	g_free(m);
	/* someone else's keeps its From:; the sender signs once, last */
	m = format_stored_as_mailed(theirs, strlen(theirs),
				    FORMAT_CHECK_SENDER);
	assert_non_null(strstr(m, "\nFrom: A U Thor <author@example.org>\n"));
	assert_null(strstr(m, "From: Sender"));
	assert_non_null(strstr(m, "[sender: rebased]\n"
				  "Signed-off-by: Sender <sender@example.org>\n---\n"));
	assert_int_equal(count_str(m, "Signed-off-by: Sender"), 1);
	g_free(m);
}

/* the mail stage's questions, which check's format stage asks as well */
static void test_signed_off(void **state)
{
	static const char sob[] =
		"From: A <a@x>\nSubject: [PATCH] x\n\nBody.\n\n"
		"Signed-off-by: A <a@x>\n---\n a.c | 1 +\n";
	static const char below[] =
		"From: A <a@x>\nSubject: [PATCH] x\n\nBody.\n---\n"
		"Signed-off-by: A <a@x>\n";
	static const char first[] =
		"Subject: [PATCH] x\n\nSigned-off-by: A <a@x>\n";
	static const char quoted[] =
		"Subject: [PATCH] x\n\nBody.\n> Signed-off-by: A <a@x>\n---\n";

	(void)state;
	assert_true(format_signed_off(sob, strlen(sob)));
	/* below "---" is not the commit message */
	assert_false(format_signed_off(below, strlen(below)));
	assert_true(format_signed_off(first, strlen(first)));
	assert_false(format_signed_off(quoted, strlen(quoted)));
}

static void test_has_changelog(void **state)
{
	(void)state;
	assert_false(format_has_changelog(NULL));
	assert_false(format_has_changelog("A blurb.\n"));
	assert_true(format_has_changelog("Blurb.\n\nChanges in v2:\n- take the lock\n"));
	assert_true(format_has_changelog("changes since v1:\n* drop the spin\n"));
	assert_true(format_has_changelog("Changelog:\n- one\n"));
	/* "v2: ..." carries its own entry */
	assert_true(format_has_changelog("v2: take the lock\n"));
	/* the link the draft adds by itself is no changelog */
	assert_false(format_has_changelog("Changes in v2:\n"
		"- Link to v1: https://lore.kernel.org/r/x@y\n"));
	assert_false(format_has_changelog("Changes in v2:\n\n- too far\n"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_trailers_b4_order),
		cmocka_unit_test(test_trailers_no_duplicates),
		cmocka_unit_test(test_patch_notes),
		cmocka_unit_test(test_cover_blurb),
		cmocka_unit_test(test_prev_link),
		cmocka_unit_test(test_draft_changes),
		cmocka_unit_test(test_notes_and_recipients),
		cmocka_unit_test(test_format_check),
		cmocka_unit_test(test_stored_as_mailed),
		cmocka_unit_test(test_signed_off),
		cmocka_unit_test(test_has_changelog),
	};

	return cmocka_run_group_tests_name("format", tests, NULL, NULL);
}
