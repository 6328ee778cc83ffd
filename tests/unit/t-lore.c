// SPDX-License-Identifier: GPL-2.0-only
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <glib.h>
#include <zlib.h>

#include "lore.h"

/* text gzipped with zlib's gzip wrapper */
static GString *gz(const char *text, size_t len)
{
	GString *out = g_string_new(NULL);
	z_stream z = { 0 };
	unsigned char buf[4096];
	int r;

	assert_int_equal(deflateInit2(&z, 6, Z_DEFLATED, 16 + MAX_WBITS, 8,
				      Z_DEFAULT_STRATEGY), Z_OK);
	z.next_in = (unsigned char *)text;
	z.avail_in = (uInt)len;
	do {
		z.next_out = buf;
		z.avail_out = sizeof(buf);
		r = deflate(&z, Z_FINISH);
		g_string_append_len(out, (char *)buf,
				    (gssize)(sizeof(buf) - z.avail_out));
	} while (r == Z_OK);
	assert_int_equal(r, Z_STREAM_END);
	deflateEnd(&z);
	return out;
}

static void test_gunzip(void **state)
{
	const char text[] = "From mboxrd@z Thu Jan  1 00:00:00 1970\nSubject: x\n\nbody\n";
	GString *g = gz(text, strlen(text)), *out = g_string_new(NULL);

	assert_int_equal(lore_gunzip(g->str, g->len, 1 << 20, "t", out), 0);
	assert_string_equal(out->str, text);

	/* RFC 1952 2.2: members one after the other are one stream */
	g_string_truncate(out, 0);
	{
		GString *two = g_string_new_len(g->str, (gssize)g->len);

		g_string_append_len(two, g->str, (gssize)g->len);
		assert_int_equal(lore_gunzip(two->str, two->len, 1 << 20, "t",
					     out), 0);
		assert_int_equal(out->len, 2 * strlen(text));
		g_string_free(two, TRUE);
	}
	g_string_free(out, TRUE);
	g_string_free(g, TRUE);
}

static void test_gunzip_bad(void **state)
{
	GString *big = g_string_new(NULL), *g, *out = g_string_new(NULL);

	for (int i = 0; i < 100000; i++)
		g_string_append(big, "0123456789\n");
	g = gz(big->str, big->len);
	/* truncated: every cut short of the end fails */
	for (size_t cut = 1; cut < g->len; cut += g->len / 7) {
		g_string_truncate(out, 0);
		assert_int_equal(lore_gunzip(g->str, cut, 64 << 20, "t", out), -1);
	}
	/* over the limit */
	g_string_truncate(out, 0);
	assert_int_equal(lore_gunzip(g->str, g->len, 1000, "t", out), -1);
	/* not gzip at all */
	g_string_truncate(out, 0);
	assert_int_equal(lore_gunzip("hello\n", 6, 1000, "t", out), -1);
	g_string_free(out, TRUE);
	g_string_free(g, TRUE);
	g_string_free(big, TRUE);
}

static void test_urls(void **state)
{
	char *u = lore_thread_url("https://lore.kernel.org/all/",
				  "<20260601.1-a/b+c@host.example>");

	assert_string_equal(u, "https://lore.kernel.org/all/20260601.1-a%2Fb%2Bc@host.example/t.mbox.gz");
	g_free(u);
	u = lore_search_url("http://127.0.0.1:1/x/",
			    "(nq:\"change-id: 2026-x\" OR s:\"a&b\") AND d:20260601..");
	assert_string_equal(u, "http://127.0.0.1:1/x/?x=m&t=1&q=%28nq%3A%22change-id%3A+2026-x%22+OR+s%3A%22a%26b%22%29+AND+d%3A20260601..");
	g_free(u);
}

static void test_base(void **state)
{
	char *b;

	setenv("KSERIES_LORE", "http://127.0.0.1:8080/test", 1);
	b = lore_base();
	assert_string_equal(b, "http://127.0.0.1:8080/test/");
	g_free(b);
	setenv("KSERIES_LORE", "file:///etc/", 1);
	assert_null(lore_base());
	setenv("KSERIES_LORE", "https://a.example/x y/", 1);
	assert_null(lore_base());
	unsetenv("KSERIES_LORE");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_gunzip),
		cmocka_unit_test(test_gunzip_bad),
		cmocka_unit_test(test_urls),
		cmocka_unit_test(test_base),
	};

	return cmocka_run_group_tests_name("lore", tests, NULL, NULL);
}
