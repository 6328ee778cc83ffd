/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KSERIES_PARSE_OPTIONS_H
#define KSERIES_PARSE_OPTIONS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <glib.h>

/*
 * parse-options - one table-driven option parser for every command, in
 * the manner of git's parse-options.h.
 *
 * Why this and not GLib's GOptionContext (which GMime brings along):
 * kseries' users are git and b4 users, and DESIGN.md §3 promises git's
 * conventions: `--opt=value` and `--opt value`, bundled short options
 * (`-dv`, `-j4`, `-w DIR`), `--no-NAME` for every boolean (and `--NAME`
 * for one spelt `--no-NAME`), `--` ending the options, arguments and
 * options in any order, `-h` printing the synopsis to stdout, and a bad
 * option answered with one error line and the synopsis on stderr, exit
 * 129. GOptionContext prints GLib's own "Usage:"/"Help Options:" blocks,
 * has no `--no-` forms, exits 1 on a bad option, translates through
 * gettext and accepts unique prefixes of long options, which would
 * silently bind today's `--ver` to tomorrow's `--verify`. And the table
 * is what the rest of the conventions hang on: each option is also read
 * from git config (below) and the man pages and completion list it.
 *
 * Long options are matched exactly: no abbreviations.
 *
 * Git config. When parse_options() is given the command's name, every
 * option without PARSE_OPT_NOCONFIG that the command line did not give is
 * read from `kseries.<command>.<long-name>` (and, when the option names
 * one, from another tool's key such as `format.coverLetter`, which the
 * kseries key overrides). The command line always wins. A boolean takes
 * git's values (true/yes/on/1, false/no/off/0, a key without a value
 * is true); a list option takes every value of a multi-valued key; any
 * other option takes the last value. The config is what `git config
 * --list` of the current directory gives, read in-process with libgit2
 * (no child process), once per process and only when a lookup needs it:
 * the system file ($GIT_CONFIG_SYSTEM or /etc/gitconfig, none with
 * GIT_CONFIG_NOSYSTEM), $GIT_CONFIG_GLOBAL or else the XDG file and
 * ~/.gitconfig, the repository's config (the repository git would find:
 * $GIT_DIR, else up from the current directory) and its config.worktree
 * under extensions.worktreeConfig, then GIT_CONFIG_COUNT's pairs, each
 * over the ones before; include directives are followed as git does.
 * A value that could not be read is left unset. An error quoting a
 * value shows its control characters escaped (\033), never raw.
 */

enum parse_opt_type {
	OPTION_END = 0,
	OPTION_BOOL,		/* bool *: true; --no-NAME sets false */
	OPTION_SET_INT,		/* int *: defval; --no-NAME sets 0 */
	OPTION_STRING,		/* const char **: the last one wins */
	OPTION_STRING_LIST,	/* GPtrArray *: each value appended (borrowed) */
	OPTION_CALLBACK,	/* callback(opt, arg, unset) */
};

enum parse_opt_option_flags {
	PARSE_OPT_NONEG = 1 << 0,	/* no --no-NAME form */
	PARSE_OPT_NOCONFIG = 1 << 1,	/* never read from git config */
	PARSE_OPT_NOARG = 1 << 2,	/* a callback that takes no value */
	PARSE_OPT_HIDDEN = 1 << 3,	/* not listed by -h */
};

enum parse_opt_flags {
	/* The first non-option argument ends the options (global options). */
	PARSE_OPT_STOP_AT_NON_OPTION = 1 << 0,
};

struct option;

/*
 * A callback gets the option, its value (NULL for a NOARG callback or
 * with unset) and unset (true for --no-NAME, or a false boolean in git
 * config). It returns 0, or -1 after printing one error: the parser then
 * prints the synopsis and exits with EXIT_USAGE.
 */
typedef int parse_opt_cb(const struct option *opt, const char *arg,
			 bool unset);

struct option {
	enum parse_opt_type type;
	int short_name;		/* 'w', or 0 */
	const char *long_name;	/* "worktree", or NULL */
	void *value;
	const char *argh;	/* the value's name in the help: "DIR" */
	const char *help;
	unsigned flags;		/* enum parse_opt_option_flags */
	parse_opt_cb *callback;
	intptr_t defval;	/* OPTION_SET_INT */
	const char *config;	/* another tool's git config key, or NULL */
};

/* The table's rows; the _F forms take enum parse_opt_option_flags. */
#define OPT_END() { .type = OPTION_END }
#define OPT_BOOL_F(s, l, v, h, f) \
	{ .type = OPTION_BOOL, .short_name = (s), .long_name = (l), \
	  .value = (v), .help = (h), .flags = (f) }
#define OPT_SET_INT_F(s, l, v, i, h, f) \
	{ .type = OPTION_SET_INT, .short_name = (s), .long_name = (l), \
	  .value = (v), .defval = (i), .help = (h), .flags = (f) }
#define OPT_STRING_F(s, l, v, a, h, f) \
	{ .type = OPTION_STRING, .short_name = (s), .long_name = (l), \
	  .value = (v), .argh = (a), .help = (h), .flags = (f) }
#define OPT_STRING_LIST_F(s, l, v, a, h, f) \
	{ .type = OPTION_STRING_LIST, .short_name = (s), .long_name = (l), \
	  .value = (v), .argh = (a), .help = (h), .flags = (f) }
#define OPT_CALLBACK_F(s, l, v, a, h, cb, f) \
	{ .type = OPTION_CALLBACK, .short_name = (s), .long_name = (l), \
	  .value = (v), .argh = (a), .help = (h), .callback = (cb), \
	  .flags = (f) }
#define OPT_BOOL(s, l, v, h) OPT_BOOL_F(s, l, v, h, 0)
#define OPT_SET_INT(s, l, v, i, h) OPT_SET_INT_F(s, l, v, i, h, 0)
#define OPT_STRING(s, l, v, a, h) OPT_STRING_F(s, l, v, a, h, 0)
#define OPT_STRING_LIST(s, l, v, a, h) OPT_STRING_LIST_F(s, l, v, a, h, 0)
#define OPT_CALLBACK(s, l, v, a, h, cb) OPT_CALLBACK_F(s, l, v, a, h, cb, 0)

/*
 * Parses argv[1..argc-1] (argv[0] is the command's name) against opts.
 * Options are applied in the order given, then git config fills in what
 * the command line did not give (cmd is the `kseries.<cmd>.` subsection;
 * NULL reads no config). The non-option arguments are moved to the
 * front of argv, in order, and their count is returned; argv[count] is
 * NULL. With PARSE_OPT_STOP_AT_NON_OPTION, parsing stops at the first
 * non-option argument, which is argv[0] on return.
 *
 * `-h` and `--help` (unless the table has its own -h) print the help
 * (parse_options_help()) to stdout and exit 0. A bad option, a missing
 * or unwanted value prints one error line and "usage: <usagestr>" to
 * stderr and exits EXIT_USAGE (129); a bad config value exits
 * EXIT_FATAL after one error naming the key.
 */
int parse_options(int argc, const char **argv, const char *cmd,
		  const struct option *opts, const char *usagestr,
		  unsigned flags);

/*
 * Prints "usage: <usagestr>", a blank line and one line per option
 * (git's layout: "    -w, --worktree DIR    help") to fp; with cmd, a
 * last line names the options git config may set.
 */
void parse_options_help(FILE *fp, const char *cmd,
			const struct option *opts, const char *usagestr);

/*
 * Git config, as parse_options() reads it. config_get() finds the last
 * value of key (git's case rules: the section and the variable name are
 * case-insensitive, a subsection is not): returns true and sets *value
 * (borrowed; NULL for a key without "= value") when it is set.
 * config_get_all() returns every value (borrowed array) or NULL.
 * config_bool() parses a value as git does: 1, 0, or -1 when it is not
 * a boolean.
 */
bool config_get(const char *key, const char **value);
GPtrArray *config_get_all(const char *key);
int config_bool(const char *value);

/*
 * Replaces git config with pairs, "key=value" or "key" (no value),
 * NULL-terminated: for tests. NULL goes back to reading git config.
 */
void config_set_for_test(const char *const *pairs);

#endif
