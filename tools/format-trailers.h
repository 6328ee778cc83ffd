/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KSERIES_FORMAT_TRAILERS_H
#define KSERIES_FORMAT_TRAILERS_H

#include <glib.h>

struct fb_item;
struct series;

/*
 * The trailers of a patch as `kseries format` mails it (DESIGN.md §6,
 * HACKING.md "Identity"). A version we write stores no sign-off: at
 * format time each commit message gets the trailers collected in review
 * (b4 trailers -u: given on this version, or on an earlier one to the
 * patch it still is, to the patch or to the series:
 * format_trailer_targets()), then the "Assisted-by:" lines of
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
 * Which patches of version (n of them, titled titles->pdata[k], char *;
 * titles may be NULL) trailer it (struct fb_item, format.h) goes to,
 * by the kernel's rule (submitting-patches.rst: a tag is for the patch
 * a mail gave it to, and goes when that patch changes in substance):
 * - given on version: the patch the mail was a reply to (it->at; by
 *   its title when the store does not hold it), or every patch when
 *   given to the cover or for the series;
 * - given on an earlier version: each patch of version that is still
 *   the patch it was given for (it->same: the same git patch-id, as
 *   record carries tags), and for the series each patch still one of
 *   that version's; nothing when that version's patches are not in the
 *   store, for nothing can tell its patch did not change.
 * A one-patch version is no exception: its patch gets a tag of another
 * patch only when it is that patch. Nacked-by is never applied, nor a
 * trailer whose patch is gone (status outdated). The positions
 * (1-based) are appended to to; each trailer left out, or left off
 * some patches, is a line in notes (may be NULL), "not applied: …".
 * Returns how many positions were appended.
 */
guint format_trailer_targets(const struct fb_item *it, int version,
			     const GPtrArray *titles, guint n, GArray *to,
			     GPtrArray *notes);

/*
 * The review's trailers (items: struct fb_item *) for each patch of
 * version (b4 trailers -u, by format_trailer_targets()):
 * titles->pdata[k] (char *) is the title of patch k + 1; its trailers
 * are appended, each once, to the GPtrArray (of char *)
 * per_patch->pdata[k]; what is not applied is a line in notes.
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
