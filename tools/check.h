/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KSERIES_CHECK_H
#define KSERIES_CHECK_H

#include <stdbool.h>
#include <glib.h>
#include <jansson.h>

#include "series.h"

/*
 * The check pipeline (DESIGN.md §4). A version is applied to its base as
 * commits (apply.h); each stage then looks at it and reports a status
 * and findings. A finding's identity is (tool, file, normalized message):
 * never its line number, so that findings before and after a series can
 * be compared and only those the series adds are reported.
 */
enum stage_status { ST_PASS, ST_WARN, ST_FAIL, ST_SKIP };

struct finding {
	char *tool;
	char *file;		/* tree path, or the patch file's name */
	int line;		/* 0 when none */
	char *severity;		/* "error", "warning", "check", "note" */
	char *message;
	int patch;		/* 1-based patch it concerns, 0 for the series */
};

struct stage_result {
	const char *name;
	enum stage_status status;
	char *summary;		/* one line: what was done, or why skipped */
	GPtrArray *findings;	/* struct finding * */
	char *log;		/* path of the full log, or NULL */
	double seconds;
	bool cached;
	char *missing;		/* a tool the stage needs is not installed:
				 * status skip, never cached; or NULL */
};

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
	char *wt;		/* the check worktree */
	char *logdir;		/* results/<series>/v<N>/ */
	GPtrArray *touched;	/* tree paths the series touches */
	int wt_lock;		/* flock on <wt>.lock while a stage uses it */
	bool verbose;
};

const char *stage_status_name(enum stage_status st);

/* The stage table, in pipeline order; NULL-terminated names. */
extern const char *const check_stage_names[];

/*
 * Runs stage name on ctx into res (a fresh result). Never fails: a
 * stage that cannot run reports ST_FAIL with the reason, or ST_SKIP when
 * what it needs is not applicable to this series, or ST_SKIP with
 * res->missing set when a program it runs is not installed.
 */
void check_run_stage(struct check_ctx *ctx, const char *name,
		     struct stage_result *res);

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
};
unsigned check_stage_inputs(const char *name);

/*
 * The kunit stage's run count: KSERIES_KUNIT_RUNS, else the version's
 * "version.N.kunit", else "1"; NULL when it is not a count (1-9999).
 */
const char *check_kunit_runs(const struct check_ctx *ctx);

/* The provenance stage (stage-provenance.c). */
void stage_provenance(struct check_ctx *ctx, struct stage_result *r);
/*
 * False for a result that says nothing about the series: a stage whose
 * tool is missing. Such a result is reported, never kept in the cache,
 * so that the next check, with the tool installed, runs the stage.
 */
bool stage_result_cacheable(const struct stage_result *r);

void stage_result_init(struct stage_result *r, const char *name);
void stage_result_release(struct stage_result *r);
void finding_add(struct stage_result *r, const char *tool, const char *file,
		 int line, const char *severity, const char *message,
		 int patch);
/* The finding's identity: tool, file and message with white space folded. */
char *finding_id(const struct finding *f);

json_t *stage_result_to_json(const struct stage_result *r);
int stage_result_from_json(json_t *j, struct stage_result *r);

/*
 * Checks out rev in the worktree (made on first use), taking the
 * worktree's lock until check_release_worktree(), called after each stage.
 */
int check_checkout(struct check_ctx *ctx, const char *rev);
void check_release_worktree(struct check_ctx *ctx);

#endif
