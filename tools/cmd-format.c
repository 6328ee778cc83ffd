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
#include "parse-options.h"
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
	/* git format-patch's own keys too: format.outputDirectory, ... */
	const struct option options[] = {
		{ .type = OPTION_STRING, .short_name = 'o',
		  .long_name = "output-dir", .value = &dir, .argh = "DIR",
		  .help = "write the mails into DIR (outside the store)",
		  .config = "format.outputDirectory" },
		{ .type = OPTION_SET_INT, .long_name = "cover-letter",
		  .value = &o.cover, .defval = 1,
		  .help = "a cover letter (default: for more than one patch)",
		  .config = "format.coverLetter" },
		OPT_STRING_F(0, "in-reply-to", &o.in_reply_to, "MSGID",
			     "thread onto MSGID, not the previous posting",
			     PARSE_OPT_NOCONFIG),
		OPT_BOOL(0, "thread", &o.thread,
			 "In-Reply-To the previous posting (default)"),
		OPT_BOOL(0, "recipients", &o.recipients,
			 "To/Cc from the notes and get_maintainer.pl (default)"),
		OPT_BOOL(0, "trailers", &o.trailers,
			 "apply the trailers collected in review (default)"),
		OPT_BOOL('v', "verbose", &verbose, "the trailers added and the notes, on stderr"),
		OPT_END(),
	};

	format_opts_init(&o);
	argc = parse_options(argc, argv, "format", options, format_usage, 0);
	if (argc != 1 || !dir || !*dir)
		usage(format_usage);
	spec = argv[0];
	if (format_dir_in_store(dir)) {
		error("'%s' is inside the series store: write the mails elsewhere",
		      dir);
		return EXIT_FINDINGS;
	}

	/* a withdrawn series is a record, never mail */
	if (series_refuse_withdrawn(spec, "format") < 0)
		return EXIT_FINDINGS;
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
