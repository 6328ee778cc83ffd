// SPDX-License-Identifier: GPL-2.0-only
/*
 * b4 prep branches: see b4.h.
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

		if (starts_with(ff->name, "0000-"))
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
