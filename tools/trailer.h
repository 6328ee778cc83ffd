/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KSERIES_TRAILER_H
#define KSERIES_TRAILER_H

#include <stdbool.h>
#include <stddef.h>

/*
 * Trailers given in review replies (DESIGN.md §5): "Reviewed-by:",
 * "Acked-by:", "Tested-by:", "Reported-by:", "Suggested-by:",
 * "Nacked-by:" (keys case-insensitive, as git interpret-trailers reads
 * them), and a bare "NAK" line, which is reported as "Nacked-by" given
 * by the replier.
 *
 * Only lines of the replier's own text are passed here; the caller
 * never passes quoted lines.
 */
struct trailer {
	char *kind;		/* canonical: "Reviewed-by", …, "Nacked-by" */
	char *name;		/* "" when the line gives none */
	char *email;		/* "" when the line gives none */
	bool bare_nak;		/* a bare NAK: name/email are the sender's */
	bool for_series;	/* the line itself says "for the series" */
};

/*
 * Parses one line of own text. Returns true and fills t (new strings,
 * release with trailer_release()) when the line is a trailer.
 */
bool trailer_parse_line(const char *line, size_t len, struct trailer *t);
void trailer_release(struct trailer *t);

/*
 * True if text (one line of own text, e.g. just above a trailer) says
 * that what follows is for the whole series: "For the series:",
 * "for the whole series", "for all patches", "for patches 1-4".
 */
bool trailer_mentions_series(const char *line, size_t len);

/*
 * Splits "Name <email>" (also "email", "<email>", "\"Name\" <email>",
 * "Name (comment) <email>") into new strings.
 */
void trailer_split_person(const char *s, size_t len, char **name,
			  char **email);

#endif
