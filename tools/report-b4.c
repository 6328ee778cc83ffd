// SPDX-License-Identifier: GPL-2.0-only
/*
 * report-b4.c - check --b4's output form: a checked version's results
 * for one message, as b4's review-check protocol reads them (check-b4.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <glib.h>

#include "check.h"
#include "report.h"
#include "banned.h"

static bool is_per_patch(const char *stage)
{
	const struct check_stage *st = check_stage_find(stage);

	return st && (st->flags & CHECK_F_PER_PATCH);
}

/* "file:line: severity: message" lines of the findings for patch index. */
static char *details(json_t *findings, int index, bool *errors, bool *warnings)
{
	GString *d = g_string_new(NULL);
	size_t i;
	json_t *f;

	json_array_foreach(findings, i, f) {
		const char *file = json_string_value(json_object_get(f, "file"));
		const char *sev = json_string_value(json_object_get(f, "severity"));
		const char *msg = json_string_value(json_object_get(f, "message"));
		int line = (int)json_integer_value(json_object_get(f, "line"));
		int patch = (int)json_integer_value(json_object_get(f, "patch"));

		if (index && patch != index)
			continue;
		if (!strcmp(sev ? sev : "", "error"))
			*errors = true;
		else
			*warnings = true;
		if (line)
			g_string_append_printf(d, "%s:%d: %s: %s\n", file ? file : "",
					       line, sev ? sev : "", msg ? msg : "");
		else
			g_string_append_printf(d, "%s: %s: %s\n",
					       file && *file ? file : "series",
					       sev ? sev : "", msg ? msg : "");
	}
	return g_string_free(d, FALSE);
}

/*
 * The apply stage for patch index: a series applies patch by patch and
 * stops at the first that does not, so a patch before it applied, that
 * one did not, and those after it were not tried. Sets *status and
 * returns the summary (new).
 */
static char *apply_for_patch(json_t *st, int index, const char **status)
{
	const char *summary = json_string_value(json_object_get(st, "summary"));
	json_t *f;
	size_t i;
	int failed = 0;

	json_array_foreach(json_object_get(st, "findings"), i, f) {
		json_int_t patch = json_integer_value(json_object_get(f, "patch"));

		if (patch > 0 && !failed)
			failed = (int)patch;
	}
	if (strcmp(*status, "fail") || !failed) {
		/* applied (a 3-way fallback is not placed), or no patch tried */
		if (!strcmp(*status, "pass"))
			return g_strdup("applies to the base after the patches before it");
		return g_strdup(summary ? summary : "");
	}
	if (index < failed) {
		*status = "pass";
		return g_strdup_printf("applies to the base after the patches before it (patch %d does not)",
				       failed);
	}
	if (index > failed) {
		*status = "warn";
		return g_strdup_printf("not tried: patch %d before it does not apply",
				       failed);
	}
	return g_strdup(summary ? summary : "");
}

json_t *b4_report(json_t *checked, int index)
{
	json_t *out = json_array(), *st;
	size_t i;

	json_array_foreach(json_object_get(checked, "stages"), i, st) {
		const char *stage = json_string_value(json_object_get(st, "stage"));
		const char *status = json_string_value(json_object_get(st, "status"));
		const char *summary = json_string_value(json_object_get(st, "summary"));
		bool errors = false, warnings = false;
		char *tool, *text, *own = NULL;
		json_t *r;

		if (!stage || !status || !strcmp(status, "skip"))
			continue;
		if (index && !is_per_patch(stage))
			continue;
		text = details(json_object_get(st, "findings"), index, &errors,
			       &warnings);
		if (index && strcmp(stage, "apply")) {
			/* this patch's findings decide; a stage that failed
			 * without naming a patch fails every patch */
			if (!errors && !warnings && strcmp(status, "pass") &&
			    !json_array_size(json_object_get(st, "findings")))
				errors = !strcmp(status, "fail");
			status = errors ? "fail" : warnings ? "warn" : "pass";
		} else if (index) {
			summary = own = apply_for_patch(st, index, &status);
		}
		tool = g_strdup_printf("kseries-%s", stage);
		r = json_pack("{s:s, s:s, s:s}", "tool", tool, "status", status,
			      "summary", summary ? summary : "");
		if (*text)
			json_object_set_new(r, "details", json_string(text));
		json_array_append_new(out, r);
		g_free(own);
		g_free(tool);
		g_free(text);
	}
	return out;
}

void report_b4_print(json_t *checked, int index)
{
	json_t *report = b4_report(checked, index);
	char *text = json_dumps(report, JSON_INDENT(2));

	printf("%s\n", text);
	free(text);
	json_decref(report);
}
