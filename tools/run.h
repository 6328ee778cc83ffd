/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KSERIES_RUN_H
#define KSERIES_RUN_H

#include <stdbool.h>
#include <stddef.h>
#include <glib.h>

/*
 * Child processes. Every external tool (git, checkpatch, spatch, make,
 * qemu, the kernel/ scripts) is run through here with an argv array:
 * never through a shell, so that nothing from a mail can become a
 * command.
 */
struct run_opts {
	const char *dir;		/* working directory, or NULL */
	const char *const *env;		/* "NAME=VALUE" added, or NULL */
	const char *in;			/* bytes fed to stdin, or NULL */
	size_t in_len;
	bool capture_out;		/* collect stdout into out */
	bool capture_err;		/* collect stderr into err */
	bool merge_err;			/* stderr joins the captured stdout */
	unsigned timeout;		/* seconds; 0 means none */
};

struct run_result {
	int status;		/* exit code; 128+N after signal N; -1 if not run */
	bool timed_out;
	GString *out;		/* captured stdout, or NULL */
	GString *err;		/* captured stderr, or NULL */
};

/*
 * Runs argv[0] (looked up in PATH) with argv, waits for it and fills res.
 * Returns 0 when the child ran (whatever its exit status), -1 with an
 * error printed when it could not be started. Release res with
 * run_result_release().
 */
int run_argv(const char *const *argv, const struct run_opts *opts,
	     struct run_result *res);
void run_result_release(struct run_result *res);

/*
 * Runs argv with opts (its capture fields are ignored): stdout is appended
 * to out and stderr to err, either of which may be NULL. Returns the
 * child's exit status, or -1 with an error printed when it could not be
 * started. The one place where a child's output is collected whole.
 */
int run_output(const struct run_opts *opts, const char *const *argv,
	       GString *out, GString *err);

/*
 * Convenience: runs argv in dir, returns its stdout (trailing newline
 * stripped) in *out, or -1 with the child's stderr printed when it
 * fails. *out belongs to the caller.
 */
int run_capture(const char *dir, const char *const *argv, char **out);

/* Runs argv in dir with output passed through; returns the exit code. */
int run_passthrough(const char *dir, const char *const *argv);

/*
 * When set, run_argv() passes it every chunk a child writes to a captured
 * stream and, with buf NULL, a tick at least once a second while the
 * child runs (progress.c sets it for the status line of long stages).
 */
extern void (*run_progress_hook)(const char *buf, size_t len);

/* True if the program can be found in PATH. */
bool have_program(const char *name);

#endif
