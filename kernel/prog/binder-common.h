/* SPDX-License-Identifier: GPL-2.0 */
/*
 * binder-common.h - what the raw-ioctl binder test programs share:
 * fail(), and a private binderfs instance with devices of their own.
 *
 * Used by binder-defer-test.c, binder-handles-bench.c and
 * binder-throughput.c. The program defines PROGNAME (its name, for
 * messages and the mount point) before including this file. Everything
 * here is static inline, so a program that does not use a helper gets no
 * unused-function warning.
 *
 * binder_device(NAME) mounts binderfs once on /tmp/PROGNAME.XXXXXX
 * (needs CAP_SYS_ADMIN), adds the device NAME through binder-control and
 * returns its path (static storage, overwritten by the next call). The
 * process that mounted it unmounts it at exit; its forked children, which
 * run the atexit handlers too, do not. binder_device() fails (exit 1)
 * when binderfs cannot be mounted; a program for which that is a skip
 * calls binderfs_try_mount() first, which returns mount()'s errno.
 */
#ifndef BINDER_COMMON_H
#define BINDER_COMMON_H

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>
#include <linux/android/binderfs.h>

#ifndef PROGNAME
#error "define PROGNAME before including binder-common.h"
#endif

static inline void __attribute__((noreturn, format(printf, 1, 2)))
fail(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: error: ", PROGNAME);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(1);
}

static char binderfs_mnt[64];
static pid_t binderfs_owner;

static inline void binderfs_cleanup(void)
{
	if (binderfs_mnt[0] && getpid() == binderfs_owner) {
		umount2(binderfs_mnt, MNT_DETACH);
		rmdir(binderfs_mnt);
	}
}

/* 0 once binderfs is mounted, or the errno of mount() */
static inline int binderfs_try_mount(void)
{
	int e;

	if (binderfs_mnt[0])
		return 0;
	snprintf(binderfs_mnt, sizeof(binderfs_mnt), "/tmp/%s.XXXXXX",
		 PROGNAME);
	if (!mkdtemp(binderfs_mnt))
		fail("mkdtemp: %s", strerror(errno));
	if (mount("binder", binderfs_mnt, "binder", 0, NULL) < 0) {
		e = errno;
		rmdir(binderfs_mnt);
		binderfs_mnt[0] = '\0';
		return e;
	}
	binderfs_owner = getpid();
	atexit(binderfs_cleanup);
	return 0;
}

static inline void binderfs_mount(void)
{
	int e = binderfs_try_mount();

	if (e == ENODEV)
		fail("binderfs is not available (CONFIG_ANDROID_BINDERFS)");
	if (e)
		fail("cannot mount binderfs: %s", strerror(e));
}

static inline const char *binder_device(const char *name)
{
	static char devpath[128];
	struct binderfs_device bd;
	char ctl[96];
	int fd, n;

	binderfs_mount();
	n = snprintf(ctl, sizeof(ctl), "%s/binder-control", binderfs_mnt);
	if (n < 0 || (size_t)n >= sizeof(ctl))
		fail("path too long");
	fd = open(ctl, O_RDWR | O_CLOEXEC);
	if (fd < 0)
		fail("cannot open '%s': %s", ctl, strerror(errno));
	memset(&bd, 0, sizeof(bd));
	snprintf(bd.name, sizeof(bd.name), "%s", name);
	if (ioctl(fd, BINDER_CTL_ADD, &bd) < 0)
		fail("BINDER_CTL_ADD '%s': %s", name, strerror(errno));
	close(fd);
	n = snprintf(devpath, sizeof(devpath), "%s/%s", binderfs_mnt, bd.name);
	if (n < 0 || (size_t)n >= sizeof(devpath))
		fail("path too long");
	return devpath;
}

#endif /* BINDER_COMMON_H */
