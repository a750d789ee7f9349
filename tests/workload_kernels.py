"""Kernels for tests/test_perf_workloads.py: lists whose length the `fixedlen` pass forwards
(made by `[x] * n`, `list(range(n))`, a comprehension over a range) and lists it must not
(appended to, passed to a call, stored in another list, made on one branch only); and
matrix products of transposed and strided operands, which BLAS reads in place or the
compiled code copies first."""

import numpy as np


def fill_and_index(n, i, j):
    t = [0] * n
    for k in range(n):
        t[k] = k * k
    t[i] += 1
    return t[j] + len(t)


def range_list_swaps(n, moves):
    p = list(range(n))
    for m in moves:
        a = m % (n + 2) - 1
        b = (m // 7) % (n + 2) - 1
        t = p[a]
        p[a] = p[b]
        p[b] = t
    return p


def comprehension_sum(n, i):
    sq = [k * 2 for k in range(n)]
    s = 0
    for k in range(len(sq)):
        s += sq[k]
    return s + sq[i]


def counts_of(xs, m):
    counts = [0] * m
    for x in xs:
        if 0 <= x < m:
            counts[x] += 1
    return counts


def grows(n, i):
    t = [1] * n
    t.append(5)
    t.append(6)
    return t[i] + len(t)


def _append_one(t):
    t.append(9)


def grows_in_callee(n, i):
    t = [1] * n
    _append_one(t)
    return t[i] + len(t)


def nested_rows(n, i):
    rows = [[0] * 2 for _ in range(n)]
    rows[0].append(3)
    return len(rows[0]) + len(rows[i % n]) + rows[0][i]


def fixed_then_popped(n, i):
    t = [2] * n
    s = 0
    for k in range(n):
        s += t[k]
    t.pop()
    return s + t[i] + len(t)


def xt_v(x, v):
    return x.T @ v


def a_bt(a, b):
    return a @ b.T


def at_bt(a, b):
    return a.T @ b.T


def strided_a_b(a, b):
    return a[::2, ::3] @ b


def gradient_steps(x, y, iters):
    w = x[0] * 0.0
    for _ in range(iters):
        p = 1.0 / (1.0 + np.exp(-(x @ w)))
        w = w - 0.1 * (x.T @ (p - y))
    return w


# --- loops over s.split() / s.splitlines(), walked part by part (strmethods.walk_str_parts)

def split_counts(text, sep, maxsplit):
    d = {}
    for w in text.split(sep, maxsplit):
        if w == "stop":
            break
        if not w:
            continue
        d[w] = d.get(w, 0) + 1
    else:
        d["<end>"] = len(d)
    return d


def split_comprehensions(text):
    upper = [w.upper() + str(len(w)) for w in text.split() if len(w) != 2]
    nested = [w for line in text.splitlines() for w in line.split(",")]
    total = sum(len(w) for w in text.split(" "))
    return upper, nested, total


def split_lines_kept(text, keepends):
    out = []
    for k, line in enumerate(text.splitlines(keepends)):
        for w in line.split(None, 1):
            out.append((k, w.strip()))
    return out


def split_receiver_once(given, n):
    texts = list(given)
    t = 0
    for w in texts.pop().split():
        t += len(w) * n
        n += 1
    return t, len(texts), n


# --- tables of strs probed without counting their keys (refcount._is_borrowed_row)

def str_table_churn(words, limit):
    d = {}
    for k, w in enumerate(words):
        if w in d and len(d) > limit:
            del d[w]
        elif w in d:
            d[w] += k
        else:
            d[w] = k
    return list(d.items())


# --- lists only their own appends resize: lengths forwarded (fixedlen), checks kept right

def append_then_sort(xs, i, j):
    a = []
    for x in xs:
        a.append(x)
    for k in range(1, len(a)):
        v = a[k]
        m = k - 1
        while m >= 0 and a[m] > v:
            a[m + 1] = a[m]
            m -= 1
        a[m + 1] = v
    t = a[i]
    a[i] = a[j]
    a[j] = t
    return a


def grows_in_loop(n, m, i):
    a = [1] * n
    s = 0
    for k in range(m):
        if k % 3 == 0:
            a.append(k)
        s += a[i] + len(a)
    return s, a


def str_key_reads(words, probe):
    d = {}
    pairs = {}
    for w in words:
        d[w] = len(w)
        pairs[(w, len(w))] = 1
    t = 0
    for w in words:
        d[w] += 1
        t += d[w] + pairs[(w, len(w))]
    return t + d[probe] * 10 + pairs[(probe, 1)]
