// SPDX-License-Identifier: GPL-2.0-only
/* format-trailers.c: the trailers of a patch as format mails it. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "format.h"
#include "format-trailers.h"
#include "series.h"

#define IDENT "Sam Sender <sam@example.org>"
#define OWN "Signed-off-by: " IDENT

/* A NULL-terminated list of borrowed strings as an array (NULL: none). */
static GPtrArray *list(const char *const *v)
{
	GPtrArray *a;

	if (!v)
		return NULL;
	a = g_ptr_array_new();
	for (; *v; v++)
		g_ptr_array_add(a, (char *)*v);
	return a;
}

static void mailed_case(const char *msg, const char *const *review,
			const char *const *assisted, const char *want,
			unsigned want_added)
{
	GPtrArray *r = list(review), *a = list(assisted);
	unsigned added = 99;
	char *got = format_mailed_trailers(msg, r, a, IDENT, &added);

	assert_string_equal(got, want);
	assert_int_equal(added, want_added);
	g_free(got);
	if (r)
		g_ptr_array_unref(r);
	if (a)
		g_ptr_array_unref(a);
}

/*
 * The message's trailers, then the review's in the order given, then
 * Assisted-by, then the sender's sign-off: last.
 */
static void test_order(void **state)
{
	static const char *const review[] = {
		"Reviewed-by: Alice Ryhl <aliceryhl@google.com>",
		"Acked-by: Carlos Llamas <cmllamas@google.com>", NULL };
	static const char *const assisted[] = {
		"Assisted-by: Claude:claude-opus-4 coccinelle", NULL };

	mailed_case("binder: x\n\nBody.\n\nSigned-off-by: Bo <bo@x>\n"
		    "Cc: stable@vger.kernel.org\n",
		    review, assisted,
		    "binder: x\n\nBody.\n\nSigned-off-by: Bo <bo@x>\n"
		    "Cc: stable@vger.kernel.org\n"
		    "Reviewed-by: Alice Ryhl <aliceryhl@google.com>\n"
		    "Acked-by: Carlos Llamas <cmllamas@google.com>\n"
		    "Assisted-by: Claude:claude-opus-4 coccinelle\n" OWN "\n",
		    4);
	/* no trailers yet: one new paragraph, the sign-off alone */
	mailed_case("binder: x\n\nBody.\n\n\n", NULL, NULL,
		    "binder: x\n\nBody.\n\n" OWN "\n", 1);
	/* a subject alone is never a trailer block */
	mailed_case("Acked-by: a subject that looks like a trailer\n", NULL,
		    NULL,
		    "Acked-by: a subject that looks like a trailer\n\n" OWN "\n",
		    1);
}

/* The sender's sign-off: once, and last, wherever it was. */
static void test_own_signoff_once_last(void **state)
{
	static const char *const review[] = {
		"Tested-by: T <t@x>", OWN, NULL };

	/* above other trailers: moved down, not added again */
	mailed_case("x\n\nBody.\n\n" OWN "\nReviewed-by: R <r@x>\n", NULL, NULL,
		    "x\n\nBody.\n\nReviewed-by: R <r@x>\n" OWN "\n", 0);
	/* twice (a re-sent patch): one is left */
	mailed_case("x\n\nBody.\n\n" OWN "\nCc: c@x\n" OWN "\n", NULL, NULL,
		    "x\n\nBody.\n\nCc: c@x\n" OWN "\n", 0);
	/* in the list to add as well: still one, still last */
	mailed_case("x\n\nBody.\n", review, NULL,
		    "x\n\nBody.\n\nTested-by: T <t@x>\n" OWN "\n", 2);
	/* another case of the same sign-off is the same one */
	mailed_case("x\n\nBody.\n\nsigned-off-by: sam sender <SAM@example.org>\n",
		    NULL, NULL, "x\n\nBody.\n\n" OWN "\n", 0);
}

/* A trailer already there (any case, any spacing) is not doubled. */
static void test_duplicate_not_doubled(void **state)
{
	static const char *const review[] = {
		"reviewed-by:  alice ryhl <ALICERYHL@google.com>",
		"Acked-by: A <a@x>", "Acked-by: A <a@x>", NULL };

	mailed_case("x\n\nBody.\n\nReviewed-by: Alice Ryhl <aliceryhl@google.com>\n",
		    review, NULL,
		    "x\n\nBody.\n\nReviewed-by: Alice Ryhl <aliceryhl@google.com>\n"
		    "Acked-by: A <a@x>\n" OWN "\n", 2);
}

/* A sign-off nobody can give (a placeholder address) goes. */
static void test_placeholder_signoff_dropped(void **state)
{
	mailed_case("x\n\nBody.\n\n"
		    "Signed-off-by: kseries sender <sender@sender.invalid>\n"
		    "Reviewed-by: R <r@x>\n", NULL, NULL,
		    "x\n\nBody.\n\nReviewed-by: R <r@x>\n" OWN "\n", 1);
}

/* format_add_trailers() without an identity adds only what it is given. */
static void test_no_identity(void **state)
{
	static const char *const t[] = { "Acked-by: A <a@x>", NULL };
	GPtrArray *a = list(t);
	unsigned added;
	char *got = format_add_trailers("x\n\nBody.\n\nSigned-off-by: B <b@x>\n",
					a, NULL, &added);

	assert_string_equal(got, "x\n\nBody.\n\nSigned-off-by: B <b@x>\n"
				 "Acked-by: A <a@x>\n");
	assert_int_equal(added, 1);
	g_free(got);
	g_ptr_array_unref(a);
}

static void series_of(struct series *s, const char *conf)
{
	memset(s, 0, sizeof(*s));
	s->name = g_strdup("x");
	s->conf = conf_parse(conf, strlen(conf));
	assert_non_null(s->conf);
}

static void series_drop(struct series *s)
{
	g_hash_table_unref(s->conf);
	g_free(s->name);
}

/* version.N.assisted-by, each value one line, "Assisted-by:" optional. */
static void test_assisted_by(void **state)
{
	struct series s;
	GPtrArray *a;

	series_of(&s, "[version \"2\"]\n"
		      "\tassisted-by = Claude:claude-opus-4 coccinelle sparse\n"
		      "\tassisted-by = Assisted-by: Gemini:gemini-2.5-pro\n"
		      "[version \"3\"]\n\tassisted-by = just some words\n");
	a = format_assisted_by(&s, 2);
	assert_non_null(a);
	assert_int_equal(a->len, 2);
	assert_string_equal(a->pdata[0],
			    "Assisted-by: Claude:claude-opus-4 coccinelle sparse");
	assert_string_equal(a->pdata[1], "Assisted-by: Gemini:gemini-2.5-pro");
	g_ptr_array_unref(a);
	/* none for v1: an empty list, not an error */
	a = format_assisted_by(&s, 1);
	assert_non_null(a);
	assert_int_equal(a->len, 0);
	g_ptr_array_unref(a);
	/* not AGENT_NAME:MODEL_VERSION: refused */
	assert_null(format_assisted_by(&s, 3));
	series_drop(&s);
}

static struct fb_item *trailer_item(int version, int patch, const char *title,
				    const char *trailer, const char *status,
				    const char *scope)
{
	struct fb_item *it = g_new0(struct fb_item, 1);

	it->version = version;
	it->patch = patch;
	it->patch_title = g_strdup(title);
	it->kind = g_strdup("trailer");
	it->status = g_strdup(status ? status : "open");
	it->trailer = g_strdup(trailer);
	it->scope = g_strdup(scope ? scope : "patch");
	it->text = g_strdup("");
	return it;
}

/* Which review trailer goes to which patch, and what is left out. */
static void test_collect(void **state)
{
	GPtrArray *items = g_ptr_array_new_with_free_func(
		(GDestroyNotify)fb_item_free);
	GPtrArray *titles = g_ptr_array_new();
	GPtrArray *per = g_ptr_array_new_with_free_func(
		(GDestroyNotify)g_ptr_array_unref);
	GPtrArray *notes = g_ptr_array_new_with_free_func(g_free);
	GPtrArray *p1, *p2;

	g_ptr_array_add(titles, (char *)"binder: one");
	g_ptr_array_add(titles, (char *)"binder: two");
	g_ptr_array_add(per, g_ptr_array_new_with_free_func(g_free));
	g_ptr_array_add(per, g_ptr_array_new_with_free_func(g_free));
	p1 = per->pdata[0];
	p2 = per->pdata[1];
	g_ptr_array_add(items, trailer_item(1, 1, NULL,
					    "Reviewed-by: R <r@x>", NULL, NULL));
	/* the same given again on v2: once */
	g_ptr_array_add(items, trailer_item(2, 1, NULL,
					    "Reviewed-by: R <r@x>", NULL, NULL));
	/* unpaired: by its title */
	g_ptr_array_add(items, trailer_item(1, -1, "Binder: Two",
					    "Tested-by: T <t@x>", NULL, NULL));
	/* for the series: every patch */
	g_ptr_array_add(items, trailer_item(2, 0, NULL, "Acked-by: A <a@x>",
					    NULL, "series"));
	g_ptr_array_add(items, trailer_item(2, 2, NULL, "Nacked-by: N <n@x>",
					    NULL, NULL));
	g_ptr_array_add(items, trailer_item(1, 2, NULL, "Acked-by: O <o@x>",
					    "outdated", NULL));
	g_ptr_array_add(items, trailer_item(2, 5, NULL, "Acked-by: F <f@x>",
					    NULL, NULL));
	/* given on a later version: not this one's */
	g_ptr_array_add(items, trailer_item(3, 1, NULL, "Acked-by: L <l@x>",
					    NULL, NULL));
	format_collect_trailers(items, 2, titles, per, notes);
	assert_int_equal(p1->len, 2);
	assert_string_equal(p1->pdata[0], "Reviewed-by: R <r@x>");
	assert_string_equal(p1->pdata[1], "Acked-by: A <a@x>");
	assert_int_equal(p2->len, 2);
	assert_string_equal(p2->pdata[0], "Tested-by: T <t@x>");
	assert_string_equal(p2->pdata[1], "Acked-by: A <a@x>");
	assert_int_equal(notes->len, 3);
	assert_string_equal(notes->pdata[0], "not applied: Nacked-by: N <n@x> (v2)");
	assert_string_equal(notes->pdata[1],
			    "not applied: Acked-by: O <o@x> (v1): its patch is gone");
	assert_string_equal(notes->pdata[2],
			    "not applied: Acked-by: F <f@x> (v2): no such patch in v2");
	g_ptr_array_unref(notes);
	g_ptr_array_unref(per);
	g_ptr_array_unref(titles);
	g_ptr_array_unref(items);
}

/* "[PATCH]" has no index: in a series of one, every trailer is patch 1's. */
static void test_collect_one_patch(void **state)
{
	GPtrArray *items = g_ptr_array_new_with_free_func(
		(GDestroyNotify)fb_item_free);
	GPtrArray *titles = g_ptr_array_new();
	GPtrArray *per = g_ptr_array_new_with_free_func(
		(GDestroyNotify)g_ptr_array_unref);
	GPtrArray *notes = g_ptr_array_new_with_free_func(g_free);
	GPtrArray *p1 = g_ptr_array_new_with_free_func(g_free);

	g_ptr_array_add(titles, (char *)"binder: only");
	g_ptr_array_add(per, p1);
	g_ptr_array_add(items, trailer_item(1, -1, NULL, "Acked-by: A <a@x>",
					    NULL, NULL));
	format_collect_trailers(items, 1, titles, per, notes);
	assert_int_equal(p1->len, 1);
	assert_string_equal(p1->pdata[0], "Acked-by: A <a@x>");
	assert_int_equal(notes->len, 0);
	g_ptr_array_unref(notes);
	g_ptr_array_unref(per);
	g_ptr_array_unref(titles);
	g_ptr_array_unref(items);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_order),
		cmocka_unit_test(test_own_signoff_once_last),
		cmocka_unit_test(test_duplicate_not_doubled),
		cmocka_unit_test(test_placeholder_signoff_dropped),
		cmocka_unit_test(test_no_identity),
		cmocka_unit_test(test_assisted_by),
		cmocka_unit_test(test_collect),
		cmocka_unit_test(test_collect_one_patch),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
