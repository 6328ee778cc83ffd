// SPDX-License-Identifier: GPL-2.0-only
/*
 * The one classifier of postings (posting.h).
 */
#include <string.h>
#include <glib.h>

#include "posting.h"
#include "banned.h"

enum posting_kind posting_classify(const char *subject, const char *body,
				   size_t len, struct subject *subj,
				   struct patch *patch)
{
	struct patch own;
	enum posting_kind kind;

	subject_parse(subject ? subject : "", subj);
	if (patch)
		patch_init(patch);
	if (!subj->patch || subj->reply)
		return POSTING_REPLY;
	if (!body)
		return POSTING_COVER;
	if (patch)
		return patch_parse(patch, body, len) ? POSTING_PATCH :
						       POSTING_COVER;
	patch = &own;
	patch_init(patch);
	kind = patch_parse(patch, body, len) ? POSTING_PATCH : POSTING_COVER;
	patch_release(patch);
	return kind;
}

int posting_index(enum posting_kind kind, const struct subject *subj)
{
	if (kind == POSTING_PATCH && subj->index == 0 && subj->total == 1)
		return 1;
	return subj->index;
}

enum posting_kind posting_file_kind(const char *name)
{
	int n = 0;

	for (int i = 0; i < 4; i++) {
		if (!g_ascii_isdigit(name[i]))
			return POSTING_REPLY;
		n = n * 10 + (name[i] - '0');
	}
	if (name[4] != '-')
		return POSTING_REPLY;
	return n ? POSTING_PATCH : POSTING_COVER;
}

const char *posting_kind_name(enum posting_kind kind)
{
	return kind == POSTING_PATCH ? "patch" :
	       kind == POSTING_COVER ? "cover" : "reply";
}
