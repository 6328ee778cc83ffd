// SPDX-License-Identifier: GPL-2.0-only
/*
 * report-json.c - check --json: the checked versions as one JSON array
 * of check_version()'s objects, each stage as stage_result_to_json()
 * gives it.
 */
#include <stdio.h>
#include <stdlib.h>

#include "report.h"
#include "banned.h"

void report_json_print(json_t *results)
{
	char *text = json_dumps(results, JSON_INDENT(2));

	printf("%s\n", text);
	free(text);
}
