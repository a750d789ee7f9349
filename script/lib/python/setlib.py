"""The hash table of sets, written in the compiled subset: CPython's own (Objects/setobject.c,
3.11), so that a compiled set iterates, prints and pops in CPython's order.

A set is the two lists of its `HashType` (as a dict is, dictlib.py), laid out as CPython's
`PySetObject`: `index` is ``[used, fill, finger, state_0, ..., state_mask]`` and `entries`
the table itself, ``entries[i] = (hash, key)`` for slot i of a power-of-two table of at
least 8 slots. A slot's state is EMPTY (its entry is stale or undefined: never read), DUMMY
(a deleted element, as CPython's `dummy` key) or ACTIVE. `used` counts the active slots,
`fill` the active and dummy ones, `finger` is where `pop` starts looking. `h` is always
the element's CPython hash (the `pyhash` op: never -1), computed by the caller.

The algorithms are CPython's, step for step, because the order of a set is the order of its
slots and so depends on every detail: probing (LINEAR_PROBES = 9 neighbours when they fit
before the end of the table, then ``perturb >>= 5; i = (i * 5 + 1 + perturb) & mask`` with
`perturb` the hash as an unsigned word), an insertion into the *last* dummy slot met on the
way to an empty one, a resize when ``fill * 5 >= mask * 3`` to the smallest power of two
above ``used * 4`` (``used * 2`` beyond 50000 elements), re-inserting the active elements in
slot order with no comparison (`_insert_clean`), `set_merge`'s three ways of copying another
set, and the finger of `pop`. The set operations that combine them (which operand is walked
and which copied) are in dict_methods.py. The boxing of a set copies this table into the
`PySetObject`'s and back (backend/runtime/table_boxing.py), so a set crosses the boundary
with its layout.

Elements are read and written with the unchecked `_get`/`_set` (lists.py
`library_method`): every position is within its list by construction.
"""

USED, FILL, FINGER, HEADER = 0, 1, 2, 3
EMPTY, DUMMY, ACTIVE = 0, 1, 2
_MINSIZE = 8
_PERTURB_MASK = 0x07FFFFFFFFFFFFFF      # `perturb >> 5` of an unsigned word, done on an int64


def init(index, entries) -> None:
    """An empty set of 8 slots (`new_table` makes the lists)."""
    index._resize(HEADER + _MINSIZE)
    for i in range(HEADER + _MINSIZE):
        index._set(i, 0)
    entries._resize(_MINSIZE)


def lookkey(index, entries, h: int, key) -> int:
    """The slot holding `key`, or -1 (CPython's set_lookkey)."""
    mask = len(index) - HEADER - 1
    i = h & mask
    perturb = h
    while True:
        probes = 9 if i + 9 <= mask else 0
        j = i
        while True:
            state = index._get(j + HEADER)
            if state == EMPTY:
                return -1
            if state == ACTIVE:
                e = entries._get(j)
                if e[0] == h and e[1] == key:
                    return j
            if probes == 0:
                break
            probes -= 1
            j += 1
        perturb = (perturb >> 5) & _PERTURB_MASK
        i = (i * 5 + 1 + perturb) & mask


def add(index, entries, h: int, key) -> None:
    """`s.add(key)` (CPython's set_add_entry)."""
    mask = len(index) - HEADER - 1
    i = h & mask
    perturb = h
    freeslot = -1
    while True:
        probes = 9 if i + 9 <= mask else 0
        j = i
        while True:
            state = index._get(j + HEADER)
            if state == EMPTY:
                if freeslot >= 0:
                    index._set(freeslot + HEADER, ACTIVE)
                    entries._set(freeslot, (h, key))
                    index._set(USED, index._get(USED) + 1)
                    return
                index._set(j + HEADER, ACTIVE)
                entries._set(j, (h, key))
                used = index._get(USED) + 1
                fill = index._get(FILL) + 1
                index._set(USED, used)
                index._set(FILL, fill)
                if fill * 5 >= mask * 3:
                    resize(index, entries, used * 2 if used > 50000 else used * 4)
                return
            if state == ACTIVE:
                e = entries._get(j)
                if e[0] == h and e[1] == key:
                    return
            else:
                freeslot = j
            if probes == 0:
                break
            probes -= 1
            j += 1
        perturb = (perturb >> 5) & _PERTURB_MASK
        i = (i * 5 + 1 + perturb) & mask


def _insert_clean(index, entries, mask: int, e) -> None:
    """Put the entry `e` of an element not in the table into the first empty slot of its
    probe sequence (a table without dummies: CPython's set_insert_clean)."""
    h = e[0]
    i = h & mask
    perturb = h
    while True:
        if index._get(i + HEADER) == EMPTY:
            index._set(i + HEADER, ACTIVE)
            entries._set(i, e)
            return
        if i + 9 <= mask:
            for j in range(i + 1, i + 10):
                if index._get(j + HEADER) == EMPTY:
                    index._set(j + HEADER, ACTIVE)
                    entries._set(j, e)
                    return
        perturb = (perturb >> 5) & _PERTURB_MASK
        i = (i * 5 + 1 + perturb) & mask


def resize(index, entries, minused: int) -> None:
    """Rebuild the table with the smallest power-of-two size above `minused` (at least 8),
    the active elements re-inserted in slot order and the dummies dropped (set_table_resize)."""
    size = _MINSIZE
    while size <= minused:
        size *= 2
    oldmask = len(index) - HEADER - 1
    used = index._get(USED)
    if size == _MINSIZE and oldmask == _MINSIZE - 1 and index._get(FILL) == used:
        return
    live = [entries._get(i) for i in range(oldmask + 1) if index._get(i + HEADER) == ACTIVE]
    index._resize(size + HEADER)
    for i in range(HEADER, size + HEADER):
        index._set(i, EMPTY)
    entries._resize(size)
    index._set(FILL, used)
    for e in live:
        _insert_clean(index, entries, size - 1, e)


def discard(index, entries, h: int, key) -> bool:
    """Delete `key` (its slot becomes a dummy); whether it was there."""
    j = lookkey(index, entries, h, key)
    if j < 0:
        return False
    index._set(j + HEADER, DUMMY)
    index._set(USED, index._get(USED) - 1)
    return True


def pop_slot(index, entries) -> int:
    """`s.pop()` of a set that is not empty: the slot of the element it removes (still
    readable there), found from the finger on (CPython's set_pop)."""
    mask = len(index) - HEADER - 1
    i = index._get(FINGER) & mask
    while index._get(i + HEADER) != ACTIVE:
        i += 1
        if i > mask:
            i = 0
    index._set(i + HEADER, DUMMY)
    index._set(USED, index._get(USED) - 1)
    index._set(FINGER, i + 1)
    return i


def clear(index, entries) -> None:
    """`s.clear()`: 8 empty slots; the finger stays (set_clear_internal)."""
    index._resize(HEADER + _MINSIZE)
    for i in range(HEADER + _MINSIZE):
        if i != FINGER:
            index._set(i, 0)
    entries._resize(_MINSIZE)


def reserve(index, entries, n: int) -> None:
    """The one resize CPython does before adding the `n` keys of a dict."""
    mask = len(index) - HEADER - 1
    if (index._get(FILL) + n) * 5 >= mask * 3:
        resize(index, entries, (index._get(USED) + n) * 2)


def merge(index, entries, oindex, oentries) -> None:
    """`s |= o` of another set `o` (CPython's set_merge): one resize first, then a copy
    slot for slot when `s` is empty and the tables match, re-insertion without comparisons
    when `s` is empty, else one `add` per element of `o` in its slot order."""
    oused = oindex._get(USED)
    if oused == 0:
        return
    mask = len(index) - HEADER - 1
    if (index._get(FILL) + oused) * 5 >= mask * 3:
        resize(index, entries, (index._get(USED) + oused) * 2)
        mask = len(index) - HEADER - 1
    omask = len(oindex) - HEADER - 1
    if index._get(FILL) == 0 and mask == omask and oindex._get(FILL) == oused:
        for i in range(omask + 1):
            if oindex._get(i + HEADER) == ACTIVE:
                index._set(i + HEADER, ACTIVE)
                entries._set(i, oentries._get(i))
        index._set(FILL, oused)
        index._set(USED, oused)
        return
    if index._get(FILL) == 0:
        index._set(FILL, oused)
        index._set(USED, oused)
        for i in range(omask + 1):
            if oindex._get(i + HEADER) == ACTIVE:
                _insert_clean(index, entries, mask, oentries._get(i))
        return
    for i in range(omask + 1):
        if oindex._get(i + HEADER) == ACTIVE:
            e = oentries._get(i)
            add(index, entries, e[0], e[1])


def take(index, entries, oindex, oentries) -> None:
    """Make `s` hold the table of `o`, a set made for the purpose, keeping its own finger
    (`s &= o` and `intersection_update` compute the intersection, then CPython's
    set_swap_bodies)."""
    n = len(oindex)
    index._resize(n)
    for i in range(n):
        if i != FINGER:
            index._set(i, oindex._get(i))
    m = len(oentries)
    entries._resize(m)
    for i in range(m):
        if oindex._get(i + HEADER) == ACTIVE:
            entries._set(i, oentries._get(i))


def tidy(index, entries) -> None:
    """After a difference update: a resize when more than a quarter of the slots are dummies."""
    mask = len(index) - HEADER - 1
    used = index._get(USED)
    if index._get(FILL) - used <= mask // 4:
        return
    resize(index, entries, used * 2 if used > 50000 else used * 4)


def next_slot(index, j: int, size: int) -> int:
    """The first active slot at or after `j`, for an iteration that began with `size`
    elements; CPython's RuntimeError when the set changed size since (or, with the same
    size, was rebuilt so that no active slot is left after `j`)."""
    if index._get(USED) != size:
        raise RuntimeError("Set changed size during iteration")
    n = len(index) - HEADER
    while j < n and index._get(j + HEADER) != ACTIVE:
        j += 1
    if j >= n:
        raise RuntimeError("Set changed size during iteration")
    return j


# Kept out of line (ir.core `inline_mark`): the writers are large, and `resize` seldom runs.
for _fn, _mark in ((resize, "$cold"), (add, "$outline"), (discard, "$outline"), (clear, "$outline"),
                   (merge, "$outline"), (take, "$outline"), (tidy, "$outline"), (pop_slot, "$outline"),
                   (init, "$outline"), (reserve, "$outline")):
    _fn.__qualname__ = _fn.__name__ + _mark


def intersect(rindex, rentries, aindex, aentries, bindex, bentries) -> None:
    """`r` (new, empty) = a & b of two sets: the smaller walked in slot order (`b` unless it
    is larger), each element found in the other added (CPython's set_intersection)."""
    sindex, sentries, oindex, oentries = aindex, aentries, bindex, bentries
    if bindex._get(USED) > aindex._get(USED):
        sindex, sentries, oindex, oentries = bindex, bentries, aindex, aentries
    for i in range(len(oindex) - HEADER):
        if oindex._get(i + HEADER) == ACTIVE:
            e = oentries._get(i)
            if lookkey(sindex, sentries, e[0], e[1]) >= 0:
                add(rindex, rentries, e[0], e[1])


def difference(rindex, rentries, aindex, aentries, bindex, bentries) -> None:
    """`r` (new, empty) = a - b of two sets (CPython's set_difference): a copy of `a` less
    `b` when `a` is more than four times larger, else the elements of `a` not in `b`, in
    slot order."""
    if (aindex._get(USED) >> 2) > bindex._get(USED):
        merge(rindex, rentries, aindex, aentries)
        difference_update(rindex, rentries, bindex, bentries)
        return
    for i in range(len(aindex) - HEADER):
        if aindex._get(i + HEADER) == ACTIVE:
            e = aentries._get(i)
            if lookkey(bindex, bentries, e[0], e[1]) < 0:
                add(rindex, rentries, e[0], e[1])


def difference_update(index, entries, oindex, oentries) -> None:
    """`s -= o` of another set (set_difference_update_internal; which elements become
    dummies does not depend on the order they are discarded in, so CPython's walk of the
    intersection when `o` is much larger needs no copy here)."""
    for i in range(len(oindex) - HEADER):
        if oindex._get(i + HEADER) == ACTIVE:
            e = oentries._get(i)
            discard(index, entries, e[0], e[1])
    tidy(index, entries)


def symmetric_update(index, entries, oindex, oentries) -> None:
    """`s ^= o` of another set: each element of `o` in slot order discarded from `s`, or
    added when it was not there (set_symmetric_difference_update)."""
    for i in range(len(oindex) - HEADER):
        if oindex._get(i + HEADER) == ACTIVE:
            e = oentries._get(i)
            if not discard(index, entries, e[0], e[1]):
                add(index, entries, e[0], e[1])


for _fn in (intersect, difference, difference_update, symmetric_update):
    _fn.__qualname__ = _fn.__name__ + "$outline"
