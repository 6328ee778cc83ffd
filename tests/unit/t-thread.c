// SPDX-License-Identifier: GPL-2.0-only
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <string.h>
#include <cmocka.h>

#include "thread.h"

static GPtrArray *refs(const char *a, const char *b, const char *c)
{
	GPtrArray *r = g_ptr_array_new();

	if (a)
		g_ptr_array_add(r, (char *)a);
	if (b)
		g_ptr_array_add(r, (char *)b);
	if (c)
		g_ptr_array_add(r, (char *)c);
	return r;
}

static void test_nearest(void **state)
{
	struct thread t;
	GPtrArray *r;
	bool present;

	thread_init(&t);
	thread_add(&t, "cover", THREAD_COVER, NULL, NULL);
	r = refs("cover", NULL, NULL);
	thread_add(&t, "p1", THREAD_PATCH, "cover", r);
	g_ptr_array_unref(r);
	r = refs("cover", "p1", NULL);
	thread_add(&t, "r1", THREAD_REPLY, "p1", r);
	g_ptr_array_unref(r);
	r = refs("cover", "p1", "r1");
	thread_add(&t, "r2", THREAD_REPLY, "r1", r);
	g_ptr_array_unref(r);
	r = refs("cover", NULL, NULL);
	thread_add(&t, "rc", THREAD_REPLY, "cover", r);
	g_ptr_array_unref(r);

	assert_string_equal(thread_target(&t, "r1", &present), "p1");
	assert_true(present);
	assert_string_equal(thread_target(&t, "r2", &present), "p1");
	assert_string_equal(thread_target(&t, "rc", &present), "cover");
	assert_null(thread_target(&t, "cover", &present));
	/* duplicates are ignored, the first wins */
	assert_false(thread_add(&t, "p1", THREAD_REPLY, NULL, NULL));
	assert_string_equal(thread_target(&t, "r1", &present), "p1");
	assert_true(present);
	thread_release(&t);
}

static void test_missing_links(void **state)
{
	struct thread t;
	GPtrArray *r;
	bool present;

	thread_init(&t);
	thread_add(&t, "p", THREAD_PATCH, NULL, NULL);
	/* a reply to a reply that is not in the mbox */
	r = refs("p", "gone", NULL);
	thread_add(&t, "r", THREAD_REPLY, "gone", r);
	g_ptr_array_unref(r);
	assert_string_equal(thread_target(&t, "r", &present), "p");
	assert_true(present);
	/* only replies here (seed 004): the In-Reply-To, absent */
	r = refs("c", "p4", NULL);
	thread_add(&t, "x", THREAD_REPLY, "p4", r);
	g_ptr_array_unref(r);
	assert_string_equal(thread_target(&t, "x", &present), "p4");
	assert_false(present);
	/* no In-Reply-To: the last reference is the parent */
	r = refs("p", NULL, NULL);
	thread_add(&t, "y", THREAD_REPLY, NULL, r);
	g_ptr_array_unref(r);
	assert_string_equal(thread_target(&t, "y", &present), "p");
	thread_release(&t);
}

static void test_loops(void **state)
{
	struct thread t;
	bool present;

	thread_init(&t);
	thread_add(&t, "a", THREAD_REPLY, "b", NULL);
	thread_add(&t, "b", THREAD_REPLY, "a", NULL);
	thread_add(&t, "self", THREAD_REPLY, "self", NULL);
	assert_string_equal(thread_target(&t, "a", &present), "b");
	assert_false(present);
	assert_null(thread_target(&t, "self", &present));
	thread_release(&t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_nearest),
		cmocka_unit_test(test_missing_links),
		cmocka_unit_test(test_loops),
	};
	return cmocka_run_group_tests_name("thread", tests, NULL, NULL);
}
