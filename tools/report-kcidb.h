/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KSERIES_REPORT_KCIDB_H
#define KSERIES_REPORT_KCIDB_H

#include <jansson.h>

#include "series.h"

/*
 * Check results as KCIDB v5.3, the I/O schema of KernelCI's common
 * database (kcidb-io): one checkout per checked version, the base commit
 * with the version's patches on it (patchset_hash over the patch files,
 * patchset_files and message_id when the version was posted, valid as
 * whether they applied); one build of it, to which the stages hang as
 * tests. A field kseries does not know is left out, never null, and a
 * local path is never given as a URL: logs travel as log_excerpt.
 *
 * Statuses: pass PASS; warn FAIL (findings against the code, which
 * KCIDB has no lesser word for); fail FAIL when a finding is an error,
 * else ERROR (the stage itself could not finish); skip SKIP, or MISS when
 * a tool the stage runs is not installed.
 */

/* A new, empty report (version 5.3, no objects). New reference. */
json_t *kcidb_new(void);

/*
 * Adds version of s, as check_version() returned it (checked), to the
 * report; nothing when its patches are not in the store. Reads the
 * version's patch files (for their hash and Message-IDs); runs nothing.
 */
void kcidb_add_version(json_t *report, const struct series *s, int version,
		       json_t *checked);

#endif
