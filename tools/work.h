/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KSERIES_WORK_H
#define KSERIES_WORK_H

#include <stdbool.h>
#include <glib.h>

#include "series.h"

/*
 * A version as commits on a branch of the user's kernel tree, for
 * editing (kseries work), and the shared pieces kseries record reads
 * the branch back with.
 *
 * The branch is BASE, then b4's cover commit (b4 prep's "commit" cover
 * strategy: an empty commit whose message is the cover letter, then the
 * line "--- b4-submit-tracking ---", a comment line and the tracking
 * data as JSON: {"series": {"revision", "change-id", "base-branch",
 * "prefixes"}}), then one commit per patch with the mail's author, date
 * and message (committed now, by the user, as git am would). The
 * branch's config gets b4-prep-cover-strategy = commit, so that
 * `b4 prep` takes it for one of its own (tried with b4 0.12).
 */
#define WORK_B4_MARKER "--- b4-submit-tracking ---"

/*
 * The user's kernel tree: opt (-w), else git config kseries.tree, else
 * the repository of the current directory. Refused: the workbench's base
 * repository (kernel_tree()), and a repository holding the store. New
 * string, or NULL with an error printed.
 */
char *work_user_tree(const char *opt);

/* "kseries/NAME" unless branch is given; NULL with an error if bad. */
char *work_branch_name(const struct series *s, const char *branch);

/* True when tree has uncommitted changes (tracked files) or is mid-am. */
bool work_tree_dirty(const char *tree);

/*
 * Runs git with argv (argv[0] is "git") in dir, with env added and in
 * on stdin; stdout (when out) into *out. Returns 0, or -1 with git's
 * complaint printed.
 */
int work_git(const char *dir, const char *const *env, const char *in,
	     const char *const *argv, char **out);

/*
 * The base commit of s in tree: series.base resolved there, else fetched
 * from the workbench's base repository (saying so on stderr). New
 * string, or NULL with an error.
 */
char *work_base_commit(const struct series *s, const char *tree);

/*
 * Whether version was posted on the list with a Message-ID we can use:
 * it has one, and neither the version (origin "reconstructed") nor its
 * Message-ID (version.N.reconstructed naming it) was made up.
 */
bool work_version_posted(const struct series *s, int version);

/*
 * The revision b4 prepares on a branch made from version: the next one
 * when version was posted, version itself for an unsent draft.
 */
int work_b4_revision(const struct series *s, int version);

/*
 * The author of a raw commit (git cat-file commit) as GIT_AUTHOR_NAME=,
 * GIT_AUTHOR_EMAIL=, GIT_AUTHOR_DATE= strings (new), env[3] NULL.
 */
int work_author_env(const char *raw, char *env[4]);

/* b4's cover commit message for cover text of s at revision. New. */
char *work_cover_message(const struct series *s, const char *cover,
			 int revision);

/*
 * Writes version of s as the branch in tree and checks it out. Refused
 * with nothing touched: a dirty tree, a version without patches, a base
 * that cannot be had, patches that do not apply. Returns 0 or -1.
 */
int work_checkout(struct series *s, int version, const char *tree,
		  const char *branch);

#endif
