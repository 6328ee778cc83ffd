/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KSERIES_STAGE_H
#define KSERIES_STAGE_H

#include <stdbool.h>
#include <glib.h>
#include <jansson.h>

/*
 * What the stages of the check pipeline share (DESIGN.md §4): a stage
 * reports a status and findings into a struct stage_result, keeps its
 * log beside its cached result, and holds the check worktree's lock
 * while it has a revision checked out there. A finding's identity is
 * (tool, file, normalized message): never its line number, so that
 * findings before and after a series can be compared and only those the
 * series adds are reported.
 *
 * One stage is one file, tools/stage-NAME.c, registered by one row of
 * check.c's stage table.
 */
struct check_ctx;

enum stage_status { ST_PASS, ST_WARN, ST_FAIL, ST_SKIP };

/* In increasing weight; an error fails its stage, anything else warns. */
enum severity { SEV_NOTE, SEV_CHECK, SEV_WARNING, SEV_ERROR };

/* Where a finding is: a tree path or a patch file's name, a line, a patch. */
struct finding_pos {
	const char *file;	/* NULL or "" for the series */
	int line;		/* 0 when none */
	int patch;		/* 1-based patch it concerns, 0 for the series */
};

#define AT(file_, line_, patch_) \
	((struct finding_pos){ .file = (file_), .line = (line_), \
			       .patch = (patch_) })

struct finding {
	char *tool;
	char *file;		/* tree path, or the patch file's name */
	int line;		/* 0 when none */
	enum severity sev;
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

const char *stage_status_name(enum stage_status st);
/* "note", "check", "warning", "error". */
const char *severity_name(enum severity sev);
/* The severity named name; -1 when name is none of them. */
int severity_parse(const char *name);
/* What a finding of sev makes of a stage that has no other reason. */
enum stage_status severity_status(enum severity sev);
/*
 * A stage still ST_PASS after it ran gets the status of its heaviest
 * finding: ST_FAIL for an error, ST_WARN for anything else.
 */
void stage_result_settle(struct stage_result *r);

void stage_result_init(struct stage_result *r, const char *name);
void stage_result_release(struct stage_result *r);
/*
 * False for a result that says nothing about the series: a stage whose
 * tool is missing. Such a result is reported, never kept in the cache,
 * so that the next check, with the tool installed, runs the stage.
 */
bool stage_result_cacheable(const struct stage_result *r);

/* Adds tool's finding at at, of sev, with the message fmt (stripped). */
void stage_finding(struct stage_result *r, const char *tool,
		   struct finding_pos at, enum severity sev,
		   const char *fmt, ...) G_GNUC_PRINTF(5, 6);
void finding_free(struct finding *f);
/* The finding's identity: tool, file and message with white space folded. */
char *finding_id(const struct finding *f);

json_t *stage_result_to_json(const struct stage_result *r);
int stage_result_from_json(json_t *j, struct stage_result *r);

/* The one-line summary, as printf. */
void stage_summary(struct stage_result *r, const char *fmt, ...)
	G_GNUC_PRINTF(2, 3);
/* Not applicable to this series: ST_SKIP, and why. */
void stage_skip(struct stage_result *r, const char *why);
/* The stage could not do its work: ST_FAIL, and why. */
void stage_fail(struct stage_result *r, const char *fmt, ...)
	G_GNUC_PRINTF(2, 3);
/*
 * The stage cannot run here: tool is not installed (why says what to
 * install). A skip, with the reason, that is never cached.
 */
void stage_tool_missing(struct stage_result *r, const char *tool,
			const char *why);
/*
 * A program a stage runs on this host (the kernel/ scripts run the rest
 * in the sid chroot they provision); env names a variable that, when
 * set, gives the command instead (its first word is the program).
 */
struct stage_tool {
	const char *program;
	const char *env;	/* or NULL */
	const char *package;	/* Debian's */
};

/*
 * True when every one of the n tools is in PATH; else false with r
 * skipped, saying what to install, and not cached (stage_tool_missing()).
 * A stage asks first, before anything else.
 */
bool stage_need_tools(struct stage_result *r, const struct stage_tool *tools,
		      size_t n);
/* Saves text as the stage's log; returns its path (borrowed from r). */
const char *stage_save_log(struct check_ctx *ctx, struct stage_result *r,
			   const char *text, size_t len);
/* dir/name when it is an executable, else NULL; new string. */
char *stage_script(const char *dir, const char *name);
bool stage_has_script(const char *dir, const char *name);

/*
 * Checks out rev in the worktree (made on first use), taking the
 * worktree's lock until stage_release_worktree(), called after each stage.
 */
int stage_checkout(struct check_ctx *ctx, const char *rev);
void stage_release_worktree(struct check_ctx *ctx);

/* path relative to the check worktree when it is below it; borrowed. */
const char *stage_tree_relative(const struct check_ctx *ctx, const char *path);
/*
 * Parses "path:line[:col]: severity: message" lines of text into tool's
 * findings, the paths made relative to the tree; returns their count.
 */
int stage_parse_compiler_lines(const struct check_ctx *ctx,
			       struct stage_result *r, const char *tool,
			       const char *text);
/* Keeps in after only the findings whose identity is not in before. */
void stage_keep_new(struct stage_result *after, struct stage_result *before);
/* The touched paths ending in suffix (and starting with prefix). */
GPtrArray *stage_touched_with_suffix(const struct check_ctx *ctx,
				     const char *suffix, const char *prefix);

/* ---- checkpatch.pl, for the checkpatch and mail stages (stage-checkpatch.c) ---- */
struct run_result;

/* A "FILE:LINE: SEVERITY:TYPE: message" line of checkpatch's output. */
struct checkpatch_line {
	char *file;		/* as checkpatch names it */
	int line;		/* of that file */
	enum severity sev;	/* SEV_ERROR, SEV_WARNING or SEV_CHECK */
	char *message;		/* "TYPE: message", as checkpatch wrote it */
};

void checkpatch_line_free(struct checkpatch_line *l);
/* tree's scripts/checkpatch.pl when it has one, else NULL; new string. */
char *checkpatch_script(const char *tree);
/*
 * tree's checkpatch.pl --strict --terse --show-types --no-summary, with
 * commit ids not looked up (a release tarball has no history), on the
 * mails at paths (NULL-terminated) in one run, in tree, given --root
 * root when root is not NULL. Its exit and output in *res (release it
 * with run_result_release()); -1 when it could not be run.
 */
int checkpatch_run_mails(const char *tree, const char *root,
			 const char *const *paths, struct run_result *res);
/* The finding lines of checkpatch's output out: struct checkpatch_line *. */
GPtrArray *checkpatch_parse(const char *out);

/* ---- the stages (tools/stage-NAME.c); each never fails: see check.h ---- */
/*
 * The first: applies the version to its base, and fills ctx's base
 * (also when it fails), commits, tip and touched paths.
 */
void stage_apply(struct check_ctx *ctx, struct stage_result *r);
void stage_format(struct check_ctx *ctx, struct stage_result *r);
void stage_provenance(struct check_ctx *ctx, struct stage_result *r);
void format_check(struct check_ctx *ctx, struct stage_result *r);
void stage_checkpatch(struct check_ctx *ctx, struct stage_result *r);
void stage_build(struct check_ctx *ctx, struct stage_result *r);
void stage_sparse(struct check_ctx *ctx, struct stage_result *r);
void stage_cocci(struct check_ctx *ctx, struct stage_result *r);
void stage_rust(struct check_ctx *ctx, struct stage_result *r);
void stage_kunit(struct check_ctx *ctx, struct stage_result *r);
void stage_model(struct check_ctx *ctx, struct stage_result *r);
/* vm, perf: series/NAME/check/STAGE or kernel/stage-STAGE */
void stage_script_run(struct check_ctx *ctx, struct stage_result *r);
void stage_feedback(struct check_ctx *ctx, struct stage_result *r);

/* ---- between the kernel stages (stage-build.c, stage-kunit.c) ---- */

/*
 * The kbuild targets of config (c-binder, c-usb-gadget, rust-binder) the
 * series touches; each touched path is built by one c-* config.
 */
GPtrArray *stage_build_targets(const struct check_ctx *ctx, const char *config);
/* The host-gcc (c-*) configs, NULL-terminated. */
extern const char *const stage_c_configs[];
/*
 * kernel/kbuild config at the worktree, with extra (a make variable or
 * NULL) and targets; its output appended to log, its exit in *status.
 * -1 when it could not be run.
 */
int stage_kbuild(struct check_ctx *ctx, const char *config,
		 GPtrArray *targets, const char *extra, GString *log,
		 int *status);
/*
 * The kunitconfig kernel/NAME.kunitconfig covering the touched paths, or
 * NULL; with only_kunit, only one covering paths no kbuild config builds.
 */
const char *stage_kunit_config_for(const struct check_ctx *ctx,
				   bool only_kunit);
/*
 * The kunit stage's run count: KSERIES_KUNIT_RUNS, else the version's
 * "version.N.kunit", else "1"; NULL when it is not a count (1-9999).
 */
const char *stage_kunit_runs(const struct check_ctx *ctx);
/* What the kunit stage's cache key adds of the version's settings. */
void stage_kunit_key(const struct check_ctx *ctx, GChecksum *sum);
/*
 * What the build stage's key adds: the version's kunitconfig and
 * kunit-arch (the KUnit kernel it builds, stage_kunit_own()), nothing
 * for a version without them.
 */
void stage_kunit_kernel_key(const struct check_ctx *ctx, GChecksum *sum);

/*
 * One version's KUnit kernel: the kunitconfig (kernel/NAME.kunitconfig
 * covering the touched paths, or the version's own version.N.kunitconfig,
 * a file in the series directory), the architecture (version.N.kunit-arch,
 * um by default) and the build directory's name under <cache>/build
 * (NULL: kernel/kunit-run's default, the kernel/ config's name).
 */
struct kunit_run {
	char *config;		/* path of the kunitconfig */
	char *label;		/* how findings name it */
	const char *arch;
	char *build_name;	/* NULL: kunit-run's default */
};

/*
 * Fills k for ctx's version: 1, 0 when no KUnit suite applies (r
 * skipped), -1 when a key is not valid (r failed, saying which).
 */
int stage_kunit_run_get(const struct check_ctx *ctx, struct stage_result *r,
			struct kunit_run *k);
void stage_kunit_run_release(struct kunit_run *k);
/*
 * The version's own KUnit kernel (version.N.kunitconfig or kunit-arch
 * set, valid) when it sets every option kernel/NAME.kunitconfig sets:
 * it enables every option that one does, and the build stage
 * builds it at every patch instead (kernel/kunit-run --build-only with
 * its --arch and --name), leaving the kunit stage a warm build dir.
 * true with k filled (release it), else false and k empty.
 */
bool stage_kunit_own(const struct check_ctx *ctx, const char *name,
		     struct kunit_run *k);
/* kernel/kunit-run's --arch and --name options for k, appended to argv. */
void stage_kunit_run_args(const struct kunit_run *k, GPtrArray *argv);

#endif
