/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KSERIES_UTIL_H
#define KSERIES_UTIL_H

#include <stdbool.h>
#include <stddef.h>
#include <glib.h>

/* Exit codes (DESIGN.md §3). */
enum {
	EXIT_FINDINGS = 1,	/* a failure, or findings were reported */
	EXIT_FATAL = 128,
	EXIT_USAGE = 129,
};

/*
 * Diagnostics, printed once to stderr as "kseries: error: ...".
 * error() and error_errno() return -1 so that callers can write
 * `return error("...")`. die() exits with EXIT_FATAL and is for
 * cmd-*.c only, before any side effect.
 */
int error(const char *fmt, ...) G_GNUC_PRINTF(1, 2);
int error_errno(const char *fmt, ...) G_GNUC_PRINTF(1, 2);
void warning(const char *fmt, ...) G_GNUC_PRINTF(1, 2);
G_GNUC_NORETURN void die(const char *fmt, ...) G_GNUC_PRINTF(1, 2);
G_GNUC_NORETURN void usage(const char *text);

struct stat;

/*
 * Opens path for reading when it is a regular file (a symlink to one
 * is fine), without waiting on a FIFO or a device: anything else is
 * refused with one error. Fills *st when st is not NULL. Returns the
 * file descriptor (O_CLOEXEC, blocking) or -1.
 */
int open_regular(const char *path, struct stat *st);

/*
 * Reads the whole of path (a regular file, open_regular()) into a NUL-terminated buffer that the caller
 * frees with g_free(). Files larger than max bytes are refused.
 */
int read_file(const char *path, size_t max, char **buf, size_t *len);

/*
 * Writes buf to path atomically: a temporary file NAME.tmp.XXXXXX in the
 * same directory (mode 0666 & ~umask), fsync, rename, fsync of the
 * directory. On failure nothing at path changes and the temporary file
 * is removed. The last component is never followed: a symlink (or
 * anything but a regular file) at path is refused. The first write into
 * a directory removes the temporary files killed writes left there
 * (older than ten minutes).
 */
int write_file_atomic(const char *path, const char *buf, size_t len);

/*
 * Writes into the store go through directory file descriptors, so that
 * no symlink in the store is ever followed for writing, whatever
 * series/NAME, vN/, feedback/ or a file in them was made to point to.
 * root (the top of the store) is opened as given; every component of a
 * path relative to it is opened O_DIRECTORY | O_NOFOLLOW and created
 * (mode 0777 & ~umask) by mkdirat(); files are written by openat() and
 * renameat() in the descriptor of their directory. A symlink is refused
 * with one error ("'…' is a symbolic link: not writing through it").
 */

/* The directory root/rel as an O_DIRECTORY descriptor, or -1. */
int open_dir_below(const char *root, const char *rel, bool create);

/*
 * write_file_atomic() of name in the directory dirfd (borrowed; dir
 * names it in messages).
 */
int write_file_atomic_at(int dirfd, const char *dir, const char *name,
			 const char *buf, size_t len);

/*
 * write_file_atomic_at() without its syncs: name is replaced by a
 * rename, so no reader ever sees it half-written, but a crash may leave
 * it old, empty or short. For files derived from others that readers
 * verify before use (a cache), whose loss costs only their remaking.
 */
int write_file_replace_at(int dirfd, const char *dir, const char *name,
			  const char *buf, size_t len);

/* write_file_atomic() of root/rel, its directories made as needed. */
int write_file_below(const char *root, const char *rel, const char *buf,
		     size_t len);

/*
 * Checks before writing: each component of root/rel that exists is a
 * real directory (not a symlink), and the last, when it exists, is of
 * type (S_IFREG or S_IFDIR) and no symlink. Returns 0, or -1 with one
 * error. For writers that cannot go through a descriptor (git config).
 */
int check_below(const char *root, const char *rel, int type);

/*
 * Many files in one directory, each atomic, synced together: add()
 * writes a temporary file, commit() syncs them all at once (syncfs; one
 * file is fsynced), renames each over its name and fsyncs the directory
 * once (a commit also happens by
 * itself every 4096 files). What a crash leaves is, for each name, the
 * old or the new whole file. free() removes what was not committed.
 * new() takes ownership of dirfd; dir names it in messages.
 */
struct write_batch;
struct write_batch *write_batch_new(int dirfd, const char *dir);
int write_batch_add(struct write_batch *b, const char *name, const char *buf,
		    size_t len);
int write_batch_commit(struct write_batch *b);
void write_batch_free(struct write_batch *b);

/*
 * Makes a new directory PREFIXXXXXXX in dirfd (mode 0777 & ~umask, not
 * mkdtemp's 0700: it is renamed into the store); returns its name (new
 * string) or NULL with an error (dir names dirfd).
 */
char *mkdtemp_at(int dirfd, const char *dir, const char *prefix);

/* mkdir -p, mode 0777 & ~umask. */
int mkdir_p(const char *path);

/* Removes a directory tree (no symlinks followed). */
int remove_tree(const char *path);

/*
 * The entries of the directory dir (never "." or ".."), sorted by
 * strcmp(), only those keep(dir, name, data) accepts when keep is not
 * NULL. Empty when dir cannot be read. New array of new strings.
 */
GPtrArray *dir_names_sorted(const char *dir,
			    bool (*keep)(const char *dir, const char *name,
					 void *data),
			    void *data);

/* True if path exists and is a directory / a regular file. */
bool is_dir(const char *path);
bool is_file(const char *path);

/*
 * Turns a subject into a file name the way git format-patch does
 * (format_sanitized_subject): runs of characters other than [A-Za-z0-9._]
 * become one '-', no leading '.' or '-', no trailing '-' or '.', at most
 * 64 bytes. Never contains '/', so it cannot leave its directory.
 * Returns a new string the caller frees.
 */
char *slugify(const char *subject);

/*
 * True if name is safe as one path component: not empty, not "." or "..",
 * no '/', no NUL, no control characters, not starting with '-'.
 */
bool safe_component(const char *name);

/* Memory search helpers for byte buffers. */
const char *memmem_str(const char *hay, size_t len, const char *needle);
bool starts_with(const char *s, const char *prefix);
bool mem_starts_with(const char *p, size_t len, const char *prefix);

#endif
