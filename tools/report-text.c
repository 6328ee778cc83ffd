// SPDX-License-Identifier: GPL-2.0-only
/*
 * report-text.c - check results as the terminal shows them.
 */
#include <stdio.h>

#include "check.h"
#include "color.h"
#include "report.h"
#include "banned.h"

void report_text_result(const struct check_ctx *ctx,
			const struct stage_result *r)
{
	const struct finding *f = r->findings->len ? r->findings->pdata[0] : NULL;

	printf("%-22s v%-2d %-10s %s %3u  %s%s", ctx->s->name, ctx->version,
	       r->name, color_status(stage_status_name(r->status), 4),
	       r->findings->len,
	       r->cached ? "(cached) " : "", r->summary ? r->summary : "");
	if (f && f->line)
		printf("\n%33s first: %s:%d: %s: %s", "", f->file, f->line,
		       severity_name(f->sev), f->message);
	else if (f)
		printf("\n%33s first: %s: %s: %s", "", *f->file ? f->file : "series",
		       severity_name(f->sev), f->message);
	printf("\n");
	fflush(stdout);
}
