# SPDX-License-Identifier: GPL-2.0-only
"""Which calls sleep by themselves: the one classification that the rules
(sleep_in_atomic.cocci, through PYTHONPATH) and the whole-tree closure
(sleepfacts.py) share. Plain python 3, no spatch."""

import re

SLEEP_RE = re.compile(r'^(?:'
    r'mutex_lock(?:_interruptible|_killable|_io)?(?:_nested)?'
    r'|rt_mutex_lock(?:_interruptible|_killable|_nested)?'
    r'|down(?:_interruptible|_killable|_timeout)?'
    r'|down_(?:read|write)(?:_interruptible|_killable)?(?:_nested|_non_owner)?'
    r'|might_sleep(?:_if)?|__might_sleep|might_fault|cond_resched'
    r'|msleep(?:_interruptible)?|ssleep|fsleep|usleep_range(?:_state|_idle)?'
    r'|schedule|schedule_timeout(?:_interruptible|_killable|_uninterruptible|_idle)?'
    r'|schedule_hrtimeout(?:_range)?|schedule_preempt_disabled|io_schedule(?:_timeout)?'
    r'|wait_event\w*|wait_for_completion\w*'
    r'|(?:__)?copy_(?:to|from)_user\w*|copy_struct_from_user|(?:__)?clear_user'
    r'|strncpy_from_user|strnlen_user|(?:__)?get_user|(?:__)?put_user'
    r'|mmap_(?:read|write)_lock(?:_killable|_interruptible)?'
    r'|vm_insert_pages?|vm_map_pages(?:_zero)?'
    r'|zap_vma_range|zap_page_range_single|zap_vma_ptes'
    r'|get_user_pages\w*|pin_user_pages\w*'
    r'|kvfree(?:_sensitive)?|vfree|vmap|vunmap'
    # the allocating vmalloc family only: vmalloc_to_page(),
    # vmalloc_dump_obj() and the like do not sleep
    r'|vmalloc(?:_(?:user|node|32|32_user|huge|huge_node|array|exec))?(?:_noprof)?'
    r'|vzalloc(?:_node)?(?:_noprof)?|__vmalloc(?:_node|_node_range|_array)?(?:_noprof)?'
    r'|synchronize_(?:rcu\w*|srcu\w*|net|irq|sched)|rcu_barrier\w*'
    r'|disable_irq|request_irq|request_threaded_irq|free_irq'
    r'|mmput'
    r')$')

# Never sleepers, whatever the lists above or the closure say.
NOT_SLEEP_RE = re.compile(r'(?:trylock|^cond_resched_lock$|^mmput_async$'
                          r'|_fast_only$|^vfree_atomic$|^disable_irq_nosync$'
                          r'|_nofault$|^try_wait_for_completion$'
                          # read a GFP, allocate nothing
                          r'|^gfp_zone$|^node_zonelist$|^gfp_migratetype$'
                          r'|^gfpflags_allow_blocking$|^(first|next)_zones_zonelist$)')

# Sleep only when their argument says so: a direct call of them counts
# (SLEEP_RE), but a function does not sleep just because its body has one;
# the GFP rule below decides at its callers.
CONDITIONAL = frozenset(['might_sleep_if', 'might_alloc'])

# GFP flags that allow direct reclaim.
GFP_RECLAIM_RE = re.compile(r'\b(GFP_KERNEL|GFP_KERNEL_ACCOUNT|GFP_USER|GFP_HIGHUSER'
                            r'|GFP_HIGHUSER_MOVABLE|GFP_NOIO|GFP_NOFS|GFP_TRANSHUGE'
                            r'|__GFP_RECLAIM|__GFP_DIRECT_RECLAIM)\b')
GFP_MASKED_RE = re.compile(r'~\s*\(?\s*(__GFP_RECLAIM|__GFP_DIRECT_RECLAIM)\b')

# In the 7.2 include/linux/slab.h: k{m,z,vm,vz}alloc_{obj,objs,flex}(V[, COUNT|FAM, COUNT][, GFP]);
# the GFP is optional and defaults to GFP_KERNEL (default_gfp() in gfp.h).
OBJ_HELPER_RE = re.compile(r'^k(?:m|z|vm|vz)alloc_(obj|objs|flex)$')
OBJ_MIN_ARGS = {'obj': 1, 'objs': 2, 'flex': 3}


def load_outside(path):
    """sleepers.txt: names and prefixes ('*' suffix), '#' comments."""
    names, prefixes = set(), []
    if not path:
        return names, prefixes
    with open(path) as f:
        for line in f:
            line = line.split(chr(35), 1)[0].strip()
            if not line:
                continue
            if line.endswith('*'):
                prefixes.append(line[:-1])
            else:
                names.add(line)
    return names, prefixes


def split_args(s):
    """Split spatch's printing of an argument list at top-level commas."""
    args, depth, cur = [], 0, ''
    for ch in s:
        if ch in '([{':
            depth += 1
        elif ch in ')]}':
            depth -= 1
        if ch == ',' and depth == 0:
            args.append(cur.strip())
            cur = ''
        else:
            cur += ch
    if cur.strip():
        args.append(cur.strip())
    return args


def squash(s):
    return re.sub(r'\s+', '', s)


NESTED_CALL_RE = re.compile(r'\b\w+\s*\([^()]*\)')


def gfp_reclaims(arg):
    """ARG is a GFP that allows direct reclaim. A GFP given to a call
    inside the argument is that call's (first_zones_zonelist(
    node_zonelist(nid, GFP_HIGHUSER), gfp_zone(GFP_HIGHUSER), ...) picks
    a zone: mm/mempolicy.c mpol_misplaced())."""
    prev = None
    while prev != arg:
        prev, arg = arg, NESTED_CALL_RE.sub('_', arg)
    return bool(GFP_RECLAIM_RE.search(arg)) and not GFP_MASKED_RE.search(arg)


def direct_sleeper(name, args, lock, outside):
    """Why NAME(ARGS) may sleep with LOCK held, or None. OUTSIDE is
    load_outside()'s (names, prefixes)."""
    if NOT_SLEEP_RE.search(name):
        return None
    a = split_args(args)
    m = OBJ_HELPER_RE.match(name)
    if m:
        if len(a) <= OBJ_MIN_ARGS[m.group(1)]:
            return 'GFP_KERNEL'
        return 'gfp' if gfp_reclaims(a[-1]) else None
    # Waits that drop the lock they are given: fine under that lock only.
    if name.startswith('wait_event') and ('_lock_irq' in name or '_locked' in name):
        if lock is not None:
            held = squash(lock).lstrip('&')
            if any(held == squash(x).lstrip('&') or held.startswith(squash(x).lstrip('&') + '.')
                   for x in a):
                return None
        return 'direct'
    if SLEEP_RE.match(name):
        return 'direct'
    names, prefixes = outside
    if name in names or any(name.startswith(p) for p in prefixes):
        return 'list'
    if any(gfp_reclaims(x) for x in a):
        return 'gfp'
    return None


# Arguments and parameters read from the source (spatch gives the place of
# the name; printing a bound expression list costs more than the match).

def line_starts(text):
    """Offsets of the lines of TEXT (text decoded as latin-1: spatch's
    columns count bytes)."""
    out, i = [0], text.find('\n')
    while i >= 0:
        out.append(i + 1)
        i = text.find('\n', i + 1)
    return out


# comments, line continuations, strings, character constants, parentheses
_PT_RE = re.compile(r'/\*.*?(?:\*/|\Z)|//[^\n]*|\\\n|"(?:\\.|[^"\\\n])*"?|\'(?:\\.|[^\'\\\n])*\'?|[()]', re.S)


def paren_text(text, i):
    """The text between the '(' at or after offset I (blanks skipped) and
    its ')', comments dropped and blanks collapsed; None when there is no
    '(' there or it is not closed."""
    n = len(text)
    while i < n and text[i] in ' \t\n\\':
        i += 1
    if i >= n or text[i] != '(':
        return None
    depth, out, j = 0, [], i + 1
    for m in _PT_RE.finditer(text, i):
        t = m.group()
        if t == '(':
            depth += 1
            if depth == 1:
                continue
        elif t == ')':
            depth -= 1
            if depth == 0:
                out.append(text[j:m.start()])
                return ' '.join(''.join(out).split())
            continue
        elif t[0] == '/' or t[0] == '\\':
            out.append(text[j:m.start()])
            out.append(' ')
            j = m.end()
            continue
    return None


def name_offset(text, starts, line, col, name):
    """Offset of NAME at LINE (1-based), COL (0-based) of TEXT; else of its
    first occurrence on that line; None when it is not there."""
    if not 1 <= line <= len(starts):
        return None
    i = starts[line - 1] + col
    if text.startswith(name, i):
        return i
    end = starts[line] if line < len(starts) else len(text)
    m = re.compile(r'\b%s\b' % re.escape(name)).search(text, starts[line - 1], end)
    return m.start() if m else None


_NAME_RE = re.compile(r'[A-Za-z_]\w*')


def name_at(text, starts, line, col):
    """The identifier at LINE (1-based), COL (0-based) of TEXT; '' when
    there is none."""
    if not 1 <= line <= len(starts):
        return ''
    i = starts[line - 1] + col
    m = _NAME_RE.match(text, i)
    return m.group() if m and (i == 0 or not (text[i - 1].isalnum() or text[i - 1] == '_')) else ''


def call_args(text, starts, line, col, name):
    """The arguments of the call of NAME at LINE, COL, as one line of text
    ('' when they cannot be read)."""
    i = name_offset(text, starts, line, col, name)
    if i is None:
        return ''
    return paren_text(text, i + len(name)) or ''


GFP_PARAM_RE = re.compile(r'^(?:const\s+)?gfp_t(?:\s+\w+)+$')


def def_info(text, starts, line, col, name):
    """(static, has a gfp_t parameter) of the definition of NAME whose
    name is at LINE, COL: 'static' among the words before the name, back
    to the previous ';', brace, comment end or preprocessor line."""
    i = name_offset(text, starts, line, col, name)
    if i is None:
        return False, False
    params = paren_text(text, i + len(name)) or ''
    gfp = any(GFP_PARAM_RE.match(p) for p in split_args(params))
    before, ln = [], line
    head = text[starts[ln - 1]:i]
    while True:
        s = head.split('//', 1)[0]
        if s.lstrip().startswith('#'):
            break
        k = s.rfind('*/')
        cut = max(s.rfind(';'), s.rfind('{'), s.rfind('}'), k + 1 if k >= 0 else -1)
        if cut >= 0:
            before.append(s[cut + 1:])
            break
        before.append(s)
        ln -= 1
        if ln < 1 or line - ln > 10:
            break
        end = starts[ln] - 1
        head = text[starts[ln - 1]:end]
    return bool(re.search(r'\bstatic\b', ' '.join(before))), gfp
