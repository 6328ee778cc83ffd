/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KSERIES_THREAD_H
#define KSERIES_THREAD_H

#include <stdbool.h>
#include <glib.h>

/*
 * In-Reply-To/References threading (RFC 5322 3.6.4), reduced to the one
 * question review asks: which patch or cover letter is a reply about?
 *
 * A message's parent is its In-Reply-To, else the last of its References.
 * The target of a reply is the nearest patch or cover up that chain. When
 * the chain leaves the mbox (a parent that is not in it), the older
 * References of the reply are tried, newest first, so that a reply to a
 * missing reply to a present patch still finds the patch. When no patch
 * or cover is found at all, the target is the In-Reply-To (else the last
 * reference) and is reported as absent: the mbox holds only replies to a
 * patch posted elsewhere.
 *
 * Loops (a message that is its own ancestor) and chains longer than
 * THREAD_MAX_DEPTH are cut.
 */
#define THREAD_MAX_DEPTH 1000

enum thread_kind {
	THREAD_REPLY,
	THREAD_PATCH,
	THREAD_COVER,
};

struct thread {
	GHashTable *nodes;	/* message-id → struct thread_node * */
};

void thread_init(struct thread *t);
void thread_release(struct thread *t);

/*
 * Adds a message. Strings are copied; references may be NULL. A second
 * message with the same id is ignored (the first one wins, as in mbox
 * order). Returns false when id is NULL or a duplicate.
 */
bool thread_add(struct thread *t, const char *id, enum thread_kind kind,
		const char *in_reply_to, const GPtrArray *references);

/*
 * The nearest patch or cover up id's chain, borrowed from t or from the
 * message's own headers; NULL when id has no parent at all. *present is
 * set to whether the returned message is in t.
 */
const char *thread_target(const struct thread *t, const char *id,
			  bool *present);

#endif
