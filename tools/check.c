// SPDX-License-Identifier: GPL-2.0-only
/*
 * check.c - the stages of the check pipeline.
 *
 * The stages that drive kernel tools do it through the workbench scripts
 * in kernel/ (which keep builds unprivileged, in reused build directories,
 * under the build lock) and parse what the tools print; everything runs
 * with argv arrays.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/file.h>

#include "apply.h"
#include "check.h"
#include "feedback.h"
#include "format.h"
#include "mail.h"
#include "progress.h"
#include "run.h"
#include "scratch.h"
#include "subject.h"
#include "util.h"
#include "workbench.h"
#include "banned.h"

const char *const check_stage_names[] = {
	"apply", "format", "provenance", "checkpatch", "build", "sparse",
	"cocci", "rust", "kunit", "model", "vm", "perf", "feedback", "mail", NULL,
};

const char *stage_status_name(enum stage_status st)
{
	static const char *const names[] = { "pass", "warn", "fail", "skip" };

	return names[st];
}

void stage_result_init(struct stage_result *r, const char *name)
{
	memset(r, 0, sizeof(*r));
	r->name = name;
	r->findings = g_ptr_array_new();
}

static void finding_free(struct finding *f)
{
	g_free(f->tool);
	g_free(f->file);
	g_free(f->severity);
	g_free(f->message);
	g_free(f);
}

void stage_result_release(struct stage_result *r)
{
	if (r->findings) {
		for (guint i = 0; i < r->findings->len; i++)
			finding_free(r->findings->pdata[i]);
		g_ptr_array_unref(r->findings);
	}
	g_free(r->summary);
	g_free(r->log);
	g_free(r->missing);
	memset(r, 0, sizeof(*r));
}

bool stage_result_cacheable(const struct stage_result *r)
{
	return !r->missing;
}

void finding_add(struct stage_result *r, const char *tool, const char *file,
		 int line, const char *severity, const char *message,
		 int patch)
{
	struct finding *f = g_new0(struct finding, 1);

	f->tool = g_strdup(tool);
	f->file = g_strdup(file ? file : "");
	f->line = line;
	f->severity = g_strdup(severity);
	f->message = g_strstrip(g_strdup(message));
	f->patch = patch;
	g_ptr_array_add(r->findings, f);
}

/*
 * Line numbers move when a series adds lines above a finding, so they are
 * not part of its identity: neither the finding's own nor one named in
 * its message ("taken at line 1164" becomes "taken at line N").
 */
char *finding_id(const struct finding *f)
{
	GString *s = g_string_new(NULL);
	bool space = false;
	/* the cocci chain's places, "(file:LINE)", are lines too */
	bool places = !strcmp(f->tool, "cocci");

	g_string_append_printf(s, "%s|%s|", f->tool, f->file);
	for (const char *p = f->message; *p; p++) {
		if (g_ascii_isspace(*p)) {
			space = true;
			continue;
		}
		if (space)
			g_string_append_c(s, ' ');
		space = false;
		if (g_str_has_suffix(s->str, "line ") && g_ascii_isdigit(*p)) {
			while (g_ascii_isdigit(p[1]))
				p++;
			g_string_append_c(s, 'N');
			continue;
		}
		if (places && *p == ':' && g_ascii_isdigit(p[1])) {
			const char *q = p + 1;

			while (g_ascii_isdigit(*q))
				q++;
			if (*q == ')') {
				g_string_append(s, ":N");
				p = q - 1;
				continue;
			}
		}
		g_string_append_c(s, *p);
	}
	return g_string_free(s, FALSE);
}

json_t *stage_result_to_json(const struct stage_result *r)
{
	json_t *fs = json_array();

	for (guint i = 0; i < r->findings->len; i++) {
		const struct finding *f = r->findings->pdata[i];
		char *id = finding_id(f);

		json_array_append_new(fs, json_pack("{s:s, s:s, s:s, s:i, s:s, s:s, s:i}",
			"id", id, "tool", f->tool, "file", f->file,
			"line", f->line, "severity", f->severity,
			"message", f->message, "patch", f->patch));
		g_free(id);
	}
	return json_pack("{s:s, s:s, s:s, s:o, s:s?, s:f, s:b, s:s?}",
			 "stage", r->name, "status", stage_status_name(r->status),
			 "summary", r->summary ? r->summary : "",
			 "findings", fs, "log", r->log, "seconds", r->seconds,
			 "cached", r->cached, "missing", r->missing);
}

int stage_result_from_json(json_t *j, struct stage_result *r)
{
	const char *status = json_string_value(json_object_get(j, "status"));
	json_t *fs = json_object_get(j, "findings"), *f;
	size_t i;

	if (!status || !json_is_array(fs))
		return -1;
	for (int s = ST_PASS; s <= ST_SKIP; s++)
		if (!strcmp(status, stage_status_name(s)))
			r->status = s;
	r->summary = g_strdup(json_string_value(json_object_get(j, "summary")));
	if (json_string_value(json_object_get(j, "log")))
		r->log = g_strdup(json_string_value(json_object_get(j, "log")));
	if (json_string_value(json_object_get(j, "missing")))
		r->missing = g_strdup(
			json_string_value(json_object_get(j, "missing")));
	r->seconds = json_real_value(json_object_get(j, "seconds"));
	json_array_foreach(fs, i, f) {
		const char *tool = json_string_value(json_object_get(f, "tool"));
		const char *sev = json_string_value(json_object_get(f, "severity"));
		const char *msg = json_string_value(json_object_get(f, "message"));

		if (!tool || !sev || !msg)
			return -1;
		finding_add(r, tool, json_string_value(json_object_get(f, "file")),
			    (int)json_integer_value(json_object_get(f, "line")),
			    sev, msg,
			    (int)json_integer_value(json_object_get(f, "patch")));
	}
	return 0;
}

/* ---- helpers ---- */

static void set_summary(struct stage_result *r, const char *fmt, ...)
	G_GNUC_PRINTF(2, 3);

static void set_summary(struct stage_result *r, const char *fmt, ...)
{
	va_list ap;

	g_free(r->summary);
	va_start(ap, fmt);
	r->summary = g_strdup_vprintf(fmt, ap);
	va_end(ap);
}

static void skip(struct stage_result *r, const char *why)
{
	r->status = ST_SKIP;
	set_summary(r, "%s", why);
}

/*
 * The stage cannot run here: tool is not installed (why says what to
 * install). A skip, with the reason, that is never cached.
 */
static void tool_missing(struct stage_result *r, const char *tool,
			 const char *why)
{
	r->status = ST_SKIP;
	g_free(r->missing);
	r->missing = g_strdup(tool);
	set_summary(r, "%s (not cached: the next check runs the stage again)",
		    why);
}

static void fail(struct stage_result *r, const char *fmt, ...)
	G_GNUC_PRINTF(2, 3);

static void fail(struct stage_result *r, const char *fmt, ...)
{
	va_list ap;

	g_free(r->summary);
	va_start(ap, fmt);
	r->summary = g_strdup_vprintf(fmt, ap);
	va_end(ap);
	r->status = ST_FAIL;
}

/* Saves text as the stage's log; returns its path (borrowed from r). */
static const char *save_log(struct check_ctx *ctx, struct stage_result *r,
			    const char *text, size_t len)
{
	char *path = g_strdup_printf("%s/%s.log", ctx->logdir, r->name);

	if (write_file_atomic(path, text, len) < 0) {
		g_free(path);
		return NULL;
	}
	g_free(r->log);
	r->log = path;
	return path;
}

static char *script(struct check_ctx *ctx, const char *dir, const char *name)
{
	char *p = g_build_filename(dir, name, NULL);

	if (!g_file_test(p, G_FILE_TEST_IS_EXECUTABLE)) {
		g_free(p);
		return NULL;
	}
	(void)ctx;
	return p;
}

static bool has_script(struct check_ctx *ctx, const char *dir, const char *name)
{
	char *p = script(ctx, dir, name);
	bool found = p != NULL;

	g_free(p);
	return found;
}

/*
 * One stage at a time in a worktree: a stage checks out the base and the
 * series in turn, and a build must not see them change under it. The
 * lock is taken by a stage's first checkout and dropped when the stage
 * ends (check_release_worktree()), so that the stages that never touch
 * the worktree, and other checks' stages, do not wait for a long one.
 */
static int lock_worktree(struct check_ctx *ctx)
{
	char *lockpath, *parent;

	if (ctx->wt_lock >= 0)
		return 0;
	lockpath = g_strdup_printf("%s.lock", ctx->wt);
	parent = g_path_get_dirname(ctx->wt);
	mkdir_p(parent);
	ctx->wt_lock = open(lockpath, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
	if (ctx->wt_lock < 0) {
		error_errno("cannot open '%s'", lockpath);
	} else if (flock(ctx->wt_lock, LOCK_EX | LOCK_NB) < 0) {
		static const char waiting[] =
			"waiting for the worktree (another check is using it)\n";

		progress_feed(waiting, sizeof(waiting) - 1);
		if (!progress_active())
			fprintf(stderr, "kseries: waiting for %s\n", lockpath);
		while (flock(ctx->wt_lock, LOCK_EX) < 0 && errno == EINTR)
			;
	}
	g_free(lockpath);
	g_free(parent);
	return ctx->wt_lock < 0 ? -1 : 0;
}

void check_release_worktree(struct check_ctx *ctx)
{
	if (ctx->wt_lock >= 0)
		close(ctx->wt_lock);
	ctx->wt_lock = -1;
}

int check_checkout(struct check_ctx *ctx, const char *rev)
{
	if (lock_worktree(ctx) < 0)
		return -1;
	if (!is_dir(ctx->wt)) {
		const char *argv[] = { "git", "worktree", "add", "--detach", "-f",
				       ctx->wt, rev, NULL };
		char *parent = g_path_get_dirname(ctx->wt);
		char *out;
		int ret;

		mkdir_p(parent);
		g_free(parent);
		{
			const char *prune[] = { "git", "worktree", "prune", NULL };

			if (run_capture(ctx->tree, prune, &out) == 0)
				g_free(out);
		}
		ret = run_capture(ctx->tree, argv, &out);
		g_free(out);
		return ret;
	} else {
		const char *argv[] = { "git", "checkout", "--detach", "-q", "-f",
				       rev, NULL };
		char *out;
		int ret = run_capture(ctx->wt, argv, &out);

		g_free(out);
		return ret;
	}
}

/*
 * path relative to the tree: builds see the sources at the worktree's own
 * path (kernel/kbuild binds it there), so their diagnostics name files
 * absolutely.
 */
static const char *tree_relative(const struct check_ctx *ctx, const char *path)
{
	size_t n = strlen(ctx->wt);

	if (!strncmp(path, ctx->wt, n) && path[n] == '/')
		return path + n + 1;
	return path;
}

/*
 * Parses "path:line[:col]: severity: message" lines into findings, the
 * paths made relative to the tree.
 */
static int parse_compiler_lines(const struct check_ctx *ctx,
				struct stage_result *r, const char *tool,
				const char *text)
{
	char **lines = g_strsplit(text, "\n", -1);
	int n = 0;

	for (char **l = lines; *l; l++) {
		char *p = *l, *colon, *end;
		const char *file, *msg, *sev = NULL;
		long line;

		colon = strchr(p, ':');
		if (!colon || colon == p)
			continue;
		line = strtol(colon + 1, &end, 10);
		if (end == colon + 1 || *end != ':')
			continue;
		*colon = '\0';
		file = tree_relative(ctx, p);
		p = end + 1;
		/* an optional column */
		strtol(p, &end, 10);
		if (end != p && *end == ':')
			p = end + 1;
		while (*p == ' ')
			p++;
		msg = p;
		if (g_str_has_prefix(p, "error: ") || g_str_has_prefix(p, "fatal error: "))
			sev = "error";
		else if (g_str_has_prefix(p, "warning: "))
			sev = "warning";
		if (sev) {
			msg = strchr(p, ':') + 2;
		} else {
			sev = "warning";
		}
		finding_add(r, tool, file, (int)line, sev, msg, 0);
		n++;
	}
	g_strfreev(lines);
	return n;
}

/* Keeps in after only the findings whose identity is not in before. */
static void keep_new(struct stage_result *after, struct stage_result *before)
{
	GHashTable *old = g_hash_table_new_full(g_str_hash, g_str_equal, g_free,
						NULL);
	GPtrArray *kept = g_ptr_array_new();

	for (guint i = 0; i < before->findings->len; i++)
		g_hash_table_add(old, finding_id(before->findings->pdata[i]));
	for (guint i = 0; i < after->findings->len; i++) {
		struct finding *f = after->findings->pdata[i];
		char *id = finding_id(f);

		if (g_hash_table_contains(old, id))
			finding_free(f);
		else
			g_ptr_array_add(kept, f);
		g_free(id);
	}
	g_ptr_array_unref(after->findings);
	after->findings = kept;
	g_hash_table_unref(old);
}

static GPtrArray *touched_with_suffix(struct check_ctx *ctx, const char *suffix,
				      const char *prefix)
{
	GPtrArray *a = g_ptr_array_new_with_free_func(g_free);

	for (guint i = 0; i < ctx->touched->len; i++) {
		const char *p = ctx->touched->pdata[i];

		if (g_str_has_suffix(p, suffix) &&
		    (!prefix || g_str_has_prefix(p, prefix)))
			g_ptr_array_add(a, g_strdup(p));
	}
	return a;
}

/* ---- format: the form of each patch mail ---- */

static bool is_fixes_ok(const char *line)
{
	/* Documentation/process/submitting-patches.rst: 12+ hex, ("subject") */
	const char *p = line + strlen("Fixes: ");
	int hex = 0;

	while (g_ascii_isxdigit(p[hex]))
		hex++;
	return hex >= 12 && p[hex] == ' ' && p[hex + 1] == '(' &&
	       p[hex + 2] == '"' && g_str_has_suffix(p, "\")");
}

static void stage_format(struct check_ctx *ctx, struct stage_result *r)
{
	const char *prefix = series_get(ctx->s, "series.prefix");
	GPtrArray *all = series_patch_files(ctx->s, ctx->version, true);
	bool changelog = false, link = false;
	int n = (int)ctx->files->len;
	char key[64];
	const char *origin;
	bool posted;

	/*
	 * A posted version carries its sign-offs as posted; one we write
	 * gets the sender's at format time (format.h), none is stored.
	 */
	snprintf(key, sizeof(key), "version.%d.origin", ctx->version);
	origin = series_get(ctx->s, key);
	posted = origin && !strcmp(origin, "posted");

	for (guint i = 0; i < all->len; i++) {
		GPtrArray *mails = mail_array_new();
		char *base = g_path_get_basename(all->pdata[i]);
		bool cover = g_str_has_prefix(base, "0000-");
		struct subject subj;
		struct mail *m;
		char **lines;
		bool sob = false, author_sob = false, below = false;
		int k = cover ? 0 : (int)i + (all->len > ctx->files->len ? 0 : 1);

		if (mail_read_mbox(all->pdata[i], mails) < 0 || !mails->len) {
			finding_add(r, "format", base, 0, "error",
				    "cannot parse the patch mail", k);
			g_ptr_array_unref(mails);
			g_free(base);
			continue;
		}
		m = mails->pdata[0];
		subject_parse(m->subject, &subj);
		if (!subj.patch)
			finding_add(r, "format", base, 0, "error",
				    "subject has no [PATCH] tag", k);
		if (prefix && g_ascii_strcasecmp(subj.prefix, prefix))
			finding_add(r, "format", base, 0, "warning",
				    "subject prefix differs from the series' prefix", k);
		if (subj.version != ctx->version)
			finding_add(r, "format", base, 0, "error",
				    "subject names another version", k);
		if (n > 1 && (subj.total != n || subj.index != k))
			finding_add(r, "format", base, 0, "error",
				    "subject counter does not match the patch's place", k);
		lines = g_strsplit(m->body, "\n", -1);
		for (char **l = lines; *l; l++) {
			if (!strcmp(*l, "---"))
				below = true;
			if (g_str_has_prefix(*l, "Changes in v") ||
			    g_str_has_prefix(*l, "Changes since v") ||
			    g_regex_match_simple("^v[0-9]+ ?[:-]", *l, 0, 0))
				changelog = true;
			{
				/* "- Link to v1: …" as b4 writes it, or "v1: https://lore…" */
				const char *t = *l + strspn(*l, "-* \t");

				if (g_str_has_prefix(t, "Link to v") ||
				    (g_str_has_prefix(t, "v") &&
				     strstr(t, "lore.kernel.org")))
					link = true;
			}
			if (below || cover)
				continue;
			if (g_str_has_prefix(*l, "Signed-off-by: ")) {
				sob = true;
				if (strstr(*l, m->from_email) && *m->from_email)
					author_sob = true;
			}
			if (g_str_has_prefix(*l, "Fixes: ") && !is_fixes_ok(*l))
				finding_add(r, "format", base, 0, "error",
					    "Fixes: tag not in the form 'Fixes: <12+ hex> (\"subject\")'",
					    k);
		}
		g_strfreev(lines);
		if (!cover && !sob && posted)
			finding_add(r, "format", base, 0, "error",
				    "no Signed-off-by", k);
		else if (!cover && sob && !author_sob)
			finding_add(r, "format", base, 0, "warning",
				    "the sender has no Signed-off-by", k);
		subject_release(&subj);
		g_ptr_array_unref(mails);
		g_free(base);
	}
	if (ctx->version > 1 && !changelog)
		finding_add(r, "format", "", 0, "error",
			    "v2+ without a changelog (Changes in vN) in the cover or below ---",
			    0);
	if (ctx->version > 1 && !link)
		finding_add(r, "format", "", 0, "warning",
			    "no link to the previous version", 0);
	g_ptr_array_unref(all);
	set_summary(r, "%u patch mails", ctx->files->len);
}

/* ---- checkpatch ---- */

static void stage_checkpatch(struct check_ctx *ctx, struct stage_result *r)
{
	char *cp = g_build_filename(ctx->tree, "scripts", "checkpatch.pl", NULL);
	GString *log = g_string_new(NULL);
	char *tmp;

	if (!is_file(cp)) {
		fail(r, "no scripts/checkpatch.pl in the base tree");
		g_free(cp);
		g_string_free(log, TRUE);
		return;
	}
	tmp = scratch_dir_make("checkpatch");
	if (!tmp) {
		fail(r, "cannot make a scratch directory for checkpatch");
		g_free(cp);
		g_string_free(log, TRUE);
		return;
	}
	for (guint i = 0; i < ctx->files->len; i++) {
		char *base = g_path_get_basename(ctx->files->pdata[i]);
		char *path = g_build_filename(tmp, base, NULL);
		/*
		 * The base is a release tarball without history: commit ids
		 * cannot be looked up there, so that check says nothing.
		 */
		const char *argv[] = { "perl", cp, "--strict", "--terse",
				       "--show-types", "--no-summary",
				       "--ignore", "UNKNOWN_COMMIT_ID",
				       "--root", ctx->tree, path, NULL };
		struct run_opts o = { .dir = ctx->tree, .capture_out = true,
				      .capture_err = true, .timeout = 600 };
		struct run_result res;
		char **lines;
		char *text = NULL, *mailed;
		size_t len;

		/* the patch as format mails it: sender's From: and sign-off */
		if (read_file(ctx->files->pdata[i], MAIL_MAX_FILE, &text,
			      &len) < 0) {
			fail(r, "cannot read the patch");
			g_free(path);
			g_free(base);
			break;
		}
		mailed = format_stored_as_mailed(text, len, FORMAT_CHECK_SENDER);
		g_free(text);
		if (write_file_atomic(path, mailed, strlen(mailed)) < 0) {
			fail(r, "cannot write the patch for checkpatch");
			g_free(mailed);
			g_free(path);
			g_free(base);
			break;
		}
		g_free(mailed);
		if (run_argv(argv, &o, &res) < 0) {
			fail(r, "cannot run checkpatch");
			g_free(path);
			g_free(base);
			break;
		}
		g_free(path);
		g_string_append_printf(log, "== %s (exit %d)\n%s%s", base,
				       res.status, res.out->str, res.err->str);
		/* 0: clean, 1: findings; anything else: it did not check */
		if (res.status != 0 && res.status != 1)
			finding_add(r, "checkpatch", base, 0, "error",
				    "checkpatch.pl did not check the patch (see checkpatch.log)",
				    (int)i + 1);
		lines = g_strsplit(res.out->str, "\n", -1);
		for (char **l = lines; *l; l++) {
			/* FILE:LINE: TYPE:KIND: message */
			char *p = strstr(*l, ": ");
			const char *sev;
			char *colon, *lineno;
			int line = 0;

			if (!p)
				continue;
			p += 2;
			if (g_str_has_prefix(p, "ERROR:"))
				sev = "error";
			else if (g_str_has_prefix(p, "WARNING:"))
				sev = "warning";
			else if (g_str_has_prefix(p, "CHECK:"))
				sev = "check";
			else
				continue;
			lineno = strchr(*l, ':');
			if (lineno)
				line = atoi(lineno + 1);
			colon = strchr(p, ':');
			finding_add(r, "checkpatch", base, line, sev, colon + 1,
				    (int)i + 1);
		}
		g_strfreev(lines);
		g_free(base);
		run_result_release(&res);
	}
	scratch_dir_remove(tmp);
	save_log(ctx, r, log->str, log->len);
	set_summary(r, "checkpatch --strict on %u patches (commit ids not checked: the base has no history)",
		    ctx->files->len);
	g_string_free(log, TRUE);
	g_free(cp);
}

/* ---- builds through kernel/kbuild, and KUnit kernels ---- */

/*
 * Touched path prefix -> the kunitconfig (kernel/NAME.kunitconfig) whose
 * suites cover it: the kunit stage runs them at the tip.
 */
static const struct {
	const char *prefix;
	const char *name;
	bool only_kunit;	/* no other config compiles these paths */
} kunit_map[] = {
	{ "drivers/android/binder_alloc", "kunit-binder", false },
	{ "drivers/android/tests/", "kunit-binder", true },
};

/*
 * The kunitconfig covering the touched paths, or NULL; with only_kunit,
 * only one covering paths that no kbuild config compiles.
 */
static const char *kunit_config_for(const struct check_ctx *ctx,
				    bool only_kunit)
{
	for (guint i = 0; i < ctx->touched->len; i++)
		for (size_t k = 0; k < G_N_ELEMENTS(kunit_map); k++)
			if ((!only_kunit || kunit_map[k].only_kunit) &&
			    g_str_has_prefix(ctx->touched->pdata[i],
					     kunit_map[k].prefix))
				return kunit_map[k].name;
	return NULL;
}

static GPtrArray *build_targets(struct check_ctx *ctx, const char *config)
{
	GPtrArray *t = g_ptr_array_new_with_free_func(g_free);
	bool rust = !strcmp(config, "rust-binder");

	for (guint i = 0; i < ctx->touched->len; i++) {
		const char *p = ctx->touched->pdata[i];

		if (rust) {
			if (g_str_has_prefix(p, "drivers/android/binder/") ||
			    g_str_has_prefix(p, "include/uapi/linux/android/")) {
				g_ptr_array_add(t, g_strdup("drivers/android/binder/"));
				break;
			}
			continue;
		}
		if (g_str_has_prefix(p, "drivers/android/binder/") ||
		    g_str_has_prefix(p, "tools/") ||
		    g_str_has_prefix(p, "Documentation/"))
			continue;
		if (g_str_has_suffix(p, ".c") &&
		    !g_str_has_prefix(p, "drivers/android/tests/") &&
		    !strstr(p, "test-ww_mutex"))
			g_ptr_array_add(t, g_strdup_printf("%.*s.o",
				(int)strlen(p) - 2, p));
		else if (g_str_has_prefix(p, "drivers/android/") ||
			 g_str_has_prefix(p, "include/uapi/linux/android/"))
			g_ptr_array_add(t, g_strdup("drivers/android/"));
	}
	/* dedup */
	for (guint i = 0; i < t->len; i++)
		for (guint j = i + 1; j < t->len; j++)
			if (!strcmp(t->pdata[i], t->pdata[j]))
				g_ptr_array_remove_index(t, j--);
	return t;
}

/*
 * The builds every patch gets: kernel/kbuild configs for the objects the
 * series touches, and the KUnit kernel when the series touches code that
 * only a KUnit config compiles (a test's sources).
 */
struct build_config {
	const char *name;	/* kernel/NAME.config or NAME.kunitconfig */
	bool kunit;		/* through kernel/kunit-run --build-only */
};

static GArray *configs_for(struct check_ctx *ctx)
{
	GArray *c = g_array_new(FALSE, TRUE, sizeof(struct build_config));
	GPtrArray *t = build_targets(ctx, "c-binder");
	struct build_config bc = { .name = kunit_config_for(ctx, true),
				   .kunit = true };
	static const struct build_config cb = { "c-binder", false },
					 rb = { "rust-binder", false };

	if (t->len)
		g_array_append_val(c, cb);
	g_ptr_array_unref(t);
	for (guint i = 0; i < ctx->touched->len; i++) {
		if (g_str_has_prefix(ctx->touched->pdata[i],
				     "drivers/android/binder/")) {
			g_array_append_val(c, rb);
			break;
		}
	}
	if (bc.name)
		g_array_append_val(c, bc);
	return c;
}

static int kbuild(struct check_ctx *ctx, const char *config, GPtrArray *targets,
		  const char *extra, GString *log, int *status)
{
	char *kb = g_build_filename(ctx->kernel_dir, "kbuild", NULL);
	GPtrArray *argv = g_ptr_array_new();
	struct run_opts o = { .capture_out = true, .merge_err = true,
			      .timeout = 3 * 3600 };
	struct run_result res;
	char *logfile = g_strdup_printf("%s/kbuild-%s.tmp.log", ctx->logdir, config);

	g_ptr_array_add(argv, kb);
	/* make's lines on our pipe feed the status line on a terminal */
	if (progress_active())
		g_ptr_array_add(argv, (char *)"-v");
	g_ptr_array_add(argv, (char *)"--log");
	g_ptr_array_add(argv, logfile);
	g_ptr_array_add(argv, (char *)config);
	g_ptr_array_add(argv, ctx->wt);
	if (extra)
		g_ptr_array_add(argv, (char *)extra);
	for (guint i = 0; i < targets->len; i++)
		g_ptr_array_add(argv, targets->pdata[i]);
	g_ptr_array_add(argv, NULL);
	if (ctx->verbose)
		fprintf(stderr, "kseries: building %s (%u targets)\n", config,
			targets->len);
	if (run_argv((const char *const *)argv->pdata, &o, &res) < 0) {
		g_ptr_array_unref(argv);
		g_free(kb);
		g_free(logfile);
		return -1;
	}
	/* with -v, what kbuild logged also came down the pipe: keep it once */
	if (!progress_active()) {
		char *buf;
		size_t len;

		if (read_file(logfile, 256u << 20, &buf, &len) == 0) {
			g_string_append_len(log, buf, (gssize)len);
			g_free(buf);
		}
	}
	unlink(logfile);
	g_string_append(log, res.out->str);
	*status = res.status;
	run_result_release(&res);
	g_ptr_array_unref(argv);
	g_free(kb);
	g_free(logfile);
	return 0;
}

/* Builds the KUnit kernel of kernel/NAME.kunitconfig at the checkout. */
static int kunit_build(struct check_ctx *ctx, const char *name, GString *log,
		       int *status)
{
	char *kr = g_build_filename(ctx->kernel_dir, "kunit-run", NULL);
	char *file = g_strconcat(name, ".kunitconfig", NULL);
	char *kc = g_build_filename(ctx->kernel_dir, file, NULL);
	const char *argv[] = { kr, "--build-only", kc, ctx->wt, NULL };
	struct run_opts o = { .capture_out = true, .merge_err = true,
			      .timeout = 3 * 3600 };
	struct run_result res;
	int ret = run_argv(argv, &o, &res);

	if (ret == 0) {
		g_string_append(log, res.out->str);
		*status = res.status;
		run_result_release(&res);
	}
	g_free(kr);
	g_free(file);
	g_free(kc);
	return ret < 0 ? -1 : 0;
}

/* A failed build's compiler errors, and the patch it failed at. */
static void build_failed(struct check_ctx *ctx, struct stage_result *r,
			 const char *config, const char *output,
			 const char *patch, int n)
{
	struct stage_result tmp;
	char *msg;

	stage_result_init(&tmp, "build");
	parse_compiler_lines(ctx, &tmp, "build", output);
	for (guint k = 0; k < tmp.findings->len; k++) {
		struct finding *f = tmp.findings->pdata[k];

		if (!strcmp(f->severity, "error"))
			finding_add(r, "build", f->file, f->line, "error",
				    f->message, n);
	}
	stage_result_release(&tmp);
	msg = g_strdup_printf("%s: the build fails after this patch", config);
	finding_add(r, "build", patch, 0, "error", msg, n);
	g_free(msg);
}

static void stage_build(struct check_ctx *ctx, struct stage_result *r)
{
	GArray *configs = configs_for(ctx);
	GString *log = g_string_new(NULL), *names = g_string_new(NULL);
	unsigned builds = 0, failed = 0;

	if (!configs->len) {
		skip(r, "the series touches no kernel object this workbench builds");
		goto out;
	}
	if (!has_script(ctx, ctx->kernel_dir, "kbuild") ||
	    !has_script(ctx, ctx->kernel_dir, "kunit-run")) {
		fail(r, "kernel/kbuild or kernel/kunit-run is missing");
		goto out;
	}
	for (guint c = 0; c < configs->len && r->status != ST_FAIL; c++) {
		const struct build_config *bc =
			&g_array_index(configs, struct build_config, c);
		GPtrArray *targets =
			bc->kunit ? NULL : build_targets(ctx, bc->name);

		g_string_append_printf(names, "%s%s", c ? ", " : "", bc->name);
		for (guint i = 0; i < ctx->commits->len; i++) {
			int status = 0;
			GString *one = g_string_new(NULL);
			char *base = g_path_get_basename(ctx->files->pdata[i]);
			int ran = check_checkout(ctx, ctx->commits->pdata[i]);

			if (ran == 0)
				ran = bc->kunit ?
				      kunit_build(ctx, bc->name, one, &status) :
				      kbuild(ctx, bc->name, targets, NULL, one, &status);
			if (ran < 0) {
				fail(r, "cannot run the %s build at %s", bc->name, base);
				g_string_free(one, TRUE);
				g_free(base);
				break;
			}
			builds++;
			g_string_append_printf(log, "== %s %s (exit %d)\n%s", bc->name,
					       base, status, one->str);
			if (status) {
				failed++;
				build_failed(ctx, r, bc->name, one->str, base, (int)i + 1);
			}
			g_string_free(one, TRUE);
			g_free(base);
		}
		if (targets)
			g_ptr_array_unref(targets);
	}
	if (r->status == ST_FAIL)
		;	/* fail() said why */
	else if (failed)
		set_summary(r, "%u of %u builds fail (%s; every patch)", failed,
			    builds, names->str);
	else
		set_summary(r, "%u builds (%s; every patch)", builds, names->str);
out:
	save_log(ctx, r, log->str, log->len);
	g_string_free(log, TRUE);
	g_string_free(names, TRUE);
	g_array_unref(configs);
}

/* ---- sparse: new warnings only, through kernel/sparse-check ---- */

/*
 * kernel/sparse-check exits 0 (no warning) or 1 (warnings on stdout) when
 * sparse ran; 2 when it did not (missing, too old: the tree would skip it
 * silently), 3 when the build failed.
 */
static int sparse_run(struct check_ctx *ctx, GPtrArray *targets,
		      struct stage_result *into, GString *log)
{
	char *sc = g_build_filename(ctx->kernel_dir, "sparse-check", NULL);
	GPtrArray *argv = g_ptr_array_new();
	struct run_opts o = { .capture_out = true, .capture_err = true,
			      .timeout = 3 * 3600 };
	struct run_result res;
	int status = -1;

	g_ptr_array_add(argv, sc);
	/*
	 * sparse 0.6.5 lives in the sid chroot (chroot-run provisions it on
	 * first use); bookworm's 0.6.4 is too old for 7.2, and the tree would
	 * skip it: KSERIES_SPARSE_HOST=1 is for a host that has a newer one.
	 */
	if (getenv("KSERIES_SPARSE_HOST"))
		g_ptr_array_add(argv, (char *)"--host");
	else
		g_ptr_array_add(argv, (char *)"--sid");
	g_ptr_array_add(argv, (char *)"c-binder");
	g_ptr_array_add(argv, ctx->wt);
	for (guint i = 0; i < targets->len; i++)
		g_ptr_array_add(argv, targets->pdata[i]);
	g_ptr_array_add(argv, NULL);
	if (run_argv((const char *const *)argv->pdata, &o, &res) == 0) {
		status = res.status;
		g_string_append_printf(log, "(exit %d)\n%s%s", res.status,
				       res.out->str, res.err->str);
		if (status == 0 || status == 1)
			parse_compiler_lines(ctx, into, "sparse", res.out->str);
		run_result_release(&res);
	}
	g_ptr_array_unref(argv);
	g_free(sc);
	return status;
}

static void stage_sparse(struct check_ctx *ctx, struct stage_result *r)
{
	GPtrArray *all = build_targets(ctx, "c-binder");
	GPtrArray *targets = g_ptr_array_new();
	GString *log = g_string_new(NULL);
	struct stage_result before;
	int st;

	stage_result_init(&before, "sparse");
	for (guint i = 0; i < all->len; i++)
		if (g_str_has_suffix(all->pdata[i], ".o"))
			g_ptr_array_add(targets, all->pdata[i]);
	if (!targets->len) {
		skip(r, "no C object touched");
		goto out;
	}
	if (!has_script(ctx, ctx->kernel_dir, "sparse-check")) {
		fail(r, "kernel/sparse-check is missing");
		goto out;
	}
	g_string_append(log, "== base\n");
	if (check_checkout(ctx, ctx->base) < 0) {
		fail(r, "cannot check out the base");
		goto out;
	}
	st = sparse_run(ctx, targets, &before, log);
	if (st == 2) {
		/* never a silent pass: said, and checked again next time */
		tool_missing(r, "sparse",
			     "sparse did not run: not available or not up to date (0.6.5 is in the sid chroot: kernel/provision-toolchain)");
		goto out;
	} else if (st != 0 && st != 1) {
		fail(r, "sparse on the base failed (exit %d, see log)", st);
		goto out;
	}
	g_string_append(log, "\n== series\n");
	if (check_checkout(ctx, ctx->tip) < 0) {
		fail(r, "cannot check out the series");
		goto out;
	}
	st = sparse_run(ctx, targets, r, log);
	if (st != 0 && st != 1) {
		fail(r, st == 3 ? "the build failed under sparse (see log)" :
			 "sparse on the series failed (exit %d, see log)", st);
		goto out;
	}
	keep_new(r, &before);
	/* a new sparse warning is a defect the series adds: the stage fails */
	if (r->findings->len)
		fail(r, "%u new sparse warnings (C=2 on %u objects; %u before)",
		     r->findings->len, targets->len, before.findings->len);
	else
		set_summary(r, "C=2 on %u objects: %u warnings before, none new",
			    targets->len, before.findings->len);
out:
	save_log(ctx, r, log->str, log->len);
	stage_result_release(&before);
	g_string_free(log, TRUE);
	g_ptr_array_unref(targets);
	g_ptr_array_unref(all);
}

/* ---- cocci: the project's rules, new findings only ---- */

static int run_cocci(struct check_ctx *ctx, GPtrArray *cfiles,
		     struct stage_result *r, GString *log)
{
	char *runner = script(ctx, ctx->cocci_dir, "run-sleep-check");
	GPtrArray *argv = g_ptr_array_new_with_free_func(g_free);
	struct run_opts o = { .dir = ctx->wt, .capture_out = true,
			      .capture_err = true, .timeout = 1800 };
	struct run_result res;
	int ret = 0;

	g_ptr_array_add(argv, runner);
	/*
	 * The facts of the touched files' directories (cached by content: the
	 * base's are reused for the series, only the files it changes are
	 * read again): a sleeper in another file is seen, with its chain.
	 * KSERIES_COCCI_SCOPE widens it (cocci/README.md).
	 */
	g_ptr_array_add(argv, g_strdup("--tree"));
	g_ptr_array_add(argv, g_strdup("."));
	g_ptr_array_add(argv, g_strdup("--cache"));
	g_ptr_array_add(argv, g_build_filename(cache_dir(), "cocci-facts", NULL));
	for (guint i = 0; i < cfiles->len; i++) {
		char *dir = g_path_get_dirname(cfiles->pdata[i]);

		g_ptr_array_add(argv, g_strdup("--scope"));
		g_ptr_array_add(argv, dir);
	}
	for (guint i = 0; i < cfiles->len; i++)
		g_ptr_array_add(argv, g_strdup(cfiles->pdata[i]));
	g_ptr_array_add(argv, NULL);
	if (run_argv((const char *const *)argv->pdata, &o, &res) < 0) {
		g_ptr_array_unref(argv);
		return -1;
	}
	g_string_append_printf(log, "(exit %d)\n%s%s", res.status, res.out->str,
			       res.err->str);
	if (res.status > 1)
		ret = -1;
	else
		parse_compiler_lines(ctx, r, "cocci", res.out->str);
	run_result_release(&res);
	g_ptr_array_unref(argv);
	return ret;
}

static void stage_cocci(struct check_ctx *ctx, struct stage_result *r)
{
	GPtrArray *cfiles = touched_with_suffix(ctx, ".c", NULL);
	GString *log = g_string_new(NULL);
	struct stage_result before;
	char *runner = script(ctx, ctx->cocci_dir, "run-sleep-check");

	stage_result_init(&before, "cocci");
	for (guint i = 0; i < cfiles->len; i++)
		if (g_str_has_prefix(cfiles->pdata[i], "tools/"))
			g_ptr_array_remove_index(cfiles, i--);
	if (!cfiles->len) {
		skip(r, "no kernel C file touched");
		goto out;
	}
	if (!runner) {
		fail(r, "cocci/run-sleep-check is missing");
		goto out;
	}
	g_string_append(log, "== base\n");
	if (check_checkout(ctx, ctx->base) < 0 ||
	    run_cocci(ctx, cfiles, &before, log) < 0) {
		fail(r, "the Coccinelle rules failed on the base (see log)");
		goto out;
	}
	g_string_append(log, "== series\n");
	if (check_checkout(ctx, ctx->tip) < 0 ||
	    run_cocci(ctx, cfiles, r, log) < 0) {
		fail(r, "the Coccinelle rules failed on the series (see log)");
		goto out;
	}
	keep_new(r, &before);
	for (guint i = 0; i < r->findings->len; i++) {
		struct finding *f = r->findings->pdata[i];

		g_free(f->severity);
		f->severity = g_strdup("error");
	}
	set_summary(r, "sleep-under-spinlock rules on %u files", cfiles->len);
out:
	save_log(ctx, r, log->str, log->len);
	stage_result_release(&before);
	g_string_free(log, TRUE);
	g_ptr_array_unref(cfiles);
	g_free(runner);
}

/* ---- rust: build, rustfmtcheck, clippy ---- */

/* rustc and clippy diagnostics: "warning: …" then "--> file:line:col" */
static void parse_rustc(struct check_ctx *ctx, const char *text,
			struct stage_result *into)
{
	char **lines = g_strsplit(text, "\n", -1);
	const char *msg = NULL, *sev = NULL;

	for (char **l = lines; *l; l++) {
		char *t = g_strstrip(g_strdup(*l));

		if (g_str_has_prefix(t, "warning: ") || g_str_has_prefix(t, "error: ")) {
			sev = t[0] == 'w' ? "warning" : "error";
			msg = *l + (strstr(*l, ": ") - *l) + 2;
		} else if (g_str_has_prefix(t, "--> ") && msg) {
			char *file = g_strdup(t + 4);
			char *c = strchr(file, ':');
			int line = c ? atoi(c + 1) : 0;

			if (c)
				*c = '\0';
			finding_add(into, "clippy", tree_relative(ctx, file), line,
				    sev, msg, 0);
			g_free(file);
			msg = NULL;
		}
		g_free(t);
	}
	g_strfreev(lines);
}

/*
 * rustfmtcheck's "Diff in FILE:N:" lines (rustfmt 1.5 and later; older
 * ones wrote "Diff in FILE at line N:").
 */
static void parse_rustfmt(struct check_ctx *ctx, const char *text,
			  struct stage_result *into)
{
	char **lines = g_strsplit(text, "\n", -1);

	for (char **l = lines; *l; l++) {
		char *file, *at, *end;
		long line;

		if (!g_str_has_prefix(*l, "Diff in "))
			continue;
		file = *l + 8;
		if ((at = strstr(file, " at line "))) {
			*at = '\0';
			line = strtol(at + 9, NULL, 10);
		} else if ((at = strrchr(file, ':')) && at > file) {
			/* FILE:N: ends in a colon: the number is before it */
			*at = '\0';
			at = strrchr(file, ':');
			if (!at)
				continue;
			line = strtol(at + 1, &end, 10);
			if (end == at + 1 || *end)
				continue;
			*at = '\0';
		} else {
			continue;
		}
		file = (char *)tree_relative(ctx, file);
		/* a module file is reported again under its crate root */
		for (guint i = 0; i < into->findings->len && file; i++) {
			const struct finding *f = into->findings->pdata[i];

			if (!strcmp(f->tool, "rustfmt") && f->line == line &&
			    !strcmp(f->file, file))
				file = NULL;
		}
		if (file)
			finding_add(into, "rustfmt", file, (int)line, "error",
				    "not formatted as rustfmt would", 0);
	}
	g_strfreev(lines);
}

/*
 * The Rust build with clippy and rustfmtcheck at rev, findings into into.
 * Returns 0, or -1 when the build or rustfmtcheck could not be run; sets
 * *build_failed / *fmt_failed from their exit status.
 */
static int rust_run(struct check_ctx *ctx, const char *rev,
		    struct stage_result *into, GString *log,
		    bool *build_failed, bool *fmt_failed)
{
	GPtrArray *targets = g_ptr_array_new_with_free_func(g_free);
	GString *one = g_string_new(NULL);
	int status = 0, ret = -1;

	if (check_checkout(ctx, rev) < 0)
		goto out;
	g_ptr_array_add(targets, g_strdup("drivers/android/binder/"));
	g_string_append(log, "== build (CLIPPY=1)\n");
	if (kbuild(ctx, "rust-binder", targets, "CLIPPY=1", one, &status) < 0)
		goto out;
	*build_failed = status != 0;
	parse_rustc(ctx, one->str, into);
	g_string_append(log, one->str);
	g_string_truncate(one, 0);
	g_string_append(log, "\n== rustfmtcheck\n");
	g_ptr_array_set_size(targets, 0);
	g_ptr_array_add(targets, g_strdup("rustfmtcheck"));
	if (kbuild(ctx, "rust-binder", targets, NULL, one, &status) < 0)
		goto out;
	*fmt_failed = status != 0;
	parse_rustfmt(ctx, one->str, into);
	g_string_append(log, one->str);
	ret = 0;
out:
	g_string_free(one, TRUE);
	g_ptr_array_unref(targets);
	return ret;
}

/*
 * rust: the Rust binder built with CLIPPY=1 and rustfmtcheck, on the base
 * and on the series; the series' new findings only, as for sparse.
 */
static void stage_rust(struct check_ctx *ctx, struct stage_result *r)
{
	GPtrArray *rs = touched_with_suffix(ctx, ".rs", NULL);
	GString *log = g_string_new(NULL);
	struct stage_result before;
	bool base_build = false, base_fmt = false, build = false, fmt = false;

	stage_result_init(&before, "rust");
	if (!rs->len) {
		skip(r, "no Rust file touched");
		goto out;
	}
	g_string_append(log, "==== base\n");
	if (rust_run(ctx, ctx->base, &before, log, &base_build, &base_fmt) < 0) {
		fail(r, "cannot run the Rust build on the base (see log)");
		goto out;
	}
	if (base_build) {
		fail(r, "the Rust build fails on the base (see log)");
		goto out;
	}
	g_string_append(log, "\n==== series\n");
	if (rust_run(ctx, ctx->tip, r, log, &build, &fmt) < 0) {
		fail(r, "cannot run the Rust build (see log)");
		goto out;
	}
	keep_new(r, &before);
	if (build)
		finding_add(r, "rust", "drivers/android/binder/", 0, "error",
			    "the Rust build fails", 0);
	if (fmt && !base_fmt) {
		bool any = false;

		for (guint i = 0; i < r->findings->len; i++)
			any |= !strcmp(((struct finding *)r->findings->pdata[i])->tool,
				       "rustfmt");
		if (!any)
			finding_add(r, "rustfmt", "", 0, "error",
				    "rustfmtcheck failed", 0);
	}
	set_summary(r, "rust-binder: CLIPPY=1 build and rustfmtcheck, base and series: %u findings before, new ones only",
		    before.findings->len);
out:
	save_log(ctx, r, log->str, log->len);
	stage_result_release(&before);
	g_string_free(log, TRUE);
	g_ptr_array_unref(rs);
}

/* ---- kunit: the suites that cover the touched paths, under UML ---- */

/*
 * How many times the suites run: KSERIES_KUNIT_RUNS, else the version's
 * "version.N.kunit" (a series that must show a race gone asks for many
 * runs in a row), else once. NULL when the setting is not a count.
 */
const char *check_kunit_runs(const struct check_ctx *ctx)
{
	const char *runs = getenv("KSERIES_KUNIT_RUNS");
	char key[64];

	if (!runs || !*runs) {
		snprintf(key, sizeof(key), "version.%d.kunit", ctx->version);
		runs = series_get(ctx->s, key);
	}
	if (!runs || !*runs)
		return "1";
	if (strspn(runs, "0123456789") != strlen(runs) || strlen(runs) > 4 ||
	    atoi(runs) < 1)
		return NULL;
	return runs;
}

static void stage_kunit(struct check_ctx *ctx, struct stage_result *r)
{
	const char *name = kunit_config_for(ctx, false);
	const char *runs = check_kunit_runs(ctx);
	char *cfg = name ? g_strconcat(name, ".kunitconfig", NULL) : NULL;
	GString *log = g_string_new(NULL);

	if (!cfg) {
		skip(r, "no KUnit suite covers the touched paths");
		goto out;
	}
	if (!runs) {
		fail(r, "the KUnit run count (KSERIES_KUNIT_RUNS or version.%d.kunit) is not a number from 1 to 9999",
		     ctx->version);
		goto out;
	}
	if (!has_script(ctx, ctx->kernel_dir, "kunit-run")) {
		fail(r, "kernel/kunit-run is missing");
		goto out;
	}
	if (check_checkout(ctx, ctx->tip) < 0) {
		fail(r, "cannot check out the series");
		goto out;
	}
	{
		char *kr = g_build_filename(ctx->kernel_dir, "kunit-run", NULL);
		char *kc = g_build_filename(ctx->kernel_dir, cfg, NULL);
		const char *argv[] = { kr, "--runs", runs, kc, ctx->wt, NULL };
		struct run_opts o = { .capture_out = true, .capture_err = true,
				      .timeout = 3 * 3600 };
		struct run_result res;

		if (run_argv(argv, &o, &res) < 0) {
			fail(r, "cannot run kernel/kunit-run");
		} else {
			char **lines = g_strsplit(res.out->str, "\n", -1);
			int runs_n = 0, bad = 0;

			g_string_append_printf(log, "(exit %d)\n%s%s", res.status,
					       res.out->str, res.err->str);
			for (char **l = lines; *l; l++) {
				char *colon;

				if (!g_str_has_prefix(*l, "run "))
					continue;
				runs_n++;
				colon = strstr(*l, ": ");
				if (!colon || g_str_has_prefix(colon + 2, "pass"))
					continue;
				bad++;
				{
					char *end = strstr(colon + 2, "  log: ");

					if (end)
						*end = '\0';
					finding_add(r, "kunit", cfg, 0, "error", *l, 0);
				}
			}
			g_strfreev(lines);
			if (res.status == 3)
				fail(r, "the KUnit kernel does not build (see log)");
			else if (res.status && !bad)
				fail(r, "kunit-run failed (exit %d, see log)", res.status);
			else
				set_summary(r, "%s: %d of %d runs clean (UML, lockdep, atomic-sleep)",
					    cfg, runs_n - bad, runs_n);
			run_result_release(&res);
		}
		g_free(kr);
		g_free(kc);
	}
out:
	save_log(ctx, r, log->str, log->len);
	g_string_free(log, TRUE);
	g_free(cfg);
}

/* ---- model: the series' protocol model, checked exhaustively ---- */

static void stage_model(struct check_ctx *ctx, struct stage_result *r)
{
	char key[64];
	const char *arg;
	char *chk = g_build_filename(ctx->s->dir, "model", "check", NULL);

	snprintf(key, sizeof(key), "version.%d.model", ctx->version);
	arg = series_get(ctx->s, key);
	if (!arg || !g_file_test(chk, G_FILE_TEST_IS_EXECUTABLE)) {
		skip(r, "no model for this version (series/NAME/model/check and version.N.model)");
	} else {
		const char *argv[] = { chk, arg, NULL };
		char *mdir = g_build_filename(ctx->s->dir, "model", NULL);
		struct run_opts o = { .dir = mdir, .capture_out = true,
				      .merge_err = true, .timeout = 3600 };
		struct run_result res;

		if (run_argv(argv, &o, &res) < 0) {
			fail(r, "cannot run the model checker");
		} else {
			save_log(ctx, r, res.out->str, res.out->len);
			if (res.status == 1) {
				char **lines = g_strsplit(res.out->str, "\n", -1);
				const char *first = NULL;

				/* spin names the failed assertion, or the cycle */
				for (char **l = lines; *l && !first; l++)
					if (strstr(*l, "text of failed assertion") ||
					    strstr(*l, "acceptance cycle") ||
					    strstr(*l, "non-progress cycle"))
						first = *l;
				for (char **l = lines; *l && !first; l++)
					if (strstr(*l, "violated"))
						first = *l;
				finding_add(r, "model", "model/binder_alloc.pml", 0, "error",
					    first ? first : "the model finds a violation (trace in the log)",
					    0);
				set_summary(r, "spin %s: counterexample found (trace: %s)",
					    arg, r->log ? r->log : "log");
				g_strfreev(lines);
			} else if (res.status) {
				fail(r, "model/check %s failed (exit %d)", arg, res.status);
			} else {
				set_summary(r, "spin %s: safety and liveness verified exhaustively",
					    arg);
			}
			run_result_release(&res);
		}
		g_free(mdir);
	}
	g_free(chk);
}

/* ---- script stages: kunit, model, vm, perf ---- */

/*
 * A stage script prints findings in compiler form on stdout and exits 0
 * (pass, or warn when it printed warnings), 1 (fail), 77 (not applicable:
 * the last line of stderr says why); anything else is a failure of the
 * stage itself.
 */
static void run_stage_script(struct check_ctx *ctx, struct stage_result *r,
			     const char *path, const char *arg)
{
	char *bdir = g_strdup_printf("KSERIES_BASE=%s", ctx->base);
	char *tdir = g_strdup_printf("KSERIES_TIP=%s", ctx->tip);
	char *wt = g_strdup_printf("KSERIES_TREE=%s", ctx->tree);
	char *ld = g_strdup_printf("KSERIES_LOGDIR=%s", ctx->logdir);
	char *sd = g_strdup_printf("KSERIES_SERIES_DIR=%s", ctx->s->dir);
	char *vv = g_strdup_printf("KSERIES_VERSION=%d", ctx->version);
	const char *env[] = { bdir, tdir, wt, ld, sd, vv, NULL };
	const char *argv[] = { path, arg, NULL };
	struct run_opts o = { .env = env, .capture_out = true,
			      .capture_err = true, .timeout = 3 * 3600 };
	struct run_result res;

	if (run_argv(argv, &o, &res) < 0) {
		fail(r, "cannot run '%s'", path);
		goto out;
	}
	{
		GString *log = g_string_new(res.out->str);

		g_string_append(log, res.err->str);
		save_log(ctx, r, log->str, log->len);
		g_string_free(log, TRUE);
	}
	if (res.status == 77) {
		char **lines = g_strsplit(g_strchomp(res.err->str), "\n", -1);
		guint n = g_strv_length(lines);

		skip(r, n ? lines[n - 1] : "not applicable");
		g_strfreev(lines);
	} else {
		parse_compiler_lines(ctx, r, r->name, res.out->str);
		if (res.status == 1 && !r->findings->len) {
			char **lines = g_strsplit(g_strchomp(res.err->str), "\n", -1);
			guint n = g_strv_length(lines);

			finding_add(r, r->name, "", 0, "error",
				    n ? lines[n - 1] : "the stage failed", 0);
			g_strfreev(lines);
		}
		if (res.status > 1) {
			fail(r, "'%s' failed (exit %d)", path, res.status);
		} else {
			char **lines = g_strsplit(g_strchomp(res.out->str), "\n", -1);
			guint n = g_strv_length(lines);

			/* the last line that is not a finding summarizes */
			set_summary(r, "%s", n ? lines[n - 1] : "done");
			g_strfreev(lines);
		}
	}
	run_result_release(&res);
out:
	g_free(bdir);
	g_free(tdir);
	g_free(wt);
	g_free(ld);
	g_free(sd);
	g_free(vv);
}

/*
 * Stages that belong to a series: series/<name>/check/<stage> (an
 * executable) or the version's "version.N.<stage>" argument for it.
 * Kernel-wide stages come from kernel/stage-<name>.
 */
static void stage_script(struct check_ctx *ctx, struct stage_result *r)
{
	char *sdir = g_build_filename(ctx->s->dir, "check", NULL);
	char *path = script(ctx, sdir, r->name);
	char key[64];
	const char *arg;

	snprintf(key, sizeof(key), "version.%d.%s", ctx->version, r->name);
	arg = series_get(ctx->s, key);
	if (!path)
		path = script(ctx, ctx->kernel_dir,
			      !strcmp(r->name, "vm") ? "stage-vm" :
			      !strcmp(r->name, "perf") ? "stage-perf" : "-");
	if (!path) {
		char *why = g_strdup_printf("no %s test for this series (series/%s/check/%s)",
					    r->name, ctx->s->name, r->name);

		skip(r, why);
		g_free(why);
	} else {
		/*
		 * No checkout: a script builds base and series kernels in one
		 * run, so it keeps its own worktree (and build directory) and
		 * does not hold the check's worktree through minutes of VM.
		 */
		run_stage_script(ctx, r, path, arg);
	}
	g_free(path);
	g_free(sdir);
}

/* ---- feedback: comments from earlier versions still open ---- */

/*
 * The review given on earlier versions, carried to this one through the
 * pairing of feedback.h: a comment whose anchored lines did not change is
 * still open, and each is a warning here. Trailers are not work to do.
 */
static void stage_feedback(struct check_ctx *ctx, struct stage_result *r)
{
	GPtrArray *items = g_ptr_array_new_with_free_func(
		(GDestroyNotify)feedback_item_free);
	struct feedback_ctx *fc;
	int open = 0, total = 0;

	if (feedback_load(ctx->s, items) < 0) {
		fail(r, "cannot read the feedback records");
		g_ptr_array_unref(items);
		return;
	}
	fc = feedback_ctx_new(ctx->s);
	for (guint i = 0; i < items->len; i++) {
		const struct feedback_item *it = items->pdata[i];
		enum feedback_status st;
		int paired = -1;

		if (it->version >= ctx->version || !strcmp(it->kind, "trailer"))
			continue;
		total++;
		st = feedback_status_at(fc, it, ctx->version, &paired);
		if (st == FB_OPEN) {
			char *msg = g_strdup_printf("comment %s by %s on v%d still open",
						    it->id, it->from, it->version);

			finding_add(r, "feedback", it->file ? it->file : "",
				    it->file ? it->line : 0, "warning", msg,
				    paired > 0 ? paired : 0);
			g_free(msg);
			open++;
		}
	}
	feedback_ctx_free(fc);
	g_ptr_array_unref(items);
	set_summary(r, "%d of %d comments on earlier versions still open",
		    open, total);
}

/*
 * The stages, and what each reads besides the commits and kseries itself
 * (its cache key covers exactly these: check.h's CHECK_IN_*).
 */
static const struct {
	const char *name;
	void (*fn)(struct check_ctx *, struct stage_result *);
	unsigned inputs;
} stages[] = {
	{ "format", stage_format, CHECK_IN_MAILS | CHECK_IN_REVIEW },
	{ "provenance", stage_provenance, CHECK_IN_MAILS | CHECK_IN_SERIES },
	{ "checkpatch", stage_checkpatch, CHECK_IN_MAILS },
	{ "build", stage_build, CHECK_IN_KERNEL },
	{ "sparse", stage_sparse, CHECK_IN_KERNEL },
	{ "cocci", stage_cocci, CHECK_IN_COCCI },
	{ "rust", stage_rust, CHECK_IN_KERNEL },
	{ "kunit", stage_kunit, CHECK_IN_KERNEL },
	{ "model", stage_model, CHECK_IN_MODEL },
	{ "vm", stage_script, CHECK_IN_KERNEL | CHECK_IN_SCRIPTS },
	{ "perf", stage_script, CHECK_IN_KERNEL | CHECK_IN_SCRIPTS },
	{ "feedback", stage_feedback, CHECK_IN_MAILS | CHECK_IN_REVIEW },
	{ "mail", format_check, CHECK_IN_MAILS | CHECK_IN_REVIEW |
				CHECK_IN_MAINTAINERS },
};

/*
 * The programs a stage runs on this host (the kernel/ scripts run the
 * rest in the sid chroot they provision), looked up in PATH before the
 * stage starts; env names a variable that, when set, gives the command
 * instead (its first word is the program). Without one, the stage is
 * skipped with the reason and not cached (tool_missing()).
 */
static const struct stage_tool {
	const char *stage;
	const char *program;
	const char *env;
	const char *package;	/* Debian's */
} stage_tools[] = {
	{ "checkpatch", "perl", NULL, "perl" },
	{ "build", "make", NULL, "make" },
	{ "build", "gcc", NULL, "gcc" },
	{ "cocci", "python3", NULL, "python3" },
	{ "cocci", "spatch", "SPATCH", "coccinelle" },
	{ "kunit", "python3", NULL, "python3" },
	{ "kunit", "make", NULL, "make" },
	{ "kunit", "gcc", NULL, "gcc" },
};

/* True, or false with r skipped, when stage's tools are all installed. */
static bool have_stage_tools(const char *stage, struct stage_result *r)
{
	for (size_t i = 0; i < G_N_ELEMENTS(stage_tools); i++) {
		const struct stage_tool *t = &stage_tools[i];
		const char *env = t->env ? getenv(t->env) : NULL;
		char **words = NULL, *cmd, *why;
		bool found;

		if (strcmp(t->stage, stage))
			continue;
		if (env && *env) {
			cmd = g_strstrip(g_strdup(env));
			words = g_strsplit_set(cmd, " \t", 2);
			g_free(cmd);
		}
		found = have_program(words && words[0] ? words[0] : t->program);
		if (!found) {
			why = g_strdup_printf("%s is not installed (Debian package %s)%s%s",
					      words && words[0] ? words[0] : t->program,
					      t->package, words ? ", from $" : "",
					      words ? t->env : "");
			tool_missing(r, t->program, why);
			g_free(why);
		}
		g_strfreev(words);
		if (!found)
			return false;
	}
	return true;
}

unsigned check_stage_inputs(const char *name)
{
	for (size_t i = 0; i < G_N_ELEMENTS(stages); i++)
		if (!strcmp(stages[i].name, name))
			return stages[i].inputs;
	return 0;	/* apply: the commits alone */
}

void check_run_stage(struct check_ctx *ctx, const char *name,
		     struct stage_result *r)
{
	for (size_t i = 0; i < G_N_ELEMENTS(stages); i++) {
		if (strcmp(stages[i].name, name))
			continue;
		if (have_stage_tools(name, r))
			stages[i].fn(ctx, r);
		break;
	}
	if (r->status == ST_PASS) {
		for (guint i = 0; i < r->findings->len; i++) {
			const struct finding *f = r->findings->pdata[i];

			if (!strcmp(f->severity, "error")) {
				r->status = ST_FAIL;
				break;
			}
			r->status = ST_WARN;
		}
	}
}
