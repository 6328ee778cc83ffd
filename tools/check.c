// SPDX-License-Identifier: GPL-2.0-only
/*
 * check.c - the check pipeline: one version, applied and then looked at
 * by the stages of the table below, each result served from the cache
 * when nothing it reads has changed (check-cache.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/wait.h>

#include "check.h"
#include "check-cache.h"
#include "color.h"
#include "format.h"
#include "progress.h"
#include "scratch.h"
#include "series.h"
#include "stage.h"
#include "util.h"
#include "version-status.h"
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
	{ "build", stage_build, CHECK_IN_KERNEL | CHECK_IN_KUNIT_KERNEL,
	  CHECK_F_PER_PATCH | CHECK_F_BUILDS },
	{ "sparse", stage_sparse, CHECK_IN_KERNEL, CHECK_F_BUILDS },
	{ "cocci", stage_cocci, CHECK_IN_COCCI, 0 },
	{ "rust", stage_rust, CHECK_IN_KERNEL, CHECK_F_BUILDS },
	{ "kunit", stage_kunit, CHECK_IN_KERNEL | CHECK_IN_KUNIT,
	  CHECK_F_BUILDS },
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

/* The worker slot of this process (check_versions()): 0 outside them. */
static int check_slot;

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
	ctx->wt_build = wt && *wt ? g_strdup(wt) :
			g_build_filename(cache_dir(), "wt", "kseries-check",
					 NULL);
	/* the first worker, and a check without -j, use the one worktree */
	ctx->wt_own = check_slot ? g_strdup_printf("%s-%d", ctx->wt_build,
						   check_slot + 1) :
		      g_strdup(ctx->wt_build);
	ctx->wt = ctx->wt_build;
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
	g_free(ctx->wt_build);
	g_free(ctx->wt_own);
	g_free(ctx->label);
	g_free(ctx->last_took);
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

/* " (last took 1m02s)" from the stage's stored result, any key; or "". */
static char *last_took(const struct check_ctx *ctx, const char *stage)
{
	char *path = g_strdup_printf("%s/%s.json", ctx->logdir, stage);
	json_t *j = is_file(path) ? json_load_file(path, 0, NULL) : NULL;
	double t = j ? json_real_value(json_object_get(j, "seconds")) : 0;
	unsigned secs = t > 0 && t < 1e7 ? (unsigned)(t + 0.5) : 0;
	char *out = j ? g_strdup_printf(" (last took %um%02us)", secs / 60,
					secs % 60) :
		    g_strdup("");

	json_decref(j);
	g_free(path);
	return out;
}

/* The status line names the patch a stage has checked out. */
static void on_checkout(struct check_ctx *ctx, const char *rev)
{
	char *where = NULL, *label;

	if (ctx->base && !strcmp(rev, ctx->base))
		where = g_strdup("base");
	for (guint i = 0; !where && ctx->commits && i < ctx->commits->len; i++)
		if (!strcmp(rev, ctx->commits->pdata[i]))
			where = g_strdup_printf("patch %u/%u", i + 1,
						ctx->commits->len);
	label = g_strdup_printf("%s %s%s", ctx->label, where ? where : rev,
				ctx->last_took);
	progress_set_label(label);
	g_free(label);
	g_free(where);
}

/*
 * A -j worker's stderr is held in a file until its version is done; with
 * -v, each stage's start and end go at once to the stderr the check was
 * started with (check_live_fd) instead, so a log that is not a terminal
 * (a CI job, the main job) says what runs while it runs. One write() a
 * line; into the held file when that write fails.
 */
static int check_live_fd = -1;

static void G_GNUC_PRINTF(1, 2) verbose_line(const char *fmt, ...)
{
	va_list ap;
	char *line;

	va_start(ap, fmt);
	line = g_strdup_vprintf(fmt, ap);
	va_end(ap);
	if (check_live_fd < 0 ||
	    write(check_live_fd, line, strlen(line)) != (ssize_t)strlen(line))
		fputs(line, stderr);
	g_free(line);
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
		char *label;
		double t;

		g_free(ctx->label);
		g_free(ctx->last_took);
		ctx->label = g_strdup_printf("%s v%d %s", ctx->s->name,
					     ctx->version, st->name);
		ctx->last_took = last_took(ctx, st->name);
		label = g_strconcat(ctx->label, ctx->last_took, NULL);
		ctx->wt = st->flags & CHECK_F_BUILDS ? ctx->wt_build :
						       ctx->wt_own;
		ctx->on_checkout = on_checkout;
		if (o->verbose)
			verbose_line("kseries: %s ...%s\n", ctx->label,
				     ctx->last_took);
		progress_begin(label);
		t = now();
		check_run_stage(ctx, st, &r);
		stage_release_worktree(ctx);
		r.seconds = now() - t;
		progress_end();
		ctx->on_checkout = NULL;
		g_free(label);
		if (o->verbose)
			verbose_line("kseries: %s: %s in %um%02us\n",
				     ctx->label, stage_status_name(r.status),
				     (unsigned)(r.seconds + 0.5) / 60,
				     (unsigned)(r.seconds + 0.5) % 60);
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
	/* what status shows of the version, in one file (version-status.h) */
	version_status_write(s->name, version);
	j = json_pack("{s:s, s:i, s:s?, s:s?, s:o}", "series", s->name,
		      "version", version, "base", ctx.base, "tip", ctx.tip,
		      "stages", stages);
	*any_failed |= failed;
	check_ctx_release(&ctx);
	return j;
}

/* ---- several versions at once (check_versions()) ---- */

enum { ITEM_PENDING, ITEM_RUNNING, ITEM_DONE };

struct worker_item {
	pid_t pid;
	int state, slot, status_fd;
	char *out, *err, *json;	/* its held stdout, stderr, result */
	GString *partial;	/* its status pipe's unfinished line */
	char *line;		/* its last status line */
	double weight;		/* item_weight(), the order it starts in */
};

static int status_fd = -1;	/* a worker's end of its status pipe */

/* A worker's status line, to the parent that draws them all. */
static void status_sink(const char *line)
{
	GString *l = g_string_new(line);
	ssize_t n;

	g_string_append_c(l, '\n');
	/* a full pipe drops the line: the next one says more */
	n = write(status_fd, l->str, l->len);
	(void)n;
	g_string_free(l, TRUE);
}

static bool same_version(const struct check_item *a, const struct check_item *b)
{
	return a->version == b->version && !strcmp(a->s->name, b->s->name);
}

/* The worker's process: check_version() with its output held in files. */
static void G_GNUC_NORETURN worker_run(const struct check_item *it,
				       struct worker_item *w, int slot,
				       int pipe_w, const struct check_opts *o)
{
	int failed = 0, out = open(w->out, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	int err = open(w->err, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	json_t *j;

	if (o->verbose && !progress_wanted())
		check_live_fd = fcntl(2, F_DUPFD_CLOEXEC, 3);
	if (out < 0 || err < 0 || dup2(out, 1) < 0 || dup2(err, 2) < 0)
		_exit(3);
	close(out);
	close(err);
	check_slot = slot;
	if (pipe_w >= 0) {
		status_fd = pipe_w;
		progress_set_sink(status_sink);
	}
	j = check_version(it->s, it->version, o, &failed);
	fflush(stdout);
	fflush(stderr);
	if (!j || json_dump_file(j, w->json, JSON_COMPACT) < 0)
		_exit(3);
	/* no atexit work: the parent's scratch and its files are its own */
	_exit(failed ? 1 : 0);
}

static int worker_start(const struct check_item *it, struct worker_item *w,
			int slot, const struct check_opts *o)
{
	int fds[2] = { -1, -1 };

	if (progress_wanted() && pipe(fds) < 0)
		return error_errno("cannot make a pipe");
	fflush(stdout);
	fflush(stderr);
	w->pid = fork();
	if (w->pid < 0) {
		if (fds[0] >= 0)
			close(fds[0]), close(fds[1]);
		return error_errno("cannot fork");
	}
	if (!w->pid) {
		if (fds[0] >= 0)
			close(fds[0]);
		worker_run(it, w, slot, fds[1], o);
	}
	if (fds[1] >= 0) {
		close(fds[1]);
		fcntl(fds[0], F_SETFL, fcntl(fds[0], F_GETFL) | O_NONBLOCK);
	}
	w->status_fd = fds[0];
	w->state = ITEM_RUNNING;
	w->slot = slot;
	return 0;
}

/* Copies the file at path to fp, whole. */
static void replay(const char *path, FILE *fp)
{
	char *buf;
	size_t len;

	if (read_file(path, 1u << 30, &buf, &len) == 0) {
		fwrite(buf, 1, len, fp);
		fflush(fp);
		g_free(buf);
	}
}

/* Reads what a worker's status pipe holds; its last complete line kept. */
static void status_read(struct worker_item *w)
{
	char buf[4096];
	ssize_t n;

	while (w->status_fd >= 0 && (n = read(w->status_fd, buf, sizeof(buf))) > 0) {
		for (ssize_t i = 0; i < n; i++) {
			if (buf[i] != '\n') {
				if (w->partial->len < 4096)
					g_string_append_c(w->partial, buf[i]);
				continue;
			}
			g_free(w->line);
			w->line = g_strdup(w->partial->str);
			g_string_truncate(w->partial, 0);
		}
	}
}

/* The parent's status line: every running worker's, in item order. */
static void status_draw(struct worker_item *ws, size_t n, size_t done)
{
	GString *l = g_string_new(NULL);
	const char *sep = " ";

	g_string_append_printf(l, "kseries: [%zu/%zu done]", done, n);
	for (size_t i = 0; i < n; i++) {
		const char *line = ws[i].line;

		if (ws[i].state != ITEM_RUNNING || !line || !*line)
			continue;
		if (g_str_has_prefix(line, "kseries: "))
			line += strlen("kseries: ");
		g_string_append_printf(l, "%s%s", sep, line);
		sep = " | ";
	}
	progress_show(l->str);
	g_string_free(l, TRUE);
}

/*
 * How long item's check is expected to take, to start the longest first
 * (two workers finish sooner when the long versions do not come last):
 * the seconds its stages took last time (results/<series>/v<N>/), else,
 * on a first run, a day for a series with VM or perf scripts of its own
 * (their kernels and boots dwarf the rest) and nothing for the others.
 */
static double item_weight(const struct check_item *it)
{
	char *dir = g_strdup_printf("%s/results/%s/v%d", cache_dir(),
				    it->s->name, it->version);
	GPtrArray *names = is_dir(dir) ? dir_names_sorted(dir, NULL, NULL) :
					 NULL;
	double sum = 0;

	for (guint i = 0; names && i < names->len; i++) {
		char *p;
		json_t *j;

		if (!g_str_has_suffix(names->pdata[i], ".json"))
			continue;
		p = g_build_filename(dir, names->pdata[i], NULL);
		j = json_load_file(p, 0, NULL);
		if (json_is_number(json_object_get(j, "seconds")))
			sum += json_number_value(json_object_get(j, "seconds"));
		json_decref(j);
		g_free(p);
	}
	if (sum <= 0) {
		char *vm = g_build_filename(it->s->dir, "check", "vm", NULL);
		char *perf = g_build_filename(it->s->dir, "check", "perf", NULL);

		if (is_file(vm) || is_file(perf))
			sum = 86400;
		g_free(vm);
		g_free(perf);
	}
	if (names)
		g_ptr_array_unref(names);
	g_free(dir);
	return sum;
}

/*
 * The next item to start: pending, no run of its version going, and the
 * heaviest such (item_weight(); the first in order among equals). The
 * output stays in item order (flush_done()).
 */
static ssize_t next_item(const struct check_item *items,
			 struct worker_item *ws, size_t n)
{
	ssize_t best = -1;

	for (size_t i = 0; i < n; i++) {
		bool busy = false;

		if (ws[i].state != ITEM_PENDING)
			continue;
		for (size_t k = 0; k < n && !busy; k++)
			busy = ws[k].state == ITEM_RUNNING &&
			       same_version(&items[i], &items[k]);
		if (!busy && (best < 0 || ws[i].weight > ws[best].weight))
			best = (ssize_t)i;
	}
	return best;
}

/* Marks the worker pid done; false when pid is none of them. */
static bool worker_reaped(struct worker_item *ws, size_t n, pid_t pid,
			  int wstatus, bool *slots, int *failed)
{
	for (size_t i = 0; i < n; i++) {
		if (ws[i].state != ITEM_RUNNING || ws[i].pid != pid)
			continue;
		status_read(&ws[i]);
		if (ws[i].status_fd >= 0)
			close(ws[i].status_fd);
		ws[i].status_fd = -1;
		ws[i].state = ITEM_DONE;
		slots[ws[i].slot] = false;
		if (!WIFEXITED(wstatus) || WEXITSTATUS(wstatus) != 0)
			*failed = 1;
		return true;
	}
	return false;
}

static void flush_done(const struct check_item *items, struct worker_item *ws,
		       size_t n, size_t *next,
		       void (*done)(const struct check_item *, json_t *, void *),
		       void *arg)
{
	while (*next < n && ws[*next].state == ITEM_DONE) {
		struct worker_item *w = &ws[*next];
		json_t *j = json_load_file(w->json, 0, NULL);

		if (progress_wanted())
			progress_show("");
		replay(w->out, stdout);
		replay(w->err, stderr);
		if (!j)
			error("%s v%d: the check's worker ended without a result",
			      items[*next].s->name, items[*next].version);
		done(&items[*next], j, arg);
		json_decref(j);
		(*next)++;
	}
}

void check_versions(const struct check_item *items, size_t n, int jobs,
		    const struct check_opts *o,
		    void (*done)(const struct check_item *it, json_t *result,
				 void *arg),
		    void *arg, int *failed)
{
	struct worker_item *ws;
	bool *slots;
	char *tmp;
	size_t next = 0, ndone = 0;

	if (jobs <= 1 || n <= 1 || !(tmp = scratch_dir_make("check-j"))) {
		for (size_t i = 0; i < n; i++) {
			json_t *j = check_version(items[i].s, items[i].version,
						  o, failed);

			done(&items[i], j, arg);
			json_decref(j);
		}
		return;
	}
	/* decided here, for the workers' stdout is not the terminal */
	color_stdout();
	ws = g_new0(struct worker_item, n);
	slots = g_new0(bool, (size_t)jobs);
	for (size_t i = 0; i < n; i++) {
		ws[i].out = g_strdup_printf("%s/%zu.out", tmp, i);
		ws[i].err = g_strdup_printf("%s/%zu.err", tmp, i);
		ws[i].json = g_strdup_printf("%s/%zu.json", tmp, i);
		ws[i].partial = g_string_new(NULL);
		ws[i].weight = item_weight(&items[i]);
		ws[i].status_fd = -1;
	}
	while (ndone < n) {
		int running = 0, slot, wstatus;
		ssize_t i;
		pid_t pid;

		for (size_t k = 0; k < n; k++)
			running += ws[k].state == ITEM_RUNNING;
		while (running < jobs && (i = next_item(items, ws, n)) >= 0) {
			for (slot = 0; slots[slot]; slot++)
				;
			if (worker_start(&items[i], &ws[i], slot, o) < 0) {
				/* said why; flush_done() says it has no result */
				ws[i].state = ITEM_DONE;
				*failed = 1;
				ndone++;
				continue;
			}
			slots[slot] = true;
			running++;
		}
		pid = waitpid(-1, &wstatus, progress_wanted() ? WNOHANG : 0);
		if (pid > 0 && worker_reaped(ws, n, pid, wstatus, slots, failed))
			ndone++;
		else if (pid < 0 && errno != EINTR)
			break;
		if (pid <= 0) {
			for (size_t k = 0; k < n; k++)
				status_read(&ws[k]);
			status_draw(ws, n, ndone);
			g_usleep(200 * 1000);
		}
		flush_done(items, ws, n, &next, done, arg);
	}
	if (progress_wanted())
		progress_show("");
	flush_done(items, ws, n, &next, done, arg);
	for (size_t i = 0; i < n; i++) {
		g_free(ws[i].out);
		g_free(ws[i].err);
		g_free(ws[i].json);
		g_free(ws[i].line);
		g_string_free(ws[i].partial, TRUE);
		if (ws[i].status_fd >= 0)
			close(ws[i].status_fd);
	}
	g_free(ws);
	g_free(slots);
	scratch_dir_remove(tmp);
}
