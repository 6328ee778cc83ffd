// SPDX-License-Identifier: GPL-2.0-only
/*
 * workbench.c - the cache directory and the base kernel tree.
 */
#include <stdlib.h>

#include <glib.h>

#include "util.h"
#include "workbench.h"
#include "banned.h"

const char *cache_dir(void)
{
	static char *dir;

	if (!dir) {
		const char *env = getenv("KSERIES_CACHE");

		dir = env && *env ? g_strdup(env) :
		      g_build_filename(g_get_home_dir(), ".cache", "kseries", NULL);
	}
	return dir;
}

/*
 * Only a tree that is there is remembered: a check provisions it when
 * missing (cmd-check.c ensure_tree) and asks again in the same run.
 */
const char *kernel_tree(void)
{
	static char *tree;
	const char *env;
	char *t, *git;

	if (tree)
		return tree;
	env = getenv("KSERIES_TREE");
	t = env && *env ? g_strdup(env) :
	    g_build_filename(cache_dir(), "linux", NULL);
	git = g_build_filename(t, ".git", NULL);
	if (is_dir(git) || is_file(git))
		tree = t;
	else
		g_free(t);
	g_free(git);
	return tree;
}
