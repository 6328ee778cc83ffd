// SPDX-License-Identifier: GPL-2.0-only
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "run.h"
#include "util.h"

/* The child's environment, one "NAME=VALUE" a line, as env(1) sees it. */
static char *child_env(const struct run_opts *o)
{
	const char *argv[] = { "env", NULL };
	char *out = NULL;

	assert_int_equal(run_capture_opts(o, argv, &out, NULL), 0);
	return out;
}

static bool has_line(const char *text, const char *line)
{
	char **lines = g_strsplit(text, "\n", -1);
	bool found = false;

	for (char **l = lines; *l && !found; l++)
		found = !strcmp(*l, line);
	g_strfreev(lines);
	return found;
}

static bool has_var(const char *text, const char *name)
{
	char **lines = g_strsplit(text, "\n", -1);
	size_t n = strlen(name);
	bool found = false;

	for (char **l = lines; *l && !found; l++)
		found = !strncmp(*l, name, n) && (*l)[n] == '=';
	g_strfreev(lines);
	return found;
}

/* Every variable of git's local_repo_env, and the GIT_CONFIG_* family. */
static const char *const repo_vars[] = {
	"GIT_ALTERNATE_OBJECT_DIRECTORIES", "GIT_CONFIG",
	"GIT_CONFIG_PARAMETERS", "GIT_CONFIG_COUNT", "GIT_OBJECT_DIRECTORY",
	"GIT_DIR", "GIT_WORK_TREE", "GIT_IMPLICIT_WORK_TREE",
	"GIT_GRAFT_FILE", "GIT_INDEX_FILE", "GIT_NO_REPLACE_OBJECTS",
	"GIT_NO_LAZY_FETCH", "GIT_REPLACE_REF_BASE", "GIT_PREFIX",
	"GIT_INTERNAL_SUPER_PREFIX", "GIT_SHALLOW_FILE", "GIT_COMMON_DIR",
	"GIT_CONFIG_KEY_0", "GIT_CONFIG_VALUE_0", "GIT_CONFIG_KEY_12",
	"GIT_NAMESPACE", "GIT_EDITOR", "GIT_SEQUENCE_EDITOR",
};

static void test_repo_vars_scrubbed(void **state)
{
	struct run_opts o = { 0 };
	char *env;

	for (size_t i = 0; i < G_N_ELEMENTS(repo_vars); i++)
		setenv(repo_vars[i], "/elsewhere", 1);
	setenv("KSERIES_T_RUN_KEEP", "kept", 1);
	env = child_env(&o);
	for (size_t i = 0; i < G_N_ELEMENTS(repo_vars); i++)
		if (has_var(env, repo_vars[i]))
			fail_msg("%s reached the child", repo_vars[i]);
	assert_true(has_line(env, "KSERIES_T_RUN_KEEP=kept"));
	assert_true(has_var(env, "PATH"));
	g_free(env);
	for (size_t i = 0; i < G_N_ELEMENTS(repo_vars); i++)
		unsetenv(repo_vars[i]);
	unsetenv("KSERIES_T_RUN_KEEP");
}

static void test_explicit_env_wins(void **state)
{
	const char *add[] = { "GIT_INDEX_FILE=/scratch/index",
			      "KSERIES_T_RUN=new", NULL };
	struct run_opts o = { .env = add };
	char *env;

	setenv("GIT_INDEX_FILE", "/inherited/index", 1);
	setenv("KSERIES_T_RUN", "old", 1);
	env = child_env(&o);
	assert_true(has_line(env, "GIT_INDEX_FILE=/scratch/index"));
	assert_false(has_line(env, "GIT_INDEX_FILE=/inherited/index"));
	assert_true(has_line(env, "KSERIES_T_RUN=new"));
	assert_false(has_line(env, "KSERIES_T_RUN=old"));
	g_free(env);
	unsetenv("GIT_INDEX_FILE");
	unsetenv("KSERIES_T_RUN");
}

static void test_git_pristine(void **state)
{
	const char *add[] = { "GIT_CONFIG_COUNT=1", NULL };
	struct run_opts o = { .env = add, .git_pristine = true };
	struct run_opts plain = { 0 };
	char *env;

	setenv("GIT_CONFIG_GLOBAL", "/home/user/.gitconfig", 1);
	setenv("GIT_CONFIG_NOSYSTEM", "0", 1);
	env = child_env(&o);
	assert_true(has_line(env, "GIT_CONFIG_NOSYSTEM=1"));
	assert_true(has_line(env, "GIT_CONFIG_GLOBAL=/dev/null"));
	assert_false(has_line(env, "GIT_CONFIG_GLOBAL=/home/user/.gitconfig"));
	assert_true(has_line(env,
		"GIT_CONFIG_PARAMETERS='core.attributesfile'='/dev/null'"));
	assert_true(has_line(env, "GIT_CONFIG_COUNT=1"));
	g_free(env);
	/* without it, the user's choice of global config stands */
	env = child_env(&plain);
	assert_true(has_line(env, "GIT_CONFIG_GLOBAL=/home/user/.gitconfig"));
	g_free(env);
	unsetenv("GIT_CONFIG_GLOBAL");
	unsetenv("GIT_CONFIG_NOSYSTEM");
}

/* git itself, pointed elsewhere by GIT_DIR, stays in the directory given. */
static void test_git_stays_in_dir(void **state)
{
	char *dir = g_dir_make_tmp("t-run-XXXXXX", NULL);
	char *other = g_build_filename(dir, "other", NULL);
	char *mine = g_build_filename(dir, "mine", NULL);
	const char *init_o[] = { "git", "init", "-q", other, NULL };
	const char *init_m[] = { "git", "init", "-q", mine, NULL };
	const char *top[] = { "git", "rev-parse", "--show-toplevel", NULL };
	struct run_opts o = { .dir = mine };
	char *gd = g_build_filename(other, ".git", NULL);
	char *out = NULL;

	assert_int_equal(run_capture(NULL, init_o, &out), 0);
	g_free(out);
	assert_int_equal(run_capture(NULL, init_m, &out), 0);
	g_free(out);
	setenv("GIT_DIR", gd, 1);
	setenv("GIT_WORK_TREE", other, 1);
	assert_int_equal(run_capture_opts(&o, top, &out, NULL), 0);
	unsetenv("GIT_DIR");
	unsetenv("GIT_WORK_TREE");
	{
		char *real = realpath(mine, NULL);

		assert_string_equal(out, real);
		free(real);
	}
	g_free(out);
	remove_tree(dir);
	g_free(gd);
	g_free(mine);
	g_free(other);
	g_free(dir);
}

static void test_capture_log(void **state)
{
	const char *ok[] = { "sh", "-c", "echo out; echo err >&2", NULL };
	const char *bad[] = { "sh", "-c", "echo out2; echo err2 >&2; exit 3",
			      NULL };
	const char *in[] = { "cat", NULL };
	struct run_opts o = { 0 };
	struct run_opts oi = { .in = "a\nb\n\n", .in_len = 5 };
	GString *log = g_string_new(NULL);
	char *out = NULL;

	/* success: stdout without its trailing newline, stderr logged */
	assert_int_equal(run_capture_opts(&o, ok, &out, log), 0);
	assert_string_equal(out, "out");
	assert_string_equal(log->str, "err\n");
	g_free(out);
	/* failure: stderr, then stdout, into the log; no output */
	g_string_truncate(log, 0);
	assert_int_equal(run_capture_opts(&o, bad, &out, log), -1);
	assert_null(out);
	assert_string_equal(log->str, "err2\nout2\n");
	/* stdin is fed */
	assert_int_equal(run_capture_opts(&oi, in, &out, NULL), 0);
	assert_string_equal(out, "a\nb");
	g_free(out);
	/* out may be NULL */
	assert_int_equal(run_capture_opts(&o, ok, NULL, NULL), 0);
	g_string_free(log, TRUE);
}

static void test_status(void **state)
{
	const char *seven[] = { "sh", "-c", "exit 7", NULL };
	const char *term[] = { "sh", "-c", "kill -TERM $$", NULL };
	const char *missing[] = { "kseries-no-such-program", NULL };
	struct run_result res;

	assert_int_equal(run_argv(seven, NULL, &res), 0);
	assert_int_equal(res.status, 7);
	assert_false(res.timed_out);
	assert_null(res.out);
	run_result_release(&res);
	/* a signal N is 128+N, as the shell says it */
	assert_int_equal(run_argv(term, NULL, &res), 0);
	assert_int_equal(res.status, 128 + 15);
	run_result_release(&res);
	/* exec fails in the child: 127, as the shell says it */
	assert_int_equal(run_argv(missing, NULL, &res), 0);
	assert_int_equal(res.status, 127);
	run_result_release(&res);
	assert_true(have_program("sh"));
	assert_false(have_program("kseries-no-such-program"));
}

static void test_timeout(void **state)
{
	/* a grandchild keeps the pipe open: the timeout still ends it */
	const char *slow[] = { "sh", "-c", "echo started; sleep 5 & sleep 5",
			       NULL };
	struct run_opts o = { .capture_out = true, .timeout = 1 };
	struct run_result res;
	gint64 t0 = g_get_monotonic_time();

	assert_int_equal(run_argv(slow, &o, &res), 0);
	assert_true(res.timed_out);
	assert_int_equal(res.status, 128 + 9);
	assert_string_equal(res.out->str, "started\n");
	assert_true(g_get_monotonic_time() - t0 < 10 * G_USEC_PER_SEC);
	run_result_release(&res);
}

static void test_streams(void **state)
{
	const char *both[] = { "sh", "-c", "echo a; echo b >&2; echo c", NULL };
	const char *cat[] = { "cat", NULL };
	struct run_opts merged = { .capture_out = true, .merge_err = true };
	struct run_opts split = { .capture_out = true, .capture_err = true };
	struct run_opts big = { .capture_out = true };
	struct run_result res;
	GString *out = g_string_new("kept:"), *err = g_string_new(NULL);
	size_t n = 3u << 20;
	char *in = g_malloc(n);

	/* stderr joins stdout, in the order written */
	assert_int_equal(run_argv(both, &merged, &res), 0);
	assert_string_equal(res.out->str, "a\nb\nc\n");
	assert_null(res.err);
	run_result_release(&res);
	assert_int_equal(run_argv(both, &split, &res), 0);
	assert_string_equal(res.out->str, "a\nc\n");
	assert_string_equal(res.err->str, "b\n");
	run_result_release(&res);
	/* run_output appends */
	assert_int_equal(run_output(&split, both, out, err), 0);
	assert_string_equal(out->str, "kept:a\nc\n");
	assert_string_equal(err->str, "b\n");
	/* megabytes in and out at once: no deadlock, every byte */
	for (size_t i = 0; i < n; i++)
		in[i] = (char)('a' + i % 26);
	big.in = in;
	big.in_len = n;
	assert_int_equal(run_argv(cat, &big, &res), 0);
	assert_int_equal(res.status, 0);
	assert_int_equal(res.out->len, n);
	assert_memory_equal(res.out->str, in, n);
	run_result_release(&res);
	g_free(in);
	g_string_free(out, TRUE);
	g_string_free(err, TRUE);
}

static void test_dir(void **state)
{
	const char *pwd[] = { "pwd", NULL };
	char *dir = g_dir_make_tmp("t-run-XXXXXX", NULL);
	char *gone = g_build_filename(dir, "gone", NULL);
	char *real = realpath(dir, NULL);
	struct run_opts o = { .dir = dir };
	struct run_opts bad = { .dir = gone, .capture_err = true };
	struct run_result res;
	char *out = NULL;

	assert_int_equal(run_capture_opts(&o, pwd, &out, NULL), 0);
	assert_string_equal(out, real);
	g_free(out);
	/* a directory that is not there: the child says so, exit 127 */
	assert_int_equal(run_argv(pwd, &bad, &res), 0);
	assert_int_equal(res.status, 127);
	assert_non_null(strstr(res.err->str, "cannot chdir"));
	run_result_release(&res);
	remove_tree(dir);
	free(real);
	g_free(gone);
	g_free(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_repo_vars_scrubbed),
		cmocka_unit_test(test_explicit_env_wins),
		cmocka_unit_test(test_git_pristine),
		cmocka_unit_test(test_git_stays_in_dir),
		cmocka_unit_test(test_capture_log),
		cmocka_unit_test(test_status),
		cmocka_unit_test(test_timeout),
		cmocka_unit_test(test_streams),
		cmocka_unit_test(test_dir),
	};

	return cmocka_run_group_tests_name("run", tests, NULL, NULL);
}
