// SPDX-License-Identifier: GPL-2.0-only
/*
 * record.c - the user's branch as the next version of a series.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "apply.h"
#include "format.h"
#include "ident.h"
#include "mail.h"
#include "posting.h"
#include "record.h"
#include "run.h"
#include "subject.h"
#include "util.h"
#include "work.h"
#include "workbench.h"
#include "banned.h"

/* A patch of the version compared against. */
struct prev_patch {
	char *patch_id;
	char *title;
	GPtrArray *tags;	/* review tags its message carries */
	GPtrArray *trailers;	/* collected in review, to carry */
	bool paired;
};

struct rec {
	struct series *s;
	const char *tree, *branch;
	int target, prev;	/* prev 0: none */
	bool in_place;
	char *base, *tip, *cover_commit, *ident;
	GPtrArray *commits;	/* char *, the patches' commits */
	GPtrArray *prevs;	/* struct prev_patch *, [0] is patch 1 */
	GString *changes;	/* the range-diff part of "Changes in" */
	GHashTable *changed;	/* indices (1-based) of changed patches */
	char *title, *blurb;
	char *new_tip;
};

static void prev_patch_free(struct prev_patch *p)
{
	g_free(p->patch_id);
	g_free(p->title);
	g_ptr_array_unref(p->tags);
	g_ptr_array_unref(p->trailers);
	g_free(p);
}

static void rec_release(struct rec *r)
{
	g_free(r->base);
	g_free(r->tip);
	g_free(r->cover_commit);
	g_free(r->ident);
	g_ptr_array_unref(r->commits);
	g_ptr_array_unref(r->prevs);
	g_string_free(r->changes, TRUE);
	g_hash_table_unref(r->changed);
	g_free(r->title);
	g_free(r->blurb);
	g_free(r->new_tip);
}

static bool is_draft(const struct series *s, int v)
{
	const char *origin;

	if (series_version_get(s, v, "message-id"))
		return false;
	origin = series_version_get(s, v, "origin");
	return origin && !strcmp(origin, "ours");
}

static void pick_target(struct rec *r)
{
	GArray *vs = series_versions(r->s);
	int n = vs->len ? g_array_index(vs, int, vs->len - 1) : 0;

	r->in_place = n && is_draft(r->s, n);
	r->target = r->in_place ? n : n + 1;
	r->prev = r->in_place ? (vs->len > 1 ?
				 g_array_index(vs, int, vs->len - 2) : 0) : n;
	g_array_unref(vs);
}

static char *git_line(const char *dir, const char *const *argv)
{
	char *out = NULL;

	if (work_git(dir, NULL, NULL, argv, &out) < 0)
		return NULL;
	g_strchomp(out);
	return out;
}

/* Refusals about the tree's state: an am, rebase or merge half-way. */
static int check_conflicts(struct rec *r)
{
	const char *unmerged[] = { "git", "ls-files", "--unmerged", NULL };
	const char *diff[] = { "git", "diff", "--no-color", "-U0", r->base,
			       r->tip, NULL };
	char *out = NULL;
	int ret = 0;

	if (work_git(r->tree, NULL, NULL, unmerged, &out) < 0)
		return -1;
	if (*out)
		ret = error("'%s' has an unresolved conflict: resolve it and commit first",
			    r->tree);
	g_free(out);
	if (ret || work_git(r->tree, NULL, NULL, diff, &out) < 0)
		return -1;
	for (char *l = out; l && *l;) {
		char *nl = strchr(l, '\n');

		if (starts_with(l, "+<<<<<<< ") || starts_with(l, "+>>>>>>> ")) {
			ret = error("%s adds conflict markers: resolve the conflict first",
				    r->branch);
			break;
		}
		l = nl ? nl + 1 : NULL;
	}
	g_free(out);
	return ret;
}

/* The branch's commits above the base: b4's cover, then the patches. */
static int read_branch(struct rec *r)
{
	const char *sbase = series_get(r->s, "series.base");
	char *ref = g_strdup_printf("refs/heads/%s", r->branch), *out = NULL;
	const char *anc[] = { "git", "merge-base", "--is-ancestor", NULL, NULL,
			      NULL };
	const char *rl[] = { "git", "rev-list", "--reverse", "--parents",
			     NULL, NULL };
	char *range = NULL, **lines = NULL;
	int ret = -1;

	r->tip = resolve_commit(r->tree, ref);
	if (!r->tip) {
		error("no branch '%s' in '%s'", r->branch, r->tree);
		goto out;
	}
	if (!sbase || !kernel_tree() ||
	    !(r->base = resolve_commit(kernel_tree(), sbase))) {
		error("base '%s' is not in the base repository (%s)",
		      sbase ? sbase : "(none)",
		      kernel_tree() ? kernel_tree() : "none: set KSERIES_TREE");
		goto out;
	}
	anc[3] = r->base;
	anc[4] = r->tip;
	{
		struct run_opts o = { .dir = r->tree };

		if (run_output(&o, anc, NULL, NULL) != 0) {
			error("%s does not contain the base %s: it rewrote the base",
			      r->branch, sbase);
			goto out;
		}
	}
	range = g_strdup_printf("%s..%s", r->base, r->tip);
	rl[4] = range;
	if (work_git(r->tree, NULL, NULL, rl, &out) < 0)
		goto out;
	lines = g_strsplit(g_strchomp(out), "\n", -1);
	for (char **l = lines; *l && **l; l++) {
		char **w = g_strsplit(*l, " ", -1);
		guint n = g_strv_length(w);

		if (n > 2) {
			error("%s has a merge commit (%.12s): record a linear branch",
			      r->branch, w[0]);
			g_strfreev(w);
			goto out;
		}
		g_ptr_array_add(r->commits, g_strdup(w[0]));
		g_strfreev(w);
	}
	if (r->commits->len) {
		const char *cat[] = { "git", "cat-file", "commit",
				      r->commits->pdata[0], NULL };
		char *raw = NULL;

		if (work_git(r->tree, NULL, NULL, cat, &raw) < 0)
			goto out;
		if (strstr(raw, "\n" WORK_B4_MARKER "\n")) {
			r->cover_commit = g_strdup(r->commits->pdata[0]);
			g_ptr_array_remove_index(r->commits, 0);
		}
		g_free(raw);
	}
	if (!r->commits->len) {
		error("%s has no commits above %s", r->branch, sbase);
		goto out;
	}
	ret = check_conflicts(r);
out:
	g_strfreev(lines);
	g_free(range);
	g_free(out);
	g_free(ref);
	return ret;
}

static char *patch_id(const char *tree, const char *mail)
{
	const char *argv[] = { "git", "patch-id", "--stable", NULL };
	char *out = NULL, *sp;

	if (work_git(tree, NULL, mail, argv, &out) < 0)
		return NULL;
	sp = strchr(out, ' ');
	if (sp)
		*sp = '\0';
	g_strchomp(out);
	return out;
}

static bool is_review_tag(const char *line)
{
	return !g_ascii_strncasecmp(line, "Reviewed-by:", 12) ||
	       !g_ascii_strncasecmp(line, "Acked-by:", 9) ||
	       !g_ascii_strncasecmp(line, "Tested-by:", 10);
}

/* The review tags of a patch mail's message (above its "---"). */
static GPtrArray *review_tags(const struct mail *m)
{
	GPtrArray *tags = g_ptr_array_new_with_free_func(g_free);
	char **lines = g_strsplit(m->body, "\n", -1);

	for (char **l = lines; *l && strcmp(*l, "---"); l++)
		if (is_review_tag(*l))
			g_ptr_array_add(tags, g_strdup(g_strstrip(*l)));
	g_strfreev(lines);
	return tags;
}

static int read_prev(struct rec *r)
{
	GPtrArray *files = r->prev ? series_patch_files(r->s, r->prev, false) :
				     g_ptr_array_new();
	int ret = 0;

	for (guint i = 0; i < files->len && !ret; i++) {
		GPtrArray *mails = mail_array_new();
		struct prev_patch *p = g_new0(struct prev_patch, 1);
		char *buf = NULL;
		size_t len;

		p->trailers = g_ptr_array_new_with_free_func(g_free);
		g_ptr_array_add(r->prevs, p);
		ret = read_file(files->pdata[i], MAIL_MAX_FILE, &buf, &len);
		if (!ret)
			ret = mail_parse_mbox(buf, len, files->pdata[i], mails);
		if (!ret && mails->len) {
			const struct mail *m = mails->pdata[0];
			struct subject subj;

			subject_parse(m->subject, &subj);
			p->title = g_strdup(subj.title);
			subject_release(&subj);
			p->tags = review_tags(m);
			p->patch_id = patch_id(r->tree, buf);
		}
		if (!p->tags)
			p->tags = g_ptr_array_new_with_free_func(g_free);
		if (!p->title)
			p->title = g_strdup("");
		g_free(buf);
		g_ptr_array_unref(mails);
	}
	g_ptr_array_unref(files);
	return ret;
}

/*
 * The trailers given in review on prev (and before) that are prev's
 * patches' still (format_trailer_targets()), per prev patch; a tag for
 * the series goes to each patch it still covers.
 */
static int read_trailers(struct rec *r)
{
	GPtrArray *items, *titles;
	GArray *to;

	if (!r->prev)
		return 0;
	items = g_ptr_array_new_with_free_func((GDestroyNotify)fb_item_free);
	if (format_load_feedback(r->s, r->prev, items) < 0) {
		g_ptr_array_unref(items);
		return -1;
	}
	titles = g_ptr_array_new();
	for (guint k = 0; k < r->prevs->len; k++)
		g_ptr_array_add(titles,
				((struct prev_patch *)r->prevs->pdata[k])->title);
	to = g_array_new(FALSE, FALSE, sizeof(int));
	for (guint i = 0; i < items->len; i++) {
		const struct fb_item *it = items->pdata[i];

		g_array_set_size(to, 0);
		format_trailer_targets(it, r->prev, titles, r->prevs->len, to,
				       NULL);
		for (guint k = 0; k < to->len; k++) {
			struct prev_patch *p =
				r->prevs->pdata[g_array_index(to, int, k) - 1];

			if (!g_ptr_array_find_with_equal_func(p->trailers,
							      it->trailer,
							      g_str_equal, NULL))
				g_ptr_array_add(p->trailers,
						g_strdup(it->trailer));
		}
	}
	g_array_unref(to);
	g_ptr_array_unref(titles);
	g_ptr_array_unref(items);
	return 0;
}

/* Which prev patch this one is: by patch-id (*same), else by title. */
static int pair(struct rec *r, const char *pid, const char *title, bool *same)
{
	*same = false;
	for (guint i = 0; pid && i < r->prevs->len; i++) {
		struct prev_patch *p = r->prevs->pdata[i];

		if (!p->paired && p->patch_id && !strcmp(p->patch_id, pid)) {
			p->paired = *same = true;
			return (int)i;
		}
	}
	for (guint i = 0; i < r->prevs->len; i++) {
		struct prev_patch *p = r->prevs->pdata[i];

		if (!p->paired && !strcmp(p->title, title)) {
			p->paired = true;
			return (int)i;
		}
	}
	return -1;
}

/* msg without its lines equal to one of tags; which gets them. */
static char *drop_tags(const char *msg, GPtrArray *tags, GString *which)
{
	GString *out = g_string_new(NULL);
	char **lines = g_strsplit(msg, "\n", -1);

	for (char **l = lines; *l; l++) {
		char *t = g_strstrip(g_strdup(*l));
		bool drop = false;

		for (guint i = 0; i < tags->len && !drop; i++)
			drop = !strcmp(t, tags->pdata[i]);
		if (drop)
			g_string_append_printf(which, "%s%s",
					       which->len ? ", " : "", t);
		g_free(t);
		if (drop)
			continue;
		g_string_append(out, *l);
		if (l[1])
			g_string_append_c(out, '\n');
	}
	g_strfreev(lines);
	return g_string_free(out, FALSE);
}

/* The review tags collected for p that a changed patch does not get. */
static void lost_trailers(const struct prev_patch *p, GString *which)
{
	for (guint i = 0; i < p->trailers->len; i++) {
		const char *t = p->trailers->pdata[i];

		if (is_review_tag(t) && !strstr(which->str, t))
			g_string_append_printf(which, "%s%s",
					       which->len ? ", " : "", t);
	}
}

/* GIT_AUTHOR_* and GIT_COMMITTER_* of raw's author: the same commits. */
static int ident_env(const char *raw, char *env[7])
{
	char *a[4] = { NULL };

	if (work_author_env(raw, a) < 0)
		return -1;
	for (int i = 0; i < 3; i++) {
		env[i] = a[i];
		env[3 + i] = g_strconcat("GIT_COMMITTER_",
					 a[i] + strlen("GIT_AUTHOR_"), NULL);
	}
	env[6] = NULL;
	return 0;
}

/* The new message of patch i, and what the changelog says of it. */
static char *new_message(struct rec *r, guint i, const char *c,
			 const char *msg)
{
	const char *fp[] = { "git", "format-patch", "--stdout", "-1", c, NULL };
	char *mail = NULL, *pid = NULL, *title, *out;
	struct prev_patch *p;
	bool same;
	int k;

	if (work_git(r->tree, NULL, NULL, fp, &mail) == 0)
		pid = patch_id(r->tree, mail);
	g_free(mail);
	title = g_strndup(msg, strcspn(msg, "\n"));
	k = pair(r, pid, title, &same);
	p = k >= 0 ? r->prevs->pdata[k] : NULL;
	if (same) {
		GPtrArray *t = g_ptr_array_new();
		unsigned added;

		for (guint j = 0; j < p->trailers->len; j++)
			g_ptr_array_add(t, p->trailers->pdata[j]);
		out = format_add_trailers(msg, t, r->ident, &added);
		g_ptr_array_unref(t);
	} else if (p) {
		GString *which = g_string_new(NULL);

		g_hash_table_add(r->changed, GUINT_TO_POINTER(i + 1));
		out = drop_tags(msg, p->tags, which);
		lost_trailers(p, which);
		g_string_append_printf(r->changes, "- %u/%u %s: changed", i + 1,
				       r->commits->len, title);
		if (which->len)
			g_string_append_printf(r->changes,
					       "; review tags dropped: %s",
					       which->str);
		g_string_append_c(r->changes, '\n');
		g_string_free(which, TRUE);
	} else {
		out = g_strdup(msg);
		if (r->prev)
			g_string_append_printf(r->changes, "- %u/%u %s: new patch\n",
					       i + 1, r->commits->len, title);
	}
	g_free(title);
	g_free(pid);
	return out;
}

/* The patches again, on the base, with the trailers carried. */
static int rebuild(struct rec *r)
{
	char *prev = g_strdup(r->base);
	int ret = 0;

	for (guint i = 0; i < r->commits->len && !ret; i++) {
		const char *c = r->commits->pdata[i];
		const char *cat[] = { "git", "cat-file", "commit", c, NULL };
		char *raw = NULL, *env[7] = { NULL }, *msg = NULL, *next = NULL;
		char *tr;

		ret = work_git(r->tree, NULL, NULL, cat, &raw);
		if (!ret && (!starts_with(raw, "tree ") || !strstr(raw, "\n\n") ||
			     ident_env(raw, env) < 0))
			ret = error("cannot read commit %s", c);
		if (!ret) {
			const char *ct[] = { "git", "commit-tree", NULL, "-p",
					     prev, NULL };

			tr = g_strndup(raw + 5, 40);
			ct[2] = tr;
			msg = new_message(r, i, c, strstr(raw, "\n\n") + 2);
			ret = work_git(r->tree, (const char *const *)env, msg,
				       ct, &next);
			g_free(tr);
		}
		if (!ret) {
			g_free(prev);
			prev = g_strchomp(next);
		}
		for (int e = 0; e < 6; e++)
			g_free(env[e]);
		g_free(msg);
		g_free(raw);
	}
	for (guint i = 0; i < r->prevs->len; i++) {
		struct prev_patch *p = r->prevs->pdata[i];

		if (!p->paired)
			g_string_append_printf(r->changes, "- dropped %s\n",
					       p->title);
	}
	if (ret)
		g_free(prev);
	else
		r->new_tip = prev;
	return ret;
}

/* Title and text of the cover: b4's cover commit, else a stored one. */
static int read_cover(struct rec *r)
{
	if (r->cover_commit) {
		const char *show[] = { "git", "log", "-1", "--format=%B",
				       r->cover_commit, NULL };
		char *msg = NULL, *mark;
		GString *t = g_string_new(NULL);
		char **lines;

		if (work_git(r->tree, NULL, NULL, show, &msg) < 0) {
			g_string_free(t, TRUE);
			return -1;
		}
		mark = strstr(msg, WORK_B4_MARKER);
		if (mark)
			*mark = '\0';
		/* b4 drops comment lines from the cover */
		lines = g_strsplit(msg, "\n", -1);
		for (char **l = lines; *l; l++)
			if (**l != '#')
				g_string_append_printf(t, "%s\n", *l);
		g_strfreev(lines);
		g_free(msg);
		g_strstrip(t->str);
		r->title = g_strndup(t->str, strcspn(t->str, "\n"));
		r->blurb = g_strdup(t->str + strlen(r->title));
		g_strstrip(r->blurb);
		g_string_free(t, TRUE);
		return 0;
	}
	for (int v = r->in_place ? r->target : r->prev; v > 0;
	     v = v == r->target ? r->prev : 0) {
		char *dir = series_version_dir(r->s, v);
		char *path = g_build_filename(dir, "0000-cover-letter.patch", NULL);
		GPtrArray *mails = mail_array_new();

		if (is_file(path) && mail_read_mbox(path, mails) == 0 &&
		    mails->len) {
			const struct mail *m = mails->pdata[0];
			struct subject subj;

			subject_parse(m->subject, &subj);
			r->title = g_strdup(subj.title);
			r->blurb = format_cover_blurb(m->body, m->body_len);
			subject_release(&subj);
		}
		g_ptr_array_unref(mails);
		g_free(path);
		g_free(dir);
		if (r->title)
			return 0;
	}
	r->title = g_strdup(series_get(r->s, "series.title") ?
			    series_get(r->s, "series.title") : r->s->name);
	r->blurb = g_strdup("");
	return 0;
}

/* text without its "Changes in vT:" block (the header to a blank line). */
static char *strip_changes(const char *text, int version)
{
	char *hdr = g_strdup_printf("Changes in v%d:", version);
	char **lines = g_strsplit(text, "\n", -1);
	GString *out = g_string_new(NULL);
	bool in = false;

	for (char **l = lines; *l; l++) {
		if (!strcmp(*l, hdr))
			in = true;
		else if (in && !**l)
			in = false;
		else if (!in)
			g_string_append_printf(out, "%s\n", *l);
	}
	g_strfreev(lines);
	g_free(hdr);
	g_strstrip(out->str);
	return g_string_free(out, FALSE);
}

struct out_file {
	char *name;
	char *text;
};

static void out_file_free(struct out_file *f)
{
	g_free(f->name);
	g_free(f->text);
	g_free(f);
}

static char *replace(const char *text, const char *what, const char *with)
{
	const char *p = strstr(text, what);

	if (!p)
		return g_strdup(text);
	return g_strdup_printf("%.*s%s%s", (int)(p - text), text, with,
			       p + strlen(what));
}

/* The cover letter git wrote, with our title, text and change-id. */
static char *fill_cover(struct rec *r, const char *git_cover,
			const char *changes)
{
	const char *cid = series_get(r->s, "series.change-id");
	char *blurb = strip_changes(r->blurb, r->target);
	char *text = *blurb && changes ? g_strdup_printf("%s\n\n%s", blurb, changes) :
		     g_strdup(changes ? changes : blurb);
	char *a = replace(git_cover, "*** SUBJECT HERE ***", r->title);
	char *b = replace(a, "*** BLURB HERE ***", text);
	char *line = NULL, *c;
	const char *bc = strstr(b, "\nbase-commit: ");

	g_strchomp(text);
	if (cid && bc) {
		const char *eol = strchr(bc + 1, '\n');

		line = g_strdup_printf("\nchange-id: %s", cid);
		c = eol ? g_strdup_printf("%.*s%s%s", (int)(eol - b), b, line, eol) :
			  g_strconcat(b, line, NULL);
	} else {
		c = g_strdup(b);
	}
	g_free(line);
	g_free(a);
	g_free(b);
	g_free(text);
	g_free(blurb);
	return c;
}

/*
 * Drops the header's From: (and its folded lines) when its address is a
 * placeholder or own's (the user recording, "Name <addr>"): such a
 * patch, and the cover, are the sender's own, which the store keeps
 * without identity (format authors them; ident.h, HACKING.md), so
 * neither a placeholder nor the recording user's address is stored.
 */
static bool is_own_addr(const char *own, const char *addr)
{
	const char *lt = own ? strrchr(own, '<') : NULL;
	size_t n = strlen(addr);

	return lt && !g_ascii_strncasecmp(lt + 1, addr, n) && lt[1 + n] == '>';
}

static void drop_own_from(char *text, const char *own)
{
	char *hdr_end = strstr(text, "\n\n"), *l = text;

	while (*l && (!hdr_end || l <= hdr_end)) {
		char *next = strchr(l, '\n');

		/* a header line and its folded continuations */
		while (next && (next[1] == ' ' || next[1] == '\t'))
			next = strchr(next + 1, '\n');
		next = next ? next + 1 : l + strlen(l);
		if (starts_with(l, "From: ")) {
			char *lt = memchr(l, '<', next - l);
			char *gt = lt ? memchr(lt, '>', next - lt) : NULL;
			char *addr = gt ? g_strndup(lt + 1, gt - lt - 1) : NULL;

			if (addr && (ident_is_placeholder(addr) ||
				     is_own_addr(own, addr)))
				memmove(l, next, strlen(next) + 1);
			g_free(addr);
			return;
		}
		l = next;
	}
}

static int format_files(struct rec *r, GPtrArray *files)
{
	char *dir = g_dir_make_tmp("kseries-record-XXXXXX", NULL);
	const char *prefix = series_get(r->s, "series.prefix");
	char *sp = r->target > 1 ?
		g_strdup_printf("%s v%d", prefix ? prefix : "PATCH", r->target) :
		g_strdup(prefix ? prefix : "PATCH");
	char *spo = g_strdup_printf("--subject-prefix=%s", sp);
	char *baseo = g_strdup_printf("--base=%s", r->base);
	char *range = g_strdup_printf("%s..%s", r->base, r->new_tip);
	const char *fp[] = { "git", "format-patch", "--quiet", "--cover-letter",
			     "--no-thread", "--no-signoff", "--no-to", "--no-cc",
			     "--no-add-header", baseo, spo, "-o", dir, range,
			     NULL };
	/* the cover letter's date: the newest commit's, not now */
	const char *cd[] = { "git", "log", "-1", "--format=GIT_COMMITTER_DATE=%ad",
			     "--date=raw", r->new_tip, NULL };
	char *date = NULL;
	GPtrArray *names;
	int ret = -1;

	if (!dir)
		return error_errno("cannot create a temporary directory");
	date = git_line(r->tree, cd);
	if (date) {
		const char *env[] = { date, NULL };

		ret = work_git(r->tree, env, NULL, fp, NULL);
	}
	names = ret ? g_ptr_array_new() : dir_names_sorted(dir, NULL, NULL);
	for (guint i = 0; i < names->len; i++) {
		struct out_file *f = g_new0(struct out_file, 1);
		char *path = g_build_filename(dir, names->pdata[i], NULL);
		size_t len;

		f->name = g_strdup(names->pdata[i]);
		g_ptr_array_add(files, f);
		if (read_file(path, MAIL_MAX_FILE, &f->text, &len) < 0)
			ret = -1;
		else
			drop_own_from(f->text, r->ident);
		g_free(path);
	}
	g_ptr_array_unref(names);
	remove_tree(dir);
	g_free(dir);
	g_free(date);
	g_free(range);
	g_free(baseo);
	g_free(spo);
	g_free(sp);
	return ret;
}

/* Writes path unless it holds text already; *changed is set if written. */
static int put(const char *path, const char *text, bool *changed)
{
	char *old = NULL;
	size_t len;

	if (is_file(path) && read_file(path, MAIL_MAX_FILE, &old, &len) == 0 &&
	    len == strlen(text) && !memcmp(old, text, len)) {
		g_free(old);
		return 0;
	}
	g_free(old);
	*changed = true;
	return write_file_atomic(path, text, strlen(text));
}

/*
 * The files into vT: a new version appears by one rename of a staging
 * directory; a draft is updated file by file, only what differs, and
 * loses the patch files the branch no longer has. The cover of a draft
 * waits for the changelog (write_cover()).
 */
static int write_version(struct rec *r, GPtrArray *files, bool *changed)
{
	char *vdir = series_version_dir(r->s, r->target);
	int ret = 0;

	if (!r->in_place) {
		/* the staging directory's mode is the umask's, as v1's */
		int dfd = open(r->s->dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW |
					  O_CLOEXEC);
		char *name = dfd < 0 ? NULL :
				       mkdtemp_at(dfd, r->s->dir, ".record-");
		char *tmp, *vname;

		if (!name) {
			if (dfd < 0)
				error_errno("cannot open '%s'", r->s->dir);
			else
				close(dfd);
			g_free(vdir);
			return -1;
		}
		tmp = g_build_filename(r->s->dir, name, NULL);
		for (guint i = 0; i < files->len && !ret; i++) {
			struct out_file *f = files->pdata[i];
			char *p = g_build_filename(tmp, f->name, NULL);

			ret = write_file_atomic(p, f->text, strlen(f->text));
			g_free(p);
		}
		vname = g_path_get_basename(vdir);
		if (!ret && renameat(dfd, name, dfd, vname) < 0)
			ret = error_errno("cannot create '%s'", vdir);
		if (ret)
			remove_tree(tmp);
		close(dfd);
		g_free(vname);
		g_free(name);
		g_free(tmp);
		*changed = true;
		g_free(vdir);
		return ret;
	}
	for (guint i = 0; i < files->len && !ret; i++) {
		struct out_file *f = files->pdata[i];
		char *p = g_build_filename(vdir, f->name, NULL);

		if (posting_file_kind(f->name) != POSTING_COVER)
			ret = put(p, f->text, changed);
		g_free(p);
	}
	{
		GPtrArray *old = series_patch_files(r->s, r->target, false);

		for (guint i = 0; i < old->len && !ret; i++) {
			char *base = g_path_get_basename(old->pdata[i]);
			bool keep = false;

			for (guint k = 0; k < files->len && !keep; k++)
				keep = !strcmp(base, ((struct out_file *)
						      files->pdata[k])->name);
			if (!keep) {
				*changed = true;
				if (unlink(old->pdata[i]) < 0)
					ret = error_errno("cannot remove '%s'",
							  (char *)old->pdata[i]);
			}
			g_free(base);
		}
		g_ptr_array_unref(old);
	}
	g_free(vdir);
	return ret;
}

/* The changelog, now that vT is in the store, into the cover letter. */
static int write_cover(struct rec *r, GPtrArray *files, bool *changed)
{
	GPtrArray *items = g_ptr_array_new_with_free_func(
		(GDestroyNotify)fb_item_free);
	struct out_file *cover = files->pdata[0];
	char *link = NULL, *fb = NULL, *block = NULL, *text, *dir, *path;
	GString *b = g_string_new(NULL);
	int ret;

	if (r->prev && work_version_posted(r->s, r->prev))
		link = g_strdup_printf("%s%s", LORE_URL,
				       series_version_get(r->s, r->prev,
							  "message-id"));
	ret = format_load_feedback(r->s, r->target, items);
	/* a changed patch's review tags were not collected: dropped */
	for (guint i = 0; !ret && i < items->len; i++) {
		const struct fb_item *it = items->pdata[i];

		if (!strcmp(it->kind, "trailer") && it->trailer &&
		    is_review_tag(it->trailer) && it->patch > 0 &&
		    g_hash_table_contains(r->changed,
					  GUINT_TO_POINTER((guint)it->patch)))
			g_ptr_array_remove_index(items, i--);
	}
	if (!ret)
		fb = format_draft_changes(items, r->target, link);
	g_string_append(b, r->changes->str);
	if (fb && strchr(fb, '\n'))
		g_string_append(b, strchr(fb, '\n') + 1);
	if (b->len)
		block = g_strdup_printf("Changes in v%d:\n%s", r->target, b->str);
	text = fill_cover(r, cover->text, block);
	dir = series_version_dir(r->s, r->target);
	path = g_build_filename(dir, cover->name, NULL);
	if (!ret)
		ret = put(path, text, changed);
	g_free(path);
	g_free(dir);
	g_free(text);
	g_free(block);
	g_free(fb);
	g_free(link);
	g_string_free(b, TRUE);
	g_ptr_array_unref(items);
	return ret;
}

static int set_conf(struct rec *r, const char *name, const char *value,
		    bool *changed)
{
	const char *old = series_version_get(r->s, r->target, name);

	if (old && !strcmp(old, value))
		return 0;
	*changed = true;
	return series_version_set(r->s, r->target, name, value);
}

static int unset_conf(struct rec *r, const char *name, bool *changed)
{
	if (!series_version_get(r->s, r->target, name))
		return 0;
	*changed = true;
	return series_version_unset(r->s, r->target, name);
}

static char *user_ident(const char *tree)
{
	const char *argv[] = { "git", "var", "GIT_COMMITTER_IDENT", NULL };
	char *id = git_line(tree, argv), *gt;

	if (id && (gt = strrchr(id, '>')))
		gt[1] = '\0';
	return id;
}

int record_branch(struct series *s, const char *tree, const char *branch)
{
	struct rec r = { .s = s, .tree = tree, .branch = branch };
	GPtrArray *files = g_ptr_array_new_with_free_func(
		(GDestroyNotify)out_file_free);
	bool changed = false;
	int ret = -1;

	r.commits = g_ptr_array_new_with_free_func(g_free);
	r.prevs = g_ptr_array_new_with_free_func((GDestroyNotify)prev_patch_free);
	r.changes = g_string_new(NULL);
	r.changed = g_hash_table_new(NULL, NULL);
	pick_target(&r);
	r.ident = user_ident(tree);
	/* every refusal comes before anything is written */
	if (!r.ident || read_branch(&r) < 0 || read_prev(&r) < 0 ||
	    read_trailers(&r) < 0 || read_cover(&r) < 0 || rebuild(&r) < 0 ||
	    format_files(&r, files) < 0)
		goto out;
	if (!files->len || !starts_with(((struct out_file *)files->pdata[0])->name,
					"0000-cover-letter")) {
		error("git format-patch wrote no cover letter");
		goto out;
	}
	/*
	 * Ours: the sender writes it at format time, under the identity
	 * format resolves then; the store names no one (the patches keep
	 * their commits' authors).
	 */
	if (write_version(&r, files, &changed) < 0 ||
	    set_conf(&r, "origin", "ours", &changed) < 0 ||
	    unset_conf(&r, "author", &changed) < 0)
		goto out;
	/* series_set() wrote series.conf: the feedback code reads it */
	{
		char *name = g_strdup(s->name);

		series_release(s);
		ret = series_load(name, s);
		g_free(name);
		if (ret < 0)
			goto out;
	}
	ret = write_cover(&r, files, &changed);
	if (!ret && changed)
		printf("%s v%d: recorded from %s (%u patch%s%s)\n", s->name,
		       r.target, branch, r.commits->len,
		       r.commits->len == 1 ? "" : "es",
		       r.in_place ? ", the unsent draft updated" : "");
	else if (!ret)
		printf("%s v%d: unchanged\n", s->name, r.target);
	if (!ret && changed && r.changes->len)
		fputs(r.changes->str, stdout);
out:
	g_ptr_array_unref(files);
	rec_release(&r);
	return ret;
}
