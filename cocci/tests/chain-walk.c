/*
 * A lock on &t->lock taken while walking a chain of transactions, modelled
 * on binder.c's binder_thread_release() (7.2.13): the first element is
 * locked under `if (t)`, each iteration unlocks last_t and locks the next t
 * under `if (t)`, and the loop is `while (t)`. The path that leaves the
 * loop right after a spin_lock(&t->lock) is infeasible (t is not NULL
 * there), so nothing after the loop is under t->lock: the rule used to
 * report the calls after the loop (synchronize_rcu(), and the transitive
 * sleepers) once per lock site, 8 false positives on binder.c.
 * walk_sleep() checks that a sleeper inside the loop is still reported,
 * for both lock sites (before the loop, end of the previous iteration).
 */
struct txn { spinlock_t lock; struct txn *next; struct s *to; };
struct s { spinlock_t inner; struct txn *stack; int poll; struct mutex m;
	   wait_queue_head_t wait; };

static void release_work(struct s *a)
{
	mutex_lock(&a->m);
	mutex_unlock(&a->m);
}

int thread_release(struct s *a)
{
	struct txn *t;
	struct txn *last_t = NULL;
	int active = 0;

	spin_lock(&a->inner);
	t = a->stack;
	if (t) {
		spin_lock(&t->lock);
		if (t->to == a)
			active = -1;
	} else {
		__acquire(&t->lock);
	}
	while (t) {
		last_t = t;
		active++;
		t = t->next;
		spin_unlock(&last_t->lock);
		if (t)
			spin_lock(&t->lock);
		else
			__acquire(&t->lock);
	}
	__release(&t->lock);
	if (a->poll)
		wake_up_pollfree(&a->wait);
	spin_unlock(&a->inner);
	if (a->poll)
		synchronize_rcu();
	release_work(a);
	return active;
}

int walk_sleep(struct s *a)
{
	struct txn *t = a->stack;
	struct txn *last_t;

	if (t)
		spin_lock(&t->lock);
	while (t) {
		last_t = t;
		msleep(1);
		t = t->next;
		spin_unlock(&last_t->lock);
		if (t)
			spin_lock(&t->lock);
	}
	msleep(2);
	return 0;
}
/*
 * check-output-start
chain-walk.c:67: sleeping call 'msleep' while holding 't->lock' (taken at line 64)
chain-walk.c:67: sleeping call 'msleep' while holding 't->lock' (taken at line 71)
 * check-output-end
 */
