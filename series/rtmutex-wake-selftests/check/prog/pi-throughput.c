// SPDX-License-Identifier: GPL-2.0
/*
 * pi-throughput - PI mutex throughput under contention, for a rank test
 * of a base kernel against a patched one.
 *
 * Two threads, one on each of the first two CPUs, take and release one
 * PTHREAD_PRIO_INHERIT mutex in a loop for SECONDS seconds, a short
 * critical section inside, a short pause outside. Under contention
 * glibc takes the lock with FUTEX_LOCK_PI: the waiter blocks on the
 * futex's rt_mutex and spins in rtmutex_spin_on_owner() while the owner
 * runs, the loop the fix changes. Prints, per sample,
 *	pi-throughput: sample=I ops=N
 * (lock/unlock pairs of both threads in SECONDS seconds) and last
 *	pi-throughput: samples=S seconds=T median_ops=M
 *
 * usage: pi-throughput [SAMPLES [SECONDS]]   (default 10 1)
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define NSEC_PER_SEC 1000000000LL

static pthread_mutex_t lock;
static volatile unsigned long shared_counter;
static long long deadline_ns;

static long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * NSEC_PER_SEC + ts.tv_nsec;
}

static int pin(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	return sched_setaffinity(0, sizeof(set), &set);
}

/* Lock/unlock pairs until the deadline. */
static unsigned long loop(void)
{
	unsigned long ops = 0;
	int i;

	while (now_ns() < __atomic_load_n(&deadline_ns, __ATOMIC_ACQUIRE)) {
		pthread_mutex_lock(&lock);
		for (i = 0; i < 50; i++)
			shared_counter++;
		pthread_mutex_unlock(&lock);
		for (i = 0; i < 50; i++)
			__asm__ volatile("" ::: "memory");
		ops++;
	}
	return ops;
}

static int cpus[2];
static pthread_barrier_t start;

static void *second(void *arg)
{
	unsigned long *ops = arg;

	if (pin(cpus[1]))
		return NULL;
	pthread_barrier_wait(&start);
	*ops = loop();
	return NULL;
}

static int cmp_ul(const void *a, const void *b)
{
	unsigned long x = *(const unsigned long *)a, y = *(const unsigned long *)b;

	return x < y ? -1 : x > y;
}

int main(int argc, char **argv)
{
	int samples = argc > 1 ? atoi(argv[1]) : 10;
	int seconds = argc > 2 ? atoi(argv[2]) : 1;
	pthread_mutexattr_t attr;
	unsigned long *all;
	cpu_set_t set;
	int i, n = 0;

	if (samples < 1 || samples > 1000 || seconds < 1 || seconds > 60) {
		fprintf(stderr, "usage: pi-throughput [SAMPLES [SECONDS]]\n");
		return 2;
	}
	if (sched_getaffinity(0, sizeof(set), &set))
		return 2;
	for (i = 0; i < CPU_SETSIZE && n < 2; i++)
		if (CPU_ISSET(i, &set))
			cpus[n++] = i;
	if (n < 2) {
		fprintf(stderr, "pi-throughput: needs two CPUs\n");
		return 2;
	}
	all = calloc(samples, sizeof(*all));
	if (!all || pthread_mutexattr_init(&attr) ||
	    pthread_mutexattr_setprotocol(&attr, PTHREAD_PRIO_INHERIT) ||
	    pthread_mutex_init(&lock, &attr) || pin(cpus[0]))
		return 2;

	for (i = 0; i < samples; i++) {
		unsigned long a, b = 0;
		pthread_t t;

		pthread_barrier_init(&start, NULL, 2);
		__atomic_store_n(&deadline_ns, NSEC_PER_SEC * 1000000LL, __ATOMIC_RELEASE);
		if (pthread_create(&t, NULL, second, &b))
			return 2;
		pthread_barrier_wait(&start);
		__atomic_store_n(&deadline_ns, now_ns() + seconds * NSEC_PER_SEC,
				 __ATOMIC_RELEASE);
		a = loop();
		pthread_join(t, NULL);
		pthread_barrier_destroy(&start);
		all[i] = a + b;
		printf("pi-throughput: sample=%d ops=%lu\n", i, all[i]);
		fflush(stdout);
	}
	qsort(all, samples, sizeof(*all), cmp_ul);
	printf("pi-throughput: samples=%d seconds=%d median_ops=%lu\n", samples,
	       seconds, all[samples / 2]);
	return 0;
}
