// SPDX-License-Identifier: GPL-2.0-only
/*
 * cmd-ci.c - kseries ci --gitlab (SERIES[@vN]... | --all): the check
 * pipeline as GitLab CI YAML on stdout (ci-gitlab.h).
 */
#include <stdio.h>

#include "builtin.h"
#include "ci-gitlab.h"
#include "parse-options.h"
#include "series.h"
#include "util.h"
#include "banned.h"

static const char ci_usage[] = "kseries ci --gitlab (SERIES[@vN]... | --all)";

int cmd_ci(int argc, const char **argv)
{
	bool gitlab = false, all = false;
	GPtrArray *specs;
	int ret;
	const struct option options[] = {
		OPT_BOOL_F(0, "gitlab", &gitlab, "a GitLab CI pipeline (YAML)",
			   PARSE_OPT_NOCONFIG),
		OPT_BOOL_F(0, "all", &all, "the latest version of every series",
			   PARSE_OPT_NOCONFIG),
		OPT_END(),
	};

	argc = parse_options(argc, argv, "ci", options, ci_usage, 0);
	if (!gitlab || all == (argc > 0))
		usage(ci_usage);
	if (all) {
		specs = series_list_names();
	} else {
		specs = g_ptr_array_new_with_free_func(g_free);
		for (int i = 0; i < argc; i++)
			g_ptr_array_add(specs, g_strdup(argv[i]));
	}
	ret = ci_gitlab_print(stdout, specs);
	g_ptr_array_unref(specs);
	return ret < 0 ? EXIT_FINDINGS : 0;
}
