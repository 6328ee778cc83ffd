/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KSERIES_FORMAT_TRAILERS_H
#define KSERIES_FORMAT_TRAILERS_H

#include <glib.h>

struct series;

/*
 * The trailers of a patch as `kseries format` mails it (DESIGN.md §6,
 * HACKING.md "Identity"). A version we write stores no sign-off: at
 * format time each commit message gets the trailers collected in review
 * (b4 trailers -u: given on this version or an earlier one, to the
 * patch or to the series), then the "Assisted-by:" lines of
 * version.N.assisted-by, then the sender's Signed-off-by, once and last,
 * as `git format-patch -s` adds it. A posted trailer already in the
 * message is not added again; a Signed-off-by of a placeholder address
 * is nobody's and is dropped.
 */

/*
 * msg is a commit message; trailers are "Key: value" lines. As b4 does
 * (LoreMessage.fix_trailers): the message's trailers keep their order,
 * each new trailer not already present (same key and value,
 * case-insensitively) is appended after them, and own ("Signed-off-by:
 * <identity>"; identity may be NULL) moves to the bottom when present;
 * a Signed-off-by of a placeholder address (ident_is_placeholder()) is
 * dropped: nobody can give it. Returns a new string; *added (may be
 * NULL) counts the trailers added.
 */
char *format_add_trailers(const char *msg, const GPtrArray *trailers,
			  const char *identity, unsigned *added);

/*
 * msg as mailed for the sender identity ("Name <addr>"): review's
 * trailers (may be NULL), then assisted's "Assisted-by:" lines (may be
 * NULL), then the sender's sign-off, once and last
 * (format_add_trailers()). New string; *added as there.
 */
char *format_mailed_trailers(const char *msg, const GPtrArray *review,
			     const GPtrArray *assisted, const char *identity,
			     unsigned *added);

/*
 * Which of the review's trailers (items: struct fb_item *, format.h) go
 * to which patch of version (b4 trailers -u): those given on this
 * version or an earlier one, on the patch they pair with here
 * (feedback.h; by title when unpaired), those given to the cover or for
 * the series to every patch. titles->pdata[k] (char *) is the title of
 * patch k + 1; its trailers are appended, each once, to the GPtrArray
 * (of char *) per_patch->pdata[k]. Nacked-by is never applied, nor a
 * trailer whose patch is gone or not in this version: each of those is
 * a line in notes ("not applied: …").
 */
void format_collect_trailers(const GPtrArray *items, int version,
			     const GPtrArray *titles, GPtrArray *per_patch,
			     GPtrArray *notes);

/*
 * The Assisted-by: lines of version ("version.N.assisted-by", each value
 * in coding-assistants.rst's form "AGENT_NAME:MODEL_VERSION [TOOL...]"),
 * as a new array; NULL with an error printed when a value is not in
 * that form.
 */
GPtrArray *format_assisted_by(const struct series *s, int version);

#endif
