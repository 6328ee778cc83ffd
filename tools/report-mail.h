/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KSERIES_REPORT_MAIL_H
#define KSERIES_REPORT_MAIL_H

#include <glib.h>

#include "ident.h"
#include "series.h"

/*
 * The bot's reply: a version's check results as a reply to its posting,
 * in the form list readers know from the kernel test robot and NIPA:
 * plain text, no attachment, what passed and failed per patch, the new
 * findings (the ones the series adds: check keeps no other) with
 * file:line, and how to reproduce them.
 *
 *   From: the sender (ident.h)
 *   To: the posting's author          Cc: whoever the posting went to
 *   Subject: Re: <the posted subject>
 *   In-Reply-To, References: the version's Message-ID (its cover
 *   letter, or its single patch)
 *
 * Results are read from $KSERIES_CACHE/results/NAME/vN/STAGE.json.
 */

/*
 * The reply to s's version, as one mbox message (From_ line first) into
 * out, from the sender from. Refused with one error: a version that was
 * not posted (no version.N.message-id), a record (its Message-ID was
 * reconstructed: no one would see the reply), a version never checked.
 */
int report_mail_build(const struct series *s, int version,
		      const struct ident *from, GString *out);

/*
 * report_mail_build() written atomically to DIR/NAME-vN-report.mbox
 * (DIR is made when missing); *path gets the file's path (new).
 * Returns 0, or -1 with one error.
 */
int report_mail_write(const struct series *s, int version, const char *dir,
		      char **path);

#endif
