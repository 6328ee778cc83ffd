/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KSERIES_COLOR_H
#define KSERIES_COLOR_H

#include <stdbool.h>

/*
 * Colour of the status words (pass, warn, fail, skip) in text output.
 *
 * Whether stdout gets colour, first rule that says:
 *   1. the command line: --color (always) or --no-color (never);
 *   2. git config kseries.color, else git's color.ui: always, never,
 *      auto, or a boolean (true is auto, as in git);
 *   3. NO_COLOR set and not empty (https://no-color.org/): never;
 *   4. auto: stdout is a terminal and TERM is not "dumb".
 * JSON, KCIDB and files never get colour.
 */
enum color_mode { COLOR_UNSET = -2, COLOR_AUTO = -1, COLOR_NEVER = 0,
		  COLOR_ALWAYS = 1 };

/* The command line's choice (rule 1). */
void color_set(enum color_mode mode);

/* True when stdout gets colour (decided once). */
bool color_stdout(void);

/*
 * The status word padded to width columns, coloured when stdout is;
 * a static buffer, valid until the next call. Other words pass as they
 * are.
 */
const char *color_status(const char *status, int width);

#endif
