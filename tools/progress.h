/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KSERIES_PROGRESS_H
#define KSERIES_PROGRESS_H

#include <stdbool.h>
#include <stddef.h>

/*
 * A one-line status for long stages on a terminal: what runs, for how
 * long, and the last line its children printed ("CC drivers/android/
 * binder.o"). run.c feeds it the output of every child it runs and a tick
 * about once a second; the line is redrawn in place on stderr at most a
 * few times a second and erased by progress_end(), so that the stage's
 * result line is all that stays on the screen.
 *
 * progress_begin() draws nothing unless stderr is a terminal, or
 * KSERIES_PROGRESS=1 forces it; KSERIES_PROGRESS=0 turns it off.
 */
void progress_begin(const char *label);
void progress_end(void);
bool progress_active(void);
/* What the line says before its clock, changed without restarting it. */
void progress_set_label(const char *label);
/*
 * With a sink, the line is handed to sink (as progress_format() makes
 * it, "" when it ends) instead of being drawn, and is always on: a
 * parallel check's workers hand theirs to the process that draws.
 */
void progress_set_sink(void (*sink)(const char *line));
/* Whether stderr gets a status line (a terminal, or KSERIES_PROGRESS=1). */
bool progress_wanted(void);
/* Draws line (made by progress_format()) in place when wanted. */
void progress_show(const char *line);

/* Output from a child (buf, len) or, with buf NULL, a clock tick. */
void progress_feed(const char *buf, size_t len);

/*
 * The status line for label after seconds, with the child's last line
 * (may be NULL), cut to width columns. Only printable ASCII is kept, so
 * nothing a patch makes a build print can move the cursor. Caller frees.
 */
char *progress_format(const char *label, double seconds, const char *last,
		      unsigned width);

#endif
