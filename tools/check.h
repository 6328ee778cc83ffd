/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KSERIES_CHECK_H
#define KSERIES_CHECK_H

#include <stdbool.h>
#include <glib.h>
#include <jansson.h>

#include "series.h"
#include "stage.h"

/*
 * The check pipeline (DESIGN.md §4). A version is applied to its base as
 * commits (apply.h); each stage of the table below then looks at it and
 * reports a status and findings (stage.h). Results are kept by content
 * (check-cache.h): an unchanged version is served from the cache.
 */

/* What the stages see of one version being checked. */
struct check_ctx {
	struct series *s;
	int version;
	const char *tree;	/* the base repository */
	const char *kernel_dir;	/* the repo's kernel/ scripts */
	const char *cocci_dir;	/* the repo's cocci/ rules */
	char *base;		/* base commit id */
	GPtrArray *commits;	/* one per patch */
	GPtrArray *files;	/* the patch files */
	char *tip;		/* last commit, or base */
	char *wt;		/* the worktree the running stage uses: one
				 * of the two below (borrowed) */
	char *wt_build;		/* the one the build directories were
				 * built from: CHECK_F_BUILDS stages' */
	char *wt_own;		/* this worker's own (check_versions()),
				 * for the other stages that check out */
	char *logdir;		/* results/<series>/v<N>/ */
	GPtrArray *touched;	/* tree paths the series touches */
	int wt_lock;		/* flock on <wt>.lock while a stage uses it */
	bool verbose;
	bool no_cache;		/* run apply too, not from the apply cache */
	/*
	 * The digests of the inputs (CHECK_IN_*) the stage keys are made
	 * of, each computed once for the version when not NULL (check
	 * .c sets it: nothing a stage does changes another's inputs).
	 */
	GHashTable *input_digests;
	/* told of each revision a stage checks out (stage_checkout()) */
	void (*on_checkout)(struct check_ctx *ctx, const char *rev);
	char *label;		/* the status line's "SERIES vN STAGE" */
	char *last_took;	/* " (last took 1m02s)", or "" */
};

/*
 * Sets up ctx for version of s: its patch files, the workbench's
 * directories, the results directory (made) and the worktree's path.
 * The base, the commits and the touched paths come from the apply stage
 * (stage-apply.c). check_ctx_release() frees what ctx owns.
 */
void check_ctx_init(struct check_ctx *ctx, struct series *s, int version);
void check_ctx_release(struct check_ctx *ctx);

/* What a stage reads besides the commits and kseries: its cache key. */
enum {
	CHECK_IN_KERNEL = 1 << 0,	/* kernel/ (the workbench scripts) */
	CHECK_IN_COCCI = 1 << 1,	/* cocci/ */
	CHECK_IN_MODEL = 1 << 2,	/* series/NAME/model/ */
	CHECK_IN_SCRIPTS = 1 << 3,	/* series/NAME/check/ (and its prog/) */
	CHECK_IN_MAILS = 1 << 4,	/* the version's mail files */
	CHECK_IN_REVIEW = 1 << 5,	/* series.conf, series/NAME/feedback/ */
	CHECK_IN_MAINTAINERS = 1 << 6,	/* MAINTAINERS-notes/ */
	CHECK_IN_SERIES = 1 << 7,	/* every version's mails and
					 * thread.mbox, series.conf, and the
					 * sender (ident.h) */
	CHECK_IN_KUNIT = 1 << 8,	/* the version's kunitconfig,
					 * kunit-arch and kunit-against with
					 * its version's mails (stage-kunit.c) */
	CHECK_IN_KUNIT_KERNEL = 1 << 9,	/* the version's kunitconfig and
					 * kunit-arch: the KUnit kernel the
					 * build stage builds */
};

/* How a stage takes part in the pipeline. */
enum {
	/* always run first, never cached: it yields the commits the
	 * other stages' cache keys are made of */
	CHECK_F_FIRST = 1 << 0,
	/* its findings name the patch they concern (check --b4) */
	CHECK_F_PER_PATCH = 1 << 1,
	/* light enough for b4 review's answer: --b4 without --stage */
	CHECK_F_B4 = 1 << 2,
	/*
	 * builds in the workbench's build directories: runs in the one
	 * worktree they were built from (kbuild records absolute source
	 * paths, kernel/kbuild), one such stage at a time
	 */
	CHECK_F_BUILDS = 1 << 3,
};

struct check_stage {
	const char *name;
	/*
	 * Runs the stage on ctx into r (a fresh result). Never fails: a
	 * stage that cannot run reports ST_FAIL with the reason, or ST_SKIP
	 * when what it needs is not applicable to this series, or ST_SKIP
	 * with r->missing set when a program it runs is not installed.
	 */
	void (*fn)(struct check_ctx *ctx, struct stage_result *r);
	unsigned inputs;	/* CHECK_IN_* */
	unsigned flags;		/* CHECK_F_* */
};

/* The stage table, in pipeline order: apply first. */
extern const struct check_stage check_stages[];
extern const size_t check_nr_stages;

/* The row named name, or NULL. */
const struct check_stage *check_stage_find(const char *name);

/*
 * Runs stage st on ctx into r; a stage left ST_PASS gets the status
 * its findings give (stage_result_settle()).
 */
void check_run_stage(struct check_ctx *ctx, const struct check_stage *st,
		     struct stage_result *r);

struct check_opts {
	GPtrArray *stages;	/* names; empty = all */
	bool no_cache, verbose;
	/* called with each result as it is known; may be NULL */
	void (*report)(const struct check_ctx *ctx,
		       const struct stage_result *r);
};

/*
 * Checks version of s: applies it, then runs (or serves from the cache)
 * each wanted stage, writes the version's summary file, and returns the
 * version's result object ({series, version, base, tip, stages}, new
 * reference). *failed is set when a stage failed.
 */
json_t *check_version(struct series *s, int version,
		      const struct check_opts *o, int *failed);

struct check_item {
	struct series *s;
	int version;
};

/*
 * Checks the n items (check_version()), up to jobs of them at once, each
 * then in a process of its own with its own worktree for the stages that
 * check out and do not build (CHECK_F_BUILDS stages share the one their
 * build directories were built from, under its lock: one at a time); two
 * items of one version never run at once. Each item's output (o->report
 * on stdout, and its stderr) is held until the items before it are
 * done, then printed whole: the output is -j 1's. done is called with
 * each item's result, in item order (NULL when its worker died, said
 * once). *failed is set as check_version() sets it.
 */
void check_versions(const struct check_item *items, size_t n, int jobs,
		    const struct check_opts *o,
		    void (*done)(const struct check_item *it, json_t *result,
				 void *arg),
		    void *arg, int *failed);

#endif
