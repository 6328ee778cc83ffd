/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KSERIES_VERSION_STATUS_H
#define KSERIES_VERSION_STATUS_H

#include <stdbool.h>
#include <jansson.h>

/*
 * What status shows of a version: each stage's last result as its file
 * results/<series>/v<N>/<stage>.json holds it (check-cache.h), read from
 * one summary per version, results/<series>/v<N>/version-status, instead
 * of one file per stage.
 *
 * The summary lives beside the results it summarises, in the workbench
 * cache: it is derived from them and owned by whoever owns them (check).
 * It is believed only while its key holds: its format, the kseries that
 * wrote it (its source id: another build may read results otherwise),
 * the series and version, the stage table, and for each stage the
 * identity of its result file as it was read (device, inode, size,
 * mtime and ctime, or its absence). Check replaces a result by a rename
 * (a new inode, a new ctime), so a changed, added or removed result
 * makes the summary stale; a stale or unreadable summary is never used:
 * the stage files are read instead, as before. The version's own files
 * are no input: status shows the last results whatever the version's
 * state, as it always did, and a changed version gets new results (and
 * a new summary) from its next check.
 */

struct version_stage {
	bool loaded;		/* its file held JSON: status shows the stage */
	char *status;		/* its "status" string, or NULL */
	json_t *json;		/* the whole result, with VERSION_STATUS_FULL */
};

struct version_status {
	unsigned n;			/* check_nr_stages */
	struct version_stage *st;	/* in check_stages[] order */
	bool from_summary;		/* read from the summary */
};

enum version_status_flags {
	/* each stage's whole result (report-html.c), not only its status */
	VERSION_STATUS_FULL = 1 << 0,
	/*
	 * When the summary was missing or stale and the files were read
	 * cleanly (each the same file before and after reading), write
	 * the summary of what was read: it names the files it was made
	 * from, so it can never be believed for others.
	 */
	VERSION_STATUS_KEEP = 1 << 1,
};

/*
 * The stage results of series' version into vs (released with
 * version_status_release()), from its summary when that is current,
 * else from the stage files. A version without results gives no loaded
 * stage. Prints nothing.
 */
void version_status_load(const char *series, int version, unsigned flags,
			 struct version_status *vs);
void version_status_release(struct version_status *vs);

/*
 * Reads the version's stage files and writes their summary (check, when
 * it finishes a version). 0, or -1 when it could not be made (an error
 * printed when writing failed).
 */
int version_status_write(const char *series, int version);

#endif
