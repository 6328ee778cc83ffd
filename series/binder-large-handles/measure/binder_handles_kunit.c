// SPDX-License-Identifier: GPL-2.0
/*
 * binder_handles_kunit.c - time binder_get_ref_for_node_olocked(), with
 * large handles on and off, in the kernel; and, on a version that can
 * clear them, what clearing does to the handles.
 *
 * Not part of the series: measure/run copies this file to
 * drivers/android/ and appends to binder.c
 *
 *	#define BINDER_HANDLES_KERNEL "v7.2.13" (or "v2", "v3")
 *	#define BINDER_HANDLES_ENABLE(proc, on) ...  (not on v7.2.13)
 *	#define BINDER_HANDLES_CLEAR 1              (v3: the flag clears)
 *	#include "binder_handles_kunit.c"
 *
 * so that the static functions of binder.c are called as they are, the
 * same code in both modes. BINDER_HANDLES_ENABLE(proc, on) sets the mode
 * as the version's ioctl does, under the outer and inner locks (held
 * here): v2's BINDER_SET_PROC_FLAGS sets PF_LARGE_HANDLES in proc->flags,
 * v3's BINDER_ENABLE_LARGE_HANDLES sets or clears proc->large_handles.
 *
 * binder_handles_time: each round, for each mode (on the
 * base kernel, "off" only; on v2, "off" and "on", in an order that
 * alternates between rounds so that a drift of the host's load hits
 * both), a fresh binder_proc is given REFS new references, one per node,
 * the way binder_inc_ref_for_node() creates one: outer lock taken, the
 * call, outer lock released. Each call is timed with ktime_get_ns()
 * around binder_get_ref_for_node_olocked() alone (lock, allocation and
 * bookkeeping are outside the timed interval). Then PROBE more references
 * are created with REFS already held, each timed on its own. One line per
 * (round, mode):
 *
 *	binder_linux: binder-handles-kunit: kernel=K round=R mode=off|on
 *	refs=N probe=P fill_ns=.. probe_tmean_ns=.. probe_min_ns=..
 *	probe_med_ns=.. probe_p90_ns=.. probe_max_ns=.. last_desc=..
 *	dmap_nbits=..
 *
 * fill_ns: the sum of the REFS timed calls; probe_*: the distribution of
 * the PROBE calls made with REFS held (each includes one ktime_get_ns()).
 * probe_tmean_ns is the mean of the fastest 90% of them: the clock may be
 * coarse (UML's ticks by 256 ns), and a mean resolves what one call's
 * time cannot, while the slowest 10% (a timer interrupt, the host taking
 * the CPU away: up to milliseconds) would swamp it.
 *
 * What fails the test: a call that does not return the new reference,
 * handles other than 1..REFS+PROBE in creation order (neither mode frees
 * one, so both hand out the same handles), and a mode that did not take
 * effect: with the flag the dbitmap is never searched, so it never grows
 * beyond its initial NBITS_MIN bits; without it, it covers every handle.
 *
 * binder_handles_clear (BINDER_HANDLES_CLEAR only): see the case below.
 *
 * Parameters (kernel command line): binder_linux.handles_refs=N (100000),
 * binder_linux.handles_probe=P (1000), binder_linux.handles_rounds=R (5).
 */
#include <kunit/test.h>
#include <linux/ktime.h>
#include <linux/sort.h>
#include <linux/vmalloc.h>

static unsigned int handles_refs = 100000;
module_param(handles_refs, uint, 0444);
MODULE_PARM_DESC(handles_refs, "binder_handles_time: references held");
static unsigned int handles_probe = 1000;
module_param(handles_probe, uint, 0444);
MODULE_PARM_DESC(handles_probe, "binder_handles_time: calls timed with them held");
static unsigned int handles_rounds = 5;
module_param(handles_rounds, uint, 0444);
MODULE_PARM_DESC(handles_rounds, "binder_handles_time: rounds");

#ifdef BINDER_HANDLES_ENABLE
/* the mode, as the version's ioctl sets it */
static void handles_enable(struct binder_proc *proc, bool on)
{
	binder_proc_lock(proc);
	binder_inner_proc_lock(proc);
	BINDER_HANDLES_ENABLE(proc, on);
	binder_inner_proc_unlock(proc);
	binder_proc_unlock(proc);
}
#endif

static int handles_cmp_u64(const void *a, const void *b)
{
	u64 x = *(const u64 *)a, y = *(const u64 *)b;

	return x < y ? -1 : x > y;
}

/* one (round, mode): fill, probe, check, print */
static void handles_one(struct kunit *test, unsigned int round, bool large)
{
	unsigned int n = handles_refs + handles_probe, i, bad = 0;
	static struct binder_context ctx;	/* no context manager */
	struct binder_proc *proc;
	struct binder_node *nodes;
	struct binder_ref *refs, *ref;
	unsigned int keep = max(handles_probe * 9 / 10, 1U);
	u64 *t, fill = 0, tsum = 0, a, b;

	proc = kunit_kzalloc(test, sizeof(*proc), GFP_KERNEL);
	nodes = vcalloc(n, sizeof(*nodes));
	refs = vcalloc(n, sizeof(*refs));
	t = vcalloc(handles_probe, sizeof(*t));
	if (!proc || !nodes || !refs || !t) {
		KUNIT_FAIL(test, "cannot allocate %u nodes and references", n);
		goto out;
	}
	spin_lock_init(&proc->outer_lock);
	spin_lock_init(&proc->inner_lock);
	proc->refs_by_desc = RB_ROOT;
	proc->refs_by_node = RB_ROOT;
	proc->context = &ctx;
	proc->pid = round;
	if (dbitmap_init(&proc->dmap)) {
		KUNIT_FAIL(test, "dbitmap_init() failed");
		goto out;
	}
	if (large) {
#ifdef BINDER_HANDLES_ENABLE
		handles_enable(proc, true);
#else
		KUNIT_FAIL(test, "this kernel has no large handles");
		goto out_dmap;
#endif
	}
	for (i = 0; i < n; i++) {
		spin_lock_init(&nodes[i].lock);
		INIT_HLIST_HEAD(&nodes[i].refs);
	}

	for (i = 0; i < n; i++) {
		binder_proc_lock(proc);
		a = ktime_get_ns();
		ref = binder_get_ref_for_node_olocked(proc, &nodes[i], &refs[i]);
		b = ktime_get_ns();
		binder_proc_unlock(proc);
		if (i < handles_refs) {
			fill += b - a;
		} else {
			t[i - handles_refs] = b - a;
		}
		if (ref != &refs[i] || ref->data.desc != i + 1)
			bad++;
		if (!(i & 1023))
			cond_resched();
	}
	KUNIT_EXPECT_EQ_MSG(test, bad, 0,
			    "mode=%s: calls without the new reference or handle i+1",
			    large ? "on" : "off");
	if (large)
		KUNIT_EXPECT_EQ_MSG(test, proc->dmap.nbits, NBITS_MIN,
				    "mode=on: the dbitmap grew: the flag did not take effect");
	else
		KUNIT_EXPECT_GE_MSG(test, proc->dmap.nbits, n + 1,
				    "mode=off: the dbitmap does not cover the handles");

	sort(t, handles_probe, sizeof(*t), handles_cmp_u64, NULL);
	for (i = 0; i < keep; i++)
		tsum += t[i];
	pr_info("binder-handles-kunit: kernel=%s round=%u mode=%s refs=%u probe=%u fill_ns=%llu probe_tmean_ns=%llu probe_min_ns=%llu probe_med_ns=%llu probe_p90_ns=%llu probe_max_ns=%llu last_desc=%u dmap_nbits=%u\n",
		BINDER_HANDLES_KERNEL, round, large ? "on" : "off",
		handles_refs, handles_probe, fill,
		div_u64(tsum, keep), t[0],
		t[handles_probe / 2], t[handles_probe * 9 / 10],
		t[handles_probe - 1], refs[n - 1].data.desc,
		proc->dmap.nbits);

	for (i = 0; i < n; i++)
		binder_stats_deleted(BINDER_STAT_REF);
out_dmap: __maybe_unused;
	dbitmap_free(&proc->dmap);
out:
	vfree(t);
	vfree(refs);
	vfree(nodes);
}

static void binder_handles_time(struct kunit *test)
{
	unsigned int r;

	if (!handles_refs || !handles_probe || !handles_rounds) {
		KUNIT_FAIL(test, "binder_linux.handles_refs, _probe and _rounds must be > 0");
		return;
	}
	for (r = 1; r <= handles_rounds; r++) {
#ifdef BINDER_HANDLES_ENABLE
		/* off, on in odd rounds; on, off in even ones */
		handles_one(test, r, !(r & 1));
		handles_one(test, r, r & 1);
#else
		handles_one(test, r, false);
#endif
	}
}

#ifdef BINDER_HANDLES_CLEAR
#define CLEAR_HELD 200

/* a new reference to @node, as binder_inc_ref_for_node() makes one */
static u32 clear_new_ref(struct binder_proc *proc, struct binder_node *node,
			 struct binder_ref *ref)
{
	struct binder_ref *got;

	binder_proc_lock(proc);
	got = binder_get_ref_for_node_olocked(proc, node, ref);
	binder_proc_unlock(proc);
	return got == ref ? ref->data.desc : U32_MAX;
}

/* the dbitmap marks exactly the handles in use that it covers */
static void clear_check_dmap(struct kunit *test, struct binder_proc *proc,
			     const char *when)
{
	unsigned int covered = 0, unmarked = 0;
	struct binder_ref *ref;
	struct rb_node *n;

	binder_proc_lock(proc);
	for (n = rb_first(&proc->refs_by_desc); n; n = rb_next(n)) {
		ref = rb_entry(n, struct binder_ref, rb_node_desc);
		if (ref->data.desc >= proc->dmap.nbits)
			break;
		covered++;
		if (!test_bit(ref->data.desc, proc->dmap.map))
			unmarked++;
	}
	KUNIT_EXPECT_EQ_MSG(test, unmarked, 0,
			    "%s: handles in use not marked in the dbitmap", when);
	KUNIT_EXPECT_EQ_MSG(test, bitmap_weight(proc->dmap.map, proc->dmap.nbits),
			    covered, "%s: the dbitmap marks handles not in use", when);
	binder_proc_unlock(proc);
}

/*
 * Large handles on, then cleared, then set again. Handles the dbitmap
 * does not cover (NBITS_MIN bits while the flag is on) are in use when the
 * smallest-unused search resumes: it must skip them, also once the dbitmap
 * has grown over them, and no handle in use may change.
 *
 *   on:    CLEAR_HELD references: handles 1..CLEAR_HELD; drop 5 (in the
 *          dbitmap) and 100 (beyond it)
 *   off:   the next four are 5, 100 (the dbitmap grew to 128 bits),
 *          CLEAR_HELD + 1 and + 2 (it grew to 256)
 *   on:    the next one is CLEAR_HELD + 3 (the counter skips the two
 *          taken while it was off)
 */
static void binder_handles_clear(struct kunit *test)
{
	static const u32 off_descs[] = { 5, 100, CLEAR_HELD + 1, CLEAR_HELD + 2 };
	unsigned int n = CLEAR_HELD + ARRAY_SIZE(off_descs) + 1, i, bad = 0;
	static struct binder_context ctx;	/* no context manager */
	struct binder_proc *proc;
	struct binder_node *nodes;
	struct binder_ref *refs;
	u32 desc;

	proc = kunit_kzalloc(test, sizeof(*proc), GFP_KERNEL);
	nodes = kunit_kcalloc(test, n, sizeof(*nodes), GFP_KERNEL);
	refs = kunit_kcalloc(test, n, sizeof(*refs), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, proc);
	KUNIT_ASSERT_NOT_NULL(test, nodes);
	KUNIT_ASSERT_NOT_NULL(test, refs);
	spin_lock_init(&proc->outer_lock);
	spin_lock_init(&proc->inner_lock);
	proc->refs_by_desc = RB_ROOT;
	proc->refs_by_node = RB_ROOT;
	proc->context = &ctx;
	KUNIT_ASSERT_EQ(test, dbitmap_init(&proc->dmap), 0);
	for (i = 0; i < n; i++) {
		spin_lock_init(&nodes[i].lock);
		INIT_HLIST_HEAD(&nodes[i].refs);
		INIT_LIST_HEAD(&nodes[i].work.entry);
		/* binder_cleanup_ref_olocked() must not free the node */
		nodes[i].tmp_refs = 1;
	}

	handles_enable(proc, true);
	for (i = 0; i < CLEAR_HELD; i++)
		if (clear_new_ref(proc, &nodes[i], &refs[i]) != i + 1)
			bad++;
	KUNIT_EXPECT_EQ_MSG(test, bad, 0, "on: handles other than 1..%u", CLEAR_HELD);
	KUNIT_EXPECT_EQ(test, proc->dmap.nbits, NBITS_MIN);
	clear_check_dmap(test, proc, "on");

	binder_proc_lock(proc);
	binder_cleanup_ref_olocked(&refs[5 - 1]);
	binder_cleanup_ref_olocked(&refs[100 - 1]);
	binder_proc_unlock(proc);
	clear_check_dmap(test, proc, "on, 5 and 100 dropped");

	handles_enable(proc, false);
	for (i = 0; i < ARRAY_SIZE(off_descs); i++) {
		desc = clear_new_ref(proc, &nodes[CLEAR_HELD + i],
				     &refs[CLEAR_HELD + i]);
		KUNIT_EXPECT_EQ_MSG(test, desc, off_descs[i],
				    "off: new reference %u", i + 1);
	}
	KUNIT_EXPECT_EQ(test, proc->dmap.nbits, 4 * NBITS_MIN);
	clear_check_dmap(test, proc, "off");

	handles_enable(proc, true);
	desc = clear_new_ref(proc, &nodes[n - 1], &refs[n - 1]);
	KUNIT_EXPECT_EQ_MSG(test, desc, CLEAR_HELD + 3, "on again");
	clear_check_dmap(test, proc, "on again");

	/* the handles held throughout did not change */
	bad = 0;
	binder_proc_lock(proc);
	for (i = 0; i < CLEAR_HELD; i++) {
		if (i == 5 - 1 || i == 100 - 1)
			continue;
		if (refs[i].data.desc != i + 1 ||
		    binder_get_ref_olocked(proc, i + 1, false) != &refs[i])
			bad++;
	}
	binder_proc_unlock(proc);
	KUNIT_EXPECT_EQ_MSG(test, bad, 0, "a handle held throughout changed");
	pr_info("binder-handles-kunit: kernel=%s clear held=%u off_descs=%u,%u,%u,%u on_again=%u dmap_nbits=%u\n",
		BINDER_HANDLES_KERNEL, CLEAR_HELD, refs[CLEAR_HELD].data.desc,
		refs[CLEAR_HELD + 1].data.desc, refs[CLEAR_HELD + 2].data.desc,
		refs[CLEAR_HELD + 3].data.desc, refs[n - 1].data.desc,
		proc->dmap.nbits);

	for (i = 0; i < n - 2; i++)
		binder_stats_deleted(BINDER_STAT_REF);
	dbitmap_free(&proc->dmap);
}
#endif

static struct kunit_case binder_handles_cases[] = {
	KUNIT_CASE_SLOW(binder_handles_time),
#ifdef BINDER_HANDLES_CLEAR
	KUNIT_CASE(binder_handles_clear),
#endif
	{}
};

static struct kunit_suite binder_handles_suite = {
	.name = "binder_handles",
	.test_cases = binder_handles_cases,
};
kunit_test_suite(binder_handles_suite);
