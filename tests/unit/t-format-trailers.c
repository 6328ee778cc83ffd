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

static struct fb_item *trailer_item(int version, int at, const char *title,
				    const char *trailer, const char *status,
				    const char *scope)
{
	struct fb_item *it = g_new0(struct fb_item, 1);

	it->version = version;
	it->patch = at;
	it->at = at;
	it->patch_title = g_strdup(title);
	it->kind = g_strdup("trailer");
	it->status = g_strdup(status ? status : "open");
	it->trailer = g_strdup(trailer);
	it->scope = g_strdup(scope ? scope : "patch");
	it->text = g_strdup("");
	return it;
}

/* it, given on an earlier version: same->data[k] is what patch k+1 was */
static struct fb_item *since(struct fb_item *it, int n, ...)
{
	va_list ap;

	it->same = g_array_new(FALSE, FALSE, sizeof(int));
	va_start(ap, n);
	for (int k = 0; k < n; k++) {
		int was = va_arg(ap, int);

		g_array_append_val(it->same, was);
	}
	va_end(ap);
	return it;
}

struct collected {
	GPtrArray *items, *titles, *per, *notes;
};

static void collect(struct collected *c, const char *const *titles)
{
	c->items = g_ptr_array_new_with_free_func((GDestroyNotify)fb_item_free);
	c->titles = g_ptr_array_new();
	c->per = g_ptr_array_new_with_free_func((GDestroyNotify)g_ptr_array_unref);
	c->notes = g_ptr_array_new_with_free_func(g_free);
	for (; *titles; titles++) {
		g_ptr_array_add(c->titles, (char *)*titles);
		g_ptr_array_add(c->per, g_ptr_array_new_with_free_func(g_free));
	}
}

static void collected_release(struct collected *c)
{
	g_ptr_array_unref(c->notes);
	g_ptr_array_unref(c->per);
	g_ptr_array_unref(c->titles);
	g_ptr_array_unref(c->items);
}

static void assert_list(GPtrArray *got, const char *const *want)
{
	guint n = 0;

	for (; want[n]; n++) {
		assert_true(n < got->len);
		assert_string_equal(got->pdata[n], want[n]);
	}
	assert_int_equal(got->len, n);
}

/* Which review trailer goes to which patch, and what is left out. */
static void test_collect(void **state)
{
	static const char *const titles[] = { "binder: one", "binder: two", NULL };
	struct collected c;

	collect(&c, titles);
	/* v2's 1 is v1's 1 unchanged; v2's 2 is not v1's 2 */
	g_ptr_array_add(c.items, since(trailer_item(1, 1, NULL,
		"Reviewed-by: R <r@x>", NULL, NULL), 2, 1, 0));
	/* the same given again on v2: once */
	g_ptr_array_add(c.items, trailer_item(2, 1, NULL,
					      "Reviewed-by: R <r@x>", NULL, NULL));
	/* on v2, a reply to a patch the store does not hold: by its title */
	g_ptr_array_add(c.items, trailer_item(2, -1, "Binder: Two",
					      "Tested-by: T <t@x>", NULL, NULL));
	/* for the series: every patch */
	g_ptr_array_add(c.items, trailer_item(2, 0, NULL, "Acked-by: A <a@x>",
					      NULL, "series"));
	g_ptr_array_add(c.items, trailer_item(2, 2, NULL, "Nacked-by: N <n@x>",
					      NULL, NULL));
	g_ptr_array_add(c.items, since(trailer_item(1, 2, NULL,
		"Acked-by: O <o@x>", "outdated", NULL), 2, 1, 0));
	g_ptr_array_add(c.items, trailer_item(2, 5, NULL, "Acked-by: F <f@x>",
					      NULL, NULL));
	/* given on a later version: not this one's */
	g_ptr_array_add(c.items, trailer_item(3, 1, NULL, "Acked-by: L <l@x>",
					      NULL, NULL));
	/* v1's 2, changed in v2: its tag goes (submitting-patches.rst) */
	g_ptr_array_add(c.items, since(trailer_item(1, 2, NULL,
		"Reviewed-by: C <c@x>", NULL, NULL), 2, 1, 0));
	/* v1's series tag: to the patch that is still v1's only */
	g_ptr_array_add(c.items, since(trailer_item(1, 0, NULL,
		"Acked-by: S <s@x>", NULL, "series"), 2, 1, 0));
	format_collect_trailers(c.items, 2, c.titles, c.per, c.notes);
	assert_list(c.per->pdata[0], (const char *const[]){
		"Reviewed-by: R <r@x>", "Acked-by: A <a@x>", "Acked-by: S <s@x>",
		NULL });
	assert_list(c.per->pdata[1], (const char *const[]){
		"Tested-by: T <t@x>", "Acked-by: A <a@x>", NULL });
	assert_list(c.notes, (const char *const[]){
		"not applied: Nacked-by: N <n@x> (v2)",
		"not applied: Acked-by: O <o@x> (v1): its patch is gone",
		"not applied: Acked-by: F <f@x> (v2): no such patch in v2",
		"not applied: Reviewed-by: C <c@x> (v1): no patch of v2 is patch 2 of v1 unchanged",
		"not applied: Acked-by: S <s@x> (v1): 2/2 changed since v1",
		NULL });
	collected_release(&c);
}

/*
 * A one-patch version is no exception: its patch gets only the tags
 * given for it (or for the whole series) and still its own. v1 had
 * five patches; v2 is v1's 1/5 alone, unchanged.
 */
static void test_collect_one_patch(void **state)
{
	static const char *const titles[] = { "binder: only", NULL };
	struct collected c;

	collect(&c, titles);
	/* given on v1's 1/5: v2's patch is that one */
	g_ptr_array_add(c.items, since(trailer_item(1, 1, NULL,
		"Reviewed-by: One <one@x>", NULL, NULL), 1, 1));
	/* given on v1's 3/5: not v2's patch, however alone it is */
	g_ptr_array_add(c.items, since(trailer_item(1, 3, NULL,
		"Reviewed-by: Three <three@x>", NULL, NULL), 1, 1));
	/* the cover of v1: v2's patch is still one of v1's */
	g_ptr_array_add(c.items, since(trailer_item(1, 0, NULL,
		"Acked-by: Cover <cover@x>", NULL, "series"), 1, 1));
	/* a version of which the store holds only replies: nothing tells */
	g_ptr_array_add(c.items, trailer_item(1, -1, "binder: only",
		"Acked-by: Old <old@x>", NULL, NULL));
	/* on v2, a reply to no patch, or to a 3/5 that v2 does not have */
	g_ptr_array_add(c.items, trailer_item(2, -1, NULL, "Acked-by: A <a@x>",
					      NULL, "other"));
	((struct fb_item *)c.items->pdata[c.items->len - 1])->patch = -1;
	g_ptr_array_add(c.items, trailer_item(2, -1, NULL, "Acked-by: B <b@x>",
					      NULL, NULL));
	((struct fb_item *)c.items->pdata[c.items->len - 1])->patch = 3;
	/* on v2's one patch ("[PATCH v2]"): its own */
	g_ptr_array_add(c.items, trailer_item(2, 1, NULL, "Tested-by: T <t@x>",
					      NULL, NULL));
	format_collect_trailers(c.items, 2, c.titles, c.per, c.notes);
	assert_list(c.per->pdata[0], (const char *const[]){
		"Reviewed-by: One <one@x>", "Acked-by: Cover <cover@x>",
		"Tested-by: T <t@x>", NULL });
	assert_list(c.notes, (const char *const[]){
		"not applied: Reviewed-by: Three <three@x> (v1): no patch of v2 is patch 3 of v1 unchanged",
		"not applied: Acked-by: Old <old@x> (v1): v1's patches are not in the store, so nothing tells that its patch is unchanged in v2",
		"not applied: Acked-by: A <a@x> (v2): the mail was not a reply to a patch of v2",
		"not applied: Acked-by: B <b@x> (v2): no such patch in v2",
		NULL });
	collected_release(&c);
}

/* v2 squashed v1's three patches into one: no v1 tag is its own. */
static void test_collect_squashed(void **state)
{
	static const char *const titles[] = { "binder: all in one", NULL };
	struct collected c;
	GArray *to = g_array_new(FALSE, FALSE, sizeof(int));

	collect(&c, titles);
	for (int k = 1; k <= 3; k++)
		g_ptr_array_add(c.items, since(trailer_item(1, k, NULL,
			"Reviewed-by: R <r@x>", NULL, NULL), 1, 0));
	g_ptr_array_add(c.items, since(trailer_item(1, 0, NULL,
		"Acked-by: S <s@x>", NULL, "series"), 1, 0));
	format_collect_trailers(c.items, 2, c.titles, c.per, c.notes);
	assert_int_equal(((GPtrArray *)c.per->pdata[0])->len, 0);
	assert_int_equal(c.notes->len, 4);
	assert_string_equal(c.notes->pdata[3],
			    "not applied: Acked-by: S <s@x> (v1): 1/1 changed since v1");
	/* the same answer to the draft and to record */
	for (guint i = 0; i < c.items->len; i++)
		assert_int_equal(format_trailer_targets(c.items->pdata[i], 2,
							NULL, 1, to, NULL), 0);
	assert_int_equal(to->len, 0);
	g_array_unref(to);
	collected_release(&c);
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
		cmocka_unit_test(test_collect_squashed),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
