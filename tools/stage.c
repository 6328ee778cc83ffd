// SPDX-License-Identifier: GPL-2.0-only
/*
 * stage.c - what the stages of the check pipeline share: results and
 * findings, summaries and logs, the worktree and its lock, and the
 * parsers of compiler-form diagnostics.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/file.h>

#include "check.h"
#include "progress.h"
#include "run.h"
#include "stage.h"
#include "util.h"
#include "banned.h"

const char *stage_status_name(enum stage_status st)
{
	static const char *const names[] = { "pass", "warn", "fail", "skip" };

	return names[st];
}


static const char *const severity_names[] = {
	[SEV_NOTE] = "note", [SEV_CHECK] = "check",
	[SEV_WARNING] = "warning", [SEV_ERROR] = "error",
};

const char *severity_name(enum severity sev)
{
	return severity_names[sev];
}

int severity_parse(const char *name)
{
	for (size_t i = 0; name && i < G_N_ELEMENTS(severity_names); i++)
		if (!strcmp(name, severity_names[i]))
			return (int)i;
	return -1;
}

enum stage_status severity_status(enum severity sev)
{
	return sev == SEV_ERROR ? ST_FAIL : ST_WARN;
}

void stage_result_settle(struct stage_result *r)
{
	if (r->status != ST_PASS)
		return;
	for (guint i = 0; i < r->findings->len; i++) {
		const struct finding *f = r->findings->pdata[i];

		r->status = severity_status(f->sev);
		if (r->status == ST_FAIL)
			break;
	}
}
void stage_result_init(struct stage_result *r, const char *name)
{
	memset(r, 0, sizeof(*r));
	r->name = name;
	r->findings = g_ptr_array_new();
}

void finding_free(struct finding *f)
{
	g_free(f->tool);
	g_free(f->file);
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

static void finding_addv(struct stage_result *r, const char *tool,
			 struct finding_pos at, enum severity sev,
			 char *message)
{
	struct finding *f = g_new0(struct finding, 1);

	f->tool = g_strdup(tool);
	f->file = g_strdup(at.file ? at.file : "");
	f->line = at.line;
	f->sev = sev;
	f->message = g_strstrip(message);
	f->patch = at.patch;
	g_ptr_array_add(r->findings, f);
}

void stage_finding(struct stage_result *r, const char *tool,
		   struct finding_pos at, enum severity sev,
		   const char *fmt, ...)
{
	va_list ap;
	char *msg;

	va_start(ap, fmt);
	msg = g_strdup_vprintf(fmt, ap);
	va_end(ap);
	finding_addv(r, tool, at, sev, msg);
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
			"line", f->line, "severity", severity_name(f->sev),
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
		const char *msg = json_string_value(json_object_get(f, "message"));
		int sev = severity_parse(
			json_string_value(json_object_get(f, "severity")));

		if (!tool || sev < 0 || !msg)
			return -1;
		stage_finding(r, tool,
			      AT(json_string_value(json_object_get(f, "file")),
				 (int)json_integer_value(json_object_get(f, "line")),
				 (int)json_integer_value(json_object_get(f, "patch"))),
			      (enum severity)sev, "%s", msg);
	}
	return 0;
}

/* ---- what the stages share ---- */

void stage_summary(struct stage_result *r, const char *fmt, ...)
{
	va_list ap;

	g_free(r->summary);
	va_start(ap, fmt);
	r->summary = g_strdup_vprintf(fmt, ap);
	va_end(ap);
}

void stage_skip(struct stage_result *r, const char *why)
{
	r->status = ST_SKIP;
	stage_summary(r, "%s", why);
}

void stage_tool_missing(struct stage_result *r, const char *tool,
			const char *why)
{
	r->status = ST_SKIP;
	g_free(r->missing);
	r->missing = g_strdup(tool);
	stage_summary(r, "%s (not cached: the next check runs the stage again)",
		    why);
}

void stage_fail(struct stage_result *r, const char *fmt, ...)
{
	va_list ap;

	g_free(r->summary);
	va_start(ap, fmt);
	r->summary = g_strdup_vprintf(fmt, ap);
	va_end(ap);
	r->status = ST_FAIL;
}

bool stage_need_tools(struct stage_result *r, const struct stage_tool *tools,
		      size_t n)
{
	for (size_t i = 0; i < n; i++) {
		const struct stage_tool *t = &tools[i];
		const char *env = t->env ? getenv(t->env) : NULL;
		char **words = NULL, *cmd, *why;
		bool found;

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
			stage_tool_missing(r, t->program, why);
			g_free(why);
		}
		g_strfreev(words);
		if (!found)
			return false;
	}
	return true;
}

const char *stage_save_log(struct check_ctx *ctx, struct stage_result *r,
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

char *stage_script(const char *dir, const char *name)
{
	char *p = g_build_filename(dir, name, NULL);

	if (!g_file_test(p, G_FILE_TEST_IS_EXECUTABLE)) {
		g_free(p);
		return NULL;
	}
	return p;
}

bool stage_has_script(const char *dir, const char *name)
{
	char *p = stage_script(dir, name);
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

void stage_release_worktree(struct check_ctx *ctx)
{
	if (ctx->wt_lock >= 0)
		close(ctx->wt_lock);
	ctx->wt_lock = -1;
}

int stage_checkout(struct check_ctx *ctx, const char *rev)
{
	if (lock_worktree(ctx) < 0)
		return -1;
	if (ctx->on_checkout)
		ctx->on_checkout(ctx, rev);
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
const char *stage_tree_relative(const struct check_ctx *ctx, const char *path)
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
int stage_parse_compiler_lines(const struct check_ctx *ctx,
			       struct stage_result *r, const char *tool,
			       const char *text)
{
	char **lines = g_strsplit(text, "\n", -1);
	int n = 0;

	for (char **l = lines; *l; l++) {
		char *p = *l, *colon, *end;
		const char *file, *msg;
		int sev = -1;
		long line;

		colon = strchr(p, ':');
		if (!colon || colon == p)
			continue;
		line = strtol(colon + 1, &end, 10);
		if (end == colon + 1 || *end != ':')
			continue;
		*colon = '\0';
		file = stage_tree_relative(ctx, p);
		p = end + 1;
		/* an optional column */
		strtol(p, &end, 10);
		if (end != p && *end == ':')
			p = end + 1;
		while (*p == ' ')
			p++;
		msg = p;
		if (g_str_has_prefix(p, "error: ") || g_str_has_prefix(p, "fatal error: "))
			sev = SEV_ERROR;
		else if (g_str_has_prefix(p, "warning: "))
			sev = SEV_WARNING;
		if (sev >= 0)
			msg = strchr(p, ':') + 2;
		else
			sev = SEV_WARNING;
		stage_finding(r, tool, AT(file, (int)line, 0),
			      (enum severity)sev, "%s", msg);
		n++;
	}
	g_strfreev(lines);
	return n;
}

void stage_keep_new(struct stage_result *after, struct stage_result *before)
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

GPtrArray *stage_touched_with_suffix(const struct check_ctx *ctx,
				     const char *suffix, const char *prefix)
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

