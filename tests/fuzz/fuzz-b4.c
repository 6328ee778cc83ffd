// SPDX-License-Identifier: GPL-2.0-only
/*
 * libFuzzer harness: check --b4's input (tools/check-b4.c).
 *
 * The input is the message on stdin, in b4's form (original headers,
 * the body decoded already) or as sent: b4_message_parse() reads it both
 * ways, and b4_message_matches() compares it with a small fixed store of
 * parsed mails (a cover letter and two patches of one version, one of
 * them the same diff as a seed). The store walk of b4_locate() runs git
 * (series.conf) and is not fuzzed; nothing here runs or opens anything.
 * What must hold: no crash; a fingerprint is 40 hex digits; a second
 * reading only beside a first; matching is a function of its inputs.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "check-b4.h"
#include "mail.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char *const store_mails[] = {
	"From 0000000000000000000000000000000000000000 Mon Sep 17 00:00:00 2001\n"
	"From: A U Thor <author@example.invalid>\n"
	"Message-ID: <cover@example.invalid>\n"
	"Subject: [PATCH v2 0/2] binder: two comments\n"
	"\n"
	"Why.\n",

	"From 0000000000000000000000000000000000000000 Mon Sep 17 00:00:00 2001\n"
	"From: A U Thor <author@example.invalid>\n"
	"Subject: [PATCH v2 1/2] binder: a comment\n"
	"MIME-Version: 1.0\n"
	"Content-Type: text/plain; charset=UTF-8\n"
	"Content-Transfer-Encoding: 8bit\n"
	"\n"
	"A comment (caf\xc3\xa9).\n"
	"\n"
	"Signed-off-by: A U Thor <author@example.invalid>\n"
	"---\n"
	"--- a/drivers/android/binder_alloc.c\n"
	"+++ b/drivers/android/binder_alloc.c\n"
	"@@ -231,6 +231,9 @@\n"
	" }\n"
	" \n"
	"+static const int binder_demo_value =\n"
	"+\t0x3D;\n"
	"+/* caf\xc3\xa9 */\n"
	" static struct page *binder_page_lookup(struct binder_alloc *alloc,\n"
	"-- \n"
	"2.39.5\n",

	"From 0000000000000000000000000000000000000000 Mon Sep 17 00:00:00 2001\n"
	"From: A U Thor <author@example.invalid>\n"
	"Message-ID: <p2@example.invalid>\n"
	"Subject: [PATCH v2 2/2] binder: another\n"
	"\n"
	"Signed-off-by: A U Thor <author@example.invalid>\n"
	"---\n"
	"diff --git a/x.c b/x.c\n"
	"--- a/x.c\n"
	"+++ b/x.c\n"
	"@@ -1 +1 @@\n"
	"-a\n"
	"+b\n",
};

static GPtrArray *store;

static void load_store(void)
{
	mail_init();
	store = mail_array_new();
	for (size_t i = 0; i < G_N_ELEMENTS(store_mails); i++)
		if (mail_parse_mbox(store_mails[i], strlen(store_mails[i]),
				    "store", store) < 0)
			abort();
	if (store->len != G_N_ELEMENTS(store_mails))
		abort();
}

static void check_fingerprint(const char *f)
{
	if (!f)
		return;
	if (strlen(f) != 40 || strspn(f, "0123456789abcdef") != 40)
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct b4_message m;

	if (!store)
		load_store();
	if (b4_message_parse((const char *)data, size, &m) == 0) {
		check_fingerprint(m.fingerprint[0]);
		check_fingerprint(m.fingerprint[1]);
		if (m.fingerprint[1] && !m.fingerprint[0])
			abort();
		if (m.fingerprint[1] && !strcmp(m.fingerprint[0], m.fingerprint[1]))
			abort();
		for (guint i = 0; i < store->len; i++) {
			bool a = b4_message_matches(&m, store->pdata[i], (int)i);
			bool b = b4_message_matches(&m, store->pdata[i], (int)i);

			if (a != b)
				abort();
		}
	}
	b4_message_release(&m);
	return 0;
}
