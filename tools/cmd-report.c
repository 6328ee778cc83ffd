// SPDX-License-Identifier: GPL-2.0-only
/*
 * cmd-report.c - kseries report SERIES[@vN] -o DIR: the check's results
 * as a reply to the posted version, ready for git send-email
 * (report-mail.h).
 */
#include <stdio.h>
#include <string.h>

#include "builtin.h"
#include "format.h"
#include "parse-options.h"
#include "report-mail.h"
#include "series.h"
#include "util.h"
#include "banned.h"

static const char report_usage[] = "kseries report SERIES[@vN] -o DIR";

int cmd_report(int argc, const char **argv)
{
	const char *spec = NULL, *dir = NULL;
	struct series s;
	char *name, *path;
	int version, ret;
	const struct option options[] = {
		OPT_STRING('o', "output-dir", &dir, "DIR",
			   "write SERIES-vN-report.mbox into DIR (outside the store)"),
		OPT_END(),
	};

	argc = parse_options(argc, argv, "report", options, report_usage, 0);
	if (argc != 1 || !dir || !*dir)
		usage(report_usage);
	spec = argv[0];
	if (format_dir_in_store(dir)) {
		error("'%s' is inside the series store: write the mail elsewhere",
		      dir);
		return EXIT_FINDINGS;
	}
	if (series_parse_spec(spec, &name, &version) < 0)
		return EXIT_USAGE;
	ret = series_load(name, &s);
	g_free(name);
	if (ret < 0)
		return EXIT_FINDINGS;
	if (!version)
		version = series_latest_version(&s);
	ret = report_mail_write(&s, version, dir, &path);
	series_release(&s);
	if (ret < 0)
		return EXIT_FINDINGS;
	printf("%s\n", path);
	g_free(path);
	return 0;
}
