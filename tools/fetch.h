/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KSERIES_FETCH_H
#define KSERIES_FETCH_H

#include <glib.h>

#include "series.h"

/*
 * New replies, and newer postings, of a series from a public-inbox
 * server (lore.h). In two steps, so that nothing is written unless
 * everything could be fetched:
 *
 *   fetch_plan()   downloads each posted version's thread and searches
 *                  for a later posting; writes nothing;
 *   fetch_apply()  appends the new messages to vN/thread.mbox (by
 *                  Message-ID, never twice; the whole file rewritten
 *                  atomically) and ingests them as feedback, together
 *                  with the version's patch mails as the server has
 *                  them (the files we wrote may lack their Message-IDs).
 *
 * A posted version is one with a vN/ directory and a Message-ID that
 * was not made up (work_version_posted()). A thread the
 * server does not have (404) is no error: nothing is learnt from it.
 *
 * The later posting: the server is searched, as b4 does, with
 *   (nq:"change-id: CID" OR s:"TITLE") AND d:YYYYMMDD..
 * (b4 also requires the same sender; someone else's posting is what we
 * look for, so we do not), and the newest [PATCH vM] above every stored
 * version whose body carries the change-id or, failing that, whose
 * title is the series' title, wins; its thread is fetched and cut to the
 * messages of vM (its patches and the replies below them), ready for
 * the import code.
 */
struct fetch_thread {
	int version;
	char *path;		/* vN/thread.mbox */
	GString *content;	/* its new content, when anything is new */
	GString *postings;	/* the version's own mails as the server
				 * has them: what replies quote, for the
				 * ingest (not kept in thread.mbox) */
	unsigned replies;	/* new messages */
};

struct fetch_plan {
	struct series *s;	/* borrowed */
	GPtrArray *threads;	/* struct fetch_thread * */
	int newer_version;	/* 0 when none was found */
	GString *newer_mbox;	/* its messages, mboxrd */
};

void fetch_plan_init(struct fetch_plan *p);
void fetch_plan_release(struct fetch_plan *p);

/* Fills p for s from the server at base; -1 with one error printed. */
int fetch_plan(struct series *s, const char *base, struct fetch_plan *p);

/* True when the plan would change nothing. */
bool fetch_plan_empty(const struct fetch_plan *p);

/* What fetch_apply() learnt for one version. */
struct fetch_count {
	int version;
	unsigned replies, comments, trailers;
};

/*
 * Writes p's threads and ingests them as feedback; appends one
 * struct fetch_count per version that got something to counts.
 */
int fetch_apply(struct fetch_plan *p, GArray *counts);

/*
 * Ingests vN/thread.mbox of s (after an import) and counts what is new,
 * as fetch_apply() does.
 */
int fetch_ingest_version(struct series *s, int version,
			 struct fetch_count *count);

#endif
