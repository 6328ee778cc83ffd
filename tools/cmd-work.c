// SPDX-License-Identifier: GPL-2.0-only
/*
 * kseries work SERIES[@vN] [-w TREE] [-b BRANCH]
 *
 * The version (the latest when none is named) as commits on BRANCH
 * (default kseries/SERIES) of the user's kernel tree, checked out for
 * editing; also a b4 prep branch (work.h).
 */
#include <stdio.h>
#include <string.h>

#include "builtin.h"
#include "parse-options.h"
#include "series.h"
#include "util.h"
#include "work.h"
#include "banned.h"

static const char work_usage[] =
	"kseries work SERIES[@vN] [-w TREE] [-b BRANCH]";

int cmd_work(int argc, const char **argv)
{
	const char *spec = NULL, *tree_opt = NULL, *branch_opt = NULL;
	char *name = NULL, *tree = NULL, *branch = NULL;
	struct series s = { 0 };
	int version, ret = EXIT_FINDINGS;
	/* the tree's git config key is kseries.tree (work.h) */
	const struct option options[] = {
		OPT_STRING_F('w', "worktree", &tree_opt, "TREE",
			     "your kernel tree (default: kseries.tree, or here)",
			     PARSE_OPT_NOCONFIG),
		OPT_STRING_F('b', "branch", &branch_opt, "BRANCH",
			     "the branch (default: the series' name)",
			     PARSE_OPT_NOCONFIG),
		OPT_END(),
	};

	if (parse_options(argc, argv, "work", options, work_usage, 0) != 1)
		usage(work_usage);
	spec = argv[0];
	if (series_parse_spec(spec, &name, &version) < 0)
		return EXIT_USAGE;
	if (series_load(name, &s) < 0)
		goto out;
	if (!version)
		version = series_latest_version(&s);
	tree = work_user_tree(tree_opt);
	branch = tree ? work_branch_name(&s, branch_opt) : NULL;
	if (branch && work_checkout(&s, version, tree, branch) == 0)
		ret = 0;
out:
	series_release(&s);
	g_free(name);
	g_free(tree);
	g_free(branch);
	return ret;
}
