/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KSERIES_LORE_H
#define KSERIES_LORE_H

#include <stdbool.h>
#include <glib.h>

/*
 * A public-inbox server (the software lore.kernel.org runs), over HTTP
 * with libcurl; its mboxes come gzipped and are inflated with zlib.
 *
 *   thread:  BASE + MSGID + "/t.mbox.gz"          (GET)
 *   search:  BASE + "?x=m&t=1&q=" + QUERY          (POST: public-inbox
 *            answers a GET with an HTML page, a POST with the matching
 *            messages' threads as one gzipped mbox, 404 when none)
 *
 * Every transfer is bounded: LORE_CONNECT_TIMEOUT seconds to connect,
 * $KSERIES_FETCH_TIMEOUT (default LORE_TIMEOUT) seconds in all, at most
 * LORE_MAX_GZ bytes on the wire and LORE_MAX_MBOX inflated. On a terminal
 * a progress line says what is fetched (progress.h).
 */
#define LORE_CONNECT_TIMEOUT 10
#define LORE_TIMEOUT 120
#define LORE_MAX_GZ (64u << 20)
#define LORE_MAX_MBOX (512u << 20)

/*
 * The server's base URL, ending in '/': $KSERIES_LORE, else git config
 * kseries.lore, else https://lore.kernel.org/all/. Only http and https
 * are accepted; NULL with an error otherwise. Caller frees.
 */
char *lore_base(void);

/* BASE + msgid (without <>, percent-encoded) + "/t.mbox.gz"; new. */
char *lore_thread_url(const char *base, const char *msgid);

/* BASE + "?x=m&t=1&q=" + query (form-encoded); new. */
char *lore_search_url(const char *base, const char *query);

/*
 * Fetches url (POST with an empty body when post) and inflates the
 * gzipped answer into out. Returns 0, 1 when the server answered 404
 * (nothing there; out empty), or -1 with one error printed: the server
 * cannot be reached, another HTTP status, a timeout, a truncated or
 * oversized answer, bad gzip.
 */
int lore_get_mbox(const char *url, bool post, GString *out);

/* Inflates a whole gzip stream; -1 with an error when bad or over max. */
int lore_gunzip(const char *buf, size_t len, size_t max, const char *name,
		GString *out);

#endif
