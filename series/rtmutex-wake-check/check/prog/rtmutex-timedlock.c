/*
 * rtmutex-timedlock - how late does a 1 ms PI timedlock time out behind an
 * owner that spins in userspace on another CPU?
 *
 * usage: rtmutex-timedlock [-n ROUNDS] [-t TIMEOUT_US] [-b BOUND_US] [-c CAP_US]
 *
 * An owner thread pinned to the second allowed CPU takes a
 * PTHREAD_PRIO_INHERIT mutex and spins in userspace; the main thread,
 * pinned to the first, calls pthread_mutex_timedlock() with a TIMEOUT_US
 * timeout (1000) ROUNDS times (10). Nothing else runs: any wakeup on the
 * two CPUs would end the waiter's in-kernel spin on the owner
 * (rtmutex_spin_on_owner()) for another reason and hide what we measure.
 *
 * In an idle VM nothing may end that spin for minutes (seen: 354 s in one
 * round, ended by an RCU stall report). So the owner gives up: once a
 * round has lasted CAP_US (3000000, 0 for never) it unlocks the mutex,
 * which ends the spin ("owner changed"); the waiter then takes the lock
 * and the round counts as capped (returned 0, late). A capped round
 * fails like any late one; the lateness figures are then lower bounds.
 *
 * Prints one line, keys in a fixed order (tests parse it):
 *   rtmutex-timedlock: rounds=N etimedout=N returned0=N other=N
 *     elapsed_avg_us=N elapsed_max_us=N late_avg_us=N late_max_us=N
 *     bound_us=N verdict=pass|fail cap_us=N capped=N
 * (on one line). Exits 0 when every round returned ETIMEDOUT and none
 * came back more than BOUND_US (50000) late, 1 otherwise, 2 when it
 * cannot run (fewer than two CPUs, bad usage).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define NSEC_PER_USEC	1000LL
#define NSEC_PER_SEC	1000000000LL

static pthread_mutex_t lock;
static int owner_holds;
static int stop;
static long long cap_ns;
/* CLOCK_MONOTONIC start of the current round, 0 between rounds */
static long long round_start;
static int capped;

static long long now_ns(clockid_t clk)
{
	struct timespec ts;

	clock_gettime(clk, &ts);
	return ts.tv_sec * NSEC_PER_SEC + ts.tv_nsec;
}

/*
 * Spins holding the lock; with a cap, a round that lasts longer than
 * cap_ns gets the lock released, and the owner takes it again once the
 * round is over. clock_gettime() is the vDSO's: no system call.
 */
static void *spin_owner(void *arg)
{
	long long start;

	(void)arg;
	pthread_mutex_lock(&lock);
	__atomic_store_n(&owner_holds, 1, __ATOMIC_RELEASE);
	while (!__atomic_load_n(&stop, __ATOMIC_ACQUIRE)) {
		start = __atomic_load_n(&round_start, __ATOMIC_ACQUIRE);
		if (!cap_ns || !start || now_ns(CLOCK_MONOTONIC) - start < cap_ns)
			continue;
		__atomic_store_n(&owner_holds, 0, __ATOMIC_RELEASE);
		__atomic_add_fetch(&capped, 1, __ATOMIC_ACQ_REL);
		pthread_mutex_unlock(&lock);
		while (__atomic_load_n(&round_start, __ATOMIC_ACQUIRE) == start)
			;
		pthread_mutex_lock(&lock);
		__atomic_store_n(&owner_holds, 1, __ATOMIC_RELEASE);
	}
	pthread_mutex_unlock(&lock);
	return NULL;
}

static int parse_num(const char *s, long long *out)
{
	char *end;

	errno = 0;
	*out = strtoll(s, &end, 10);
	return errno || end == s || *end || *out <= 0 ? -1 : 0;
}

static void usage(void)
{
	fprintf(stderr, "usage: rtmutex-timedlock [-n ROUNDS] [-t TIMEOUT_US] [-b BOUND_US] [-c CAP_US]\n");
	exit(2);
}

int main(int argc, char **argv)
{
	long long rounds = 10, timeout_us = 1000, bound_us = 50000, cap_us = 3000000;
	long long elapsed, sum = 0, max = 0, late_sum = 0, late_max = 0;
	long long etimedout = 0, returned0 = 0, other = 0, i;
	pthread_mutexattr_t attr;
	pthread_attr_t tattr;
	cpu_set_t set, one;
	pthread_t owner;
	int cpu[2], n = 0, c, ret;

	while ((c = getopt(argc, argv, "n:t:b:c:")) != -1) {
		switch (c) {
		case 'n': if (parse_num(optarg, &rounds)) usage(); break;
		case 't': if (parse_num(optarg, &timeout_us)) usage(); break;
		case 'b': if (parse_num(optarg, &bound_us)) usage(); break;
		case 'c':
			if (!strcmp(optarg, "0"))
				cap_us = 0;
			else if (parse_num(optarg, &cap_us))
				usage();
			break;
		default: usage();
		}
	}
	if (optind != argc)
		usage();
	cap_ns = cap_us * NSEC_PER_USEC;

	if (sched_getaffinity(0, sizeof(set), &set)) {
		perror("rtmutex-timedlock: sched_getaffinity");
		return 2;
	}
	for (c = 0; c < CPU_SETSIZE && n < 2; c++)
		if (CPU_ISSET(c, &set))
			cpu[n++] = c;
	if (n < 2) {
		fprintf(stderr, "rtmutex-timedlock: error: needs two CPUs\n");
		return 2;
	}

	pthread_mutexattr_init(&attr);
	pthread_mutexattr_setprotocol(&attr, PTHREAD_PRIO_INHERIT);
	pthread_mutex_init(&lock, &attr);

	CPU_ZERO(&one);
	CPU_SET(cpu[0], &one);
	if (sched_setaffinity(0, sizeof(one), &one)) {
		perror("rtmutex-timedlock: sched_setaffinity");
		return 2;
	}
	CPU_ZERO(&one);
	CPU_SET(cpu[1], &one);
	pthread_attr_init(&tattr);
	pthread_attr_setaffinity_np(&tattr, sizeof(one), &one);
	ret = pthread_create(&owner, &tattr, spin_owner, NULL);
	if (ret) {
		fprintf(stderr, "rtmutex-timedlock: pthread_create: %s\n", strerror(ret));
		return 2;
	}
	while (!__atomic_load_n(&owner_holds, __ATOMIC_ACQUIRE))
		usleep(1000);
	usleep(10000);

	for (i = 0; i < rounds; i++) {
		long long start;

		/* After a capped round, wait for the owner to hold it again. */
		while (!__atomic_load_n(&owner_holds, __ATOMIC_ACQUIRE))
			usleep(1000);
		if (i && cap_ns)
			usleep(10000);
		start = now_ns(CLOCK_MONOTONIC);
		__atomic_store_n(&round_start, start, __ATOMIC_RELEASE);
		long long deadline = now_ns(CLOCK_REALTIME) + timeout_us * NSEC_PER_USEC;
		struct timespec abs = {
			.tv_sec = deadline / NSEC_PER_SEC,
			.tv_nsec = deadline % NSEC_PER_SEC,
		};

		ret = pthread_mutex_timedlock(&lock, &abs);
		elapsed = now_ns(CLOCK_MONOTONIC) - start;
		if (ret == 0) {
			returned0++;
			pthread_mutex_unlock(&lock);
		} else if (ret == ETIMEDOUT) {
			etimedout++;
		} else {
			other++;
		}
		/* The round is over (the lock released if we took it). */
		__atomic_store_n(&round_start, 0, __ATOMIC_RELEASE);
		sum += elapsed;
		if (elapsed > max)
			max = elapsed;
		elapsed -= timeout_us * NSEC_PER_USEC;
		late_sum += elapsed;
		if (elapsed > late_max)
			late_max = elapsed;
	}

	__atomic_store_n(&stop, 1, __ATOMIC_RELEASE);
	pthread_join(owner, NULL);

	ret = etimedout == rounds && late_max <= bound_us * NSEC_PER_USEC ? 0 : 1;
	printf("rtmutex-timedlock: rounds=%lld etimedout=%lld returned0=%lld other=%lld"
	       " elapsed_avg_us=%lld elapsed_max_us=%lld late_avg_us=%lld late_max_us=%lld"
	       " bound_us=%lld verdict=%s cap_us=%lld capped=%d\n",
	       rounds, etimedout, returned0, other,
	       sum / rounds / NSEC_PER_USEC, max / NSEC_PER_USEC,
	       late_sum / rounds / NSEC_PER_USEC, late_max / NSEC_PER_USEC,
	       bound_us, ret ? "fail" : "pass", cap_us,
	       __atomic_load_n(&capped, __ATOMIC_ACQUIRE));
	fflush(stdout);
	return ret;
}
