// SPDX-License-Identifier: GPL-2.0-only
/*
 * kseries format SERIES[@vN] -o DIR - mail-ready files (DESIGN.md §6).
 *
 * The files are those `git format-patch --cover-letter` writes for the
 * version applied onto its base, with the review's trailers, the
 * recipients, "change-id:" and the changelogs (format.h). Nothing is
 * written unless every step succeeded.
 */
#include <stdio.h>
#include <string.h>

#include "builtin.h"
#include "format.h"
#include "series.h"
#include "util.h"
#include "banned.h"

static const char format_usage[] =
	"kseries format SERIES[@vN] -o DIR [--cover-letter | --no-cover-letter]\n"
	"               [--in-reply-to MSGID] [--no-thread] [--no-recipients]\n"
	"               [--no-trailers] [-v]";

int cmd_format(int argc, const char **argv)
{
	const char *spec = NULL, *dir = NULL;
	struct format_opts o;
	struct formatted f;
	struct series s;
	bool verbose = false;
	int version, ret;

	format_opts_init(&o);
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];

		if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
			printf("usage: %s\n", format_usage);
			return 0;
		} else if (!strcmp(a, "-o") || !strcmp(a, "--output-dir")) {
			if (++i >= argc)
				usage(format_usage);
			dir = argv[i];
		} else if (starts_with(a, "--output-dir=")) {
			dir = a + strlen("--output-dir=");
		} else if (!strcmp(a, "--cover-letter")) {
			o.cover = 1;
		} else if (!strcmp(a, "--no-cover-letter")) {
			o.cover = 0;
		} else if (!strcmp(a, "--in-reply-to")) {
			if (++i >= argc)
				usage(format_usage);
			o.in_reply_to = argv[i];
		} else if (starts_with(a, "--in-reply-to=")) {
			o.in_reply_to = a + strlen("--in-reply-to=");
		} else if (!strcmp(a, "--no-thread")) {
			o.thread = false;
		} else if (!strcmp(a, "--no-recipients")) {
			o.recipients = false;
		} else if (!strcmp(a, "--no-trailers")) {
			o.trailers = false;
		} else if (!strcmp(a, "-v") || !strcmp(a, "--verbose")) {
			verbose = true;
		} else if (a[0] == '-' || spec) {
			usage(format_usage);
		} else {
			spec = a;
		}
	}
	if (!spec || !dir || !*dir)
		usage(format_usage);
	if (format_dir_in_store(dir)) {
		error("'%s' is inside the series store: write the mails elsewhere",
		      dir);
		return EXIT_FINDINGS;
	}

	formatted_init(&f);
	if (format_spec(spec, &o, &s, &version, &f) < 0) {
		formatted_release(&f);
		return EXIT_FINDINGS;
	}
	ret = formatted_write(&f, dir) < 0 ? EXIT_FINDINGS : 0;
	if (!ret) {
		for (guint i = 0; i < f.files->len; i++) {
			const struct format_file *ff = f.files->pdata[i];
			char *p = g_build_filename(dir, ff->name, NULL);

			printf("%s\n", p);
			g_free(p);
		}
	}
	if (verbose) {
		for (guint i = 0; i < f.added->len; i++)
			fprintf(stderr, "trailer %s\n",
				(char *)f.added->pdata[i]);
		for (guint i = 0; i < f.notes->len; i++)
			fprintf(stderr, "note: %s\n", (char *)f.notes->pdata[i]);
	}
	formatted_release(&f);
	series_release(&s);
	return ret;
}
