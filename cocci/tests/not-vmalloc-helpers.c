/*
 * vmalloc_*() helpers that do not allocate: not sleepers. A vmalloc\w*
 * pattern took vmalloc_dump_obj() (reached from every KASAN report, so
 * from every memset()/memcpy() through kasan_check_range()) and
 * vmalloc_to_page() for sleepers: most of the first run's findings on
 * 7.2.13 mm/. The allocating ones still are.
 */
struct s { spinlock_t lock; };

void helpers(struct s *a, void *p, unsigned long n)
{
	spin_lock(&a->lock);
	vmalloc_to_page(p);
	vmalloc_dump_obj(p);
	vmalloc_to_pfn(p);
	p = vmalloc_user(n);
	p = vzalloc_node(n, 0);
	spin_unlock(&a->lock);
}
/*
 * check-output-start
not-vmalloc-helpers.c:16: sleeping call 'vmalloc_user' while holding 'a->lock' (taken at line 12)
not-vmalloc-helpers.c:17: sleeping call 'vzalloc_node' while holding 'a->lock' (taken at line 12)
 * check-output-end
 */
