// SPDX-License-Identifier: GPL-2.0-only
/*
 * kseries b4-branch SERIES[@vN] - a b4 prep branch that `b4 send` sends
 * (b4.h says how it is made).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "b4.h"
#include "builtin.h"
#include "parse-options.h"
#include "run.h"
#include "util.h"
#include "workbench.h"
#include "banned.h"

static const char b4_usage[] =
	"kseries b4-branch SERIES[@vN] [-w DIR] [-n NAME] [--force]";

int cmd_b4_branch(int argc, const char **argv)
{
	const char *spec = NULL, *wt_opt = NULL, *name_opt = NULL;
	bool force = false;
	struct b4_branch_opts o;
	struct b4_branch b;
	int ret = EXIT_FINDINGS;
	const struct option options[] = {
		OPT_STRING_F('w', "worktree", &wt_opt, "DIR",
			     "the branch's worktree (default: wt/b4-NAME in the cache)",
			     PARSE_OPT_NOCONFIG),
		OPT_STRING_F('n', "name", &name_opt, "NAME",
			     "the branch's name (default: b4/SERIES)",
			     PARSE_OPT_NOCONFIG),
		OPT_BOOL_F(0, "force", &force, "replace the branch if it exists",
			   PARSE_OPT_NOCONFIG),
		OPT_END(),
	};

	if (parse_options(argc, argv, "b4-branch", options, b4_usage, 0) != 1)
		usage(b4_usage);
	spec = argv[0];
	if (!have_program("b4"))
		die("b4 is not installed");
	if (name_opt && !b4_branch_name_ok(name_opt))
		die("bad branch name '%s'", name_opt);
	if (!kernel_tree())
		die("no base tree: provision %s/linux or set KSERIES_TREE",
		    cache_dir());

	o = (struct b4_branch_opts){ .spec = spec, .worktree = wt_opt,
				     .name = name_opt, .force = force };
	b4_branch_init(&b);
	if (b4_branch_prepare(&o, &b) == 0) {
		printf("%s\t%s\tv%d\t%s\n", b.worktree, b.branch, b.version,
		       b.change_id ? b.change_id : "");
		ret = 0;
	}
	b4_branch_release(&b);
	return ret;
}
