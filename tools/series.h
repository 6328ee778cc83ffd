/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KSERIES_SERIES_H
#define KSERIES_SERIES_H

#include <stdbool.h>
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
/* All values of a multi-valued key (e.g. series.cc); NULL if none. */
GPtrArray *series_get_all(const struct series *s, const char *key);

/* Writes one value (replacing) with `git config -f`; atomic (git locks). */
int series_set(struct series *s, const char *key, const char *value);
/* Adds a value to a multi-valued key unless already present. */
int series_add(struct series *s, const char *key, const char *value);

/* Reads a git-config file into a table like s->conf. */
int conf_read(const char *path, GHashTable **conf);
/* The parsing half of conf_read(): `git config --list -z` output. */
GHashTable *conf_parse(const char *buf, size_t len);

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
