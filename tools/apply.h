/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KSERIES_APPLY_H
#define KSERIES_APPLY_H

#include <stdbool.h>
#include <glib.h>

/*
 * Applying a version's patches to the base tree as commits, without a
 * checkout: a private index (GIT_INDEX_FILE), `git apply --cached` per
 * patch, write-tree, commit-tree with the mail's author, date and
 * message (from `git mailinfo`, as `git am` takes them). The committer
 * is set to the author, so the same patches on the same base give the
 * same commit ids on every machine: they serve as cache keys.
 */

struct applied {
	char *base;		/* the base commit id */
	GPtrArray *commits;	/* char *, one per applied patch, in order */
	int failed;		/* index (0-based) of the patch that did not
				 * apply, -1 when all did */
	bool three_way;		/* some patch needed the 3-way fallback */
	GString *log;		/* what git said, for reports */
};

void applied_init(struct applied *a);
void applied_release(struct applied *a);

/*
 * Applies files (format-patch mails, in order) onto rev (a tag or commit)
 * in repo. Returns 0 when every patch applied, -1 otherwise (an error is
 * printed unless quiet; a->failed and a->log say which and why).
 */
int apply_series(const char *repo, const char *rev, GPtrArray *files,
		 bool quiet, struct applied *a);

/* Resolves rev to a full commit id in repo; new string or NULL. */
char *resolve_commit(const char *repo, const char *rev);

#endif
