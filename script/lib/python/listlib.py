"""List methods whose natural implementation is a loop, written in the compiled subset.

Compiled on demand for each element type by the same frontend (as pylib's builtins are) when
user code calls the method (frontend/lists.py), and usually inlined. Each behaves exactly
like CPython's method, messages included (except `index`'s of a value that is not a scalar
or a str, which CPython before 3.13 writes with its repr); `lst` is always a list made or
copied in compiled code (a list argument from Python is read-only, so these never write one).
"""

import sys

# CPython's message of list.index for a missing value: "5 is not in list" before 3.13,
# "list.index(x): x not in list" since.
NAMES_VALUE = sys.version_info < (3, 13)


def pop_at(lst, i: int):
    n = len(lst)
    if n == 0:
        raise IndexError("pop from empty list")
    if i < 0:
        i += n
    if i < 0 or i >= n:
        raise IndexError("pop index out of range")
    item = lst[i]
    for k in range(i, n - 1):
        lst[k] = lst[k + 1]
    lst._resize(n - 1)
    return item


def insert(lst, i: int, item) -> None:
    n = len(lst)
    if i < 0:
        i += n
        if i < 0:
            i = 0
    if i > n:
        i = n
    lst._resize(n + 1)
    for k in range(n, i, -1):
        lst[k] = lst[k - 1]
    lst[i] = item


def index(lst, item, start: int = 0, stop: int = 9223372036854775807) -> int:
    for k in range(_clamped(start, len(lst)), _clamped(stop, len(lst))):
        if lst[k] == item:
            return k
    raise ValueError("list.index(x): x not in list")


def index_named(lst, item, start: int = 0, stop: int = 9223372036854775807) -> int:
    """`index` with CPython's message before 3.13, for an item of a type messages format
    (frontend/lists.py chooses it)."""
    for k in range(_clamped(start, len(lst)), _clamped(stop, len(lst))):
        if lst[k] == item:
            return k
    raise ValueError(f"{item!r} is not in list")


def index_deque(lst, item, start: int = 0, stop: int = 9223372036854775807) -> int:
    """`index` of a deque (a list in compiled code), with deque's message."""
    for k in range(_clamped(start, len(lst)), _clamped(stop, len(lst))):
        if lst[k] == item:
            return k
    raise ValueError(f"{item!r} is not in deque")


def remove_deque(lst, item) -> None:
    """`remove` of a deque, with deque's message."""
    for k in range(len(lst)):
        if lst[k] == item:
            pop_at(lst, k)
            return
    raise ValueError(f"{item!r} is not in deque")


def _clamped(i: int, n: int) -> int:
    """A start or stop of list.index as CPython takes it: from the end when negative, then
    within 0..n."""
    if i < 0:
        i += n
        if i < 0:
            return 0
    return n if i > n else i


def equal(a, b) -> bool:
    """`a == b` of two lists: CPython's, lengths first, then == element by element."""
    if len(a) != len(b):
        return False
    for k in range(len(a)):
        if not a[k] == b[k]:
            return False
    return True


def less(a, b, or_equal: bool) -> bool:
    """`a < b` (`a <= b` with `or_equal`): the first elements that differ decide, else the
    lengths."""
    n = min(len(a), len(b))
    for k in range(n):
        if not a[k] == b[k]:
            return a[k] < b[k]
    return len(a) < len(b) or or_equal and len(a) == len(b)


def remove(lst, item) -> None:
    for k in range(len(lst)):
        if lst[k] == item:
            pop_at(lst, k)
            return
    raise ValueError("list.remove(x): x not in list")


def count(lst, item) -> int:
    c = 0
    for k in range(len(lst)):
        if lst[k] == item:
            c += 1
    return c


def reverse(lst) -> None:
    i = 0
    j = len(lst) - 1
    while i < j:
        lst[i], lst[j] = lst[j], lst[i]
        i += 1
        j -= 1


def str_items(lst) -> list:
    """The strs of a list of a union (`["a", 1]`) that `sep.join` joins: CPython's TypeError
    at the first item that is not one."""
    out = []
    for i in range(len(lst)):
        x = lst[i]
        if isinstance(x, str):
            out.append(x)
        else:
            raise TypeError(f"sequence item {i}: expected str instance, {type(x).__name__} found")
    return out


def sort(lst) -> None:
    """Stable bottom-up merge sort (Python's order for numbers: `<` only), runs of 16 made
    by insertion sort first."""
    n = len(lst)
    for start in range(0, n, 16):
        stop = min(start + 16, n)
        for k in range(start + 1, stop):
            item = lst[k]
            j = k - 1
            while j >= start and item < lst[j]:
                lst[j + 1] = lst[j]
                j -= 1
            lst[j + 1] = item
    if n <= 16:
        return
    src = lst
    dst = lst[:]
    flipped = False         # whether the sorted runs are in the copy
    width = 16
    while width < n:
        for lo in range(0, n, 2 * width):
            mid = min(lo + width, n)
            hi = min(lo + 2 * width, n)
            a = lo
            b = mid
            for k in range(lo, hi):
                if b < hi and (a >= mid or src[b] < src[a]):
                    dst[k] = src[b]
                    b += 1
                else:
                    dst[k] = src[a]
                    a += 1
        src, dst = dst, src
        flipped = not flipped
        width *= 2
    if flipped:
        for k in range(n):
            lst[k] = src[k]


def sort_reversed(lst) -> None:
    """`lst.sort(reverse=True)`: stable, as CPython's (equal elements keep their order)."""
    reverse(lst)
    sort(lst)
    reverse(lst)


def sort_exact(lst) -> None:
    """`sort` making CPython's own comparisons, in its order, for a list of fewer than 64
    elements (a run counted from the start, reversed if descending, then binary insertion:
    its timsort's first steps), so that values that do not compare (an int and a str of a
    list of a union) raise at the comparison CPython's raises at, with its message, leaving
    the list as CPython leaves it. Longer lists: `sort` (the same result where nothing
    raises)."""
    n = len(lst)
    if n >= 64:
        sort(lst)
        return
    if n < 2:
        return
    k = 2
    if lst[1] < lst[0]:
        while k < n and lst[k] < lst[k - 1]:
            k += 1
        i = 0
        j = k - 1
        while i < j:
            lst[i], lst[j] = lst[j], lst[i]
            i += 1
            j -= 1
    else:
        while k < n and not lst[k] < lst[k - 1]:
            k += 1
    for start in range(k, n):
        pivot = lst[start]
        lo = 0
        hi = start
        while lo < hi:
            p = lo + ((hi - lo) >> 1)
            if pivot < lst[p]:
                hi = p
            else:
                lo = p + 1
        for q in range(start, lo, -1):
            lst[q] = lst[q - 1]
        lst[lo] = pivot


def sort_exact_reversed(lst) -> None:
    """`sort_exact` with reverse=True: reversed before and after, also when it raises (as
    CPython's)."""
    reverse(lst)
    try:
        sort_exact(lst)
    finally:
        reverse(lst)


def sort_keyed(lst, key, descending: bool) -> None:
    """`lst.sort(key=key, reverse=descending)`: `key` (a function bound when compiling,
    static_args.py) is called once per element, in order, as CPython calls it."""
    if descending:
        reverse(lst)
    keys = [key(x) for x in lst]
    sort_by(keys, lst)
    if descending:
        reverse(lst)


def sort_with_keys(lst, keys, descending: bool) -> None:
    """`lst.sort(key=f, reverse=descending)` whose keys the caller computed, in order, as
    CPython calls `f` (a function value: frontend/function_values.py, keyed.sort_list)."""
    if descending:
        reverse(lst)
        reverse(keys)
    sort_by(keys, lst)
    if descending:
        reverse(lst)


def sort_by(keys, lst) -> None:
    """Stable merge sort of `lst` by `keys` (as long as `lst`), moving both: `sort` with a
    parallel list."""
    n = len(lst)
    for start in range(0, n, 16):
        stop = min(start + 16, n)
        for k in range(start + 1, stop):
            kk = keys[k]
            item = lst[k]
            j = k - 1
            while j >= start and kk < keys[j]:
                keys[j + 1] = keys[j]
                lst[j + 1] = lst[j]
                j -= 1
            keys[j + 1] = kk
            lst[j + 1] = item
    if n <= 16:
        return
    src_keys = keys
    dst_keys = keys[:]
    src = lst
    dst = lst[:]
    flipped = False
    width = 16
    while width < n:
        for lo in range(0, n, 2 * width):
            mid = min(lo + width, n)
            hi = min(lo + 2 * width, n)
            a = lo
            b = mid
            for k in range(lo, hi):
                if b < hi and (a >= mid or src_keys[b] < src_keys[a]):
                    dst_keys[k] = src_keys[b]
                    dst[k] = src[b]
                    b += 1
                else:
                    dst_keys[k] = src_keys[a]
                    dst[k] = src[a]
                    a += 1
        src_keys, dst_keys = dst_keys, src_keys
        src, dst = dst, src
        flipped = not flipped
        width *= 2
    if flipped:
        for k in range(n):
            lst[k] = src[k]


def sort_cmp(lst, cmp, descending: bool) -> None:
    """`lst.sort(key=functools.cmp_to_key(cmp), reverse=descending)`: a stable merge sort
    ordering `b` before `a` when `cmp(b, a) < 0`, as CPython's comparison of the keys asks
    (`K(b) < K(a)`). For a comparison that orders consistently, CPython's order; reversed as
    sort_keyed is."""
    if descending:
        reverse(lst)
    n = len(lst)
    for start in range(0, n, 16):
        stop = min(start + 16, n)
        for k in range(start + 1, stop):
            item = lst[k]
            j = k - 1
            while j >= start and cmp(item, lst[j]) < 0:
                lst[j + 1] = lst[j]
                j -= 1
            lst[j + 1] = item
    if n > 16:
        src = lst
        dst = lst[:]
        flipped = False
        width = 16
        while width < n:
            for lo in range(0, n, 2 * width):
                mid = min(lo + width, n)
                hi = min(lo + 2 * width, n)
                a = lo
                b = mid
                for k in range(lo, hi):
                    if b < hi and (a >= mid or cmp(src[b], src[a]) < 0):
                        dst[k] = src[b]
                        b += 1
                    else:
                        dst[k] = src[a]
                        a += 1
            src, dst = dst, src
            flipped = not flipped
            width *= 2
        if flipped:
            for k in range(n):
                lst[k] = src[k]
    if descending:
        reverse(lst)


# ---- collections.deque's methods (a deque is a list in compiled code) -------------------------

def extendleft(lst, items) -> None:
    for x in items:
        insert(lst, 0, x)


def rotate(lst, k: int = 1) -> None:
    n = len(lst)
    if n <= 1:
        return
    k %= n
    if k == 0:
        return
    moved = lst[n - k:] + lst[:n - k]
    for i in range(n):
        lst[i] = moved[i]
