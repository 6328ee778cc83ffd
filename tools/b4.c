// SPDX-License-Identifier: GPL-2.0-only
/*
 * b4 prep branches and b4 send: see b4.h.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <jansson.h>

#include "apply.h"
#include "b4.h"
#include "format.h"
#include "ident.h"
#include "posting.h"
#include "run.h"
#include "series.h"
#include "util.h"
#include "workbench.h"
#include "banned.h"

#define B4_MARKER "--- b4-submit-tracking ---"

static int run_in(const char *dir, const char *const *env,
		  const char *const *argv, char **out)
{
	struct run_opts o = { .dir = dir, .env = env, .timeout = 600 };

	return run_capture_opts(&o, argv, out, NULL);
}

void b4_branch_init(struct b4_branch *b)
{
	memset(b, 0, sizeof(*b));
}

void b4_branch_release(struct b4_branch *b)
{
	series_release(&b->series);
	g_free(b->worktree);
	g_free(b->name);
	g_free(b->branch);
	g_free(b->base);
	g_free(b->change_id);
	b4_branch_init(b);
}

bool b4_branch_name_ok(const char *name)
{
	return safe_component(name) && !strchr(name, ' ');
}

/* b4 prefixes: the words of series.prefix other than PATCH. */
static json_t *b4_prefixes(const char *prefix)
{
	json_t *a = json_array();
	char **w = g_strsplit(prefix ? prefix : "", " ", -1);

	for (char **p = w; *p; p++)
		if (**p && g_ascii_strcasecmp(*p, "PATCH"))
			json_array_append_new(a, json_string(*p));
	g_strfreev(w);
	return a;
}

/*
 * The sender as b4 and git see it: user.name/user.email given on the
 * command line (GIT_CONFIG_*, above any local config), the committer;
 * and, with editor, core.editor. NULL-terminated, new.
 */
static GPtrArray *sender_env(const struct ident *id, const char *editor)
{
	GPtrArray *e = g_ptr_array_new_with_free_func(g_free);

	g_ptr_array_add(e, g_strdup_printf("GIT_CONFIG_COUNT=%d",
					   editor ? 3 : 2));
	g_ptr_array_add(e, g_strdup("GIT_CONFIG_KEY_0=user.name"));
	g_ptr_array_add(e, g_strdup_printf("GIT_CONFIG_VALUE_0=%s", id->name));
	g_ptr_array_add(e, g_strdup("GIT_CONFIG_KEY_1=user.email"));
	g_ptr_array_add(e, g_strdup_printf("GIT_CONFIG_VALUE_1=%s", id->email));
	if (editor) {
		g_ptr_array_add(e, g_strdup("GIT_CONFIG_KEY_2=core.editor"));
		g_ptr_array_add(e, g_strdup_printf("GIT_CONFIG_VALUE_2=%s",
						   editor));
	}
	g_ptr_array_add(e, g_strdup_printf("GIT_COMMITTER_NAME=%s", id->name));
	g_ptr_array_add(e, g_strdup_printf("GIT_COMMITTER_EMAIL=%s", id->email));
	g_ptr_array_add(e, NULL);
	return e;
}

#define ENV(a) ((const char *const *)(a)->pdata)

/*
 * The tracking data of a cover commit message (the JSON after b4's
 * marker), or NULL; *marker gets where the marker starts.
 */
static json_t *tracking_parse(const char *msg, const char **marker,
			      json_error_t *jerr)
{
	const char *m = strstr(msg, B4_MARKER);
	const char *brace = m ? strchr(m, '{') : NULL;

	*marker = m;
	if (!brace) {
		jerr->text[0] = '\0';
		return NULL;
	}
	return json_loads(brace, JSON_DISABLE_EOF_CHECK, jerr);
}

/* Rewrites the tracking data of the cover commit at HEAD. */
static int set_tracking(const char *wt, const struct formatted *f,
			const GPtrArray *env)
{
	const char *show[] = { "git", "log", "-1", "--format=%B", "HEAD",
			       NULL };
	char *msg = NULL, *dump = NULL, *path = NULL;
	const char *marker;
	json_t *j = NULL, *series;
	json_error_t jerr;
	GString *nm = NULL;
	int ret = -1;

	if (run_in(wt, NULL, show, &msg) < 0)
		return -1;
	j = tracking_parse(msg, &marker, &jerr);
	if (!marker) {
		error("b4's cover commit has no tracking data");
		goto out;
	}
	series = j ? json_object_get(j, "series") : NULL;
	if (!json_is_object(series)) {
		error("cannot read b4's tracking data: %s", jerr.text);
		goto out;
	}
	if (f->change_id)
		json_object_set_new(series, "change-id",
				    json_string(f->change_id));
	json_object_set_new(series, "revision", json_integer(f->version));
	json_object_set_new(series, "prefixes", b4_prefixes(f->prefix));
	dump = json_dumps(j, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
	nm = g_string_new_len(msg, marker - msg);
	g_string_append_printf(nm, "%s\n# This section is used internally by "
			       "b4 prep for tracking purposes.\n%s\n",
			       B4_MARKER, dump);
	path = g_build_filename(wt, ".git-kseries-cover-msg", NULL);
	{
		const char *amend[] = { "git", "commit", "--amend", "--quiet",
					"--allow-empty", "--no-verify", "-F",
					path, NULL };

		if (write_file_atomic(path, nm->str, nm->len) == 0)
			ret = run_in(wt, ENV(env), amend, NULL);
	}
	unlink(path);
out:
	if (j)
		json_decref(j);
	free(dump);
	if (nm)
		g_string_free(nm, TRUE);
	g_free(path);
	g_free(msg);
	return ret;
}

static char *cover_text(const struct formatted *f)
{
	GString *c = g_string_new(NULL);

	g_string_append_printf(c, "%s\n\n", f->title ? f->title : "");
	if (f->blurb && *f->blurb)
		g_string_append_printf(c, "%s\n\n", f->blurb);
	for (guint i = 0; i < f->to->len; i++)
		g_string_append_printf(c, "To: %s\n", (char *)f->to->pdata[i]);
	for (guint i = 0; i < f->cc->len; i++)
		g_string_append_printf(c, "Cc: %s\n", (char *)f->cc->pdata[i]);
	return g_string_free(c, FALSE);
}

/* The worktree wt of repo, clean and detached at base. */
static int worktree_at(const char *repo, const char *wt, const char *base)
{
	const char *add[] = { "git", "worktree", "add", "--detach", "--quiet",
			      wt, base, NULL };
	const char *st[] = { "git", "status", "--porcelain",
			     "--untracked-files=no", NULL };
	const char *co[] = { "git", "checkout", "--quiet", "--detach", base,
			     NULL };
	char *status = NULL;
	bool dirty;

	if (!is_dir(wt))
		return run_in(repo, NULL, add, NULL);
	if (run_in(wt, NULL, st, &status) < 0)
		return -1;
	dirty = *g_strstrip(status) != '\0';
	g_free(status);
	if (dirty)
		return error("worktree '%s' has uncommitted changes", wt);
	return run_in(wt, NULL, co, NULL);
}

/* Deletes branch when it exists and force is set; else refuses it. */
static int branch_clear(const char *wt, const char *branch, bool force)
{
	const char *del[] = { "git", "branch", "-D", "--quiet", branch, NULL };
	char *ref = g_strdup_printf("refs/heads/%s", branch);
	char *have = resolve_commit(wt, ref);
	bool exists = have != NULL;

	g_free(have);
	g_free(ref);
	if (!exists)
		return 0;
	if (!force)
		return error("branch '%s' exists (use --force to replace it)",
			     branch);
	return run_in(wt, NULL, del, NULL);
}

/*
 * 1. b4's branch and cover commit; b4 wants the fork point on the current
 * branch, so a branch of ours at the base goes first.
 */
static int prep_new(const struct b4_branch *b, const GPtrArray *env)
{
	char *start = g_strdup_printf("kseries/b4-base-%s", b->name);
	const char *co[] = { "git", "checkout", "--quiet", "-B", start,
			     b->base, NULL };
	const char *prep[] = { "b4", "--offline-mode", "prep", "-n", b->name,
			       "-f", b->base, NULL };
	int r = run_in(b->worktree, NULL, co, NULL);

	g_free(start);
	if (r < 0)
		return -1;
	return run_in(b->worktree, ENV(env), prep, NULL);
}

/* 3. the patches (not the cover) of f, as written in tmp, by git am. */
static int am_patches(const char *wt, const struct formatted *f,
		      const char *tmp, const GPtrArray *env)
{
	const char *abort_am[] = { "git", "am", "--abort", NULL };
	GPtrArray *am = g_ptr_array_new_with_free_func(g_free);
	int r;

	g_ptr_array_add(am, g_strdup("git"));
	g_ptr_array_add(am, g_strdup("am"));
	g_ptr_array_add(am, g_strdup("--quiet"));
	g_ptr_array_add(am, g_strdup("--committer-date-is-author-date"));
	for (guint i = 0; i < f->files->len; i++) {
		const struct format_file *ff = f->files->pdata[i];

		if (posting_file_kind(ff->name) == POSTING_COVER)
			continue;
		g_ptr_array_add(am, g_build_filename(tmp, ff->name, NULL));
	}
	g_ptr_array_add(am, NULL);
	r = run_in(wt, ENV(env), (const char *const *)am->pdata, NULL);
	g_ptr_array_unref(am);
	if (r < 0)
		run_in(wt, NULL, abort_am, NULL);
	return r;
}

/* 4. the cover letter, through a non-interactive editor. */
static int edit_cover(const char *wt, const struct formatted *f,
		      const char *tmp, const struct ident *id)
{
	const char *edit[] = { "b4", "--offline-mode", "prep", "--edit-cover",
			       NULL };
	char *cover = cover_text(f);
	char *path = g_build_filename(tmp, "cover.txt", NULL);
	char *qp = g_shell_quote(path);
	char *editor = g_strdup_printf("cp -- %s", qp);
	GPtrArray *eenv = sender_env(id, editor);
	int r = write_file_atomic(path, cover, strlen(cover));

	if (r == 0)
		r = run_in(wt, ENV(eenv), edit, NULL);
	g_ptr_array_unref(eenv);
	g_free(cover);
	g_free(path);
	g_free(qp);
	g_free(editor);
	return r;
}

/* Steps 1-4 for the formatted version f, once b is filled in. */
static int branch_build(struct b4_branch *b, const struct b4_branch_opts *o,
			const struct formatted *f, const struct ident *id)
{
	GPtrArray *env = sender_env(id, NULL);
	char *tmp = NULL;
	int ret = -1;

	if (worktree_at(kernel_tree(), b->worktree, b->base) < 0 ||
	    branch_clear(b->worktree, b->branch, o->force) < 0 ||
	    prep_new(b, env) < 0 ||
	    set_tracking(b->worktree, f, env) < 0)
		goto out;
	tmp = g_dir_make_tmp("kseries-b4-XXXXXX", NULL);
	if (!tmp) {
		error("cannot make a temporary directory");
		goto out;
	}
	if (formatted_write(f, tmp) < 0 ||
	    am_patches(b->worktree, f, tmp, env) < 0 ||
	    edit_cover(b->worktree, f, tmp, id) < 0)
		goto out;
	ret = 0;
out:
	if (tmp) {
		remove_tree(tmp);
		g_free(tmp);
	}
	g_ptr_array_unref(env);
	return ret;
}

int b4_branch_prepare(const struct b4_branch_opts *o, struct b4_branch *b)
{
	struct format_opts fo;
	struct formatted f;
	struct ident id;
	char *from = NULL;
	const char *repo = kernel_tree();
	int ret = -1;

	if (o->name && !b4_branch_name_ok(o->name))
		return error("bad branch name '%s'", o->name);
	if (!repo)
		return error("no base tree: provision %s/linux or set KSERIES_TREE",
			     cache_dir());
	ident_init(&id);
	if (ident_sender_or_error(&id) < 0)
		return -1;
	from = ident_format(&id);
	format_opts_init(&fo);
	fo.repo = repo;
	fo.identity = from;
	formatted_init(&f);
	if (format_spec(o->spec, &fo, &b->series, &b->version, &f) < 0)
		goto out;
	b->name = g_strdup(o->name ? o->name : b->series.name);
	b->branch = g_strdup_printf("b4/%s", b->name);
	b->worktree = o->worktree ?
		g_canonicalize_filename(o->worktree, NULL) :
		g_strdup_printf("%s/wt/b4-%s", cache_dir(), b->name);
	b->base = g_strdup(f.base);
	b->change_id = g_strdup(f.change_id);
	ret = branch_build(b, o, &f, &id);
out:
	formatted_release(&f);
	ident_release(&id);
	g_free(from);
	return ret;
}

void b4_sent_init(struct b4_sent *r)
{
	memset(r, 0, sizeof(*r));
}

void b4_sent_release(struct b4_sent *r)
{
	g_free(r->message_id);
	g_free(r->tag);
	g_free(r->date);
	if (r->log)
		g_string_free(r->log, TRUE);
	b4_sent_init(r);
}

unsigned b4_count(const char *log, const char *what)
{
	size_t wl = strlen(what);
	unsigned n = 0;
	const char *l = log;

	while (l && *l) {
		const char *nl = strchr(l, '\n');
		size_t len = nl ? (size_t)(nl - l) : strlen(l);

		if (len > wl + 1 && !memcmp(l, what, wl) && l[wl] == ' ' &&
		    g_ascii_isdigit(l[wl + 1])) {
			char *end;
			unsigned long v = strtoul(l + wl + 1, &end, 10);

			if (!strncmp(end, " messages", 9) && v < 100000)
				n = v;
		}
		l = nl ? nl + 1 : NULL;
	}
	return n;
}

char *b4_history_msgid(const char *msg, int version)
{
	const char *marker;
	json_error_t jerr;
	json_t *j = tracking_parse(msg, &marker, &jerr);
	json_t *ids, *last;
	char vrev[32];
	char *id = NULL;

	if (!j)
		return NULL;
	g_snprintf(vrev, sizeof(vrev), "v%d", version);
	ids = json_object_get(json_object_get(json_object_get(j, "series"),
					      "history"), vrev);
	last = json_is_array(ids) && json_array_size(ids) ?
		json_array_get(ids, json_array_size(ids) - 1) : NULL;
	if (json_is_string(last) && *json_string_value(last))
		id = g_strdup(json_string_value(last));
	json_decref(j);
	return id;
}

/* The b4 send argv of o, new. */
static GPtrArray *send_argv(const struct b4_send_opts *o)
{
	GPtrArray *a = g_ptr_array_new_with_free_func(g_free);

	g_ptr_array_add(a, g_strdup("b4"));
	g_ptr_array_add(a, g_strdup("send"));
	if (o->dry_run)
		g_ptr_array_add(a, g_strdup("--dry-run"));
	if (o->no_sign)
		g_ptr_array_add(a, g_strdup("--no-sign"));
	if (o->to && o->to->len) {
		g_ptr_array_add(a, g_strdup("--to"));
		for (guint i = 0; i < o->to->len; i++)
			g_ptr_array_add(a, g_strdup(o->to->pdata[i]));
	}
	if (o->cc && o->cc->len) {
		g_ptr_array_add(a, g_strdup("--cc"));
		for (guint i = 0; i < o->cc->len; i++)
			g_ptr_array_add(a, g_strdup(o->cc->pdata[i]));
	}
	g_ptr_array_add(a, NULL);
	return a;
}

/* The last non-empty line of log, new ("no output" when none). */
static char *last_line(const GString *log)
{
	char **lines = g_strsplit(log ? log->str : "", "\n", -1);
	char *last = NULL;

	for (char **l = lines; *l; l++)
		if (*g_strstrip(*l)) {
			g_free(last);
			last = g_strdup(*l);
		}
	g_strfreev(lines);
	return last ? last : g_strdup("no output");
}

/* What b4 recorded of the send of b: the Message-ID and the tag's date. */
static int read_sent(const struct b4_branch *b, struct b4_sent *r)
{
	char *range = g_strdup_printf("%s..refs/heads/%s", b->base, b->branch);
	char *ref = g_strdup_printf("refs/tags/%s", r->tag);
	const char *first[] = { "git", "rev-list", "--reverse", range, NULL };
	const char *date[] = { "git", "for-each-ref",
			       "--format=%(taggerdate:rfc2822)", ref, NULL };
	char *commits = NULL, *msg = NULL, *nl;
	int ret = -1;

	if (run_in(b->worktree, NULL, first, &commits) < 0)
		goto out;
	nl = strchr(commits, '\n');
	if (nl)
		*nl = '\0';
	{
		const char *show[] = { "git", "log", "-1", "--format=%B",
				       commits, NULL };

		if (!*commits || run_in(b->worktree, NULL, show, &msg) < 0) {
			error("b4 sent, but %s has no cover commit", b->branch);
			goto out;
		}
	}
	r->message_id = b4_history_msgid(msg, b->version);
	if (!r->message_id) {
		error("b4 sent, but recorded no Message-ID for v%d", b->version);
		goto out;
	}
	if (run_in(b->worktree, NULL, date, &r->date) < 0)
		goto out;
	if (!*r->date) {
		error("b4 sent, but made no tag %s", r->tag);
		goto out;
	}
	ret = 0;
out:
	g_free(range);
	g_free(ref);
	g_free(commits);
	g_free(msg);
	return ret;
}

/* Runs b4 send as the sender; r->log gets its output. */
static int run_b4_send(const struct b4_branch *b, const struct b4_send_opts *o,
		       struct b4_sent *r, int *status)
{
	GPtrArray *args = send_argv(o);
	struct ident id;
	GPtrArray *env = NULL;
	/* b4 send asks "Press Enter to proceed" before a real send */
	struct run_opts ro = { .dir = b->worktree, .in = "\n", .in_len = 1,
			       .capture_out = true, .merge_err = true,
			       .timeout = 3600 };
	struct run_result rr = { 0 };
	int ret = -1;

	ident_init(&id);
	if (ident_sender_or_error(&id) < 0)
		goto out;
	env = sender_env(&id, NULL);
	ro.env = ENV(env);
	fflush(stdout);
	if (run_argv((const char *const *)args->pdata, &ro, &rr) < 0)
		goto out;
	*status = rr.timed_out ? -1 : rr.status;
	r->log = rr.out;
	rr.out = NULL;
	ret = 0;
out:
	run_result_release(&rr);
	ident_release(&id);
	if (env)
		g_ptr_array_unref(env);
	g_ptr_array_unref(args);
	return ret;
}

int b4_send(const struct b4_branch *b, const struct b4_send_opts *o,
	    struct b4_sent *r)
{
	char *ref, *have, *last;
	int status = -1;

	r->tag = g_strdup_printf("sent/%s-v%d", b->name, b->version);
	ref = g_strdup_printf("refs/tags/%s", r->tag);
	have = resolve_commit(b->worktree, ref);
	g_free(ref);
	if (have && !o->dry_run) {
		g_free(have);
		return error("tag %s exists: %s v%d was sent with b4 before",
			     r->tag, b->series.name, b->version);
	}
	g_free(have);
	if (run_b4_send(b, o, r, &status) < 0)
		return -1;
	r->converted = b4_count(r->log->str, "Converted the branch to");
	r->sent = b4_count(r->log->str, o->dry_run ?
			   "DRYRUN: Would have sent" : "Sent");
	if (status == 0 && r->converted && r->sent == r->converted)
		return o->dry_run ? 0 : read_sent(b, r);
	last = last_line(r->log);
	if (status < 0)
		error("b4 send timed out: %s", last);
	else if (status)
		error("b4 send failed (exit %d): %s", status, last);
	else
		error("b4 send: %u of %u messages sent: %s", r->sent,
		      r->converted, last);
	g_free(last);
	return -1;
}
