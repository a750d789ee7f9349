"""Functions using lists, run by CPython and compiled (tests/test_lists.py)."""

import numpy as np


def primes(n):
    out = []
    for k in range(2, n):
        if all(k % d != 0 for d in range(2, int(k ** 0.5) + 1)):
            out.append(k)
    return out


def positives_stats(a):
    sq = [x * x for x in a if x > 0]
    return sum(sq) / max(len(sq), 1), sum(a[i] * i for i in range(len(a))), any(x < 0 for x in a)


def literal_ops(i, j, v):
    lst = [3, 1, 4, 1, 5]
    lst[i] = v
    return lst[j], lst, len(lst)


def index_error(i):
    lst = [1.5, 2.5]
    return lst[i]


def store_error(i):
    lst = [1, 2]
    lst[i] = 9
    return lst


def append_pop(n, i):
    lst = []
    for k in range(n):
        lst.append(k * k)
    a = lst.pop()
    b = lst.pop(i)
    return a, b, lst


def pop_empty():
    lst = [1]
    lst.pop()
    return lst.pop()


def insert_at(n, i, v):
    lst = list(range(n))
    lst.insert(i, v)
    return lst


def repeat(n, k):
    return [k, k + 1] * n, n * [0.5]


def concat_slice(n, a, b, c):
    x = list(range(n)) + [10, 20]
    return x[a:b], x[a:], x[:b], x[::c], x[a:b:c]


def reference_semantics(n):
    a = [1, 2]
    b = a
    for k in range(n):
        b.append(k)
    c = a[:]
    c.append(99)
    return a, len(c)


def extend_self(n):
    a = list(range(n))
    a.extend(a)
    a += [7, 8]
    a.extend((1, 2))
    a.extend(range(3))
    return a


def nested_comp(n, m):
    return [(i, j) for i in range(n) if i % 2 == 0 for j in range(m) if j != i]


def comp_scope(n):
    x = -1
    ys = [x * 2 for x in range(n)]
    return x, ys


def generators(n, start):
    return (sum(i for i in range(n)), sum((i % 3 == 0 for i in range(n))), sum((i for i in range(n)), start),
            sum(i * j for i in range(n) for j in range(i)))


def minmax_gen(n):
    return min(i * (7 - i) for i in range(n)), max((i % 5, -i) [0] for i in range(n))


def minmax_default(n):
    return min((i for i in range(n) if i > 3), default=-1), max((i * 0.5 for i in range(n)), default=2.0)


def any_all_short_circuit(a, t):
    # a later element would divide by zero: any/all must stop before it
    return any(10 // (x - t) > 3 for x in a), all(10 // (x - t) < 3 for x in a)


def any_all_values(a, t):
    return any(a), all(a), any((t, 0)), all((t, 1)), any([x > t for x in a]), all([])


def contains(n, x):
    lst = [k * 0.5 for k in range(n)]
    return x in lst, x not in lst


def sorted_reverse(a):
    lst = list(a)
    lst.sort()
    b = sorted(lst)
    lst.reverse()
    return lst, b, sorted(x for x in a if x > 0)


def index_count_remove(n, x):
    lst = [k % 4 for k in range(n)]
    c = lst.count(x)
    lst.remove(x)
    return c, lst.index(x) if x in lst else -1, lst


def index_from(lst, x, start):
    return lst.index(x, start)


def index_between(lst, x, start, stop):
    return lst.index(x, start, stop)


def enumerate_zip(n):
    a = [k * 2 for k in range(n)]
    b = [k * 0.5 for k in range(n + 1)]
    s = 0.0
    for i, (x, y) in enumerate(zip(a, b)):
        s += i * x + y
    t = 0
    for x in a:
        t += x
    return s, t, sum(a), min(b) if b else -1.0, max(a) if a else -1


def truth(n):
    lst = list(range(n))
    return bool(lst), 1 if lst else 0


def to_array(n):
    lst = [k * 1.5 for k in range(n)]
    ints = [k for k in range(n)]
    return np.array(lst), np.asarray(ints), np.array([True, False])


def list_of_array(a):
    return list(a), [x + 1 for x in a]


def arg_sum(lst):
    s = 0
    for x in lst:
        s += x
    return s, len(lst), lst[0] if lst else 0, lst


def arg_copy_append(lst, x):
    m = list(lst)
    m.append(x)
    return m


def arg_write(lst):
    lst.append(1)
    return lst


def arg_write_alias(lst, c):
    b = lst if c else [1]
    b[0] = 5
    return b


def _helper_write(l):
    l[0] = 1


def arg_write_callee(lst):
    _helper_write(lst)


def helper_writes_local(n):
    a = [0] * n
    if n:
        _helper_write(a)
    return a


def returns_tuple_with_lists(n):
    return ([k for k in range(n)], [k > 1 for k in range(n)]), n


def churn(n):
    total = 0
    for k in range(n):
        lst = [k, k + 1, k + 2]
        lst.append(k)
        total += len(lst) + lst[-1]
    return total


def raise_with_lists(n):
    a = [1.0] * 100
    b = [x for x in a]
    if n > 3:
        raise ValueError("boom")
    return len(a) + len(b)


def raise_in_loop(n):
    out = []
    for k in range(n):
        out.append([k, k][1])
        x = [0] * 10
        out.append(x[k])          # IndexError at k == 10
    return out


def _times(u, transpose):
    n = len(u)
    return [sum((1.0 / ((j + i) * (j + i + 1) // 2 + (j if transpose else i) + 1)) * u[j] for j in range(n))
            for i in range(n)]


def spectral_norm(n):
    # `u = [1] * n` meets the list of floats `u = _times(...)` at the loop's head
    u = [1] * n
    v = u
    for _ in range(3):
        v = _times(_times(u, False), True)
        u = _times(_times(v, False), True)
    vbv = vv = 0
    for ue, ve in zip(u, v):
        vbv += ue * ve
        vv += ve * ve
    return vbv / vv if vv else 0.0


def widened_displays(n, x):
    xs = [0 for _ in range(n)]
    for k in range(3):
        xs = [e * x + k for e in xs]
    ys = [1, 2, 3] if n > 2 else [x]
    return sum(xs), sum(ys), len(ys)


def word_wrap(text, width):
    # `line, n = [], 0` starts a new empty list, joined before anything is appended
    lines = []
    line = []
    n = 0
    for w in text.split():
        if n + len(w) + len(line) > width and line:
            lines.append(" ".join(line))
            line, n = [], 0
        line.append(w)
        n += len(w)
    if line:
        lines.append(" ".join(line))
    return lines


def reset_buffers(xs):
    cur = []
    runs = []
    for x in xs:
        if x < 0:
            runs.append(cur)
            cur = []
        cur.append(x * 0.5)
    runs.append(cur)
    return runs
