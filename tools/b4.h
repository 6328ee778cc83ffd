/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KSERIES_B4_H
#define KSERIES_B4_H

#include <stdbool.h>
#include <glib.h>

#include "series.h"

/*
 * b4 prep branches and `b4 send` (as b4 0.12 knows them).
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
 *
 * b4_send() runs `b4 send` on that branch and reads what b4 reports:
 * "Converted the branch to N messages", "Sent N messages" (or, with
 * --dry-run, "DRYRUN: Would have sent N messages"), and what it records
 * after a real send (b4's reroll()): the cover letter's Message-ID in the
 * tracking data's series.history["vN"] and the annotated tag
 * sent/NAME-vN, whose tagger date is the time of the send.
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

struct b4_send_opts {
	bool dry_run, no_sign;
	const GPtrArray *to, *cc;	/* const char *, extra recipients */
};

struct b4_sent {
	unsigned converted;	/* "Converted the branch to N messages" */
	unsigned sent;		/* "Sent N messages" / "Would have sent" */
	char *message_id;	/* series.history["vN"]'s last, no <> */
	char *tag;		/* "sent/NAME-vN" */
	char *date;		/* the tag's tagger date, RFC 2822 */
	GString *log;		/* b4's output, stdout and stderr */
};

void b4_sent_init(struct b4_sent *r);
void b4_sent_release(struct b4_sent *r);

/*
 * Runs `b4 send` on b's branch in b's worktree, with the user's b4 and
 * sendemail configuration and the sender's user.name/user.email, and
 * fills r from what b4 reports. A real send succeeds only when b4 exits
 * 0, says it sent every message it converted, and has recorded the
 * Message-ID and made the sent tag; a tag sent/NAME-vN that exists before
 * is refused before anything is sent (b4 would not record the send).
 * Returns 0, or -1 with one error printed (quoting b4's last line).
 */
int b4_send(const struct b4_branch *b, const struct b4_send_opts *o,
	    struct b4_sent *r);

/*
 * Pieces exposed for tests. b4_count(): the N of the last line of log
 * that starts with what (then " N messages"), or 0. b4_history_msgid():
 * from a cover commit message with b4's tracking data, the last
 * Message-ID of series.history["v<version>"] (new string) or NULL.
 */
unsigned b4_count(const char *log, const char *what);
char *b4_history_msgid(const char *msg, int version);

#endif
