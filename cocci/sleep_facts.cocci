// SPDX-License-Identifier: GPL-2.0-only
/// Per-file facts for the whole-tree sleep closure (cocci/sleepfacts.py):
/// function definitions (line and column of the name), every call by name
/// (line, callee, column), calls through a struct member whose struct type
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

// static or not, gfp_t parameter or not: read from the source by
// sleepfacts.py (two more rules over every definition cost more)
@script:python@
FN << defs.FN; p << defs.p;
@@
facts(p[0].file)['defs'].append([str(FN), int(p[0].line), int(p[0].column)])

// The arguments are read from the source by sleepfacts.py (binding them
// as an expression list and printing it doubles the time of the rule), and
// so is the name, at the place of the match: inheriting F as well costs a
// fifth of the rule's time (1.66 s against 1.31 s of user time on
// drivers/android and cocci/tests).
@calls@
identifier F;
position p;
@@
F@p(...)

@script:python@
p << calls.p;
@@
for q in p:
    facts(q.file)['calls'].append([int(q.line), '', int(q.column)])

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

@finalize:python@
@@
for file in sorted(FILEFACTS):
    d = FILEFACTS[file]
    d['file'] = file
    print('KSERIES-FILEFACTS ' + json.dumps(d, sort_keys=True))
