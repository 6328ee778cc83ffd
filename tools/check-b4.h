/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KSERIES_CHECK_B4_H
#define KSERIES_CHECK_B4_H

#include <stdbool.h>
#include <stddef.h>
#include <jansson.h>

#include "mail.h"
#include "subject.h"

/*
 * b4's review-check protocol: b4 (b4.review-perpatch-check-cmd and
 * b4.review-series-check-cmd) runs a command with one message on stdin,
 * a patch or a cover letter, and reads a JSON array of
 * {tool, status: pass|warn|fail, summary, url, details} from its stdout;
 * [] means nothing to report.
 *
 * What b4 writes on stdin is not the mail as sent: the header fields as
 * its parser read them, then the body already decoded from its transfer
 * encoding (still in its charset, lines LF-terminated), while the
 * Content-Transfer-Encoding header still names the original encoding;
 * for a multipart mail, the text it found, in UTF-8, under the original
 * multipart Content-Type. Decoding that body again as the header says
 * would turn a base64 patch into noise and a quoted-printable one into
 * another diff, so the body is read as b4 hands it; a mail saved as it
 * was sent (not decoded) is read as its headers say, and a stored mail
 * matching either reading is the one.
 */

/* The patch or cover letter on stdin, as b4_message_parse() read it. */
struct b4_message {
	char *message_id;	/* without angle brackets, or NULL */
	struct subject subj;
	/*
	 * Fingerprints of its diff (a patch-id of sorts: check-b4.c), read
	 * as b4 hands it and as its headers say; NULL when no diff, [1]
	 * NULL when both readings agree.
	 */
	char *fingerprint[2];
};

/*
 * Reads raw (one message, b4's form or as sent) into m. Returns 0, or
 * -1 with an error printed on input that is not one message; m is to be
 * released either way. Runs nothing and opens nothing.
 */
int b4_message_parse(const char *raw, size_t len, struct b4_message *m);
void b4_message_release(struct b4_message *m);

/*
 * Is stored (a mail of the store, the index-th of its version: 0 for
 * the cover letter) the message m? The same Message-ID; or the same diff
 * in a mail of the same version (an unchanged patch is in several
 * versions); or, for a cover letter, the same version and title.
 */
bool b4_message_matches(const struct b4_message *m, const struct mail *stored,
			int index);

/*
 * b4_locate() finds the stored version the message belongs to, through
 * b4_message_parse() and b4_message_matches() over every version of
 * every series. Returns 1 and fills *name (new), *version and *index
 * (0: the cover letter), 0 when no version in the store holds it, -1
 * with an error printed on input that is not one message.
 */
int b4_locate(const char *raw, size_t len, char **name, int *version,
	      int *index);

#endif
