// SPDX-License-Identifier: GPL-2.0-only
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>

#include "parse-options.h"
#include "util.h"

static const char usage_str[] = "t [-d] [-w DIR] [--to ADDR]... ARGS";

struct vals {
	bool dry_run, verbose, no_cache, thread;
	int cover;
	const char *wt, *name;
	GPtrArray *to;
	int calls;
	const char *last_cb;
};

static struct vals v;

static int count_cb(const struct option *opt, const char *arg, bool unset)
{
	struct vals *p = opt->value;

	if (arg && !strcmp(arg, "bad"))
		return error("bad value '%s'", arg);
	p->calls++;
	p->last_cb = unset ? "(unset)" : arg;
	return 0;
}

static const struct option opts[] = {
	OPT_BOOL('d', "dry-run", &v.dry_run, "only show"),
	OPT_BOOL('v', "verbose", &v.verbose, "more"),
	OPT_BOOL(0, "no-cache", &v.no_cache, "do not cache"),
	OPT_BOOL(0, "thread", &v.thread, "thread"),
	{ .type = OPTION_SET_INT, .long_name = "cover-letter", .value = &v.cover,
	  .defval = 1, .help = "a cover", .config = "format.coverLetter" },
	OPT_STRING('w', "worktree", &v.wt, "DIR", "the tree"),
	OPT_STRING_F('n', "name", &v.name, "NAME", "a name", PARSE_OPT_NOCONFIG),
	OPT_STRING_LIST(0, "to", NULL, "ADDR", "recipients"),
	OPT_CALLBACK('s', "stage", &v, "NAME", "a stage", count_cb),
	OPT_END(),
};

static struct option table[G_N_ELEMENTS(opts)];

static int setup(void **state)
{
	memset(&v, 0, sizeof(v));
	v.thread = true;
	v.cover = -1;
	v.to = g_ptr_array_new();
	memcpy(table, opts, sizeof(opts));
	for (size_t i = 0; table[i].type != OPTION_END; i++)
		if (table[i].long_name && !strcmp(table[i].long_name, "to"))
			table[i].value = v.to;
	config_set_for_test((const char *const[]){ NULL });
	return 0;
}

static int teardown(void **state)
{
	g_ptr_array_unref(v.to);
	config_set_for_test(NULL);
	return 0;
}

/* parse a NULL-terminated list; the array must be writable */
static int parse(const char *cmd, const char **argv)
{
	int argc = 0;

	while (argv[argc])
		argc++;
	return parse_options(argc, argv, cmd, table, usage_str, 0);
}

static void test_long_and_short(void **state)
{
	const char *argv[] = { "t", "a", "--dry-run", "--worktree=W1", "b",
			       "-w", "W2", "--to", "x@y", "--to=z@y", "c",
			       NULL };
	int n = parse(NULL, argv);

	assert_int_equal(n, 3);
	assert_string_equal(argv[0], "a");
	assert_string_equal(argv[1], "b");
	assert_string_equal(argv[2], "c");
	assert_null(argv[3]);
	assert_true(v.dry_run);
	assert_false(v.verbose);
	assert_string_equal(v.wt, "W2");	/* the last one wins */
	assert_int_equal(v.to->len, 2);
	assert_string_equal(v.to->pdata[1], "z@y");
}

static void test_bundles_and_dashdash(void **state)
{
	const char *argv[] = { "t", "-dvwDIR", "-sone", "-", "--", "-v",
			       "--no-such", NULL };
	int n = parse(NULL, argv);

	assert_true(v.dry_run);
	assert_true(v.verbose);
	assert_string_equal(v.wt, "DIR");
	assert_int_equal(v.calls, 1);
	assert_string_equal(v.last_cb, "one");
	assert_int_equal(n, 3);
	assert_string_equal(argv[0], "-");	/* stdin, not an option */
	assert_string_equal(argv[1], "-v");
	assert_string_equal(argv[2], "--no-such");
}

static void test_negation(void **state)
{
	const char *argv[] = { "t", "--dry-run", "--no-dry-run", "--no-thread",
			       "--no-cache", "--cover-letter", "--to", "a",
			       "--no-to", "--to", "b", "-w", "x",
			       "--no-worktree", NULL };

	parse(NULL, argv);
	assert_false(v.dry_run);
	assert_false(v.thread);
	assert_true(v.no_cache);
	assert_int_equal(v.cover, 1);
	assert_int_equal(v.to->len, 1);	/* --no-to cleared the list */
	assert_string_equal(v.to->pdata[0], "b");
	assert_null(v.wt);

	const char *argv2[] = { "t", "--no-cache", "--cache", "--thread",
				"--no-cover-letter", NULL };
	parse(NULL, argv2);
	assert_false(v.no_cache);	/* --cache negates --no-cache */
	assert_true(v.thread);
	assert_int_equal(v.cover, 0);
}

static void test_stop_at_non_option(void **state)
{
	const char *argv[] = { "kseries", "-d", "check", "-v", NULL };
	int n = parse_options(4, argv, NULL, table, usage_str,
			      PARSE_OPT_STOP_AT_NON_OPTION);

	assert_int_equal(n, 2);
	assert_string_equal(argv[0], "check");
	assert_string_equal(argv[1], "-v");
	assert_true(v.dry_run);
	assert_false(v.verbose);
}

static void test_config_fills_what_is_not_given(void **state)
{
	config_set_for_test((const char *const[]){
		"kseries.t.dry-run=yes", "kseries.t.verbose", "kseries.t.thread=off",
		"kseries.t.worktree=from-config", "kseries.t.name=never",
		"kseries.t.to=c1@x", "kseries.t.to=c2@x",
		"kseries.t.stage=s1", "kseries.t.stage=s2",
		"Kseries.t.NO-CACHE=true", "kseries.T.dry-run=wrong-case",
		NULL });
	const char *argv[] = { "t", "-w", "cli", NULL };

	parse("t", argv);
	assert_true(v.dry_run);
	assert_true(v.verbose);		/* a key without a value is true */
	assert_false(v.thread);
	assert_true(v.no_cache);	/* section and name are case-blind */
	assert_string_equal(v.wt, "cli");	/* the command line wins */
	assert_null(v.name);		/* NOCONFIG */
	assert_int_equal(v.to->len, 2);
	assert_int_equal(v.calls, 2);	/* a callback gets every value */
	assert_string_equal(v.last_cb, "s2");
}

static void test_config_command_line_wins(void **state)
{
	config_set_for_test((const char *const[]){
		"kseries.t.to=c1@x", "kseries.t.dry-run=true",
		"format.coverletter=true", NULL });
	const char *argv[] = { "t", "--to", "cli@x", "--no-dry-run", NULL };

	parse("t", argv);
	assert_int_equal(v.to->len, 1);
	assert_string_equal(v.to->pdata[0], "cli@x");
	assert_false(v.dry_run);
	assert_int_equal(v.cover, 1);	/* git's own key */

	/* without a command name, no config is read */
	teardown(state);
	setup(state);
	config_set_for_test((const char *const[]){ "kseries.t.dry-run", NULL });
	const char *argv2[] = { "t", NULL };
	parse(NULL, argv2);
	assert_false(v.dry_run);
}

static void test_config_foreign_words(void **state)
{
	config_set_for_test((const char *const[]){
		"format.coverLetter=auto", NULL });
	const char *argv[] = { "t", NULL };

	parse("t", argv);
	assert_int_equal(v.cover, -1);	/* "auto": git's word, not ours */
	config_set_for_test((const char *const[]){
		"format.coverLetter=false", "kseries.t.cover-letter=true", NULL });
	const char *argv2[] = { "t", NULL };
	parse("t", argv2);
	assert_int_equal(v.cover, 1);	/* kseries' key first */
}

static void test_config_bool(void **state)
{
	assert_int_equal(config_bool("TRUE"), 1);
	assert_int_equal(config_bool("on"), 1);
	assert_int_equal(config_bool(NULL), 1);
	assert_int_equal(config_bool("0"), 0);
	assert_int_equal(config_bool(""), 0);
	assert_int_equal(config_bool("No"), 0);
	assert_int_equal(config_bool("maybe"), -1);
}

/*
 * Runs parse() in a child with stdout and stderr to files; returns the
 * exit status, the outputs in *out and *err.
 */
static int run_child(const char *const *args, char **out, char **err,
		     const char *const *cfg)
{
	char ofile[] = "/tmp/t-parse-options-out.XXXXXX";
	char efile[] = "/tmp/t-parse-options-err.XXXXXX";
	int ofd = mkstemp(ofile), efd = mkstemp(efile), status;
	size_t len;
	pid_t pid;

	assert_true(ofd >= 0 && efd >= 0);
	pid = fork();
	assert_true(pid >= 0);
	if (!pid) {
		const char *argv[32];
		int i;

		for (i = 0; args[i]; i++)
			argv[i] = args[i];
		argv[i] = NULL;
		dup2(ofd, 1);
		dup2(efd, 2);
		if (cfg)
			config_set_for_test(cfg);
		parse("t", argv);
		fflush(NULL);
		_exit(42);
	}
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_int_equal(read_file(ofile, 1 << 20, out, &len), 0);
	assert_int_equal(read_file(efile, 1 << 20, err, &len), 0);
	unlink(ofile);
	unlink(efile);
	close(ofd);
	close(efd);
	assert_true(WIFEXITED(status));
	return WEXITSTATUS(status);
}

static void expect_usage(const char *const *args, const char *msg)
{
	char *out, *err, *want;

	assert_int_equal(run_child(args, &out, &err, NULL), EXIT_USAGE);
	want = g_strdup_printf("kseries: error: %s\nusage: %s\n", msg,
			       usage_str);
	assert_string_equal(err, want);
	assert_string_equal(out, "");
	g_free(want);
	g_free(out);
	g_free(err);
}

static void test_bad_options_exit_129(void **state)
{
	expect_usage((const char *const[]){ "t", "--bogus", NULL },
		     "unknown option '--bogus'");
	expect_usage((const char *const[]){ "t", "a", "-dx", NULL },
		     "unknown option '-x'");
	expect_usage((const char *const[]){ "t", "--worktree", NULL },
		     "option '--worktree' requires a value");
	expect_usage((const char *const[]){ "t", "-w", NULL },
		     "option '-w' requires a value");
	expect_usage((const char *const[]){ "t", "--dry-run=yes", NULL },
		     "option '--dry-run' takes no value");
	expect_usage((const char *const[]){ "t", "--no-name=x", NULL },
		     "option '--no-name' takes no value");
	/* no abbreviations */
	expect_usage((const char *const[]){ "t", "--dry", NULL },
		     "unknown option '--dry'");
	expect_usage((const char *const[]){ "t", "--stage", "bad", NULL },
		     "bad value 'bad'");
}

static void test_help(void **state)
{
	char *out, *err;

	assert_int_equal(run_child((const char *const[]){ "t", "x", "-h", NULL },
				   &out, &err, NULL), 0);
	assert_string_equal(err, "");
	assert_true(starts_with(out, "usage: t [-d] [-w DIR]"));
	assert_non_null(strstr(out, "\n    -d, --[no-]dry-run    only show\n"));
	assert_non_null(strstr(out, "\n    --no-cache            do not cache\n"));
	assert_non_null(strstr(out, "\n    -w, --worktree DIR    the tree\n"));
	assert_non_null(strstr(out, "\nRead from git config kseries.t.<option> "
				    "when not given:\n    dry-run, verbose, "
				    "no-cache, thread, cover-letter, worktree, "
				    "to, stage\n"));
	g_free(out);
	g_free(err);
	assert_int_equal(run_child((const char *const[]){ "t", "--help", NULL },
				   &out, &err, NULL), 0);
	assert_true(starts_with(out, "usage: "));
	g_free(out);
	g_free(err);
}

static void expect_fatal(const char *cfg, const char *msg)
{
	char *out, *err;
	int rc = run_child((const char *const[]){ "t", NULL }, &out, &err,
			   (const char *const[]){ cfg, NULL });

	assert_string_equal(err, msg);
	assert_int_equal(rc, EXIT_FATAL);
	g_free(out);
	g_free(err);
}

static void test_bad_config_is_fatal(void **state)
{
	expect_fatal("kseries.t.dry-run=maybe", "kseries: fatal: bad boolean "
		     "config value 'maybe' for 'kseries.t.dry-run'\n");
	expect_fatal("kseries.t.worktree",
		     "kseries: fatal: missing value for 'kseries.t.worktree'\n");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_long_and_short, setup, teardown),
		cmocka_unit_test_setup_teardown(test_bundles_and_dashdash, setup, teardown),
		cmocka_unit_test_setup_teardown(test_negation, setup, teardown),
		cmocka_unit_test_setup_teardown(test_stop_at_non_option, setup, teardown),
		cmocka_unit_test_setup_teardown(test_config_fills_what_is_not_given, setup, teardown),
		cmocka_unit_test_setup_teardown(test_config_command_line_wins, setup, teardown),
		cmocka_unit_test_setup_teardown(test_config_foreign_words, setup, teardown),
		cmocka_unit_test(test_config_bool),
		cmocka_unit_test_setup_teardown(test_bad_options_exit_129, setup, teardown),
		cmocka_unit_test_setup_teardown(test_help, setup, teardown),
		cmocka_unit_test_setup_teardown(test_bad_config_is_fatal, setup, teardown),
	};

	return cmocka_run_group_tests_name("parse-options", tests, NULL, NULL);
}
