// SPDX-License-Identifier: GPL-2.0-only
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <glib.h>

#include "svgplot.h"

static unsigned count(const char *hay, const char *needle)
{
	unsigned n = 0;

	for (const char *p = hay; (p = strstr(p, needle)); p++)
		n++;
	return n;
}

static void test_quantile_type7(void **state)
{
	static const double v[] = { 1, 2, 3, 4 };
	static const double one[] = { 7 };

	assert_float_equal(svgplot_quantile(v, 4, 0), 1, 1e-12);
	assert_float_equal(svgplot_quantile(v, 4, 0.25), 1.75, 1e-12);
	assert_float_equal(svgplot_quantile(v, 4, 0.5), 2.5, 1e-12);
	assert_float_equal(svgplot_quantile(v, 4, 0.75), 3.25, 1e-12);
	assert_float_equal(svgplot_quantile(v, 4, 1), 4, 1e-12);
	assert_float_equal(svgplot_quantile(one, 1, 0.5), 7, 1e-12);
	assert_true(isnan(svgplot_quantile(v, 0, 0.5)));
}

static void test_every_finite_value_is_a_point(void **state)
{
	const double base[] = { 10, 12, NAN, 11, INFINITY };
	const double tip[] = { 20, 21 };
	struct svgplot_sample s[] = { { "base", base, 5 }, { "patched", tip, 2 } };
	char *svg = svgplot_box("iter_per_s", "patched/base 1.80x, p=0.1", s, 2);

	assert_non_null(svg);
	assert_true(g_str_has_prefix(svg, "<?xml"));
	assert_int_equal(count(svg, "<circle "), 5);
	assert_int_equal(count(svg, "fill=\"#cfe0f3\""), 2);	/* two boxes */
	assert_non_null(strstr(svg, ">patched/base 1.80x, p=0.1</text>"));
	assert_null(strstr(svg, "nan"));
	assert_null(strstr(svg, "inf"));
	g_free(svg);
}

static void test_text_is_escaped(void **state)
{
	const double v[] = { 1, 2 };
	struct svgplot_sample s[] = { { "<b>&", v, 2 } };
	char *svg = svgplot_box("<script>x</script>", "a<b", s, 1);

	assert_null(strstr(svg, "<script"));
	assert_null(strstr(svg, "<b>"));
	assert_non_null(strstr(svg, "&lt;script&gt;x&lt;/script&gt;"));
	assert_non_null(strstr(svg, "&lt;b&gt;&amp;"));
	assert_non_null(strstr(svg, "a&lt;b"));
	g_free(svg);
}

static void test_one_value_and_none(void **state)
{
	const double same[] = { 5, 5, 5 };
	const double bad[] = { NAN };
	struct svgplot_sample one[] = { { "base", same, 3 } };
	struct svgplot_sample none[] = { { "base", bad, 1 }, { "patched", NULL, 0 } };
	char *svg = svgplot_box("t", NULL, one, 1);

	assert_non_null(svg);
	assert_null(strstr(svg, "nan"));
	assert_int_equal(count(svg, "<circle "), 3);
	g_free(svg);
	assert_null(svgplot_box("t", NULL, none, 2));
	assert_null(svgplot_box("t", NULL, NULL, 0));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_quantile_type7),
		cmocka_unit_test(test_every_finite_value_is_a_point),
		cmocka_unit_test(test_text_is_escaped),
		cmocka_unit_test(test_one_value_and_none),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
