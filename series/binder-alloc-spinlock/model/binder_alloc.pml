/*
 * binder_alloc.pml - one page slot of the binder allocator, exhaustively.
 *
 * Models drivers/android/binder_alloc.c (Linux 7.2.13) for a single page
 * index of one binder_alloc: alloc->pages[index], the user PTE at that
 * address, the page's list_lru membership, alloc->lock (the mutex before
 * the conversion), the reference count of every struct page that can be
 * put there, and a CPU that runs three tasks by strict priority. The
 * tasks: the shrinker callback binder_alloc_free_page() and two threads
 * that each allocate a buffer covering the page (binder_alloc_new_buf),
 * install it (binder_install_buffer_pages), use it, and free the buffer
 * (binder_alloc_free_buf) so that the shrinker can take the page again.
 *
 * The protocol is chosen with -D:
 *   -DBASE  v7.2.13: zap_vma_range() under alloc->mutex; -EBUSY from
 *           vm_insert_page() -> binder_page_lookup() (GUP of the pte,
 *           FOLL_GET: a page reference that is never dropped)
 *   -DMID   v2 patch 3 alone: zap under the mutex; -EBUSY -> use
 *           alloc->pages[index] if published, else -EAGAIN and retry
 *           at once (while (... == -EAGAIN) cond_resched();)
 *   -DV1    v1 (RFC PATCH 1/1): alloc->lock, a spinlock, dropped before
 *           the zap; -EBUSY -> binder_page_lookup()
 *   -DV2    v2: spinlock dropped before the zap; -EBUSY -> -EAGAIN and
 *           the busy retry of MID
 *   -DV3    v3: as V2, but every window in which the pte may hold a page
 *           that alloc->pages[index] does not (an installer from before
 *           vm_insert_page() to after binder_set_installed_page(), the
 *           shrinker from taking the page off alloc->pages[] to the end
 *           of zap_vma_range()) is counted in alloc->pte_busy; the last
 *           one out calls wake_up_var(). On -EBUSY with nothing
 *           published, the installer sleeps in
 *           wait_var_event(&alloc->pte_busy, page published || count 0)
 *           and then retries with the page it allocated first.
 *           An installer whose vm_insert_page() found the pte empty
 *           while a zap is in flight (alloc->zapping: the shrinker from
 *           taking the page off alloc->pages[] to the end of
 *           zap_vma_range(), TLB flush included) sleeps in
 *           wait_var_event(&alloc->zapping, count 0) before it
 *           publishes its page.
 *   -DV3A   v3 as first recorded: V3 without that wait (an installer
 *           publishes a page inserted between a zap's pte clear and its
 *           TLB flush)
 *
 * Scheduling: one CPU, strict priority, no fairness. Installer 1 has the
 * highest priority, installer 2 the next, the shrinker the lowest (e.g.
 * SCHED_FIFO binder threads and a reclaimer below them). A task runs only
 * while no higher priority task is runnable, and nobody else runs while a
 * task holds a spinlock (preemption off). An installer sleeps before each
 * buffer (waiting for a transaction) and wakes at any moment, preempting
 * whatever lower priority task runs; it also sleeps on a contended mutex
 * (BASE, MID) and in wait_var_event() (V3). Memory is sequentially
 * consistent: the barriers of the kernel code are not modelled.
 *
 * The TLB: tlb is the translation of the address that a CPU of the
 * process has cached (0: none). A read through the user mapping uses it,
 * or fills it from the pte. zap_vma_range() clears the pte under the pte
 * lock, and only later (tlb_finish_mmu(), after the pte lock is dropped;
 * the shrinker may be preempted in between) flushes the TLBs and drops
 * the pte's page reference. Installing a pte where there was none
 * flushes nothing. The TLB is modelled in V3 and V3A only: V1 and V2
 * also publish a page inserted into a pte that a zap cleared and has not
 * flushed, and with the TLB they fail that assertion first, before the
 * faults this model was written to show (Alice's race, the busy wait's
 * cycle); they are rejected either way.
 *
 * Safety (assertions, and no deadlock: every task ends): a page an
 * installer uses while its buffer is allocated holds a reference and is
 * the page mapped in the pte and published in alloc->pages[] (else the
 * kernel writes the transaction into a page user space cannot see, or
 * into freed memory); the shrinker's zap only ever removes the page it
 * took off alloc->pages[] (never a page installed after it); when all is
 * done, every page's reference count is exactly the references that
 * alloc->pages[] and the pte hold (no leak, no page freed twice); in V3 an
 * installer allocates at most one page per installation.
 * Liveness: no cycle at all in the state graph (pan -l, no progress
 * labels, no fairness): every execution ends, with every installer done.
 */

#if defined(V3A)
#define V3	1
#elif defined(V3)
#define ZAPWAIT		1	/* wait for the zaps in flight */
#endif
#if defined(V3)
#define TLB		1	/* model the TLB (see above) */
#endif
#if defined(V1) || defined(V2) || defined(V3)
#define ZAP_UNLOCKED	1
#define SPINLOCK	1
#endif
#if defined(V2) || defined(MID)
#define BUSY_RETRY	1
#endif
#if defined(V3)
#define WAITVAR		1
#endif
#if defined(BASE) || defined(V1)
#define LOOKUP		1
#endif
#if !defined(V1) && !defined(V2) && !defined(V3) && !defined(BASE) && !defined(MID)
#error "define one of V1, V2, V3, V3A, BASE, MID"
#endif

#define NINST	2	/* installer threads */
#define CYCLES	2	/* buffers each installer allocates in turn */
#define NPAGES	(2 + NINST * CYCLES)
#define NPROC	4	/* shrinker (pid 0), init (1), installers (2, 3) */

byte ref[NPAGES];	/* page reference count; 0: free (or never used) */
byte pages;		/* alloc->pages[index]; 0 is NULL */
byte pte;		/* the user pte at index; 0 is none */
byte tlb;		/* a CPU's cached translation of it; 0 is none */
bool onlru;		/* the page in alloc->pages[index] is on the freelist */
byte users;		/* allocated buffers that cover the page */
bool locked;		/* alloc->lock (alloc->mutex in BASE and MID) */
byte done;		/* installers that have finished */
bool started;		/* init has set the scene */

/* the scheduler: runnable tasks, priorities, the task with preemption off */
bool ready[NPROC];
byte prio[NPROC];
byte nopreempt = 255;	/* pid of the spinlock holder; 255: none */

#ifdef WAITVAR
byte busy;		/* alloc->pte_busy */
bool queued[NPROC];	/* on the wait queue of &alloc->pte_busy */
bool awake[NPROC];	/* task state TASK_RUNNING (a wakeup came) */
byte zapping;		/* alloc->zapping */
bool zqueued[NPROC];	/* on the wait queue of &alloc->zapping */
#endif

/* may the task with pid p take a step on the CPU now? */
#define MAY_RUN(p)	(started && (nopreempt == 255 || nopreempt == p) && \
			 !(ready[2] && prio[2] > prio[p]) && \
			 !(ready[3] && prio[3] > prio[p]))

inline get_page(p)
{
	assert(ref[p] > 0);
	ref[p]++
}

/* put_page(): the page is freed when the last reference goes */
inline put_page(p)
{
	assert(ref[p] > 0);
	ref[p]--;
	if
	:: ref[p] == 0 -> printf("MSC: page %d freed\n", p)
	:: else -> skip
	fi
}

#ifdef SPINLOCK
inline lock()
{
	atomic { !locked -> locked = true; nopreempt = _pid }
}

inline unlock()
{
	atomic { locked = false; nopreempt = 255 }
}
#else
/* mutex_lock(): a task that finds it taken sleeps until it is free */
inline lock()
{
	if
	:: atomic { !locked -> locked = true }
	:: atomic { locked -> ready[_pid] = false };
		atomic { !locked -> locked = true; ready[_pid] = true }
	fi
}

inline unlock()
{
	locked = false
}
#endif

#ifdef WAITVAR
/* if (atomic_dec_and_test(&alloc->pte_busy)) wake_up_var(&alloc->pte_busy) */
inline unbusy()
{
	atomic {
		busy--;
		last = (busy == 0)
	};
	if
	:: last ->
		atomic {	/* wake every task on the queue */
			for (q : 2 .. NPROC - 1) {
				if
				:: queued[q] ->
					queued[q] = false;	/* autoremove */
					awake[q] = true;
					ready[q] = true
				:: else -> skip
				fi
			}
			printf("MSC: %d: pte_busy 0, wake_up_var\n", _pid)
		}
	:: else -> skip
	fi;
	last = false
}
#endif

/* binder_alloc_free_page(), called by list_lru_walk() under the lru lock */
active proctype shrinker() provided (MAY_RUN(0))
{
	byte victim, i;
#ifdef WAITVAR
	bool last;
	byte q;
#endif

	do
	:: done == NINST -> break
	:: /* spin_lock(&lru->lock); mutex_trylock()/spin_trylock() */
		atomic {
			onlru && !locked ->
			locked = true;
			onlru = false;	/* list_lru_isolate() */
#ifdef SPINLOCK
			nopreempt = _pid
#endif
		}
		victim = pages;
		pages = 0;		/* binder_set_installed_page(NULL) */
		printf("MSC: shrinker: took page %d off pages[]\n", victim);
#ifdef WAITVAR
		busy++;			/* under alloc->lock */
#endif
#ifdef WAITVAR
		zapping++;		/* under alloc->lock */
#endif
#ifdef ZAP_UNLOCKED
		unlock();
#endif
		atomic {		/* zap_vma_range(): zap_pte_range() under the pte lock */
			assert(pte == victim);
			pte = 0;
			printf("MSC: shrinker: zap pte of page %d\n", victim)
		}
#ifdef TLB
		atomic {		/* tlb_finish_mmu(): flush the TLBs */
			tlb = 0;
			printf("MSC: shrinker: TLB flush\n")
		}
#endif
		put_page(victim);	/* the pte's reference */
#ifdef WAITVAR
		/* if (atomic_dec_and_test(&alloc->zapping)) wake_up_var(&alloc->zapping) */
		atomic {
			zapping--;
			if
			:: zapping == 0 ->
				for (q : 2 .. NPROC - 1) {
					if
					:: zqueued[q] ->
						zqueued[q] = false;
						awake[q] = true;
						ready[q] = true
					:: else -> skip
					fi
				}
			:: else -> skip
			fi
		}
		unbusy();
#endif
#ifndef ZAP_UNLOCKED
		unlock();
#endif
		put_page(victim);	/* binder_free_page() */
	od;

	/* everything is done: no page holds a reference nobody owns */
	for (i : 1 .. NPAGES - 1) {
		assert(ref[i] == (pages == i) + (pte == i))
	}
}

proctype installer(byte me; byte cand0) provided (MAY_RUN(_pid))
{
	byte cycle, cand, x, nalloc;
#ifdef WAITVAR
	bool last;
	byte q;
#endif

	cycle = 0;
	do
	:: cycle == CYCLES -> break
	:: else ->
		/* asleep until a transaction comes, at any moment */
		ready[_pid] = false;
		ready[_pid] = true;
		printf("MSC: installer %d: runs\n", me);
		cand = cand0 + cycle * NINST;
		x = 0;
		nalloc = 0;

		/* binder_alloc_new_buf_locked(): binder_lru_freelist_del() */
		lock();
		users++;
		if
		:: pages != 0 && onlru -> onlru = false
		:: else -> skip
		fi;
		unlock();

		/* binder_install_buffer_pages() */
		if
		:: pages != 0 -> x = pages	/* already installed */
		:: else ->
#ifndef WAITVAR
retry:
#endif
			/* binder_page_alloc() */
			ref[cand] = 1;
#ifdef WAITVAR
			nalloc++;
#endif
#ifdef WAITVAR
retry:
			busy++;
#endif
			if
			:: atomic { pte == 0 -> pte = cand; get_page(cand);	/* vm_insert_page() */
				printf("MSC: installer %d: inserted page %d\n", me, cand) }
#ifdef ZAPWAIT
				/* wait_var_event(&alloc->zapping, !zapping) */
				do
				:: atomic {
					zqueued[_pid] = true;
					awake[_pid] = false
				}
				if
				:: zapping == 0 -> break
				:: else ->
					atomic {
						if
						:: awake[_pid] -> skip
						:: else ->
							ready[_pid] = false;
							printf("MSC: installer %d: waits for the zap\n", me)
						fi
					}
					ready[_pid]
				fi
				od;
				atomic {
					zqueued[_pid] = false;
					awake[_pid] = true
				}
#endif
				pages = cand;	/* binder_set_installed_page() */
				x = cand;
#ifdef WAITVAR
				unbusy()
#endif
			:: atomic { pte != 0 ->	/* -EBUSY */
				printf("MSC: installer %d: -EBUSY, pte has page %d\n", me, pte) }
#ifdef WAITVAR
				unbusy();
				/* wait_var_event(&alloc->pte_busy, pages[index] || !pte_busy) */
				do
				:: atomic {	/* prepare_to_wait(): queue, TASK_UNINTERRUPTIBLE */
					queued[_pid] = true;
					awake[_pid] = false
				}
				if
				:: pages != 0 || busy == 0 -> break
				:: else ->
					atomic {	/* schedule() */
						if
						:: awake[_pid] -> skip	/* woken since: run on */
						:: else ->
							ready[_pid] = false;
							printf("MSC: installer %d: sleeps in wait_var_event\n", me)
						fi
					}
					ready[_pid]	/* until wake_up_var() */
				fi
				od;
				atomic {	/* finish_wait() */
					queued[_pid] = false;
					awake[_pid] = true
				}
				if
				:: pages != 0 ->
					put_page(cand);	/* binder_free_page(): not needed */
					x = pages
				:: else ->
					printf("MSC: installer %d: retries\n", me);
					goto retry
				fi
#else
				put_page(cand);	/* binder_free_page() */
#ifdef BUSY_RETRY
				if
				:: pages != 0 -> x = pages
				:: else ->
					printf("MSC: installer %d: pages[] empty, -EAGAIN\n", me);
					goto retry
				fi
#else
				atomic {	/* binder_page_lookup(): FOLL_GET */
					x = pte;
					if
					:: x != 0 -> get_page(x)
					:: else -> skip
					fi;
					printf("MSC: installer %d: lookup pte -> page %d\n", me, x)
				}
				if
				:: x == 0 -> goto failed	/* -ESRCH */
				:: else -> pages = x
				fi
#endif
#endif
			fi
		fi;
#ifdef WAITVAR
		assert(nalloc <= 1);	/* no page allocated per retry */
#endif

		/* binder_alloc_copy_to_buffer(), then user space reads it */
		assert(ref[x] > 0 && pte == x && pages == x);
#ifdef TLB
		atomic {	/* the read through the user mapping: the TLB */
			if
			:: tlb == 0 -> tlb = pte
			:: else -> skip
			fi;
			assert(tlb == x)
		}
#endif
		printf("MSC: installer %d: uses page %d\n", me, x);
		/* ... until the buffer is freed: still the same page */
		assert(ref[x] > 0 && pte == x && pages == x);
#ifdef TLB
		atomic {
			if
			:: tlb == 0 -> tlb = pte
			:: else -> skip
			fi;
			assert(tlb == x)
		}
#endif
failed:
		/* binder_alloc_free_buf(): binder_lru_freelist_add() */
		lock();
		users--;
		if
		:: users == 0 && pages != 0 -> onlru = true
		:: else -> skip
		fi;
		unlock();
		cycle++
	od;
	ready[_pid] = false;
	done++
}

init
{
	byte i;

	atomic {
		/* page 1 installed by an earlier buffer, now on the lru */
		ref[1] = 2;	/* alloc->pages[] and the pte */
		pages = 1;
		pte = 1;
		tlb = 1;	/* read through the user mapping */
		onlru = true;
		prio[0] = 0;	/* the shrinker */
		prio[2] = 2;	/* installer 1 */
		prio[3] = 1;	/* installer 2 */
		for (i : 1 .. NINST) {
			run installer(i, 1 + i)
		}
		started = true
	}
}
