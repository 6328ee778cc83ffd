/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KSERIES_CHECK_B4_H
#define KSERIES_CHECK_B4_H

#include <stddef.h>
#include <jansson.h>

/*
 * b4's review-check protocol: b4 (b4.review-perpatch-check-cmd and
 * b4.review-series-check-cmd) runs a command with one message on stdin,
 * a patch or a cover letter, and reads a JSON array of
 * {tool, status: pass|warn|fail, summary, url, details} from its stdout;
 * [] means nothing to report.
 *
 * b4_locate() finds the stored version the message belongs to: by
 * Message-ID, else by its diff in a mail of the same version (the same
 * changes, whatever the mail around them), else, for a cover letter, by
 * version and title.
 * Returns 1 and fills *name (new), *version and *index (0: the cover
 * letter), 0 when no version in the store holds it, -1 with an error
 * printed on input that is not one message.
 */
int b4_locate(const char *raw, size_t len, char **name, int *version,
	      int *index);

/*
 * The protocol's array for patch index of a checked version (the object
 * check_version() returns): for a patch, the per-patch stages (apply,
 * format, checkpatch, build) judged by that patch's findings; for the
 * cover letter, every stage that ran, as the terminal shows it.
 * Skipped stages are left out. New reference.
 */
json_t *b4_report(json_t *checked, int index);

#endif
