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
#include "review.h"
#include "util.h"
#include "banned.h"

static const char review_usage[] =
	"kseries review extract MBOX [--json] [--quoted]";

static int dump(const char *buf, size_t size, void *data)
{
	return fwrite(buf, 1, size, data) == size ? 0 : -1;
}

/* "-": the mbox from a pipe, which cannot be mapped like a file. */
static int read_stdin(GPtrArray *mails)
{
	GString *buf = g_string_new(NULL);
	char chunk[65536];
	size_t n;
	int ret;

	while ((n = fread(chunk, 1, sizeof(chunk), stdin)) > 0) {
		if (buf->len + n > MAIL_MAX_FILE) {
			g_string_free(buf, TRUE);
			return error("standard input is larger than %u bytes",
				     MAIL_MAX_FILE);
		}
		g_string_append_len(buf, chunk, (gssize)n);
	}
	if (ferror(stdin)) {
		g_string_free(buf, TRUE);
		return error_errno("cannot read standard input");
	}
	ret = mail_parse_mbox(buf->str, buf->len, "<stdin>", mails);
	g_string_free(buf, TRUE);
	return ret;
}

static int review_extract_cmd(int argc, const char **argv)
{
	const char *path = NULL;
	bool quoted = false;
	GPtrArray *mails;
	struct review r;
	json_t *j;
	int ret = 0;

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--json"))
			continue;	/* the only output there is */
		else if (!strcmp(argv[i], "--quoted"))
			quoted = true;	/* add review recovered from quotes */
		else if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help"))
			usage(review_usage);
		else if (argv[i][0] == '-' && argv[i][1])
			usage(review_usage);	/* "-" alone is stdin */
		else if (path)
			usage(review_usage);
		else
			path = argv[i];
	}
	if (!path)
		usage(review_usage);
	mails = mail_array_new();
	if (!strcmp(path, "-") ? read_stdin(mails) < 0
			       : mail_read_mbox(path, mails) < 0) {
		g_ptr_array_unref(mails);
		return EXIT_FATAL;
	}
	review_init(&r);
	review_extract(&r, mails);
	j = review_to_json(&r);
	if (quoted)
		json_object_set_new(j, "quoted", review_quoted_json(&r));
	if (json_dump_callback(j, dump, stdout, JSON_INDENT(2) | JSON_PRESERVE_ORDER) ||
	    fputc('\n', stdout) == EOF || fflush(stdout)) {
		error_errno("cannot write the output");
		ret = EXIT_FATAL;
	}
	json_decref(j);
	review_release(&r);
	g_ptr_array_unref(mails);
	return ret;
}

int cmd_review(int argc, const char **argv)
{
	if (argc < 2 || !strcmp(argv[1], "-h") || !strcmp(argv[1], "--help"))
		usage(review_usage);
	if (!strcmp(argv[1], "extract"))
		return review_extract_cmd(argc - 1, argv + 1);
	error("unknown review subcommand '%s'", argv[1]);
	usage(review_usage);
}
