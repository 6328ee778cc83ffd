// SPDX-License-Identifier: GPL-2.0-only
/*
 * kseries b4-branch SERIES[@vN] - a b4 prep branch that `b4 send` sends.
 *
 * In a worktree of the base tree (made when missing):
 *   1. `b4 prep -n NAME -f BASE`: the branch b4/NAME with b4's cover
 *      commit (b4's default "commit" strategy);
 *   2. that cover commit's tracking data gets the series' change-id, the
 *      version as revision and the subject prefixes (git commit --amend,
 *      before any patch is on top);
 *   3. `git am` of the mails `kseries format` writes (trailers included);
 *   4. `b4 prep --edit-cover` with core.editor set (through
 *      GIT_CONFIG_COUNT, nothing written to any config) to a command that
 *      copies our cover text into b4's file: title, blurb with "Changes in
 *      vN:", and To:/Cc: trailers, which b4 turns into recipients.
 * b4 needs git-filter-repo for step 4 and user.name/user.email: b4 and
 * git run with the sender's (ident.h) as command-line configuration
 * (GIT_CONFIG_COUNT) and as committer, so the base tree's own local
 * identity never reaches the branch or the mails b4 writes.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <jansson.h>

#include "apply.h"
#include "builtin.h"
#include "format.h"
#include "ident.h"
#include "parse-options.h"
#include "run.h"
#include "series.h"
#include "util.h"
#include "workbench.h"
#include "banned.h"

static const char b4_usage[] =
	"kseries b4-branch SERIES[@vN] [-w DIR] [-n NAME] [--force]";

#define B4_MARKER "--- b4-submit-tracking ---"

static int run_in(const char *dir, const char *const *env,
		  const char *const *argv, char **out)
{
	struct run_opts o = { .dir = dir, .env = env, .timeout = 600 };

	return run_capture_opts(&o, argv, out, NULL);
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

/* Rewrites the tracking data of the cover commit at HEAD. */
static int set_tracking(const char *wt, const struct formatted *f,
			const GPtrArray *env)
{
	const char *show[] = { "git", "log", "-1", "--format=%B", "HEAD",
			       NULL };
	char *msg = NULL, *marker, *brace, *dump = NULL;
	json_t *j = NULL, *series;
	json_error_t jerr;
	GString *nm = NULL;
	int ret = -1;

	if (run_in(wt, NULL, show, &msg) < 0)
		return -1;
	marker = strstr(msg, B4_MARKER);
	brace = marker ? strchr(marker, '{') : NULL;
	if (!brace) {
		error("b4's cover commit has no tracking data");
		goto out;
	}
	j = json_loads(brace, JSON_DISABLE_EOF_CHECK, &jerr);
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
	{
		char *path = g_build_filename(wt, ".git-kseries-cover-msg", NULL);
		const char *amend[] = { "git", "commit", "--amend", "--quiet",
					"--allow-empty", "--no-verify", "-F",
					path, NULL };

		if (write_file_atomic(path, nm->str, nm->len) == 0)
			ret = run_in(wt, ENV(env), amend, NULL);
		unlink(path);
		g_free(path);
	}
out:
	if (j)
		json_decref(j);
	free(dump);
	if (nm)
		g_string_free(nm, TRUE);
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

int cmd_b4_branch(int argc, const char **argv)
{
	const char *spec = NULL, *wt_opt = NULL, *name_opt = NULL;
	bool force = false;
	struct format_opts o;
	struct formatted f;
	struct series s;
	struct ident id;
	char *wt = NULL, *name = NULL, *branch = NULL, *tmp = NULL;
	char *from = NULL;
	GPtrArray *env = NULL;
	const char *repo;
	int version, ret = EXIT_FINDINGS;
	const struct option options[] = {
		OPT_STRING_F('w', "worktree", &wt_opt, "DIR",
			     "the branch's worktree (default: wt/b4-NAME in the cache)",
			     PARSE_OPT_NOCONFIG),
		OPT_STRING_F('n', "name", &name_opt, "NAME",
			     "the branch's name (default: b4/SERIES)",
			     PARSE_OPT_NOCONFIG),
		OPT_BOOL_F(0, "force", &force, "replace the branch if it exists",
			   PARSE_OPT_NOCONFIG),
		OPT_END(),
	};

	if (parse_options(argc, argv, "b4-branch", options, b4_usage, 0) != 1)
		usage(b4_usage);
	spec = argv[0];
	if (!have_program("b4"))
		die("b4 is not installed");
	if (name_opt && (!safe_component(name_opt) || strchr(name_opt, ' ')))
		die("bad branch name '%s'", name_opt);
	repo = kernel_tree();
	if (!repo)
		die("no base tree: provision %s/linux or set KSERIES_TREE",
		    cache_dir());

	ident_init(&id);
	if (ident_sender_or_error(&id) < 0)
		return EXIT_FINDINGS;
	from = ident_format(&id);
	env = sender_env(&id, NULL);
	format_opts_init(&o);
	o.repo = repo;
	o.identity = from;
	formatted_init(&f);
	if (format_spec(spec, &o, &s, &version, &f) < 0) {
		formatted_release(&f);
		ident_release(&id);
		g_free(from);
		g_ptr_array_unref(env);
		return EXIT_FINDINGS;
	}
	name = g_strdup(name_opt ? name_opt : s.name);
	branch = g_strdup_printf("b4/%s", name);
	wt = wt_opt ? g_canonicalize_filename(wt_opt, NULL) :
		      g_strdup_printf("%s/wt/b4-%s", cache_dir(), name);

	/* the worktree, clean and detached at the base */
	if (!is_dir(wt)) {
		const char *add[] = { "git", "worktree", "add", "--detach",
				      "--quiet", wt, f.base, NULL };

		if (run_in(repo, NULL, add, NULL) < 0)
			goto out;
	} else {
		const char *st[] = { "git", "status", "--porcelain",
				     "--untracked-files=no", NULL };
		const char *co[] = { "git", "checkout", "--quiet", "--detach",
				     f.base, NULL };
		char *status = NULL;

		if (run_in(wt, NULL, st, &status) < 0)
			goto out;
		if (*g_strstrip(status)) {
			g_free(status);
			error("worktree '%s' has uncommitted changes", wt);
			goto out;
		}
		g_free(status);
		if (run_in(wt, NULL, co, NULL) < 0)
			goto out;
	}
	{
		char *ref = g_strdup_printf("refs/heads/%s", branch);
		char *have = resolve_commit(wt, ref);
		bool exists = have != NULL;

		g_free(have);
		if (exists) {
			const char *del[] = { "git", "branch", "-D", "--quiet",
					      branch, NULL };

			if (!force) {
				error("branch '%s' exists (use --force to replace it)",
				      branch);
				g_free(ref);
				goto out;
			}
			if (run_in(wt, NULL, del, NULL) < 0) {
				g_free(ref);
				goto out;
			}
		}
		g_free(ref);
	}

	/* 1. b4's branch and cover commit; b4 wants the fork point on the
	 * current branch, so a branch of ours at the base goes first */
	{
		char *start = g_strdup_printf("kseries/b4-base-%s", name);
		const char *co[] = { "git", "checkout", "--quiet", "-B", start,
				     f.base, NULL };
		int r = run_in(wt, NULL, co, NULL);

		g_free(start);
		if (r < 0)
			goto out;
	}
	{
		const char *prep[] = { "b4", "--offline-mode", "prep", "-n", name,
				       "-f", f.base, NULL };

		if (run_in(wt, ENV(env), prep, NULL) < 0)
			goto out;
	}
	/* 2. change-id, revision, prefixes */
	if (set_tracking(wt, &f, env) < 0)
		goto out;
	/* 3. the patches, as formatted */
	tmp = g_dir_make_tmp("kseries-b4-XXXXXX", NULL);
	if (!tmp || formatted_write(&f, tmp) < 0)
		goto out;
	{
		GPtrArray *am = g_ptr_array_new_with_free_func(g_free);
		int r;

		g_ptr_array_add(am, g_strdup("git"));
		g_ptr_array_add(am, g_strdup("am"));
		g_ptr_array_add(am, g_strdup("--quiet"));
		g_ptr_array_add(am, g_strdup("--committer-date-is-author-date"));
		for (guint i = 0; i < f.files->len; i++) {
			const struct format_file *ff = f.files->pdata[i];

			if (starts_with(ff->name, "0000-"))
				continue;
			g_ptr_array_add(am, g_build_filename(tmp, ff->name, NULL));
		}
		g_ptr_array_add(am, NULL);
		r = run_in(wt, ENV(env), (const char *const *)am->pdata, NULL);
		g_ptr_array_unref(am);
		if (r < 0) {
			const char *abort_am[] = { "git", "am", "--abort", NULL };

			run_in(wt, NULL, abort_am, NULL);
			goto out;
		}
	}
	/* 4. the cover letter, through a non-interactive editor */
	{
		char *cover = cover_text(&f);
		char *path = g_build_filename(tmp, "cover.txt", NULL);
		char *qp = g_shell_quote(path);
		char *editor = g_strdup_printf("cp -- %s", qp);
		GPtrArray *eenv = sender_env(&id, editor);
		const char *edit[] = { "b4", "--offline-mode", "prep",
				       "--edit-cover", NULL };
		int r = write_file_atomic(path, cover, strlen(cover));

		if (r == 0)
			r = run_in(wt, ENV(eenv), edit, NULL);
		g_ptr_array_unref(eenv);
		g_free(cover);
		g_free(path);
		g_free(qp);
		g_free(editor);
		if (r < 0)
			goto out;
	}
	printf("%s\t%s\tv%d\t%s\n", wt, branch, version,
	       f.change_id ? f.change_id : "");
	ret = 0;
out:
	if (tmp) {
		remove_tree(tmp);
		g_free(tmp);
	}
	formatted_release(&f);
	series_release(&s);
	ident_release(&id);
	g_free(from);
	g_ptr_array_unref(env);
	g_free(wt);
	g_free(name);
	g_free(branch);
	return ret;
}
