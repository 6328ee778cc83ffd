/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KSERIES_SUBJECT_H
#define KSERIES_SUBJECT_H

#include <stdbool.h>

/*
 * The bracketed tag of a patch mail's subject, as git format-patch and
 * b4 write it and as the list's readers expect:
 *   "[RFC PATCH v2 3/5] binder: foo"   "Re: [PATCH] x"   "[PATCH net-next 1/2] y"
 * Several bracketed groups are allowed ("[RFC][PATCH 1/2]"), so are
 * "Re:", "RE:", "Fwd:", "AW:", "SV:" prefixes in any number.
 */
struct subject {
	bool reply;		/* starts with Re: (or kin) */
	bool patch;		/* a tag contains the word PATCH */
	bool rfc;		/* a tag contains the word RFC */
	int version;		/* vN, 1 when absent */
	int index;		/* k of k/n, 0 for a cover or when absent */
	int total;		/* n of k/n, 1 when absent */
	char *prefix;		/* tag words other than vN and k/n, joined by
				 * one space ("RFC PATCH", "PATCH net-next") */
	char *title;		/* what follows the tags, trimmed */
};

/* Parses s into subj; every string in subj is new. Never fails. */
void subject_parse(const char *s, struct subject *subj);
void subject_release(struct subject *subj);

#endif
