/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KSERIES_ANCHOR_H
#define KSERIES_ANCHOR_H

#include <stdbool.h>
#include <stddef.h>
#include <glib.h>

#include "patch.h"

/*
 * Quoted reply text → a line of the patch it quotes (DESIGN.md §5).
 *
 * A reviewer quotes part of the diff ("> +\tfoo();") and writes below it.
 * Each quoted line, with its quote markers removed, is matched against
 * the diff lines of the target patch by marker ('+', '-', else context)
 * and text, ignoring all whitespace: mailers turn tabs into spaces,
 * re-indent, and strip trailing blanks.
 *
 * Quotes are read in order, so the matcher keeps a cursor: a quoted line
 * that occurs several times in the diff ("+}", " {") is taken at its
 * first occurrence after the previous match. Lines that say little once
 * whitespace is gone (two characters or fewer, e.g. "+}" or a blank
 * context line) only match within ANCHOR_WEAK_WINDOW lines after the
 * cursor, so that a lone quoted brace does not jump across the patch. A
 * quoted "diff --git" or "@@ -a,b +c,d @@" line moves the cursor to that
 * file or hunk. Quoted lines without a diff marker (commit message text,
 * or a context line whose leading space the mailer ate) only match the
 * next context lines after the cursor.
 */
#define ANCHOR_WEAK_WINDOW 8

struct anchor {
	bool set;
	unsigned line_index;	/* into patch.lines */
	const char *file;	/* b-side path, borrowed from the patch */
	char side;		/* 'o' old ('-' lines), 'n' new otherwise */
	int line;		/* that side's line number */
};

struct anchor_state {
	const struct patch *p;
	GHashTable *index;	/* normalized key → GArray of guint */
	long cursor;		/* last matched patch line, -1 before any */
	long file;		/* file named by a quoted header, -1 if none */
};

/* p is borrowed and must outlive st. */
void anchor_init(struct anchor_state *st, const struct patch *p);
void anchor_release(struct anchor_state *st);

/* Forgets the cursor: a new message starts. The index is kept. */
void anchor_reset(struct anchor_state *st);

/*
 * Feeds one quoted line (quote markers already removed). Returns true
 * and fills *a when it matches a diff line of the patch.
 */
bool anchor_feed(struct anchor_state *st, const char *line, size_t len,
		 struct anchor *a);

/*
 * The key a line is matched by: its marker ('+', '-' or ' ') followed by
 * its text without any whitespace. Returns a new string.
 */
char *anchor_key(char marker, const char *text, size_t len);

#endif
