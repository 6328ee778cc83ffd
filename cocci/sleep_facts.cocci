// SPDX-License-Identifier: GPL-2.0-only
/// Per-file facts for the whole-tree sleep closure (cocci/sleepfacts.py):
/// function definitions (line, static or not, whether a parameter is a
/// gfp_t), every call by name (line, callee, its arguments when they can
/// matter to the GFP rules), calls through a struct member whose struct type
/// spatch knows (E->fld(...) and E->m->fld(...)), struct members that point
/// to a struct, and function names stored in struct members (designated
/// initializers `.fld = fn` and assignments `E->fld = fn`).
///
/// No paths: every rule is a plain match. Output, at the end, one line per
/// file: `KSERIES-FILEFACTS {"file": PATH, ...}` (see sleepfacts.py).
//
// Options: --no-includes --macro-file cocci/sleep_in_atomic.h
// Works with spatch 1.1.1 and 1.3.

@initialize:python@
@@
import json
import re

FILEFACTS = {}
KEEP_ARGS = re.compile(r'GFP|gfp|alloc|wait_event')
LOCKOP_RX = re.compile(r'^(raw_)?(spin|read|write)_(un)?lock(_irq|_irqsave|_irqrestore|_bh)?(_nested)?$')

def facts(file):
    return FILEFACTS.setdefault(file, {'defs': [], 'gfpdefs': [], 'calls': [], 'ocalls': [],
                               'members': [], 'inits': [], 'locks': []})

def tname(t):
    # "const struct foo_ops" -> "foo_ops"; typedef names are kept as is
    t = ' '.join(w for w in str(t).split() if w not in ('const', 'volatile'))
    return t[len('struct '):] if t.startswith('struct ') else t

@defs@
identifier FN;
position p;
@@
FN@p(...) { ... }

@sdefs@
identifier FN;
position p;
@@
static FN@p(...) { ... }

@gfpdefs@
identifier FN, g;
position p;
@@
FN@p(..., gfp_t g, ...) { ... }

@script:python@
FN << defs.FN; p << defs.p;
@@
facts(p[0].file)['defs'].append([str(FN), int(p[0].line), False])

@script:python@
FN << sdefs.FN; p << sdefs.p;
@@
facts(p[0].file).setdefault('static', []).append([str(FN), int(p[0].line)])

@script:python@
FN << gfpdefs.FN; p << gfpdefs.p;
@@
facts(p[0].file)['gfpdefs'].append(str(FN))

@calls@
identifier F;
expression list ES;
position p;
@@
F@p(ES)

@script:python@
F << calls.F; ES << calls.ES; p << calls.p;
@@
a = str(ES)
if not KEEP_ARGS.search(str(F)) and not KEEP_ARGS.search(a):
    a = ''
for q in p:
    facts(q.file)['calls'].append([int(q.line), str(F), a[:400]])

@ocall1@
type T;
T *E;
identifier fld;
position p;
@@
E->fld@p(...)

@script:python@
T << ocall1.T; fld << ocall1.fld; p << ocall1.p;
@@
facts(p[0].file)['ocalls'].append([int(p[0].line), tname(T), '', str(fld)])

@ocall2@
type T;
T *E;
identifier m, fld;
position p;
@@
E->m->fld@p(...)

@script:python@
T << ocall2.T; m << ocall2.m; fld << ocall2.fld; p << ocall2.p;
@@
facts(p[0].file)['ocalls'].append([int(p[0].line), tname(T), str(m), str(fld)])

@members@
identifier S, m;
type T;
position p;
@@
struct S@p { ... T *m; ... };

@script:python@
S << members.S; m << members.m; T << members.T; p << members.p;
@@
facts(p[0].file)['members'].append([str(S), str(m), tname(T)])

@inits@
identifier S, x, fld, fn;
position p;
@@
struct S x@p = { ..., .fld = fn, ... };

@script:python@
S << inits.S; fld << inits.fld; fn << inits.fn; p << inits.p;
@@
facts(p[0].file)['inits'].append([str(S), str(fld), str(fn), int(p[0].line)])

@assigns@
type T;
T *E;
identifier fld, fn;
position p;
@@
E->fld@p = fn

@script:python@
T << assigns.T; fld << assigns.fld; fn << assigns.fn; p << assigns.p;
@@
facts(p[0].file)['inits'].append([tname(T), str(fld), str(fn), int(p[0].line)])

// Lock and unlock sites (line, op, lock text): a function whose first
// operation on some lock is an unlock runs with its caller holding it.
@lockops@
identifier LK : script:python() { LOCKOP_RX.match(str(LK)) is not None };
expression E;
position p;
@@
LK@p(E, ...)

@script:python@
LK << lockops.LK; E << lockops.E; p << lockops.p;
@@
op = 'unlock' if '_unlock' in str(LK) else 'lock'
facts(p[0].file)['locks'].append([int(p[0].line), op, re.sub(r'\s+', '', str(E)).lstrip('&')])

@finalize:python@
@@
for file in sorted(FILEFACTS):
    d = FILEFACTS[file]
    d['file'] = file
    print('KSERIES-FILEFACTS ' + json.dumps(d, sort_keys=True))
