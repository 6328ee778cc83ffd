# SPDX-License-Identifier: GPL-2.0-only
"""Correlated conditions: a lock taken under `if (C)` and dropped under the
same `if (C)`, where C cannot change between the two. The path rules do
not evaluate conditions, so they also follow the path that takes the
lock (C true) and skips the unlock (C false), and report every sleeping
call after it (7.2.13 mm/khugepaged.c retract_page_tables(), ipmi's
handle_new_recv_msgs()). run-sleep-check gives the rules a copy of the
file in which those `if (C)` are blanked: every lock operation of the
group runs unconditionally.

That removes only paths on which C would differ between two tests of
it, and keeps every finding of the consistent ones: with all tests true
the copy is the same code; with all false, the lock is never held, and
the copy's path with it held has every other lock of the original path
(each blanked statement is the one lock call, nothing else). So a group
is rewritten only when all of this holds, else the function is left as
it is (cocci/README.md, "Correlated conditions"):

- every lock, trylock and unlock call on the lock expression L in the
  function is the whole statement of an `if (C)` without else (or the
  one statement of its braces), the same C token for token, not an
  `else if`, each such `if` a statement of a block (not the body of an
  unbraced loop or if);
- the group has a lock and an unlock call and no trylock;
- C is made of identifiers, literals, `!`, `==`, `!=`, `&&`, `||` and
  parentheses, each identifier a parameter or a local of the function
  (no global, no member, no call: their value may change behind the
  function's back);
- C cannot change where it matters, either (A) nowhere: no identifier
  of C is assigned, incremented, has its address taken or is given bare
  to a call (a macro may assign it; a lock call's lock excepted)
  anywhere in the body, but in its own declaration; or (B) not while L
  may be held: every call of the group is a statement of the same
  block, in the order lock, unlock, lock, unlock, ..., ending with an
  unlock, and from the first to the last there is no assignment of C's
  identifiers (as in A), no jump (`goto`, `return`, `break`, `continue`)
  and no label.

A function body with a preprocessor directive is not read (the lock
calls may differ per configuration)."""

import re

import sleepcond

LOCK_OP = re.compile(r'^(?:raw_)?(?:spin|read|write)_(try)?(un)?lock\w*$|^pte_unmap_unlock$')
_ID = re.compile(r'^[A-Za-z_]\w*$')
_COND_OK = frozenset(['!', '==', '!=', '&&', '||', '(', ')'])
_JUMPS = frozenset(['goto', 'return', 'break', 'continue'])


def _kind(name):
    """'lock', 'unlock', 'try' for a lock call's NAME, else None."""
    m = LOCK_OP.match(name)
    if not m:
        return None
    if name == 'pte_unmap_unlock':
        return 'unlock'
    if m.group(1):
        return 'try'
    return 'unlock' if m.group(2) else 'lock'


def _match(t, i, o, c):
    d = 0
    for j in range(i, len(t)):
        if t[j] == o:
            d += 1
        elif t[j] == c:
            d -= 1
            if d == 0:
                return j
    return None


def _lock_expr(t, a, b):
    """The first argument of the call whose '(' is at A and ')' at B,
    '&' and parentheses around it dropped, as a key."""
    arg, d = [], 0
    for x in t[a + 1:b]:
        if x in ('(', '['):
            d += 1
        elif x in (')', ']'):
            d -= 1
        elif x == ',' and d == 0:
            break
        arg.append(x)
    while arg and arg[0] == '&':
        arg = arg[1:]
    while len(arg) >= 2 and arg[0] == '(' and _match(arg, 0, '(', ')') == len(arg) - 1:
        arg = arg[1:-1]
    return ' '.join(arg)


def _declared(t):
    """The names the body T (tokens) declares: `TYPE NAME` followed by
    '=', ';', ',' or '['."""
    out = set()
    for n in range(1, len(t) - 1):
        x = t[n]
        if not _ID.match(x) or x in sleepcond.KEYWORDS or t[n + 1] not in ('=', ';', ',', '['):
            continue
        k = n - 1
        while t[k] == '*' and k > 0:
            k -= 1
        if _ID.match(t[k]) and t[k] not in sleepcond.KEYWORDS:
            out.add(x)
        elif t[k] == ',':
            # `TYPE a, *b;`: the statement starts with a type and a name
            d = 0
            while k > 0 and not (d == 0 and t[k - 1] in (';', '{', '}')):
                d += t[k] in (')', ']') and 1 or t[k] in ('(', '[') and -1 or 0
                if d < 0:
                    break
                k -= 1
            if d == 0 and _ID.match(t[k]) and t[k] not in sleepcond.KEYWORDS and \
                    (_ID.match(t[k + 1]) or t[k + 1] == '*'):
                out.add(x)
    return out


def _modified(t, names, a=0, b=None):
    """The NAMES modified in the tokens T[A:B] (sleepcond's reading: an
    assignment, ++/--, '&', a bare argument of a call other than the
    readers), a declaration `TYPE NAME = ...` not counted."""
    b = len(t) if b is None else b
    out = set()
    opens = []
    for n in range(a, b):
        x = t[n]
        if x == '(':
            p = t[n - 1] if n else ''
            opens.append(p if _ID.match(p) or p == ')' else '')
            continue
        if x == ')':
            if opens:
                opens.pop()
            continue
        if x not in names:
            continue
        prev = t[n - 1] if n else ''
        nxt = t[n + 1] if n + 1 < len(t) else ''
        if prev in ('.', '->') or nxt in ('->', '.', '['):
            continue
        decl = _ID.match(prev) and prev not in sleepcond.KEYWORDS
        if nxt in sleepcond.ASSIGN_OPS and not (decl and nxt == '='):
            out.add(x)
        elif prev in ('++', '--', '&'):
            out.add(x)
        elif prev in ('(', ',') and nxt in (')', ',') and opens and opens[-1] and \
                opens[-1] not in sleepcond.READERS and not sleepcond.PRINTS_RE.match(opens[-1]) \
                and not (prev == '(' and _kind(opens[-1])):
            out.add(x)          # a lock call does not assign its lock
    return out


def blanks(text, start, end, ptext):
    """[(a, b)] offsets of TEXT to blank: the `if (C)` of each correlated
    group of the function body TEXT[START:END] ('{' to '}' included),
    PTEXT its parameter list's text (None when not known)."""
    if sleepcond._PP_RE.search(text, start, end):
        return []
    toks = sleepcond.tokens(text, start, end)
    t = [x for (x, _) in toks]
    # every lock call: (index of its name, kind, lock expression)
    ops = []
    for n in range(len(t) - 1):
        k = _kind(t[n])
        if k and t[n + 1] == '(' and (n == 0 or t[n - 1] not in ('.', '->')):
            c = _match(t, n + 1, '(', ')')
            if c is None:
                return []
            ops.append((n, k, _lock_expr(t, n + 1, c)))
    if not ops:
        return []
    # the block each token is a direct part of (index of its '{')
    owner, stack = [None] * len(t), []
    for n, x in enumerate(t):
        owner[n] = stack[-1] if stack else None
        if x == '{':
            stack.append(n)
        elif x == '}' and stack:
            stack.pop()
    # the guarded ones: op index -> (index of 'if', end of the ')' of C, C)
    guarded = {}
    for n in range(len(t) - 1):
        if t[n] != 'if' or t[n + 1] != '(':
            continue
        if n == 0 or t[n - 1] not in (';', '{', '}'):
            continue
        c = _match(t, n + 1, '(', ')')
        if c is None:
            return []
        s = c + 1
        brace = t[s:s + 1] == ['{']
        if brace:
            s += 1
        if not (s < len(t) and _kind(t[s]) and t[s + 1:s + 2] == ['(']):
            continue
        e = _match(t, s + 1, '(', ')')
        if e is None or t[e + 1:e + 2] != [';']:
            continue
        e += 2
        if brace:
            if t[e:e + 1] != ['}']:
                continue
            e += 1
        if t[e:e + 1] == ['else']:
            continue
        guarded[s] = (n, c, tuple(t[n + 2:c]))
    params = set()
    if ptext is not None:
        params = set(p for (p, _) in sleepcond.params(ptext) if p)
    local = _declared(t) | params
    out = []
    for lock in sorted(set(op[2] for op in ops)):
        mine = [op for op in ops if op[2] == lock]
        if not all(op[0] in guarded for op in mine):
            continue
        conds = set(guarded[op[0]][2] for op in mine)
        kinds = [op[1] for op in mine]
        if len(conds) != 1 or 'try' in kinds or 'lock' not in kinds or 'unlock' not in kinds:
            continue
        cond = conds.pop()
        names = set(x for x in cond if _ID.match(x) and x not in ('NULL', 'true', 'false'))
        if not names or not names <= local or \
                any(x not in _COND_OK and not _ID.match(x) and
                    sleepcond.literal(x) is None for x in cond):
            continue
        ifs = [guarded[op[0]][0] for op in mine]
        if not _modified(t, names):
            ok = True                                   # (A)
        else:                                           # (B)
            a, b = ifs[0], mine[-1][0]
            ok = len(set(owner[i] for i in ifs)) == 1 and \
                kinds == ['lock', 'unlock'] * (len(kinds) // 2) and \
                not _modified(t, names, a, b) and \
                not any(x in _JUMPS for x in t[a:b]) and \
                not any(_ID.match(t[n]) and t[n] not in sleepcond.KEYWORDS and
                        t[n + 1] == ':' and t[n - 1] in (';', '{', '}')
                        for n in range(a, b))
        if ok:
            for op in mine:
                i, c, _ = guarded[op[0]]
                out.append((toks[i][1], toks[c][1] + 1))
    return sorted(out)
