// SPDX-License-Identifier: GPL-2.0-only
/*
 * rangediff.c - git range-diff of two versions applied to their base.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check-cache.h"
#include "rangediff.h"
#include "run.h"
#include "util.h"
#include "banned.h"

#define RANGEDIFF_CACHE "feedback-range-diff"

int rangediff_apply(const char *tree, const char *base, GPtrArray *fa,
		    GPtrArray *fb, struct applied *a, struct applied *b)
{
	if (apply_series(tree, base, fa, true, a) < 0 ||
	    apply_series(tree, base, fb, true, b) < 0)
		return -1;
	return 0;
}

/* base..tip of an applied version (tip: the base when nothing applied). */
static char *range_of(const struct applied *a)
{
	return g_strdup_printf("%s..%s", a->base, a->commits->len ?
			       (char *)a->commits->pdata[a->commits->len - 1] :
			       a->base);
}

int rangediff_print(const char *tree, const struct applied *a,
		    const struct applied *b)
{
	char *ra = range_of(a), *rb = range_of(b);
	const char *argv[] = { "git", "range-diff", "--no-color", ra, rb,
			       NULL };
	int ret;

	fflush(stdout);
	ret = run_passthrough(tree, argv) == 0 ? 0 : -1;
	g_free(ra);
	g_free(rb);
	return ret;
}

GArray *rangediff_parse(const char *out, guint na)
{
	GArray *pairs = g_array_new(FALSE, FALSE, sizeof(int));
	char **lines = g_strsplit(out, "\n", -1);
	int none = -1;

	for (guint i = 0; i < na; i++)
		g_array_append_val(pairs, none);
	/* "1:  2de5c6c35 ! 1:  4bf6b4450 title", '=' or '!' pair them */
	for (char **l = lines; *l; l++) {
		char *p = *l, *end;
		long a, b;
		char st;

		while (*p == ' ')
			p++;
		a = strtol(p, &end, 10);
		if (end == p || *end != ':')
			continue;
		p = end + 1;
		while (*p == ' ')
			p++;
		while (*p && *p != ' ')
			p++;	/* the commit */
		if (*p != ' ' || !p[1])
			continue;
		st = p[1];
		p += 2;
		while (*p == ' ')
			p++;
		b = strtol(p, &end, 10);
		if ((st != '=' && st != '!') || end == p || *end != ':' ||
		    a < 1 || (guint)a > na || b < 1 || b > 9999)
			continue;
		g_array_index(pairs, int, a - 1) = (int)b - 1;
	}
	g_strfreev(lines);
	return pairs;
}

/* range-diff -s of fa and fb, parsed; NULL when it cannot be run. */
static GArray *run_pairs(const char *tree, const char *base, GPtrArray *fa,
			 GPtrArray *fb)
{
	struct applied aa, ab;
	GArray *pairs = NULL;

	applied_init(&aa);
	applied_init(&ab);
	if (rangediff_apply(tree, base, fa, fb, &aa, &ab) == 0 &&
	    aa.commits->len && ab.commits->len) {
		char *ra = range_of(&aa), *rb = range_of(&ab);
		const char *argv[] = { "git", "range-diff", "--no-color", "-s",
				       ra, rb, NULL };
		struct run_opts o = { .dir = tree, .capture_out = true,
				      .capture_err = true };
		struct run_result r = { 0 };

		if (run_argv(argv, &o, &r) == 0 && r.status == 0)
			pairs = rangediff_parse(r.out->str, fa->len);
		if (r.out)
			run_result_release(&r);
		g_free(ra);
		g_free(rb);
	}
	applied_release(&aa);
	applied_release(&ab);
	return pairs;
}

GArray *rangediff_pairs(const char *tree, const char *base, GPtrArray *fa,
			GPtrArray *fb)
{
	char *key = check_cache_patches_key(base, fa, fb);
	GArray *pairs = NULL;
	GString *c;
	char *buf;
	size_t len;

	if (check_cache_blob_get(RANGEDIFF_CACHE, key, &buf, &len) == 0) {
		if (strncmp(buf, "none", 4))
			pairs = rangediff_parse(buf, fa->len);
		g_free(buf);
		g_free(key);
		return pairs;
	}
	pairs = run_pairs(tree, base, fa, fb);
	/* the cache holds range-diff's own form, read back above */
	c = g_string_new(pairs ? "" : "none\n");
	for (guint i = 0; pairs && i < pairs->len; i++) {
		int b = g_array_index(pairs, int, i);

		if (b >= 0)
			g_string_append_printf(c, "%u:  x = %d:  x\n", i + 1,
					       b + 1);
	}
	check_cache_blob_put(RANGEDIFF_CACHE, key, c->str, c->len);
	g_string_free(c, TRUE);
	g_free(key);
	return pairs;
}
