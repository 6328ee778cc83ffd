// SPDX-License-Identifier: GPL-2.0-only
/*
 * kseries show SERIES[@vN] - what the store knows of a series.
 */
#include <stdio.h>
#include <string.h>

#include "builtin.h"
#include "mail.h"
#include "parse-options.h"
#include "series.h"
#include "subject.h"
#include "util.h"
#include "banned.h"

static const char show_usage[] = "kseries show SERIES[@vN]";

static void show_list(const struct series *s, const char *key,
		      const char *label)
{
	GPtrArray *v = series_get_all(s, key);

	for (guint i = 0; v && i < v->len; i++)
		printf("%-10s %s\n", i ? "" : label, (char *)v->pdata[i]);
}

static int show_version(const struct series *s, int v)
{
	static const char *const keys[] = { "origin", "date", "author",
					    "message-id", "link",
					    "reconstructed" };
	GPtrArray *files = series_patch_files(s, v, true);
	char *dir = series_version_dir(s, v);
	char *thread = g_build_filename(dir, "thread.mbox", NULL);
	int ret = 0;

	printf("\nv%d\n", v);
	for (size_t i = 0; i < G_N_ELEMENTS(keys); i++) {
		const char *val = series_version_get(s, v, keys[i]);

		if (val)
			printf("  %-12s %s\n", keys[i], val);
	}
	for (guint i = 0; i < files->len; i++) {
		GPtrArray *mails = mail_array_new();

		if (mail_read_mbox(files->pdata[i], mails) < 0 || !mails->len) {
			ret = -1;
		} else {
			struct mail *m = mails->pdata[0];

			printf("  %s\n", m->subject);
		}
		g_ptr_array_unref(mails);
	}
	if (!files->len)
		printf("  (no patches here)\n");
	if (is_file(thread)) {
		GPtrArray *mails = mail_array_new();

		if (mail_read_mbox(thread, mails) == 0)
			printf("  thread.mbox: %u repl%s\n", mails->len,
			       mails->len == 1 ? "y" : "ies");
		else
			ret = -1;
		g_ptr_array_unref(mails);
	}
	g_free(thread);
	g_free(dir);
	g_ptr_array_unref(files);
	return ret;
}

int cmd_show(int argc, const char **argv)
{
	const struct option options[] = {
		OPT_END(),
	};
	struct series s;
	char *name;
	int version, ret = 0;
	GArray *versions;

	argc = parse_options(argc, argv, "show", options, show_usage, 0);
	if (argc != 1)
		usage(show_usage);
	if (series_parse_spec(argv[0], &name, &version) < 0)
		return EXIT_USAGE;
	if (series_load(name, &s) < 0) {
		g_free(name);
		return EXIT_FINDINGS;
	}
	g_free(name);
	printf("%-10s %s\n", "series", s.name);
	printf("%-10s %s\n", "title", series_get(&s, "series.title") ?: "");
	printf("%-10s %s\n", "prefix", series_get(&s, "series.prefix") ?: "PATCH");
	printf("%-10s %s\n", "base", series_get(&s, "series.base") ?: "");
	printf("%-10s %s\n", "change-id", series_get(&s, "series.change-id") ?: "");
	if (series_get(&s, "series.tree"))
		printf("%-10s %s\n", "tree", series_get(&s, "series.tree"));
	show_list(&s, "series.to", "to");
	show_list(&s, "series.cc", "cc");
	versions = series_versions(&s);
	if (version) {
		bool found = false;

		for (guint i = 0; i < versions->len; i++)
			found |= g_array_index(versions, int, i) == version;
		if (!found)
			ret = error("%s has no v%d", s.name, version);
		else if (show_version(&s, version) < 0)
			ret = -1;
	} else {
		for (guint i = 0; i < versions->len; i++)
			if (show_version(&s, g_array_index(versions, int, i)) < 0)
				ret = -1;
	}
	g_array_unref(versions);
	series_release(&s);
	return ret ? EXIT_FINDINGS : 0;
}
