// SPDX-License-Identifier: GPL-2.0-only
/*
 * patch.c - unified diffs in mail bodies: files, hunks, line numbers.
 */
#include <stdlib.h>
#include <string.h>

#include "patch.h"
#include "util.h"
#include "banned.h"

/* Larger positions are refused: nobody reviews a 100-million-line file. */
#define PATCH_MAX_LINENO 100000000L

void patch_init(struct patch *p)
{
	memset(p, 0, sizeof(*p));
	p->files = g_ptr_array_new();
	p->hunks = g_array_new(FALSE, FALSE, sizeof(struct patch_hunk));
	p->lines = g_array_new(FALSE, FALSE, sizeof(struct patch_line));
}

static void file_free(struct patch_file *f)
{
	g_free(f->old_path);
	g_free(f->new_path);
	g_free(f->path);
	g_free(f);
}

void patch_release(struct patch *p)
{
	if (p->files) {
		for (guint i = 0; i < p->files->len; i++)
			file_free(p->files->pdata[i]);
		g_ptr_array_free(p->files, TRUE);
	}
	if (p->hunks)
		g_array_free(p->hunks, TRUE);
	if (p->lines)
		g_array_free(p->lines, TRUE);
	g_free(p->buf);
	memset(p, 0, sizeof(*p));
}

char *patch_unquote_path(const char *s, size_t len, bool strip)
{
	GString *out = g_string_sized_new(len);

	if (len && s[0] == '"') {
		/* git's quote_c_style(): C escapes and \ooo octal bytes */
		size_t i = 1;

		while (i < len && s[i] != '"') {
			char c = s[i++];

			if (c != '\\' || i >= len) {
				g_string_append_c(out, c);
				continue;
			}
			c = s[i++];
			switch (c) {
			case 'a': g_string_append_c(out, '\a'); break;
			case 'b': g_string_append_c(out, '\b'); break;
			case 'f': g_string_append_c(out, '\f'); break;
			case 'n': g_string_append_c(out, '\n'); break;
			case 'r': g_string_append_c(out, '\r'); break;
			case 't': g_string_append_c(out, '\t'); break;
			case 'v': g_string_append_c(out, '\v'); break;
			case '0': case '1': case '2': case '3': {
				unsigned v = (unsigned)(c - '0');

				for (int k = 0; k < 2 && i < len &&
				     s[i] >= '0' && s[i] <= '7'; k++)
					v = v * 8 + (unsigned)(s[i++] - '0');
				g_string_append_c(out, (char)(v & 0xff));
				break;
			}
			default:
				g_string_append_c(out, c);
			}
		}
	} else {
		/* diff -u writes "name\tdate": the tab ends the name */
		const char *tab = memchr(s, '\t', len);

		g_string_append_len(out, s, tab ? tab - s : (gssize)len);
		while (out->len && (out->str[out->len - 1] == ' ' ||
				    out->str[out->len - 1] == '\r'))
			g_string_truncate(out, out->len - 1);
	}
	if (strip && out->len > 2 && (out->str[0] == 'a' || out->str[0] == 'b') &&
	    out->str[1] == '/')
		g_string_erase(out, 0, 2);
	return g_string_free(out, FALSE);
}

/* "diff --git a/X b/Y": split into the two names. */
static void parse_git_line(const char *s, size_t len, char **a, char **b)
{
	*a = *b = NULL;
	if (len && s[0] == '"') {
		size_t i = 1;

		while (i < len && s[i] != '"')
			i += s[i] == '\\' ? 2 : 1;
		if (i >= len)
			return;
		*a = patch_unquote_path(s, i + 1, true);
		i++;
		while (i < len && s[i] == ' ')
			i++;
		*b = patch_unquote_path(s + i, len - i, true);
		return;
	}
	/*
	 * Unquoted names may contain spaces: prefer the split where both
	 * halves name the same file (git's own rule), else the last " b/".
	 */
	size_t best = 0;

	for (size_t i = 1; i + 3 < len; i++) {
		if (s[i] != ' ' || s[i + 1] != 'b' || s[i + 2] != '/')
			continue;
		if (i > 2 && len - i - 3 == i - 2 && !memcmp(s + 2, s + i + 3, i - 2)) {
			best = i;
			break;
		}
		best = i;
	}
	if (!best)
		return;
	*a = patch_unquote_path(s, best, true);
	if (s[best + 1] == '"')
		*b = patch_unquote_path(s + best + 1, len - best - 1, true);
	else
		*b = patch_unquote_path(s + best + 1, len - best - 1, true);
}

static bool parse_num(const char **pp, const char *end, long *v)
{
	const char *p = *pp;
	long n = 0;

	if (p >= end || *p < '0' || *p > '9')
		return false;
	while (p < end && *p >= '0' && *p <= '9') {
		n = n * 10 + (*p++ - '0');
		if (n > PATCH_MAX_LINENO)
			return false;
	}
	*v = n;
	*pp = p;
	return true;
}

/* "@@ -a[,b] +c[,d] @@" */
static bool parse_hunk_header(const char *s, size_t len, struct patch_hunk *h)
{
	const char *p = s + 3, *end = s + len;
	long a, b = 1, c, d = 1;

	if (len < 3 || memcmp(s, "@@ ", 3))
		return false;
	if (p >= end || *p++ != '-' || !parse_num(&p, end, &a))
		return false;
	if (p < end && *p == ',' && (p++, !parse_num(&p, end, &b)))
		return false;
	if (p >= end || *p++ != ' ' || p >= end || *p++ != '+' ||
	    !parse_num(&p, end, &c))
		return false;
	if (p < end && *p == ',' && (p++, !parse_num(&p, end, &d)))
		return false;
	if (end - p < 3 || memcmp(p, " @@", 3))
		return false;
	h->old_start = (int)a;
	h->old_count = (int)b;
	h->new_start = (int)c;
	h->new_count = (int)d;
	return true;
}

struct line {
	const char *s;
	size_t len;
};

static GArray *split_lines(const char *buf, size_t len)
{
	GArray *a = g_array_new(FALSE, FALSE, sizeof(struct line));
	const char *p = buf, *end = buf + len;

	while (p < end) {
		const char *nl = memchr(p, '\n', end - p);
		struct line l = { p, nl ? (size_t)(nl - p) : (size_t)(end - p) };

		if (l.len && p[l.len - 1] == '\r')
			l.len--;
		g_array_append_val(a, l);
		p = nl ? nl + 1 : end;
	}
	return a;
}

static bool is(const struct line *l, const char *prefix)
{
	return mem_starts_with(l->s, l->len, prefix);
}

static char *rest(const struct line *l, size_t skip, bool strip)
{
	return patch_unquote_path(l->s + skip, l->len - skip, strip);
}

static bool is_dev_null(const struct line *l, size_t skip)
{
	return l->len - skip >= 9 && !memcmp(l->s + skip, "/dev/null", 9) &&
	       (l->len - skip == 9 || l->s[skip + 9] == '\t' ||
		l->s[skip + 9] == ' ');
}

static struct patch_file *new_file(struct patch *p)
{
	struct patch_file *f = g_new0(struct patch_file, 1);

	f->first_hunk = p->hunks->len;
	g_ptr_array_add(p->files, f);
	return f;
}

static void finish_file(struct patch_file *f, char *git_a, char *git_b)
{
	if (!f)
		return;
	if (!f->old_path && !f->is_new && git_a)
		f->old_path = g_strdup(git_a);
	if (git_b && *git_b)
		f->path = g_strdup(git_b);
	else if (f->new_path)
		f->path = g_strdup(f->new_path);
	else if (f->old_path)
		f->path = g_strdup(f->old_path);
	else
		f->path = g_strdup("");
	if (!f->new_path && !f->is_deleted && git_b)
		f->new_path = g_strdup(git_b);
}

unsigned patch_parse(struct patch *p, const char *text, size_t len)
{
	enum { OUTSIDE, HEADER, HUNK, BINARY } state = OUTSIDE;
	struct patch_file *f = NULL;
	char *git_a = NULL, *git_b = NULL;
	struct patch_hunk h;
	long old_left = 0, new_left = 0, oldno = 0, newno = 0;
	GArray *lines;

	g_free(p->buf);
	p->buf = g_malloc(len + 1);
	memcpy(p->buf, text, len);
	p->buf[len] = '\0';
	p->len = len;
	lines = split_lines(p->buf, len);

	for (guint i = 0; i < lines->len; i++) {
		struct line *l = &g_array_index(lines, struct line, i);
		struct line *next = i + 1 < lines->len ? l + 1 : NULL;

		if (state == HUNK) {
			char c = l->len ? l->s[0] : ' ';
			struct patch_line pl = { 0 };

			if (c == '\\')
				continue;	/* "\ No newline at end of file" */
			if ((c == ' ' && old_left > 0 && new_left > 0) ||
			    (c == '-' && old_left > 0) ||
			    (c == '+' && new_left > 0)) {
				pl.kind = c;
				pl.text = l->len ? l->s + 1 : l->s;
				pl.len = l->len ? l->len - 1 : 0;
				pl.file = p->files->len - 1;
				pl.hunk = p->hunks->len - 1;
				if (c != '+') {
					pl.old_line = (int)oldno++;
					old_left--;
				}
				if (c != '-') {
					pl.new_line = (int)newno++;
					new_left--;
				}
				g_array_append_val(p->lines, pl);
				g_array_index(p->hunks, struct patch_hunk,
					      p->hunks->len - 1).nr++;
				if (!old_left && !new_left)
					state = HEADER;
				continue;
			}
			state = HEADER;	/* short hunk: look at l again */
		}
		if (state == BINARY) {
			if (!is(l, "diff --git "))
				continue;
			state = HEADER;
		}

		if (is(l, "diff --git ")) {
			finish_file(f, git_a, git_b);
			g_free(git_a);
			g_free(git_b);
			parse_git_line(l->s + 11, l->len - 11, &git_a, &git_b);
			if (!p->files->len)
				p->diff_start = (size_t)(l->s - p->buf);
			f = new_file(p);
			state = HEADER;
			continue;
		}
		if (is(l, "--- ") && next && mem_starts_with(next->s, next->len, "+++ ") &&
		    (state == HEADER ||
		     (i + 2 < lines->len &&
		      is(&g_array_index(lines, struct line, i + 2), "@@ -")))) {
			if (state != HEADER || (f && f->nr_hunks)) {
				/* a plain diff -u file, or another in the same mail */
				finish_file(f, git_a, git_b);
				g_free(git_a);
				g_free(git_b);
				git_a = git_b = NULL;
				if (!p->files->len)
					p->diff_start = (size_t)(l->s - p->buf);
				f = new_file(p);
			}
			if (is_dev_null(l, 4))
				f->is_new = true;
			else if (!f->old_path)
				f->old_path = rest(l, 4, true);
			if (is_dev_null(next, 4))
				f->is_deleted = true;
			else if (!f->new_path)
				f->new_path = rest(next, 4, true);
			i++;
			state = HEADER;
			continue;
		}
		if (state != HEADER)
			continue;
		if (parse_hunk_header(l->s, l->len, &h)) {
			h.file = p->files->len - 1;
			h.first = p->lines->len;
			h.nr = 0;
			g_array_append_val(p->hunks, h);
			f->nr_hunks++;
			old_left = h.old_count;
			new_left = h.new_count;
			oldno = h.old_start;
			newno = h.new_start;
			state = (old_left || new_left) ? HUNK : HEADER;
		} else if (is(l, "new file mode ")) {
			f->is_new = true;
		} else if (is(l, "deleted file mode ")) {
			f->is_deleted = true;
		} else if (is(l, "rename from ")) {
			f->is_rename = true;
			g_free(f->old_path);
			f->old_path = rest(l, 12, false);
		} else if (is(l, "rename to ")) {
			f->is_rename = true;
			g_free(f->new_path);
			f->new_path = rest(l, 10, false);
		} else if (is(l, "copy from ")) {
			f->is_copy = true;
			g_free(f->old_path);
			f->old_path = rest(l, 10, false);
		} else if (is(l, "copy to ")) {
			f->is_copy = true;
			g_free(f->new_path);
			f->new_path = rest(l, 8, false);
		} else if (is(l, "Binary files ") || is(l, "GIT binary patch")) {
			f->is_binary = true;
			if (is(l, "GIT binary patch"))
				state = BINARY;
		} else if (is(l, "index ") || is(l, "old mode ") ||
			   is(l, "new mode ") || is(l, "similarity index ") ||
			   is(l, "dissimilarity index ")) {
			/* extended headers we need nothing from */
		} else if (f && !f->nr_hunks) {
			/* an unknown extended header line: keep going */
		} else {
			state = OUTSIDE;
		}
	}
	finish_file(f, git_a, git_b);
	g_free(git_a);
	g_free(git_b);
	g_array_free(lines, TRUE);
	return p->files->len;
}

const struct patch_file *patch_find_file(const struct patch *p,
					 const char *path)
{
	for (guint i = 0; i < p->files->len; i++) {
		const struct patch_file *f = p->files->pdata[i];

		if (!strcmp(f->path, path) ||
		    (f->new_path && !strcmp(f->new_path, path)) ||
		    (f->old_path && !strcmp(f->old_path, path)))
			return f;
	}
	return NULL;
}
