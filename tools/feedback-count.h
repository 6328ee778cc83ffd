/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KSERIES_FEEDBACK_COUNT_H
#define KSERIES_FEEDBACK_COUNT_H

#include <stdbool.h>

#include "series.h"

/*
 * The open-comment count of a series, kept with its feedback so that
 * list does not re-parse every version's mail: series/NAME/feedback-open,
 *
 *   Key: 5b0c…          what it was computed from (below)
 *   Version: 3          the latest version then
 *   Open: 2             comments of earlier versions still open at it
 *
 * written atomically in a store transaction (store.h) when the feedback
 * changes (feedback_ingest(), and so fetch) and by list when it is
 * missing or stale. The key is a SHA-1 over the state of every input
 * of feedback_status_at(): series.conf, each feedback record and each
 * version's patch files (name, size, modification and change times in
 * nanoseconds, inode), and whether range-diff can pair the versions
 * (the kernel tree, KSERIES_NO_RANGE_DIFF). A file written, renamed in,
 * removed or touched changes the key, so a count is never used for
 * inputs other than its own (an edit by hand, a git checkout, an
 * import of a new version, a resolve). The key names this checkout's
 * files, so the file is not tracked (.gitignore): a fresh clone
 * rebuilds it at the first list.
 */

/*
 * The open comments of s at its latest version: the kept count when
 * its key is current, else computed (feedback_status_at() over every
 * record) and kept. *unreadable is set when a record could not be read
 * (an error was printed for each; such a count is not kept) or the
 * count could not be kept (a symbolic link there is refused, never
 * written through). Returns the count.
 */
unsigned feedback_open_count(struct series *s, bool *unreadable);

/*
 * Computes and keeps the count (after the records changed). Returns 0,
 * or -1 after an error (the records could not all be read, or the file
 * could not be written).
 */
int feedback_open_update(struct series *s);

#endif
