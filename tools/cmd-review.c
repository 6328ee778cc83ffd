// SPDX-License-Identifier: GPL-2.0-only
/*
 * kseries review extract MBOX --json - the review in a thread, as JSON
 * (DESIGN.md §5). Stateless: reads the mbox, writes stdout. With --quoted,
 * a "quoted" array adds the review recovered from quotes of messages the
 * mbox lacks (review.h); without it the object is exactly §5's.
 */
#include <stdio.h>
#include <string.h>

#include "builtin.h"
#include "mail.h"
#include "parse-options.h"
#include "review.h"
#include "util.h"
#include "banned.h"

static const char review_usage[] =
	"kseries review extract MBOX [--json] [--quoted]";

/* "-": the mbox from a pipe, which cannot be read again like a file. */
static int read_stdin(GString *buf)
{
	char chunk[65536];
	size_t n;

	while ((n = fread(chunk, 1, sizeof(chunk), stdin)) > 0) {
		if (buf->len + n > MAIL_MAX_FILE)
			return error("standard input is larger than %u bytes",
				     MAIL_MAX_FILE);
		g_string_append_len(buf, chunk, (gssize)n);
	}
	if (ferror(stdin))
		return error_errno("cannot read standard input");
	return 0;
}

/*
 * The mbox is read a message at a time and the review keeps only what it
 * needs of each (review.h): memory stays well under the mbox's size.
 */
static int review_extract_cmd(int argc, const char **argv)
{
	const char *path = NULL;
	bool quoted = false;
	struct mail_reader rd;
	struct mail *m;
	struct review r;
	GString *in = NULL;
	int ret = 0, got;
	unsigned flags;
	bool json = true;
	/* stateless (DESIGN.md §3): nothing is read from git config */
	const struct option options[] = {
		OPT_BOOL_F(0, "json", &json, "JSON (the only output there is)",
			   PARSE_OPT_NONEG),
		OPT_BOOL(0, "quoted", &quoted,
			 "add the review recovered from quoted replies"),
		OPT_END(),
	};

	/* "-" alone is stdin */
	if (parse_options(argc, argv, NULL, options, review_usage, 0) != 1)
		usage(review_usage);
	path = argv[0];
	/* only review recovered from quotes looks at the recipients */
	flags = MAIL_NO_RAW | (quoted ? 0 : MAIL_NO_RECIPIENTS);
	if (!strcmp(path, "-")) {
		in = g_string_new(NULL);
		if (read_stdin(in) < 0) {
			g_string_free(in, TRUE);
			return EXIT_FATAL;
		}
		mail_reader_open_mem(&rd, in->str, in->len, "<stdin>", flags);
	} else if (mail_reader_open(&rd, path, flags) < 0) {
		return EXIT_FATAL;
	}
	review_init_flags(&r, quoted ? REVIEW_QUOTED : 0);
	while ((got = mail_reader_next(&rd, &m)) > 0)
		review_add(&r, m, &rd);
	if (got < 0 || review_finish(&r) < 0) {
		ret = EXIT_FATAL;
	} else if (review_write_json(&r, quoted, stdout) < 0 || fflush(stdout)) {
		error_errno("cannot write the output");
		ret = EXIT_FATAL;
	}
	review_release(&r);
	mail_reader_close(&rd);
	if (in)
		g_string_free(in, TRUE);
	return ret;
}

int cmd_review(int argc, const char **argv)
{
	if (argc < 2)
		usage(review_usage);
	/* -h answers with extract's options, on stdout */
	if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help"))
		return review_extract_cmd(argc, argv);
	if (!strcmp(argv[1], "extract"))
		return review_extract_cmd(argc - 1, argv + 1);
	error("unknown review subcommand '%s'", argv[1]);
	usage(review_usage);
}
