// SPDX-License-Identifier: GPL-2.0-only
/*
 * kseries feedback - review feedback tracked across versions.
 *
 *   kseries feedback ingest SERIES MBOX
 *   kseries feedback SERIES[@vN] [--json]
 *   kseries feedback resolve ID --status addressed|open|outdated|wontfix
 *                    [--note TEXT]
 */
#include <stdio.h>
#include <string.h>

#include "builtin.h"
#include "feedback.h"
#include "parse-options.h"
#include "series.h"
#include "util.h"
#include "banned.h"

static const char feedback_usage[] =
	"kseries feedback SERIES[@vN] [--json]\n"
	"       kseries feedback ingest SERIES MBOX\n"
	"       kseries feedback resolve ID --status addressed|open|outdated|wontfix [--note TEXT]";

static int ingest(int argc, const char **argv)
{
	struct series s;
	unsigned written, kept;
	int ret;
	const struct option options[] = {
		OPT_END(),
	};

	if (parse_options(argc, argv, "feedback", options, feedback_usage,
			  0) != 2)
		usage(feedback_usage);
	if (!safe_component(argv[0]))
		die("bad series name '%s'", argv[0]);
	if (!is_file(argv[1]))
		die("cannot read '%s'", argv[1]);
	if (series_load(argv[0], &s) < 0)
		return EXIT_FATAL;
	ret = feedback_ingest(&s, argv[1], &written, &kept);
	if (!ret)
		printf("%s: %u feedback record(s) written, %u unchanged\n",
		       s.name, written, kept);
	series_release(&s);
	return ret ? EXIT_FINDINGS : 0;
}

static int resolve(int argc, const char **argv)
{
	const char *id = NULL, *status = NULL, *note = NULL;
	char *name, *path, *buf = NULL, *text;
	size_t len;
	struct feedback_item *it;
	int ret;
	/* a status and a note are one comment's: never from git config */
	const struct option options[] = {
		OPT_STRING_F(0, "status", &status, "STATUS",
			     "addressed, open, outdated or wontfix",
			     PARSE_OPT_NOCONFIG),
		OPT_STRING_F(0, "note", &note, "TEXT", "why, in a few words",
			     PARSE_OPT_NOCONFIG),
		OPT_END(),
	};

	if (parse_options(argc, argv, "feedback", options, feedback_usage,
			  0) != 1)
		usage(feedback_usage);
	id = argv[0];
	if (!status)
		usage(feedback_usage);
	if (feedback_status_parse(status) < 0 || !strcmp(status, "unknown")) {
		error("unknown status '%s'", status);
		usage(feedback_usage);
	}
	if (feedback_find(id, &name, &path) < 0)
		return EXIT_FINDINGS;
	if (read_file(path, FEEDBACK_MAX_RECORD, &buf, &len) < 0) {
		g_free(name);
		g_free(path);
		return EXIT_FATAL;
	}
	if (feedback_parse(buf, len, &it) < 0) {
		g_free(buf);
		g_free(name);
		g_free(path);
		die("cannot parse the record '%s'", id);
	}
	g_free(buf);
	g_free(it->status);
	it->status = g_strdup(status);
	if (note) {
		g_free(it->note);
		it->note = g_strdup(note);
	}
	text = feedback_format(it);
	{
		/* through the store's directories, no symlink followed */
		char *rel = g_build_filename("series", name, "feedback", id, NULL);

		ret = write_file_below(store_top(), rel, text, strlen(text));
		g_free(rel);
	}
	if (!ret)
		printf("%s %s: %s\n", name, id, status);
	g_free(text);
	feedback_item_free(it);
	g_free(name);
	g_free(path);
	return ret ? EXIT_FATAL : 0;
}

static void first_line(const char *text, GString *out)
{
	const char *nl = strchr(text, '\n');
	size_t n = nl ? (size_t)(nl - text) : strlen(text);

	if (n > 72)
		n = 72;
	g_string_append_len(out, text, (gssize)n);
}

static int show(int argc, const char **argv)
{
	const char *spec = NULL;
	bool json = false;
	char *name;
	int version, ret = 0;
	struct series s;
	GPtrArray *items;
	struct feedback_ctx *ctx;
	json_t *arr = NULL;
	const struct option options[] = {
		OPT_BOOL(0, "json", &json, "the comments as JSON"),
		OPT_END(),
	};

	if (parse_options(argc, argv, "feedback", options, feedback_usage,
			  0) != 1)
		usage(feedback_usage);
	spec = argv[0];
	if (series_parse_spec(spec, &name, &version) < 0)
		return EXIT_USAGE;
	if (series_load(name, &s) < 0) {
		g_free(name);
		return EXIT_FATAL;
	}
	g_free(name);
	if (!version)
		version = series_latest_version(&s);
	items = g_ptr_array_new_with_free_func((GDestroyNotify)feedback_item_free);
	if (feedback_load(&s, items) < 0)
		ret = EXIT_FINDINGS;
	ctx = feedback_ctx_new(&s);
	if (json)
		arr = json_array();
	for (guint i = 0; i < items->len; i++) {
		const struct feedback_item *it = items->pdata[i];
		enum feedback_status st;
		int paired;
		GString *line;

		if (it->version > version)
			continue;
		st = feedback_status_at(ctx, it, version, &paired);
		if (json) {
			json_array_append_new(arr, feedback_item_json(it, st, version,
								      paired));
			continue;
		}
		line = g_string_new(NULL);
		/* '*': the author's override */
		g_string_append_printf(line, "%s %s%s", it->id,
				       feedback_status_name(st),
				       it->status ? "*" : "");
		while (line->len < 12 + 1 + 10)
			g_string_append_c(line, ' ');
		g_string_append_printf(line, " v%d ", it->version);
		if (it->patch_index >= 0)
			g_string_append_printf(line, "[%d] ", it->patch_index);
		if (it->file)
			g_string_append_printf(line, "%s:%d%s ", it->file, it->line,
					       it->side == 'o' ? " (old)" : "");
		g_string_append_printf(line, "%s: ", it->from ? it->from : "?");
		if (it->trailer)
			g_string_append(line, it->trailer);
		else
			first_line(it->text ? it->text : "", line);
		for (char *p = line->str; *p; p++)
			if ((unsigned char)*p < 0x20)
				*p = ' ';
		puts(line->str);
		g_string_free(line, TRUE);
	}
	if (json) {
		char *out = json_dumps(arr, JSON_INDENT(2) | JSON_PRESERVE_ORDER);

		if (out)
			puts(out);
		free(out);
		json_decref(arr);
	}
	feedback_ctx_free(ctx);
	g_ptr_array_unref(items);
	series_release(&s);
	return ret;
}

/* argv[1] "ingest" or "resolve" is a subcommand; else show's SERIES */
int cmd_feedback(int argc, const char **argv)
{
	if (argc < 2)
		usage(feedback_usage);
	if (!strcmp(argv[1], "ingest"))
		return ingest(argc - 1, argv + 1);
	if (!strcmp(argv[1], "resolve"))
		return resolve(argc - 1, argv + 1);
	return show(argc, argv);
}
