// SPDX-License-Identifier: GPL-2.0-only
/// Find calls that may sleep while a spinlock, raw spinlock or rwlock is held.
///
/// Lock regions: spin_lock*(), raw_spin_lock*(), read_lock*(), write_lock*()
/// up to the unlock of the same lock expression on each path; the success
/// path of *_trylock*() (`if (trylock(l)) {...}`, `if (!trylock(l)) S; ...`);
/// guard(spinlock...)(l) to the end of its block; scoped_guard(spinlock..., l)
/// { ... }.  Sleepers: a built-in list (see SLEEP_RE below), allocations whose
/// GFP allows direct reclaim (including the k*alloc_obj*() helpers of 7.2,
/// whose GFP defaults to GFP_KERNEL), the names in sleepers.txt, and, to a
/// fixed point, the functions of the same file that reach one of those on
/// some path from their entry without dropping a spinlock first.
///
/// spatch does all the matching (regions, calls, paths from a function's
/// entry); the python below only classifies the matched calls by name and
/// GFP argument and computes the transitive closure over the facts that
/// spatch collected, in the finalize step, once per run.
///
/// Environment: KSERIES_SLEEPERS=path of the list of outside sleepers
/// (one name per line, '#' comments, a trailing '*' is a prefix match).
/// Output: one line per finding on stdout, see cocci/README.md.
//
// Options: --no-includes --macro-file cocci/sleep_in_atomic.h
// Works with spatch 1.1.1 (Debian bookworm) and 1.3.0.
//
// Two runs (cocci/run-sleep-check drives them): `-D facts` on the whole
// files prints every function's calls (the call graph) as one JSON line
// `KSERIES-FACTS {...}` on stdout; the second run may be given copies
// DIR/N/NAME.c of the files where the bodies without any lock operation are
// blanked out, with the call graph in DIR/kseries-facts.json (keyed by the
// copies' paths): its path rules then see only the functions that can hold
// a lock, and the fixed point still uses the whole call graph. Without that
// file the second run uses the calls it sees itself. Files, not environment
// variables, so that it also works through kernel/chroot-run.
// kseries-facts.json also lists, per file, the calls whose literal
// arguments rule out every parameter guard under which their callee
// sleeps (excluded, cocci/sleepcond.py): neither findings nor edges of
// the fixed point.

virtual withfacts

@initialize:python@
@@
import json
import os
import re

# Facts collected by the matching rules, keyed by file.
REGION = []     # (file, lock_text, lock_line, call_name, args, call_line, kind, lock_col)
CLEAN = {}      # (file, function) -> list of (call_name, args, call_line)
GUARD_END = {}  # (file, guard_line, guard_col) -> list of closing-brace (line, col)
SOURCES = {}
ARGS = {}       # (file, line, col) of the name of a call -> its arguments, from the source

RX_NOTE = ('identifier constraints use python regexps, not =~, because spatch'
           ' 1.1.1 (PCRE) and 1.3 (OCaml Str) read =~ regexps differently')
RX0 = re.compile(r'^(raw_)?(spin|read|write)_(try)?lock(_irq|_irqsave|_bh)?(_nested)?$')
RX1 = re.compile(r'^(raw_)?(spin|read|write)_unlock(_irq|_irqrestore|_bh)?$')
RX2 = re.compile(r'^(raw_)?(spin|read|write)_lock(_irq|_irqsave|_bh)?(_nested)?$')
RX3 = re.compile(r'^(raw_)?(spin|read|write)_trylock(_irq|_irqsave|_bh)?$')
RX4 = re.compile(r'^((raw_)?spinlock(_irq|_irqsave|_bh|_nested)?|(read|write)_lock(_irq|_irqsave|_bh)?)$')

# &X->FLD, &X->F1.F2, &X->F1.F2.F3: the regionx* rules' locks, which a
# release helper called with X ends (the generic region rule leaves them)
ALIAS_RX = re.compile(r'^&\w+->\w+(?:\.\w+){0,2}$')

# The classification of direct sleepers is shared with the whole-tree
# closure: cocci/sleepclass.py, found through PYTHONPATH (run-sleep-check
# sets it to the cocci directory).
import sleepclass
from sleepclass import split_args, squash

OUTSIDE = sleepclass.load_outside(os.environ.get('KSERIES_SLEEPERS', ''))

DIRECT = {}

def direct_sleeper(name, args, lock):
    k = (name, args, lock)
    if k not in DIRECT:
        DIRECT[k] = sleepclass.direct_sleeper(name, args, lock, OUTSIDE)
    return DIRECT[k]

# Answers that depend on every function and lock site seen so far (the
# identifier constraints ask them once per candidate): kept until the next
# definition or lock site is recorded.
MEMO = {}
GEN = [0]

def memo(kind, key, fn):
    if MEMO.get('gen') != GEN[0]:
        MEMO.clear()
        MEMO['gen'] = GEN[0]
    k = (kind, key)
    if k not in MEMO:
        MEMO[k] = fn()
    return MEMO[k]


# From the facts run (cocci/sleep_facts.cocci, run-sleep-check): the call
# graph of each checked file (file -> list of (line, name, args), or None
# when there is none for that file), and the sleepers of the other files
# (name -> chain of [callee, "path:line"] to a direct sleeper): what a file
# that does not define NAME calls when it calls NAME.
FACTS_CALLS = {}
EXTERNAL = {}   # file -> {name: chain}
EXTERNAL_NAMES = set()
OWN = {}        # file -> {function: chain} from the whole-tree closure
EXCLUDED = {}   # file -> {(line, name)}: calls whose literal arguments rule out the sleep
FACTS_READ = set()

def facts_json(file):
    path = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(file))),
                        'kseries-facts.json')
    if path not in FACTS_READ:
        FACTS_READ.add(path)
        if os.path.isfile(path):
            with open(path) as f:
                j = json.load(f)
            for k, calls in j.get('calls', {}).items():
                FACTS_CALLS[k] = [tuple(c) for c in calls]
            for k, ext in j.get('external', {}).items():
                EXTERNAL[k] = {n: [tuple(c) for c in chain] for n, chain in ext.items()}
                EXTERNAL_NAMES.update(ext)
            for k, rel in j.get('releasers', {}).items():
                RELEASERS.update(rel)
            for k, own in j.get('own', {}).items():
                OWN[k] = {fn: [tuple(c) for c in chain] for fn, chain in own.items()}
            for k, ex in j.get('excluded', {}).items():
                EXCLUDED[k] = set((int(l), n) for (l, n) in ex)

def excluded(file, line, name):
    """The call of NAME at LINE does not sleep: its literal arguments
    exclude every parameter guard under which a function it reaches
    sleeps (the facts run: cocci/sleepcond.py)."""
    facts_json(file)
    return (line, name) in EXCLUDED.get(file, ())

def facts_calls(file):
    facts_json(file)
    return FACTS_CALLS.get(file)

def lock_text(file, pos):
    """The lock expression as written in the source, without a leading '&'."""
    try:
        if file not in SOURCES:
            with open(file, errors='replace') as f:
                SOURCES[file] = f.read().split('\n')
        lines = SOURCES[file]
        l0, c0 = int(pos.line), int(pos.column)
        l1, c1 = int(pos.line_end), int(pos.column_end)
        if l0 == l1:
            t = lines[l0 - 1][c0:c1]
        else:
            t = lines[l0 - 1][c0:] + ' ' + ' '.join(lines[l0:l1 - 1]) + ' ' + lines[l1 - 1][:c1]
        t = ' '.join(t.split())
    except Exception:
        t = None
    return t

ARGSRC = {}     # file -> (text as latin-1, line offsets)

def source_args(file, line, col, name):
    if file not in ARGSRC:
        try:
            with open(file, 'rb') as f:
                text = f.read().decode('latin-1')
        except OSError:
            text = ''
        ARGSRC[file] = (text, sleepclass.line_starts(text))
    text, starts = ARGSRC[file]
    return sleepclass.call_args(text, starts, line, col, name)

# Macros that drop the lock given as their second argument.
RELEASE_MACROS = frozenset(['pte_unmap_unlock'])
RELEASERS = set()   # functions of other files that drop a lock their caller holds

def lockop(file, line, name, args):
    """Lock and unlock sites, from the calls: (line, op, lock text)."""
    op = 'lock' if RX0.match(name) else 'unlock' if RX1.match(name) else None
    a = split_args(args) if op or name in RELEASE_MACROS else None
    if name in RELEASE_MACROS:
        op, a = 'unlock', a[1:]
    if a:
        LOCKOPS.setdefault(file, []).append((line, op, squash(a[0]).lstrip('&')))
        GEN[0] += 1

def releases(file, fn):
    """fn drops a lock it did not take and does not take it again."""
    for (a, b, name) in FUNCS.get(file, []):
        if name != fn:
            continue
        ops = {}
        for (line, op, text) in sorted(LOCKOPS.get(file, [])):
            if a <= line <= b:
                ops.setdefault(text, []).append(op)
        if any(o[0] == 'unlock' and o[-1] == 'unlock' for o in ops.values()):
            return True
    return False

def releaser(f):
    """A call of f ends a region on a lock of its first argument."""
    f = str(f)
    if CURRENT[0]:
        facts_json(CURRENT[0])
    return f in RELEASERS or memo('releaser', f, lambda: any(releases(file, f) for file in FUNCS))

def unlocking(f):
    f = str(f)
    return RX1.match(f) is not None or f in RELEASE_MACROS or releaser(f)

def args_at(p, F):
    k = (p.file, int(p.line), int(p.column))
    if k not in ARGS:
        ARGS[k] = source_args(p.file, int(p.line), int(p.column), str(F))
    return ARGS[k]

SEEDED = set()

def seed(file):
    """With -D withfacts (run-sleep-check), the calls rule does not run:
    the lock sites and the direct sleepers called come from the facts
    run's calls of the whole file (kseries-facts.json; the arguments of
    the lock calls read there from the original source)."""
    if file in SEEDED:
        return
    SEEDED.add(file)
    for (line, name, args) in facts_calls(file) or []:
        if not args and (RX0.match(name) or RX1.match(name) or name in RELEASE_MACROS):
            continue    # the facts of a file given without its lock arguments
        if direct_sleeper(name, args, None):
            SLEEPERS_SEEN.add(name)
        lockop(file, line, name, args)

def add_region(kind, pl, L, p1, F, p2):
    text = (lock_text(p1[0].file, pl[0]) if pl else None) or L
    text = text.strip()
    if text.startswith('&'):
        text = text[1:].strip()
    for p in p2:
        REGION.append((p.file, text, int(p1[0].line), str(F), args_at(p, F), int(p.line), kind,
                       int(p1[0].column)))

def add_clean(G, F, pf):
    for p in pf:
        CLEAN.setdefault((p.file, str(G)), []).append((str(F), args_at(p, F), int(p.line)))

FUNCS = {}      # file -> list of (start_line, end_line, name)
CALLS = {}      # file -> list of (line, name, args)
LOCKOPS = {}    # file -> list of (line, lock or unlock, squashed lock text)
CURRENT = [None]
CHAINS = {}     # file -> {function: chain to a direct sleeper}
SLEEPERS_SEEN = set()

def add_function(file, line, name):
    GEN[0] += 1
    fs = [(a, n) for (a, b, n) in FUNCS.get(file, [])] + [(line, name)]
    fs.sort()
    FUNCS[file] = [(a, (fs[i + 1][0] - 1) if i + 1 < len(fs) else 10 ** 9, n)
                   for i, (a, n) in enumerate(fs)]

def dropping(file, fn):
    """fn unlocks, before taking it, a lock: its caller held that lock."""
    first = {}
    for (a, b, name) in FUNCS.get(file, []):
        if name != fn:
            continue
        for (line, op, text) in sorted(LOCKOPS.get(file, [])):
            if a <= line <= b and text not in first:
                first[text] = op
    return 'unlock' in first.values()

def is_dropping(fn):
    """spatch may run a rule over all files before the next rule (one file
    group) or file by file: look at every file seen so far."""
    fn = str(fn)
    return memo('dropping', fn, lambda: any(dropping(file, fn) for file in FUNCS))

def chains_for(file):
    """Fixed point: function -> shortest call chain to a direct sleeper,
    a list of (name, place): place is '' for a call in FILE, "path:line"
    for a call in another file."""
    facts_json(file)
    fns = {}
    for (a, b, name) in FUNCS.get(file, []):
        if dropping(file, name):
            fns[name] = CLEAN.get((file, name), [])
        else:
            fns[name] = [(n, args, line)
                         for (line, n, args) in (facts_calls(file) or CALLS.get(file, []))
                         if a <= line <= b]
    # seeded with the whole-tree closure (calls through ops structures,
    # sleepers of other files); the same-file fixed point may shorten them
    own = OWN.get(file, {})
    chain = {fn: own[fn] for fn in fns if fn in own and not dropping(file, fn)}
    changed = True
    while changed:
        changed = False
        for fn in sorted(fns):
            best = chain.get(fn)
            for (callee, args, line) in sorted(fns[fn], key=lambda c: c[2]):
                if callee == fn or excluded(file, line, callee):
                    continue
                if direct_sleeper(callee, args, None):
                    cand = [(callee, '')]
                elif callee in chain and fn not in [n for (n, _) in chain[callee]]:
                    cand = [(callee, '')] + chain[callee]
                elif callee not in fns and callee in EXTERNAL.get(file, {}):
                    cand = [(callee, '')] + EXTERNAL[file][callee]
                else:
                    continue
                if best is None or len(cand) < len(best):
                    best = cand
            if best is not None and chain.get(fn) != best:
                chain[fn] = best
                changed = True
    return chain

def interesting(f):
    """Callees the region rules follow: possible sleepers of the files seen."""
    for file in FUNCS:
        if file not in CHAINS:
            CHAINS[file] = chains_for(file)
    f = str(f)
    return f in SLEEPERS_SEEN or f in EXTERNAL_NAMES or any(f in c for c in CHAINS.values())

REACH = {}      # (file, lock line) -> last line of an unlock reached from it
ESCAPE = set()  # (file, lock line): some path reaches the end of the function still locked
WIDE = set()    # (file, line) of trylocks and guards: their functions are not narrowed
WINDOW = {}     # file -> {function start line: last line a region can reach, or None}

def function_at(file, line):
    for (a, b, name) in FUNCS.get(file, []):
        if a <= line <= b:
            return (a, b)
    return None

def window(file):
    """Per function with a lock site: the last line a region of it can
    reach (from the `reach` and `escape` rules), or its end."""
    if file in WINDOW:
        return WINDOW[file]
    w = {}
    sites = [l for (l, op, t) in LOCKOPS.get(file, []) if op == 'lock'] + \
            [l for (f, l) in WIDE if f == file]
    for line in sites:
        fn = function_at(file, line)
        if fn is None:
            continue
        a, b = fn
        if (file, line) in WIDE or (file, line) in ESCAPE or (file, line) not in REACH:
            last = b
        else:
            last = REACH[(file, line)]
        w[a] = max(w.get(a, 0), last)
    WINDOW[file] = w
    return w

def in_window(p):
    """A call the region rules need to look at: in a function with a lock
    site, not after the last line its regions can reach. Only narrows the
    work of spatch: the path rules decide."""
    file, line = p[0].file, int(p[0].line)
    fn = function_at(file, line)
    if fn is None:
        return True
    last = window(file).get(fn[0])
    return last is not None and line <= last

def clean_interesting(f):
    f = str(f)
    return f in SLEEPERS_SEEN or f in memo('names', None, lambda: set(
        n for fs in FUNCS.values() for (a, b, n) in fs))

// ---------------------------------------------------------------------------
// Cheap prepass, no paths: the arguments of every call, and the names that the
// path rules below need to follow (the own functions of the file and the calls
// that may sleep by themselves). Restricting the path rules to those names
// keeps them fast: an unconstrained F makes spatch track one binding per
// callee along every path (about 10x slower on binder_alloc.c).

@defs@
identifier FN;
position p;
@@
FN@p(...) { ... }

// A function ends where the next one starts (a `}@pe` on the body would
// give the exact end but costs minutes on binder.c).
@script:python@
FN << defs.FN; p << defs.p;
@@
CURRENT[0] = p[0].file
add_function(p[0].file, int(p[0].line), str(FN))
seed(p[0].file)

// The arguments are read from the source (binding them as an expression
// list and printing it costs more than the match); the lock and unlock
// sites are the calls of the lock functions, their first argument. With
// -D withfacts (run-sleep-check) they come from the facts run instead (see
// seed()): a fifth of this run's time.
@calls depends on !withfacts@
identifier F;
position p;
@@
F@p(...)

@script:python@
F << calls.F; p << calls.p;
@@
for q in p:
    CURRENT[0] = q.file
    a = source_args(q.file, int(q.line), int(q.column), str(F))
    ARGS[(q.file, int(q.line), int(q.column))] = a
    CALLS.setdefault(q.file, []).append((int(q.line), str(F), a))
    if direct_sleeper(str(F), a, None):
        SLEEPERS_SEEN.add(str(F))
    lockop(q.file, int(q.line), str(F), a)

// Calls that a lock-dropping function (one that unlocks a lock it did not
// take: its caller holds it) makes on some path from its entry before any
// unlock. Other functions need no path: every call in their body counts.

@clean exists@
identifier FN : script:python() { is_dropping(FN) };
identifier F : script:python() { clean_interesting(F) };
identifier UL : script:python() { unlocking(UL) };
position pf;
@@
FN(...) {
... when != UL(...)
    when any
F@pf(...)
... when any
}

@script:python@
FN << clean.FN; F << clean.F; pf << clean.pf;
@@
add_clean(FN, F, pf)

// ---------------------------------------------------------------------------
// How far can a region reach? The last unlock of the same lock reached from
// each lock site (reach), and whether a path leaves the function still
// locked (escape); trylocks and guards (wide) are not narrowed. This costs
// little (few bindings) and lets the region rules below skip the calls
// that no region can reach (position constraint in_window): binder.c's
// binder_transaction() has three short regions near its start and hundreds
// of calls after them.

@reach exists@
expression L;
identifier LK = {raw_read_lock, raw_read_lock_bh, raw_read_lock_bh_nested,
    raw_read_lock_irq, raw_read_lock_irq_nested, raw_read_lock_irqsave,
    raw_read_lock_irqsave_nested, raw_read_lock_nested, raw_spin_lock,
    raw_spin_lock_bh, raw_spin_lock_bh_nested, raw_spin_lock_irq,
    raw_spin_lock_irq_nested, raw_spin_lock_irqsave,
    raw_spin_lock_irqsave_nested, raw_spin_lock_nested, raw_write_lock,
    raw_write_lock_bh, raw_write_lock_bh_nested, raw_write_lock_irq,
    raw_write_lock_irq_nested, raw_write_lock_irqsave,
    raw_write_lock_irqsave_nested, raw_write_lock_nested, read_lock,
    read_lock_bh, read_lock_bh_nested, read_lock_irq, read_lock_irq_nested,
    read_lock_irqsave, read_lock_irqsave_nested, read_lock_nested,
    spin_lock, spin_lock_bh, spin_lock_bh_nested, spin_lock_irq,
    spin_lock_irq_nested, spin_lock_irqsave, spin_lock_irqsave_nested,
    spin_lock_nested, write_lock, write_lock_bh, write_lock_bh_nested,
    write_lock_irq, write_lock_irq_nested, write_lock_irqsave,
    write_lock_irqsave_nested, write_lock_nested};
identifier UL = {raw_read_unlock, raw_read_unlock_bh, raw_read_unlock_irq,
    raw_read_unlock_irqrestore, raw_spin_unlock, raw_spin_unlock_bh,
    raw_spin_unlock_irq, raw_spin_unlock_irqrestore, raw_write_unlock,
    raw_write_unlock_bh, raw_write_unlock_irq, raw_write_unlock_irqrestore,
    read_unlock, read_unlock_bh, read_unlock_irq, read_unlock_irqrestore,
    spin_unlock, spin_unlock_bh, spin_unlock_irq, spin_unlock_irqrestore,
    write_unlock, write_unlock_bh, write_unlock_irq,
    write_unlock_irqrestore};
position p1, pu;
@@
LK@p1(L, ...)
... when != UL(L, ...)
    when any
UL@pu(L, ...)

@script:python@
p1 << reach.p1; pu << reach.pu;
@@
k = (p1[0].file, int(p1[0].line))
REACH[k] = max(REACH.get(k, 0), max(int(q.line) for q in pu))

@escape exists@
identifier FN;
expression L;
identifier LK = {raw_read_lock, raw_read_lock_bh, raw_read_lock_bh_nested,
    raw_read_lock_irq, raw_read_lock_irq_nested, raw_read_lock_irqsave,
    raw_read_lock_irqsave_nested, raw_read_lock_nested, raw_spin_lock,
    raw_spin_lock_bh, raw_spin_lock_bh_nested, raw_spin_lock_irq,
    raw_spin_lock_irq_nested, raw_spin_lock_irqsave,
    raw_spin_lock_irqsave_nested, raw_spin_lock_nested, raw_write_lock,
    raw_write_lock_bh, raw_write_lock_bh_nested, raw_write_lock_irq,
    raw_write_lock_irq_nested, raw_write_lock_irqsave,
    raw_write_lock_irqsave_nested, raw_write_lock_nested, read_lock,
    read_lock_bh, read_lock_bh_nested, read_lock_irq, read_lock_irq_nested,
    read_lock_irqsave, read_lock_irqsave_nested, read_lock_nested,
    spin_lock, spin_lock_bh, spin_lock_bh_nested, spin_lock_irq,
    spin_lock_irq_nested, spin_lock_irqsave, spin_lock_irqsave_nested,
    spin_lock_nested, write_lock, write_lock_bh, write_lock_bh_nested,
    write_lock_irq, write_lock_irq_nested, write_lock_irqsave,
    write_lock_irqsave_nested, write_lock_nested};
identifier UL = {raw_read_unlock, raw_read_unlock_bh, raw_read_unlock_irq,
    raw_read_unlock_irqrestore, raw_spin_unlock, raw_spin_unlock_bh,
    raw_spin_unlock_irq, raw_spin_unlock_irqrestore, raw_write_unlock,
    raw_write_unlock_bh, raw_write_unlock_irq, raw_write_unlock_irqrestore,
    read_unlock, read_unlock_bh, read_unlock_irq, read_unlock_irqrestore,
    spin_unlock, spin_unlock_bh, spin_unlock_irq, spin_unlock_irqrestore,
    write_unlock, write_unlock_bh, write_unlock_irq,
    write_unlock_irqrestore};
position p1;
@@
FN(...) {
... when any
LK@p1(L, ...)
... when != UL(L, ...)
}

@script:python@
p1 << escape.p1;
@@
ESCAPE.add((p1[0].file, int(p1[0].line)))

@wide@
identifier TL = {raw_read_trylock, raw_read_trylock_bh,
    raw_read_trylock_irq, raw_read_trylock_irqsave, raw_spin_trylock,
    raw_spin_trylock_bh, raw_spin_trylock_irq, raw_spin_trylock_irqsave,
    raw_write_trylock, raw_write_trylock_bh, raw_write_trylock_irq,
    raw_write_trylock_irqsave, read_trylock, read_trylock_bh,
    read_trylock_irq, read_trylock_irqsave, spin_trylock, spin_trylock_bh,
    spin_trylock_irq, spin_trylock_irqsave, write_trylock, write_trylock_bh,
    write_trylock_irq, write_trylock_irqsave};
identifier G = {raw_spinlock, raw_spinlock_bh, raw_spinlock_irq,
    raw_spinlock_irqsave, raw_spinlock_nested, read_lock, read_lock_bh,
    read_lock_irq, read_lock_irqsave, spinlock, spinlock_bh, spinlock_irq,
    spinlock_irqsave, spinlock_nested, write_lock, write_lock_bh,
    write_lock_irq, write_lock_irqsave};
expression L;
position p1;
@@
(
TL@p1(L, ...)
|
guard(G)@p1(L)
)

@script:python@
p1 << wide.p1;
@@
WIDE.add((p1[0].file, int(p1[0].line)))

@widescoped@
iterator name scoped_guard;
identifier G = {raw_spinlock, raw_spinlock_bh, raw_spinlock_irq,
    raw_spinlock_irqsave, raw_spinlock_nested, read_lock, read_lock_bh,
    read_lock_irq, read_lock_irqsave, spinlock, spinlock_bh, spinlock_irq,
    spinlock_irqsave, spinlock_nested, write_lock, write_lock_bh,
    write_lock_irq, write_lock_irqsave};
expression L;
statement S;
position p1;
@@
scoped_guard@p1(G, L) S

@script:python@
p1 << widescoped.p1;
@@
WIDE.add((p1[0].file, int(p1[0].line)))

// ---------------------------------------------------------------------------
// Lock regions.

@region exists@
expression L : script:python() { ALIAS_RX.match(squash(str(L))) is None };
expression E2;
identifier F : script:python() { interesting(F) };
identifier LK = {raw_read_lock, raw_read_lock_bh, raw_read_lock_bh_nested,
    raw_read_lock_irq, raw_read_lock_irq_nested, raw_read_lock_irqsave,
    raw_read_lock_irqsave_nested, raw_read_lock_nested, raw_spin_lock,
    raw_spin_lock_bh, raw_spin_lock_bh_nested, raw_spin_lock_irq,
    raw_spin_lock_irq_nested, raw_spin_lock_irqsave,
    raw_spin_lock_irqsave_nested, raw_spin_lock_nested, raw_write_lock,
    raw_write_lock_bh, raw_write_lock_bh_nested, raw_write_lock_irq,
    raw_write_lock_irq_nested, raw_write_lock_irqsave,
    raw_write_lock_irqsave_nested, raw_write_lock_nested, read_lock,
    read_lock_bh, read_lock_bh_nested, read_lock_irq, read_lock_irq_nested,
    read_lock_irqsave, read_lock_irqsave_nested, read_lock_nested,
    spin_lock, spin_lock_bh, spin_lock_bh_nested, spin_lock_irq,
    spin_lock_irq_nested, spin_lock_irqsave, spin_lock_irqsave_nested,
    spin_lock_nested, write_lock, write_lock_bh, write_lock_bh_nested,
    write_lock_irq, write_lock_irq_nested, write_lock_irqsave,
    write_lock_irqsave_nested, write_lock_nested};
identifier UL = {raw_read_unlock, raw_read_unlock_bh, raw_read_unlock_irq,
    raw_read_unlock_irqrestore, raw_spin_unlock, raw_spin_unlock_bh,
    raw_spin_unlock_irq, raw_spin_unlock_irqrestore, raw_write_unlock,
    raw_write_unlock_bh, raw_write_unlock_irq, raw_write_unlock_irqrestore,
    read_unlock, read_unlock_bh, read_unlock_irq, read_unlock_irqrestore,
    spin_unlock, spin_unlock_bh, spin_unlock_irq, spin_unlock_irqrestore,
    write_unlock, write_unlock_bh, write_unlock_irq,
    write_unlock_irqrestore};
position p1, pl;
position p2 : script:python() { in_window(p2) };
@@
LK@p1(L@pl, ...)
... when != UL(L, ...)
    when != pte_unmap_unlock(E2, L)
    when any
F@p2(...)

@script:python@
p1 << region.p1; pl << region.pl; L << region.L; F << region.F;
p2 << region.p2;
@@
add_region('lock', pl, L, p1, F, p2)

// Lock expressions &X->FLD: the region also ends where X is reassigned
// (binder_thread_release() walks a chain, unlocking last_t, locking t), and
// a path never leaves a `while (X)` loop through its test: X is not NULL
// while &X->FLD is held, so that exit is infeasible. The path may enter the
// loop body (regionxloop).
@regionx exists@
identifier X, FLD;
expression E;
statement S;
identifier F : script:python() { interesting(F) };
identifier RH : script:python() { releaser(RH) };
identifier LK = {raw_read_lock, raw_read_lock_bh, raw_read_lock_bh_nested,
    raw_read_lock_irq, raw_read_lock_irq_nested, raw_read_lock_irqsave,
    raw_read_lock_irqsave_nested, raw_read_lock_nested, raw_spin_lock,
    raw_spin_lock_bh, raw_spin_lock_bh_nested, raw_spin_lock_irq,
    raw_spin_lock_irq_nested, raw_spin_lock_irqsave,
    raw_spin_lock_irqsave_nested, raw_spin_lock_nested, raw_write_lock,
    raw_write_lock_bh, raw_write_lock_bh_nested, raw_write_lock_irq,
    raw_write_lock_irq_nested, raw_write_lock_irqsave,
    raw_write_lock_irqsave_nested, raw_write_lock_nested, read_lock,
    read_lock_bh, read_lock_bh_nested, read_lock_irq, read_lock_irq_nested,
    read_lock_irqsave, read_lock_irqsave_nested, read_lock_nested,
    spin_lock, spin_lock_bh, spin_lock_bh_nested, spin_lock_irq,
    spin_lock_irq_nested, spin_lock_irqsave, spin_lock_irqsave_nested,
    spin_lock_nested, write_lock, write_lock_bh, write_lock_bh_nested,
    write_lock_irq, write_lock_irq_nested, write_lock_irqsave,
    write_lock_irqsave_nested, write_lock_nested};
identifier UL = {raw_read_unlock, raw_read_unlock_bh, raw_read_unlock_irq,
    raw_read_unlock_irqrestore, raw_spin_unlock, raw_spin_unlock_bh,
    raw_spin_unlock_irq, raw_spin_unlock_irqrestore, raw_write_unlock,
    raw_write_unlock_bh, raw_write_unlock_irq, raw_write_unlock_irqrestore,
    read_unlock, read_unlock_bh, read_unlock_irq, read_unlock_irqrestore,
    spin_unlock, spin_unlock_bh, spin_unlock_irq, spin_unlock_irqrestore,
    write_unlock, write_unlock_bh, write_unlock_irq,
    write_unlock_irqrestore};
position p1, pl;
position p2 : script:python() { in_window(p2) };
@@
LK@p1(&X->FLD@pl, ...)
... when != UL(&X->FLD, ...)
    when != RH(X, ...)
    when != X = E
    when != while (X) S
    when any
F@p2(...)

@script:python@
p1 << regionx.p1; X << regionx.X; FLD << regionx.FLD; F << regionx.F;
p2 << regionx.p2;
@@
add_region('lock', None, '%s->%s' % (X, FLD), p1, F, p2)

@regionxloop exists@
identifier X, FLD;
expression E;
statement S;
identifier F : script:python() { interesting(F) };
identifier RH : script:python() { releaser(RH) };
identifier LK = {raw_read_lock, raw_read_lock_bh, raw_read_lock_bh_nested,
    raw_read_lock_irq, raw_read_lock_irq_nested, raw_read_lock_irqsave,
    raw_read_lock_irqsave_nested, raw_read_lock_nested, raw_spin_lock,
    raw_spin_lock_bh, raw_spin_lock_bh_nested, raw_spin_lock_irq,
    raw_spin_lock_irq_nested, raw_spin_lock_irqsave,
    raw_spin_lock_irqsave_nested, raw_spin_lock_nested, raw_write_lock,
    raw_write_lock_bh, raw_write_lock_bh_nested, raw_write_lock_irq,
    raw_write_lock_irq_nested, raw_write_lock_irqsave,
    raw_write_lock_irqsave_nested, raw_write_lock_nested, read_lock,
    read_lock_bh, read_lock_bh_nested, read_lock_irq, read_lock_irq_nested,
    read_lock_irqsave, read_lock_irqsave_nested, read_lock_nested,
    spin_lock, spin_lock_bh, spin_lock_bh_nested, spin_lock_irq,
    spin_lock_irq_nested, spin_lock_irqsave, spin_lock_irqsave_nested,
    spin_lock_nested, write_lock, write_lock_bh, write_lock_bh_nested,
    write_lock_irq, write_lock_irq_nested, write_lock_irqsave,
    write_lock_irqsave_nested, write_lock_nested};
identifier UL = {raw_read_unlock, raw_read_unlock_bh, raw_read_unlock_irq,
    raw_read_unlock_irqrestore, raw_spin_unlock, raw_spin_unlock_bh,
    raw_spin_unlock_irq, raw_spin_unlock_irqrestore, raw_write_unlock,
    raw_write_unlock_bh, raw_write_unlock_irq, raw_write_unlock_irqrestore,
    read_unlock, read_unlock_bh, read_unlock_irq, read_unlock_irqrestore,
    spin_unlock, spin_unlock_bh, spin_unlock_irq, spin_unlock_irqrestore,
    write_unlock, write_unlock_bh, write_unlock_irq,
    write_unlock_irqrestore};
position p1, pl;
position p2 : script:python() { in_window(p2) };
@@
LK@p1(&X->FLD@pl, ...)
... when != UL(&X->FLD, ...)
    when != RH(X, ...)
    when != X = E
    when != while (X) S
    when any
while (X) {
... when != UL(&X->FLD, ...)
    when != RH(X, ...)
    when != X = E
    when any
F@p2(...)
... when any
}

@script:python@
p1 << regionxloop.p1; X << regionxloop.X; FLD << regionxloop.FLD; F << regionxloop.F;
p2 << regionxloop.p2;
@@
add_region('lock', None, '%s->%s' % (X, FLD), p1, F, p2)

// Lock expressions two and three members deep, &X->F1.F2 and
// &X->F1.F2.F3 (f_fs.c's &ffs->ev.waitq.lock): as the generic region
// rule, and a release helper called with X ends them as it ends &X->FLD
// (__ffs_ep0_queue_wait(ffs, ...) drops ffs->ev.waitq.lock).
@regionxm2 exists@
identifier X, F1, F2;
expression E2;
identifier F : script:python() { interesting(F) };
identifier RH : script:python() { releaser(RH) };
identifier LK = {raw_read_lock, raw_read_lock_bh, raw_read_lock_bh_nested,
    raw_read_lock_irq, raw_read_lock_irq_nested, raw_read_lock_irqsave,
    raw_read_lock_irqsave_nested, raw_read_lock_nested, raw_spin_lock,
    raw_spin_lock_bh, raw_spin_lock_bh_nested, raw_spin_lock_irq,
    raw_spin_lock_irq_nested, raw_spin_lock_irqsave,
    raw_spin_lock_irqsave_nested, raw_spin_lock_nested, raw_write_lock,
    raw_write_lock_bh, raw_write_lock_bh_nested, raw_write_lock_irq,
    raw_write_lock_irq_nested, raw_write_lock_irqsave,
    raw_write_lock_irqsave_nested, raw_write_lock_nested, read_lock,
    read_lock_bh, read_lock_bh_nested, read_lock_irq, read_lock_irq_nested,
    read_lock_irqsave, read_lock_irqsave_nested, read_lock_nested,
    spin_lock, spin_lock_bh, spin_lock_bh_nested, spin_lock_irq,
    spin_lock_irq_nested, spin_lock_irqsave, spin_lock_irqsave_nested,
    spin_lock_nested, write_lock, write_lock_bh, write_lock_bh_nested,
    write_lock_irq, write_lock_irq_nested, write_lock_irqsave,
    write_lock_irqsave_nested, write_lock_nested};
identifier UL = {raw_read_unlock, raw_read_unlock_bh, raw_read_unlock_irq,
    raw_read_unlock_irqrestore, raw_spin_unlock, raw_spin_unlock_bh,
    raw_spin_unlock_irq, raw_spin_unlock_irqrestore, raw_write_unlock,
    raw_write_unlock_bh, raw_write_unlock_irq, raw_write_unlock_irqrestore,
    read_unlock, read_unlock_bh, read_unlock_irq, read_unlock_irqrestore,
    spin_unlock, spin_unlock_bh, spin_unlock_irq, spin_unlock_irqrestore,
    write_unlock, write_unlock_bh, write_unlock_irq,
    write_unlock_irqrestore};
position p1, pl;
position p2 : script:python() { in_window(p2) };
@@
LK@p1(&X->F1.F2@pl, ...)
... when != UL(&X->F1.F2, ...)
    when != pte_unmap_unlock(E2, &X->F1.F2)
    when != RH(X, ...)
    when any
F@p2(...)

@script:python@
p1 << regionxm2.p1; X << regionxm2.X; F1 << regionxm2.F1;
F2 << regionxm2.F2; F << regionxm2.F; p2 << regionxm2.p2;
@@
add_region('lock', None, '%s->%s.%s' % (X, F1, F2), p1, F, p2)

@regionxm3 exists@
identifier X, F1, F2, F3;
expression E2;
identifier F : script:python() { interesting(F) };
identifier RH : script:python() { releaser(RH) };
identifier LK = {raw_read_lock, raw_read_lock_bh, raw_read_lock_bh_nested,
    raw_read_lock_irq, raw_read_lock_irq_nested, raw_read_lock_irqsave,
    raw_read_lock_irqsave_nested, raw_read_lock_nested, raw_spin_lock,
    raw_spin_lock_bh, raw_spin_lock_bh_nested, raw_spin_lock_irq,
    raw_spin_lock_irq_nested, raw_spin_lock_irqsave,
    raw_spin_lock_irqsave_nested, raw_spin_lock_nested, raw_write_lock,
    raw_write_lock_bh, raw_write_lock_bh_nested, raw_write_lock_irq,
    raw_write_lock_irq_nested, raw_write_lock_irqsave,
    raw_write_lock_irqsave_nested, raw_write_lock_nested, read_lock,
    read_lock_bh, read_lock_bh_nested, read_lock_irq, read_lock_irq_nested,
    read_lock_irqsave, read_lock_irqsave_nested, read_lock_nested,
    spin_lock, spin_lock_bh, spin_lock_bh_nested, spin_lock_irq,
    spin_lock_irq_nested, spin_lock_irqsave, spin_lock_irqsave_nested,
    spin_lock_nested, write_lock, write_lock_bh, write_lock_bh_nested,
    write_lock_irq, write_lock_irq_nested, write_lock_irqsave,
    write_lock_irqsave_nested, write_lock_nested};
identifier UL = {raw_read_unlock, raw_read_unlock_bh, raw_read_unlock_irq,
    raw_read_unlock_irqrestore, raw_spin_unlock, raw_spin_unlock_bh,
    raw_spin_unlock_irq, raw_spin_unlock_irqrestore, raw_write_unlock,
    raw_write_unlock_bh, raw_write_unlock_irq, raw_write_unlock_irqrestore,
    read_unlock, read_unlock_bh, read_unlock_irq, read_unlock_irqrestore,
    spin_unlock, spin_unlock_bh, spin_unlock_irq, spin_unlock_irqrestore,
    write_unlock, write_unlock_bh, write_unlock_irq,
    write_unlock_irqrestore};
position p1, pl;
position p2 : script:python() { in_window(p2) };
@@
LK@p1(&X->F1.F2.F3@pl, ...)
... when != UL(&X->F1.F2.F3, ...)
    when != pte_unmap_unlock(E2, &X->F1.F2.F3)
    when != RH(X, ...)
    when any
F@p2(...)

@script:python@
p1 << regionxm3.p1; X << regionxm3.X; F1 << regionxm3.F1;
F2 << regionxm3.F2; F3 << regionxm3.F3; F << regionxm3.F; p2 << regionxm3.p2;
@@
add_region('lock', None, '%s->%s.%s.%s' % (X, F1, F2, F3), p1, F, p2)

@tryregion exists@
expression L;
identifier F : script:python() { interesting(F) };
identifier TL = {raw_read_trylock, raw_read_trylock_bh,
    raw_read_trylock_irq, raw_read_trylock_irqsave, raw_spin_trylock,
    raw_spin_trylock_bh, raw_spin_trylock_irq, raw_spin_trylock_irqsave,
    raw_write_trylock, raw_write_trylock_bh, raw_write_trylock_irq,
    raw_write_trylock_irqsave, read_trylock, read_trylock_bh,
    read_trylock_irq, read_trylock_irqsave, spin_trylock, spin_trylock_bh,
    spin_trylock_irq, spin_trylock_irqsave, write_trylock, write_trylock_bh,
    write_trylock_irq, write_trylock_irqsave};
identifier UL = {raw_read_unlock, raw_read_unlock_bh, raw_read_unlock_irq,
    raw_read_unlock_irqrestore, raw_spin_unlock, raw_spin_unlock_bh,
    raw_spin_unlock_irq, raw_spin_unlock_irqrestore, raw_write_unlock,
    raw_write_unlock_bh, raw_write_unlock_irq, raw_write_unlock_irqrestore,
    read_unlock, read_unlock_bh, read_unlock_irq, read_unlock_irqrestore,
    spin_unlock, spin_unlock_bh, spin_unlock_irq, spin_unlock_irqrestore,
    write_unlock, write_unlock_bh, write_unlock_irq,
    write_unlock_irqrestore};
position p1, pl;
position p2 : script:python() { in_window(p2) };
statement S;
@@
(
if (!TL@p1(L@pl, ...)) S
... when != UL(L, ...)
    when any
F@p2(...)
|
if (TL@p1(L@pl, ...)) {
... when != UL(L, ...)
    when any
F@p2(...)
... when any
} else S
|
if (TL@p1(L@pl, ...)) {
... when != UL(L, ...)
    when any
F@p2(...)
... when any
}
)

@script:python@
p1 << tryregion.p1; pl << tryregion.pl; L << tryregion.L; F << tryregion.F; p2 << tryregion.p2;
@@
add_region('trylock', pl, L, p1, F, p2)

@guardregion exists@
expression L;
identifier F : script:python() { interesting(F) };
identifier G = {raw_spinlock, raw_spinlock_bh, raw_spinlock_irq,
    raw_spinlock_irqsave, raw_spinlock_nested, read_lock, read_lock_bh,
    read_lock_irq, read_lock_irqsave, spinlock, spinlock_bh, spinlock_irq,
    spinlock_irqsave, spinlock_nested, write_lock, write_lock_bh,
    write_lock_irq, write_lock_irqsave};
position p1, pl;
position p2 : script:python() { in_window(p2) };
@@
guard(G)@p1(L@pl);
... when any
F@p2(...)

@script:python@
p1 << guardregion.p1; pl << guardregion.pl; L << guardregion.L; F << guardregion.F; p2 << guardregion.p2;
@@
add_region('guard', pl, L, p1, F, p2)

// The closing braces of the blocks around a guard(); the nearest one after
// the guard ends its scope. No match: the guard is at function level.
@guardblock exists@
expression L;
identifier G = {raw_spinlock, raw_spinlock_bh, raw_spinlock_irq,
    raw_spinlock_irqsave, raw_spinlock_nested, read_lock, read_lock_bh,
    read_lock_irq, read_lock_irqsave, spinlock, spinlock_bh, spinlock_irq,
    spinlock_irqsave, spinlock_nested, write_lock, write_lock_bh,
    write_lock_irq, write_lock_irqsave};
position p1, pe;
@@
{
... when any
guard(G)@p1(L);
... when any
}@pe

@script:python@
p1 << guardblock.p1; pe << guardblock.pe;
@@
GUARD_END.setdefault((p1[0].file, int(p1[0].line), int(p1[0].column)), []).append(
    (int(pe[0].line), int(pe[0].column)))

@scopedregion exists@
iterator name scoped_guard;
expression L;
identifier F : script:python() { interesting(F) };
identifier G = {raw_spinlock, raw_spinlock_bh, raw_spinlock_irq,
    raw_spinlock_irqsave, raw_spinlock_nested, read_lock, read_lock_bh,
    read_lock_irq, read_lock_irqsave, spinlock, spinlock_bh, spinlock_irq,
    spinlock_irqsave, spinlock_nested, write_lock, write_lock_bh,
    write_lock_irq, write_lock_irqsave};
position p1, pl;
position p2 : script:python() { in_window(p2) };
@@
scoped_guard@p1(G, L@pl) {
... when any
F@p2(...)
... when any
}

@script:python@
p1 << scopedregion.p1; pl << scopedregion.pl; L << scopedregion.L; F << scopedregion.F; p2 << scopedregion.p2;
@@
add_region('scoped', pl, L, p1, F, p2)

// ---------------------------------------------------------------------------

@finalize:python@
@@
# Transitive sleepers, recomputed per file now that every fact is in.
CHAIN = {}
for file in FUNCS:
    for fn, chain in chains_for(file).items():
        CHAIN[(file, fn)] = chain

def in_guard_scope(file, lock_line, lock_col, call_line):
    if call_line < lock_line:
        return False
    ends = GUARD_END.get((file, lock_line, lock_col), [])
    ends = [e for e in ends if e > (lock_line, lock_col)]
    if not ends:
        return True
    return call_line <= min(ends)[0]

seen = set()
for (file, lock, lock_line, name, args, line, kind, lock_col) in REGION:
    if kind == 'guard' and not in_guard_scope(file, lock_line, lock_col, line):
        continue
    why = direct_sleeper(name, args, lock)
    via = ''
    if not why and excluded(file, line, name):
        continue
    if not why:
        chain = CHAIN.get((file, name))
        if not chain and not any(n == name for (a, b, n) in FUNCS.get(file, [])):
            chain = EXTERNAL.get(file, {}).get(name)
        if not chain:
            continue
        via = ' via ' + ' -> '.join("'%s'%s" % (n, ' (%s)' % w if w else '')
                                    for (n, w) in [(name, '')] + chain)
    msg = "%s:%d: sleeping call '%s' while holding '%s' (taken at line %d)%s" % (
        file, line, name, lock, lock_line, via)
    if msg not in seen:
        seen.add(msg)
        print(msg)
