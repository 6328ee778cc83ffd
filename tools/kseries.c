// SPDX-License-Identifier: GPL-2.0-only
/*
 * kseries.c - main: global options and the command table.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>

#include "builtin.h"
#include "mail.h"
#include "series.h"
#include "util.h"
#include "banned.h"

#define KSERIES_VERSION "0.1"

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
	{ "diff", cmd_diff, NEED_STORE, "range-diff of two versions" },
	{ "feedback", cmd_feedback, NEED_STORE, "review feedback: ingest, list, resolve" },
	{ "fetch", cmd_fetch, NEED_STORE, "new replies and newer postings from the list" },
	{ "format", cmd_format, NEED_STORE, "mail-ready files of a version (git format-patch)" },
	{ "import", cmd_import, NEED_STORE, "import a posted version from an mbox" },
	{ "list", cmd_list, NEED_STORE, "one line per series" },
	{ "record", cmd_record, NEED_STORE, "your branch as the next version (or the draft)" },
	{ "review", cmd_review, 0, "review extract MBOX --json: comments, trailers" },
	{ "send", cmd_send, NEED_STORE, "mail a version: git send-email, or b4 send" },
	{ "show", cmd_show, NEED_STORE, "a series or one version of it" },
	{ "status", cmd_status, NEED_STORE, "the results of the last checks" },
	{ "work", cmd_work, NEED_STORE, "a version as a branch of your kernel tree" },
};

static const char usage_text[] =
	"kseries [-C DIR] COMMAND [ARGS]\n"
	"       kseries -h | --version\n";

static void print_help(FILE *fp)
{
	fprintf(fp, "usage: %s\ncommands:\n", usage_text);
	for (size_t i = 0; i < G_N_ELEMENTS(cmds); i++)
		fprintf(fp, "  %-10s %s\n", cmds[i].name, cmds[i].help);
}

int main(int argc, const char **argv)
{
	int i;

	signal(SIGPIPE, SIG_IGN);
	for (i = 1; i < argc && argv[i][0] == '-'; i++) {
		if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
			print_help(stdout);
			return 0;
		} else if (!strcmp(argv[i], "--version")) {
			printf("kseries %s\n", KSERIES_VERSION);
			return 0;
		} else if (!strcmp(argv[i], "-C")) {
			if (++i >= argc)
				usage(usage_text);
			store_set_top(argv[i]);
		} else {
			fprintf(stderr, "kseries: unknown option '%s'\n", argv[i]);
			usage(usage_text);
		}
	}
	if (i >= argc) {
		print_help(stderr);
		return EXIT_USAGE;
	}
	for (size_t c = 0; c < G_N_ELEMENTS(cmds); c++) {
		if (strcmp(cmds[c].name, argv[i]))
			continue;
		if ((cmds[c].flags & NEED_STORE) && !store_top())
			die("not in a kseries store (no series/ directory here or above)");
		mail_init();
		return cmds[c].fn(argc - i, argv + i);
	}
	fprintf(stderr, "kseries: '%s' is not a kseries command\n", argv[i]);
	print_help(stderr);
	return EXIT_USAGE;
}
