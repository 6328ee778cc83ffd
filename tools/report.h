/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KSERIES_REPORT_H
#define KSERIES_REPORT_H

#include <jansson.h>

#include "check.h"

/*
 * The writers of check results: one per output form, chosen by
 * cmd-check.c. report-kcidb.h is the KCIDB one.
 */

/*
 * report-text.c: one stage's result as the terminal shows it, a line
 * (series, version, stage, status, findings, summary) and the first
 * finding below it; a check_opts report callback.
 */
void report_text_result(const struct check_ctx *ctx,
			const struct stage_result *r);

/* report-json.c: the checked versions (check_version()'s objects). */
void report_json_print(json_t *results);

/*
 * report-b4.c: the protocol's array for patch index of a checked
 * version (the object check_version() returns): for a patch, the
 * per-patch stages (CHECK_F_PER_PATCH) judged by that patch's findings,
 * apply by whether this patch applied (after those before it) or where
 * the series stopped; for the cover letter, every stage that ran, as
 * the terminal shows it. Skipped stages are left out. New reference.
 */
json_t *b4_report(json_t *checked, int index);
/* The same, printed on stdout. */
void report_b4_print(json_t *checked, int index);

#endif
