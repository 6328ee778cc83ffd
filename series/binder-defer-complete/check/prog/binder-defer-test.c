// SPDX-License-Identifier: GPL-2.0
/*
 * binder-defer-test - TF_DEFER_COMPLETE on BC_REPLY, through raw binder ioctls
 *
 * usage: binder-defer-test [-n N]
 *        binder-defer-test [-d DEVICE] order
 *        binder-defer-test [-d DEVICE] [-n N] [-x MAX] count defer|classic
 *
 * Runs a server process (the context manager of a fresh binder device) and a
 * client process, and talks to the driver the way libbinder does, without
 * libbinder.
 *
 * order: the server replies to a transaction with BC_REPLY and
 * TF_DEFER_COMPLETE while a one-way transaction already waits in its process
 * queue, and reads in the same ioctl. The deferred BR_TRANSACTION_COMPLETE is
 * thread work and must come out first, then the queued BR_TRANSACTION (rust
 * binder's get_work() contract: thread work before process work). With the v2
 * patch, thread_has_deferred_work was always false and the server got
 * BR_TRANSACTION, then the stale BR_TRANSACTION_COMPLETE. A kernel without
 * TF_DEFER_COMPLETE returns the BR_TRANSACTION_COMPLETE alone (exit 77).
 *
 * count: N synchronous transactions, client to server, one at a time. The
 * server counts its ioctls. "classic" is libbinder today: BC_REPLY in its own
 * ioctl (which returns BR_TRANSACTION_COMPLETE), then BC_FREE_BUFFER and the
 * wait for the next transaction in another. "defer" is the libbinder the patch
 * describes: BC_FREE_BUFFER + BC_REPLY with TF_DEFER_COMPLETE + the wait in one
 * ioctl. With -x MAX, fail unless the server used at most MAX ioctls per
 * transaction (a count, not a time).
 *
 * Without arguments (as the VM harness runs it): order, count classic and
 * count defer, each on a device of its own, then one summary line
 *	binder-defer-test: order=ok|FAIL|unsupported classic_ioctls_per_txn=X
 *	defer_ioctls_per_txn=Y saved=Z%
 * where "defer" must stay at or below 1.1 ioctls per transaction when the
 * kernel supports the flag.
 *
 * DEVICE is a binder device node. Without -d, a private binderfs instance is
 * mounted on a temporary directory and a device is added to it through
 * binder-control (needs CAP_SYS_ADMIN), so the test owns the context manager.
 *
 * Exit: 0 pass, 1 fail, 2 usage, 77 the kernel lacks TF_DEFER_COMPLETE.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <linux/android/binder.h>

#define PROGNAME "binder-defer-test"
#include "binder-common.h"

/* include/uapi/linux/android/binder.h with the patch; an enum, not a macro */
#define TF_DEFER_COMPLETE_ 0x80

#define MAP_SIZE (128 * 1024)
#define EXIT_SKIP 77
#define CODE_PING 1
#define CODE_ONEWAY 2
#define CODE_LAST 3

/* Return commands read from the driver. */
struct rbuf {
	uint32_t data[1024];
	size_t len;
};

struct conn {
	int fd;
	void *map;
	unsigned long ioctls;	/* BINDER_WRITE_READ calls made */
	/* pending commands, flushed with the next ioctl (libbinder's mOut) */
	unsigned char out[1024];
	size_t out_len;
	/* what the last read returned */
	struct rbuf in;
};

static void conn_open(struct conn *c, const char *dev)
{
	memset(c, 0, sizeof(*c));
	c->fd = open(dev, O_RDWR | O_CLOEXEC);
	if (c->fd < 0)
		fail("cannot open '%s': %s", dev, strerror(errno));
	c->map = mmap(NULL, MAP_SIZE, PROT_READ, MAP_PRIVATE, c->fd, 0);
	if (c->map == MAP_FAILED)
		fail("cannot mmap '%s': %s", dev, strerror(errno));
}

static void out_put(struct conn *c, const void *p, size_t len)
{
	if (c->out_len + len > sizeof(c->out))
		fail("command buffer full");
	memcpy(c->out + c->out_len, p, len);
	c->out_len += len;
}

static void out_cmd(struct conn *c, uint32_t cmd)
{
	out_put(c, &cmd, sizeof(cmd));
}

static void out_txn(struct conn *c, uint32_t cmd, uint32_t handle,
		    uint32_t code, uint32_t flags, const void *data,
		    size_t len)
{
	struct binder_transaction_data tr;

	memset(&tr, 0, sizeof(tr));
	tr.target.handle = handle;
	tr.code = code;
	tr.flags = flags;
	tr.data_size = len;
	tr.data.ptr.buffer = (binder_uintptr_t)(uintptr_t)data;
	out_cmd(c, cmd);
	out_put(c, &tr, sizeof(tr));
}

static void out_free(struct conn *c, binder_uintptr_t buf)
{
	out_cmd(c, BC_FREE_BUFFER);
	out_put(c, &buf, sizeof(buf));
}

/*
 * One BINDER_WRITE_READ: flush the pending commands, then read if @read.
 * Returns the number of bytes read into c->in.
 */
static size_t conn_ioctl(struct conn *c, bool read)
{
	struct binder_write_read bwr;

	memset(&bwr, 0, sizeof(bwr));
	bwr.write_buffer = (binder_uintptr_t)(uintptr_t)c->out;
	bwr.write_size = c->out_len;
	if (read) {
		bwr.read_buffer = (binder_uintptr_t)(uintptr_t)c->in.data;
		bwr.read_size = sizeof(c->in.data);
	}
	c->ioctls++;
	while (ioctl(c->fd, BINDER_WRITE_READ, &bwr) < 0) {
		if (errno != EINTR)
			fail("BINDER_WRITE_READ: %s", strerror(errno));
	}
	if (bwr.write_consumed != c->out_len)
		fail("driver consumed %llu of %zu command bytes",
		     (unsigned long long)bwr.write_consumed, c->out_len);
	c->out_len = 0;
	c->in.len = bwr.read_consumed;
	return bwr.read_consumed;
}

static const char *br_name(uint32_t cmd)
{
	switch (cmd) {
	case BR_NOOP: return "BR_NOOP";
	case BR_TRANSACTION_COMPLETE: return "BR_TRANSACTION_COMPLETE";
	case BR_TRANSACTION: return "BR_TRANSACTION";
	case BR_REPLY: return "BR_REPLY";
	case BR_INCREFS: return "BR_INCREFS";
	case BR_ACQUIRE: return "BR_ACQUIRE";
	case BR_RELEASE: return "BR_RELEASE";
	case BR_DECREFS: return "BR_DECREFS";
	case BR_SPAWN_LOOPER: return "BR_SPAWN_LOOPER";
	case BR_ERROR: return "BR_ERROR";
	case BR_FAILED_REPLY: return "BR_FAILED_REPLY";
	case BR_DEAD_REPLY: return "BR_DEAD_REPLY";
	case BR_FROZEN_REPLY: return "BR_FROZEN_REPLY";
	case BR_ONEWAY_SPAM_SUSPECT: return "BR_ONEWAY_SPAM_SUSPECT";
	default: return "BR_?";
	}
}

/* A parsed return command: its code and its payload inside c->in. */
struct br {
	uint32_t cmd;
	const void *arg;
};

/* Walks @in; returns false at the end. */
static bool br_next(const struct rbuf *in, size_t *pos, struct br *br)
{
	const unsigned char *p = (const unsigned char *)in->data;
	size_t size;

	if (*pos >= in->len)
		return false;
	if (in->len - *pos < sizeof(uint32_t))
		fail("truncated return command");
	memcpy(&br->cmd, p + *pos, sizeof(br->cmd));
	size = _IOC_SIZE(br->cmd);
	if (in->len - *pos - sizeof(uint32_t) < size)
		fail("truncated %s", br_name(br->cmd));
	br->arg = p + *pos + sizeof(uint32_t);
	*pos += sizeof(uint32_t) + size;
	return true;
}

/*
 * Reference counting commands on the server's own node: acknowledge them
 * with the next ioctl, as libbinder does.
 */
static bool handle_refs(struct conn *c, const struct br *br)
{
	struct binder_ptr_cookie pc;

	switch (br->cmd) {
	case BR_INCREFS:
	case BR_ACQUIRE:
		memcpy(&pc, br->arg, sizeof(pc));
		out_cmd(c, br->cmd == BR_INCREFS ? BC_INCREFS_DONE :
						   BC_ACQUIRE_DONE);
		out_put(c, &pc, sizeof(pc));
		return true;
	case BR_RELEASE:
	case BR_DECREFS:
	case BR_NOOP:
	case BR_SPAWN_LOOPER:
		return true;
	}
	return false;
}

static void set_context_mgr(struct conn *c)
{
	if (ioctl(c->fd, BINDER_SET_CONTEXT_MGR, 0) < 0)
		fail("BINDER_SET_CONTEXT_MGR: %s", strerror(errno));
}

/* Pipes between the server (child) and the client (parent). */
static int to_server[2], to_client[2];

static void say(int fd, char ch)
{
	if (write(fd, &ch, 1) != 1)
		fail("pipe write: %s", strerror(errno));
}

static void expect(int fd, char want)
{
	char ch;
	ssize_t n;

	do
		n = read(fd, &ch, 1);
	while (n < 0 && errno == EINTR);
	if (n != 1)
		fail("peer went away while waiting for '%c'", want);
	if (ch != want)
		fail("peer said '%c', want '%c'", ch, want);
}

/* The client: one synchronous transaction to handle 0, until BR_REPLY. */
static void client_call(struct conn *c, uint32_t code)
{
	struct binder_transaction_data tr;
	uint64_t payload = code;
	struct br br;
	size_t pos;

	out_txn(c, BC_TRANSACTION, 0, code, 0, &payload, sizeof(payload));
	for (;;) {
		conn_ioctl(c, true);
		for (pos = 0; br_next(&c->in, &pos, &br);) {
			if (br.cmd == BR_REPLY) {
				memcpy(&tr, br.arg, sizeof(tr));
				out_free(c, tr.data.ptr.buffer);
				return;
			}
			if (br.cmd != BR_TRANSACTION_COMPLETE &&
			    !handle_refs(c, &br))
				fail("client got %s (0x%x)", br_name(br.cmd),
				     br.cmd);
		}
	}
}

static void client_oneway(struct conn *c, uint32_t code)
{
	uint64_t payload = code;
	struct br br;
	size_t pos;

	out_txn(c, BC_TRANSACTION, 0, code, TF_ONE_WAY, &payload,
		sizeof(payload));
	for (;;) {
		conn_ioctl(c, true);
		for (pos = 0; br_next(&c->in, &pos, &br);) {
			if (br.cmd == BR_TRANSACTION_COMPLETE)
				return;
			if (!handle_refs(c, &br))
				fail("client got %s (0x%x)", br_name(br.cmd),
				     br.cmd);
		}
	}
}

struct client_thread {
	const char *dev;
	struct conn conn;
	int n;
};

static void *order_client_thread(void *arg)
{
	struct client_thread *t = arg;

	client_call(&t->conn, CODE_PING);
	conn_ioctl(&t->conn, false);	/* BC_FREE_BUFFER of the reply */
	return NULL;
}

/* Server side of "order". Returns the exit status. */
static int order_server(const char *dev)
{
	struct binder_transaction_data t1 = { 0 };
	bool have_t1 = false, seen_txn = false, seen_tc = false;
	uint64_t reply = 42;
	struct conn c;
	struct br br;
	size_t pos;
	int first = -1, rc;
	char line[512];
	size_t ll = 0;

	conn_open(&c, dev);
	set_context_mgr(&c);
	say(to_client[1], 'R');

	out_cmd(&c, BC_ENTER_LOOPER);
	while (!have_t1) {
		conn_ioctl(&c, true);
		for (pos = 0; br_next(&c.in, &pos, &br);) {
			if (br.cmd == BR_TRANSACTION) {
				memcpy(&t1, br.arg, sizeof(t1));
				have_t1 = true;
			} else if (!handle_refs(&c, &br)) {
				fail("server got %s (0x%x) before the call",
				     br_name(br.cmd), br.cmd);
			}
		}
	}
	if (t1.code != CODE_PING || (t1.flags & TF_ONE_WAY))
		fail("first transaction is code %u flags 0x%x", t1.code,
		     t1.flags);

	/* Let the client queue a one-way transaction on this process. */
	say(to_client[1], 'T');
	expect(to_server[0], 'Q');

	out_free(&c, t1.data.ptr.buffer);
	out_txn(&c, BC_REPLY, 0, t1.code, TF_DEFER_COMPLETE_, &reply,
		sizeof(reply));
	conn_ioctl(&c, true);

	line[0] = '\0';
	for (pos = 0; br_next(&c.in, &pos, &br);) {
		rc = snprintf(line + ll, sizeof(line) - ll, " %s",
			      br_name(br.cmd));
		if (rc > 0 && (size_t)rc < sizeof(line) - ll)
			ll += rc;
		if (br.cmd == BR_NOOP && pos == sizeof(uint32_t))
			continue;	/* the placeholder for BR_SPAWN_LOOPER */
		if (first < 0)
			first = br.cmd;
		if (br.cmd == BR_TRANSACTION_COMPLETE)
			seen_tc = true;
		else if (br.cmd == BR_TRANSACTION)
			seen_txn = true;
	}
	printf("after BC_REPLY|TF_DEFER_COMPLETE with a transaction queued:%s\n",
	       line);

	if (!seen_tc)
		fail("no BR_TRANSACTION_COMPLETE for the BC_REPLY");
	if (!seen_txn) {
		/* the completion was not deferred: no support, no wait */
		printf("TF_DEFER_COMPLETE not supported by this kernel\n");
		return EXIT_SKIP;
	}
	if (first != BR_TRANSACTION_COMPLETE) {
		printf("FAIL: %s before the deferred BR_TRANSACTION_COMPLETE: "
		       "process work delivered ahead of thread work\n",
		       br_name(first));
		return 1;
	}
	printf("ok: deferred BR_TRANSACTION_COMPLETE delivered first\n");
	return 0;
}

static int run_order(const char *dev)
{
	struct client_thread ct = { .dev = dev };
	struct conn main_conn;
	pthread_t th;
	pid_t pid;
	int status;

	pid = fork();
	if (pid < 0)
		fail("fork: %s", strerror(errno));
	if (pid == 0) {
		alarm(30);
		close(to_client[0]);
		close(to_server[1]);
		exit(order_server(dev));
	}
	close(to_client[1]);
	close(to_server[0]);

	expect(to_client[0], 'R');
	conn_open(&ct.conn, dev);
	conn_open(&main_conn, dev);
	if (pthread_create(&th, NULL, order_client_thread, &ct))
		fail("pthread_create failed");
	expect(to_client[0], 'T');
	client_oneway(&main_conn, CODE_ONEWAY);
	say(to_server[1], 'Q');

	if (waitpid(pid, &status, 0) < 0)
		fail("waitpid: %s", strerror(errno));
	/*
	 * The server replied before it exited, or its death replied for it
	 * (BR_DEAD_REPLY would fail the client thread).
	 */
	pthread_join(th, NULL);
	if (WIFSIGNALED(status))
		fail("server killed by signal %d", WTERMSIG(status));
	return WEXITSTATUS(status);
}

/* Server side of "count". */
static int count_server(const char *dev, bool defer)
{
	struct binder_transaction_data tr;
	unsigned long txns = 0, tcs = 0, first_ioctl = 0, want_tcs;
	unsigned long report[2];
	uint64_t reply = 42;
	bool last = false;
	struct rbuf in;
	struct conn c;
	struct br br;
	size_t pos;

	conn_open(&c, dev);
	set_context_mgr(&c);
	say(to_client[1], 'R');

	out_cmd(&c, BC_ENTER_LOOPER);
	while (!last) {
		conn_ioctl(&c, true);
		/* classic mode talks to the driver while walking this */
		in = c.in;
		for (pos = 0; br_next(&in, &pos, &br);) {
			if (br.cmd == BR_TRANSACTION_COMPLETE) {
				tcs++;
				continue;
			}
			if (handle_refs(&c, &br))
				continue;
			if (br.cmd != BR_TRANSACTION || last)
				fail("server got %s (0x%x)", br_name(br.cmd),
				     br.cmd);
			memcpy(&tr, br.arg, sizeof(tr));
			if (!txns++)
				first_ioctl = c.ioctls;
			last = tr.code == CODE_LAST;
			if (defer) {
				/* sendReply() only queues the reply */
				out_free(&c, tr.data.ptr.buffer);
				out_txn(&c, BC_REPLY, 0, tr.code,
					TF_DEFER_COMPLETE_, &reply,
					sizeof(reply));
				continue;
			}
			/*
			 * sendReply() talks to the driver right away and gets
			 * BR_TRANSACTION_COMPLETE back; the buffer is freed
			 * afterwards, with the next read.
			 */
			out_txn(&c, BC_REPLY, 0, tr.code, 0, &reply,
				sizeof(reply));
			conn_ioctl(&c, true);
			out_free(&c, tr.data.ptr.buffer);
			for (size_t p2 = 0; br_next(&c.in, &p2, &br);) {
				if (br.cmd == BR_TRANSACTION_COMPLETE)
					tcs++;
				else if (!handle_refs(&c, &br))
					fail("server got %s after BC_REPLY",
					     br_name(br.cmd));
			}
		}
	}
	/* the last reply (defer) or BC_FREE_BUFFER (classic), write only */
	conn_ioctl(&c, false);

	/*
	 * Ioctls from the one that returned the first transaction to the
	 * write-only one above.
	 */
	report[0] = txns;
	report[1] = c.ioctls - first_ioctl + 1;
	printf("server: %lu transactions, %lu ioctls, %lu BR_TRANSACTION_COMPLETE read\n",
	       report[0], report[1], tcs);
	/* in defer mode, the last reply's completion is never read */
	want_tcs = defer ? txns - 1 : txns;
	if (tcs != want_tcs)
		fail("%lu BR_TRANSACTION_COMPLETE read, want %lu", tcs,
		     want_tcs);
	if (write(to_client[1], report, sizeof(report)) != sizeof(report))
		fail("pipe write failed");
	return 0;
}

static int run_count(const char *dev, bool defer, int n, double max,
		     double *per_out)
{
	unsigned long txns, ioctls, report[2];
	struct timespec t0, t1;
	struct conn c;
	double per, us;
	pid_t pid;
	int status, i;

	pid = fork();
	if (pid < 0)
		fail("fork: %s", strerror(errno));
	if (pid == 0) {
		alarm(300);
		close(to_client[0]);
		close(to_server[1]);
		exit(count_server(dev, defer));
	}
	close(to_client[1]);
	close(to_server[0]);

	expect(to_client[0], 'R');
	conn_open(&c, dev);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (i = 1; i < n; i++)
		client_call(&c, CODE_PING);
	client_call(&c, CODE_LAST);
	conn_ioctl(&c, false);
	clock_gettime(CLOCK_MONOTONIC, &t1);

	if (read(to_client[0], report, sizeof(report)) != sizeof(report))
		fail("server did not report");
	txns = report[0];
	ioctls = report[1];
	if (waitpid(pid, &status, 0) < 0)
		fail("waitpid: %s", strerror(errno));
	if (!WIFEXITED(status) || WEXITSTATUS(status))
		fail("server failed");

	per = (double)ioctls / txns;
	if (per_out)
		*per_out = per;
	us = ((t1.tv_sec - t0.tv_sec) * 1e9 + (t1.tv_nsec - t0.tv_nsec)) /
	     1e3 / n;
	printf("mode=%s transactions=%lu server_ioctls=%lu "
	       "ioctls_per_transaction=%.3f client_ioctls=%lu "
	       "us_per_transaction=%.1f\n",
	       defer ? "defer" : "classic", txns, ioctls, per, c.ioctls, us);
	if (max > 0 && per > max) {
		printf("FAIL: %.3f server ioctls per transaction, want <= %.3f\n",
		       per, max);
		return 1;
	}
	return 0;
}

static void make_pipes(void)
{
	if (pipe(to_server) || pipe(to_client))
		fail("pipe: %s", strerror(errno));
}

static void close_pipes(void)
{
	close(to_server[0]);
	close(to_server[1]);
	close(to_client[0]);
	close(to_client[1]);
}

/*
 * No arguments (the VM harness runs programs so): order, then both counts,
 * each on a device of its own, and a summary line. Exits as "order" does;
 * when the kernel supports TF_DEFER_COMPLETE, "defer" must also take at
 * most 1.1 server ioctls per transaction (one, plus the edges).
 */
static int run_all(int n)
{
	double classic = 0, defer = 0;
	const char *verdict;
	int rc, rc2;

	make_pipes();
	rc = run_order(binder_device("defer-order"));
	close_pipes();

	make_pipes();
	rc2 = run_count(binder_device("defer-classic"), false, n, 0, &classic);
	close_pipes();
	if (rc2)
		return 1;
	make_pipes();
	rc2 = run_count(binder_device("defer-defer"), true, n,
			rc == 0 ? 1.1 : 0, &defer);
	close_pipes();

	verdict = rc == 0 ? "ok" : rc == EXIT_SKIP ? "unsupported" : "FAIL";
	printf("binder-defer-test: order=%s classic_ioctls_per_txn=%.3f "
	       "defer_ioctls_per_txn=%.3f saved=%.1f%%\n", verdict, classic,
	       defer, classic > 0 ? 100.0 * (classic - defer) / classic : 0);
	return rc ? rc : rc2;
}

static void usage(void)
{
	fprintf(stderr,
		"usage: %s [-n N]\n"
		"       %s [-d DEVICE] order\n"
		"       %s [-d DEVICE] [-n N] [-x MAX] count defer|classic\n",
		PROGNAME, PROGNAME, PROGNAME);
	exit(2);
}

int main(int argc, char **argv)
{
	const char *dev = NULL;
	double max = 0;
	int opt, n = 10000, rc;
	char *end;

	while ((opt = getopt(argc, argv, "d:n:x:h")) != -1) {
		switch (opt) {
		case 'd':
			dev = optarg;
			break;
		case 'n':
			n = strtol(optarg, &end, 10);
			if (*end || n < 2)
				usage();
			break;
		case 'x':
			max = strtod(optarg, &end);
			if (*end || max <= 0)
				usage();
			break;
		default:
			usage();
		}
	}
	argc -= optind;
	argv += optind;
	setvbuf(stdout, NULL, _IOLBF, 0);
	alarm(600);	/* a driver bug must not hang the VM run */
	if (argc == 0)
		return run_all(n);
	make_pipes();
	if (!strcmp(argv[0], "order") && argc == 1) {
		if (!dev)
			dev = binder_device("defer-test");
		rc = run_order(dev);
	} else if (!strcmp(argv[0], "count") && argc == 2 &&
		   (!strcmp(argv[1], "defer") || !strcmp(argv[1], "classic"))) {
		if (!dev)
			dev = binder_device("defer-test");
		rc = run_count(dev, !strcmp(argv[1], "defer"), n, max, NULL);
	} else {
		usage();
	}
	return rc;
}
