// SPDX-License-Identifier: GPL-2.0-only
/*
 * stage-feedback.c - comments from earlier versions still open.
 */
#include <string.h>

#include "check.h"
#include "feedback.h"
#include "stage.h"
#include "util.h"
#include "banned.h"

/*
 * The review given on earlier versions, carried to this one through the
 * pairing of feedback.h: a comment whose anchored lines did not change is
 * still open, and each is a warning here. Trailers are not work to do.
 */
void stage_feedback(struct check_ctx *ctx, struct stage_result *r)
{
	GPtrArray *items = g_ptr_array_new_with_free_func(
		(GDestroyNotify)feedback_item_free);
	struct feedback_ctx *fc;
	int open = 0, total = 0;

	if (feedback_load(ctx->s, items) < 0) {
		stage_fail(r, "cannot read the feedback records");
		g_ptr_array_unref(items);
		return;
	}
	fc = feedback_ctx_new(ctx->s);
	for (guint i = 0; i < items->len; i++) {
		const struct feedback_item *it = items->pdata[i];
		enum feedback_status st;
		int paired = -1;

		if (it->version >= ctx->version || !strcmp(it->kind, "trailer"))
			continue;
		total++;
		st = feedback_status_at(fc, it, ctx->version, &paired);
		if (st == FB_OPEN) {
			char *msg = g_strdup_printf("comment %s by %s on v%d still open",
						    it->id, it->from, it->version);

			stage_finding(r, "feedback",
				      AT(it->file ? it->file : "", it->file ? it->line : 0, paired > 0 ? paired : 0),
				      SEV_WARNING, "%s", msg);
			g_free(msg);
			open++;
		}
	}
	feedback_ctx_free(fc);
	g_ptr_array_unref(items);
	stage_summary(r, "%d of %d comments on earlier versions still open",
		    open, total);
}

