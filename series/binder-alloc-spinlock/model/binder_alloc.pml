/*
 * binder_alloc.pml - one page slot of the binder allocator, exhaustively.
 *
 * Models drivers/android/binder_alloc.c (Linux 7.2.13) for a single page
 * index of one binder_alloc: alloc->pages[index], the user PTE at that
 * address, the page's list_lru membership, alloc->lock (the mutex before
 * the conversion) and the lifecycle of every struct page that can be put
 * there. Three processes: the shrinker callback binder_alloc_free_page()
 * and two threads that each allocate a buffer covering the page
 * (binder_alloc_new_buf), install it (binder_install_buffer_pages), use
 * it, and free the buffer (binder_alloc_free_buf) so that the shrinker
 * can take the page again.
 *
 * The protocol is chosen with -D:
 *   -DBASE  v7.2.13: zap_vma_range() under alloc->mutex; -EBUSY from
 *           vm_insert_page() -> binder_page_lookup() (GUP of the pte)
 *   -DMID   v2 patch 3 alone: zap under the mutex; -EBUSY -> use
 *           alloc->pages[index] if published, else -EAGAIN and retry
 *   -DV1    v1 (RFC PATCH 1/1): alloc->lock dropped before the zap;
 *           -EBUSY -> binder_page_lookup()
 *   -DV2    v2: lock dropped before the zap; -EBUSY -> -EAGAIN retry
 *
 * Safety (assertions): a page an installer uses while its buffer is
 * allocated is not freed and is the page mapped in the pte (else the
 * kernel writes the transaction into a page user space cannot see, or
 * into freed memory); the shrinker's zap only ever removes the page it
 * took off alloc->pages[] (never a page installed after it).
 * Liveness (ltl "live", checked with weak fairness): every installer
 * finishes, i.e. the -EAGAIN retry cannot spin forever.
 */

#if defined(V1) || defined(V2)
#define ZAP_UNLOCKED	1
#endif
#if defined(V2) || defined(MID)
#define RETRY		1
#endif
#if !defined(V1) && !defined(V2) && !defined(BASE) && !defined(MID)
#error "define one of V1, V2, BASE, MID"
#endif

#define NINST	2	/* installer threads */
#define CYCLES	2	/* buffers each installer allocates in turn */
#define NPAGES	(2 + NINST * CYCLES)

mtype = { UNUSED, ALLOCATED, FREED };

mtype pstate[NPAGES];	/* lifecycle of each struct page (+ its mdata) */
byte pages;		/* alloc->pages[index]; 0 is NULL */
byte pte;		/* the user pte at index; 0 is none */
bool onlru;		/* the page in alloc->pages[index] is on the freelist */
byte users;		/* allocated buffers that cover the page */
bool locked;		/* alloc->lock (alloc->mutex in BASE and MID) */
byte done;		/* installers that have finished */

inline lock()
{
	atomic { !locked -> locked = true }
}

inline unlock()
{
	locked = false
}

/* binder_alloc_free_page(), called by list_lru_walk() under the lru lock */
active proctype shrinker()
{
	byte victim;

	do
	:: done == NINST -> break
	:: else ->
		/* mutex_trylock()/spin_trylock() of an item on the lru */
		if
		:: atomic { onlru && !locked -> locked = true; onlru = false }
		:: else -> goto idle
		fi;
		victim = pages;
		pages = 0;		/* binder_set_installed_page(NULL) */
		printf("MSC: shrinker: took page %d off pages[]\n", victim);
#ifdef ZAP_UNLOCKED
		unlock();
#endif
		atomic {		/* zap_vma_range() under the pte lock */
			assert(pte == victim);
			pte = 0;
			printf("MSC: shrinker: zap pte of page %d\n", victim)
		}
#ifndef ZAP_UNLOCKED
		unlock();
#endif
		pstate[victim] = FREED;	/* binder_free_page() */
		printf("MSC: shrinker: freed page %d\n", victim);
idle:		skip
	od
}

proctype installer(byte me; byte cand0)
{
	byte cycle, cand, x;

	cycle = 0;
	do
	:: cycle == CYCLES -> break
	:: else ->
		cand = cand0 + cycle * NINST;
		x = 0;

		/* binder_alloc_new_buf_locked(): binder_lru_freelist_del() */
		lock();
		users++;
		if
		:: pages != 0 && onlru -> onlru = false
		:: else -> skip
		fi;
		unlock();

		/* binder_install_buffer_pages() */
retry:
		if
		:: pages != 0 -> x = pages	/* already installed */
		:: else ->
			pstate[cand] = ALLOCATED;	/* binder_page_alloc() */
			if
			:: atomic { pte == 0 -> pte = cand }	/* vm_insert_page() */
				pages = cand;	/* binder_set_installed_page() */
				x = cand;
				printf("MSC: installer %d: inserted page %d\n", me, cand)
			:: atomic { pte != 0 ->	/* -EBUSY */
				printf("MSC: installer %d: -EBUSY, pte has page %d\n", me, pte) }
				pstate[cand] = UNUSED;	/* binder_free_page() */
#ifdef RETRY
				if
				:: pages != 0 -> x = pages
				:: else ->
					printf("MSC: installer %d: pages[] empty, -EAGAIN\n", me);
					goto retry
				fi
#else
				atomic {	/* binder_page_lookup() */
					x = pte;
					printf("MSC: installer %d: lookup pte -> page %d\n", me, x)
				}
				if
				:: x == 0 -> goto failed	/* -ESRCH */
				:: else -> pages = x
				fi
#endif
			fi
		fi;

		/* binder_alloc_copy_to_buffer(), then user space reads it */
		assert(pstate[x] == ALLOCATED && pte == x && pages == x);
		printf("MSC: installer %d: uses page %d\n", me, x);
		/* ... until the buffer is freed: still the same page */
		assert(pstate[x] == ALLOCATED && pte == x && pages == x);
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
	done++
}

init
{
	byte i;

	atomic {
		for (i : 0 .. NPAGES - 1) {
			pstate[i] = UNUSED
		}
		/* page 1 installed by an earlier buffer, now on the lru */
		pstate[1] = ALLOCATED;
		pages = 1;
		pte = 1;
		onlru = true;
		for (i : 1 .. NINST) {
			run installer(i, 1 + i)
		}
	}
}

ltl live { <> (done == NINST) }
