"""List slice assignment and deletion, written in the compiled subset (as listlib is).

Compiled on demand for each element type when user code writes `lst[a:b] = items` or
`del lst[a:b:c]` (frontend/list_slices.py). The slice arrives as Python's `slice.indices`
computes it, turned into (start, count, step): `count` elements, the first at `start`, then
every `step`-th. `items` is a new list made from the assigned iterable (as CPython copies it
first, `a[1:2] = a` reads the old `a`). Element writes go through `lst[k] = ...`, which
counts references for lists of lists and strs, and `_resize` releases what it drops.
"""


def set_slice(lst, start: int, count: int, step: int, items) -> None:
    m = len(items)
    if step != 1:
        if m != count:
            raise ValueError(f"attempt to assign sequence of size {m} to extended slice of size {count}")
        for k in range(m):
            lst._set(start + k * step, items._get(k))
        return
    n = len(lst)
    if m > count:                       # grow: move the tail right, from its end
        lst._resize(n + m - count)
        for k in range(n - 1, start + count - 1, -1):
            lst._set(k + m - count, lst._get(k))
    elif m < count:                     # shrink: move the tail left, then drop the end
        for k in range(start + count, n):
            lst._set(k - count + m, lst._get(k))
        lst._resize(n + m - count)
    for k in range(m):
        lst._set(start + k, items._get(k))


def del_slice(lst, start: int, count: int, step: int) -> None:
    if count == 0:
        return
    if step < 0:                        # the same elements, walked upwards
        start += (count - 1) * step
        step = -step
    n = len(lst)
    w = start
    k = 0
    for r in range(start, n):
        if k < count and r == start + k * step:
            k += 1
        else:
            lst._set(w, lst._get(r))
            w += 1
    lst._resize(w)
