/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KSERIES_REVIEW_H
#define KSERIES_REVIEW_H

#include <stdbool.h>
#include <stdio.h>
#include <glib.h>
#include <jansson.h>

#include "mail.h"
#include "patch.h"
#include "subject.h"
#include "thread.h"

struct anchor_state;

/*
 * Review extraction (DESIGN.md §5): from the mails of a thread, the
 * patches and covers, and from every reply its comments (anchored to a
 * line of the target patch when it quotes one) and its trailers.
 *
 * Whose words: a comment is only ever the writer's own (unquoted) text,
 * and in `comments` (the JSON of DESIGN.md §5) only the words of messages
 * in the mbox appear: text a replier quotes is never the replier's.
 * Review that reaches us only quoted (seed 003: Peter's and Steven's
 * criticism of the changelog, quoted in Mathieu's answer, their own
 * messages absent) is recovered apart, in `quoted`: the text written at
 * quote depth d is the words of the d-th message up the reply's chain
 * (References, In-Reply-To), when that message is absent, quotes deeper
 * still (so it is a reply, not the patch), and an attribution line
 * ("On …, Peter Zijlstra wrote:") names its writer; the address comes
 * from the recipients or the mbox's senders. Such comments carry the
 * absent message's id, the writer, and quoted_in (the reply quoting
 * them); quoted trailers never count. `feedback ingest` tracks them.
 *
 * Targets: when nothing of a reply's chain is in the mbox and it quotes
 * D levels deep, its innermost quote is the message that started the
 * discussion — the patch its subject names — and its id is the D-th up
 * the chain; otherwise the target is the In-Reply-To (thread.h).
 *
 * Segmentation, in order: the body is cut at the signature ("-- " at
 * depth 0) and at list footers; an Outlook "-----Original Message-----"
 * or "From:/Sent:/Subject:" header block either is dropped (when '>'
 * quotes follow) or starts the quoted original (top-posting). Lines are
 * then quoted (depth > 0) or own; in mails from a build bot, ">>" lines
 * are compiler output, not quotes. Each run of own lines between quoted
 * lines is one comment once attribution lines, greetings, closings and
 * the sender's name, trailers, "^^^" pointers and snip marks are removed;
 * runs left empty or only thanking are dropped.
 */

enum review_kind {
	REVIEW_REPLY,
	REVIEW_PATCH,
	REVIEW_COVER,
};

struct review_message {
	const struct mail *mail;	/* borrowed, or owned by the review
					 * when review_add() took it */
	char *id;		/* the Message-ID, or a made-up key
				 * ("<none-N>") when it has none */
	guint index;		/* in review.messages */
	enum review_kind kind;
	struct subject subj;
	struct patch patch;	/* the diff, for patches; empty while it is
				 * not loaded (see review_add()) */
	GPtrArray *files;	/* char *, the b-paths of the diff */
	struct anchor_state *anchors;	/* the diff's anchor index, built at
					 * the first reply to it */
	bool unloaded;		/* patch let go, to be read again */
	const char *target;	/* replies: the target's id (borrowed), or
				 * NULL when it has no parent */
	bool target_present;	/* the target is in the mbox */
	bool analysed;		/* its comments and trailers found: */
	GPtrArray *comments;	/* struct review_comment *, and */
	GPtrArray *trailers;	/* struct review_trailer *, until they
				 * join the review's (review_finish()) */
};

struct review_comment {
	const char *reply_id;	/* borrowed from the message */
	const char *author_name, *author_email;
	const char *patch_id;	/* target, or NULL */
	unsigned index;		/* the nth comment of its message, from 0 */
	bool is_inline;
	char *file;		/* b-side path, inline only */
	char side;		/* 'o' or 'n', inline only */
	int line;		/* inline only */
	char *quote;		/* the anchored diff line, marker first */
	char *text;
	const char *quoted_in;	/* recovered from a quote: the reply that
				 * quoted it (borrowed), else NULL */
	char *owned_name, *owned_email;	/* author_* of recovered ones */
};

enum review_scope {
	SCOPE_PATCH,
	SCOPE_SERIES,
	SCOPE_OTHER,
};

struct review_trailer {
	char *kind;
	char *name, *email;
	const char *given_in;	/* borrowed: the reply's id */
	enum review_scope scope;
	GPtrArray *applies_to;	/* char *, patch message ids */
};

enum review_flags {
	REVIEW_QUOTED = 1 << 0,	/* recover review from quotes (r->quoted) */
};

struct review {
	GPtrArray *messages;	/* struct review_message *, mbox order */
	GPtrArray *comments;	/* struct review_comment * */
	GPtrArray *trailers;	/* struct review_trailer * */
	GPtrArray *quoted;	/* struct review_comment *, recovered from
				 * quotes of absent messages (not in JSON);
				 * only with REVIEW_QUOTED */
	struct thread thread;
	GHashTable *by_id;	/* id → struct review_message * */
	unsigned flags;		/* enum review_flags */
	GHashTable *senders;	/* from_name → from_email, the first
				 * message's (borrowed) */
	GHashTable *in_series;	/* id → GPtrArray of the patches whose
				 * In-Reply-To or References name it */
	GPtrArray *owned;	/* the mails review_add() took */
	struct mail_reader *reader;	/* to read a patch again, or NULL */
	GQueue loaded;		/* struct review_message * whose patch was
				 * read again, oldest first */
	guint seen;		/* mails given to review_add(), duplicates
				 * included */
	bool failed;		/* a patch could not be read again */
};

/* A review that does everything (REVIEW_QUOTED). */
void review_init(struct review *r);
void review_init_flags(struct review *r, unsigned flags);
void review_release(struct review *r);

/*
 * Extracts the review of mails (struct mail *, borrowed: they must
 * outlive r). Messages with the same Message-ID after the first are
 * ignored. Never fails on malformed mail.
 */
void review_extract(struct review *r, const GPtrArray *mails);

/*
 * The same, a message at a time, for an mbox read with a mail_reader:
 * review_add() takes m (the review frees it) and keeps of it only what
 * the analysis needs: the headers, a reply's body, the paths of a
 * patch's diff. When reader is given (it must outlive r), the diffs are
 * let go too, and read again from the mbox when a reply needs one, a few
 * at a time; else they are kept. review_finish() analyses the replies;
 * it returns -1 with an error printed when a diff could not be read
 * again (the mbox changed meanwhile).
 */
void review_add(struct review *r, struct mail *m, struct mail_reader *reader);
int review_finish(struct review *r);

/* The message with this id, or NULL. */
struct review_message *review_find(const struct review *r, const char *id);

/* The JSON object of DESIGN.md §5; a new reference. */
json_t *review_to_json(const struct review *r);

/*
 * Writes review_to_json(r) (with the "quoted" array when quoted is set)
 * to out, as json_dumpf() with JSON_INDENT(2) | JSON_PRESERVE_ORDER and a
 * final newline would, but an element at a time: the whole tree is never
 * built. Returns 0, or -1 on a write error (errno set).
 */
int review_write_json(const struct review *r, bool quoted, FILE *out);

/*
 * The comments recovered from quotes (r->quoted) as a JSON array: the
 * fields of a §5 comment plus author_name and quoted_in.
 */
json_t *review_quoted_json(const struct review *r);

/*
 * The comment runs of one reply body, exposed for tests: each element of
 * out is a struct review_comment with text, is_inline and the anchor
 * filled (when p is not NULL), and trailers get struct trailer-like
 * review_trailer entries (given_in and applies_to left empty).
 */
void review_segment(const struct mail *m, const struct patch *p,
		    GPtrArray *comments, GPtrArray *trailers);

void review_comment_free(struct review_comment *c);
void review_trailer_free(struct review_trailer *t);

const char *review_scope_name(enum review_scope s);

#endif
