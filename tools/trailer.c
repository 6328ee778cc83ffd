// SPDX-License-Identifier: GPL-2.0-only
/*
 * trailer.c - Reviewed-by: and its kin in review replies.
 */
#include <string.h>

#include "trailer.h"
#include "util.h"
#include <glib.h>
#include "banned.h"

static const char *const kinds[] = {
	"Reviewed-by", "Acked-by", "Tested-by", "Reported-by",
	"Suggested-by", "Nacked-by",
};

void trailer_release(struct trailer *t)
{
	g_free(t->kind);
	g_free(t->name);
	g_free(t->email);
	memset(t, 0, sizeof(*t));
}

static char *trimmed(const char *s, size_t len)
{
	while (len && g_ascii_isspace(*s))
		s++, len--;
	while (len && g_ascii_isspace(s[len - 1]))
		len--;
	return g_strndup(s, len);
}

void trailer_split_person(const char *s, size_t len, char **name,
			  char **email)
{
	const char *lt = memchr(s, '<', len);
	const char *gt = lt ? memchr(lt, '>', len - (size_t)(lt - s)) : NULL;

	if (lt && gt) {
		char *n = trimmed(s, (size_t)(lt - s));
		size_t nl = strlen(n);

		if (nl >= 2 && n[0] == '"' && n[nl - 1] == '"') {
			memmove(n, n + 1, nl - 2);
			n[nl - 2] = '\0';
		}
		*name = n;
		*email = trimmed(lt + 1, (size_t)(gt - lt - 1));
		return;
	}
	if (memchr(s, '@', len)) {
		/* "user@host (Name)" or a bare address */
		const char *sp = s;
		size_t i = 0;

		while (i < len && g_ascii_isspace(s[i]))
			i++;
		sp = s + i;
		while (i < len && !g_ascii_isspace(s[i]))
			i++;
		*email = g_strndup(sp, (size_t)(s + i - sp));
		*name = trimmed(s + i, len - i);
		return;
	}
	*name = trimmed(s, len);
	*email = g_strdup("");
}

bool trailer_mentions_series(const char *line, size_t len)
{
	char *l = g_ascii_strdown(line, (gssize)len);
	bool yes = strstr(l, "for the series") || strstr(l, "for the whole series") ||
		   strstr(l, "for the entire series") ||
		   strstr(l, "for this series") || strstr(l, "for the set") ||
		   strstr(l, "for all patches") || strstr(l, "for all the patches") ||
		   strstr(l, "for the whole set") || strstr(l, "series:") ||
		   strstr(l, "for all of them");

	g_free(l);
	return yes;
}

bool trailer_parse_line(const char *line, size_t len, struct trailer *t)
{
	const char *s = line;
	size_t n = len;

	memset(t, 0, sizeof(*t));
	while (n && (*s == ' ' || *s == '\t'))
		s++, n--;
	while (n && g_ascii_isspace(s[n - 1]))
		n--;

	/* RFC-less convention: a line that is only "NAK" (or "NACK") */
	if ((n == 3 && !g_ascii_strncasecmp(s, "NAK", 3)) ||
	    (n == 4 && (!g_ascii_strncasecmp(s, "NAK.", 4) ||
			!g_ascii_strncasecmp(s, "NAK!", 4) ||
			!g_ascii_strncasecmp(s, "NACK", 4))) ||
	    (n == 5 && !g_ascii_strncasecmp(s, "NACK.", 5))) {
		t->kind = g_strdup("Nacked-by");
		t->name = g_strdup("");
		t->email = g_strdup("");
		t->bare_nak = true;
		return true;
	}
	for (size_t k = 0; k < G_N_ELEMENTS(kinds); k++) {
		size_t kl = strlen(kinds[k]);
		const char *v, *end;
		size_t vl;

		if (n <= kl || g_ascii_strncasecmp(s, kinds[k], kl) ||
		    s[kl] != ':')
			continue;
		v = s + kl + 1;
		vl = n - kl - 1;
		/* "Reviewed-by: X <x> # for the series" */
		end = memchr(v, '#', vl);
		if (end && trailer_mentions_series(end, vl - (size_t)(end - v)))
			t->for_series = true;
		if (end)
			vl = (size_t)(end - v);
		else if (trailer_mentions_series(v, vl))
			t->for_series = true;
		/* "Acked-by: X <x> for the series": the person ends at '>' */
		if (t->for_series && !end) {
			const char *gt = memchr(v, '>', vl);

			if (gt)
				vl = (size_t)(gt - v) + 1;
		}
		trailer_split_person(v, vl, &t->name, &t->email);
		if (!*t->name && !*t->email) {
			trailer_release(t);
			return false;
		}
		t->kind = g_strdup(kinds[k]);
		return true;
	}
	return false;
}
