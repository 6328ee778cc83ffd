/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KSERIES_SCRATCH_H
#define KSERIES_SCRATCH_H

/*
 * Scratch directories that a later run sweeps when this one is killed.
 *
 * scratch_dir_make() creates $TMPDIR/kseries-WHAT-pPID-XXXXXX holding a file
 * .owner on which this process keeps an exclusive flock(2) until
 * scratch_dir_remove(). The kernel drops the lock when the process dies,
 * however it dies (kill -9 included), so a directory whose .owner can be
 * locked belongs to nobody: scratch_sweep() removes those. A directory
 * without an .owner is one whose maker was killed between mkdir and
 * creating its .owner, or is in that window now: it is removed when the
 * process its name names (pPID) is gone, left otherwise (as are those
 * of older versions, whose names carry no pid).
 */

/*
 * Sweeps (once per process), then makes a scratch directory for what
 * (a word: "format", "apply"). Returns its path (the caller's, released
 * by scratch_dir_remove()), or NULL with an error printed.
 */
char *scratch_dir_make(const char *what);

/* Removes dir and all in it, drops its lock and frees dir. NULL is ok. */
void scratch_dir_remove(char *dir);

/* Removes the scratch directories in $TMPDIR whose owner is gone. */
void scratch_sweep(void);

#endif
