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

	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];

		if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
			printf("usage: %s\n", report_usage);
			return 0;
		} else if (!strcmp(a, "-o") || !strcmp(a, "--output-dir")) {
			if (++i >= argc)
				usage(report_usage);
			dir = argv[i];
		} else if (starts_with(a, "--output-dir=")) {
			dir = a + strlen("--output-dir=");
		} else if (a[0] == '-' || spec) {
			usage(report_usage);
		} else {
			spec = a;
		}
	}
	if (!spec || !dir || !*dir)
		usage(report_usage);
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
