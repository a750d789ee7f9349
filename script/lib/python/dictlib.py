"""The hash tables of dicts, written in the compiled subset (as listlib is); a set's is
CPython's own, in setlib.py.

A dict is two lists (ir.types.HashType): `index`, whose element 0 counts the live
entries and whose other elements are the slots of an open-addressing table of a power-of-two
size (-1 empty, -2 deleted, else the position of an entry), and `entries`, the entries in
insertion order, ``(hash, key)`` or ``(hash, key, value)``, with hash -1 once deleted. The
layout is CPython's compact dict; probing is linear, which a well-mixed hash (the `hash` op)
makes as good as CPython's perturbation and kinder to caches.

Every entry ever appended since the last rebuild holds one slot (live or deleted), so the
table is rebuilt when the entries would fill two thirds of the slots: the deleted entries
are dropped and the slots sized for about three times the live ones (so a growing table
doubles, and a table of deletions shrinks back). Probing therefore always meets an empty
slot. `h` is always the key's `hash` (>= 0), computed by the caller (frontend/dicts.py).

Compiled for each table type by the same frontend when user code needs it; lookups are
inlined, the writers kept out of line (the marks at the end). Elements are read and written
with the unchecked `_get`/`_set` (lists.py `library_method`): every position here is within
its list by construction. They are `list_get`/`list_set`, and `_resize` is `list_resize`, so
entries holding references (str keys, list values) are counted as a list's elements are:
moved entries counted, replaced and dropped ones released. A table from Python is a copy
the entry point writes back after the call (runtime.table_reflect), so the writers here only
ever see tables made or copied in compiled code.
"""


def find_slot(index, entries, h: int, key) -> int:
    """The position p in `index` of the slot holding `key`'s entry (p >= 1), or -p for the
    empty slot where it would go, or 0 when the table has no slots yet."""
    mask = len(index) - 2
    if mask < 0:
        return 0
    i = h & mask
    while True:
        j = index._get(i + 1)
        if j == -1:
            return -(i + 1)
        if j >= 0:
            e = entries._get(j)
            if e[0] == h and e[1] == key:
                return i + 1
        i = (i + 1) & mask


def lookup(index, entries, h: int, key) -> int:
    """The position of `key`'s entry in `entries`, or -1."""
    p = find_slot(index, entries, h, key)
    if p > 0:
        return index._get(p)
    return -1


def rebuild(index, entries, need: int) -> None:
    """Drop the deleted entries and size the slots for `need` live ones (at least 8 slots,
    three per entry or more, a power of two)."""
    w = 0
    for r in range(len(entries)):
        e = entries._get(r)
        if e[0] >= 0:
            entries._set(w, e)
            w += 1
    entries._resize(w)
    size = 8
    while size < 3 * need:
        size *= 2
    index._resize(size + 1)
    mask = size - 1
    for i in range(1, size + 1):
        index._set(i, -1)
    index._set(0, w)
    for j in range(w):
        i = entries._get(j)[0] & mask
        while index._get(i + 1) != -1:
            i = (i + 1) & mask
        index._set(i + 1, j)


def slot_for_new(index, entries, h: int, key) -> int:
    """The empty slot (its position in `index`) for a key not in the table, after a rebuild
    if one more entry would fill two thirds of the slots."""
    n = len(index) - 1
    if 3 * (len(entries) + 1) > 2 * n:
        rebuild(index, entries, index._get(0) + 1)
    return -find_slot(index, entries, h, key)


def dict_store(index, entries, h: int, key, value) -> None:
    """`d[key] = value`: a new entry at the end, or the value of the key's entry replaced
    (its key stays the first one stored, as in CPython: 0.0 after a store with -0.0)."""
    p = find_slot(index, entries, h, key)
    if p > 0:
        j = index._get(p)
        e = entries._get(j)
        entries._set(j, (h, e[1], value))
        return
    p = slot_for_new(index, entries, h, key)
    index._set(p, len(entries))
    entries.append((h, key, value))
    index._set(0, index._get(0) + 1)


def dict_remove(index, entries, h: int, key) -> int:
    """Delete `key`'s entry and give its position (its key and value stay readable there),
    or -1 when the key is missing."""
    p = find_slot(index, entries, h, key)
    if p <= 0:
        return -1
    j = index._get(p)
    e = entries._get(j)
    entries._set(j, (-1, e[1], e[2]))
    index._set(p, -2)
    index._set(0, index._get(0) - 1)
    return j


def clear(index, entries) -> None:
    index._resize(1)
    index._set(0, 0)
    entries._resize(0)


def next_live(index, entries, j: int, size: int, is_set: bool) -> int:
    """The position of the first live entry at or after `j`, for an iteration that began
    with `size` live entries; CPython's RuntimeError when the table changed size since (or
    changed keys, so that no live entry is left)."""
    if index._get(0) != size:
        if is_set:
            raise RuntimeError("Set changed size during iteration")
        raise RuntimeError("dictionary changed size during iteration")
    n = len(entries)
    while j < n and entries._get(j)[0] < 0:
        j += 1
    if j >= n:
        if is_set:
            raise RuntimeError("Set changed size during iteration")
        raise RuntimeError("dictionary keys changed during iteration")
    return j


def last_live(entries) -> int:
    """The position of the last live entry (the table is not empty)."""
    j = len(entries) - 1
    while entries._get(j)[0] < 0:
        j -= 1
    return j


def first_live(entries) -> int:
    """The position of the first live entry (the table is not empty)."""
    j = 0
    while entries._get(j)[0] < 0:
        j += 1
    return j


def _count(item) -> int:
    return item[1]


def most_common(items, n: int):
    """Counter.most_common(n) of the list of (key, count) items: by count, ties in the
    order of `items` (CPython's nlargest and sorted are stable), at most `n` (none if n < 0)."""
    s = sorted(items, key=_count, reverse=True)
    if n < 0:
        n = 0
    return s[:n]


# Kept out of line (ir.core `inline_mark`): the writers are large, and `rebuild` seldom runs.
for _fn, _mark in ((rebuild, "$cold"), (dict_store, "$outline"),
                   (dict_remove, "$outline"), (clear, "$outline"),
                   (last_live, "$outline")):
    _fn.__qualname__ = _fn.__name__ + _mark
