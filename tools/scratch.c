// SPDX-License-Identifier: GPL-2.0-only
/*
 * scratch.c - temporary directories a killed run leaves for the next one
 * to sweep.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/file.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>
#include <glib.h>

#include "scratch.h"
#include "util.h"
#include "banned.h"

#define SCRATCH_PREFIX "kseries-"
#define OWNER ".owner"

/* dir → the fd holding its lock, for the directories this process made */
static GHashTable *owned;

/* Whether name is a scratch directory's: kseries-WORD-XXXXXX. */
static bool scratch_name(const char *name)
{
	const char *dash = strrchr(name, '-');

	if (!starts_with(name, SCRATCH_PREFIX) || !dash ||
	    dash < name + strlen(SCRATCH_PREFIX) || strlen(dash + 1) != 6)
		return false;
	for (const char *p = name + strlen(SCRATCH_PREFIX); p < dash; p++)
		if (!g_ascii_isalnum(*p) && *p != '-')
			return false;
	for (const char *p = dash + 1; *p; p++)
		if (!g_ascii_isalnum(*p))
			return false;
	return true;
}

/*
 * A directory a sweeper renamed to NAME.dead before removing it: its
 * owner is known dead, and a sweeper killed while removing it left the
 * rest (perhaps without its .owner) for the next one.
 */
static bool dead_name(const char *name)
{
	size_t n = strlen(name);

	return starts_with(name, SCRATCH_PREFIX) && n > 5 &&
	       !strcmp(name + n - 5, ".dead");
}

/*
 * Whether name (kseries-WHAT-pPID-XXXXXX) names a process that is gone:
 * its maker died before it could create the .owner. A pid that is
 * alive, reused or not, leaves the directory for a later sweep.
 */
static bool maker_gone(const char *name)
{
	const char *dash = strrchr(name, '-'), *p;
	char *end;
	long pid;

	for (p = dash; p > name && p[-1] != '-'; p--)
		;
	if (!dash || p == dash || *p != 'p')
		return false;
	errno = 0;
	pid = strtol(p + 1, &end, 10);
	if (errno || end != dash || pid <= 0 || pid > INT_MAX)
		return false;
	return kill((pid_t)pid, 0) < 0 && errno == ESRCH;
}

/* Out of the live names first, then removed (see scratch_sweep()). */
static void remove_dead(const char *path)
{
	char *gone = g_strconcat(path, ".dead", NULL);

	if (!rename(path, gone))
		remove_tree(gone);
	g_free(gone);
}

void scratch_sweep(void)
{
	const char *tmp = g_get_tmp_dir();
	uid_t uid = getuid();
	struct dirent *de;
	DIR *d = opendir(tmp);

	while (d && (de = readdir(d))) {
		struct stat st;
		char *path;
		int dfd, fd;
		bool dead = dead_name(de->d_name), no_owner;

		if ((!dead && !scratch_name(de->d_name)) ||
		    fstatat(dirfd(d), de->d_name, &st, AT_SYMLINK_NOFOLLOW) < 0 ||
		    !S_ISDIR(st.st_mode) || st.st_uid != uid)
			continue;
		if (dead) {
			path = g_build_filename(tmp, de->d_name, NULL);
			remove_tree(path);
			g_free(path);
			continue;
		}
		dfd = openat(dirfd(d), de->d_name,
			     O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (dfd < 0)
			continue;
		fd = openat(dfd, OWNER, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
		no_owner = fd < 0 && errno == ENOENT;
		close(dfd);
		path = g_build_filename(tmp, de->d_name, NULL);
		if (fd < 0) {
			if (no_owner && maker_gone(de->d_name))
				remove_dead(path);
			g_free(path);
			continue;
		}
		/* ours, made by this process: flock would succeed on it */
		if ((!owned || !g_hash_table_contains(owned, path)) &&
		    flock(fd, LOCK_EX | LOCK_NB) == 0) {
			/* out of the live names first: a kill while it is
			 * removed leaves a NAME.dead, never a directory
			 * without its .owner under a live name */
			remove_dead(path);
		}
		close(fd);
		g_free(path);
	}
	if (d)
		closedir(d);
}

/*
 * Makes one scratch directory and locks it; -1 when a sweeper took it
 * between the lock file's creation and our lock (it is gone then).
 */
static int make_locked(const char *what, char **dirp, int *fdp)
{
	char *templ = g_strdup_printf("%s%s-p%ld-XXXXXX", SCRATCH_PREFIX, what,
				      (long)getpid());
	char *dir = g_dir_make_tmp(templ, NULL), *owner;
	struct stat st;
	int fd, ret = 0;

	g_free(templ);
	*dirp = NULL;
	if (!dir)
		return error_errno("cannot create a temporary directory");
	owner = g_build_filename(dir, OWNER, NULL);
	fd = open(owner, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
		  0600);
	if (fd < 0 || flock(fd, LOCK_EX) < 0 || fstat(fd, &st) < 0) {
		ret = error_errno("cannot lock '%s'", owner);
	} else if (st.st_nlink == 0) {
		ret = 1;
	} else {
		*dirp = dir;
		*fdp = fd;
		fd = -1;
		dir = NULL;
	}
	if (fd >= 0)
		close(fd);
	if (dir)
		remove_tree(dir);
	g_free(dir);
	g_free(owner);
	return ret;
}

char *scratch_dir_make(const char *what)
{
	static bool swept;
	char *dir = NULL;
	int fd = -1, ret = 1;

	if (!swept) {
		scratch_sweep();
		swept = true;
	}
	for (int tries = 0; ret > 0 && tries < 3; tries++)
		ret = make_locked(what, &dir, &fd);
	if (ret > 0)
		error("cannot keep a temporary directory: another run sweeps it");
	if (ret)
		return NULL;
	if (!owned)
		owned = g_hash_table_new_full(g_str_hash, g_str_equal, g_free,
					      NULL);
	g_hash_table_insert(owned, g_strdup(dir), GINT_TO_POINTER(fd));
	return dir;
}

void scratch_dir_remove(char *dir)
{
	gpointer fd;
	char *gone;

	if (!dir)
		return;
	/* as the sweeper does: a kill while it goes leaves a NAME.dead */
	gone = g_strconcat(dir, ".dead", NULL);
	remove_tree(rename(dir, gone) ? dir : gone);
	g_free(gone);
	if (owned && g_hash_table_lookup_extended(owned, dir, NULL, &fd)) {
		close(GPOINTER_TO_INT(fd));
		g_hash_table_remove(owned, dir);
	}
	g_free(dir);
}
