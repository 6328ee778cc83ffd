// SPDX-License-Identifier: GPL-2.0-only
/*
 * libFuzzer harness: review trailers (tools/trailer.c).
 * Every line of the input is parsed as own text of a reply: a trailer
 * must have one of the canonical kinds and non-NULL single-line name
 * and email; the "for the series" test and the person splitter run on
 * every line too.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <glib.h>

#include "trailer.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char *const kinds[] = {
	"Reviewed-by", "Acked-by", "Tested-by", "Reported-by",
	"Suggested-by", "Nacked-by",
};

static bool single_line(const char *s)
{
	return s && !strchr(s, '\n');
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *s = (const char *)data, *end = s + size;

	while (s < end) {
		const char *nl = memchr(s, '\n', (size_t)(end - s));
		size_t n = nl ? (size_t)(nl - s) : (size_t)(end - s);
		struct trailer t;
		char *name = NULL, *email = NULL;

		memset(&t, 0, sizeof(t));
		if (trailer_parse_line(s, n, &t)) {
			bool known = false;

			for (size_t i = 0; i < G_N_ELEMENTS(kinds); i++)
				if (t.kind && !strcmp(t.kind, kinds[i]))
					known = true;
			if (!known || !single_line(t.name) ||
			    !single_line(t.email))
				abort();
			if (t.bare_nak && strcmp(t.kind, "Nacked-by"))
				abort();
			trailer_release(&t);
		}
		(void)trailer_mentions_series(s, n);
		trailer_split_person(s, n, &name, &email);
		if (!name || !email)
			abort();
		g_free(name);
		g_free(email);
		s = nl ? nl + 1 : end;
	}
	return 0;
}
