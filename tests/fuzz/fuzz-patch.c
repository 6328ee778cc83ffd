// SPDX-License-Identifier: GPL-2.0-only
/*
 * libFuzzer harness: unified diff parsing (tools/patch.c).
 * Every line, hunk and file the parser reports must point inside the
 * text and into the tables; hunks and lines must be consistent; paths
 * are never NULL and patch_find_file() finds what the parser named.
 * Each "diff --git" line
 * is also unquoted as a path.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "patch.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check(const struct patch *p)
{
	for (guint i = 0; i < p->lines->len; i++) {
		const struct patch_line *l =
			&g_array_index(p->lines, struct patch_line, i);

		if (l->file >= p->files->len || l->hunk >= p->hunks->len ||
		    l->text < p->buf || l->text + l->len > p->buf + p->len ||
		    memchr(l->text, '\n', l->len))
			abort();
		if (l->kind != ' ' && l->kind != '+' && l->kind != '-')
			abort();
		if (g_array_index(p->hunks, struct patch_hunk, l->hunk).file !=
		    l->file)
			abort();
	}
	for (guint i = 0; i < p->hunks->len; i++) {
		const struct patch_hunk *h =
			&g_array_index(p->hunks, struct patch_hunk, i);

		if (h->file >= p->files->len ||
		    (size_t)h->first + h->nr > p->lines->len)
			abort();
		for (unsigned k = h->first; k < h->first + h->nr; k++)
			if (g_array_index(p->lines, struct patch_line, k).hunk != i)
				abort();
	}
	for (guint i = 0; i < p->files->len; i++) {
		const struct patch_file *f = p->files->pdata[i];

		if (!f->path ||
		    (size_t)f->first_hunk + f->nr_hunks > p->hunks->len)
			abort();
		if (!patch_find_file(p, f->path))
			abort();
	}
	if (p->files->len && p->diff_start > p->len)
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *s = (const char *)data, *end = s + size;
	struct patch p;
	unsigned n;

	patch_init(&p);
	n = patch_parse(&p, s, size);
	if (n != p.files->len)
		abort();
	check(&p);
	patch_release(&p);

	/* path unquoting on every line that starts a diff */
	while (s < end) {
		const char *nl = memchr(s, '\n', (size_t)(end - s));
		size_t len = nl ? (size_t)(nl - s) : (size_t)(end - s);

		if (len > 4 && (!memcmp(s, "--- ", 4) || !memcmp(s, "+++ ", 4))) {
			char *u = patch_unquote_path(s + 4, len - 4, true);

			if (!u)
				abort();
			g_free(u);
		}
		s = nl ? nl + 1 : end;
	}
	return 0;
}
