// SPDX-License-Identifier: GPL-2.0-only
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "recipients.h"
#include "series.h"
#include "util.h"

static GPtrArray *strv(void)
{
	return g_ptr_array_new_with_free_func(g_free);
}

static void assert_list(const GPtrArray *l, const char *const *want)
{
	guint n = 0;

	for (; want[n]; n++) {
		assert_true(n < l->len);
		assert_string_equal(l->pdata[n], want[n]);
	}
	assert_int_equal(l->len, n);
}

static void test_addr(void **state)
{
	char *a = recipients_addr("Ann Example <Ann@Example.ORG>");

	assert_string_equal(a, "ann@example.org");
	g_free(a);
	a = recipients_addr("  linux-kernel@vger.kernel.org ");
	assert_string_equal(a, "linux-kernel@vger.kernel.org");
	g_free(a);
}

static void test_dedup(void **state)
{
	GPtrArray *to = strv(), *cc = strv();
	static const char *const want_to[] = {
		"Alice Author <alice@example.org>", "Jøhn Doe <john@example.org>",
		"\"Doe, Jane\" <jane@example.org>", NULL
	};
	static const char *const want_cc[] = { "list@example.org", NULL };

	assert_true(recipients_add(to, NULL, "Alice Author <alice@example.org>"));
	/* the address decides, case-insensitively */
	assert_false(recipients_add(to, NULL, "ALICE <Alice@Example.org>"));
	assert_false(recipients_add(to, NULL, "alice@example.org"));
	/* get_maintainer.pl's quotes go, unless the name has a comma */
	assert_true(recipients_add(to, NULL, "\"Jøhn Doe\" <john@example.org>"));
	assert_true(recipients_add(to, NULL, "\"Doe, Jane\" <jane@example.org>"));
	/* an address in To is not repeated in Cc */
	assert_false(recipients_add(cc, to, "Alice <alice@example.org>"));
	assert_true(recipients_add(cc, to, "list@example.org"));
	assert_false(recipients_add(cc, to, "LIST@example.org"));
	/* no address at all */
	assert_false(recipients_add(cc, to, "Nobody"));
	assert_false(recipients_add(cc, to, ""));
	assert_list(to, want_to);
	assert_list(cc, want_cc);
	g_ptr_array_unref(to);
	g_ptr_array_unref(cc);
}

static void test_hostile_refused(void **state)
{
	static const char *const bad[] = {
		/* two recipients in one: the second would dodge the dedup */
		"Evil <evil@example.org>, Other <other@example.org>",
		"evil@example.org, other@example.org",
		"evil@example.org; other@example.org",
		/* a header smuggled in */
		"Evil <evil@example.org>\r\nBcc: spy@example.org",
		"evil@example.org\nBcc: spy@example.org",
		"Evil\033[2J <evil@example.org>",
		/* not one addr-spec */
		"Evil <evil@example.org> trailing",
		"Evil <evil@example.org",
		"Evil <<evil@example.org>>",
		"Evil <ev il@example.org>",
		"Evil <@example.org>",
		"Evil <evil@>",
		"Evil <evil@a@example.org>",
		"Evil <>",
		/* an option to whatever is given it */
		"-oProxyCommand=x@example.org",
		"Evil <-f@example.org>",
		NULL
	};
	GPtrArray *to = strv();

	for (const char *const *b = bad; *b; b++) {
		if (recipients_add(to, NULL, *b))
			fail_msg("accepted '%s'", *b);
		assert_false(recipients_addr_ok(*b));
	}
	assert_int_equal(to->len, 0);
	assert_true(recipients_addr_ok("Ann <ann@example.org>"));
	assert_true(recipients_addr_ok("ann+tag@sub.example.org"));
	assert_true(recipients_addr_ok("\"Doe, Jane\" <jane@example.org>"));
	assert_true(recipients_addr_ok("Arve Hjønnevåg <arve@android.com>"));
	g_ptr_array_unref(to);
}

static const char note_text[] =
	"Subsystem: ANDROID DRIVERS\n"
	"To: Greg Kroah-Hartman <gregkh@linuxfoundation.org>\n"
	"cc: Carlos Llamas <cmllamas@google.com>\n"
	"List: linux-kernel@vger.kernel.org\n"
	"Tree: git://git.kernel.org/pub/scm/linux/kernel/git/gregkh/char-misc.git char-misc-next\n"
	"Prefix: binder:\n"
	"Paths: drivers/android/ include/uapi/linux/android/*\n"
	"Paths: rust/kernel/*.rs\n"
	"\n"
	"Prose follows, and is not read:\n"
	"To: Not A Header <not@example.org>\n";

static void test_note(void **state)
{
	struct maint_note *n = maint_note_parse(note_text, strlen(note_text),
						"binder.txt");
	static const char *const to[] = {
		"Greg Kroah-Hartman <gregkh@linuxfoundation.org>", NULL
	};
	static const char *const cc[] = {
		"Carlos Llamas <cmllamas@google.com>", NULL
	};
	static const char *const paths[] = {
		"drivers/android/", "include/uapi/linux/android/*",
		"rust/kernel/*.rs", NULL
	};

	assert_string_equal(n->name, "binder.txt");
	assert_list(n->to, to);
	assert_list(n->cc, cc);
	assert_list(n->paths, paths);
	assert_int_equal(n->lists->len, 1);
	assert_int_equal(n->trees->len, 1);
	assert_int_equal(n->prefixes->len, 1);
	/* "dir/" covers the directory; '*' also matches '/' */
	assert_true(maint_note_matches(n, "drivers/android/binder.c"));
	assert_true(maint_note_matches(n, "drivers/android/tests/x.c"));
	assert_true(maint_note_matches(n, "rust/kernel/sync/lock.rs"));
	assert_true(maint_note_matches(n, "include/uapi/linux/android/binder.h"));
	assert_false(maint_note_matches(n, "drivers/androids/x.c"));
	assert_false(maint_note_matches(n, "rust/kernel/lib.c"));
	assert_false(maint_note_matches(n, "kernel/futex/core.c"));
	maint_note_free(n);
}

static void test_prefix(void **state)
{
	GPtrArray *p = strv();

	g_ptr_array_add(p, g_strdup("locking/rtmutex:"));
	g_ptr_array_add(p, g_strdup("locking/ww_mutex:"));
	assert_true(maint_prefix_ok(p, "locking/rtmutex: Stop spinning"));
	assert_true(maint_prefix_ok(p, "LOCKING/RTMUTEX: shouting"));
	assert_true(maint_prefix_ok(p, "locking/ww_mutex/test: a test"));
	assert_false(maint_prefix_ok(p, "locking/rtmutexes: not it"));
	assert_false(maint_prefix_ok(p, "locking: too short"));
	assert_false(maint_prefix_ok(p, "no prefix at all"));
	g_ptr_array_unref(p);

	/* a prefix of several components */
	p = strv();
	g_ptr_array_add(p, g_strdup("usb: gadget:"));
	assert_true(maint_prefix_ok(p, "usb: gadget: f_hid: don't call"));
	assert_true(maint_prefix_ok(p, "USB: Gadget: udc: x"));
	assert_false(maint_prefix_ok(p, "usb: chipidea: udc: x"));
	assert_false(maint_prefix_ok(p, "usb: gadgetfs: x"));
	assert_false(maint_prefix_ok(p, "usb: gadget"));
	assert_false(maint_prefix_ok(p, "usb: gadget:x"));
	assert_false(maint_prefix_ok(p, "usb: x"));
	g_ptr_array_unref(p);
}

static void test_touched(void **state)
{
	static const char mail[] =
		"Subject: [PATCH] x\n\n---\n"
		"diff --git a/drivers/android/binder.c b/drivers/android/binder.c\n"
		"--- a/drivers/android/binder.c\n+++ b/drivers/android/binder.c\n"
		"diff --git a/old/name.c b/new/name.c\n"
		"diff --git a/drivers/android/binder.c b/drivers/android/binder.c\n";
	static const char *const want[] = {
		"drivers/android/binder.c", "old/name.c", "new/name.c", NULL
	};
	GPtrArray *out = strv();

	recipients_touched(mail, strlen(mail), out);
	assert_list(out, want);
	g_ptr_array_unref(out);
}

static void write_at(const char *top, const char *rel, const char *text)
{
	char *p = g_build_filename(top, rel, NULL);
	char *d = g_path_get_dirname(p);

	assert_int_equal(mkdir_p(d), 0);
	assert_int_equal(write_file_atomic(p, text, strlen(text)), 0);
	g_free(d);
	g_free(p);
}

/*
 * A store with series "s" (series.to/cc), a note for drivers/android/,
 * and a tree whose get_maintainer.pl answers like the real one, with a
 * hostile line among its output.
 */
static char *make_world(struct series *s, char **tree, GPtrArray *files)
{
	char *top = g_dir_make_tmp("t-recipients-XXXXXX", NULL);

	write_at(top, "series/s/series.conf",
		 "[series]\n"
		 "\tto = Demo List <list@example.org>\n"
		 "\tcc = Rex Reviewer <rex@example.org>\n"
		 "\tcc = demo list <LIST@example.org>\n");
	write_at(top, "MAINTAINERS-notes/binder.txt", note_text);
	write_at(top, "MAINTAINERS-notes/futex.txt",
		 "To: Futex Person <futex@example.org>\nPaths: kernel/futex/\n");
	write_at(top, "MAINTAINERS-notes/README",
		 "To: Readme <readme@example.org>\nPaths: *\n");
	write_at(top, "p/0001-x.patch",
		 "Subject: [PATCH] binder: x\n\n---\n"
		 "diff --git a/drivers/android/binder.c b/drivers/android/binder.c\n");
	write_at(top, "tree/MAINTAINERS", "");
	write_at(top, "tree/scripts/get_maintainer.pl",
		 "print \"Alice Author <alice\\@example.org>\\n\";\n"
		 "print \"Rex Reviewer <rex\\@example.org>\\n\";\n"
		 "print \"Evil <evil\\@example.org>, Spy <spy\\@example.org>\\n\";\n"
		 "print \"linux-kernel\\@vger.kernel.org\\n\";\n"
		 "print \"not an address\\n\";\n");
	g_ptr_array_add(files, g_build_filename(top, "p/0001-x.patch", NULL));
	*tree = g_build_filename(top, "tree", NULL);
	store_set_top(top);
	assert_int_equal(series_load("s", s), 0);
	return top;
}

static void test_collect(void **state)
{
	struct series s;
	struct recipients r;
	GPtrArray *files = strv();
	char *tree, *top = make_world(&s, &tree, files);
	static const char *const to[] = {
		"Demo List <list@example.org>",
		"Greg Kroah-Hartman <gregkh@linuxfoundation.org>",
		/* people from get_maintainer.pl go to To... */
		"Alice Author <alice@example.org>",
		/* ...and one met in Cc first stays in To only */
		"Rex Reviewer <rex@example.org>",
		NULL
	};
	static const char *const cc[] = {
		"Carlos Llamas <cmllamas@google.com>",
		/* ...lists (bare addresses) to Cc */
		"linux-kernel@vger.kernel.org",
		NULL
	};
	bool noted = false;

	recipients_init(&r);
	assert_int_equal(recipients_collect(&s, files, tree, &r), 0);
	assert_list(r.to, to);
	assert_list(r.cc, cc);
	assert_int_equal(r.matched->len, 1);
	assert_string_equal(r.matched->pdata[0], "binder.txt");
	assert_string_equal(r.prefixes->pdata[0], "binder:");
	for (guint i = 0; i < r.notes->len; i++)
		if (strstr(r.notes->pdata[i], "left out a malformed address"))
			noted = true;
	assert_true(noted);
	recipients_release(&r);

	/* no base tree: the notes only, and a note that says so */
	recipients_init(&r);
	assert_int_equal(recipients_collect(&s, files, NULL, &r), 0);
	assert_int_equal(r.to->len, 2);
	assert_string_equal(r.notes->pdata[0],
			    "get_maintainer.pl not run: no base tree");
	recipients_release(&r);

	series_release(&s);
	remove_tree(top);
	g_free(top);
	g_free(tree);
	g_ptr_array_unref(files);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_addr),
		cmocka_unit_test(test_dedup),
		cmocka_unit_test(test_hostile_refused),
		cmocka_unit_test(test_note),
		cmocka_unit_test(test_prefix),
		cmocka_unit_test(test_touched),
		cmocka_unit_test(test_collect),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
