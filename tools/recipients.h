/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KSERIES_RECIPIENTS_H
#define KSERIES_RECIPIENTS_H

#include <stdbool.h>
#include <glib.h>

#include "series.h"

/*
 * Who a version is mailed to. In order, each address once (compared
 * case-insensitively; an address in To is not repeated in Cc):
 *  1. series.conf's series.to / series.cc;
 *  2. the notes in <store>/MAINTAINERS-notes/ whose Paths: globs match a
 *     file the patches touch (their To:/Cc: lines);
 *  3. `scripts/get_maintainer.pl --no-rolestats --no-git
 *     --no-git-fallback PATCH…` run in the base tree when it has the
 *     script: people (entries with a name) go to To, lists (bare
 *     addresses) to Cc, as b4's --auto-to-cc splits them.
 */
struct recipients {
	GPtrArray *to;		/* char *, "Name <addr>" or "addr" */
	GPtrArray *cc;
	GPtrArray *prefixes;	/* Prefix: lines of the matching notes */
	GPtrArray *trees;	/* Tree: lines of the matching notes */
	GPtrArray *matched;	/* names of the notes that matched */
	GPtrArray *notes;	/* char *, what was skipped and why */
};

void recipients_init(struct recipients *r);
void recipients_release(struct recipients *r);

/*
 * Collects the recipients of the patch files (full paths) of a version of
 * s; tree is the base kernel tree or NULL. Returns 0, or -1 with an error
 * when a note cannot be read.
 */
int recipients_collect(const struct series *s, GPtrArray *files,
		       const char *tree, struct recipients *r);

/* A MAINTAINERS-notes header block. */
struct maint_note {
	char *name;
	GPtrArray *to, *cc, *lists, *trees, *prefixes, *paths;
};

/* Parses a note's header block (up to the first blank line). */
struct maint_note *maint_note_parse(const char *buf, size_t len,
				    const char *name);
void maint_note_free(struct maint_note *n);

/*
 * Reads every note of <store>/MAINTAINERS-notes/ (sorted by name) into
 * notes (struct maint_note *). Returns 0, or -1 when one cannot be read.
 */
int maint_notes_read(GPtrArray *notes);

/*
 * True if title ("locking/rtmutex: Stop ...") starts with one of the
 * prefixes ("locking/rtmutex:") up to the end of a component: a longer
 * path of the same prefix ("locking/ww_mutex/test:" for
 * "locking/ww_mutex:") counts too, and a prefix of several components
 * ("usb: gadget:") matches a title that has them ("usb: gadget: f_hid:
 * ...").
 */
bool maint_prefix_ok(const GPtrArray *prefixes, const char *title);

/* True if path matches one of the note's Paths: globs. */
bool maint_note_matches(const struct maint_note *n, const char *path);

/* The tree paths a patch mail touches (a/ and b/ sides), added to out. */
void recipients_touched(const char *mail, size_t len, GPtrArray *out);

/* The lower-cased addr-spec of "Name <addr>" or "addr"; new string. */
char *recipients_addr(const char *who);

/*
 * True if who is one recipient: "addr" or "Name <addr>", with one
 * addr-spec (local@domain, neither part empty, no space, quote, bracket,
 * comma, semicolon or colon in it, not starting with '-'), nothing after
 * the '>', no ',' or ';' in the name outside double quotes, and no
 * control character anywhere. What is not could carry a second
 * recipient past the dedup, a header, or an option to a mailer.
 */
bool recipients_addr_ok(const char *who);

/*
 * Adds who to list unless its address is in list or in also, or it is
 * not one recipient (recipients_addr_ok()). True when added.
 */
bool recipients_add(GPtrArray *list, const GPtrArray *also, const char *who);

#endif
