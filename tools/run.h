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
	const char *const *env;		/* "NAME=VALUE" set, or NULL */
	const char *in;			/* bytes fed to stdin, or NULL */
	size_t in_len;
	bool capture_out;		/* collect stdout into out */
	bool capture_err;		/* collect stderr into err */
	bool merge_err;			/* stderr joins the captured stdout */
	unsigned timeout;		/* seconds; 0 means none */
	/*
	 * A git child reads no system or global config (nor the user's
	 * attributes file): its output cannot be changed by user settings.
	 * Repository config still applies; identity must then be given in
	 * env (GIT_COMMITTER_NAME, ...).
	 */
	bool git_pristine;
};

/*
 * The environment a child gets: ours, without git's repository variables
 * (git's local_repo_env: GIT_DIR, GIT_WORK_TREE, GIT_INDEX_FILE,
 * GIT_OBJECT_DIRECTORY, GIT_CONFIG_PARAMETERS, ...), GIT_CONFIG_KEY_<n> and
 * _VALUE_<n>, GIT_NAMESPACE and the GIT_EDITOR family, with opts->env
 * (and, for git_pristine, its variables) set on top. So a caller's
 * GIT_DIR never steers kseries' git into another repository. A NULL
 * terminated array the caller frees with g_strfreev().
 */
char **run_child_env(const struct run_opts *opts);

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
 * Runs argv with opts (dir, env, stdin, timeout; the capture fields are
 * ignored) and, when it exits 0, returns 0 with its stdout, trailing
 * newlines stripped, in *out (a new string; out may be NULL). With log,
 * its stderr is appended to log, and when it fails its stdout too, and
 * nothing is printed; without, a failure prints one error that names the
 * command and quotes its output. Returns -1 when it failed or could not
 * be started.
 */
int run_capture_opts(const struct run_opts *opts, const char *const *argv,
		     char **out, GString *log);

/* run_capture_opts() in dir, with no env, stdin or log. */
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
