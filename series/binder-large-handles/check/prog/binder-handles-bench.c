// SPDX-License-Identifier: GPL-2.0
/*
 * binder-handles-bench - cost of new binder references, large handles
 * (BINDER_ENABLE_LARGE_HANDLES) on and off
 *
 * usage: binder-handles-bench [-r REFS] [-b BATCH] [-m CALLS]
 *        binder-handles-bench [-d DEVICE] [-r REFS] [-b BATCH] [-m CALLS] on|off
 *
 * A server process (the context manager) answers each call of the client
 * with a reply carrying new binder objects; the driver creates a node in the
 * server and a reference, with a new handle, in the client for each
 * (binder_get_ref_for_node_olocked() in the C driver). The client keeps the
 * references (BC_ACQUIRE before BC_FREE_BUFFER), so it holds REFS of them
 * after the fill.
 *
 * The figure: the time of CALLS calls that each create one new reference,
 * measured with no reference yet ("start") and with REFS of them ("end");
 * end - start is what looking for a handle among REFS costs (defaults:
 * REFS 100,000, BATCH 100, CALLS 1000). The handles themselves are
 * checked, which is what can fail: with none freed, both
 * modes hand out 1..REFS; then the client drops the references with handles
 * 1..10 and takes 10 new ones: with the flag off they reuse handles from 1
 * ("reuse=yes"), with it on they go on above the largest ("reuse=no").
 * "on" then clears the flag and takes 2 * 10 more: the first 10 must be
 * the freed 1..10 again (the smallest unused), the next ones start just
 * above the largest handle held, none of which changed (a handle given
 * twice would hit the driver's BUG() on its refs_by_desc insertion).
 *
 * "on" sets the flag with BINDER_ENABLE_LARGE_HANDLES first; a kernel
 * without it fails the ioctl (EINVAL) and the run exits 77. Without a mode,
 * "off" then "on", each on a device of its own (as the VM harness runs it).
 * Without -d, a private binderfs instance is mounted on a temporary
 * directory and devices are added to it through binder-control.
 *
 * Prints one line per mode:
 *	binder-handles-bench: mode=on refs=100000 start_us=.. end_us=..
 *	delta_us=.. held=.. max_handle=.. reuse=yes|no fill_ms=..
 *	start_min_us=.. end_min_us=.. delta_min_us=.. start_med_us=..
 *	end_med_us=.. delta_med_us=.. batch=.. fill_first_min_us=..
 *	fill_last_min_us=.. [cleared_first=.. cleared_last=..
 *	cleared_next=..: "on" only]
 * start/end/delta_us are means over CALLS calls, _min_ and _med_ their
 * minimum and median (what a loaded host leaves intact); fill_ms is the
 * time to create the REFS references, in calls of BATCH; fill_first_min_us
 * and fill_last_min_us the fastest of the fill's first and last 50 calls.
 * Exit: 0 ok, 1 failure, 2 usage, 77 the kernel lacks large handles.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
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

#define PROGNAME "binder-handles-bench"
#include "binder-common.h"

/* include/uapi/linux/android/binder.h with the series applied */
#define BINDER_ENABLE_LARGE_HANDLES_	_IOW('b', 18, __u32)

#define MAP_SIZE (4 * 1024 * 1024)
#define EXIT_SKIP 77
#define CODE_GIVE 1
#define CODE_LAST 2
#define MAX_BATCH 1000
#define PROBE 10
#define FILL_WIN 50

struct rbuf {
	uint32_t data[8192];
	size_t len;
};

struct conn {
	int fd;
	void *map;
	unsigned char out[64 * 1024];	/* pending commands */
	size_t out_len;
	struct rbuf in;
};

static void conn_open(struct conn *c, const char *dev)
{
	c->out_len = 0;
	c->in.len = 0;
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

static void out_u32(struct conn *c, uint32_t cmd, uint32_t v)
{
	out_cmd(c, cmd);
	out_put(c, &v, sizeof(v));
}

static void out_free(struct conn *c, binder_uintptr_t buf)
{
	out_cmd(c, BC_FREE_BUFFER);
	out_put(c, &buf, sizeof(buf));
}

static void out_txn(struct conn *c, uint32_t cmd, uint32_t code,
		    const void *data, size_t len, const void *offs,
		    size_t offs_len)
{
	struct binder_transaction_data tr;

	memset(&tr, 0, sizeof(tr));
	tr.target.handle = 0;
	tr.code = code;
	tr.data_size = len;
	tr.offsets_size = offs_len;
	tr.data.ptr.buffer = (binder_uintptr_t)(uintptr_t)data;
	tr.data.ptr.offsets = (binder_uintptr_t)(uintptr_t)offs;
	out_cmd(c, cmd);
	out_put(c, &tr, sizeof(tr));
}

static void conn_ioctl(struct conn *c, bool read)
{
	struct binder_write_read bwr;

	memset(&bwr, 0, sizeof(bwr));
	bwr.write_buffer = (binder_uintptr_t)(uintptr_t)c->out;
	bwr.write_size = c->out_len;
	if (read) {
		bwr.read_buffer = (binder_uintptr_t)(uintptr_t)c->in.data;
		bwr.read_size = sizeof(c->in.data);
	}
	while (ioctl(c->fd, BINDER_WRITE_READ, &bwr) < 0) {
		if (errno != EINTR)
			fail("BINDER_WRITE_READ: %s", strerror(errno));
	}
	if (bwr.write_consumed != c->out_len)
		fail("driver consumed %llu of %zu command bytes",
		     (unsigned long long)bwr.write_consumed, c->out_len);
	c->out_len = 0;
	c->in.len = bwr.read_consumed;
}

struct br {
	uint32_t cmd;
	const void *arg;
};

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
		fail("truncated return command 0x%x", br->cmd);
	br->arg = p + *pos + sizeof(uint32_t);
	*pos += sizeof(uint32_t) + size;
	return true;
}

/* Reference counting on the server's nodes: acknowledge, as libbinder does. */
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
	case BR_TRANSACTION_COMPLETE:
		return true;
	}
	return false;
}

static int to_client[2];

/* The server: each call asks for N new objects, the reply carries them. */
static int server(const char *dev)
{
	static struct flat_binder_object objs[MAX_BATCH];
	static binder_size_t offs[MAX_BATCH];
	struct binder_transaction_data tr;
	uint64_t next_ptr = 1;
	bool last = false;
	struct rbuf in;
	struct conn *c;
	struct br br;
	uint32_t n, i;
	size_t pos;
	char ok = 'R';

	c = calloc(1, sizeof(*c));
	if (!c)
		fail("out of memory");
	conn_open(c, dev);
	if (ioctl(c->fd, BINDER_SET_CONTEXT_MGR, 0) < 0)
		fail("BINDER_SET_CONTEXT_MGR: %s", strerror(errno));
	if (write(to_client[1], &ok, 1) != 1)
		fail("pipe write failed");

	out_cmd(c, BC_ENTER_LOOPER);
	while (!last) {
		conn_ioctl(c, true);
		in = c->in;
		for (pos = 0; br_next(&in, &pos, &br);) {
			if (handle_refs(c, &br))
				continue;
			if (br.cmd != BR_TRANSACTION)
				fail("server got 0x%x", br.cmd);
			memcpy(&tr, br.arg, sizeof(tr));
			n = 0;
			if (tr.data_size >= sizeof(n))
				memcpy(&n, (const void *)(uintptr_t)tr.data.ptr.buffer,
				       sizeof(n));
			if (n > MAX_BATCH)
				fail("batch of %u", n);
			last = tr.code == CODE_LAST;
			for (i = 0; i < n; i++) {
				memset(&objs[i], 0, sizeof(objs[i]));
				objs[i].hdr.type = BINDER_TYPE_BINDER;
				objs[i].binder = next_ptr;
				objs[i].cookie = next_ptr;
				next_ptr++;
				offs[i] = i * sizeof(objs[0]);
			}
			out_free(c, tr.data.ptr.buffer);
			out_txn(c, BC_REPLY, 0, objs, n * sizeof(objs[0]),
				offs, n * sizeof(offs[0]));
			/*
			 * Flush now: the reply must be translated before the
			 * objects array is reused.
			 */
			conn_ioctl(c, false);
		}
	}
	return 0;
}

/* The client's bookkeeping. */
struct client {
	struct conn c;
	uint32_t refs;
	uint32_t max_handle;
	uint32_t last_handle;
	uint32_t call_min;	/* smallest handle the last call brought */
	bool large;
	unsigned long not_increasing;
};

/* One call that brings @n new references; returns its time in ns. */
static uint64_t client_call(struct client *cl, uint32_t code, uint32_t n)
{
	struct binder_transaction_data tr;
	struct timespec t0, t1;
	struct conn *c = &cl->c;
	struct br br;
	size_t pos, i;
	bool done = false;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	out_txn(c, BC_TRANSACTION, code, &n, sizeof(n), NULL, 0);
	while (!done) {
		conn_ioctl(c, true);
		for (pos = 0; br_next(&c->in, &pos, &br);) {
			if (br.cmd == BR_REPLY) {
				done = true;
				break;
			}
			if (!handle_refs(c, &br))
				fail("client got 0x%x", br.cmd);
		}
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);

	memcpy(&tr, br.arg, sizeof(tr));
	cl->call_min = UINT32_MAX;
	if (tr.offsets_size != n * sizeof(binder_size_t))
		fail("reply has %llu offsets bytes, want %zu",
		     (unsigned long long)tr.offsets_size,
		     n * sizeof(binder_size_t));
	for (i = 0; i < n; i++) {
		const binder_size_t *off = (const void *)(uintptr_t)
			tr.data.ptr.offsets;
		const struct flat_binder_object *obj = (const void *)(uintptr_t)
			(tr.data.ptr.buffer + off[i]);

		if (obj->hdr.type != BINDER_TYPE_HANDLE)
			fail("object %zu has type 0x%x", i, obj->hdr.type);
		if (obj->handle > cl->max_handle)
			cl->max_handle = obj->handle;
		if (obj->handle < cl->call_min)
			cl->call_min = obj->handle;
		if (obj->handle <= cl->last_handle)
			cl->not_increasing++;
		cl->last_handle = obj->handle;
		/* keep the reference past BC_FREE_BUFFER */
		out_u32(c, BC_ACQUIRE, obj->handle);
	}
	cl->refs += n;
	out_free(c, tr.data.ptr.buffer);
	conn_ioctl(c, false);
	return (t1.tv_sec - t0.tv_sec) * 1000000000ull +
	       (t1.tv_nsec - t0.tv_nsec);
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* The q-quantile (0 = minimum, 0.5 = median) of v[0..n), in us; sorts v. */
static double quantile_us(uint64_t *v, size_t n, double q)
{
	if (!n)
		return 0;
	qsort(v, n, sizeof(*v), cmp_u64);
	return v[(size_t)(q * (n - 1))] / 1e3;
}

static uint64_t sum(const uint64_t *v, size_t n)
{
	uint64_t s = 0;

	while (n--)
		s += v[n];
	return s;
}

static int run(const char *dev, bool large, uint32_t nrefs, uint32_t batch,
	       uint32_t calls)
{
	struct timespec f0, f1;
	uint64_t *start, *end, *fill;
	size_t nfill = 0, win;
	double first_min, last_min;
	uint32_t enable, i, held, max_before, max_on = 0;
	uint32_t cleared_first = 0, cleared_last = 0, cleared_next = 0;
	struct client *cl;
	uint32_t probe_min;
	bool reuse, grew;
	int status, rc = 0;
	pid_t pid;
	char ok;

	if (pipe(to_client))
		fail("pipe: %s", strerror(errno));
	pid = fork();
	if (pid < 0)
		fail("fork: %s", strerror(errno));
	if (pid == 0) {
		close(to_client[0]);
		alarm(1200);
		exit(server(dev));
	}
	close(to_client[1]);
	if (read(to_client[0], &ok, 1) != 1)
		fail("server did not start");
	close(to_client[0]);

	cl = calloc(1, sizeof(*cl));
	if (!cl)
		fail("out of memory");
	conn_open(&cl->c, dev);
	cl->large = large;
	if (large) {
		enable = 1;
		if (ioctl(cl->c.fd, BINDER_ENABLE_LARGE_HANDLES_, &enable) < 0) {
			if (errno != EINVAL)
				fail("BINDER_ENABLE_LARGE_HANDLES: %s", strerror(errno));
			printf("binder-handles-bench: mode=on unsupported "
			       "(BINDER_ENABLE_LARGE_HANDLES: EINVAL)\n");
			rc = EXIT_SKIP;
			goto out;
		}
	}

	start = calloc(calls, sizeof(*start));
	end = calloc(calls, sizeof(*end));
	fill = calloc(nrefs / batch + 1, sizeof(*fill));
	if (!start || !end || !fill)
		fail("out of memory");
	for (i = 0; i < calls; i++)
		start[i] = client_call(cl, CODE_GIVE, 1);
	clock_gettime(CLOCK_MONOTONIC, &f0);
	while (cl->refs + batch <= nrefs)
		fill[nfill++] = client_call(cl, CODE_GIVE, batch);
	if (cl->refs < nrefs)
		client_call(cl, CODE_GIVE, nrefs - cl->refs);
	clock_gettime(CLOCK_MONOTONIC, &f1);
	for (i = 0; i < calls; i++)
		end[i] = client_call(cl, CODE_GIVE, 1);

	held = cl->refs;
	max_before = cl->max_handle;

	/*
	 * Drop the references with handles 1..PROBE, then take PROBE new
	 * ones: off, they reuse the smallest handles; on, they go on above
	 * the largest.
	 */
	for (i = 1; i <= PROBE; i++)
		out_u32(&cl->c, BC_RELEASE, i);
	conn_ioctl(&cl->c, false);
	cl->refs -= PROBE;
	client_call(cl, CODE_GIVE, PROBE);
	reuse = cl->call_min == 1;
	grew = !cl->not_increasing && cl->call_min > max_before;
	probe_min = cl->call_min;

	/*
	 * On: clear the flag. The next PROBE are the freed 1..PROBE again,
	 * then the smallest unused is just above the largest held.
	 */
	if (large) {
		max_on = cl->max_handle;
		enable = 0;
		if (ioctl(cl->c.fd, BINDER_ENABLE_LARGE_HANDLES_, &enable) < 0)
			fail("BINDER_ENABLE_LARGE_HANDLES 0: %s", strerror(errno));
		client_call(cl, CODE_GIVE, PROBE);
		cleared_first = cl->call_min;
		cleared_last = cl->last_handle;
		client_call(cl, CODE_GIVE, PROBE);
		cleared_next = cl->call_min;
	}

	/*
	 * Means are what the calls cost on average; minimums and medians
	 * are what survives a loaded host (under TCG a vCPU that the host
	 * preempts stretches whatever call it was in). The fill's first and
	 * last batches (FILL_WIN calls of BATCH new references each): the
	 * growth between them is the handle search over what is held.
	 */
	win = nfill < FILL_WIN ? nfill : FILL_WIN;
	first_min = quantile_us(fill, win, 0);
	last_min = quantile_us(fill + nfill - win, win, 0);
	printf("binder-handles-bench: mode=%s refs=%u start_us=%.1f "
	       "end_us=%.1f delta_us=%.1f held=%u max_handle=%u reuse=%s "
	       "fill_ms=%lld",
	       large ? "on" : "off", nrefs, sum(start, calls) / 1e3 / calls,
	       sum(end, calls) / 1e3 / calls,
	       ((double)sum(end, calls) - sum(start, calls)) / 1e3 / calls,
	       held, max_before, reuse ? "yes" : "no",
	       (long long)((f1.tv_sec - f0.tv_sec) * 1000 +
			   (f1.tv_nsec - f0.tv_nsec) / 1000000));
	printf(" start_min_us=%.1f end_min_us=%.1f delta_min_us=%.1f",
	       quantile_us(start, calls, 0), quantile_us(end, calls, 0),
	       quantile_us(end, calls, 0) - quantile_us(start, calls, 0));
	printf(" start_med_us=%.1f end_med_us=%.1f delta_med_us=%.1f",
	       quantile_us(start, calls, 0.5), quantile_us(end, calls, 0.5),
	       quantile_us(end, calls, 0.5) - quantile_us(start, calls, 0.5));
	printf(" batch=%u fill_first_min_us=%.1f fill_last_min_us=%.1f",
	       batch, first_min, last_min);
	if (large)
		printf(" cleared_first=%u cleared_last=%u cleared_next=%u",
		       cleared_first, cleared_last, cleared_next);
	printf("\n");
	free(start);
	free(end);
	free(fill);

	/* None freed before the probe: 1..held either way. */
	if (max_before != held) {
		printf("FAIL: mode=%s: largest handle %u with %u references\n",
		       large ? "on" : "off", max_before, held);
		rc = 1;
	}
	if (!large && !reuse) {
		printf("FAIL: mode=off: freed handles not reused (smallest new %u)\n",
		       cl->call_min);
		rc = 1;
	}
	if (large && !grew) {
		printf("FAIL: mode=on: a handle did not grow (smallest new %u, "
		       "largest before %u)\n", probe_min, max_before);
		rc = 1;
	}
	if (large && (cleared_first != 1 || cleared_last != PROBE ||
		      cleared_next != max_on + 1)) {
		printf("FAIL: mode=on, then cleared: new handles %u..%u, then %u "
		       "(want 1..%u, then %u)\n", cleared_first, cleared_last,
		       cleared_next, PROBE, max_on + 1);
		rc = 1;
	}
out:
	client_call(cl, CODE_LAST, 0);
	if (waitpid(pid, &status, 0) < 0)
		fail("waitpid: %s", strerror(errno));
	if (!WIFEXITED(status) || WEXITSTATUS(status))
		fail("server failed");
	munmap(cl->c.map, MAP_SIZE);
	close(cl->c.fd);
	free(cl);
	return rc;
}

static void usage(void)
{
	fprintf(stderr,
		"usage: %s [-r REFS] [-b BATCH] [-m CALLS]\n"
		"       %s [-d DEVICE] [-r REFS] [-b BATCH] [-m CALLS] on|off\n",
		PROGNAME, PROGNAME);
	exit(2);
}

static uint32_t number(const char *s, uint32_t min, uint32_t max)
{
	unsigned long v;
	char *end;

	errno = 0;
	v = strtoul(s, &end, 10);
	if (errno || *end || end == s || v < min || v > max)
		usage();
	return v;
}

int main(int argc, char **argv)
{
	uint32_t nrefs = 100000, batch = 100, calls = 1000;
	const char *dev = NULL;
	int opt, rc, rc2;

	while ((opt = getopt(argc, argv, "d:r:b:m:h")) != -1) {
		switch (opt) {
		case 'd':
			dev = optarg;
			break;
		case 'r':
			nrefs = number(optarg, 1, 10000000);
			break;
		case 'b':
			batch = number(optarg, 1, MAX_BATCH);
			break;
		case 'm':
			calls = number(optarg, 1, 1000000);
			break;
		default:
			usage();
		}
	}
	argc -= optind;
	argv += optind;
	setvbuf(stdout, NULL, _IOLBF, 0);
	alarm(1800);

	if (argc == 0) {
		rc = run(binder_device("handles-off"), false, nrefs, batch, calls);
		rc2 = run(binder_device("handles-on"), true, nrefs, batch, calls);
		return rc ? rc : rc2;
	}
	if (argc != 1 || (strcmp(argv[0], "on") && strcmp(argv[0], "off")))
		usage();
	if (!dev)
		dev = binder_device("handles-bench");
	return run(dev, !strcmp(argv[0], "on"), nrefs, batch, calls);
}
