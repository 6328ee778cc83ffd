// SPDX-License-Identifier: GPL-2.0-only
/*
 * subject.c - the [PREFIX vN k/n] tag of patch mail subjects.
 */
#include <stdlib.h>
#include <string.h>
#include <glib.h>

#include "subject.h"
#include "banned.h"

static const char *skip_reply_prefix(const char *s, bool *reply)
{
	static const char *const prefixes[] = {
		"re:", "aw:", "sv:", "fwd:", "fw:", "antw:", "vs:", "ref:",
	};

	for (;;) {
		bool found = false;

		while (*s == ' ' || *s == '\t')
			s++;
		for (size_t i = 0; i < G_N_ELEMENTS(prefixes); i++) {
			size_t n = strlen(prefixes[i]);

			if (!g_ascii_strncasecmp(s, prefixes[i], n)) {
				s += n;
				if (i < 3 || i == 5 || i == 6)
					*reply = true;
				found = true;
				break;
			}
		}
		if (!found)
			return s;
	}
}

static bool parse_version(const char *w, int *v)
{
	char *end;
	long n;

	if ((w[0] != 'v' && w[0] != 'V') || !g_ascii_isdigit(w[1]))
		return false;
	n = strtol(w + 1, &end, 10);
	if (*end || n < 1 || n > 9999)
		return false;
	*v = (int)n;
	return true;
}

static bool parse_counter(const char *w, int *k, int *n)
{
	char *end;
	long a, b;

	if (!g_ascii_isdigit(w[0]))
		return false;
	a = strtol(w, &end, 10);
	if (*end != '/' || !g_ascii_isdigit(end[1]))
		return false;
	b = strtol(end + 1, &end, 10);
	if (*end || b < 1 || b > 9999 || a < 0 || a > b)
		return false;
	*k = (int)a;
	*n = (int)b;
	return true;
}

void subject_parse(const char *s, struct subject *subj)
{
	GString *prefix = g_string_new(NULL);
	bool tagged = false;

	memset(subj, 0, sizeof(*subj));
	subj->version = 1;
	subj->total = 1;
	s = skip_reply_prefix(s, &subj->reply);
	while (*s == '[') {
		const char *close = strchr(s, ']');
		char *inner, **words;

		if (!close)
			break;
		inner = g_strndup(s + 1, (gsize)(close - s - 1));
		words = g_strsplit_set(inner, " \t", -1);
		for (char **w = words; *w; w++) {
			if (!**w)
				continue;
			if (parse_version(*w, &subj->version) ||
			    parse_counter(*w, &subj->index, &subj->total))
				continue;
			if (!g_ascii_strcasecmp(*w, "PATCH"))
				subj->patch = true;
			else if (!g_ascii_strcasecmp(*w, "RFC"))
				subj->rfc = true;
			if (prefix->len)
				g_string_append_c(prefix, ' ');
			g_string_append(prefix, *w);
		}
		g_strfreev(words);
		g_free(inner);
		tagged = true;
		s = close + 1;
		while (*s == ' ' || *s == '\t')
			s++;
		/* "Re: [PATCH] x" has been handled; "[PATCH] Re: x" too */
		s = skip_reply_prefix(s, &subj->reply);
	}
	if (!tagged)
		subj->total = 1;
	subj->prefix = g_string_free(prefix, FALSE);
	subj->title = g_strstrip(g_strdup(s));
}

void subject_release(struct subject *subj)
{
	g_free(subj->prefix);
	g_free(subj->title);
	subj->prefix = subj->title = NULL;
}
