// SPDX-License-Identifier: GPL-2.0-only
/*
 * kseries list - one line per series: name, latest version, state, last
 * check, open review comments.
 */
#include <dirent.h>
#include <stdio.h>
#include <string.h>

#include "apply.h"
#include "builtin.h"
#include "feedback-count.h"
#include "parse-options.h"
#include "series.h"
#include "util.h"
#include "workbench.h"
#include "banned.h"

static char *last_check(const char *name, int version)
{
	char *path = g_strdup_printf("%s/results/%s/v%d/summary", cache_dir(),
				     name, version);
	char *buf = NULL;
	size_t len;

	if (is_file(path) && read_file(path, 4096, &buf, &len) == 0)
		g_strstrip(buf);
	g_free(path);
	return buf ? buf : g_strdup("never checked");
}

static const char list_usage[] = "kseries list [-v]";

/* The state column: withdrawn, else where the latest version stands. */
static const char *state_word(const struct series *s, int version)
{
	const char *origin = series_version_get(s, version, "origin");

	if (series_state(s) == SERIES_WITHDRAWN)
		return "withdrawn";
	return !origin || !strcmp(origin, "ours") ? "draft" : origin;
}

int cmd_list(int argc, const char **argv)
{
	bool verbose = false;
	const struct option options[] = {
		OPT_BOOL('v', "verbose", &verbose,
			 "a withdrawn series' reason, on the line below it"),
		OPT_END(),
	};
	GPtrArray *names;
	int ret = 0;

	argc = parse_options(argc, argv, "list", options, list_usage, 0);
	if (argc)
		usage(list_usage);
	names = series_list_names();
	for (guint i = 0; i < names->len; i++) {
		struct series s;
		char *check;
		bool unreadable;
		unsigned open;
		int v;

		if (series_load(names->pdata[i], &s) < 0) {
			ret = EXIT_FINDINGS;
			continue;
		}
		v = series_latest_version(&s);
		check = last_check(s.name, v);
		open = feedback_open_count(&s, &unreadable);
		if (unreadable)
			ret = EXIT_FINDINGS;
		printf("%-24s v%-3d %-13s %-28s %u open\n", s.name, v,
		       state_word(&s, v), check, open);
		if (verbose && series_state(&s) == SERIES_WITHDRAWN)
			printf("    withdrawn: %s\n", series_state_reason(&s));
		g_free(check);
		series_release(&s);
	}
	g_ptr_array_unref(names);
	return ret;
}
