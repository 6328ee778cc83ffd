# SPDX-License-Identifier: GPL-2.0-only
"""Parameter guards: the calls of a function that are reached only when a
test of one of its own, never modified, parameters holds, and the literal
constants a call passes. Read from the source by sleepfacts.py (the facts
rule gives the places); plain python 3, no spatch. cocci/README.md,
"Parameter guards", says what is recognised and what is not.

A guard is a tuple of constraints (parameter index, op, value), all of
which hold whenever the call is reached: op 'nz' (the parameter is not
zero), 'z' (it is zero), 'eq' or 'ne' (equal or not to value), 'band' or
'nband' (its bits and the mask value have a bit in common, or none). Every
test this module does not recognise, in a condition or in the shape of
the code around a call, simply adds no constraint: a call not known to be
guarded is reached unconditionally.

A parameter given bare to a call (`f(p)`) may be assigned by it if it is
a macro (swap()): function_guards() reads such a parameter as unmodified
and says to which names it was given; the caller of this module decides
whether they are all functions (sleepfacts.Graph), and drops the
constraints on it when one is not."""

import re

_TOK_RE = re.compile(r'/\*.*?(?:\*/|\Z)|//[^\n]*|\\\n'
                     r'|"(?:\\.|[^"\\\n])*"?|\'(?:\\.|[^\'\\\n])*\'?'
                     r'|[A-Za-z_]\w*|\.?\d[\w.]*'
                     r'|<<=|>>=|->|\+\+|--|&&|\|\||[-+*/%&|^!=<>]=|<<|>>'
                     r'|\S', re.S)

ASSIGN_OPS = frozenset(['=', '+=', '-=', '*=', '/=', '%=', '&=', '|=', '^=', '<<=', '>>=',
                        '++', '--'])
KEYWORDS = frozenset(['if', 'else', 'while', 'for', 'do', 'switch', 'case', 'default',
                      'return', 'goto', 'break', 'continue', 'sizeof', 'typeof',
                      '__typeof__', '__typeof', 'alignof', '_Alignof', '__alignof__',
                      'asm', '__asm__', '__asm'])
# Calls whose arguments are read, never assigned, though they may be
# macros: a parameter given bare to any other call may be assigned by a
# macro (swap(), get_user(), do_div()), and counts as modified.
READERS = frozenset(['likely', 'unlikely', 'sizeof', 'typeof', '__typeof__', '__typeof',
                     'if', 'while', 'switch', 'return', 'printk', 'WARN', 'WARN_ON',
                     'WARN_ONCE', 'WARN_ON_ONCE', 'BUG_ON'])
# the printk family: they print their arguments
PRINTS_RE = re.compile(r'^(?:pr|dev|netdev)_(?:v?dbg|debug|info|notice|warn|warning|err'
                       r'|crit|alert|emerg)(?:_once|_ratelimited)?$')
# Conditions wrapped in these are the condition itself.
TRANSPARENT = frozenset(['likely', 'unlikely'])


class _Unknown(Exception):
    """A shape this module does not read: no guard in that function."""


def tokens(text, a, b):
    """(text, offset) of the tokens of TEXT[A:B], comments and line
    continuations dropped."""
    out = []
    for m in _TOK_RE.finditer(text, a, b):
        t = m.group()
        if t.startswith('/*') or t.startswith('//') or t == '\\\n':
            continue
        out.append((t, m.start()))
    return out


def literal(t):
    """The value of a literal constant argument or operand that every
    integer, bool or pointer type holds unchanged (0..127, true, false,
    NULL), else None."""
    if t in ('false', 'NULL'):
        return 0
    if t == 'true':
        return 1
    m = re.match(r'^(0[xX][0-9a-fA-F]+|0[0-7]*|[1-9]\d*)[uUlL]*$', t)
    if not m:
        return None
    v = int(m.group(1), 0) if not re.match(r'^0[0-7]+$', m.group(1)) else int(m.group(1), 8)
    return v if 0 <= v <= 127 else None


def _unparen(a):
    a = a.strip()
    while a.startswith('(') and a.endswith(')') and _balanced(a[1:-1]):
        a = a[1:-1].strip()
    return a


def literal_args(args, consts=None):
    """{index: value} of the arguments of a call (its argument text, as
    sleepclass.split_args() splits it) that are literal constants, or
    named constants of CONSTS ({name: value}, file_constants())."""
    from sleepclass import split_args
    out = {}
    for i, a in enumerate(split_args(args)):
        a = _unparen(a)
        v = literal(a)
        if v is None and consts:
            v = consts.get(a)
        if v is not None:
            out[i] = v
    return out


_COMMENT_RE = re.compile(r'/\*.*?(?:\*/|\Z)|//[^\n]*', re.S)
_DIRECTIVE_RE = re.compile(r'^[ \t]*#[ \t]*(\w+)((?:[^\n\\]|\\.)*)', re.M | re.S)
_TESTS = frozenset(['undef', 'if', 'ifdef', 'ifndef', 'elif', 'elifdef', 'elifndef'])
_OBJ_DEFINE_RE = re.compile(r'\s+([A-Za-z_]\w*)(?![\w(])(.*)', re.S)


def file_constants(text):
    """{name: (value, offset)} of the named constants of TEXT: a name that
    one object-like `#define NAME VALUE` of TEXT defines (at OFFSET),
    VALUE a literal() (in parentheses or not; a U or L suffix is
    literal()'s), and that no other directive of TEXT names: not defined
    again with another value, never #undef'd nor tested (`#ifndef NAME`:
    an included header may have defined it first). A define in another
    file (a header), an enumerator, an expression are not read."""
    seen, bad = {}, set()
    for m in _DIRECTIVE_RE.finditer(text):
        body = _COMMENT_RE.sub(' ', m.group(2).replace('\\\n', ' '))
        if m.group(1) in _TESTS:
            bad.update(_IDENT_RE.findall(body))
            continue
        if m.group(1) != 'define':
            continue
        d = _OBJ_DEFINE_RE.match(body)
        if not d:
            n = _IDENT_RE.match(body.strip())
            if n:
                bad.add(n.group())      # function-like
            continue
        name = d.group(1)
        v = literal(_unparen(d.group(2)))
        if v is None or (name in seen and seen[name][0] != v):
            bad.add(name)
        elif name not in seen:
            seen[name] = (v, m.start())
    return {n: x for n, x in seen.items() if n not in bad}


_FN_DEFINE_RE = re.compile(r'^[ \t]*#[ \t]*define[ \t]+([A-Za-z_]\w*)\(', re.M)


def file_macros(text):
    """The names of the function-like macros TEXT defines: a parameter
    given bare to one may be assigned, whatever else the name resolves
    to."""
    return set(_FN_DEFINE_RE.findall(text))


def constants_before(consts, offset):
    """{name: value} of the file_constants() CONSTS defined before OFFSET."""
    return {n: v for n, (v, o) in consts.items() if o < offset}


def _balanced(s):
    d = 0
    for ch in s:
        if ch == '(':
            d += 1
        elif ch == ')':
            d -= 1
            if d < 0:
                return False
    return d == 0


def holds(constraint, value):
    """CONSTRAINT (idx, op, v) holds for the parameter's VALUE."""
    _, op, v = constraint
    if op == 'nz':
        return value != 0
    if op == 'z':
        return value == 0
    if op == 'eq':
        return value == v
    if op == 'band':
        return value & v != 0
    if op == 'nband':
        return value & v == 0
    return value != v


def passed_on(guard, lits, shape, bools, caller_bools):
    """GUARD of a callee as a guard of its caller, for a call with the
    literal arguments LITS ({index: value}) and SHAPE ({index: caller's
    parameter index}: the arguments that are the caller's unmodified
    parameters, bare); BOOLS, CALLER_BOOLS: the indexes of the bool
    parameters of the callee and of the caller. None when the call's
    literals contradict GUARD. A constraint on a literal argument that
    holds, or on any other argument, is dropped (nothing known of it); one
    on a bool parameter given a caller's non-bool parameter q is on
    q != 0, what the bool receives."""
    out = set()
    for c in guard:
        i = c[0]
        if i in lits:
            v = lits[i]
            if i in bools:
                v = 1 if v else 0
            if not holds(c, v):
                return None
            continue
        q = shape.get(i)
        if q is None:
            continue
        if i in bools and q not in caller_bools:
            t, f = holds(c, 1), holds(c, 0)
            if not t and not f:
                return None
            if t != f:
                out.add((q, 'nz' if t else 'z', 0))
            continue
        out.add((q, c[1], c[2]))
    return tuple(sorted(out))


def excluded(guard, lits, bools=()):
    """GUARD cannot hold for a call with the literal arguments LITS
    ({index: value}); BOOLS: the indexes of bool parameters (a literal
    given to one is 0 or 1)."""
    return passed_on(guard, lits, {}, bools, ()) is None


def params(ptext):
    """[(name or None, is bool)] of a parameter list's text."""
    from sleepclass import split_args
    out = []
    for p in split_args(ptext):
        p = re.sub(r'\[[^\]]*\]', '', p).strip()
        if '(' in p or p in ('void', '...', ''):
            out.append((None, False))
            continue
        words = re.findall(r'[A-Za-z_]\w*|\*', p)
        if len(words) < 2 or words[-1] == '*' or words[-1] in ('const', 'volatile'):
            out.append((None, False))
            continue
        is_bool = '*' not in words and ('bool' in words[:-1] or '_Bool' in words[:-1])
        out.append((words[-1], is_bool))
    return out


class _Parser:
    """Statements of one function body: records (start, end, guard) of the
    stretches of source that are reached only when GUARD holds."""

    def __init__(self, toks, pidx, consts=None):
        self.t = toks
        self.pidx = pidx        # parameter name -> index, unmodified ones only
        self.consts = consts or {}  # named constant -> value (file_constants())
        self.spans = []
        self.after = {}         # index of an early-exit `if` -> guard of what follows it

    def tok(self, i):
        return self.t[i][0] if i < len(self.t) else ''

    def match(self, i, o, c):
        """Index of the token closing the O at I."""
        d = 0
        for j in range(i, len(self.t)):
            x = self.t[j][0]
            if x == o:
                d += 1
            elif x == c:
                d -= 1
                if d == 0:
                    return j
        raise _Unknown()

    def block(self, i):
        """The compound statement at I ('{'). Returns (index after it,
        exits, labels, cases)."""
        j = i + 1
        labels = cases = False
        exits = False
        items = []
        while self.tok(j) != '}':
            if j >= len(self.t):
                raise _Unknown()
            k, ex, lb, cs = self.stmt(j)
            items.append((j, k, ex, lb, cs))
            j = k
            labels, cases, exits = labels or lb, cases or cs, ex
        end = self.t[j][1]
        # the statements after an early exit `if (C) return;`: reached
        # only when C is false, unless a label among them lets a jump in
        for n, (a, k, ex, lb, cs) in enumerate(items):
            g = self.after.pop(a, None)
            if not g:
                continue
            rest = items[n + 1:]
            if rest and not any(r[3] or r[4] for r in rest):
                self.spans.append((self.t[rest[0][0]][1], end, g))
        return j + 1, exits, labels, cases

    def cond(self, a, b):
        """(then, else) constraints of the condition tokens [A, B)."""
        t = [x[0] for x in self.t[a:b]]
        return _cond(t, self.pidx, self.consts)

    def stmt(self, i):
        """The statement at I: (index after it, always jumps away, has a
        goto label, has an unswitched case label)."""
        x = self.tok(i)
        if x == '{':
            return self.block(i)
        if x == ';':
            return i + 1, False, False, False
        if x == 'if':
            if self.tok(i + 1) != '(':
                raise _Unknown()
            c = self.match(i + 1, '(', ')')
            then_c, else_c = self.cond(i + 2, c)
            s0 = c + 1
            j, tex, tlb, tcs = self.stmt(s0)
            self._span(s0, j, then_c, tlb or tcs)
            eex = elb = ecs = False
            if self.tok(j) == 'else':
                e0 = j + 1
                j, eex, elb, ecs = self.stmt(e0)
                self._span(e0, j, else_c, elb or ecs)
                if tex and not eex:
                    self._mark_after(i, else_c)
                elif eex and not tex:
                    self._mark_after(i, then_c)
            elif tex:
                self._mark_after(i, else_c)
            return j, tex and eex, tlb or elb, tcs or ecs
        if x in ('while', 'switch'):
            if self.tok(i + 1) != '(':
                raise _Unknown()
            c = self.match(i + 1, '(', ')')
            j, ex, lb, cs = self.stmt(c + 1)
            return j, False, lb, cs and x != 'switch'
        if x == 'for':
            if self.tok(i + 1) != '(':
                raise _Unknown()
            c = self.match(i + 1, '(', ')')
            j, ex, lb, cs = self.stmt(c + 1)
            return j, False, lb, cs
        if x == 'do':
            j, ex, lb, cs = self.stmt(i + 1)
            if self.tok(j) != 'while' or self.tok(j + 1) != '(':
                raise _Unknown()
            c = self.match(j + 1, '(', ')')
            if self.tok(c + 1) != ';':
                raise _Unknown()
            return c + 2, False, lb, cs
        if x in ('case', 'default'):
            j = i + 1
            while self.tok(j) != ':':
                if self.tok(j) in ('', ';', '{', '}'):
                    raise _Unknown()
                if self.tok(j) == '(':
                    j = self.match(j, '(', ')')
                j += 1
            k, ex, lb, cs = self.stmt(j + 1) if self.tok(j + 1) != '}' else (j + 1, False,
                                                                           False, False)
            return k, ex, lb, True
        if re.match(r'^[A-Za-z_]\w*$', x) and x not in KEYWORDS and self.tok(i + 1) == ':':
            k, ex, lb, cs = self.stmt(i + 2) if self.tok(i + 2) != '}' else (i + 2, False,
                                                                           False, False)
            return k, ex, True, cs
        if x in ('else', '}', ''):
            raise _Unknown()
        jump = x in ('return', 'goto', 'break', 'continue')
        # an iterator macro: NAME(...) { ... } or NAME(...) STATEMENT
        if re.match(r'^[A-Za-z_]\w*$', x) and x not in KEYWORDS and self.tok(i + 1) == '(':
            c = self.match(i + 1, '(', ')')
            if self.tok(c + 1) == '{':
                j, ex, lb, cs = self.block(c + 1)
                return j, False, lb, cs
        # an expression or declaration statement, to its ';'
        j = i
        while True:
            y = self.tok(j)
            if y == ';':
                return j + 1, jump, False, False
            if y in ('(', '['):
                j = self.match(j, y, ')' if y == '(' else ']')
            elif y == '{':
                # an initializer, or a compound literal
                if self.tok(j - 1) not in ('=', ',', ')'):
                    raise _Unknown()
                j = self.match(j, '{', '}')
            elif y in ('}', '', 'if', 'while', 'for', 'do', 'switch', 'else'):
                raise _Unknown()
            j += 1

    def _span(self, a, b, constraints, labelled):
        if constraints and not labelled and b > a:
            self.spans.append((self.t[a][1], self.t[b - 1][1] + 1, tuple(constraints)))

    def _mark_after(self, i, constraints):
        if constraints:
            self.after[i] = tuple(constraints)


def _strip(t):
    while len(t) >= 2 and t[0] == '(' and _closes_at_end(t):
        t = t[1:-1]
    return t


def _closes_at_end(t):
    d = 0
    for n, x in enumerate(t):
        if x == '(':
            d += 1
        elif x == ')':
            d -= 1
            if d == 0:
                return n == len(t) - 1
    return False


def _split(t, op):
    out, cur, d = [], [], 0
    for x in t:
        if x in ('(', '['):
            d += 1
        elif x in (')', ']'):
            d -= 1
        if x == op and d == 0:
            out.append(cur)
            cur = []
        else:
            cur.append(x)
    out.append(cur)
    return out


def _top(t):
    d, out = 0, set()
    for x in t:
        if x in ('(', '['):
            d += 1
        elif x in (')', ']'):
            d -= 1
        elif d == 0:
            out.add(x)
    return out


def _value(x, consts):
    """The value of the literal or named constant X, or None."""
    v = literal(x)
    return consts.get(x) if v is None else v


def _bit(t, pidx, consts):
    """(parameter index, mask) of the bit test T, `p & M` or `M & p`, M a
    literal or named constant; else None."""
    if len(t) != 3 or t[1] != '&':
        return None
    a, b = t[0], t[2]
    if b in pidx and a not in pidx:
        a, b = b, a
    m = _value(b, consts) if a in pidx else None
    return None if m is None else (pidx[a], m)


def _cond(t, pidx, consts):
    """(constraints that hold when the condition T is true, those that
    hold when it is false): conjunctions, [] when nothing is known."""
    t = _strip(t)
    if not t:
        return [], []
    top = _top(t)
    if top & ({'?', ':', ','} | ASSIGN_OPS):
        return [], []
    if '||' in top:
        out = []
        for p in _split(t, '||'):
            out += _cond(p, pidx, consts)[1]
        return [], out
    if '&&' in top:
        out = []
        for p in _split(t, '&&'):
            out += _cond(p, pidx, consts)[0]
        return out, []
    if t[0] == '!':
        r = t[1:]
        if len(r) == 1 or (r[0] == '(' and _closes_at_end(r)) or \
                (r[0] == '!' and len(r) == 2):
            a, b = _cond(r, pidx, consts)
            return b, a
        return [], []
    if t[0] in TRANSPARENT and len(t) > 2 and t[1] == '(' and _closes_at_end(t[1:]):
        return _cond(t[2:-1], pidx, consts)
    if len(t) == 1 and t[0] in pidx:
        i = pidx[t[0]]
        return [(i, 'nz', 0)], [(i, 'z', 0)]
    bit = _bit(t, pidx, consts)
    if bit:
        return [(bit[0], 'band', bit[1])], [(bit[0], 'nband', bit[1])]
    if len(t) == 3 and t[1] in ('==', '!='):
        a, b = t[0], t[2]
        if b in pidx and _value(a, consts) is not None:
            a, b = b, a
        if a in pidx and _value(b, consts) is not None:
            i, v = pidx[a], _value(b, consts)
            eq, ne = [(i, 'eq', v)], [(i, 'ne', v)]
            return (eq, ne) if t[1] == '==' else (ne, eq)
    # (p & M) == 0, (p & M) != 0, either side: `==` binds tighter than
    # `&`, so the test must be in parentheses of its own
    if '==' in top or '!=' in top:
        for k, x in enumerate(t):
            if x in ('==', '!=') and (k == 1 or k == len(t) - 2):
                side, zero = (t[:k], t[k + 1:]) if k == len(t) - 2 else (t[k + 1:], t[:k])
                if len(zero) != 1 or _value(zero[0], consts) != 0 or \
                        side[0] != '(' or not _closes_at_end(side):
                    break
                bit = _bit(_strip(side), pidx, consts)
                if bit:
                    z, nz = [(bit[0], 'nband', bit[1])], [(bit[0], 'band', bit[1])]
                    return (z, nz) if x == '==' else (nz, z)
                break
    return [], []


def _binary_and(toks, n):
    """The '&' at N of TOKS is the binary operator: an identifier (not a
    keyword), a number or a ']' before it. After a ')' it may be a cast's
    address-of, `(T *)&p`: taken as one."""
    p = toks[n - 1][0] if n else ''
    return (re.match(r'^[A-Za-z_]\w*$', p) and p not in KEYWORDS) or \
        re.match(r'^\.?\d', p) is not None or p == ']'


def _unmodified(toks, names, macros=frozenset()):
    """(the NAMES that the body TOKS never assigns, increments, takes the
    address of or declares again, {name: the names of the calls it is
    given to bare}): a call given it bare may be a macro that assigns it
    (swap()), or a function, which cannot; the caller decides. A bare
    argument of a call through an expression (`(*fn)(p)`, a cast before
    parentheses) or of a function-like macro of the file (MACROS)
    counts as assigned."""
    out = set(names)
    bare = {}
    opens = []      # for each open '(': the name before it, or ''
    for n, (x, _) in enumerate(toks):
        if x == '(':
            p = toks[n - 1][0] if n else ''
            opens.append(p if re.match(r'^[A-Za-z_]\w*$', p) or p == ')' else '')
            continue
        if x == ')':
            if opens:
                opens.pop()
            continue
        if x not in out:
            continue
        prev = toks[n - 1][0] if n else ''
        nxt = toks[n + 1][0] if n + 1 < len(toks) else ''
        if prev in ('.', '->'):
            continue            # a member of that name
        if nxt in ('->', '.', '['):
            continue            # what it points to (&p->f, p->f = x): not p
        if nxt in ASSIGN_OPS or prev in ('++', '--') or \
                (prev == '&' and not _binary_and(toks, n - 1)):
            out.discard(x)
        elif re.match(r'^[A-Za-z_]\w*$', prev) and prev not in KEYWORDS:
            out.discard(x)      # declared again (a type before it)
        elif prev == '*' and n >= 2 and re.match(r'^[A-Za-z_]\w*$', toks[n - 2][0]) and \
                toks[n - 2][0] not in KEYWORDS:
            out.discard(x)      # perhaps `T *x` declared again
        elif prev == '(' and nxt == ')' and opens and not opens[-1] and n >= 2 and \
                (toks[n - 2][0] in ('(', ',', '++', '--', '&') or
                 (n + 2 < len(toks) and toks[n + 2][0] in ASSIGN_OPS)):
            out.discard(x)      # (p) = v, &(p), (p)++, or f((p)): as p
        elif prev in ('(', ',') and nxt in (')', ',') and opens and opens[-1] and \
                opens[-1] not in READERS and not PRINTS_RE.match(opens[-1]):
            if opens[-1] == ')' or opens[-1] in KEYWORDS or opens[-1] in macros:
                out.discard(x)
            else:
                bare.setdefault(x, set()).add(opens[-1])    # bare argument of a call
    return out, {x: c for x, c in bare.items() if x in out}


def _passes(toks, pidx):
    """[(offset, name, {argument index: parameter index})] of the calls
    NAME(...) of TOKS (a body), with the arguments that are parameters of
    PIDX ({name: index}) given bare (none for most)."""
    out = []
    for n in range(len(toks) - 1):
        x = toks[n][0]
        if toks[n + 1][0] != '(' or x in KEYWORDS or not re.match(r'^[A-Za-z_]\w*$', x):
            continue
        if n and toks[n - 1][0] in ('.', '->'):
            continue        # a call through a member
        shape, arg, cur, d = {}, 0, [], 0
        for k in range(n + 2, len(toks)):
            y = toks[k][0]
            if y in ('(', '[', '{'):
                d += 1
            elif y in (')', ']', '}'):
                if d == 0:
                    break
                d -= 1
            if d == 0 and y == ',':
                if len(cur) == 1 and cur[0] in pidx:
                    shape[arg] = pidx[cur[0]]
                arg, cur = arg + 1, []
                continue
            cur.append(y)
        else:
            continue
        if len(cur) == 1 and cur[0] in pidx:
            shape[arg] = pidx[cur[0]]
        out.append((toks[n][1], x, shape))
    return out


_PP_RE = re.compile(r'^[ \t]*#', re.M)
_IF_RE = re.compile(r'\bif\s*\(([^;{]*)')
_IDENT_RE = re.compile(r'[A-Za-z_]\w*')
_BARE_RE = re.compile(r'[(,]\s*([A-Za-z_]\w*)(?=\s*[,)])')
_BODY_START_RE = re.compile(r'//[^\n]*|/\*.*?(?:\*/|\Z)|[{;=]', re.S)


# Brackets, with comments, strings and character constants skipped.
_SKIP = r'//[^\n]*|/\*.*?(?:\*/|\Z)|"(?:\\.|[^"\\\n])*"?|\'(?:\\.|[^\'\\\n])*\'?'
_BRACKET_RE = {'(': re.compile(_SKIP + r'|[()]', re.S), '{': re.compile(_SKIP + r'|[{}]', re.S)}
_CLOSER = {'(': ')', '{': '}'}


def _close(text, i, opener):
    """Offset of the bracket closing the first OPENER ('(' or '{') at or
    after I of TEXT (comments, strings and character constants skipped),
    or None."""
    d = 0
    for m in _BRACKET_RE[opener].finditer(text, i):
        t = m.group()
        if t == opener:
            d += 1
        elif t == _CLOSER[opener]:
            d -= 1
            if d == 0:
                return m.start()
    return None


def _close_paren(text, i):
    """Offset of the ')' closing the '(' at I of TEXT, or None."""
    return _close(text, i, '(')


def function_guards(text, name_off, name, consts=None, macros=frozenset()):
    """([(start, end, guard)], [(name, is bool)], {index: [names]},
    [(offset, name, {argument index: parameter index})]): the stretches
    of the body of the function whose name is at NAME_OFF of TEXT that are
    reached only when GUARD holds; its parameters; for each parameter the
    guards and passes read as unmodified, the names of the calls it is
    given bare to (_unmodified(): what is read of it holds only if they
    are all functions); the calls of the body, with the arguments that
    are such parameters (_passes()). CONSTS: file_constants() of TEXT, for
    the masks and values of the tests; MACROS: file_macros() of TEXT.
    Nothing when the body is not read: a preprocessor directive in it, a
    shape this module does not know, no parameter that the body tests or
    passes on and never modifies."""
    from sleepclass import paren_text
    i = name_off + len(name)
    ptext = paren_text(text, i)
    if ptext is None:
        return [], [], {}, []
    ps = params(ptext)
    none = [], ps, {}, []
    # attributes (__acquires(x), __must_hold(x)) may come before the body;
    # a ';' or '=' first: a prototype, a K&R definition, not read
    k = _close_paren(text, text.index('(', i))
    if k is None:
        return none
    for m in _BODY_START_RE.finditer(text, k + 1):
        if m.group() in ('{', ';', '='):
            break
    else:
        return none
    if m.group() != '{':
        return none
    start = m.start()
    end = _body_end(text, start)
    if end is None:
        return none
    if _PP_RE.search(text, start, end):
        return none
    names = {p: n for n, (p, _) in enumerate(ps) if p}
    if not names:
        return none
    # cheap first: no parameter in what may be the condition of an if
    # (up to the first ';' or '{' after it), nor given bare to a call: no
    # guard, no pass
    if not any(set(_IDENT_RE.findall(c)) & names.keys()
               for c in _IF_RE.findall(text, start, end)) and \
            not any(m.group(1) in names for m in _BARE_RE.finditer(text, start, end)):
        return none
    body = tokens(text, start, end + 1)
    used = set(x for (x, _) in body if x in names)
    ok, bare = _unmodified(body, used, macros) if used else (set(), {})
    if not ok:
        return none
    pidx = {x: names[x] for x in ok}
    p = _Parser(body, pidx, constants_before(consts or {}, start))
    try:
        j, _, _, _ = p.block(0)
    except (_Unknown, RecursionError):
        return none
    if j != len(body):
        return none
    passes = _passes(body, pidx)
    if not p.spans and not any(x[2] for x in passes):
        return none
    return p.spans, ps, {names[x]: sorted(c) for x, c in bare.items()}, passes


def _body_end(text, start):
    """Offset of the '}' closing the first '{' from START of TEXT, or None."""
    return _close(text, start, '{')
