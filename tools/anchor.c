// SPDX-License-Identifier: GPL-2.0-only
/*
 * anchor.c - match quoted reply lines to the lines of a diff.
 */
#include <string.h>

#include "anchor.h"
#include "util.h"
#include "banned.h"

static bool is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v';
}

char *anchor_key(char marker, const char *text, size_t len)
{
	GString *k = g_string_sized_new(len + 1);

	g_string_append_c(k, marker);
	for (size_t i = 0; i < len; i++) {
		/* U+00A0 (C2 A0): some mailers send it for indentation */
		if (i + 1 < len && (unsigned char)text[i] == 0xc2 &&
		    (unsigned char)text[i + 1] == 0xa0) {
			i++;
			continue;
		}
		if (!is_space(text[i]))
			g_string_append_c(k, text[i]);
	}
	return g_string_free(k, FALSE);
}

static void array_free(gpointer a)
{
	g_array_free(a, TRUE);
}

void anchor_init(struct anchor_state *st, const struct patch *p)
{
	st->p = p;
	st->index = g_hash_table_new_full(g_str_hash, g_str_equal, g_free,
					  array_free);
	for (guint i = 0; i < p->lines->len; i++) {
		const struct patch_line *l =
			&g_array_index(p->lines, struct patch_line, i);
		char *key = anchor_key(l->kind, l->text, l->len);
		GArray *a = g_hash_table_lookup(st->index, key);

		if (!a) {
			a = g_array_new(FALSE, FALSE, sizeof(guint));
			g_hash_table_insert(st->index, key, a);
		} else {
			g_free(key);
		}
		g_array_append_val(a, i);
	}
	anchor_reset(st);
}

void anchor_release(struct anchor_state *st)
{
	if (st->index)
		g_hash_table_destroy(st->index);
	st->index = NULL;
}

void anchor_reset(struct anchor_state *st)
{
	st->cursor = -1;
	st->file = -1;
}

static void fill(const struct anchor_state *st, guint i, struct anchor *a)
{
	const struct patch_line *l =
		&g_array_index(st->p->lines, struct patch_line, i);
	const struct patch_file *f = st->p->files->pdata[l->file];

	a->set = true;
	a->line_index = i;
	a->file = f->path;
	a->side = l->kind == '-' ? 'o' : 'n';
	a->line = l->kind == '-' ? l->old_line : l->new_line;
}

/* A quoted header line: move the cursor. Returns true if it was one. */
static bool feed_header(struct anchor_state *st, const char *s, size_t len)
{
	const struct patch *p = st->p;

	if (mem_starts_with(s, len, "diff --git ") ||
	    mem_starts_with(s, len, "+++ ")) {
		size_t skip = s[0] == 'd' ? 11 : 4;

		for (guint f = 0; f < p->files->len; f++) {
			const struct patch_file *pf = p->files->pdata[f];
			size_t pl = strlen(pf->path);

			/* "... b/PATH" or "+++ b/PATH": the name ends the line */
			if (pl && len - skip >= pl &&
			    !memcmp(s + len - pl, pf->path, pl)) {
				st->file = f;
				if (pf->nr_hunks) {
					const struct patch_hunk *h = &g_array_index(
						p->hunks, struct patch_hunk,
						pf->first_hunk);
					st->cursor = (long)h->first - 1;
				}
				return true;
			}
		}
		return s[0] == 'd';
	}
	if (mem_starts_with(s, len, "@@ -")) {
		int a = 0, c = 0;
		const char *q = s + 4, *end = s + len;

		for (; q < end && *q >= '0' && *q <= '9'; q++)
			if (a < 100000000)
				a = a * 10 + (*q - '0');
		while (q < end && *q != '+')
			q++;
		for (q++; q < end && *q >= '0' && *q <= '9'; q++)
			if (c < 100000000)
				c = c * 10 + (*q - '0');
		for (guint h = 0; h < p->hunks->len; h++) {
			const struct patch_hunk *ph =
				&g_array_index(p->hunks, struct patch_hunk, h);

			if (ph->old_start != a || ph->new_start != c)
				continue;
			if (st->file >= 0 && ph->file != (unsigned)st->file)
				continue;
			st->cursor = (long)ph->first - 1;
			st->file = ph->file;
			return true;
		}
		return true;
	}
	return false;
}

bool anchor_feed(struct anchor_state *st, const char *s, size_t len,
		 struct anchor *a)
{
	char marker;
	char *key;
	GArray *hits;
	bool weak, found = false;
	guint pick = 0;

	if (len > 100000)
		return false;
	if (feed_header(st, s, len))
		return false;
	if (mem_starts_with(s, len, "--- ") || mem_starts_with(s, len, "index "))
		return false;
	if (len && (s[0] == '+' || s[0] == '-')) {
		marker = s[0];
		s++, len--;
	} else if (len && is_space(s[0])) {
		marker = ' ';
	} else {
		marker = 0;	/* no marker: context after the cursor only */
	}
	key = anchor_key(marker ? marker : ' ', s, len);
	if (strlen(key) == 1 && marker != '+' && marker != '-') {
		g_free(key);
		return false;	/* a blank line says nothing */
	}
	weak = strlen(key) <= 3 || !marker;
	if (!marker && st->cursor < 0) {
		g_free(key);
		return false;	/* no quoted diff line yet: prose */
	}
	hits = g_hash_table_lookup(st->index, key);
	g_free(key);
	if (!hits)
		return false;
	for (guint i = 0; i < hits->len; i++) {
		guint h = g_array_index(hits, guint, i);

		if ((long)h <= st->cursor)
			continue;
		if (weak && (long)h > st->cursor + ANCHOR_WEAK_WINDOW)
			break;
		pick = h;
		found = true;
		break;
	}
	if (!found && !weak && hits->len) {
		/* out of order (the reviewer quoted an earlier hunk again) */
		pick = g_array_index(hits, guint, 0);
		found = true;
	}
	if (!found)
		return false;
	st->cursor = pick;
	fill(st, pick, a);
	return true;
}
