// SPDX-License-Identifier: GPL-2.0
/*
 * binder-throughput - binder transaction throughput and latency, raw ioctls
 *
 * usage: binder-throughput [-d DEVICE] [-n ITERATIONS] [-w WORKERS]
 *                          [-s SIZE] [-W WARMUP]
 *
 * What binderThroughputTest measures, without libbinder: WORKERS client
 * processes each send ITERATIONS synchronous transactions of SIZE bytes
 * (default 16) to a server process, the context manager of the device,
 * which has one looper thread per client and replies to each with an empty
 * reply. Every transaction allocates a buffer in the server's binder_alloc
 * (and the reply one in the client's), so the allocator's lock is on the
 * path of both. The client frees each reply buffer in the write of its
 * next transaction, and the server frees each transaction buffer in the
 * write of its reply, as libbinder queues BC_FREE_BUFFER.
 *
 * Prints one line, every field key=value:
 *	binder-throughput: workers=W iterations=N size=S iter_per_s=X
 *	avg_us=A p50_us=M p99_us=P max_us=X
 * where iterations is the total over the workers, iter_per_s is that over
 * the wall time from the first transaction to the last, and the latencies
 * are of single transactions (BC_TRANSACTION written to BR_REPLY read).
 *
 * DEVICE is a binder device node. Without -d, a private binderfs instance
 * is mounted on a temporary directory and a device is added to it through
 * binder-control (needs CAP_SYS_ADMIN), so that the test owns the context
 * manager.
 *
 * Exit: 0 ok, 1 failure, 2 usage, 77 no binder (no binderfs or no device).
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
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <linux/android/binder.h>

#define PROGNAME "binder-throughput"
#include "binder-common.h"

#define MAP_SIZE (1024 * 1024)
#define EXIT_SKIP 77
#define CODE_PING 1
#define MAX_WORKERS 64
#define MAX_SIZE (64 * 1024)

static void die_errno(const char *what)
{
	fail("%s: %s", what, strerror(errno));
}

static void usage(void)
{
	fprintf(stderr,
		"usage: %s [-d DEVICE] [-n ITERATIONS] [-w WORKERS] [-s SIZE] [-W WARMUP]\n",
		PROGNAME);
	exit(2);
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* A binder connection: the device fd and its mapped buffer space. */
struct conn {
	int fd;
	void *map;
};

static void conn_open(struct conn *c, const char *dev)
{
	struct binder_version v;

	c->fd = open(dev, O_RDWR | O_CLOEXEC);
	if (c->fd < 0)
		fail("cannot open '%s': %s", dev, strerror(errno));
	if (ioctl(c->fd, BINDER_VERSION, &v) < 0)
		die_errno("BINDER_VERSION");
	if (v.protocol_version != BINDER_CURRENT_PROTOCOL_VERSION)
		fail("binder protocol %d, want %d", v.protocol_version,
		     BINDER_CURRENT_PROTOCOL_VERSION);
	c->map = mmap(NULL, MAP_SIZE, PROT_READ, MAP_PRIVATE, c->fd, 0);
	if (c->map == MAP_FAILED)
		die_errno("mmap of the binder device");
}

/* An outgoing command queue, flushed with the next read. */
struct out {
	size_t len;
	uint8_t buf[256];
};

static void out_put(struct out *o, const void *p, size_t len)
{
	if (o->len + len > sizeof(o->buf))
		fail("command queue overflow");
	memcpy(o->buf + o->len, p, len);
	o->len += len;
}

static void out_cmd(struct out *o, uint32_t cmd)
{
	out_put(o, &cmd, sizeof(cmd));
}

static void out_free_buffer(struct out *o, binder_uintptr_t ptr)
{
	out_cmd(o, BC_FREE_BUFFER);
	out_put(o, &ptr, sizeof(ptr));
}

/*
 * Write the queued commands and read what the driver returns into @in;
 * returns the number of bytes read.
 */
static size_t write_read(struct conn *c, struct out *o, void *in, size_t size)
{
	struct binder_write_read bwr = {
		.write_size = o->len,
		.write_buffer = (binder_uintptr_t)(uintptr_t)o->buf,
		.read_size = size,
		.read_buffer = (binder_uintptr_t)(uintptr_t)in,
	};

	while (ioctl(c->fd, BINDER_WRITE_READ, &bwr) < 0) {
		if (errno != EINTR)
			die_errno("BINDER_WRITE_READ");
	}
	if (bwr.write_consumed != o->len)
		fail("driver consumed %llu of %zu bytes of commands",
		     (unsigned long long)bwr.write_consumed, o->len);
	o->len = 0;
	return bwr.read_consumed;
}

/*
 * Walk the returned commands. Returns the transaction data of the first
 * BR_TRANSACTION or BR_REPLY in *tr (and true), skipping the commands that
 * need no action. Any error return fails the run.
 */
static bool next_txn(const uint8_t *in, size_t len, uint32_t want,
		     struct binder_transaction_data *tr)
{
	size_t pos = 0;

	while (pos + sizeof(uint32_t) <= len) {
		uint32_t cmd;

		memcpy(&cmd, in + pos, sizeof(cmd));
		pos += sizeof(cmd);
		switch (cmd) {
		case BR_NOOP:
		case BR_TRANSACTION_COMPLETE:
		case BR_SPAWN_LOOPER:
			break;
		case BR_TRANSACTION:
		case BR_REPLY:
			if (pos + sizeof(*tr) > len)
				fail("short read of a transaction");
			if (cmd != want)
				fail("unexpected %s",
				     cmd == BR_REPLY ? "BR_REPLY" : "BR_TRANSACTION");
			memcpy(tr, in + pos, sizeof(*tr));
			return true;
		case BR_DEAD_REPLY:
			fail("BR_DEAD_REPLY: the server is gone");
			break;
		case BR_FAILED_REPLY:
			fail("BR_FAILED_REPLY: the transaction failed");
			break;
		default:
			fail("unexpected return command 0x%08" PRIx32, cmd);
		}
	}
	return false;
}

struct server_thread {
	struct conn *c;
	pthread_t tid;
};

/* A looper: reply to every transaction with an empty reply. */
static void *server_loop(void *arg)
{
	struct server_thread *st = arg;
	struct binder_transaction_data tr, reply;
	uint8_t in[256];
	struct out o = { 0 };
	size_t n;

	out_cmd(&o, BC_ENTER_LOOPER);
	for (;;) {
		n = write_read(st->c, &o, in, sizeof(in));
		if (!next_txn(in, n, BR_TRANSACTION, &tr))
			continue;
		out_free_buffer(&o, tr.data.ptr.buffer);
		memset(&reply, 0, sizeof(reply));
		out_cmd(&o, BC_REPLY);
		out_put(&o, &reply, sizeof(reply));
	}
	return NULL;
}

static void run_server(const char *dev, int workers, int ready_fd)
{
	struct server_thread threads[MAX_WORKERS];
	struct conn c;
	int32_t zero = 0;
	int i;

	conn_open(&c, dev);
	if (ioctl(c.fd, BINDER_SET_CONTEXT_MGR, &zero) < 0)
		die_errno("BINDER_SET_CONTEXT_MGR");
	for (i = 0; i < workers; i++) {
		threads[i].c = &c;
		errno = pthread_create(&threads[i].tid, NULL, server_loop,
				       &threads[i]);
		if (errno)
			die_errno("pthread_create");
	}
	if (write(ready_fd, "r", 1) != 1)
		die_errno("write to the parent");
	close(ready_fd);
	for (;;)
		pause();
}

/* Shared with the parent: one record per worker, its latencies after it. */
struct worker_result {
	uint64_t start_ns, end_ns;
	int ok;
};

static void run_client(const char *dev, int iterations, int warmup,
		       size_t size, int start_fd, struct worker_result *res,
		       uint64_t *lat)
{
	struct binder_transaction_data tr, reply;
	uint8_t in[256], data[MAX_SIZE];
	struct out o = { 0 };
	struct conn c;
	char go;
	int i;

	conn_open(&c, dev);
	memset(data, 0x5a, size);
	if (read(start_fd, &go, 1) != 1)
		fail("no start signal");
	close(start_fd);

	for (i = -warmup; i < iterations; i++) {
		uint64_t t0, t1;
		size_t n;

		memset(&tr, 0, sizeof(tr));
		tr.target.handle = 0;
		tr.code = CODE_PING;
		tr.data_size = size;
		tr.data.ptr.buffer = (binder_uintptr_t)(uintptr_t)data;
		out_cmd(&o, BC_TRANSACTION);
		out_put(&o, &tr, sizeof(tr));

		if (i == 0)
			res->start_ns = now_ns();
		t0 = now_ns();
		do {
			n = write_read(&c, &o, in, sizeof(in));
		} while (!next_txn(in, n, BR_REPLY, &reply));
		t1 = now_ns();
		if (i >= 0)
			lat[i] = t1 - t0;
		/* freed with the next transaction, as libbinder does */
		out_free_buffer(&o, reply.data.ptr.buffer);
	}
	res->end_ns = now_ns();
	write_read(&c, &o, in, 0);
	res->ok = 1;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static long parse_num(const char *s, long min, long max)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || end == s || *end || v < min || v > max)
		usage();
	return v;
}

/* Mount a private binderfs and add a device to it; returns its path. */
static const char *private_device(void)
{
	int err = binderfs_try_mount();

	if (err) {
		fprintf(stderr, "%s: skip: cannot mount binderfs: %s\n",
			PROGNAME, strerror(err));
		exit(EXIT_SKIP);
	}
	return binder_device("throughput");
}

int main(int argc, char **argv)
{
	long iterations = 10000, workers = 2, size = 16, warmup = 100;
	struct worker_result *res;
	uint64_t *lat, first, last, sum, total;
	const char *dev = NULL;
	int ready[2], start[2];
	pid_t server, pids[MAX_WORKERS];
	size_t shm_size;
	double secs;
	char c;
	int opt, i, status, failed = 0;

	while ((opt = getopt(argc, argv, "d:n:w:s:W:h")) != -1) {
		switch (opt) {
		case 'd': dev = optarg; break;
		case 'n': iterations = parse_num(optarg, 1, 10000000); break;
		case 'w': workers = parse_num(optarg, 1, MAX_WORKERS); break;
		case 's': size = parse_num(optarg, 0, MAX_SIZE); break;
		case 'W': warmup = parse_num(optarg, 0, 1000000); break;
		default: usage();
		}
	}
	if (optind != argc)
		usage();

	if (!dev) {
		dev = private_device();
	} else if (access(dev, R_OK | W_OK) < 0) {
		fprintf(stderr, "%s: skip: no binder device '%s': %s\n",
			PROGNAME, dev, strerror(errno));
		return EXIT_SKIP;
	}

	shm_size = workers * sizeof(*res) +
		   (size_t)workers * iterations * sizeof(*lat);
	res = mmap(NULL, shm_size, PROT_READ | PROT_WRITE,
		   MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (res == MAP_FAILED)
		die_errno("mmap of the results");
	lat = (uint64_t *)(res + workers);

	if (pipe(ready) < 0 || pipe(start) < 0)
		die_errno("pipe");
	fflush(NULL);
	server = fork();
	if (server < 0)
		die_errno("fork");
	if (server == 0) {
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		close(ready[0]);
		run_server(dev, workers, ready[1]);
		_exit(1);
	}
	close(ready[1]);
	if (read(ready[0], &c, 1) != 1) {
		kill(server, SIGKILL);
		fail("the server did not start");
	}
	close(ready[0]);

	for (i = 0; i < workers; i++) {
		pids[i] = fork();
		if (pids[i] < 0)
			die_errno("fork");
		if (pids[i] == 0) {
			prctl(PR_SET_PDEATHSIG, SIGKILL);
			close(start[1]);
			run_client(dev, iterations, warmup, size, start[0],
				   &res[i], lat + (size_t)i * iterations);
			_exit(0);
		}
	}
	close(start[0]);
	for (i = 0; i < workers; i++) {
		if (write(start[1], "g", 1) != 1)
			die_errno("write to a worker");
	}
	close(start[1]);

	for (i = 0; i < workers; i++) {
		if (waitpid(pids[i], &status, 0) < 0)
			die_errno("waitpid");
		if (!WIFEXITED(status) || WEXITSTATUS(status) || !res[i].ok)
			failed = 1;
	}
	kill(server, SIGKILL);
	waitpid(server, NULL, 0);
	if (failed)
		fail("a worker failed");

	first = res[0].start_ns;
	last = res[0].end_ns;
	for (i = 1; i < workers; i++) {
		if (res[i].start_ns < first)
			first = res[i].start_ns;
		if (res[i].end_ns > last)
			last = res[i].end_ns;
	}
	total = (uint64_t)workers * iterations;
	sum = 0;
	for (i = 0; (uint64_t)i < total; i++)
		sum += lat[i];
	qsort(lat, total, sizeof(*lat), cmp_u64);
	secs = (double)(last - first) / 1e9;

	printf("%s: workers=%ld iterations=%" PRIu64 " size=%ld iter_per_s=%.0f avg_us=%.3f p50_us=%.3f p99_us=%.3f max_us=%.3f\n",
	       PROGNAME, workers, total, size,
	       secs > 0 ? (double)total / secs : 0.0,
	       (double)sum / total / 1e3,
	       (double)lat[total / 2] / 1e3,
	       (double)lat[total * 99 / 100] / 1e3,
	       (double)lat[total - 1] / 1e3);
	return 0;
}
