// SPDX-License-Identifier: GPL-2.0-only
/*
 * workbench.c - the cache directory, the base kernel tree and its
 * provisioning, the workbench's scripts and rules, and the toolchain's
 * record.
 */
#include <stdio.h>
#include <stdlib.h>

#include <glib.h>

#include "run.h"
#include "series.h"
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
 * missing (workbench_ensure_tree()) and asks again in the same run.
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

/* New string. */
static char *resource_dir(const char *name, const char *env_name)
{
	const char *env = getenv(env_name);
	char *dir, *exe, *exedir;

	if (env && *env)
		return g_strdup(env);
	dir = g_build_filename(store_top(), name, NULL);
	if (is_dir(dir))
		return dir;
	g_free(dir);
	exe = g_file_read_link("/proc/self/exe", NULL);
	exedir = exe ? g_path_get_dirname(exe) : g_strdup(".");
	/* beside the binary in its source tree, else where make install puts it */
	dir = g_build_filename(exedir, name, NULL);
	if (!is_dir(dir)) {
		g_free(dir);
		dir = g_build_filename(exedir, "..", "share", "kseries", name,
				       NULL);
	}
	g_free(exe);
	g_free(exedir);
	return dir;
}

const char *workbench_kernel_dir(void)
{
	static char *dir;

	if (!dir)
		dir = resource_dir("kernel", "KSERIES_KERNEL_DIR");
	return dir;
}

const char *workbench_cocci_dir(void)
{
	static char *dir;

	if (!dir)
		dir = resource_dir("cocci", "KSERIES_COCCI_DIR");
	return dir;
}

const char *workbench_ensure_tree(void)
{
	char *prov;
	int status;

	if (kernel_tree())
		return kernel_tree();
	prov = g_build_filename(workbench_kernel_dir(), "provision-base", NULL);
	if (g_file_test(prov, G_FILE_TEST_IS_EXECUTABLE) &&
	    !getenv("KSERIES_TREE")) {
		const char *argv[] = { prov, NULL };

		fprintf(stderr, "kseries: provisioning the base tree (kernel/provision-base)\n");
		status = run_passthrough(NULL, argv);
		g_free(prov);
		if (status != 0)
			return NULL;
		return kernel_tree();
	}
	g_free(prov);
	return NULL;
}

char *workbench_toolchain_versions(size_t *len)
{
	char *path = g_build_filename(cache_dir(), "sid", ".kseries-versions",
				      NULL);
	char *buf = NULL;

	if (!is_file(path) || read_file(path, 1 << 20, &buf, len) < 0)
		buf = NULL;
	g_free(path);
	return buf;
}
