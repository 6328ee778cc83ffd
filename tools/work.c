// SPDX-License-Identifier: GPL-2.0-only
/*
 * work.c - a version as a branch of the user's kernel tree (and b4's).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <jansson.h>

#include "apply.h"
#include "format.h"
#include "mail.h"
#include "run.h"
#include "subject.h"
#include "util.h"
#include "work.h"
#include "workbench.h"
#include "banned.h"

int work_git(const char *dir, const char *const *env, const char *in,
	     const char *const *argv, char **out)
{
	struct run_opts o = { .dir = dir, .env = env, .in = in,
			      .in_len = in ? strlen(in) : 0, .timeout = 600 };
	GString *so = g_string_new(NULL), *se = g_string_new(NULL);
	int status = run_output(&o, argv, so, se);

	if (status > 0) {
		GString *cmd = g_string_new(argv[0]);

		for (const char *const *a = argv + 1; *a && cmd->len < 80; a++)
			g_string_append_printf(cmd, " %s", *a);
		g_strchomp(se->str);
		/* git's complaint, on the one line */
		for (char *c = se->str; *c; c++)
			if (*c == '\n')
				*c = ' ';
		error("'%s' failed in '%s'%s%s", cmd->str, dir,
		      se->str[0] ? ": " : "", se->str);
		g_string_free(cmd, TRUE);
	}
	if (status == 0 && out)
		*out = g_string_free(so, FALSE);
	else
		g_string_free(so, TRUE);
	g_string_free(se, TRUE);
	return status == 0 ? 0 : -1;
}

static char *toplevel(const char *dir)
{
	const char *argv[] = { "git", "rev-parse", "--show-toplevel", NULL };
	char *out = NULL;

	if (work_git(dir, NULL, NULL, argv, &out) < 0)
		return NULL;
	g_strchomp(out);
	return out;
}

static char *config_tree(void)
{
	const char *argv[] = { "git", "config", "--get", "--path",
			       "kseries.tree", NULL };
	struct run_opts o = { 0 };
	GString *out = g_string_new(NULL);

	if (run_output(&o, argv, out, NULL) != 0 || !out->len) {
		g_string_free(out, TRUE);
		return NULL;
	}
	g_strchomp(out->str);
	return g_string_free(out, FALSE);
}

static char *real(const char *path)
{
	char *r = realpath(path, NULL);
	char *g = g_strdup(r ? r : path);

	free(r);
	return g;
}

char *work_user_tree(const char *opt)
{
	char *want = opt ? g_strdup(opt) : config_tree();
	char *top, *rtop, *base = NULL, *store;
	bool bad_base, bad_store;

	if (!want)
		want = g_get_current_dir();
	if (!is_dir(want)) {
		error("no kernel tree '%s'", want);
		g_free(want);
		return NULL;
	}
	top = toplevel(want);
	g_free(want);
	if (!top)
		return NULL;
	rtop = real(top);
	if (kernel_tree())
		base = real(kernel_tree());
	store = real(store_top());
	bad_base = base && !strcmp(base, rtop);
	bad_store = g_str_has_prefix(store, rtop) &&
		    (store[strlen(rtop)] == '/' || !store[strlen(rtop)]);
	if (bad_base)
		error("'%s' is the workbench's base repository: work in a tree of your own (-w, git config kseries.tree)",
		      top);
	else if (bad_store)
		error("'%s' holds the series store, not a kernel tree: name yours with -w or git config kseries.tree",
		      top);
	g_free(base);
	g_free(store);
	g_free(rtop);
	if (bad_base || bad_store) {
		g_free(top);
		return NULL;
	}
	return top;
}

char *work_branch_name(const struct series *s, const char *branch)
{
	char *b = branch ? g_strdup(branch) :
			   g_strdup_printf("kseries/%s", s->name);
	const char *argv[] = { "git", "check-ref-format", "--branch", b, NULL };
	struct run_opts o = { 0 };

	if (b[0] == '-' || run_output(&o, argv, NULL, NULL) != 0) {
		error("bad branch name '%s'", b);
		g_free(b);
		return NULL;
	}
	return b;
}

bool work_tree_dirty(const char *tree)
{
	const char *argv[] = { "git", "status", "--porcelain",
			       "--untracked-files=no", NULL };
	char *out = NULL, *gd = NULL, *p;
	const char *gdir[] = { "git", "rev-parse", "--absolute-git-dir", NULL };
	bool dirty = true;

	if (work_git(tree, NULL, NULL, argv, &out) < 0 ||
	    work_git(tree, NULL, NULL, gdir, &gd) < 0)
		goto out;
	g_strchomp(gd);
	dirty = *g_strstrip(out) != '\0';
	/* an am or rebase in progress is unfinished work too */
	for (const char *const *n = (const char *const[]){ "rebase-apply",
			"rebase-merge", "MERGE_HEAD", "CHERRY_PICK_HEAD", NULL };
	     *n && !dirty; n++) {
		p = g_build_filename(gd, *n, NULL);
		dirty = is_dir(p) || is_file(p);
		g_free(p);
	}
out:
	g_free(out);
	g_free(gd);
	return dirty;
}

char *work_base_commit(const struct series *s, const char *tree)
{
	const char *base = series_get(s, "series.base");
	const char *repo = kernel_tree();
	char *id, *ref;

	if (!base || !*base) {
		error("%s has no series.base", s->name);
		return NULL;
	}
	if (base[0] == '-' || strpbrk(base, " \t\n:")) {
		error("bad series.base '%s'", base);
		return NULL;
	}
	id = resolve_commit(tree, base);
	if (id)
		return id;
	if (!repo || !(id = resolve_commit(repo, base))) {
		error("base '%s' is neither in '%s' nor in the base repository",
		      base, tree);
		return NULL;
	}
	fprintf(stderr, "kseries: %s is not in '%s': fetching it from '%s'\n",
		base, tree, repo);
	ref = g_strdup_printf("refs/tags/%s", base);
	{
		char *tag = resolve_commit(repo, ref);
		char *spec = tag ? g_strdup_printf("+%s:%s", ref, ref) :
				   g_strdup(id);
		const char *argv[] = { "git", "fetch", "--quiet", "--no-tags",
				       repo, spec, NULL };
		int r = work_git(tree, NULL, NULL, argv, NULL);
		char *got = r < 0 ? NULL : resolve_commit(tree, id);

		g_free(tag);
		g_free(spec);
		if (!got) {
			if (r == 0)
				error("fetching '%s' did not bring %s", repo, base);
			g_free(id);
			id = NULL;
		}
		g_free(got);
	}
	g_free(ref);
	return id;
}

bool work_version_posted(const struct series *s, int version)
{
	const char *origin, *made_up;

	if (!series_version_get(s, version, "message-id"))
		return false;
	origin = series_version_get(s, version, "origin");
	if (origin && !strcmp(origin, "reconstructed"))
		return false;
	/* a seed whose Message-ID was made up (cmd-import.c) */
	made_up = series_version_get(s, version, "reconstructed");
	return !made_up || !strcasestr(made_up, "message-id");
}

int work_b4_revision(const struct series *s, int version)
{
	return work_version_posted(s, version) ? version + 1 : version;
}

char *work_cover_message(const struct series *s, const char *cover,
			 int revision)
{
	const char *cid = series_get(s, "series.change-id");
	const char *prefix = series_get(s, "series.prefix");
	const char *base = series_get(s, "series.base");
	json_t *j = json_object(), *ser = json_object(), *pre = json_array();
	char **w = g_strsplit(prefix ? prefix : "", " ", -1);
	char *dump, *msg;

	for (char **p = w; *p; p++)
		if (**p && g_ascii_strcasecmp(*p, "PATCH"))
			json_array_append_new(pre, json_string(*p));
	g_strfreev(w);
	json_object_set_new(ser, "revision", json_integer(revision));
	json_object_set_new(ser, "change-id", json_string(cid ? cid : ""));
	json_object_set_new(ser, "base-branch", base ? json_string(base) :
						       json_null());
	json_object_set_new(ser, "prefixes", pre);
	json_object_set_new(j, "series", ser);
	dump = json_dumps(j, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
	/* ez.py store_cover(): cover, "\n\n", make_magic_json() */
	msg = g_strdup_printf("%s\n\n%s\n# This section is used internally by b4 prep for tracking purposes.\n%s\n",
			      cover, WORK_B4_MARKER, dump);
	free(dump);
	json_decref(j);
	return msg;
}

/* The version's cover text: its cover letter's title and blurb. */
static char *cover_text(const struct series *s, int version)
{
	GPtrArray *files = series_patch_files(s, version, true);
	GPtrArray *mails = mail_array_new();
	const char *title = series_get(s, "series.title");
	char *text;

	if (files->len && g_str_has_suffix(files->pdata[0],
					   "/0000-cover-letter.patch") &&
	    mail_read_mbox(files->pdata[0], mails) == 0 && mails->len) {
		const struct mail *m = mails->pdata[0];
		struct subject subj;
		char *blurb = format_cover_blurb(m->body, m->body_len);

		subject_parse(m->subject, &subj);
		text = *blurb ? g_strdup_printf("%s\n\n%s", subj.title, blurb) :
				g_strdup(subj.title);
		subject_release(&subj);
		g_free(blurb);
	} else {
		text = g_strdup(title ? title : s->name);
	}
	g_ptr_array_unref(mails);
	g_ptr_array_unref(files);
	return text;
}

/* "author Name <mail> 123 +0000" of a raw commit, as GIT_AUTHOR_*. */
int work_author_env(const char *raw, char *env[4])
{
	const char *a = strstr(raw, "\nauthor ");
	const char *lt, *gt, *nl;

	if (!a || !(nl = strchr(a + 1, '\n')) || !(lt = memchr(a, '<', nl - a)) ||
	    !(gt = memchr(lt, '>', nl - lt)) || lt - a < 9)
		return error("cannot read a commit's author");
	a += 8;
	env[0] = g_strdup_printf("GIT_AUTHOR_NAME=%.*s", (int)(lt - 1 - a), a);
	env[1] = g_strdup_printf("GIT_AUTHOR_EMAIL=%.*s", (int)(gt - lt - 1),
				 lt + 1);
	env[2] = g_strdup_printf("GIT_AUTHOR_DATE=%.*s", (int)(nl - gt - 2),
				 gt + 2);
	env[3] = NULL;
	return 0;
}

/*
 * A copy of commit on top of parent: same tree, author and message,
 * committed by the user now (as git am would). *out is the new id.
 */
static int recommit(const char *tree, const char *commit, const char *parent,
		    char **out)
{
	const char *cat[] = { "git", "cat-file", "commit", commit, NULL };
	char *raw = NULL, *env[4] = { NULL }, *tr;
	const char *msg;
	int ret = -1;

	if (work_git(tree, NULL, NULL, cat, &raw) < 0)
		return -1;
	msg = strstr(raw, "\n\n");
	if (!starts_with(raw, "tree ") || !msg || work_author_env(raw, env) < 0) {
		error("cannot read commit %s", commit);
		goto out;
	}
	tr = g_strndup(raw + 5, 40);
	{
		const char *ct[] = { "git", "commit-tree", tr, "-p", parent,
				     NULL };

		ret = work_git(tree, (const char *const *)env, msg + 2, ct, out);
	}
	g_free(tr);
	if (!ret)
		g_strchomp(*out);
out:
	for (int i = 0; i < 3; i++)
		g_free(env[i]);
	g_free(raw);
	return ret;
}

static int build_branch(struct series *s, int version, const char *tree,
			const char *base, GPtrArray *files, char **tip)
{
	struct applied a;
	char *cover = cover_text(s, version);
	char *msg = work_cover_message(s, cover, work_b4_revision(s, version));
	char *btree = g_strdup_printf("%s^{tree}", base), *prev = NULL;
	const char *ct[] = { "git", "commit-tree", btree, "-p", base, NULL };
	int ret = -1;

	applied_init(&a);
	if (apply_series(tree, base, files, false, &a) < 0)
		goto out;
	/* b4's cover commit: empty, right on the base */
	if (work_git(tree, NULL, msg, ct, &prev) < 0)
		goto out;
	g_strchomp(prev);
	for (guint i = 0; i < a.commits->len; i++) {
		char *next = NULL;

		if (recommit(tree, a.commits->pdata[i], prev, &next) < 0)
			goto out;
		g_free(prev);
		prev = next;
	}
	*tip = prev;
	prev = NULL;
	ret = 0;
out:
	g_free(prev);
	g_free(btree);
	g_free(msg);
	g_free(cover);
	applied_release(&a);
	return ret;
}

int work_checkout(struct series *s, int version, const char *tree,
		  const char *branch)
{
	GPtrArray *files = series_patch_files(s, version, false);
	char *base = NULL, *tip = NULL, *key = NULL;
	int ret = -1;

	if (!files->len) {
		error("%s v%d has no patches", s->name, version);
		goto out;
	}
	if (work_tree_dirty(tree)) {
		error("'%s' has uncommitted changes: commit or stash them first",
		      tree);
		goto out;
	}
	base = work_base_commit(s, tree);
	if (!base || build_branch(s, version, tree, base, files, &tip) < 0)
		goto out;
	{
		const char *co[] = { "git", "checkout", "--quiet", "-B", branch,
				     tip, NULL };

		if (work_git(tree, NULL, NULL, co, NULL) < 0)
			goto out;
	}
	key = g_strdup_printf("branch.%s.b4-prep-cover-strategy", branch);
	{
		const char *cf[] = { "git", "config", key, "commit", NULL };

		if (work_git(tree, NULL, NULL, cf, NULL) < 0)
			goto out;
	}
	printf("%s v%d: %u patch%s on %s as branch %s in %s\n", s->name,
	       version, files->len, files->len == 1 ? "" : "es",
	       series_get(s, "series.base"), branch, tree);
	ret = 0;
out:
	g_free(key);
	g_free(tip);
	g_free(base);
	g_ptr_array_unref(files);
	return ret;
}
