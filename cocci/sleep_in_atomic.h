/*
 * Macro hints for spatch when parsing kernel C for sleep_in_atomic.cocci.
 * Passed with --macro-file (in addition to spatch's standard.h).
 *
 * spatch 1.1.1 does not know the cleanup.h scope guards; without these
 * hints a function containing `scoped_guard(spinlock, &l) { ... }` fails
 * to parse and is silently skipped. YACFE_ITERATOR makes the parser
 * treat them like list_for_each(): a macro head followed by a statement.
 */
#define scoped_guard(_name, args...) YACFE_ITERATOR
#define scoped_cond_guard(_name, _fail, args...) YACFE_ITERATOR
