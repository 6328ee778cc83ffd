/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KSERIES_IMPORT_H
#define KSERIES_IMPORT_H

#include <stdbool.h>

/*
 * Import of a posted version of a series from an mbox (as b4 mbox or
 * lore give it): its cover letter and patches become the vN/ patch
 * files, the rest of the thread vN/thread.mbox, and series.conf records
 * where and when it was posted. Everything is checked before anything is
 * written, and all is written in one store transaction (store.h): an
 * interrupted import leaves nothing half-made, and importing the same
 * mbox again changes nothing.
 *
 * The mbox is read a message at a time and the replies are copied into
 * thread.mbox as they are read again: what is held is the posting (its
 * patches and cover) and a few bytes per reply, never the whole mbox.
 */
struct import_opts {
	const char *name;	/* the series */
	const char *mbox;
	const char *base;	/* series.base of a new series */
	int version;		/* 0: what the patches' subjects say */
};

struct import_result {
	int version;
	bool cover;
	int npatches;
	int nreplies;		/* new in thread.mbox */
};

/* Returns 0, or -1 with one error printed and the store unchanged. */
int import_mbox(const struct import_opts *o, struct import_result *res);

#endif
