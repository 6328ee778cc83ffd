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

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
			printf("usage: %s\n", work_usage);
			return 0;
		} else if (!strcmp(argv[i], "-w") && i + 1 < argc) {
			tree_opt = argv[++i];
		} else if (!strcmp(argv[i], "-b") && i + 1 < argc) {
			branch_opt = argv[++i];
		} else if (argv[i][0] == '-' || spec) {
			usage(work_usage);
		} else {
			spec = argv[i];
		}
	}
	if (!spec)
		usage(work_usage);
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
