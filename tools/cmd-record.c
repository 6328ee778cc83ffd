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

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
			printf("usage: %s\n", record_usage);
			return 0;
		} else if (!strcmp(argv[i], "-w") && i + 1 < argc) {
			tree_opt = argv[++i];
		} else if (!strcmp(argv[i], "-b") && i + 1 < argc) {
			branch_opt = argv[++i];
		} else if (argv[i][0] == '-' || name) {
			usage(record_usage);
		} else {
			name = argv[i];
		}
	}
	if (!name)
		usage(record_usage);
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
