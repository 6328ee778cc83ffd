// SPDX-License-Identifier: GPL-2.0-only
/*
 * format-trailers.c - the trailers of a patch as format mails it: the
 * review's (b4 trailers -u), Assisted-by, and the sender's sign-off,
 * once and last (format-trailers.h).
 */
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "format.h"
#include "format-trailers.h"
#include "ident.h"
#include "series.h"
#include "util.h"
#include "banned.h"

static bool is_blank(const char *l)
{
	while (*l == ' ' || *l == '\t' || *l == '\r')
		l++;
	return !*l;
}

static bool is_trailer_line(const char *l)
{
	const char *p = l;

	while (isalnum((unsigned char)*p) || *p == '-')
		p++;
	return p > l && p[0] == ':' && (p[1] == ' ' || p[1] == '\t' || !p[1]);
}

/*
 * Whether the paragraph lines[from..to) is a trailer block: every line a
 * trailer or a continuation, or (git's rule, trailer.c) at least a
 * quarter of them trailers with a Signed-off-by among them.
 */
static bool is_trailer_block(char **lines, int from, int to)
{
	int trailers = 0, others = 0;
	bool sob = false;

	for (int i = from; i < to; i++) {
		if (is_trailer_line(lines[i])) {
			trailers++;
			if (!g_ascii_strncasecmp(lines[i], "Signed-off-by:", 14))
				sob = true;
		} else if (lines[i][0] == ' ' || lines[i][0] == '\t') {
			if (i == from)
				others++;
		} else {
			others++;
		}
	}
	if (!trailers)
		return false;
	return !others || (sob && trailers * 3 >= others);
}

/* "key: value" folded for comparison: key and value lower case, trimmed. */
static char *trailer_key(const char *t)
{
	const char *colon = strchr(t, ':');
	char *k, *v, *r;

	if (!colon)
		return g_ascii_strdown(t, -1);
	k = g_ascii_strdown(t, colon - t);
	v = g_utf8_strdown(colon + 1, -1);
	g_strstrip(k);
	g_strstrip(v);
	r = g_strdup_printf("%s: %s", k, v);
	g_free(k);
	g_free(v);
	return r;
}

static bool trailer_in(GPtrArray *list, const char *t)
{
	char *k = trailer_key(t);
	bool found = false;

	for (guint i = 0; !found && i < list->len; i++) {
		char *o = trailer_key(list->pdata[i]);

		found = !strcmp(o, k);
		g_free(o);
	}
	g_free(k);
	return found;
}

char *format_add_trailers(const char *msg, const GPtrArray *trailers,
			  const char *identity, unsigned *added)
{
	char **lines = g_strsplit(msg, "\n", -1);
	int n = (int)g_strv_length(lines), end, start;
	GPtrArray *have = g_ptr_array_new_with_free_func(g_free);
	char *own = identity ? g_strdup_printf("Signed-off-by: %s", identity) :
			       NULL;
	bool has_own = false;
	GString *out = g_string_new(NULL);
	unsigned count = 0;

	if (!identity)
		own = g_strdup("");
	/* drop trailing blank lines */
	end = n;
	while (end > 0 && is_blank(lines[end - 1]))
		end--;
	start = end;
	while (start > 0 && *lines[start - 1])
		start--;
	/* the first paragraph is the subject, never trailers */
	if (start == 0 || !is_trailer_block(lines, start, end))
		start = end;

	for (int i = start; i < end; i++) {
		if ((lines[i][0] == ' ' || lines[i][0] == '\t') && have->len) {
			char *prev = have->pdata[have->len - 1];

			have->pdata[have->len - 1] =
				g_strdup_printf("%s\n%s", prev, lines[i]);
			g_free(prev);
		} else {
			g_ptr_array_add(have, g_strdup(lines[i]));
		}
	}
	/*
	 * own sign-off moves to the bottom (b4: fix_trailers); one for a
	 * placeholder identity is nobody's and goes
	 */
	for (guint i = 0; i < have->len; i++) {
		const char *t = have->pdata[i];
		char *k = trailer_key(t), *ok = trailer_key(own);

		if (*own && !strcmp(k, ok)) {
			has_own = true;
			g_ptr_array_remove_index(have, i--);
		} else if (!g_ascii_strncasecmp(t, "Signed-off-by:", 14) &&
			   ident_text_has_placeholder(t, strlen(t))) {
			g_ptr_array_remove_index(have, i--);
		}
		g_free(k);
		g_free(ok);
	}
	for (guint i = 0; trailers && i < trailers->len; i++) {
		const char *t = trailers->pdata[i];
		char *k = trailer_key(t), *ok = trailer_key(own);
		bool is_own = *own && !strcmp(k, ok);

		g_free(k);
		g_free(ok);
		if (is_own) {
			if (!has_own)
				count++;
			has_own = true;
			continue;
		}
		if (trailer_in(have, t))
			continue;
		g_ptr_array_add(have, g_strdup(t));
		count++;
	}
	if (has_own)
		g_ptr_array_add(have, g_strdup(own));

	for (int i = 0; i < start; i++) {
		g_string_append(out, lines[i]);
		g_string_append_c(out, '\n');
	}
	/* message, blank line, trailers: as git interpret-trailers */
	while (out->len >= 2 && out->str[out->len - 1] == '\n' &&
	       out->str[out->len - 2] == '\n')
		g_string_truncate(out, out->len - 1);
	if (have->len && out->len)
		g_string_append_c(out, '\n');
	for (guint i = 0; i < have->len; i++) {
		g_string_append(out, have->pdata[i]);
		g_string_append_c(out, '\n');
	}
	if (added)
		*added = count;
	g_ptr_array_unref(have);
	g_free(own);
	g_strfreev(lines);
	return g_string_free(out, FALSE);
}

char *format_mailed_trailers(const char *msg, const GPtrArray *review,
			     const GPtrArray *assisted, const char *identity,
			     unsigned *added)
{
	GPtrArray *t = g_ptr_array_new_with_free_func(g_free);
	char *out;

	for (guint i = 0; review && i < review->len; i++)
		g_ptr_array_add(t, g_strdup(review->pdata[i]));
	for (guint i = 0; assisted && i < assisted->len; i++)
		g_ptr_array_add(t, g_strdup(assisted->pdata[i]));
	g_ptr_array_add(t, g_strdup_printf("Signed-off-by: %s", identity));
	out = format_add_trailers(msg, t, identity, added);
	g_ptr_array_unref(t);
	return out;
}

/* "k/n, j/n" of the positions in miss (a GArray of int), n patches. */
static char *positions(const GArray *miss, guint n)
{
	GString *out = g_string_new(NULL);

	for (guint i = 0; i < miss->len; i++)
		g_string_append_printf(out, "%s%d/%u", i ? ", " : "",
				       g_array_index(miss, int, i), n);
	return g_string_free(out, FALSE);
}

static void note(GPtrArray *notes, const struct fb_item *it, const char *fmt,
		 ...) G_GNUC_PRINTF(3, 4);
static void note(GPtrArray *notes, const struct fb_item *it, const char *fmt,
		 ...)
{
	va_list ap;
	char *why = NULL;

	if (!notes)
		return;
	if (fmt) {
		va_start(ap, fmt);
		why = g_strdup_vprintf(fmt, ap);
		va_end(ap);
	}
	g_ptr_array_add(notes, g_strdup_printf("not applied: %s (v%d)%s%s",
					       it->trailer, it->version,
					       why ? ": " : "", why ? why : ""));
	g_free(why);
}

/* Given on the formatted version: the patch the mail was a reply to. */
static guint targets_here(const struct fb_item *it, int version,
			  const GPtrArray *titles, guint n, GArray *to,
			  GPtrArray *notes)
{
	bool series = it->at == 0 || (it->scope && !strcmp(it->scope, "series"));
	int target = series ? 0 : it->at;

	if (target < 0 && it->patch_title && titles)
		for (guint k = 0; k < titles->len; k++)
			if (!g_ascii_strcasecmp(titles->pdata[k],
						it->patch_title))
				target = (int)k + 1;
	if (target < 0 || target > (int)n) {
		if (target > 0 || it->patch > 0)
			note(notes, it, "no such patch in v%d", version);
		else
			note(notes, it, "the mail was not a reply to a patch of v%d",
			     version);
		return 0;
	}
	if (target > 0) {
		g_array_append_val(to, target);
		return 1;
	}
	for (int k = 1; k <= (int)n; k++)
		g_array_append_val(to, k);
	return n;
}

/*
 * Given on an earlier version: the patches of this one that are still
 * the one it was given for (for the series: still one of that
 * version's), it->same.
 */
static guint targets_since(const struct fb_item *it, int version, guint n,
			   GArray *to, GPtrArray *notes)
{
	bool series = it->at == 0 || (it->scope && !strcmp(it->scope, "series"));
	GArray *miss;
	guint added = 0;

	if (!it->same || it->same->len != n) {
		note(notes, it, "v%d's patches are not in the store, so nothing tells that its patch is unchanged in v%d",
		     it->version, version);
		return 0;
	}
	if (!series && it->at < 0) {
		note(notes, it, "its patch is not in the store");
		return 0;
	}
	miss = g_array_new(FALSE, FALSE, sizeof(int));
	for (int k = 1; k <= (int)n; k++) {
		int was = g_array_index(it->same, int, k - 1);

		if (series ? was > 0 : was == it->at) {
			g_array_append_val(to, k);
			added++;
		} else if (series) {
			g_array_append_val(miss, k);
		}
	}
	if (!series && !added)
		note(notes, it, "no patch of v%d is patch %d of v%d unchanged",
		     version, it->at, it->version);
	if (series && miss->len) {
		char *which = positions(miss, n);

		note(notes, it, "%s changed since v%d", which, it->version);
		g_free(which);
	}
	g_array_unref(miss);
	return added;
}

guint format_trailer_targets(const struct fb_item *it, int version,
			     const GPtrArray *titles, guint n, GArray *to,
			     GPtrArray *notes)
{
	if (strcmp(it->kind, "trailer") || !it->trailer ||
	    it->version > version || it->version < 1)
		return 0;
	if (!g_ascii_strncasecmp(it->trailer, "Nacked-by:", 10)) {
		note(notes, it, NULL);
		return 0;
	}
	if (it->status && starts_with(it->status, "outdated")) {
		note(notes, it, "its patch is gone");
		return 0;
	}
	if (it->version == version)
		return targets_here(it, version, titles, n, to, notes);
	return targets_since(it, version, n, to, notes);
}

void format_collect_trailers(const GPtrArray *items, int version,
			     const GPtrArray *titles, GPtrArray *per_patch,
			     GPtrArray *notes)
{
	GArray *to = g_array_new(FALSE, FALSE, sizeof(int));

	for (guint i = 0; i < items->len; i++) {
		const struct fb_item *it = items->pdata[i];

		g_array_set_size(to, 0);
		format_trailer_targets(it, version, titles, titles->len, to,
				       notes);
		for (guint k = 0; k < to->len; k++) {
			GPtrArray *t = per_patch->pdata[g_array_index(to, int, k) - 1];

			if (!trailer_in(t, it->trailer))
				g_ptr_array_add(t, g_strdup(it->trailer));
		}
	}
	g_array_unref(to);
}

GPtrArray *format_assisted_by(const struct series *s, int version)
{
	GPtrArray *out = g_ptr_array_new_with_free_func(g_free);
	char *key = g_strdup_printf("version.%d.assisted-by", version);
	GPtrArray *vals = series_get_all(s, key);

	for (guint i = 0; vals && i < vals->len; i++) {
		const char *v = vals->pdata[i];

		if (!g_ascii_strncasecmp(v, "Assisted-by:", 12))
			v += 12;
		while (*v == ' ')
			v++;
		if (!ident_assisted_by_ok(v)) {
			error("%s '%s' is not in the form 'AGENT_NAME:MODEL_VERSION [TOOL1] [TOOL2]'",
			      key, (const char *)vals->pdata[i]);
			g_ptr_array_unref(out);
			g_free(key);
			return NULL;
		}
		g_ptr_array_add(out, g_strdup_printf("Assisted-by: %s", v));
	}
	g_free(key);
	return out;
}
