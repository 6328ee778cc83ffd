/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KSERIES_STORE_H
#define KSERIES_STORE_H

#include <stdbool.h>
#include <stddef.h>
#include <glib.h>

/*
 * A store transaction: what one command writes into series/NAME (files,
 * new directories, series.conf edits) appears whole or not at all,
 * whoever else writes the store and wherever the command is killed.
 *
 *	struct store_txn t;
 *
 *	if (store_txn_begin(&t, name, "import") < 0)
 *		return -1;
 *	if (store_txn_write(&t, "v2/0001-foo.patch", buf, len) < 0 ||
 *	    store_txn_conf(&t, "version.2.origin", "posted", false) < 0 ||
 *	    store_txn_commit(&t) < 0) {
 *		store_txn_abort(&t);
 *		return -1;
 *	}
 *
 * begin() takes the store's lock (series/.kseries.lock, flock: one
 * writer at a time), removes the staging directories killed runs left
 * (series/.WHAT-XXXXXX, and series/NAME/.WHAT-XXXXXX of older versions
 * of kseries). New files are written in a staging directory of its
 * own, series/.WHAT-XXXXXX, made when the first one is.
 *
 * commit() then puts everything in place by renames: a new series by one
 * rename of the staging directory, a new directory (vN/, feedback/) by
 * one rename each, files into existing directories each by one rename
 * over the old (all synced once, then each directory once), and
 * series.conf last, since it is what makes a series. A crash leaves
 * each file old or new, each new directory absent or whole.
 *
 * Every write goes through directory descriptors (util.h): no symlink
 * in the store is followed. Paths (rel) are relative to series/NAME.
 * All functions print one error and return -1 on failure; the
 * transaction must then be aborted.
 */
struct store_txn {
	char *name;		/* the series */
	char *what;		/* names the staging directory */
	char *sdir;		/* <top>/series/<name>, for messages */
	char *stage;		/* the staging directory's name in series/,
				 * NULL until a file is staged */
	char *stage_path;	/* and its path */
	int lock;		/* series/.kseries.lock, flocked */
	int top;		/* series/ */
	bool exists;		/* series/NAME was there at begin() */
	GPtrArray *moves;	/* rel of staged entries renamed at commit */
	GHashTable *batches;	/* dir rel → struct write_batch * */
	GArray *kvs;		/* series.conf edits, in order */
	GPtrArray *files;	/* rel of the files staged, to sync */
};

int store_txn_begin(struct store_txn *t, const char *name, const char *what);

/*
 * Writes buf as the file rel: into the staging directory when rel's
 * directory is not there yet, else as a temporary file beside rel
 * (util.h write_batch); either way it appears at commit().
 */
int store_txn_write(struct store_txn *t, const char *rel, const char *buf,
		    size_t len);

/*
 * For files written as they are made (a thread that can be larger than
 * memory): a new file in the staging directory that becomes rel at
 * commit(). Returns its descriptor (the caller's: it writes and closes
 * it), or -1. store_txn_drop() gives up a file so made.
 */
int store_txn_create(struct store_txn *t, const char *rel);
int store_txn_drop(struct store_txn *t, const char *rel);

/* Writes all of buf to fd; for store_txn_create()'s descriptors. */
int store_write_all(int fd, const char *buf, size_t len, const char *name);

/*
 * Queues an edit of series.conf (series_set(), or series_add() when add),
 * applied at commit() after every file is in place.
 */
int store_txn_conf(struct store_txn *t, const char *key, const char *value,
		   bool add);
/* The same of version.VERSION.KEY (series_version_set()). */
int store_txn_version_conf(struct store_txn *t, int version, const char *key,
			   const char *value);

/* True when series/NAME/series.conf was there at begin(). */
bool store_txn_has_conf(const struct store_txn *t);

/*
 * Puts it all in place, removes the staging directory and releases the
 * lock. On failure what was not yet moved is left out; abort() then
 * cleans up.
 */
int store_txn_commit(struct store_txn *t);

/*
 * Removes what was staged and releases the lock; a no-op after a
 * successful commit(). Safe on a transaction whose begin() failed.
 */
void store_txn_abort(struct store_txn *t);

#endif
