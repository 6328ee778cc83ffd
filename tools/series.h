/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KSERIES_SERIES_H
#define KSERIES_SERIES_H

#include <stdbool.h>
#include <stdio.h>
#include <glib.h>

/*
 * The series store (DESIGN.md §2):
 *   series/<name>/series.conf      git-config syntax
 *   series/<name>/v<N>/0000-cover-letter.patch, 0001-<slug>.patch, …
 *   series/<name>/v<N>/thread.mbox
 *   series/<name>/feedback/…
 *
 * The store is found from $KSERIES_DIR, else by walking up from the
 * current directory to the first one holding a series/ directory.
 */

/* The top of the store (the directory that holds series/); borrowed. */
const char *store_top(void);

/* Sets the top explicitly (the -C option); path is copied. */
void store_set_top(const char *path);

struct series {
	char *name;
	char *dir;		/* <top>/series/<name> */
	char *conf_path;	/* <dir>/series.conf */
	GHashTable *conf;	/* "section.key" → GPtrArray of char * */
};

/*
 * Loads a series by name; name must be one safe path component.
 * Returns 0, or -1 with an error printed ("no series 'x'").
 */
int series_load(const char *name, struct series *s);
void series_release(struct series *s);

/* Lists the series names, sorted; the array owns its strings. */
GPtrArray *series_list_names(void);

/*
 * Configuration values. Keys are git's: "series.title",
 * "version.2.message-id". Returns the last value (as git does) or NULL;
 * borrowed from s.
 */
const char *series_get(const struct series *s, const char *key);
/*
 * The one accessor of a version's keys: series_version_get(s, 2,
 * "message-id") is series_get(s, "version.2.message-id").
 */
const char *series_version_get(const struct series *s, int version,
			       const char *key);
/* All values of a multi-valued key (e.g. series.cc); NULL if none. */
GPtrArray *series_get_all(const struct series *s, const char *key);

/*
 * Writes one value (replacing; an error when the key has several).
 * series.conf is edited with libgit2's config writer, in git-config
 * syntax that `git config -f` reads, and replaced atomically (temporary
 * file, fsync, rename); a symbolic link there is refused, never written
 * through. A value with a line break or another control character is
 * refused with an error naming the key (nothing is written).
 */
int series_set(struct series *s, const char *key, const char *value);
/* Removes key (single-valued) from series.conf; 0 if it was not there. */
int series_unset(struct series *s, const char *key);
/* series_set() of "version.<version>.<key>". */
int series_version_set(struct series *s, int version, const char *key,
		       const char *value);
/* series_unset() of "version.<version>.<key>"; 0 if it was not there. */
int series_version_unset(struct series *s, int version, const char *key);
/*
 * Adds a value to a multi-valued key unless already present, as git
 * config --add would but at the end of the file (under a new [section]
 * header when another section comes last), as libgit2 does.
 */
int series_add(struct series *s, const char *key, const char *value);

/*
 * Reads a git-config file into a table like s->conf, in-process (no
 * git config child): "section.key" and "section.sub.key" with git's
 * case rules, a value-less key read as "true". The file must be a
 * regular file (not a link); include directives are refused (git
 * config -f does not follow them), and so is a value a mail header
 * could not carry (conf_value_problem()): one error names the key,
 * never the value.
 */
int conf_read(const char *path, GHashTable **conf);
/* conf_read() of a file's bytes; NULL with an error printed. */
GHashTable *conf_parse(const char *buf, size_t len);
/*
 * NULL when value may reach a mail header, or what is wrong with it: a
 * line break, a carriage return, another control character (C0 but
 * TAB, DEL, C1), bytes that are not UTF-8.
 */
const char *conf_value_problem(const char *value);

/*
 * The state of a series, [series] state in series.conf: "active" when
 * unset, or "withdrawn" (not to be posted: kept as the record of why,
 * with a state-reason that says it). series_load() refuses a series
 * whose state is another word, or withdrawn without a reason, with one
 * error line. A withdrawn series is listed (list, status) with its
 * state, skipped by check --all (an explicit check of it still runs:
 * its evidence may be wanted) and refused by format and send.
 */
enum series_state {
	SERIES_ACTIVE,
	SERIES_WITHDRAWN,
};

enum series_state series_state(const struct series *s);
/* "active" or "withdrawn". */
const char *series_state_name(enum series_state st);
/* The reason a withdrawn series gives; NULL when it is active. Borrowed. */
const char *series_state_reason(const struct series *s);

/*
 * Records s as withdrawn for reason (one line a mail header could
 * carry, not empty): state-reason, then state, in one store
 * transaction, so that a crash leaves it active or withdrawn with its
 * reason, never withdrawn without one. Returns 0 or -1 with one error
 * (and nothing written).
 */
int series_withdraw(struct series *s, const char *reason);

/*
 * For check: whether check skips s. A withdrawn series is skipped by
 * check --all (all) and checked when named, since its evidence may be
 * wanted; either way one line on out says so.
 */
bool series_check_skips(const struct series *s, bool all, FILE *out);

/*
 * For format and send, before anything is written: 0 when the series
 * spec names is active; -1 with one error when it is withdrawn (what
 * says which command refuses) or cannot be loaded.
 */
int series_refuse_withdrawn(const char *spec, const char *what);

/* The versions present (as vN directories or [version "N"]), sorted. */
GArray *series_versions(const struct series *s);
int series_latest_version(const struct series *s);

/* <dir>/v<N>; new string. */
char *series_version_dir(const struct series *s, int version);

/*
 * The patch files of a version, sorted: 0001-*.patch … (the cover
 * letter, 0000-cover-letter.patch, is left out unless with_cover).
 * Full paths; the array owns its strings.
 */
GPtrArray *series_patch_files(const struct series *s, int version,
			      bool with_cover);

/*
 * Parses "NAME" or "NAME@vN" into name and version (0 when absent).
 * Returns -1 with an error on a malformed spec. *name is new.
 */
int series_parse_spec(const char *spec, char **name, int *version);

#endif
