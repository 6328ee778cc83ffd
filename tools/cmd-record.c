// SPDX-License-Identifier: GPL-2.0-only
/*
 * kseries record SERIES [-w TREE] [-b BRANCH]
 *
 * The branch (default kseries/SERIES) of the user's kernel tree as the
 * next version of the series, or the unsent draft updated (record.h).
 */
#include <stdio.h>
#include <string.h>

#include "builtin.h"
#include "parse-options.h"
#include "record.h"
#include "series.h"
#include "util.h"
#include "work.h"
#include "banned.h"

static const char record_usage[] =
	"kseries record SERIES [-w TREE] [-b BRANCH]";

int cmd_record(int argc, const char **argv)
{
	const char *name = NULL, *tree_opt = NULL, *branch_opt = NULL;
	char *tree = NULL, *branch = NULL;
	struct series s = { 0 };
	int ret = EXIT_FINDINGS;
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

	if (parse_options(argc, argv, "record", options, record_usage, 0) != 1)
		usage(record_usage);
	name = argv[0];
	if (!safe_component(name))
		die("bad series name '%s'", name);
	if (series_load(name, &s) < 0)
		goto out;
	tree = work_user_tree(tree_opt);
	branch = tree ? work_branch_name(&s, branch_opt) : NULL;
	if (branch && record_branch(&s, tree, branch) == 0)
		ret = 0;
out:
	series_release(&s);
	g_free(tree);
	g_free(branch);
	return ret;
}
