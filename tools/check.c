// SPDX-License-Identifier: GPL-2.0-only
/*
 * check.c - the check pipeline: one version, applied and then looked at
 * by the stages of the table below, each result served from the cache
 * when nothing it reads has changed (check-cache.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "check.h"
#include "check-cache.h"
#include "format.h"
#include "progress.h"
#include "series.h"
#include "stage.h"
#include "util.h"
#include "workbench.h"
#include "banned.h"

/*
 * The stages in pipeline order, what each reads besides the commits and
 * kseries itself (its cache key covers exactly these: CHECK_IN_*), and
 * how it takes part (CHECK_F_*). A new stage is one row here and one
 * file, tools/stage-NAME.c.
 */
const struct check_stage check_stages[] = {
	{ "apply", stage_apply, 0, CHECK_F_FIRST | CHECK_F_PER_PATCH },
	{ "format", stage_format, CHECK_IN_MAILS | CHECK_IN_REVIEW,
	  CHECK_F_PER_PATCH | CHECK_F_B4 },
	{ "provenance", stage_provenance, CHECK_IN_MAILS | CHECK_IN_SERIES,
	  CHECK_F_PER_PATCH | CHECK_F_B4 },
	{ "checkpatch", stage_checkpatch, CHECK_IN_MAILS,
	  CHECK_F_PER_PATCH | CHECK_F_B4 },
	{ "build", stage_build, CHECK_IN_KERNEL, CHECK_F_PER_PATCH },
	{ "sparse", stage_sparse, CHECK_IN_KERNEL, 0 },
	{ "cocci", stage_cocci, CHECK_IN_COCCI, 0 },
	{ "rust", stage_rust, CHECK_IN_KERNEL, 0 },
	{ "kunit", stage_kunit, CHECK_IN_KERNEL | CHECK_IN_KUNIT, 0 },
	{ "model", stage_model, CHECK_IN_MODEL, 0 },
	{ "vm", stage_script_run, CHECK_IN_KERNEL | CHECK_IN_SCRIPTS, 0 },
	{ "perf", stage_script_run, CHECK_IN_KERNEL | CHECK_IN_SCRIPTS, 0 },
	{ "feedback", stage_feedback, CHECK_IN_MAILS | CHECK_IN_REVIEW, 0 },
	{ "mail", format_check, CHECK_IN_MAILS | CHECK_IN_REVIEW |
				CHECK_IN_MAINTAINERS, 0 },
};

const size_t check_nr_stages = G_N_ELEMENTS(check_stages);

const struct check_stage *check_stage_find(const char *name)
{
	for (size_t i = 0; i < check_nr_stages; i++)
		if (!strcmp(check_stages[i].name, name))
			return &check_stages[i];
	return NULL;
}

void check_ctx_init(struct check_ctx *ctx, struct series *s, int version)
{
	const char *wt = getenv("KSERIES_CHECK_WORKTREE");

	memset(ctx, 0, sizeof(*ctx));
	ctx->s = s;
	ctx->version = version;
	ctx->kernel_dir = workbench_kernel_dir();
	ctx->cocci_dir = workbench_cocci_dir();
	ctx->files = series_patch_files(s, version, false);
	ctx->logdir = g_strdup_printf("%s/results/%s/v%d", cache_dir(),
				      s->name, version);
	ctx->wt = wt && *wt ? g_strdup(wt) :
		  g_build_filename(cache_dir(), "wt", "kseries-check", NULL);
	mkdir_p(ctx->logdir);
	ctx->wt_lock = -1;
}

void check_ctx_release(struct check_ctx *ctx)
{
	stage_release_worktree(ctx);
	g_ptr_array_unref(ctx->files);
	if (ctx->commits)
		g_ptr_array_unref(ctx->commits);
	if (ctx->touched)
		g_ptr_array_unref(ctx->touched);
	if (ctx->input_digests)
		g_hash_table_unref(ctx->input_digests);
	g_free(ctx->logdir);
	g_free(ctx->wt);
	g_free(ctx->base);
	g_free(ctx->tip);
	memset(ctx, 0, sizeof(*ctx));
	ctx->wt_lock = -1;
}

void check_run_stage(struct check_ctx *ctx, const struct check_stage *st,
		     struct stage_result *r)
{
	st->fn(ctx, r);
	stage_result_settle(r);
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static bool wanted(const struct check_opts *o, const char *stage)
{
	if (!o->stages || !o->stages->len)
		return true;
	for (guint i = 0; i < o->stages->len; i++)
		if (!strcmp(o->stages->pdata[i], stage))
			return true;
	return false;
}

static void report(const struct check_opts *o, const struct check_ctx *ctx,
		   const struct stage_result *r, json_t *stages)
{
	if (o->report)
		o->report(ctx, r);
	json_array_append_new(stages, stage_result_to_json(r));
}

/*
 * The first stage, always run: it yields the commits the cache is keyed
 * by. Reported when asked for, or when it stops the check (a failure, or
 * no patches to apply). Returns false when the check stops there.
 */
static bool run_first(struct check_ctx *ctx, const struct check_opts *o,
		      json_t *stages, int *failed)
{
	const struct check_stage *st = &check_stages[0];
	struct stage_result r;
	double t0 = now();
	bool go;

	stage_result_init(&r, st->name);
	st->fn(ctx, &r);
	if (!r.cached)
		r.seconds = now() - t0;
	go = r.status != ST_FAIL && r.status != ST_SKIP;
	if (wanted(o, st->name) || !go)
		report(o, ctx, &r, stages);
	if (r.status == ST_FAIL)
		*failed = 1;
	stage_result_release(&r);
	return go;
}

/* One stage after the first: from the cache, else run and cached. */
static void run_one(struct check_ctx *ctx, const struct check_opts *o,
		    const struct check_stage *st, json_t *stages, int *failed)
{
	struct stage_result r;
	char *key;

	stage_result_init(&r, st->name);
	key = check_cache_key(ctx, st);
	if (o->no_cache || !check_cache_load(ctx, key, &r)) {
		char *label = g_strdup_printf("%s v%d %s", ctx->s->name,
					      ctx->version, st->name);
		double t;

		if (o->verbose)
			fprintf(stderr, "kseries: %s ...\n", label);
		progress_begin(label);
		t = now();
		check_run_stage(ctx, st, &r);
		stage_release_worktree(ctx);
		r.seconds = now() - t;
		progress_end();
		g_free(label);
		check_cache_store(ctx, key, &r);
	}
	if (r.status == ST_FAIL)
		*failed = 1;
	report(o, ctx, &r, stages);
	g_free(key);
	stage_result_release(&r);
}

/* results/<series>/v<N>/summary: "pass|fail DATE" of the last check. */
static void write_summary(const struct check_ctx *ctx, int failed)
{
	char *path = g_strdup_printf("%s/summary", ctx->logdir);
	GDateTime *dt = g_date_time_new_now_utc();
	char *when = g_date_time_format(dt, "%Y-%m-%d %H:%M");
	char *line = g_strdup_printf("%s %s\n", failed ? "fail" : "pass", when);

	write_file_atomic(path, line, strlen(line));
	g_date_time_unref(dt);
	g_free(when);
	g_free(path);
	g_free(line);
}

json_t *check_version(struct series *s, int version,
		      const struct check_opts *o, int *any_failed)
{
	struct check_ctx ctx;
	json_t *stages = json_array(), *j;
	int failed = 0;		/* this version's */

	check_ctx_init(&ctx, s, version);
	ctx.verbose = o->verbose;
	ctx.no_cache = o->no_cache;
	ctx.input_digests = check_input_digests_new();
	if (run_first(&ctx, o, stages, &failed))
		for (size_t i = 1; i < check_nr_stages; i++)
			if (wanted(o, check_stages[i].name))
				run_one(&ctx, o, &check_stages[i], stages,
					&failed);
	write_summary(&ctx, failed);
	j = json_pack("{s:s, s:i, s:s?, s:s?, s:o}", "series", s->name,
		      "version", version, "base", ctx.base, "tip", ctx.tip,
		      "stages", stages);
	*any_failed |= failed;
	check_ctx_release(&ctx);
	return j;
}
