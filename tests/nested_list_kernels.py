"""Functions using lists of lists (and of tuples and arrays), run by CPython and compiled
(tests/test_nested_lists.py)."""

import numpy as np


def lcs(a, b):
    n, m = len(a), len(b)
    dp = [[0] * (m + 1) for _ in range(n + 1)]
    for i in range(1, n + 1):
        for j in range(1, m + 1):
            if a[i - 1] == b[j - 1]:
                dp[i][j] = dp[i - 1][j - 1] + 1
            else:
                dp[i][j] = max(dp[i - 1][j], dp[i][j - 1])
    return dp[n][m], dp


def edit_distance(a, b):
    n, m = len(a), len(b)
    dp = [[0] * (m + 1) for _ in range(n + 1)]
    for i in range(n + 1):
        dp[i][0] = i
    for j in range(m + 1):
        dp[0][j] = j
    for i in range(1, n + 1):
        for j in range(1, m + 1):
            cost = 0 if a[i - 1] == b[j - 1] else 1
            dp[i][j] = min(dp[i - 1][j] + 1, dp[i][j - 1] + 1, dp[i - 1][j - 1] + cost)
    return dp[-1][-1]


def knapsack(weights, values, cap):
    n = len(weights)
    best = [[0.0] * (cap + 1) for _ in range(n + 1)]
    for i in range(1, n + 1):
        w, v = weights[i - 1], values[i - 1]
        for c in range(cap + 1):
            best[i][c] = best[i - 1][c]
            if w <= c and best[i - 1][c - w] + v > best[i][c]:
                best[i][c] = best[i - 1][c - w] + v
    return best[n][cap]


def pascal(n):
    rows = []
    for i in range(n):
        row = [1] * (i + 1)
        for j in range(1, i):
            row[j] = rows[i - 1][j - 1] + rows[i - 1][j]
        rows.append(row)
    return rows


def matmul(a, b):
    n, k, m = len(a), len(b), len(b[0])
    out = [[0.0] * m for _ in range(n)]
    for i in range(n):
        for p in range(k):
            aip = a[i][p]
            for j in range(m):
                out[i][j] += aip * b[p][j]
    return out


def matmul_comp(a, b):
    return [[sum(a[i][p] * b[p][j] for p in range(len(b))) for j in range(len(b[0]))]
            for i in range(len(a))]


def transpose(m):
    return [[m[i][j] for i in range(len(m))] for j in range(len(m[0]))]


def grid_paths(grid):
    """Paths from the top left to the bottom right moving right or down, avoiding 1s."""
    rows, cols = len(grid), len(grid[0])
    ways = [[0] * cols for _ in range(rows)]
    for i in range(rows):
        for j in range(cols):
            if grid[i][j] == 1:
                continue
            if i == 0 and j == 0:
                ways[i][j] = 1
                continue
            up = ways[i - 1][j] if i > 0 else 0
            left = ways[i][j - 1] if j > 0 else 0
            ways[i][j] = up + left
    return ways[rows - 1][cols - 1]


def row_sums(table):
    sums = []
    total = 0.0
    for row in table:
        s = 0.0
        for v in row:
            s += v
        sums.append(s)
        total += sum(row)
    widths = [len(r) for r in table]
    return sums, total, widths, len(table[0]), sum(len(r) for r in table)


def aliasing(n, i, j, v):
    t = [[0] * 3 for _ in range(n)]
    a = t[i]
    a[j] = v
    b = t
    b[0 if n else i][1] += 1
    return t, a


def repeat_alias(n, m, i, j):
    t = [[0] * m] * n
    t[i][j] = 5
    u = [[1, 2]] + [[3]] * 2
    u[1].append(4)
    return t, u


def rows_append(n):
    rows = []
    for k in range(n):
        rows.append([k, k * k])
    if rows:
        rows[-1].append(-1)
        last = rows.pop()
        last.append(7)
        rows.insert(0, last)
    out = []
    for r in rows:
        out.append(r)
    out.reverse()
    return rows, out


def empty_rows(n, k):
    rows = [[] for _ in range(n)]
    for i in range(n):
        for _ in range(i % (k + 1)):
            rows[i].append(i * 0.5)
    return rows


def grow_last(n):
    rows = []
    for i in range(n):
        rows.append([])
        for j in range(i):
            rows[-1].append(j)
    return rows


def tuples_in_rows(n, m):
    grid = [[(i, j * 0.5) for j in range(m)] for i in range(n)]
    s = 0.0
    for row in grid:
        for a, b in row:
            s += a * b
    pairs = []
    for k in range(n):
        pairs.append([(k, True)])
    return grid, s, pairs


def copies(m, i):
    a = [row[:] for row in m]
    b = [list(row) for row in m]
    c = [row.copy() for row in m]
    d = m[:]                    # shallow: the same inner lists
    a[i][0] = -1
    b[i].append(99)
    c[i].pop()
    d[i] = [0]
    return a, b, c, d, m


def nested_comp(n, m):
    t = [[i * m + j for j in range(m) if j % 2 == 0] for i in range(n)]
    flat = [v for row in t for v in row]
    sq = [[v * v for v in row] for row in t]
    return t, flat, sq


def deep(n, i, j, k):
    t = [[[a * 4 + b * 2 + c for c in range(2)] for b in range(2)] for a in range(n)]
    t[i][j][k] += 100
    mid = t[i]
    mid.append([7])
    return t, len(t[i]), t[i][-1][0]


def bools_triangle(n):
    rows = [[(i + j) % 3 == 0 for j in range(i + 1)] for i in range(n)]
    count = 0
    for r in rows:
        for b in r:
            if b:
                count += 1
    return rows, count


def index_errors(n, i, j, v):
    t = [[1, 2, 3] for _ in range(n)]
    t[i][j] = v
    return t[i][j], t


def read_errors(t, i, j):
    return t[i][j]


def methods(n, i):
    t = [[k] for k in range(n)]
    u = t + [[10, 11]]
    u[0].append(5)
    t.extend([[20]])
    t += [[30]]
    del t[i]
    w = t * 2
    w[0].append(6)
    return t, u, w


def arrays_in_list(n, m):
    rows = [np.zeros(m) for _ in range(n)]
    for i in range(n):
        for j in range(m):
            rows[i][j] = i + j * 0.5
    total = 0.0
    for r in rows:
        total += r.sum()
    rows.append(np.ones(2))
    return total, rows


def floyd(dist):
    n = len(dist)
    d = [row[:] for row in dist]
    for k in range(n):
        for i in range(n):
            for j in range(n):
                if d[i][k] + d[k][j] < d[i][j]:
                    d[i][j] = d[i][k] + d[k][j]
    return d


def churn(n):
    """Builds and drops lists of lists: memory must stay bounded."""
    s = 0
    for k in range(n):
        t = [[k, 1], [2]]
        t[0].append(3)
        u = [t, t]
        s += len(u[1][0]) + t[1][0]
    return s


def raise_with_rows(n):
    t = [[i] * 3 for i in range(n)]
    keep = t[0]
    if n > 3:
        raise ValueError("too many")
    return keep


def helper_fill(rows, k):
    for r in rows:
        r.append(k)


def fill_via_helper(n):
    rows = [[i] for i in range(n)]
    helper_fill(rows, -1)
    return rows


def arg_total(t):
    s = 0
    for row in t:
        for v in row:
            s += v
    return s, len(t), t


def arg_write_inner(t):
    t[0].append(1)
    return t


def arg_write_alias(t):
    rows = []
    alias = rows
    for r in t:
        rows.append(r)
    alias[0][0] = 5
    return rows


def arg_shallow_ok(t):
    rows = [r for r in t]
    rows.append([1])
    own = [r[:] for r in t]
    own[0].append(2)
    return rows, own


def arg_write_in_callee(t):
    helper_fill(t, 0)
    return t


def to_array(t):
    return np.array(t)


def cube(n, m, k, i):
    t = [[[a + b * 0.5 + c for c in range(k)] for b in range(m)] for a in range(n)]
    if n:
        t[i % n].append([1.0] * k)          # ragged at level 1 when n > 1
    return np.array(t, dtype=np.float32), np.asarray(t).sum()


def replace_row(t, r):
    t[0] = [0]
    r.append(5)
    return len(r) + r[0]


def rows_outlive_their_slots(n):
    t = [[n, 2], [3]]
    r = t[0]
    t[0] = [9]                  # the list drops the row; `r` still holds it
    a = r[1] + len(r)
    u = [[n, 1]]
    b = replace_row(u, u[0])
    s = [[1, 2], [n]]
    last = s[1]
    s.pop()
    x = [[[n]]]
    inner = x[0][0]
    x[0] = [[0]]
    return a, b, last[0] + inner[0], r, u, s, x


def keyed(n):
    rows = [[(i * 7) % 5, i] for i in range(n)]
    s = sorted(rows, key=lambda r: r[0])
    rows.sort(key=lambda r: -r[1])
    return s, rows, max(rows, key=len) if rows else [0]


def perms(xs):
    if len(xs) <= 1:
        return [xs[:]]
    out = []
    for i in range(len(xs)):
        rest = xs[:i] + xs[i + 1:]
        for p in perms(rest):
            out.append([xs[i]] + p)
    return out


def permutations(n):
    return perms(list(range(n)))


def subsets(n):
    res = [[]]
    for x in range(n):
        res = res + [r + [x] for r in res]
    return res


def tuples_holding_lists(n):
    t = [(i, [i] * i) for i in range(n)]
    if n:
        t[0][1].append(5)
    total = 0
    for k, lst in t:
        total += k * len(lst)
    return t, total


def maybe_rows(n):
    if n > 1:
        rows = [[n]]
    return rows                 # UnboundLocalError when n <= 1


def declared_rows(n):
    rows: list[list[float]] = []
    for i in range(n):
        rows.append([float(i)] * i)
    empty: list[list[int]] = []
    return rows, empty


def run_ops(ops):
    """Random edits of a table and rows held on the side (ops: (code, a, b) triples)."""
    t = [[0], [1, 1]]
    held = [0]
    spare = [[7]]
    for k in range(0, len(ops) - 2, 3):
        code, a, b = ops[k], ops[k + 1], ops[k + 2]
        if code == 0:
            t.append([a] * (b % 4))
        elif code == 1 and t:
            t[a % len(t)].append(b)
        elif code == 2 and t:
            row = t[a % len(t)]
            if row:
                row[b % len(row)] = a * b
        elif code == 3 and t:
            held = t.pop(a % len(t))
        elif code == 4:
            t.insert(a, held)
        elif code == 5 and t:
            t[a % len(t)] = spare[0]
            spare[0] = [b]
        elif code == 6:
            t = t[a % 3:] + [row[:] for row in t[:b % 3]]
        elif code == 7 and t:
            del t[a % len(t)]
        elif code == 8:
            t = t * (b % 3)
        elif code == 9 and t and t[0]:
            t[0].pop()
        else:
            spare.append(held)
    return t, held, spare, [len(r) for r in t]


def edges(pairs, n):
    """A graph from a list of (a, b, weight) tuples: degrees and total weight."""
    deg = [0] * n
    w = 0.0
    adj = [[] for _ in range(n)]
    for a, b, c in pairs:
        deg[a] += 1
        deg[b] += 1
        w += c
        adj[a].append((b, c))
    return deg, w, adj, pairs


def tuple_rows(t):
    s = 0.0
    for row in t:
        for a, (b, flag) in row:
            if flag:
                s += a * b
    return s, t


def echo(t):
    return t


def array_to_lists(a):
    rows = a.tolist()
    rows.append([])
    return rows, len(rows[0]) if a.shape[0] else -1
