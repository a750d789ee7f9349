"""Kernels that write the lists they are given (tests/test_list_reflect.py): CPython's caller
sees every write, so the compiled caller must too."""


def insertion_sort(a):
    for i in range(1, len(a)):
        x = a[i]
        j = i - 1
        while j >= 0 and a[j] > x:
            a[j + 1] = a[j]
            j -= 1
        a[j + 1] = x


def bubble_sort(a):
    n = len(a)
    for i in range(n):
        for j in range(n - 1 - i):
            if a[j] > a[j + 1]:
                a[j], a[j + 1] = a[j + 1], a[j]
    return n


def sort_methods(a, k):
    if k == 0:
        a.sort()
    elif k == 1:
        a.sort(reverse=True)
    elif k == 2:
        a.reverse()
    elif k == 3:
        a.clear()
    elif k == 4:
        a += a[:2]
    else:
        b = a
        a *= k - 6          # in place: -1 empties it, 0 too, 1 keeps it, 2 doubles it
        return len(b)
    return len(a)


def run_ops(a, ops):
    """Apply ops (code, value) to `a` in order; code 9 raises part-way."""
    for code, v in ops:
        if code == 0:
            a.append(v)
        elif code == 1:
            if a:
                a.pop()
        elif code == 2:
            a.insert(v % (len(a) + 1), v)
        elif code == 3:
            if a:
                del a[v % len(a)]
        elif code == 4:
            if a:
                a[v % len(a)] = v
        elif code == 5:
            a.sort()
        elif code == 6:
            a.reverse()
        elif code == 7:
            a.extend([v, v + 1])
        elif code == 8:
            a[1:3] = [v]
        else:
            raise ValueError("stop at " + str(v))
    return len(a)


def pop_front(a, b):
    """Move the front of `a` to the back of `b` until `a` is empty (a queue through pop(0))."""
    moved = 0
    while a:
        b.append(a.pop(0))
        moved += 1
    return moved


def write_then_fail(a, i):
    a.append(99)
    a[0] = -1
    a[i] = 7            # IndexError when i is out of range: the writes before stay
    a.append(100)


def write_then_caught(a, i):
    try:
        a[i] = 7
    except IndexError:
        a.append(-7)
    return a[-1]


def lcs_table(x, y, dp):
    """Fill the caller's (len(x)+1) x (len(y)+1) table of zeros."""
    for i in range(1, len(x) + 1):
        for j in range(1, len(y) + 1):
            if x[i - 1] == y[j - 1]:
                dp[i][j] = dp[i - 1][j - 1] + 1
            else:
                dp[i][j] = max(dp[i - 1][j], dp[i][j - 1])
    return dp[len(x)][len(y)]


def life_step(board):
    """One step of the game of life on the caller's board, in place."""
    n, m = len(board), len(board[0])
    counts = [[0] * m for _ in range(n)]
    for i in range(n):
        for j in range(m):
            for di in (-1, 0, 1):
                for dj in (-1, 0, 1):
                    if (di or dj) and 0 <= i + di < n and 0 <= j + dj < m:
                        counts[i][j] += board[i + di][j + dj]
    for i in range(n):
        for j in range(m):
            c = counts[i][j]
            board[i][j] = 1 if c == 3 or (c == 2 and board[i][j]) else 0


def fill_region(grid, i, j, mark):
    """Flood fill of '.' cells from (i, j) with `mark` (a board of strs)."""
    stack = [(i, j)]
    filled = 0
    while stack:
        r, c = stack.pop()
        if 0 <= r < len(grid) and 0 <= c < len(grid[r]) and grid[r][c] == ".":
            grid[r][c] = mark
            filled += 1
            stack.append((r + 1, c))
            stack.append((r - 1, c))
            stack.append((r, c + 1))
            stack.append((r, c - 1))
    return filled


def queens(n, board, row):
    """Count placements of n queens, marking the caller's board as it goes (left clear)."""
    if row == n:
        return 1
    total = 0
    for c in range(n):
        ok = True
        for r in range(row):
            d = row - r
            if board[r][c] or c - d >= 0 and board[r][c - d] or c + d < n and board[r][c + d]:
                ok = False
                break
        if ok:
            board[row][c] = 1
            total += queens(n, board, row + 1)
            board[row][c] = 0
    return total


def reshape_rows(t, k):
    """Rows moved, dropped, added, and written after they left the table."""
    if k == 0:
        t.sort()
    elif k == 1 and t:
        row = t.pop()
        row.append(42)          # the caller's row object, no longer in t
    elif k == 2 and len(t) > 1:
        t[0], t[1] = t[1], t[0]
        t[0].append(-1)
    elif k == 3:
        t.append([7, 8])
        t.append(t[0])
        t[-1].append(9)
    elif k == 4 and t:
        t[0] = [5]
    return len(t)


def write_first(a, b):
    a.append(1)
    b.append(2)
    return len(a) + len(b)


def rows_alias(t):
    t[0].append(len(t[1]))
    return len(t[1])


def in_tuple(p):
    a, b = p
    a.append(len(b))
    b.reverse()
    return a[-1]


def returns_arg(a, k):
    a.append(k)
    return a


def returns_arg_in_tuple(a):
    return (a, len(a))


def returns_row(t):
    return t[0]


def returns_new_with_rows(t):
    out = [t[0], [1]]
    return out


def sort_floats(a):
    a.sort()
    return a[0] if a else 0.0


def double_floats(a):
    for i in range(len(a)):
        a[i] = a[i] * 2


def read_only_sum(a):
    s = 0.0
    for x in a:
        s += x
    return s


def store_int_in_floats(a):
    a[0] = 0


def append_int_to_floats(a):
    a.append(1)


def sort_pairs(ps):
    ps.sort()
    ps.append((9, 9.5))
    return len(ps)


def words_upper(ws):
    for i in range(len(ws)):
        ws[i] = ws[i].upper()
    ws.append("end")


def flags_flip(fs):
    for i in range(len(fs)):
        fs[i] = not fs[i]


def reads_and_writes(src, dst):
    for x in src:
        dst.append(x * 2)
    return len(dst)


def two_types(a, b):
    a.append(len(b))
    b.append(0.5)
    return len(a) + len(b) - 2


def through_closure(a):
    def add(x):
        a.append(x)
    add(1)
    add(2)
    return len(a)


class Stack:
    def __init__(self, items):
        self.items = items

    def push(self, x):
        self.items.append(x)


def through_instance(a):
    s = Stack(a)
    s.push(5)
    return len(s.items)


def seen_in_dict(d, a):
    a.append(9)
    return len(d[1])


def _partition(a, lo, hi):
    pivot = a[hi]
    i = lo - 1
    for j in range(lo, hi):
        if a[j] <= pivot:
            i += 1
            a[i], a[j] = a[j], a[i]
    a[i + 1], a[hi] = a[hi], a[i + 1]
    return i + 1


def quick_sort(a, lo, hi):
    """Recursive, in place, through a helper that writes the caller's list."""
    if lo < hi:
        p = _partition(a, lo, hi)
        quick_sort(a, lo, p - 1)
        quick_sort(a, p + 1, hi)


def _sift_down(a, start, end):
    root = start
    while 2 * root + 1 <= end:
        child = 2 * root + 1
        if child + 1 <= end and a[child] < a[child + 1]:
            child += 1
        if a[root] < a[child]:
            a[root], a[child] = a[child], a[root]
            root = child
        else:
            return


def heap_sort(a):
    n = len(a)
    for start in range((n - 2) // 2, -1, -1):
        _sift_down(a, start, n - 1)
    for end in range(n - 1, 0, -1):
        a[0], a[end] = a[end], a[0]
        _sift_down(a, 0, end - 1)
    return a


def next_permutation(a):
    """In place; False (and the list reversed to the first permutation) after the last."""
    i = len(a) - 2
    while i >= 0 and a[i] >= a[i + 1]:
        i -= 1
    if i >= 0:
        j = len(a) - 1
        while a[j] <= a[i]:
            j -= 1
        a[i], a[j] = a[j], a[i]
    a[i + 1:] = a[i + 1:][::-1]
    return i >= 0


def rotate_matrix(m):
    """Rotate a square matrix by 90 degrees in place (transpose, then reverse each row)."""
    n = len(m)
    for i in range(n):
        for j in range(i + 1, n):
            m[i][j], m[j][i] = m[j][i], m[i][j]
    for row in m:
        row.reverse()


def run_nested_ops(t, a, ops):
    """Apply ops (code, i, v) to table `t` (rows aliased or not) and list `a`; code 12 raises
    part-way."""
    for code, i, v in ops:
        n = len(t)
        if code == 0:
            t.append([v, v])
        elif code == 1 and n:
            t[i % n].append(v)
        elif code == 2 and n and t[i % n]:
            r = t[i % n]
            r[v % len(r)] = v
        elif code == 3 and n:
            t.append(t[i % n])              # the same row twice
        elif code == 4 and n:
            t[i % n] = t[v % n]
        elif code == 5 and n:
            row = t.pop(i % n)
            row.append(v)                   # a dropped row, written
            a.append(len(row))
        elif code == 6:
            t.reverse()
        elif code == 7 and n:
            t[i % n].sort()
        elif code == 8:
            t.sort()
        elif code == 9:
            t.insert(i % (n + 1), a)        # the other argument, as a row
        elif code == 10 and n:
            a.extend(t[i % n])
        elif code == 11 and n > 1:
            del t[:2]
        elif code == 12:
            raise KeyError(v)
    return len(t) + len(a)


def repeat_rows(t, k):
    t *= k
    if t:
        t[0].append(9)
    return len(t)


def shared_board(n):
    """The classic: one row n times; CPython's caller sees one row object."""
    return [[0] * n] * n


def same_list_twice(n):
    a = [n]
    return a, a


def columns(t):
    """Tuples of the caller's rows (var-length tuples in compiled code), after a write."""
    t.append([len(t)] * len(t[0]) if t else [])
    return [c for c in zip(*t)], tuple(t[0])


def upper_some(ws, k):
    for i in range(0, len(ws), k):
        ws[i] = ws[i].upper()


def set_pair(ps, i, p):
    ps[i] = p
