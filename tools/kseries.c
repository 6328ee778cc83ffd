// SPDX-License-Identifier: GPL-2.0-only
/*
 * kseries.c - main: global options and the command table.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>

#include "builtin.h"
#include "color.h"
#include "mail.h"
#include "parse-options.h"
#include "series.h"
#include "util.h"
#include "version.h"
#include "banned.h"

enum cmd_flags {
	NEED_STORE = 1 << 0,	/* must run inside a store (series/) */
};

static const struct cmd {
	const char *name;
	int (*fn)(int argc, const char **argv);
	unsigned flags;
	const char *help;
} cmds[] = {
	{ "b4-branch", cmd_b4_branch, NEED_STORE, "a b4 prep branch of a version, for b4 send" },
	{ "check", cmd_check, NEED_STORE, "check versions: apply, checkpatch, build, ..." },
	{ "ci", cmd_ci, NEED_STORE, "the check pipeline as GitLab CI YAML" },
	{ "diff", cmd_diff, NEED_STORE, "range-diff of two versions" },
	{ "feedback", cmd_feedback, NEED_STORE, "review feedback: ingest, list, resolve" },
	{ "fetch", cmd_fetch, NEED_STORE, "new replies and newer postings from the list" },
	{ "format", cmd_format, NEED_STORE, "mail-ready files of a version (git format-patch)" },
	{ "import", cmd_import, NEED_STORE, "import a posted version from an mbox" },
	{ "list", cmd_list, NEED_STORE, "one line per series" },
	{ "record", cmd_record, NEED_STORE, "your branch as the next version (or the draft)" },
	{ "report", cmd_report, NEED_STORE, "the check's results as a reply mail to the posting" },
	{ "review", cmd_review, 0, "review extract MBOX --json: comments, trailers" },
	{ "send", cmd_send, NEED_STORE, "mail a version: git send-email, or b4 send" },
	{ "show", cmd_show, NEED_STORE, "a series or one version of it" },
	{ "status", cmd_status, NEED_STORE, "the results of the last checks" },
	{ "withdraw", cmd_withdraw, NEED_STORE, "record a series as withdrawn, with the reason" },
	{ "work", cmd_work, NEED_STORE, "a version as a branch of your kernel tree" },
};

static const char usage_text[] =
	"kseries [-C DIR] [--[no-]color] COMMAND [ARGS]\n"
	"       kseries -h | --version";

static void print_help(FILE *fp)
{
	fprintf(fp, "usage: %s\n\ncommands:\n", usage_text);
	for (size_t i = 0; i < G_N_ELEMENTS(cmds); i++)
		fprintf(fp, "  %-10s %s\n", cmds[i].name, cmds[i].help);
}

static int help_cb(const struct option *opt, const char *arg, bool unset)
{
	print_help(stdout);
	exit(0);
}

static int version_cb(const struct option *opt, const char *arg, bool unset)
{
	printf("kseries %s\n", KSERIES_VERSION);
	exit(0);
}

static int color_cb(const struct option *opt, const char *arg, bool unset)
{
	color_set(unset ? COLOR_NEVER : COLOR_ALWAYS);
	return 0;
}

/* `kseries CMD -h` answers outside a store too (completion asks it) */
static bool wants_help(int argc, const char **argv)
{
	return argc == 2 && (!strcmp(argv[1], "-h") ||
			     !strcmp(argv[1], "--help"));
}

int main(int argc, const char **argv)
{
	const char *dir = NULL;
	const struct option options[] = {
		OPT_CALLBACK_F('h', "help", NULL, NULL, "this help", help_cb,
			       PARSE_OPT_NOARG | PARSE_OPT_NONEG),
		OPT_CALLBACK_F(0, "version", NULL, NULL, "the version",
			       version_cb, PARSE_OPT_NOARG | PARSE_OPT_NONEG),
		OPT_STRING('C', NULL, &dir, "DIR", "the store is DIR"),
		OPT_CALLBACK_F(0, "color", NULL, NULL,
			       "colour status words even off a terminal",
			       color_cb, PARSE_OPT_NOARG),
		OPT_END(),
	};

	signal(SIGPIPE, SIG_IGN);
	/* no config: kseries.color is color.h's */
	argc = parse_options(argc, argv, NULL, options, usage_text,
			     PARSE_OPT_STOP_AT_NON_OPTION);
	if (dir)
		store_set_top(dir);
	if (!argc) {
		print_help(stderr);
		return EXIT_USAGE;
	}
	for (size_t c = 0; c < G_N_ELEMENTS(cmds); c++) {
		if (strcmp(cmds[c].name, argv[0]))
			continue;
		if ((cmds[c].flags & NEED_STORE) && !store_top() &&
		    !wants_help(argc, argv))
			die("not in a kseries store (no series/ directory here or above)");
		mail_init();
		return cmds[c].fn(argc, argv);
	}
	error("'%s' is not a kseries command", argv[0]);
	print_help(stderr);
	return EXIT_USAGE;
}
