/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KSERIES_FEEDBACK_H
#define KSERIES_FEEDBACK_H

#include <stdbool.h>
#include <glib.h>
#include <jansson.h>

#include "series.h"

/*
 * Tracked review feedback (DESIGN.md §2, §5): one plain-text record per
 * comment or trailer under series/<name>/feedback/<ID>, mail-like:
 *
 *   Id: 3f0c2a9e41b7
 *   Kind: comment                      (or trailer)
 *   Version: 2                         the version it was given on
 *   Message-Id: <reply@host>
 *   Index: 2                           the nth comment of that reply
 *   From: Carlos Llamas <cmllamas@google.com>
 *   Date: 2026-07-23T18:31:05+00:00
 *   Patch: <patch@host>                its target (may be absent here)
 *   Patch-Index: 1                     k of [PATCH k/n]
 *   Patch-Kind: patch                  or cover
 *   Patch-Subject: rust_binder: add TF_DEFER_COMPLETE flag …   (the title)
 *   File: drivers/android/binder/thread.rs     inline comments only
 *   Side: new
 *   Line: 600
 *   Quote: +            thread_has_deferred_work = …
 *   Trailer: Reviewed-by: Alice Ryhl <aliceryhl@google.com>   trailers
 *   Scope: patch
 *   Applies-To: <patch@host>           (repeated)
 *   Quoted-In: <reply@host>            review recovered from a quote of
 *                                      an absent message (review.h)
 *   Status: wontfix                    the author's override, if any
 *   Note: …                            with it
 *
 *   the comment's text
 *
 * The ID is the first 12 hex digits of SHA-1("<message-id>\n<kind>\n<n>"),
 * so ingesting the same mbox twice writes the same records; a record is
 * rewritten only when its bytes change, and Status/Note are kept. Header
 * values come from mail and are made single-line (control characters
 * become spaces); nothing in a record is used as a file name but the ID.
 */

/*
 * The size limits of a record, the same for the writer and the readers:
 * a record is at most FEEDBACK_MAX_RECORD bytes. feedback_format() keeps
 * to it: a header value is cut to FEEDBACK_MAX_VALUE bytes, Applies-To
 * lines stop at half of FEEDBACK_MAX_HEADERS (about twenty other
 * headers fill at most the other half), and a text longer than
 * FEEDBACK_MAX_TEXT is cut, with a last line that says how much was
 * kept. So every record written reads back.
 */
#define FEEDBACK_MAX_RECORD (16u << 20)
#define FEEDBACK_MAX_VALUE (64u << 10)
#define FEEDBACK_MAX_HEADERS (3u << 20)
#define FEEDBACK_MAX_TEXT (12u << 20)

enum feedback_status {
	FB_OPEN,
	FB_ADDRESSED,		/* the anchored lines changed: pending the
				 * author's confirmation */
	FB_OUTDATED,		/* the patch or file is gone */
	FB_WONTFIX,		/* only by override */
	FB_UNKNOWN,		/* cannot tell (version not in the store) */
};

struct feedback_item {
	char *id;
	char *kind;		/* "comment" or "trailer" */
	int version;
	char *message_id;
	unsigned index;
	char *from;
	char *date;
	char *patch_id;		/* or NULL */
	int patch_index;	/* -1 unknown */
	char *patch_kind;	/* "patch", "cover", or NULL when unknown */
	char *patch_subject;	/* its title (without the [PATCH] tag), or NULL */
	char *file;		/* inline comments, else NULL */
	char side;		/* 'o' or 'n' */
	int line;
	char *quote;		/* or NULL */
	char *trailer;		/* trailers: "Kind: Name <email>" */
	char *scope;		/* trailers */
	GPtrArray *applies_to;	/* trailers: char * */
	char *quoted_in;	/* recovered from a quote in this reply */
	char *status;		/* the override, or NULL */
	char *note;		/* or NULL */
	char *text;		/* comment text ("" for trailers) */
};

void feedback_item_free(struct feedback_item *it);

/*
 * Serializes / parses a record; parse returns -1 on a malformed one
 * (and sets *out to NULL). feedback_format() keeps to the limits above.
 */
char *feedback_format(const struct feedback_item *it);
int feedback_parse(const char *buf, size_t len, struct feedback_item **out);

/* Every record of s, sorted by version, date, reply and index. */
int feedback_load(const struct series *s, GPtrArray *items);

/*
 * Ingests the review in the mbox at path into s's records: the stored
 * versions' patches give the targets their version. *written and *kept
 * count records changed and unchanged. Returns 0 or -1.
 */
int feedback_ingest(struct series *s, const char *path, unsigned *written,
		    unsigned *kept);

/*
 * The status of it at version (its own version or later), carried
 * through the pairing of the two versions' patches: the anchored lines
 * changed → addressed, unchanged → open, patch or file dropped →
 * outdated. An override wins.
 *
 * Pairing: `git range-diff` of both versions applied to series.base in
 * the kernel tree (apply.h), cached by content under
 * <cache>/results/feedback-range-diff/; patches it leaves unpaired, and
 * all of them when a version does not apply or there is no tree
 * (or KSERIES_NO_RANGE_DIFF is set), pair by subject, else by the
 * changed lines they share (Jaccard ≥ 0.5). "Anchored lines": the
 * +/- line itself, or for a context line the changes within three lines
 * of it in its hunk (else the whole hunk). A general comment on a patch
 * is addressed when the patch's message or changed lines differ; one on
 * the cover when any patch does. Trailers stay open while their patch
 * exists. *paired gets the patch index the item maps
 * to at version (-1 when none). ctx caches parsed versions between
 * calls: create with feedback_ctx_new(), free with feedback_ctx_free().
 */
struct feedback_ctx;
struct feedback_ctx *feedback_ctx_new(const struct series *s);
void feedback_ctx_free(struct feedback_ctx *ctx);
enum feedback_status feedback_status_at(struct feedback_ctx *ctx,
					const struct feedback_item *it,
					int version, int *paired);

/*
 * Which patches of version b are the same in substance as a patch of
 * version a: the same `git patch-id --stable` (the diff, whitespace and
 * line numbers aside; what kseries record carries review tags by). A
 * new array of int, one per patch of b in order (the cover not
 * counted): the position (1-based) in a of the patch it is, each
 * patch of a taken once; 0 when none. NULL when the store holds no
 * patch of a or of b.
 */
GArray *feedback_same_patches(struct feedback_ctx *ctx, int a, int b);

/*
 * The position (1-based, the cover not counted) of it's patch in its
 * own version, found as feedback_status_at() finds it (by Message-ID,
 * else by index: "[PATCH]" is the one patch of its version); 0 for the
 * cover; -1 when the store does not hold that patch.
 */
int feedback_item_position(struct feedback_ctx *ctx,
			   const struct feedback_item *it);

const char *feedback_status_name(enum feedback_status st);
/* Parses a status name accepted by resolve; -1 if unknown. */
int feedback_status_parse(const char *name);

/* Finds the record with this ID in any series; returns the series name. */
int feedback_find(const char *id, char **series_name, char **path);

/* The record as JSON, with its status at version. */
json_t *feedback_item_json(const struct feedback_item *it,
			   enum feedback_status st, int version, int paired);

#endif
