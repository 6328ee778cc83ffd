/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KSERIES_FORMAT_H
#define KSERIES_FORMAT_H

#include <stdbool.h>
#include <stddef.h>
#include <glib.h>

#include "format-trailers.h"
#include "series.h"

/*
 * Mail formatting (DESIGN.md §6). A version is applied onto its base as
 * commits (apply.h); the trailers collected in review are added to each
 * commit message the way `b4 trailers -u` adds them; then `git
 * format-patch --cover-letter --cover-from-description=subject --base
 * --thread [--in-reply-to] --to --cc` writes the mails. What git does not
 * write is added afterwards, and only that: the "change-id:" line under
 * "base-commit:" (b4's form), and the text below "---" of each patch
 * (per-patch changelogs: git am drops them, so they are carried over from
 * the stored patch files, or drafted).
 *
 * The cover letter's subject and blurb reach git as a branch description
 * (through GIT_CONFIG_COUNT, nothing is written to the repository's
 * config): its first paragraph is the subject, the rest the blurb. The
 * blurb is the stored cover's (vN/0000-cover-letter.patch) when there is
 * one; "Changes in vN:" is drafted from the feedback addressed since
 * v(N-1) when the blurb has none, and ends with "- Link to v(N-1): ..."
 * as b4 writes it. A series of one patch gets no cover letter (as b4
 * sends it): its changelog, a stored cover's text among it, and its
 * links go below the patch's "---".
 *
 * Identity (ident.h): the sender writes the cover, authors the patches
 * whose author is the sender or a placeholder, names the Message-Ids
 * (git's form, the sender's address) and signs off every patch, once
 * and last, as `git format-patch -s` does; "Assisted-by:" lines
 * (version.N.assisted-by) go just above that sign-off (format-trailers.h).
 */

#define LORE_URL "https://lore.kernel.org/r/"

struct format_opts {
	const char *repo;	/* the base repository; NULL: kernel_tree() */
	int cover;		/* 1 always, 0 never, -1 when >1 patch or
				 * the version has a stored cover */
	bool thread;		/* --thread (and --in-reply-to) */
	const char *in_reply_to;	/* override the previous posting */
	bool recipients;	/* To/Cc from notes and get_maintainer.pl */
	bool trailers;		/* apply the trailers collected in review */
	const char *identity;	/* the sender, "Name <addr>": the cover's
				 * From:, the Message-Id domain, the author
				 * of the sender's patches, the sign-off
				 * added to every patch; NULL: ident.h's
				 * ident_sender() */
};

void format_opts_init(struct format_opts *o);

/* One mail file, as git named and wrote it (then completed). */
struct format_file {
	char *name;		/* "0001-binder-foo.patch" */
	GString *text;
};

struct formatted {
	char *base;		/* base commit id */
	GPtrArray *commits;	/* char *, with the trailers applied */
	GPtrArray *files;	/* struct format_file *, cover first */
	GPtrArray *to, *cc;	/* char *, "Name <addr>" */
	GPtrArray *added;	/* char *, "k: Trailer: value" added */
	GPtrArray *notes;	/* char *, what was left out and why */
	char *in_reply_to;	/* the msg-id threaded under, or NULL */
	char *change_id;
	char *title;		/* the cover's subject, without the tag */
	char *blurb;		/* the cover's text with its changelog, or,
				 * for one patch, the text below its "---" */
	char *prefix;		/* series.prefix ("RFC PATCH") */
	int version;
	bool cover;
};

void formatted_init(struct formatted *f);
void formatted_release(struct formatted *f);

/*
 * Formats version of s into f (nothing is written outside a temporary
 * directory). Returns 0, or -1 with one error printed: the version does
 * not exist, has no patches, a subject holds shell metacharacters, there
 * is no base tree, a patch does not apply, git failed.
 */
int format_version(struct series *s, int version,
		   const struct format_opts *o, struct formatted *f);

/*
 * The subject prefix the mails carry for series.prefix, in b4's order
 * (b4 writes "[PATCH RFC v2 1/3]": PATCH first, then the other words,
 * then the version), so that `kseries format` and a b4 prep branch
 * (kseries b4-branch, whose b4 prefixes are those other words) send the
 * same subjects. "RFC PATCH" → "PATCH RFC". New string.
 */
char *format_subject_prefix(const char *prefix);

/*
 * True if msgid was made up rather than posted: the store says so
 * (a version with that Message-ID has origin = reconstructed, or
 * "Message-ID" among its "reconstructed" fields) or it is in a domain
 * that takes no mail (@seeds.invalid).
 */
bool format_msgid_reconstructed(const struct series *s, const char *msgid);

/*
 * NULL if version can be mailed, else (a new string) the one line that
 * says why not: it is a reconstructed record, not a submission.
 */
char *format_version_record(const struct series *s, int version);

/*
 * Loads the series of spec ("NAME" or "NAME@vN"; the latest version when
 * none is given) into s and formats it into f; a record
 * (format_version_record()) is refused. On failure (error printed) s is
 * released. *version gets the version formatted.
 */
int format_spec(const char *spec, const struct format_opts *o,
		struct series *s, int *version, struct formatted *f);

/*
 * Writes f's files into dir (made when missing), each atomically. Refuses
 * a dir inside the store's series/ directory. Returns 0 or -1.
 */
int formatted_write(const struct formatted *f, const char *dir);

/* True if dir is, or would be created, inside <store>/series/. */
bool format_dir_in_store(const char *dir);

/* The pieces below are exposed for tests. */

/*
 * The sender check's own stages (checkpatch, mail) put on the stored
 * patches in place of the user's: fixed, so that their results and
 * cache keys do not depend on who runs check, and an address that is
 * nobody's yet not a placeholder (checkpatch and provenance would flag
 * one). It is never mailed: format and send use the real sender.
 */
#define FORMAT_CHECK_SENDER "Sender <sender@example.org>"

/*
 * A stored patch mail (mail, len) as format writes it for the sender
 * identity ("Name <email>"): a patch without From: gets the sender's,
 * and the message above "---" ends with the sender's Signed-off-by,
 * once and last (format_add_trailers()). New string.
 */
char *format_stored_as_mailed(const char *mail, size_t len,
			      const char *identity);

/*
 * The text between a patch mail's "---" line and its diffstat (or diff),
 * trimmed of blank lines at both ends; NULL when there is none. New.
 */
char *format_patch_notes(const char *mail, size_t len);

/*
 * The cover letter's blurb from a stored git format-patch cover: the body
 * up to the shortlog ("Name (N):") or b4's "---" before it. New string.
 */
char *format_cover_blurb(const char *body, size_t len);

/*
 * Adds "- Link to vP: url" at the end of the "Changes in vN:" list of
 * text, unless a link to vP is already there. New string.
 */
char *format_add_prev_link(const char *text, int version, const char *url);

/*
 * Feedback, as the formatter reads it: the records of feedback.h, with
 * their status at the version being formatted (an override wins) and the
 * patch of that version they map to.
 */
struct fb_item {
	char *id;
	int version;		/* the version it was given on */
	int patch;		/* patch index at the formatted version: 0 the
				 * cover or series, -1 none */
	char *patch_title;	/* the patch's title, when recorded */
	char *kind;		/* "comment" or "trailer" */
	char *status;		/* open, addressed, outdated, wontfix… */
	char *author;		/* "Name <addr>" */
	char *message_id;	/* the reply it came in, no brackets */
	char *file;
	int line;
	char *trailer;		/* "Reviewed-by: Name <addr>" */
	char *scope;		/* trailers: "patch", "series", "other" */
	char *text;		/* the body */
	/*
	 * Trailers, to tell which patch a mail gave them for (format_
	 * trailer_targets()): at, the position (1-based) of that patch in
	 * its own version, 0 the cover, -1 not in the store; same, for one
	 * given on an earlier version, feedback_same_patches() of that
	 * version and the formatted one (NULL when either has no patch in
	 * the store).
	 */
	int at;
	GArray *same;
};

void fb_item_free(struct fb_item *it);

/* Loads s's feedback given on versions up to version into items. */
int format_load_feedback(struct series *s, int version, GPtrArray *items);

/*
 * The "Changes in vN:" draft from items: the comments given on v(N-1)
 * and addressed since, each with its lore link, the trailers collected,
 * and "- Link to v(N-1): url" when url is known. New string, or NULL
 * when there is nothing to say.
 */
char *format_draft_changes(const GPtrArray *items, int version,
			   const char *prev_url);

/*
 * What the mails carry, as the mail stage (stage-mail.c) and the format
 * stage of check ask it.
 *
 * format_signed_off(): the message above a patch mail's "---" (its
 * commit message) has a "Signed-off-by: " line.
 *
 * format_has_changelog(): text (a cover's blurb, or the notes below a
 * patch's "---") has a changelog: a "Changes in vN:" (or kin: "Changes
 * since vN", "vN:", "Changelog") line followed by at least one entry
 * other than the "- Link to vN:" that the draft adds by itself.
 */
bool format_signed_off(const char *mail, size_t len);
bool format_has_changelog(const char *text);

#endif
