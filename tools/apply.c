// SPDX-License-Identifier: GPL-2.0-only
/*
 * apply.c - patches → commits on a private index.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "apply.h"
#include "ident.h"
#include "mail.h"
#include "run.h"
#include "scratch.h"
#include "util.h"
#include "workbench.h"
#include "banned.h"

void applied_init(struct applied *a)
{
	memset(a, 0, sizeof(*a));
	a->commits = g_ptr_array_new_with_free_func(g_free);
	a->failed = -1;
	a->log = g_string_new(NULL);
}

void applied_release(struct applied *a)
{
	g_free(a->base);
	if (a->commits)
		g_ptr_array_unref(a->commits);
	if (a->log)
		g_string_free(a->log, TRUE);
	memset(a, 0, sizeof(*a));
}

char *resolve_commit(const char *repo, const char *rev)
{
	char *spec = g_strdup_printf("%s^{commit}", rev);
	const char *argv[] = { "git", "rev-parse", "--verify", "--quiet",
			       "--end-of-options", spec, NULL };
	struct run_opts o = { .dir = repo, .capture_out = true,
			      .capture_err = true };
	struct run_result r;
	char *id = NULL;

	if (run_argv(argv, &o, &r) == 0 && r.status == 0) {
		g_strchomp(r.out->str);
		id = g_strdup(r.out->str);
	}
	run_result_release(&r);
	g_free(spec);
	return id;
}

/* Runs git in repo with env and stdin: run_capture_opts() into log. */
static int git_env(const char *repo, const char *const *env,
		   const char *const *argv, const char *in, size_t in_len,
		   char **out, GString *log)
{
	struct run_opts o = { .dir = repo, .env = env, .in = in,
			      .in_len = in_len };

	return run_capture_opts(&o, argv, out, log);
}

struct info {
	char *author, *email, *date, *subject;
};

static void info_release(struct info *i)
{
	g_free(i->author);
	g_free(i->email);
	g_free(i->date);
	g_free(i->subject);
}

static void parse_info(const char *text, struct info *i)
{
	char **lines = g_strsplit(text, "\n", -1);

	for (char **l = lines; *l; l++) {
		if (starts_with(*l, "Author: "))
			i->author = g_strdup(*l + 8);
		else if (starts_with(*l, "Email: "))
			i->email = g_strdup(*l + 7);
		else if (starts_with(*l, "Date: "))
			i->date = g_strdup(*l + 6);
		else if (starts_with(*l, "Subject: "))
			i->subject = g_strdup(*l + 9);
	}
	g_strfreev(lines);
}

static int apply_one(const char *repo, const char *tmp, const char *index_env,
		     const char *file, const char *parent, bool *three_way,
		     char **commit, GString *log)
{
	char *msg_path = g_build_filename(tmp, "msg", NULL);
	char *patch_path = g_build_filename(tmp, "patch", NULL);
	const char *env[] = { index_env, NULL };
	char *mail = NULL, *infotext = NULL, *tree = NULL, *msg = NULL;
	char *clean = NULL;
	size_t mail_len, msg_len;
	struct info info = { 0 };
	int ret = -1;

	if (read_file(file, MAIL_MAX_FILE, &mail, &mail_len) < 0)
		goto out;
	{
		const char *argv[] = { "git", "mailinfo", "--scissors",
				       msg_path, patch_path, NULL };

		if (git_env(repo, NULL, argv, mail, mail_len, &infotext, log) < 0)
			goto out;
	}
	parse_info(infotext, &info);
	if (!info.subject || !*info.subject) {
		g_string_append_printf(log, "%s: no subject\n", file);
		goto out;
	}
	if (!info.email || !*info.email) {
		/* the sender's own patch: see IDENT_APPLY_NAME */
		g_free(info.author);
		g_free(info.email);
		info.author = g_strdup(IDENT_APPLY_NAME);
		info.email = g_strdup(IDENT_APPLY_EMAIL);
	}
	if (!info.date || !*info.date) {
		g_free(info.date);
		info.date = g_strdup(IDENT_APPLY_DATE);
	}
	if (!info.author || !*info.author) {
		g_free(info.author);
		info.author = g_strdup(info.email);
	}
	{
		const char *argv[] = { "git", "apply", "--cached",
				       "--whitespace=nowarn", patch_path, NULL };
		const char *argv3[] = { "git", "apply", "--cached", "--3way",
					"--whitespace=nowarn", patch_path, NULL };

		if (git_env(repo, env, argv, NULL, 0, NULL, log) < 0) {
			if (git_env(repo, env, argv3, NULL, 0, NULL, log) < 0)
				goto out;
			*three_way = true;
		}
	}
	{
		const char *argv[] = { "git", "write-tree", NULL };

		if (git_env(repo, env, argv, NULL, 0, &tree, log) < 0)
			goto out;
	}
	if (read_file(msg_path, MAIL_MAX_FILE, &msg, &msg_len) < 0)
		goto out;
	{
		/* as git am: subject, blank line, body; then stripspace */
		GString *full = g_string_new(info.subject);
		const char *argv[] = { "git", "stripspace", NULL };

		g_string_append(full, "\n\n");
		g_string_append_len(full, msg, (gssize)msg_len);
		if (git_env(repo, NULL, argv, full->str, full->len, &clean,
			    log) < 0) {
			g_string_free(full, TRUE);
			goto out;
		}
		g_string_free(full, TRUE);
	}
	{
		char *an = g_strdup_printf("GIT_AUTHOR_NAME=%s", info.author);
		char *ae = g_strdup_printf("GIT_AUTHOR_EMAIL=%s", info.email);
		char *ad = g_strdup_printf("GIT_AUTHOR_DATE=%s",
					   info.date);
		char *cn = g_strdup_printf("GIT_COMMITTER_NAME=%s", info.author);
		char *ce = g_strdup_printf("GIT_COMMITTER_EMAIL=%s", info.email);
		char *cd = g_strdup_printf("GIT_COMMITTER_DATE=%s",
					   info.date);
		const char *cenv[] = { an, ae, ad, cn, ce, cd, NULL };
		const char *argv[] = { "git", "commit-tree", tree, "-p", parent,
				       NULL };
		GString *m = g_string_new(clean);

		g_string_append_c(m, '\n');
		ret = git_env(repo, cenv, argv, m->str, m->len, commit, log);
		g_string_free(m, TRUE);
		g_free(an);
		g_free(ae);
		g_free(ad);
		g_free(cn);
		g_free(ce);
		g_free(cd);
	}
out:
	info_release(&info);
	g_free(mail);
	g_free(infotext);
	g_free(tree);
	g_free(msg);
	g_free(clean);
	g_free(msg_path);
	g_free(patch_path);
	return ret;
}

int apply_series(const char *repo, const char *rev, GPtrArray *files,
		 bool quiet, struct applied *a)
{
	char *tmp, *index_path, *index_env, *parent;
	int ret = 0;

	a->base = resolve_commit(repo, rev);
	if (!a->base) {
		if (!quiet)
			error("no commit '%s' in '%s'", rev, repo);
		g_string_append_printf(a->log, "no commit '%s'\n", rev);
		return -1;
	}
	tmp = scratch_dir_make("apply");
	if (!tmp)
		return -1;
	index_path = g_build_filename(tmp, "index", NULL);
	index_env = g_strdup_printf("GIT_INDEX_FILE=%s", index_path);
	{
		const char *env[] = { index_env, NULL };
		const char *argv[] = { "git", "read-tree", a->base, NULL };

		if (git_env(repo, env, argv, NULL, 0, NULL, a->log) < 0) {
			ret = -1;
			a->failed = 0;
		}
	}
	parent = g_strdup(a->base);
	for (guint i = 0; ret == 0 && i < files->len; i++) {
		char *commit = NULL;

		if (apply_one(repo, tmp, index_env, files->pdata[i], parent,
			      &a->three_way, &commit, a->log) < 0) {
			a->failed = (int)i;
			ret = -1;
			if (!quiet) {
				char *base = g_path_get_basename(files->pdata[i]);

				error("'%s' does not apply to %s", base, rev);
				g_free(base);
			}
			break;
		}
		g_ptr_array_add(a->commits, g_strdup(commit));
		g_free(parent);
		parent = commit;
	}
	g_free(parent);
	scratch_dir_remove(tmp);
	g_free(index_path);
	g_free(index_env);
	return ret;
}
