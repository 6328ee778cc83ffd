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
                          r'|_nofault$|^try_wait_for_completion$)')

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


def gfp_reclaims(arg):
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
