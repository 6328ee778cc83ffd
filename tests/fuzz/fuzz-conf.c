// SPDX-License-Identifier: GPL-2.0-only
/*
 * libFuzzer harness: series.conf values (tools/series.c).
 *
 * series.conf is read in-process by libgit2's config parser: the input
 * is fed to conf_parse() as a series.conf's bytes (syntax, value checks),
 * and then to what is read out of it: the version numbers (series_versions()),
 * the recipients (series.to/cc through recipients_add()), the
 * maintainer-notes header block, and the NAME@vN spec. The input is fed
 * to each of them as a series.conf, as a note, and as a spec.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "recipients.h"
#include "series.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void values(const struct series *s)
{
	GPtrArray *to = g_ptr_array_new_with_free_func(g_free);
	GPtrArray *cc = g_ptr_array_new_with_free_func(g_free);
	GArray *vs = series_versions(s);
	GPtrArray *v;

	for (guint i = 0; i < vs->len; i++) {
		int n = g_array_index(vs, int, i);

		if (n < 1 || n > 9999 ||
		    (i && g_array_index(vs, int, i - 1) >= n))
			abort();
	}
	g_array_unref(vs);
	(void)series_latest_version(s);
	v = series_get_all(s, "series.to");
	for (guint i = 0; v && i < v->len; i++)
		recipients_add(to, NULL, v->pdata[i]);
	v = series_get_all(s, "series.cc");
	for (guint i = 0; v && i < v->len; i++)
		recipients_add(cc, to, v->pdata[i]);
	for (guint i = 0; i < to->len; i++) {
		char *a = recipients_addr(to->pdata[i]);

		g_free(a);
	}
	(void)series_get(s, "series.base");
	g_ptr_array_unref(to);
	g_ptr_array_unref(cc);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct series s = { .name = (char *)"fuzz",
			    .dir = (char *)"/nonexistent/kseries-fuzz" };
	struct maint_note *n;
	char *spec, *name;
	int version;

	s.conf = conf_parse((const char *)data, size);
	if (s.conf) {
		values(&s);
		g_hash_table_unref(s.conf);
	}

	n = maint_note_parse((const char *)data, size, "fuzz");
	if (n)
		maint_note_free(n);

	spec = g_strndup((const char *)data, size);
	if (series_parse_spec(spec, &name, &version) == 0) {
		if (!name || version < 0 || version > 9999 || strchr(name, '/'))
			abort();
		g_free(name);
	} else if (name) {
		abort();
	}
	g_free(spec);
	return 0;
}
