// SPDX-License-Identifier: GPL-2.0-only
/*
 * kseries check SERIES[@vN] | --all [--stage NAME]... [--json] [-j N]
 *                [--kcidb FILE] [--no-cache] [--progress] [-v]
 * kseries status
 *
 * The options of a check and the choice of its writer (report.h,
 * report-kcidb.h); the pipeline itself is check.h's check_version().
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <jansson.h>

#include "builtin.h"
#include "check.h"
#include "check-b4.h"
#include "color.h"
#include "mail.h"
#include "parse-options.h"
#include "report.h"
#include "report-kcidb.h"
#include "series.h"
#include "util.h"
#include "workbench.h"
#include "banned.h"

static const char check_usage[] =
	"kseries check (SERIES[@vN]... | --all) [--stage NAME]... [--json]\n"
	"                     [--kcidb FILE] [--no-cache] [-j N] [--progress] [-v]\n"
	"   or: kseries check --b4 [--stage NAME]... <MESSAGE";

struct opts {
	struct check_opts check;
	bool json;
	const char *kcidb;
	int jobs;
};

/* Where each version's result goes, in the order they were asked for. */
struct collect {
	json_t *results, *kcidb;
};

static void version_done(const struct check_item *it, json_t *checked,
			 void *arg)
{
	struct collect *c = arg;

	if (!checked)
		return;
	if (c->kcidb)
		kcidb_add_version(c->kcidb, it->s, it->version, checked);
	json_array_append(c->results, checked);
}

/*
 * --b4: b4's review-check protocol (check-b4.h). The message on stdin is
 * located in the store, its version checked (cached stages cost nothing,
 * so b4 asking patch by patch re-runs nothing), and the results for that
 * message printed. Exit 0 whatever the findings: they are in the JSON,
 * and b4 reads a non-zero exit as the tool itself failing.
 */
static int check_b4(struct opts *o)
{
	GString *in = g_string_new(NULL);
	char chunk[65536], *name = NULL;
	int version = 0, index = 0, failed = 0, found;
	bool given = o->check.stages->len > 0;
	size_t n;
	struct series s;
	json_t *checked;

	while ((n = fread(chunk, 1, sizeof(chunk), stdin)) > 0) {
		g_string_append_len(in, chunk, (gssize)n);
		if (in->len > MAIL_MAX_MESSAGE)
			die("<stdin>: a message larger than %u bytes", MAIL_MAX_MESSAGE);
	}
	if (ferror(stdin))
		die("<stdin>: read error");
	/*
	 * b4 review waits for the answer: without --stage, the light
	 * per-patch stages; apply, always run, is always reported.
	 */
	for (size_t i = 0; !given && i < check_nr_stages; i++)
		if (check_stages[i].flags & CHECK_F_B4)
			g_ptr_array_add(o->check.stages,
					(char *)check_stages[i].name);
	g_ptr_array_add(o->check.stages, (char *)"apply");
	found = b4_locate(in->str, in->len, &name, &version, &index);
	g_string_free(in, TRUE);
	if (found < 0)
		return EXIT_FATAL;
	if (!found) {
		printf("[]\n");
		return 0;
	}
	if (series_load(name, &s) < 0) {
		g_free(name);
		return EXIT_FATAL;
	}
	checked = check_version(&s, version, &o->check, &failed);
	report_b4_print(checked, index);
	json_decref(checked);
	series_release(&s);
	g_free(name);
	return 0;
}

/* --stage NAME: one of the stage table's names; --no-stage: all of them */
static int stage_cb(const struct option *opt, const char *arg, bool unset)
{
	GPtrArray *stages = opt->value;
	if (unset) {
		g_ptr_array_set_size(stages, 0);
		return 0;
	}
	if (!check_stage_find(arg))
		die("unknown stage '%s'", arg);
	g_ptr_array_add(stages, (char *)arg);
	return 0;
}

/*
 * -j N: up to N versions at once (check_versions(): the stages that
 * build take turns in the one worktree of the build directories), and
 * the parallelism of each kernel build (make -jN: one build at a time).
 */
static int jobs_cb(const struct option *opt, const char *arg, bool unset)
{
	char *end;
	long n = strtol(arg, &end, 10);

	if (*end || n < 1 || n > 1024)
		die("-j wants a number of jobs, not '%s'", arg);
	*(int *)opt->value = (int)n;
	g_setenv("KSERIES_JOBS", arg, TRUE);
	return 0;
}

/* -h: the options, then the stage names */
static int help_cb(const struct option *opt, const char *arg, bool unset)
{
	parse_options_help(stdout, "check", opt->value, check_usage);
	printf("\nstages:");
	for (size_t k = 0; k < check_nr_stages; k++)
		printf(" %s", check_stages[k].name);
	printf("\n");
	exit(0);
}

int cmd_check(int argc, const char **argv)
{
	struct opts o = { .check.stages = g_ptr_array_new(), .jobs = 1 };
	GArray *items = g_array_new(FALSE, TRUE, sizeof(struct check_item));
	struct collect c = { 0 };
	bool progress = false;
	GPtrArray *specs = g_ptr_array_new_with_free_func(g_free);
	json_t *results = json_array(), *kcidb = NULL;
	bool all = false, b4 = false, list_stages = false;
	int failed = 0, ret = 0;
	const struct option options[] = {
		OPT_CALLBACK_F('h', "help", (void *)options, NULL,
			       "this help and the stage names", help_cb,
			       PARSE_OPT_NOARG | PARSE_OPT_NONEG |
			       PARSE_OPT_NOCONFIG | PARSE_OPT_HIDDEN),
		OPT_BOOL_F(0, "all", &all, "every series of the store",
			   PARSE_OPT_NOCONFIG),
		OPT_CALLBACK(0, "stage", o.check.stages, "NAME",
			     "run this stage (repeatable; default all)",
			     stage_cb),
		/* outputs are chosen per run: --b4 refuses them */
		OPT_BOOL_F(0, "json", &o.json, "the results as JSON on stdout",
			   PARSE_OPT_NOCONFIG),
		OPT_STRING_F(0, "kcidb", &o.kcidb, "FILE",
			     "the results as KCIDB v5.3 JSON in FILE",
			     PARSE_OPT_NOCONFIG),
		OPT_BOOL(0, "no-cache", &o.check.no_cache,
			 "run every stage again, ignoring cached results"),
		OPT_CALLBACK_F('j', NULL, &o.jobs, "N",
			       "versions at once, and jobs of each kernel build",
			       jobs_cb, PARSE_OPT_NONEG),
		OPT_BOOL(0, "progress", &progress,
			 "a status line on stderr, also when it is no terminal"),
		OPT_BOOL('v', "verbose", &o.check.verbose, "say which stage runs, and each build"),
		OPT_BOOL_F(0, "b4", &b4,
			   "b4's review-check protocol: a message on stdin",
			   PARSE_OPT_NOCONFIG),
		OPT_BOOL_F(0, "list-stages", &list_stages,
			   "the stage names, one a line, in order",
			   PARSE_OPT_NOCONFIG | PARSE_OPT_NONEG),
		OPT_END(),
	};

	argc = parse_options(argc, argv, "check", options, check_usage, 0);
	if (list_stages) {
		if (argc)
			usage(check_usage);
		for (size_t k = 0; k < check_nr_stages; k++)
			printf("%s\n", check_stages[k].name);
		g_ptr_array_unref(specs);
		g_ptr_array_unref(o.check.stages);
		g_array_unref(items);
		json_decref(results);
		return 0;
	}
	for (int i = 0; i < argc; i++)
		g_ptr_array_add(specs, g_strdup(argv[i]));
	if (b4) {
		if (all || specs->len || o.json || o.kcidb)
			usage(check_usage);
		o.json = true;	/* no terminal lines on stdout */
		ret = check_b4(&o);
		g_array_unref(items);
		g_ptr_array_unref(specs);
		g_ptr_array_unref(o.check.stages);
		json_decref(results);
		return ret;
	}
	if (all == (specs->len > 0))
		usage(check_usage);
	if (all) {
		GPtrArray *names = series_list_names();

		for (guint i = 0; i < names->len; i++)
			g_ptr_array_add(specs, g_strdup(names->pdata[i]));
		g_ptr_array_unref(names);
	}
	if (!o.json)
		o.check.report = report_text_result;
	if (progress)
		g_setenv("KSERIES_PROGRESS", "1", TRUE);
	if (o.kcidb)
		kcidb = kcidb_new();
	for (guint i = 0; i < specs->len; i++) {
		struct check_item it = { .s = g_new0(struct series, 1) };
		char *name;

		if (series_parse_spec(specs->pdata[i], &name, &it.version) < 0) {
			ret = EXIT_USAGE;
			g_free(it.s);
			continue;
		}
		if (series_load(name, it.s) < 0) {
			g_free(name);
			g_free(it.s);
			failed = 1;
			continue;
		}
		g_free(name);
		if (series_check_skips(it.s, all, all && !o.json ? stdout : stderr)) {
			series_release(it.s);
			g_free(it.s);
			continue;
		}
		if (!it.version)
			it.version = series_latest_version(it.s);
		g_array_append_val(items, it);
	}
	c.results = results;
	c.kcidb = kcidb;
	check_versions(&g_array_index(items, struct check_item, 0), items->len,
		       o.jobs, &o.check, version_done, &c, &failed);
	for (guint i = 0; i < items->len; i++) {
		struct series *s = g_array_index(items, struct check_item, i).s;

		series_release(s);
		g_free(s);
	}
	g_array_unref(items);
	if (o.json)
		report_json_print(results);
	if (kcidb) {
		char *text = json_dumps(kcidb, JSON_INDENT(1));

		if (!text || write_file_atomic(o.kcidb, text, strlen(text)) < 0)
			failed = 1;
		free(text);
		json_decref(kcidb);
	}
	json_decref(results);
	g_ptr_array_unref(specs);
	g_ptr_array_unref(o.check.stages);
	if (ret)
		return ret;
	return failed ? EXIT_FINDINGS : 0;
}
