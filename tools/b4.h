/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KSERIES_B4_H
#define KSERIES_B4_H

#include <stdbool.h>
#include <glib.h>

#include "series.h"

/*
 * b4 prep branches (as b4 0.12 knows them).
 *
 * b4_branch_prepare() puts a version on a b4 prep branch that `b4 send`
 * sends, in a worktree of the base tree (made when missing):
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

struct b4_branch_opts {
	const char *spec;	/* "NAME" or "NAME@vN" */
	const char *worktree;	/* NULL: <cache>/wt/b4-NAME */
	const char *name;	/* the branch is b4/NAME; NULL: the series' */
	bool force;		/* replace an existing b4/NAME */
};

struct b4_branch {
	struct series series;	/* the series, loaded */
	int version;
	char *worktree;		/* absolute */
	char *name;
	char *branch;		/* "b4/NAME" */
	char *base;		/* the base commit */
	char *change_id;	/* or NULL */
};

void b4_branch_init(struct b4_branch *b);
void b4_branch_release(struct b4_branch *b);

/* True if name can be a b4 branch name: a safe component, no space. */
bool b4_branch_name_ok(const char *name);

/*
 * Makes the b4 prep branch of o->spec as above and fills b (release it
 * with b4_branch_release() whatever the result). Returns 0, or -1 with
 * one error printed: no base tree, the version cannot be formatted, the
 * worktree has uncommitted changes, b4/NAME exists without o->force, b4
 * or git failed.
 */
int b4_branch_prepare(const struct b4_branch_opts *o, struct b4_branch *b);

#endif
