// SPDX-License-Identifier: GPL-2.0-only
/*
 * cmd-status.c - kseries status [--html DIR]: the stages' last results,
 * per version, as text lines or as a static site (report-html.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "builtin.h"
#include "check.h"
#include "color.h"
#include "format.h"
#include "parse-options.h"
#include "report-html.h"
#include "series.h"
#include "util.h"
#include "version-status.h"
#include "banned.h"

static const char status_usage[] = "kseries status [--html DIR]";

static void status_text(void)
{
	GPtrArray *names = series_list_names();

	for (guint i = 0; i < names->len; i++) {
		struct series s;
		GArray *versions;

		if (series_load(names->pdata[i], &s) < 0)
			continue;
		if (series_state(&s) == SERIES_WITHDRAWN)
			printf("%-22s withdrawn: %s\n", s.name,
			       series_state_reason(&s));
		versions = series_versions(&s);
		for (guint k = 0; k < versions->len; k++) {
			int v = g_array_index(versions, int, k);
			GString *line = g_string_new(NULL);
			struct version_status vs;
			bool any = false;

			version_status_load(s.name, v, VERSION_STATUS_KEEP, &vs);
			for (unsigned st = 0; st < vs.n; st++) {
				if (!vs.st[st].loaded)
					continue;
				g_string_append_printf(line, " %s:%s",
					check_stages[st].name,
					color_status(vs.st[st].status, 0));
				any = true;
			}
			version_status_release(&vs);
			printf("%-22s v%-2d%s\n", s.name, v,
			       any ? line->str : " (not checked)");
			g_string_free(line, TRUE);
		}
		g_array_unref(versions);
		series_release(&s);
	}
	g_ptr_array_unref(names);
}

int cmd_status(int argc, const char **argv)
{
	const char *html = NULL;
	const struct option options[] = {
		/* it changes what status does: the command line only */
		OPT_STRING_F(0, "html", &html, "DIR",
			     "the dashboard as a static site in DIR (DIR/index.html)",
			     PARSE_OPT_NOCONFIG),
		OPT_END(),
	};

	argc = parse_options(argc, argv, "status", options, status_usage, 0);
	if (argc || (html && !*html))
		usage(status_usage);
	if (html) {
		if (format_dir_in_store(html)) {
			error("'%s' is inside the series store: write the site elsewhere",
			      html);
			return EXIT_FINDINGS;
		}
		if (report_html_write(html) < 0)
			return EXIT_FINDINGS;
		printf("%s/index.html\n", html);
		return 0;
	}
	status_text();
	return 0;
}
