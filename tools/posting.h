/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KSERIES_POSTING_H
#define KSERIES_POSTING_H

#include <stdbool.h>
#include <stddef.h>

#include "patch.h"
#include "subject.h"

/*
 * Which mail of a posting is what (DESIGN.md §5), decided in one place
 * for import, review and the mail stage: a mail is a patch if its
 * subject carries a "[… PATCH …]" tag, is not a "Re:" (or kin), and its
 * decoded body has a diff (one patch_parse() finds); a cover is the
 * same without a diff; all else is a reply.
 */
enum posting_kind {
	POSTING_REPLY,
	POSTING_COVER,
	POSTING_PATCH,
};

/*
 * Classifies the mail of that subject and decoded body (body may be
 * NULL: no body, so no diff). subj gets the parsed subject (the
 * caller's: subject_release() it). When patch is not NULL it is
 * patch_init()ed here and, for a patch, holds the body's diffs (the
 * caller releases it either way).
 */
enum posting_kind posting_classify(const char *subject, const char *body,
				   size_t len, struct subject *subj,
				   struct patch *patch);

/*
 * The place of a patch or cover in its version: the k of "k/n"; a lone
 * patch without "k/n" ("[PATCH] x", "[PATCH v2] x") is 1 of 1, a cover
 * 0. A reply's is what its subject says.
 */
int posting_index(enum posting_kind kind, const struct subject *subj);

/*
 * The kind of a file of a stored or formatted version by its name, as
 * git format-patch names them: "0000-cover-letter.patch" (any
 * "0000-…") is the cover, "NNNN-…" with NNNN >= 1 a patch, anything
 * else (thread.mbox) holds replies.
 */
enum posting_kind posting_file_kind(const char *name);

/* "patch", "cover" or "reply". */
const char *posting_kind_name(enum posting_kind kind);

#endif
