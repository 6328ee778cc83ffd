#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Whole-tree sleep facts: per-file facts from sleep_facts.cocci, cached by
content, and the closure over them (which functions may sleep, with the
shortest chain to a direct sleeper, in any file).

Cache layout (DIR is $KSERIES_CACHE/cocci-facts unless told otherwise):

    DIR/files/RULES/XX/BLOB.json   one file's facts; BLOB is the git blob
                                   id of its content, RULES a hash of the
                                   facts rule, its macros and the spatch
                                   command: a file is passed to spatch once
                                   (what this module adds to them, the
                                   "ends", is added to a cached file that
                                   lacks it)
    DIR/TREE/closure.json          the closure of one set of files; TREE
                                   is a hash of RULES, sleepers.txt and
                                   every (path, blob) of the set

Resolution of a call by name from file P: a function of that name defined
in P; else the definitions in the headers P includes; else those of .c
files of P's own directory (its module); else every definition in a header
and every non-static one in a .c file. Only definitions of P's part of the
tree count (realm(): tools/, scripts/, usr/, samples/, arch/*/boot and
other architectures' arch/ are programs or configurations of their own,
never the definition a call from the kernel for ARCH reaches). When a call
resolves to several definitions (alternatives for configurations: the
!PREEMPT_RT spin_unlock() of spinlock.h and the PREEMPT_RT one of
spinlock_rt.h), it sleeps only if every one of them may sleep: one
configuration's sleeping alternative does not make the call a sleeper in
the others. A call through a struct member, E->fld(...) or E->m->fld(...),
where spatch knows the struct type of E: the functions stored in that
member of that struct type anywhere in the set (`.fld = fn` initializers,
`E->fld = fn` assignments); never a guess from the member name alone; it
sleeps only if every function stored there may sleep (which one a call
reaches is not known: bio.bi_end_io has hundreds). A function with a gfp_t parameter sleeps
or not by its GFP argument (the rules' GFP check, at each call): it is not
a sleeper through its body. A function whose first operation on some lock
is an unlock runs with its caller holding that lock: never a sleeper here
(the rules look at its paths when it is in the checked file).
"""

import bisect
import hashlib
import heapq
import json
import os
import re
import subprocess
import sys
import tempfile

import sleepclass
import sleepcond

HERE = os.path.dirname(os.path.abspath(__file__))
FACTS_COCCI = os.path.join(HERE, 'sleep_facts.cocci')
MACROS = os.path.join(HERE, 'sleep_in_atomic.h')
# Files a spatch process is given. Each is its own file group
# (--file-groups): given as plain arguments, spatch parses the files of a
# run as one group, several times slower (8.4 s against 1.2 s user time on
# the 23 files of drivers/usb/chipidea).
BATCH = 200
# A batch also stops at BATCH_BYTES of source (a file bigger than that is a
# batch alone): a directory of huge generated headers does not make one
# batch run for many minutes while the other job's finished batch waits.
BATCH_BYTES = 4 << 20
# CPU seconds spatch may spend on one file alone (RLIMIT_CPU); a batch gets
# CPU_BATCH_BASE + CPU_PER_FILE for each of its files, and one that hits
# its limit is run again file by file. A file that hits the limit alone is
# recorded as not analysed ({"failed": true, "reason": ...}), never dropped.
# binder.c, the largest file of drivers/android, takes about 1 s.
# KSERIES_COCCI_FACTS_CPU sets CPU_FILE (the tests make it small).
CPU_FILE = 120
CPU_BATCH_BASE = 60
CPU_PER_FILE = 5


class FactsError(Exception):
    pass


SYSTEM_PYTHON = '/usr/bin/python3'


def python_opts(spatch):
    """spatch's --python: KSERIES_COCCI_PYTHON when set ('' for spatch's
    own choice); else, for a plain 'spatch', the system's python3: spatch
    runs the first python3 of PATH otherwise, and a version manager's
    shim and site packages there cost more CPU than the facts rule's
    python (0.20 s against 0.05 s user time per spatch run, measured)."""
    py = os.environ.get('KSERIES_COCCI_PYTHON')
    if py is None:
        py = SYSTEM_PYTHON if spatch == ['spatch'] and os.path.isfile(SYSTEM_PYTHON) else ''
    return ['--python', py] if py else []


def blob_id(data):
    h = hashlib.sha1(b'blob %d\0' % len(data))
    h.update(data)
    return h.hexdigest()


def rules_id(spatch):
    h = hashlib.sha1()
    for p in (FACTS_COCCI, MACROS):
        with open(p, 'rb') as f:
            h.update(f.read())
    h.update(' '.join(spatch).encode())
    return h.hexdigest()[:16]


def atomic_write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    tmp = '%s.tmp.%d' % (path, os.getpid())
    with open(tmp, 'w') as f:
        f.write(text)
    os.rename(tmp, path)


def scope_files(root, scope):
    """The .c and .h files under the SCOPE paths (relative to ROOT), sorted."""
    out = []
    for s in scope:
        p = os.path.join(root, s)
        if os.path.isfile(p):
            out.append(os.path.normpath(s))
            continue
        if not os.path.isdir(p):
            raise FactsError("cannot open '%s'" % p)
        for d, dirs, names in os.walk(p):
            dirs[:] = sorted(x for x in dirs if not x.startswith('.'))
            for n in sorted(names):
                if n.endswith(('.c', '.h')):
                    out.append(os.path.normpath(os.path.relpath(os.path.join(d, n), root)))
    return sorted(set(out))


def _limits(cpu):
    """The child's limits: the stack raised to the hard limit (spatch, in
    OCaml, overflows the default 8 MiB stack on some large files) and CPU
    seconds bounded (SIGXCPU past it)."""
    def apply():
        try:
            import resource
            soft, hard = resource.getrlimit(resource.RLIMIT_STACK)
            resource.setrlimit(resource.RLIMIT_STACK, (hard, hard))
            soft, hard = resource.getrlimit(resource.RLIMIT_CPU)
            if hard == resource.RLIM_INFINITY or cpu < hard:
                resource.setrlimit(resource.RLIMIT_CPU, (cpu, hard))
        except (ImportError, ValueError, OSError):
            pass
    return apply


def make_batches(root, paths):
    """Batches of the sorted PATHS: at most BATCH files and BATCH_BYTES of
    source each (a bigger file alone). A function of the paths and their
    sizes only: the same files make the same batches in every run."""
    batches, cur, size = [], [], 0
    for p in sorted(paths):
        n = os.path.getsize(os.path.join(root, p))
        if cur and (len(cur) >= BATCH or size + n > BATCH_BYTES):
            batches.append(cur)
            cur, size = [], 0
        cur.append(p)
        size += n
    if cur:
        batches.append(cur)
    return batches


def _cpu_file():
    v = os.environ.get('KSERIES_COCCI_FACTS_CPU', '')
    return int(v) if v.isdigit() and int(v) > 0 else CPU_FILE


def _cpu_limit(batch):
    if len(batch) == 1:
        return _cpu_file()
    return min(CPU_BATCH_BASE, _cpu_file()) + min(CPU_PER_FILE, _cpu_file()) * len(batch)


def _spatch_batches(spatch, root, batches, jobs, log):
    """Runs spatch over each batch (at most JOBS at once, each reaped when
    it ends, not in order); yields the facts of each file. A batch on which
    spatch dies (not a script error) or runs out of its CPU time is run
    again file by file; a file on which it does so alone gets the facts
    {"failed": true, "reason": ...}: nothing known about it, said in the
    stats."""
    import signal
    import time
    cmd = spatch + python_opts(spatch) + ['--sp-file', FACTS_COCCI, '--macro-file', MACROS,
                                          '--no-includes', '--very-quiet']
    running = []
    pending = list(batches)

    def reap(proc, batch, out, err):
        if re.search(r'Python failure|Traceback', err):
            sys.stderr.write(err)
            raise FactsError("'%s' failed on the facts rule (script error)" % spatch[0])
        if proc.returncode != 0:
            if len(batch) > 1:
                pending[:0] = [[p] for p in batch]
                return []
            if proc.returncode == -signal.SIGXCPU:
                reason = 'cpu limit %d s' % _cpu_file()
            else:
                reason = 'spatch exit %d: %s' % (proc.returncode,
                                                 err.strip().split('\n')[-1][:200])
            if log:
                log("facts: not analysed '%s' (%s)" % (batch[0], reason))
            return [(batch[0], {'failed': True, 'reason': reason})]
        got = {}
        for line in out.splitlines():
            if line.startswith('KSERIES-FILEFACTS '):
                d = json.loads(line[len('KSERIES-FILEFACTS '):])
                got[d.pop('file')] = d
        if log:
            log('facts: %d files' % len(batch))
        return [(p, got.get(p, {})) for p in batch]

    tmpdir = os.environ.get('KSERIES_COCCI_TMPDIR') or None
    try:
        while pending or running:
            while pending and len(running) < jobs:
                batch = pending.pop(0)
                # where a spatch in a chroot sees it (cocci/README.md)
                groups = tempfile.NamedTemporaryFile('w', prefix='kseries-facts.',
                                                     suffix='.groups', dir=tmpdir)
                os.chmod(groups.name, 0o644)
                groups.write(''.join('%s\n\n' % p for p in batch))
                groups.flush()
                # files, not pipes: the running processes are polled
                out, err = tempfile.TemporaryFile('w+'), tempfile.TemporaryFile('w+')
                try:
                    proc = subprocess.Popen(cmd + ['--file-groups', groups.name], cwd=root,
                                            stdout=out, stderr=err, universal_newlines=True,
                                            preexec_fn=_limits(_cpu_limit(batch)))
                except OSError as e:
                    groups.close()
                    raise FactsError("cannot run '%s': %s" % (spatch[0], e.strerror))
                running.append((proc, batch, groups, out, err))
            done = [r for r in running if r[0].poll() is not None]
            if not done:
                time.sleep(0.05)
                continue
            for r in done:
                running.remove(r)
                proc, batch, groups, out, err = r
                groups.close()
                out.seek(0)
                err.seek(0)
                items = reap(proc, batch, out.read(), err.read())
                out.close()
                err.close()
                for item in items:
                    yield item
    finally:
        for r in running:
            r[0].kill()
            r[0].wait()


# comments, strings, character constants (to their end or the line's) and braces
_TB_RE = re.compile(r'//[^\n]*|/\*.*?(?:\*/|\Z)|"(?:\\.|[^"\\\n])*"?|\'(?:\\.|[^\'\\\n])*\'?|[{}]', re.S)


def top_blocks(text):
    """(line of '{', line of its '}') of each top-level brace block of C
    source, comments, strings and character constants skipped."""
    out, depth, start = [], 0, 0
    line, last = 1, 0
    for m in _TB_RE.finditer(text):
        t = m.group()
        if t == '{':
            line += text.count('\n', last, m.start())
            last = m.start()
            if depth == 0:
                start = line
            depth += 1
        elif t == '}':
            if depth > 0:
                line += text.count('\n', last, m.start())
                last = m.start()
                depth -= 1
                if depth == 0:
                    out.append((start, line))
    return out


INCLUDE_RE = re.compile(r'^[ \t]*#[ \t]*include[ \t]*[<"]([^>"]+)[>"]', re.M)


def add_ends(d, data):
    """d['ends']: [start, end] of each definition, the end the '}' that
    closes the first top-level block after its name (functions in headers
    are far apart: "up to the next definition" would give them the
    prototypes and macros between)."""
    blocks = top_blocks(data.decode('utf-8', 'replace'))
    ends = []
    for (n, l, _) in d.get('defs', []):
        for (a, b) in blocks:
            if a >= int(l):
                if a - int(l) <= 30:
                    ends.append([int(l), b])
                break
    d['ends'] = [list(e) for e in sorted(set(tuple(e) for e in ends))]
    d['includes'] = sorted(set(INCLUDE_RE.findall(data.decode('utf-8', 'replace'))))


# The most guards a definition sleeps under: past it, it sleeps whatever
# its arguments (the guards passed on from callee to caller may multiply).
GUARD_CAP = 16

# The version of what add_guards() records: cached facts of another
# version (or none) get it again from the source. 2: named constants and
# bit tests; 3: passes, and the calls each parameter is given bare to.
GUARDS_V = 3


def add_guards(d, data):
    """d['guards']: [line, name, guard] of the calls that a test of an
    unmodified parameter of their function guards (sleepcond.py; only
    those); d['passes']: [line, name, [[argument index, parameter index],
    ...]] of the calls given such parameters of their function bare (of
    every call of that name on that line); d['params']: [name, line,
    [indexes of bool parameters], [[index, [names]], ...]] of the
    functions that have either, the last the names of the calls each
    parameter is given bare to (its guards and passes hold only if these
    are all functions: Graph.unsure())."""
    d['guards'], d['passes'], d['params'], d['guards_v'] = [], [], [], GUARDS_V
    if d.get('failed') or not d.get('calls'):
        return
    text = data.decode('latin-1')
    starts = sleepclass.line_starts(text)
    consts, macros = sleepcond.file_constants(text), sleepcond.file_macros(text)
    by_line = {}
    for c in d['calls']:
        by_line.setdefault(int(c[0]), set()).add(c[1])
    call_lines = sorted(by_line)
    for (a, b, n) in _functions(d):
        lines = call_lines[bisect.bisect_left(call_lines, a):bisect.bisect_right(call_lines, b)]
        if not lines:
            continue
        i = sleepclass.name_offset(text, starts, a, 0, n)
        if i is None:
            continue
        spans, ps, bare, passes = sleepcond.function_guards(text, i, n, consts, macros)
        if not spans and not passes:
            continue
        got = False
        for line in sorted(lines) if spans else ():
            end = starts[line] if line < len(starts) else len(text)
            for name in sorted(by_line[line]):
                guard = None
                rx = re.compile(r'\b%s\s*\(' % re.escape(name))
                for m in rx.finditer(text, starts[line - 1], end):
                    g = set()
                    for (x, y, c) in spans:
                        if x <= m.start() < y:
                            g.update(c)
                    guard = g if guard is None else guard & g
                if guard:
                    d['guards'].append([line, name, sorted(list(c) for c in guard)])
                    got = True
        shapes = {}
        for (off, name, shape) in passes:
            line = bisect.bisect_right(starts, off)
            if name not in by_line.get(line, ()):
                continue
            k = (line, name)
            shapes[k] = shape if k not in shapes else \
                {j: q for j, q in shapes[k].items() if shape.get(j) == q}
        for (line, name), shape in sorted(shapes.items()):
            if shape:
                d['passes'].append([line, name, sorted([j, q] for j, q in shape.items())])
                got = True
        if got:
            d['params'].append([n, a, [k for k, (_, b) in enumerate(ps) if b],
                                sorted([k, c] for k, c in bare.items())])


KEEP_ARGS = re.compile(r'GFP|gfp|alloc|wait_event')
LOCKOP_RX = re.compile(r'^(raw_)?(spin|read|write)_(un)?lock(_irq|_irqsave|_irqrestore|_bh)?(_nested)?$')


def from_source(d, data):
    """What the facts rule leaves to the source: the arguments of the calls
    (kept when they can matter to the GFP rules), which definitions are
    static and which have a gfp_t parameter, the lock and unlock sites
    (line, op, lock text: the calls of the lock functions). The rule gives
    each name's line and column."""
    text = data.decode('latin-1')
    starts = sleepclass.line_starts(text)
    calls, locks = [], []
    for (line, name, col) in d.get('calls', []):
        # the rule gives the place only (sleep_facts.cocci)
        name = name or sleepclass.name_at(text, starts, int(line), int(col))
        if not name:
            continue
        a = sleepclass.call_args(text, starts, int(line), int(col), name)
        first = sleepclass.split_args(a)[:1] if LOCKOP_RX.match(name) else None
        if first:
            locks.append([int(line), 'unlock' if '_unlock' in name else 'lock',
                          sleepclass.squash(first[0]).lstrip('&')])
        if not KEEP_ARGS.search(name) and not KEEP_ARGS.search(a):
            a = ''
        calls.append([int(line), name, a[:400]])
    d['calls'], d['locks'] = calls, locks
    defs, static, gfp = [], [], set()
    for (name, line, col) in d.get('defs', []):
        st, g = sleepclass.def_info(text, starts, int(line), int(col), name)
        defs.append([name, int(line), False])
        if st:
            static.append([name, int(line)])
        if g:
            gfp.add(name)
    d['defs'], d['static'], d['gfpdefs'] = defs, static, sorted(gfp)


_NOBRACE_RE = re.compile(r'//[^\n]*|/\*.*?(?:\*/|\Z)|"(?:\\.|[^"\\\n])*"?|\'(?:\\.|[^\'\\\n])*\'?|\{', re.S)


def no_function(data):
    """The pre-scan: True when DATA has no '{' outside comments, strings
    and character constants (in a directive or not). Such a file defines
    no function, no struct with members and no initializer: everything
    the facts rule records (definitions, calls within them, member calls
    and assignments, struct members, `.fld = fn`) needs a brace. A header
    of register #defines (drivers/gpu/drm/amd/include/asic_reg, 467 of
    its 488 headers) is not given to spatch."""
    if b'{' not in data:
        return True
    for m in _NOBRACE_RE.finditer(data.decode('latin-1')):
        if m.group() == '{':
            return False
    return True


# Attribute macros that take arguments and may come before or after a
# declarator: never the name of the function declared.
ATTR_MACROS = frozenset(['__attribute__', '__printf', '__scanf', '__section', '__aligned',
                         '__alias', '__malloc', '__alloc_size', '__must_hold', '__releases',
                         '__acquires', '__diagnose_as', '__assume_aligned', '__cond_acquires',
                         '__no_sanitize_address', '__counted_by', 'asm', '__asm__'])
# keywords and the attribute itself; an all-capitals name is a macro's
NOT_NAMES = frozenset(['if', 'while', 'for', 'switch', 'return', 'sizeof', 'defined',
                       'typeof', '__noreturn'])
_NORET_RE = re.compile(rb'\b__noreturn\b')
_COMMENT_RE = re.compile(r'/\*.*?(?:\*/|\Z)|//[^\n]*', re.S)
_DECL_NAME_RE = re.compile(r'\b([A-Za-z_]\w*)\s*\(')


def noreturn_names(data):
    """The functions DATA declares or defines `__noreturn` (panic(),
    vpanic(), do_exit(), make_task_dead()...): the declaration around each
    __noreturn, from the previous ';', '}' or directive to the next ';' or
    '{', comments blanked; its name is the first identifier before a '('
    that is not an attribute macro (`__printf(1, 2) void panic(...) __noreturn __cold;`).
    Macro definitions are not read."""
    out = set()
    if not _NORET_RE.search(data):
        return out
    text = _COMMENT_RE.sub(lambda m: re.sub(r'[^\n]', ' ', m.group()), data.decode('latin-1'))
    for m in re.finditer(r'\b__noreturn\b', text):
        a = max(text.rfind(';', 0, m.start()), text.rfind('}', 0, m.start()),
                text.rfind('\n#', 0, m.start()))
        line_start = text.rfind('\n', 0, m.start()) + 1
        if text[line_start:m.start()].lstrip().startswith('#'):
            continue        # a #define
        ends = [i for i in (text.find(';', m.end()), text.find('{', m.end())) if i >= 0]
        b = min(ends) if ends else len(text)
        chunk = text[a + 1:b]
        if '\\\n' in chunk:
            continue        # inside a macro body
        names = [n for n in _DECL_NAME_RE.findall(chunk)
                 if n not in ATTR_MACROS and n not in NOT_NAMES and not n.isupper()]
        if names:
            out.add(names[0])
    return out


def file_facts(spatch, root, paths, cache, jobs=2, log=None, keep=()):
    """Facts of each path (relative to ROOT): {path: facts}. Files already
    in the cache (same content, same rules) are not given to spatch, nor
    those the pre-scan proves define nothing (no_function(); not for the
    KEEP paths, the checked files, always run). Returns (facts, blobs,
    number of files run, number skipped by the pre-scan)."""
    rid = rules_id(spatch)
    facts, blobs, todo, skipped = {}, {}, [], 0
    noret = {}
    keep = set(keep)
    for p in paths:
        try:
            with open(os.path.join(root, p), 'rb') as f:
                data = f.read()
        except OSError as e:
            raise FactsError("cannot open '%s': %s" % (p, e.strerror))
        blobs[p] = blob_id(data)
        noret[p] = noreturn_names(data)
        c = os.path.join(cache, 'files', rid, blobs[p][:2], blobs[p] + '.json') if cache else None
        if c and os.path.isfile(c):
            with open(c) as f:
                facts[p] = json.load(f)
            if 'ends' not in facts[p] or 'includes' not in facts[p] or \
                    facts[p].get('guards_v') != GUARDS_V:
                if 'ends' not in facts[p] or 'includes' not in facts[p]:
                    add_ends(facts[p], data)
                add_guards(facts[p], data)
                atomic_write(c, json.dumps(facts[p], sort_keys=True))
        elif p not in keep and no_function(data):
            facts[p] = {'prescan': 'no brace'}
            skipped += 1
        else:
            todo.append(p)
    for p, d in _spatch_batches(spatch, root, make_batches(root, todo), jobs, log):
        with open(os.path.join(root, p), 'rb') as f:
            data = f.read()
        if not d.get('failed'):
            from_source(d, data)
        add_ends(d, data)
        add_guards(d, data)
        facts[p] = d
        if cache:
            b = blobs[p]
            atomic_write(os.path.join(cache, 'files', rid, b[:2], b + '.json'),
                         json.dumps(d, sort_keys=True))
    # read from the source at each run (cheap), not cached in the facts
    for p, names in noret.items():
        if names:
            facts[p]['noreturn'] = sorted(names)
    return facts, blobs, len(todo), skipped


def _functions(d):
    """(start, end, name) of each definition: up to its closing brace
    (add_ends), and never past the next definition."""
    starts = sorted(set((int(l), n) for (n, l, _) in d.get('defs', [])))
    ends = dict((int(a), int(b)) for (a, b) in d.get('ends', []))
    out = []
    for i, (a, n) in enumerate(starts):
        b = (starts[i + 1][0] - 1) if i + 1 < len(starts) else 10 ** 9
        out.append((a, min(b, ends.get(a, b)), n))
    return out


RELEASE_MACROS = frozenset(['pte_unmap_unlock'])


class _Index:
    """One file's calls and lock sites sorted by line, for the slices of a
    definition's lines (sorting them again for each definition made the
    closure quadratic in the calls of a file)."""

    def __init__(self, d):
        self.calls = sorted(d.get('calls', []))
        self.call_lines = [c[0] for c in self.calls]
        self.locks = sorted(d.get('locks', []))
        self.lock_lines = [c[0] for c in self.locks]

    def calls_in(self, a, b):
        return self.calls[bisect.bisect_left(self.call_lines, a):
                          bisect.bisect_right(self.call_lines, b)]

    def locks_in(self, a, b):
        return self.locks[bisect.bisect_left(self.lock_lines, a):
                          bisect.bisect_right(self.lock_lines, b)]


_INDEXES = {}    # id(facts of a file) -> (those facts, their _Index)


def _index(d):
    """d's _Index, made once (d is kept with it: its id stays its own)."""
    e = _INDEXES.get(id(d))
    if e is None or e[0] is not d:
        e = _INDEXES[id(d)] = (d, _Index(d))
    return e[1]


def _ops(d, a, b):
    """{lock text: [op, ...]} of the lock sites of lines A..B, in order."""
    ops = {}
    for (line, op, text) in _index(d).locks_in(a, b):
        ops.setdefault(text, []).append(op)
    return ops


def _dropping(d, a, b):
    """Its first operation on some lock is an unlock; or its first lock
    operation at all is pte_unmap_unlock() (whose lock argument the facts
    do not keep)."""
    if any(o[0] == 'unlock' for o in _ops(d, a, b).values()):
        return True
    rel = [line for (line, n, _) in _index(d).calls_in(a, b) if n in RELEASE_MACROS]
    return bool(rel) and not _index(d).locks_in(a, min(rel))


def _releases(d, a, b):
    """It drops a lock it did not take and does not take it again."""
    return any(o[0] == 'unlock' and o[-1] == 'unlock' for o in _ops(d, a, b).values())


# The architecture whose kernel the calls are resolved for: a definition
# under another architecture's arch/ directory never stands for a call from
# generic code (KSERIES_COCCI_ARCH overrides it).
ARCH = os.environ.get('KSERIES_COCCI_ARCH') or 'x86'
# Top directories of programs that are not the kernel: host tools, user
# space, build scripts, initramfs generation, documentation examples.
HOST_TOPS = frozenset(['tools', 'scripts', 'usr', 'Documentation'])
# Directories of arch/A/ that are programs of their own, linked apart from
# the kernel: boot code and decompressor, real-mode trampoline, kexec
# purgatory, host tools (arch/x86/tools).
ARCH_PROGRAMS = frozenset(['boot', 'realmode', 'purgatory', 'tools'])


def realm(path):
    """The program or configuration a file of the tree belongs to:
    'kernel' (generic code and arch/ARCH), 'arch:A' (another
    architecture, arch/x86/um being UML's), 'boot:A' (arch/A/boot,
    realmode, purgatory, tools), 'vdso' (a vdso directory: user space),
    'samples' (modules and user programs outside the kernel proper), or
    the top directory of a host program (tools, scripts, usr,
    Documentation)."""
    parts = path.split('/')
    if len(parts) > 1 and parts[0] in HOST_TOPS:
        return parts[0]
    if 'vdso' in parts[:-1]:
        return 'vdso'
    if len(parts) > 1 and parts[0] == 'samples':
        return 'samples'
    if len(parts) > 2 and parts[0] == 'arch':
        a = parts[1]
        if parts[2] in ARCH_PROGRAMS:
            return 'boot:' + a
        if a == ARCH and parts[2] == 'um':
            return 'arch:um'
        return 'kernel' if a == ARCH else 'arch:' + a
    return 'kernel'


def visible(caller, target, target_path):
    """A definition of realm TARGET can be what a call from realm CALLER
    reaches: its own realm's; the kernel's from another architecture, UML
    and samples (they call the kernel); a kernel header's inline from boot
    code (it includes some). Host programs, user space and boot code define
    kernel names (memcpy, clock_gettime, panic) for themselves alone."""
    if caller == target:
        return True
    if target != 'kernel':
        return False
    if caller.startswith('arch:') or caller == 'samples':
        return True
    return caller.startswith('boot:') and target_path.endswith('.h')


class Graph:
    """The definitions of a set of files, and how a call resolves."""

    def __init__(self, facts, root=None):
        self.facts = facts
        self.root = root            # where the sources are, for literals()
        self._guards, self._params, self._texts, self._lits = {}, {}, {}, {}
        self._passes, self._unsure = {}, {}
        self.local = local = {}     # path -> {name: [node]}
        self.glob = glob = {}       # name -> [node]
        self.gfpfn = gfpfn = set()
        self.noreturn = noret = set()   # __noreturn functions of the kernel
        self.nodes = nodes = []     # (path, start, end, name)
        self.members, self.inits = members, inits = {}, {}
        self.realms = realms = []   # node -> realm()
        self._resolved = {}         # (path, name) -> resolve()
        for path in sorted(facts):
            d = facts[path]
            statics = set((n, int(l)) for (n, l) in d.get('static', []))
            gfpfn.update(d.get('gfpdefs', []))
            if realm(path) == 'kernel':
                noret.update(d.get('noreturn', []))
            rp = realm(path)
            for (a, b, n) in _functions(d):
                node = len(nodes)
                nodes.append((path, a, b, n))
                realms.append(rp)
                local.setdefault(path, {}).setdefault(n, []).append(node)
                if path.endswith('.h') or (n, a) not in statics:
                    glob.setdefault(n, []).append(node)
            for (s, m, t) in d.get('members', []):
                members.setdefault((s, m), set()).add(t)
            for it in d.get('inits', []):
                s, fld, fn = it[0], it[1], it[2]
                line = int(it[3]) if len(it) > 3 else 0
                inits.setdefault((s, fld), set()).add((fn, path, line))

    def included(self, path, hdr):
        for inc in self.facts[path].get('includes', []):
            if hdr == os.path.normpath(os.path.join(os.path.dirname(path), inc)) or \
                    hdr == 'include/' + inc or hdr.endswith('/include/' + inc):
                return True
        return False

    def resolve(self, path, name):
        """The definitions a call of NAME from PATH may reach: its own; else,
        of the definitions of PATH's realm (visible()), those of the headers
        PATH includes, when one defines NAME (two headers may have static
        inlines of the same name: ehci.h and ohci.h's hc32_to_cpup()); else
        the non-static ones of PATH's directory (a module links its own
        first); else every header and non-static one. A call sleeps only
        if every definition returned may (closure())."""
        own = self.local.get(path, {}).get(name)
        if own:
            return own
        key = (path, name)
        r = self._resolved.get(key)
        if r is not None:
            return r
        cands = self.glob.get(name, [])
        if cands:
            rc = realm(path)
            cands = [c for c in cands if visible(rc, self.realms[c], self.nodes[c][0])]
        inc = [c for c in cands
               if self.nodes[c][0].endswith('.h') and self.included(path, self.nodes[c][0])]
        if not inc:
            d = os.path.dirname(path)
            inc = [c for c in cands if not self.nodes[c][0].endswith('.h') and
                   os.path.dirname(self.nodes[c][0]) == d]
        r = self._resolved[key] = inc or cands
        return r

    def guards(self, path):
        """{(line, name): guard} of the guarded calls of PATH (add_guards());
        a guard is a tuple of (index, op, value)."""
        r = self._guards.get(path)
        if r is None:
            r = self._guards[path] = {}
            for (line, name, guard) in self.facts[path].get('guards', []):
                r[(int(line), name)] = tuple(sorted(tuple(c) for c in guard))
        return r

    def passes(self, path):
        """{(line, name): {argument index: parameter index}} of the calls
        of PATH given parameters of their function bare (add_guards())."""
        r = self._passes.get(path)
        if r is None:
            r = self._passes[path] = {}
            for (line, name, shape) in self.facts[path].get('passes', []):
                r[(int(line), name)] = {int(j): int(q) for (j, q) in shape}
        return r

    def _param_facts(self, node):
        path, a, _, n = self.nodes[node]
        r = self._params.get(path)
        if r is None:
            r = self._params[path] = {}
            for x in self.facts[path].get('params', []):
                bare = {int(k): c for (k, c) in x[3]} if len(x) > 3 else {}
                r[(x[0], int(x[1]))] = (frozenset(x[2]), bare)
        return r.get((n, a), (frozenset(), {}))

    def bools(self, node):
        """The indexes of the bool parameters of NODE, when it has guards
        or passes."""
        return self._param_facts(node)[0]

    def unsure(self, node):
        """The indexes of the parameters of NODE that a call may assign:
        given bare to a name that resolves to no definition (a macro:
        swap(), get_user()); a call resolved to a function cannot assign
        its caller's variable. Its guards and passes on them do not
        hold."""
        r = self._unsure.get(node)
        if r is None:
            path = self.nodes[node][0]
            r = self._unsure[node] = frozenset(
                k for k, names in self._param_facts(node)[1].items()
                if any(not self.resolve(path, x) for x in names))
        return r

    def call_guard(self, node, line, name):
        """The guard of the call of NAME at LINE of NODE, less the
        constraints on its unsure() parameters."""
        gd = self.guards(self.nodes[node][0]).get((line, name), ())
        if gd:
            bad = self.unsure(node)
            if bad:
                gd = tuple(c for c in gd if c[0] not in bad)
        return gd

    def call_shape(self, node, line, name):
        """{argument index: parameter index} of the call of NAME at LINE of
        NODE: the arguments that are NODE's parameters, bare and not
        unsure()."""
        shape = self.passes(self.nodes[node][0]).get((line, name))
        if not shape:
            return {}
        bad = self.unsure(node)
        return {j: q for j, q in shape.items() if q not in bad}

    def literals(self, elems):
        """{index: value} of the literal constant arguments of the call
        ELEMS[0] ([name, "path:line"]; an ops call has none), read from
        the source: of every call of that name on that line, the ones
        they all pass."""
        name, loc = elems[0][0], elems[0][1]
        if '.' in name or self.root is None:
            return {}
        path, line = loc.rsplit(':', 1)
        key = (path, int(line), name)
        r = self._lits.get(key)
        if r is not None:
            return r
        t = self._texts.get(path)
        if t is None:
            try:
                with open(os.path.join(self.root, path), 'rb') as f:
                    text = f.read().decode('latin-1')
            except OSError:
                text = ''
            t = self._texts[path] = (text, sleepclass.line_starts(text),
                                     sleepcond.file_constants(text))
        r = self._lits[key] = line_literals(t[0], t[1], int(line), name, t[2])
        return r

    def releasers(self, path):
        """The functions of other files that PATH calls and that drop a lock
        their caller holds: a definition reached does, and every other one
        does too or has no lock site (a stub for another configuration:
        mm/swap.h's two swap_cluster_unlock())."""
        out = set()
        own = self.local.get(path, {})
        for c in self.facts.get(path, {}).get('calls', []):
            name = c[1]
            if name in own or name in out:
                continue
            rel, other = 0, 0
            for n in self.resolve(path, name):
                d, a, b = self.facts[self.nodes[n][0]], self.nodes[n][1], self.nodes[n][2]
                if _releases(d, a, b):
                    rel += 1
                elif _ops(d, a, b):
                    other += 1
            if rel and not other:
                out.add(name)
        return sorted(out)

    def excluded(self, path, cond, outside):
        """[line, name] of the calls of PATH that do not sleep by their
        literal arguments: a definition the call reaches sleeps only under
        guards (COND: {(path, start, name): [guard, ...]}, closure()) that
        they all exclude. The rules drop these calls (sleep_in_atomic.cocci)."""
        out = []
        if not cond:
            return out
        for (line, name, args) in self.facts.get(path, {}).get('calls', []):
            if sleepclass.direct_sleeper(name, args, None, outside):
                continue
            lits = None
            for node in self.resolve(path, name):
                p, a, _, n = self.nodes[node]
                guards = cond.get((p, a, n))
                if not guards:
                    continue
                if lits is None:
                    lits = self.literals([[name, '%s:%d' % (path, int(line))]])
                if lits and all(sleepcond.excluded(gd, lits, self.bools(node))
                                for gd in guards):
                    out.append([int(line), name])
                    break
        return sorted(set(tuple(x) for x in out))

    def external(self, path, by_def):
        """{name: chain} for the functions of other files that PATH calls
        and that may sleep: every definition the call reaches may (the
        shortest chain of them)."""
        out = {}
        own = self.local.get(path, {})
        for c in self.facts.get(path, {}).get('calls', []):
            name = c[1]
            if name in own or name in out:
                continue
            best = None
            for node in self.resolve(path, name):
                chain = by_def.get(self.nodes[node][0], {}).get(name)
                if chain is None:
                    best = None     # one definition that does not sleep
                    break
                if best is None or len(chain) < len(best):
                    best = chain
            if best is not None:
                out[name] = best
        return out


def line_literals(text, starts, line, name, consts=None):
    """{index: value} of the literal arguments that every call of NAME at
    LINE of TEXT passes (sleepcond.literal_args()); an argument that is a
    named constant of TEXT defined before the call (CONSTS,
    sleepcond.file_constants()) counts as its value."""
    if not 1 <= line <= len(starts):
        return {}
    end = starts[line] if line < len(starts) else len(text)
    out = None
    for m in re.finditer(r'\b%s\s*\(' % re.escape(name), text[starts[line - 1]:end]):
        a = sleepclass.paren_text(text, starts[line - 1] + m.end() - 1)
        cb = sleepcond.constants_before(consts, starts[line - 1] + m.start()) if consts else None
        lits = sleepcond.literal_args(a, cb) if a is not None else {}
        out = lits if out is None else {k: v for k, v in out.items() if lits.get(k) == v}
    return out or {}


ATOMIC_OPS = os.path.join(HERE, 'atomic-ops.txt')


def load_atomic_ops(path):
    """atomic-ops.txt: TYPE.member a line, '#' comments."""
    out = set()
    if path and os.path.isfile(path):
        with open(path) as f:
            for line in f:
                line = line.split(chr(35), 1)[0].strip()
                if line:
                    out.add(tuple(line.split('.', 1)))
    return out


def closure(facts, outside, atomic_ops=frozenset(), g=None):
    """Which functions may sleep. Returns {name: chain} for the names a
    file that does not define them resolves (headers, non-static
    definitions), {(path, name): chain} for every definition, the gfp_t
    functions, and {(path, start line, name): [guard, ...]} for the
    definitions that sleep only under parameter guards (sleepcond.py:
    each guard a list of [index, op, value]; a call with literal
    arguments that exclude every guard of one of the definitions it
    reaches does not sleep through it). A chain is a list of [name,
    "path:line"], from the first call to the direct sleeper, each with
    the place of its call (an ops call has the element 'TYPE.member' at
    the call, then the function stored there, at the initializer or
    assignment)."""
    g = g or Graph(facts)
    nodes, glob, gfpfn, members_of, inits, resolve = (g.nodes, g.glob, g.gfpfn, g.members,
                                                      g.inits, g.resolve)
    noret = g.noreturn

    direct = {}         # node -> chain
    dguards = {}        # node -> guards of its direct sleeping calls (() unguarded)
    # A call reaches a group of definitions (the alternatives its name
    # resolves to, or the functions stored in an ops member): it sleeps
    # when every member sleeps. members: group -> [(node, elems)], the
    # elems put between the call and the member's chain (for an ops call,
    # the function stored and where); callers: group -> [(caller node,
    # elems of the call, guard of the call in its caller, its shape: the
    # arguments that are the caller's parameters, Graph.call_shape())].
    gid, members, callers = {}, [], []

    def call(node, targets, elems, guard, shape):
        targets = tuple(t for t in targets if t[0] != node)
        if not targets:
            return
        grp = gid.get(targets)
        if grp is None:
            grp = gid[targets] = len(members)
            members.append(targets)
            callers.append([])
        callers[grp].append((node, elems, guard, shape))

    for node, (path, a, b, n) in enumerate(nodes):
        d = facts[path]
        if sleepclass.NOT_SLEEP_RE.search(n) or n in gfpfn or n in sleepclass.CONDITIONAL or \
                n in noret:
            continue
        if _dropping(d, a, b):
            continue
        for (line, callee, args) in _index(d).calls_in(a, b):
            if callee == n:
                continue
            loc = '%s:%d' % (path, line)
            if callee in sleepclass.CONDITIONAL:
                continue
            guard = g.call_guard(node, line, callee)
            if sleepclass.direct_sleeper(callee, args, None, outside):
                if node not in direct:
                    direct[node] = [[callee, loc]]
                dguards.setdefault(node, set()).add(guard)
                continue
            if sleepclass.NOT_SLEEP_RE.search(callee) or callee in gfpfn or callee in noret:
                continue
            call(node, ((t, ()) for t in resolve(path, callee)), [[callee, loc]], guard,
                 g.call_shape(node, line, callee))
        for (line, t, m, fld) in d.get('ocalls', []):
            if not a <= line <= b:
                continue
            types = members_of.get((t, m), set()) if m else {t}
            for t2 in sorted(types):
                if (t2, fld) in atomic_ops:
                    continue
                stored = []
                for (fn, ipath, iline) in sorted(inits.get((t2, fld), set())):
                    stored += [(tgt, ((fn, '%s:%d' % (ipath, iline)),))
                               for tgt in resolve(ipath, fn)]
                call(node, stored, [['%s.%s' % (t2, fld), '%s:%d' % (path, line)]], (), {})

    of_node = {}        # node -> [group]
    for grp, ms in enumerate(members):
        for (t, elems) in ms:
            of_node.setdefault(t, []).append(grp)

    # Which definitions sleep, and under which guards of their own
    # parameters (() when on some path whatever the arguments): a worklist
    # to the fixed point. A call sleeps when every member of its group
    # sleeps for its literal arguments; the guards a member sleeps under
    # that are on the caller's own parameters passed on bare (the call's
    # shape) become the caller's, with the call's own guard. Each time a
    # member's guards change, its group's calls are looked at again. Few
    # definitions are guarded: most get () at once.
    status = {}         # node -> set of guards, none implied by another
    work = []

    def add(node, guard):
        """Whether NODE's guards changed: a guard that one of them implies
        (a subset of its constraints) adds nothing, and replaces those
        it implies; past GUARD_CAP of them, the definition sleeps
        whatever its arguments. The guards of a node are sets of the
        finitely many constraints of the facts (their indexes moved), and
        each change adds one none of them implies: the worklist ends."""
        st = status.get(node)
        if st is None:
            st = status[node] = set()
        if () in st or guard in st:
            return
        gs = set(guard)
        if any(set(e) <= gs for e in st):
            return
        st.difference_update([e for e in st if gs <= set(e)])
        if guard == () or len(st) >= GUARD_CAP:
            st.clear()
            guard = ()
        st.add(guard)
        work.append(node)

    for node in sorted(dguards):
        for guard in sorted(dguards[node]):
            add(node, guard)
    left = [len(m) for m in members]
    counted = set()
    live = set()        # (group, index) of the calls that may sleep

    def through(grp, caller, elems, guard, shape):
        """The guards under which CALLER sleeps through its call of the
        group GRP (none: the call's literal arguments rule out every guard
        of a member). The call sleeps only if every member does: the
        guards of any one member, passed on (sleepcond.passed_on()), are
        enough; the member with the fewest is taken."""
        ms = members[grp]
        if all(() in status[t] for (t, _) in ms):
            return [guard]
        lits = g.literals(elems)
        if not lits and not shape:
            return [guard]
        cb = g.bools(caller) if shape else frozenset()
        best = None
        for (t, _) in ms:
            st = status[t]
            if () in st:
                continue
            bools = g.bools(t)
            tr = set()
            for gd in sorted(st):
                r = sleepcond.passed_on(gd, lits, shape, bools, cb)
                if r is not None:
                    tr.add(r)
            if not tr:
                return []
            if () not in tr and (best is None or (len(tr), sorted(tr)) < (len(best), sorted(best))):
                best = tr
        if best is None:
            return [guard]
        return [tuple(sorted(set(guard) | set(r))) for r in sorted(best)]

    while work:
        t = work.pop()
        if t not in counted:
            counted.add(t)
            for grp in of_node.get(t, ()):
                left[grp] -= 1
        for grp in of_node.get(t, ()):
            if left[grp]:
                continue
            for k, (caller, elems, guard, shape) in enumerate(callers[grp]):
                done = () in status.get(caller, ())
                if done and (grp, k) in live:
                    continue
                gds = through(grp, caller, elems, guard, shape)
                if gds:
                    live.add((grp, k))
                for gd in gds if not done else ():
                    add(caller, gd)
    inactive = set((grp, k) for grp in range(len(members)) if not left[grp]
                   for k in range(len(callers[grp])) if (grp, k) not in live)

    left = [len(m) for m in members]
    # shortest chains: Dijkstra from the direct sleepers, backwards, over
    # the active calls; a group is done when its last member is (its
    # chain the shortest of its members')
    chain = {}
    heap = [(1, node, direct[node]) for node in sorted(direct)]
    heapq.heapify(heap)
    while heap:
        k, node, c = heapq.heappop(heap)
        if node in chain:
            continue
        chain[node] = c
        for grp in of_node.get(node, ()):
            left[grp] -= 1
            if left[grp]:
                continue
            best = min(([list(e) for e in elems] + chain[t] for (t, elems) in members[grp]),
                       key=len)
            for i, (caller, elems, _, _) in enumerate(callers[grp]):
                if caller not in chain and (grp, i) not in inactive:
                    heapq.heappush(heap, (len(elems) + len(best), caller, elems + best))

    by_name = {}
    for name, ns in glob.items():
        best = None
        for node in ns:
            if node in chain and (best is None or len(chain[node]) < len(best)):
                best = chain[node]
        if best is not None:
            by_name[name] = best
    # a definition sleeps when every definition of its name in its file
    # does (#ifdef alternatives in one file)
    per_def = {}
    for i, c in chain.items():
        k = (nodes[i][0], nodes[i][3])
        if k not in per_def and all(x in chain for x in g.local[k[0]][k[1]]):
            per_def[k] = min((chain[x] for x in g.local[k[0]][k[1]]), key=len)
    cond = {}
    for node, st in status.items():
        if () not in st and node in chain:
            path, a, _, n = nodes[node]
            cond[(path, a, n)] = sorted([list(c) for c in gd] for gd in st)
    return by_name, per_def, sorted(gfpfn), cond


def tree_closure(spatch, root, scope, extra, cache, outside_path, jobs=2, log=None):
    """Facts of the files under SCOPE (and the EXTRA files) of ROOT,
    closed; cached under CACHE/TREE/. Returns (external, by_def, facts,
    stats): external is {extra path: {name: chain}} for the functions of
    other files each EXTRA file calls that may sleep; by_def is {path:
    {name: chain}} for every definition that may sleep; stats['excluded']
    is {extra path: [[line, name], ...]}, the calls whose literal
    arguments exclude every guard under which a definition they reach
    sleeps (Graph.excluded())."""
    paths = sorted(set(scope_files(root, scope)) | set(extra))
    facts, blobs, ran, skipped = file_facts(spatch, root, paths, cache, jobs, log, extra)
    outside_text = ''
    if outside_path:
        with open(outside_path) as f:
            outside_text = f.read()
    h = hashlib.sha1(('closure 5 %s %s' % (ARCH, rules_id(spatch))).encode())
    h.update(outside_text.encode())
    for p in (ATOMIC_OPS, sleepclass.__file__, sleepcond.__file__, os.path.abspath(__file__)):
        if os.path.isfile(p):
            with open(p, 'rb') as f:
                h.update(f.read())
    for p in paths:
        h.update(('%s %s\n' % (p, blobs[p])).encode())
    tid = h.hexdigest()
    cpath = os.path.join(cache, tid, 'closure.json') if cache else None
    j = None
    if cpath and os.path.isfile(cpath):
        with open(cpath) as f:
            j = json.load(f)
    g = Graph(facts, root)
    outside = sleepclass.load_outside(outside_path)
    if j is None:
        by_name, per_def, gfpfn, cond = closure(facts, outside, load_atomic_ops(ATOMIC_OPS), g)
        j = {'files': len(paths), 'by_name': by_name, 'gfp_functions': gfpfn,
             'by_def': {'%s\t%s' % k: c for k, c in sorted(per_def.items())},
             'cond': {'%s\t%d\t%s' % k: c for k, c in sorted(cond.items())}}
        if cpath:
            atomic_write(cpath, json.dumps(j, sort_keys=True))
    by_def = {}
    for k, c in j['by_def'].items():
        path, name = k.split('\t', 1)
        by_def.setdefault(path, {})[name] = c
    external = {p: g.external(p, by_def) for p in extra}
    cond = {}
    for k, guards in j.get('cond', {}).items():
        path, line, name = k.split('\t', 2)
        cond[(path, int(line), name)] = [tuple(tuple(c) for c in gd) for gd in guards]
    stats = {'releasers': {p: g.releasers(p) for p in extra}, 'files': len(paths), 'ran': ran,
             'excluded': {p: g.excluded(p, cond, outside) for p in extra},
             'conditional': len(cond),
             'prescan': skipped, 'tree': tid, 'sleepers': len(j['by_name']),
             'failed': sorted(p for p in paths if facts[p].get('failed')),
             'reasons': {p: facts[p].get('reason', '') for p in paths if facts[p].get('failed')},
             'sleeping_definitions': len(j['by_def'])}
    return external, by_def, facts, stats


def main(argv):
    """sleepfacts.py [--spatch CMD] [--cache DIR] [--jobs N] [--sleepers FILE]
    TREE [SCOPE]...: the facts pass alone; prints what it did."""
    import shlex
    spatch = shlex.split(os.environ.get('SPATCH', 'spatch'))
    cache = os.path.join(os.environ.get('KSERIES_CACHE') or
                         os.path.join(os.path.expanduser('~'), '.cache', 'kseries'),
                         'cocci-facts')
    sleepers = os.path.join(HERE, 'sleepers.txt')
    jobs = 2
    while argv and argv[0].startswith('--') and len(argv) > 1:
        opt, val = argv[0], argv[1]
        argv = argv[2:]
        if opt == '--spatch':
            spatch = shlex.split(val)
        elif opt == '--cache':
            cache = val
        elif opt == '--sleepers':
            sleepers = val
        elif opt == '--jobs' and val.isdigit() and 1 <= int(val) <= 64:
            jobs = int(val)
        else:
            argv = []
    if not argv or not spatch:
        print(main.__doc__.split(':')[0].strip(), file=sys.stderr)
        return 129
    root, scope = argv[0], argv[1:] or ['.']
    # a TERM ends the running spatch processes too (_spatch_batches)
    import signal
    signal.signal(signal.SIGTERM, lambda *a: sys.exit(143))
    try:
        _, _, _, st = tree_closure(
            spatch, os.path.abspath(root), scope, [], cache or None, sleepers, jobs,
            lambda m: print(m, file=sys.stderr, flush=True))
    except (FactsError, OSError) as e:
        print('sleepfacts: error: %s' % e, file=sys.stderr)
        return 2
    print('files %d, given to spatch %d, no function (pre-scan) %d, not analysed %d, '
          'sleeping names %d, sleeping definitions %d, closure %s' %
          (st['files'], st['ran'], st['prescan'], len(st['failed']), st['sleepers'],
           st['sleeping_definitions'], st['tree']))
    for p in st['failed']:
        print('not analysed: %s (%s)' % (p, st['reasons'][p] or 'spatch failed'))
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
