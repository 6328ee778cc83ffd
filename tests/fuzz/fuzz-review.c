// SPDX-License-Identifier: GPL-2.0-only
/*
 * libFuzzer harness: review extraction (DESIGN.md §5) on arbitrary mail.
 * The mbox goes through threading, diff parsing, quote anchoring,
 * comment segmentation, trailers and the JSON writer; the raw bytes are
 * also parsed as a diff and every line fed to the anchor matcher, and
 * as a feedback record, which must format back to what it parses from.
 * Nothing may crash, and the JSON must be valid.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "anchor.h"
#include "feedback.h"
#include "mail.h"
#include "patch.h"
#include "review.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void raw_diff(const char *s, size_t len)
{
	struct patch p;
	struct anchor_state st;
	const char *end = s + len;

	patch_init(&p);
	patch_parse(&p, s, len);
	for (guint i = 0; i < p.lines->len; i++) {
		const struct patch_line *l =
			&g_array_index(p.lines, struct patch_line, i);

		if (l->file >= p.files->len || l->hunk >= p.hunks->len ||
		    l->text < p.buf || l->text + l->len > p.buf + p.len)
			abort();
	}
	anchor_init(&st, &p);
	while (s < end) {
		const char *nl = memchr(s, '\n', (size_t)(end - s));
		size_t n = nl ? (size_t)(nl - s) : (size_t)(end - s);
		struct anchor a;

		if (n && s[0] == '>')
			anchor_feed(&st, s + 1, n - 1, &a);
		s = nl ? nl + 1 : end;
	}
	anchor_release(&st);
	patch_release(&p);
}

static void record(const char *s, size_t len)
{
	struct feedback_item *it, *again;
	char *text, *text2;

	if (feedback_parse(s, len, &it) < 0)
		return;
	text = feedback_format(it);
	if (feedback_parse(text, strlen(text), &again) < 0)
		abort();
	text2 = feedback_format(again);
	if (strcmp(text, text2))
		abort();	/* a record is a fixed point once written */
	g_free(text);
	g_free(text2);
	feedback_item_free(again);
	feedback_item_free(it);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	GPtrArray *mails = mail_array_new();

	mail_init();
	raw_diff((const char *)data, size);
	record((const char *)data, size);
	if (mail_parse_mbox((const char *)data, size, "fuzz", mails) == 0) {
		struct review r;
		json_t *j;
		char *out;

		review_init(&r);
		review_extract(&r, mails);
		j = review_to_json(&r);
		if (!j)
			abort();
		out = json_dumps(j, 0);
		if (!out)
			abort();
		free(out);
		json_decref(j);
		review_release(&r);
	}
	g_ptr_array_unref(mails);
	return 0;
}
