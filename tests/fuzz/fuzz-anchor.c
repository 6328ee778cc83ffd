// SPDX-License-Identifier: GPL-2.0-only
/*
 * libFuzzer harness: quote anchoring (tools/anchor.c).
 * The input is a patch and a reply, split at the first line "~~~~":
 * the reply's lines are fed to the matcher as quoted lines (one level
 * of "> " removed, as the caller does), a line "~~~~" resets the
 * cursor as a new message does. Without a separator the whole input is
 * both. A match must name a line of the patch with the marker and the
 * key of the quoted line, its file and its line number on that side.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "anchor.h"
#include "patch.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check(const struct patch *p, const char *q, size_t len,
		  const struct anchor *a)
{
	const struct patch_line *l;
	const struct patch_file *f;

	if (!a->set || a->line_index >= p->lines->len)
		abort();
	l = &g_array_index(p->lines, struct patch_line, a->line_index);
	f = p->files->pdata[l->file];
	if (strcmp(a->file, f->path))
		abort();
	if (a->side != (l->kind == '-' ? 'o' : 'n'))
		abort();
	if (a->line != (l->kind == '-' ? l->old_line : l->new_line))
		abort();
	(void)q;
	(void)len;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *s = (const char *)data, *end = s + size;
	const char *sep = NULL, *reply = s;
	struct anchor_state st;
	struct patch p;

	for (const char *t = s; t + 4 <= end; ) {
		if (!memcmp(t, "~~~~", 4) && (t == s || t[-1] == '\n')) {
			sep = t;
			break;
		}
		t = memchr(t, '\n', (size_t)(end - t));
		if (!t)
			break;
		t++;
	}
	patch_init(&p);
	patch_parse(&p, s, sep ? (size_t)(sep - s) : size);
	if (sep)
		reply = sep + 4;
	anchor_init(&st, &p);
	while (reply < end) {
		const char *nl = memchr(reply, '\n', (size_t)(end - reply));
		size_t n = nl ? (size_t)(nl - reply) : (size_t)(end - reply);
		const char *q = reply;
		struct anchor a;

		memset(&a, 0, sizeof(a));
		if (n >= 4 && !memcmp(q, "~~~~", 4)) {
			anchor_reset(&st);
		} else {
			if (n && q[0] == '>') {
				q++;
				n--;
				if (n && q[0] == ' ') {
					q++;
					n--;
				}
			}
			if (anchor_feed(&st, q, n, &a))
				check(&p, q, n, &a);
			else if (a.set)
				abort();
		}
		reply = nl ? nl + 1 : end;
	}
	anchor_release(&st);
	patch_release(&p);
	return 0;
}
