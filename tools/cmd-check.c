// SPDX-License-Identifier: GPL-2.0-only
/*
 * kseries check SERIES[@vN] | --all [--stage NAME]... [--json] [-j N]
 *                [--kcidb FILE] [--no-cache] [-v]
 * kseries status
 *
 * Applies a version to its base and runs the stages of check.h. Results
 * are kept per version under <cache>/results/<series>/v<N>/, keyed by
 * content: the applied commits (which are content-addressed, see
 * apply.h), the stage, the workbench's scripts, rules and configs, and
 * the toolchain's versions. An unchanged version is served from there.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <jansson.h>

#include "apply.h"
#include "builtin.h"
#include "check.h"
#include "check-b4.h"
#include "color.h"
#include "ident.h"
#include "mail.h"
#include "parse-options.h"
#include "progress.h"
#include "report-kcidb.h"
#include "run.h"
#include "series.h"
#include "source-id.h"
#include "util.h"
#include "workbench.h"
#include "banned.h"

static const char check_usage[] =
	"kseries check (SERIES[@vN]... | --all) [--stage NAME]... [--json]\n"
	"                     [--kcidb FILE] [--no-cache] [-j N] [-v]\n"
	"   or: kseries check --b4 [--stage NAME]... <MESSAGE";

struct opts {
	GPtrArray *stages;	/* names; empty = all */
	bool json, no_cache, verbose;
	const char *kcidb;
};

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static gint cmp_names(gconstpointer a, gconstpointer b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Hashes every regular file below dir, sorted by name, into sum. */
static void hash_tree(GChecksum *sum, const char *dir)
{
	GDir *d = g_dir_open(dir, 0, NULL);
	GPtrArray *names = g_ptr_array_new_with_free_func(g_free);
	const char *n;

	/* documentation is not an input */
	while (d && (n = g_dir_read_name(d)))
		if (!g_str_has_suffix(n, ".md"))
			g_ptr_array_add(names, g_strdup(n));
	if (d)
		g_dir_close(d);
	g_ptr_array_sort(names, cmp_names);
	for (guint i = 0; i < names->len; i++) {
		char *p = g_build_filename(dir, names->pdata[i], NULL);
		char *buf;
		size_t len;

		if (is_dir(p)) {
			hash_tree(sum, p);
		} else if (is_file(p) && read_file(p, 64u << 20, &buf, &len) == 0) {
			g_checksum_update(sum, (const guchar *)names->pdata[i], -1);
			g_checksum_update(sum, (const guchar *)buf, (gssize)len);
			g_free(buf);
		}
		g_free(p);
	}
	g_ptr_array_unref(names);
}

/* hash_tree() of dir/sub */
static void hash_path(GChecksum *sum, const char *dir, const char *sub)
{
	char *p = g_build_filename(dir, sub, NULL);

	hash_tree(sum, p);
	g_free(p);
}

/*
 * A stage's result is kept under a key over what it depends on: the
 * commits, kseries' sources, the toolchain, the version's setting for
 * it, and the inputs check_stage_inputs() names for it alone, so that a
 * change to a VM script does not re-run every build.
 */
static char *stage_key(struct check_ctx *ctx, const char *stage)
{
	unsigned in = check_stage_inputs(stage);
	GChecksum *sum = g_checksum_new(G_CHECKSUM_SHA256);
	char *versions = g_build_filename(cache_dir(), "sid", ".kseries-versions",
					  NULL);
	char key[64], *buf, *out;
	size_t len;

	g_checksum_update(sum, (const guchar *)"kseries-check-1\n", -1);
	/* the checker itself: kseries built from other sources re-checks */
	g_checksum_update(sum, (const guchar *)KSERIES_SOURCE_ID, -1);
	g_checksum_update(sum, (const guchar *)stage, -1);
	g_checksum_update(sum, (const guchar *)ctx->base, -1);
	for (guint i = 0; i < ctx->commits->len; i++)
		g_checksum_update(sum, ctx->commits->pdata[i], -1);
	if (is_file(versions) && read_file(versions, 1 << 20, &buf, &len) == 0) {
		g_checksum_update(sum, (const guchar *)buf, (gssize)len);
		g_free(buf);
	}
	snprintf(key, sizeof(key), "version.%d.%s", ctx->version, stage);
	if (series_get(ctx->s, key))
		g_checksum_update(sum, (const guchar *)series_get(ctx->s, key), -1);
	if (!strcmp(stage, "kunit") && check_kunit_runs(ctx))
		g_checksum_update(sum, (const guchar *)check_kunit_runs(ctx), -1);
	if (in & CHECK_IN_KERNEL)
		hash_tree(sum, ctx->kernel_dir);
	if (in & CHECK_IN_COCCI)
		hash_tree(sum, ctx->cocci_dir);
	if (in & CHECK_IN_MODEL)
		hash_path(sum, ctx->s->dir, "model");
	if (in & CHECK_IN_SCRIPTS) {
		/* the series' stage scripts, the programs its VMs run */
		hash_path(sum, ctx->s->dir, "check");
	}
	if (in & CHECK_IN_MAILS) {
		/*
		 * The mails themselves: the cover letter and what a patch
		 * carries outside its commit (notes below the "---").
		 */
		char *vd = series_version_dir(ctx->s, ctx->version);

		if (vd)
			hash_tree(sum, vd);
		g_free(vd);
	}
	if (in & CHECK_IN_REVIEW) {
		hash_path(sum, ctx->s->dir, "feedback");
		if (read_file(ctx->s->conf_path, 1 << 20, &buf, &len) == 0) {
			g_checksum_update(sum, (const guchar *)buf, (gssize)len);
			g_free(buf);
		}
	}
	if (in & CHECK_IN_MAINTAINERS)
		hash_path(sum, store_top(), "MAINTAINERS-notes");
	if (in & CHECK_IN_SERIES) {
		/* every posting and reply: the evidence of provenance */
		GArray *vs = series_versions(ctx->s);
		struct ident id;
		GString *why = g_string_new(NULL);

		for (guint i = 0; i < vs->len; i++) {
			char *vd = series_version_dir(ctx->s,
						      g_array_index(vs, int, i));

			hash_tree(sum, vd);
			g_free(vd);
		}
		g_array_unref(vs);
		if (read_file(ctx->s->conf_path, 1 << 20, &buf, &len) == 0) {
			g_checksum_update(sum, (const guchar *)buf, (gssize)len);
			g_free(buf);
		}
		ident_init(&id);
		if (ident_sender(&id, why) == 0)
			g_checksum_update(sum, (const guchar *)id.email, -1);
		ident_release(&id);
		g_string_free(why, TRUE);
	}
	out = g_strdup(g_checksum_get_string(sum));
	g_checksum_free(sum);
	g_free(versions);
	return out;
}

static bool cached_result(struct check_ctx *ctx, const char *stage,
			  const char *key, struct stage_result *r)
{
	char *path = g_strdup_printf("%s/%s.json", ctx->logdir, stage);
	json_t *j = json_load_file(path, 0, NULL);
	bool ok = false;

	if (j && json_is_string(json_object_get(j, "key")) &&
	    !strcmp(json_string_value(json_object_get(j, "key")), key) &&
	    stage_result_from_json(j, r) == 0) {
		r->cached = true;
		ok = true;
	}
	if (j)
		json_decref(j);
	g_free(path);
	return ok;
}

static void store_result(struct check_ctx *ctx, const char *key,
			 const struct stage_result *r)
{
	char *path = g_strdup_printf("%s/%s.json", ctx->logdir, r->name);
	json_t *j;
	char *text;

	if (!stage_result_cacheable(r)) {
		g_free(path);
		return;
	}
	j = stage_result_to_json(r);
	json_object_set_new(j, "key", json_string(key));
	text = json_dumps(j, JSON_INDENT(1) | JSON_SORT_KEYS);
	if (text)
		write_file_atomic(path, text, strlen(text));
	free(text);
	json_decref(j);
	g_free(path);
}

static bool wanted(const struct opts *o, const char *stage)
{
	if (!o->stages->len)
		return true;
	for (guint i = 0; i < o->stages->len; i++)
		if (!strcmp(o->stages->pdata[i], stage))
			return true;
	return false;
}

static void print_result(const struct check_ctx *ctx,
			 const struct stage_result *r)
{
	const struct finding *f = r->findings->len ? r->findings->pdata[0] : NULL;

	printf("%-22s v%-2d %-10s %s %3u  %s%s", ctx->s->name, ctx->version,
	       r->name, color_status(stage_status_name(r->status), 4),
	       r->findings->len,
	       r->cached ? "(cached) " : "", r->summary ? r->summary : "");
	if (f && f->line)
		printf("\n%33s first: %s:%d: %s: %s", "", f->file, f->line,
		       f->severity, f->message);
	else if (f)
		printf("\n%33s first: %s: %s: %s", "", *f->file ? f->file : "series",
		       f->severity, f->message);
	printf("\n");
	fflush(stdout);
}

/*
 * The workbench scripts (kernel/) and rules (cocci/) that a check uses:
 * $KSERIES_KERNEL_DIR / $KSERIES_COCCI_DIR, else the store's own when it
 * has them (this repository), else those beside the kseries program.
 * New string.
 */
static char *resource_dir(const char *name, const char *env_name)
{
	const char *env = getenv(env_name);
	char *dir, *exe, *exedir;

	if (env && *env)
		return g_strdup(env);
	dir = g_build_filename(store_top(), name, NULL);
	if (is_dir(dir))
		return dir;
	g_free(dir);
	exe = g_file_read_link("/proc/self/exe", NULL);
	exedir = exe ? g_path_get_dirname(exe) : g_strdup(".");
	dir = g_build_filename(exedir, name, NULL);
	g_free(exe);
	g_free(exedir);
	return dir;
}

static const char *kernel_dir_of(void)
{
	static char *dir;

	if (!dir)
		dir = resource_dir("kernel", "KSERIES_KERNEL_DIR");
	return dir;
}

/* Provisions the base tree through kernel/provision-base when missing. */
static const char *ensure_tree(void)
{
	char *prov;
	int status;

	if (kernel_tree())
		return kernel_tree();
	prov = g_build_filename(kernel_dir_of(), "provision-base", NULL);
	if (g_file_test(prov, G_FILE_TEST_IS_EXECUTABLE) && !getenv("KSERIES_TREE")) {
		const char *argv[] = { prov, NULL };

		fprintf(stderr, "kseries: provisioning the base tree (kernel/provision-base)\n");
		status = run_passthrough(NULL, argv);
		g_free(prov);
		if (status != 0)
			return NULL;
		return kernel_tree();
	}
	g_free(prov);
	return NULL;
}

static void touched_files(struct check_ctx *ctx)
{
	const char *argv[] = { "git", "diff", "--name-only", "-z", ctx->base,
			       ctx->tip, NULL };
	struct run_opts o = { .dir = ctx->tree, .capture_out = true,
			      .capture_err = true };
	struct run_result r;

	ctx->touched = g_ptr_array_new_with_free_func(g_free);
	if (run_argv(argv, &o, &r) == 0 && r.status == 0) {
		const char *p = r.out->str, *end = p + r.out->len;

		while (p < end) {
			size_t n = strnlen(p, (size_t)(end - p));

			if (n)
				g_ptr_array_add(ctx->touched, g_strndup(p, n));
			p += n + 1;
		}
	}
	run_result_release(&r);
}

static json_t *check_version(struct series *s, int version,
			     const struct opts *o, int *any_failed)
{
	struct check_ctx ctx = { 0 };
	int failed = 0;		/* this version's */
	struct applied a;
	json_t *stages = json_array();
	const char *base = series_get(s, "series.base");
	double t0 = now();

	applied_init(&a);
	ctx.s = s;
	ctx.version = version;
	ctx.verbose = o->verbose;
	ctx.kernel_dir = kernel_dir_of();
	ctx.cocci_dir = resource_dir("cocci", "KSERIES_COCCI_DIR");
	ctx.files = series_patch_files(s, version, false);
	ctx.logdir = g_strdup_printf("%s/results/%s/v%d", cache_dir(), s->name,
				     version);
	ctx.wt = getenv("KSERIES_CHECK_WORKTREE") && *getenv("KSERIES_CHECK_WORKTREE") ?
		 g_strdup(getenv("KSERIES_CHECK_WORKTREE")) :
		 g_build_filename(cache_dir(), "wt", "kseries-check", NULL);
	mkdir_p(ctx.logdir);
	ctx.wt_lock = -1;
	/* apply: always run, it yields the commits the cache is keyed by */
	{
		struct stage_result r;

		stage_result_init(&r, "apply");
		if (!ctx.files->len) {
			r.status = ST_SKIP;
			r.summary = g_strdup("no patches in the store for this version (posted elsewhere; only its review is here)");
		} else if (!(ctx.tree = ensure_tree())) {
			r.status = ST_FAIL;
			r.summary = g_strdup("no base tree: kernel/provision-base failed or is missing");
		} else if (apply_series(ctx.tree, base ? base : WORKBENCH_DEFAULT_BASE, ctx.files,
					true, &a) < 0) {
			char *msg;

			r.status = ST_FAIL;
			if (a.failed >= 0 && (guint)a.failed < ctx.files->len) {
				char *bn = g_path_get_basename(ctx.files->pdata[a.failed]);

				msg = g_strdup_printf("does not apply to %s", base ? base : WORKBENCH_DEFAULT_BASE);
				finding_add(&r, "apply", bn, 0, "error", msg, a.failed + 1);
				g_free(bn);
				g_free(msg);
			}
			r.summary = g_strdup_printf("patch %d of %u does not apply",
						    a.failed + 1, ctx.files->len);
			{
				char *path = g_strdup_printf("%s/apply.log", ctx.logdir);

				write_file_atomic(path, a.log->str, a.log->len);
				r.log = path;
			}
		} else {
			r.status = a.three_way ? ST_WARN : ST_PASS;
			r.summary = g_strdup_printf("%u patches on %s%s", ctx.files->len,
						    base ? base : WORKBENCH_DEFAULT_BASE,
						    a.three_way ? " (3-way fallback)" : "");
			if (a.three_way)
				finding_add(&r, "apply", "", 0, "warning",
					    "needed the 3-way fallback", 0);
		}
		r.seconds = now() - t0;
		if (wanted(o, "apply") || r.status == ST_FAIL || r.status == ST_SKIP) {
			if (!o->json)
				print_result(&ctx, &r);
			json_array_append_new(stages, stage_result_to_json(&r));
		}
		if (r.status == ST_FAIL)
			failed = 1;
		if (r.status == ST_FAIL || r.status == ST_SKIP) {
			/* the base, when known, is what the reports name */
			ctx.base = g_strdup(a.base);
			stage_result_release(&r);
			goto out;
		}
		stage_result_release(&r);
	}
	ctx.base = g_strdup(a.base);
	ctx.commits = a.commits;
	ctx.tip = g_strdup(a.commits->len ? a.commits->pdata[a.commits->len - 1] :
			   a.base);
	touched_files(&ctx);

	for (int i = 1; check_stage_names[i]; i++) {
		const char *name = check_stage_names[i];
		struct stage_result r;
		char *key;
		double t;

		if (!wanted(o, name))
			continue;
		stage_result_init(&r, name);
		key = stage_key(&ctx, name);
		if (o->no_cache || !cached_result(&ctx, name, key, &r)) {
			char *label = g_strdup_printf("%s v%d %s", s->name,
						      version, name);

			if (o->verbose)
				fprintf(stderr, "kseries: %s ...\n", label);
			progress_begin(label);
			t = now();
			check_run_stage(&ctx, name, &r);
			check_release_worktree(&ctx);
			r.seconds = now() - t;
			progress_end();
			g_free(label);
			store_result(&ctx, key, &r);
		}
		if (r.status == ST_FAIL)
			failed = 1;
		if (!o->json)
			print_result(&ctx, &r);
		json_array_append_new(stages, stage_result_to_json(&r));
		g_free(key);
		stage_result_release(&r);
	}
	ctx.commits = NULL;
out:
	{
		char *path = g_strdup_printf("%s/summary", ctx.logdir);
		GDateTime *dt = g_date_time_new_now_utc();
		char *when = g_date_time_format(dt, "%Y-%m-%d %H:%M");
		char *line = g_strdup_printf("%s %s\n", failed ? "fail" : "pass",
					     when);

		write_file_atomic(path, line, strlen(line));
		g_date_time_unref(dt);
		g_free(when);
		g_free(path);
		g_free(line);
	}
	{
		json_t *j = json_pack("{s:s, s:i, s:s?, s:s?, s:o}", "series", s->name,
				      "version", version, "base", ctx.base,
				      "tip", ctx.tip, "stages", stages);

		check_release_worktree(&ctx);
		*any_failed |= failed;
		applied_release(&a);
		g_free((char *)ctx.cocci_dir);
		g_ptr_array_unref(ctx.files);
		if (ctx.touched)
			g_ptr_array_unref(ctx.touched);
		g_free(ctx.logdir);
		g_free(ctx.wt);
		g_free(ctx.base);
		g_free(ctx.tip);
		return j;
	}
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
	bool given = o->stages->len > 0;
	size_t n;
	struct series s;
	json_t *checked, *report;
	char *text;

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
	for (int i = 0; !given && b4_default_stages[i]; i++)
		for (int k = 0; check_stage_names[k]; k++)
			if (!strcmp(check_stage_names[k], b4_default_stages[i]))
				g_ptr_array_add(o->stages, (char *)check_stage_names[k]);
	g_ptr_array_add(o->stages, (char *)"apply");
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
	checked = check_version(&s, version, o, &failed);
	report = b4_report(checked, index);
	text = json_dumps(report, JSON_INDENT(2));
	printf("%s\n", text);
	free(text);
	json_decref(report);
	json_decref(checked);
	series_release(&s);
	g_free(name);
	return 0;
}

/* --stage NAME: one of the stage table's names; --no-stage: all of them */
static int stage_cb(const struct option *opt, const char *arg, bool unset)
{
	GPtrArray *stages = opt->value;
	bool known = false;

	if (unset) {
		g_ptr_array_set_size(stages, 0);
		return 0;
	}
	for (int k = 0; check_stage_names[k]; k++)
		known |= !strcmp(check_stage_names[k], arg);
	if (!known)
		die("unknown stage '%s'", arg);
	g_ptr_array_add(stages, (char *)arg);
	return 0;
}

/*
 * Versions are checked one at a time (they share the worktree and the
 * build directories); -j is the parallelism of the kernel builds inside
 * them.
 */
static int jobs_cb(const struct option *opt, const char *arg, bool unset)
{
	char *end;
	long n = strtol(arg, &end, 10);

	if (*end || n < 1 || n > 1024)
		die("-j wants a number of jobs, not '%s'", arg);
	g_setenv("KSERIES_JOBS", arg, TRUE);
	return 0;
}

/* -h: the options, then the stage names */
static int help_cb(const struct option *opt, const char *arg, bool unset)
{
	parse_options_help(stdout, "check", opt->value, check_usage);
	printf("\nstages:");
	for (int k = 0; check_stage_names[k]; k++)
		printf(" %s", check_stage_names[k]);
	printf("\n");
	exit(0);
}

int cmd_check(int argc, const char **argv)
{
	struct opts o = { .stages = g_ptr_array_new() };
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
		OPT_CALLBACK(0, "stage", o.stages, "NAME",
			     "run this stage (repeatable; default all)",
			     stage_cb),
		/* outputs are chosen per run: --b4 refuses them */
		OPT_BOOL_F(0, "json", &o.json, "the results as JSON on stdout",
			   PARSE_OPT_NOCONFIG),
		OPT_STRING_F(0, "kcidb", &o.kcidb, "FILE",
			     "the results as KCIDB v5.3 JSON in FILE",
			     PARSE_OPT_NOCONFIG),
		OPT_BOOL(0, "no-cache", &o.no_cache,
			 "run every stage again, ignoring cached results"),
		OPT_CALLBACK_F('j', NULL, NULL, "N",
			       "parallel jobs of the kernel builds", jobs_cb,
			       PARSE_OPT_NONEG),
		OPT_BOOL('v', "verbose", &o.verbose, "say which stage runs, and each build"),
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
		for (int k = 0; check_stage_names[k]; k++)
			printf("%s\n", check_stage_names[k]);
		g_ptr_array_unref(specs);
		g_ptr_array_unref(o.stages);
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
		g_ptr_array_unref(specs);
		g_ptr_array_unref(o.stages);
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
	if (o.kcidb)
		kcidb = kcidb_new();
	for (guint i = 0; i < specs->len; i++) {
		struct series s;
		json_t *checked;
		char *name;
		int version;

		if (series_parse_spec(specs->pdata[i], &name, &version) < 0) {
			ret = EXIT_USAGE;
			continue;
		}
		if (series_load(name, &s) < 0) {
			g_free(name);
			failed = 1;
			continue;
		}
		g_free(name);
		if (!version)
			version = series_latest_version(&s);
		checked = check_version(&s, version, &o, &failed);
		if (kcidb)
			kcidb_add_version(kcidb, &s, version, checked);
		json_array_append_new(results, checked);
		series_release(&s);
	}
	if (o.json) {
		char *text = json_dumps(results, JSON_INDENT(2));

		printf("%s\n", text);
		free(text);
	}
	if (kcidb) {
		char *text = json_dumps(kcidb, JSON_INDENT(1));

		if (!text || write_file_atomic(o.kcidb, text, strlen(text)) < 0)
			failed = 1;
		free(text);
		json_decref(kcidb);
	}
	json_decref(results);
	g_ptr_array_unref(specs);
	g_ptr_array_unref(o.stages);
	if (ret)
		return ret;
	return failed ? EXIT_FINDINGS : 0;
}

int cmd_status(int argc, const char **argv)
{
	const struct option options[] = {
		OPT_END(),
	};
	GPtrArray *names;

	if (parse_options(argc, argv, "status", options, "kseries status", 0))
		usage("kseries status");
	names = series_list_names();
	for (guint i = 0; i < names->len; i++) {
		struct series s;
		GArray *versions;

		if (series_load(names->pdata[i], &s) < 0)
			continue;
		versions = series_versions(&s);
		for (guint k = 0; k < versions->len; k++) {
			int v = g_array_index(versions, int, k);
			GString *line = g_string_new(NULL);
			bool any = false;

			for (int st = 0; check_stage_names[st]; st++) {
				char *path = g_strdup_printf("%s/results/%s/v%d/%s.json",
							     cache_dir(), s.name, v,
							     check_stage_names[st]);
				json_t *j = json_load_file(path, 0, NULL);

				if (j) {
					const char *word = json_string_value(
						json_object_get(j, "status"));

					g_string_append_printf(line, " %s:%s",
						check_stage_names[st],
						color_status(word, 0));
					any = true;
					json_decref(j);
				}
				g_free(path);
			}
			printf("%-22s v%-2d%s\n", s.name, v,
			       any ? line->str : " (not checked)");
			g_string_free(line, TRUE);
		}
		g_array_unref(versions);
		series_release(&s);
	}
	g_ptr_array_unref(names);
	return 0;
}
