/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KSERIES_PATCH_H
#define KSERIES_PATCH_H

#include <stdbool.h>
#include <stddef.h>
#include <glib.h>

/*
 * Unified diffs as git and diff -u write them, found in a mail body:
 * the files (with a/b paths, renames, copies, new and deleted files,
 * binary changes) and, for every hunk line, its old and new line
 * numbers.
 *
 * Paths are data: they are kept as the diff spells them (C-quoted names
 * unquoted, "a/" and "b/" prefixes removed) and never used to open a
 * file. A struct patch owns one copy of the text it was parsed from;
 * every `text` pointer below borrows from it.
 *
 * Tolerated, deliberately: a blank line inside a hunk is a context line
 * (mailers strip the trailing space of " \n"); a hunk shorter than its
 * header says ends at the next line that cannot belong to it; CRLF line
 * ends. Lines after the last hunk (the signature, "base-commit:") are
 * not part of any file.
 */

struct patch_line {
	char kind;		/* ' ' context, '+' added, '-' removed */
	const char *text;	/* without the marker; borrowed */
	size_t len;
	int old_line;		/* number on the old side, 0 for '+' */
	int new_line;		/* number on the new side, 0 for '-' */
	unsigned file;		/* index into patch.files */
	unsigned hunk;		/* index into patch.hunks */
};

struct patch_hunk {
	int old_start, old_count;
	int new_start, new_count;
	unsigned file;
	unsigned first, nr;	/* its lines: patch.lines[first .. first+nr) */
};

struct patch_file {
	char *old_path;		/* "a" side, NULL for a new file */
	char *new_path;		/* "b" side, NULL for a deleted file */
	char *path;		/* the b-side name of `diff --git`, else the
				 * new path, else the old one; never NULL */
	bool is_new, is_deleted, is_rename, is_copy, is_binary;
	unsigned first_hunk, nr_hunks;
};

struct patch {
	char *buf;		/* the text, owned */
	size_t len;
	GPtrArray *files;	/* struct patch_file * */
	GArray *hunks;		/* struct patch_hunk */
	GArray *lines;		/* struct patch_line */
	size_t diff_start;	/* offset of the first diff line in buf */
};

void patch_init(struct patch *p);
void patch_release(struct patch *p);

/*
 * Parses the diffs found in text (a mail body or a .patch file; text
 * before the first diff is skipped). Returns the number of files found,
 * 0 when the text carries no diff. Never fails on malformed input.
 */
unsigned patch_parse(struct patch *p, const char *text, size_t len);

/* The file whose path (b-side or a-side) is path, or NULL. */
const struct patch_file *patch_find_file(const struct patch *p,
					 const char *path);

/*
 * Unquotes a git path: "\"a/t\\tb\"" → "a/t\tb" (C escapes, octal bytes),
 * and removes one leading prefix ("a/", "b/") when strip is set. A
 * trailing tab and timestamp (diff -u) are cut. Returns a new string.
 */
char *patch_unquote_path(const char *s, size_t len, bool strip);

#endif
