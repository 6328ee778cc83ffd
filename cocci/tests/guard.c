/*
 * guard(spinlock)(l) holds l to the end of its block; scoped_guard(spinlock,
 * l) { } to the end of its body; guard(mutex) is no spinlock region.
 * Modelled on binder_alloc_prepare_to_free() and binder_alloc_print_allocated()
 * after the seed RFC (guard(mutex)(&alloc->mutex) -> guard(spinlock)(&alloc->lock)).
 */
struct s { spinlock_t lock; struct mutex m; };

void guards(struct s *a, int x)
{
	if (x) {
		guard(spinlock)(&a->lock);
		might_sleep();
	}
	msleep(2);
	scoped_guard(spinlock_irqsave, &a->lock) {
		schedule_timeout(1);
	}
	ssleep(1);
	{
		guard(mutex)(&a->m);
		msleep(3);
	}
}

int guard_to_end(struct s *a)
{
	guard(raw_spinlock_irq)(&a->raw);
	if (a->x)
		return 0;
	return copy_from_user(a->buf, a->ubuf, 4);
}
/*
 * check-output-start
guard.c:13: sleeping call 'might_sleep' while holding 'a->lock' (taken at line 12)
guard.c:17: sleeping call 'schedule_timeout' while holding 'a->lock' (taken at line 16)
guard.c:31: sleeping call 'copy_from_user' while holding 'a->raw' (taken at line 28)
 * check-output-end
 */
