// SPDX-License-Identifier: GPL-2.0-only
/* libFuzzer harness: subject tags and file names made from them. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <glib.h>

#include "subject.h"
#include "util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s = g_strndup((const char *)data, size);
	struct subject subj;
	char *slug;

	subject_parse(s, &subj);
	if (subj.version < 1 || subj.total < 1 || subj.index > subj.total)
		abort();
	slug = slugify(subj.title);
	/* a slug never leaves its directory */
	if (strchr(slug, '/') || (slug[0] && !safe_component(slug) &&
				  slug[0] != '-' && slug[0] != '.'))
		abort();
	g_free(slug);
	subject_release(&subj);
	g_free(s);
	return 0;
}
