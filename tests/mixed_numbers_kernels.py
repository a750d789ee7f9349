"""Kernels for tests/test_mixed_numbers.py (in a file: the compiler reads source): values that
are an int on some paths and a float on others (frontend/mixed_numbers.py)."""

import math
import numpy as np


def pick(c, a, b):
    x = a
    if c:
        x = b
    return x


def accumulate(xs):
    s = 0
    for v in xs:
        s += v
    return s


def power(a, b):
    if b < 0:
        return 1 / power(a, -b)
    r = 1
    for _ in range(b):
        r *= a
    return r


def uses(c, a, b):
    x = a if c else b
    y = abs(x) + math.floor(x) - int(x) + float(x)
    text = str(x) + "|" + repr(x) + "|" + f"{x}|{x!r}|{-x}"
    return x, y, text, bool(x), not x, x == 0, x < 1, isinstance(x, int), isinstance(x, float)


def printed(c):
    x = 3 if c else 2.5
    print(x, -x, (x, 1))
    return x * 2


def helper(n):
    if n % 3 == 0:
        return n // 3
    return n / 3


def calls(n):
    total = 0
    for i in range(n):
        total = max(total, helper(i) + 1)
    return total, helper(n), str(helper(n))


def best_of(xs):
    best = float("-inf")
    for x in xs:
        best = max(best, x)
    lo = min(0, best)
    return best, lo


def bisect_root(n, tol):
    lo, hi = 0, n
    while hi - lo > tol:
        mid = (lo + hi) / 2
        if mid * mid > n:
            hi = mid
        else:
            lo = mid
    return lo, hi


def median(xs):
    s = sorted(xs)
    n = len(s)
    if n == 0:
        return 0
    if n % 2:
        return s[n // 2]
    return (s[n // 2 - 1] + s[n // 2]) / 2


def counts(n, frac):
    x = 0
    k = 0
    while k < n:
        if k % 2:
            x = x + frac
        else:
            x = x - 1
        k += 1
    return x, type(x) is int


def compares(a, b):
    return a == b, a != b, a < b, a <= b, a > b, a >= b


def quotients(a, b):
    s = 0.0
    for i in range(a % 3):
        s += i / b
    return a / b, b / 7, (a - 1) / 2**60, s


def tuple_swap(c):
    a, b = 1, 2.5
    if c:
        a, b = b, a
    return a, b, a + b


def hoisted(xs, ys):
    best = 0
    for i in range(len(xs)):
        best = max(best, xs[i] * 2 + helper(ys[i]))
    return best


def float_sum(xs):
    s = 0.0
    for v in xs:
        s += v
    return s


def int_loop(n):
    k = 0
    t = 0
    while k < n:
        t += k * 2
        k += 1
    return t


def pick_index(items, index):
    if index >= len(items) or index < 0:
        return None
    return sorted(items)[index]


def optional_median(items):
    """(searches/quick_select.py's shape: an int-or-None helper, a float average)"""
    mid, rem = divmod(len(items), 2)
    if rem != 0:
        return pick_index(items, mid)
    low = pick_index(items, mid - 1)
    high = pick_index(items, mid)
    return (low + high) / 2


def tuple_at(i, n):
    t = (1, 2.5, n)             # read at a run-time index: the int's own type (was 1.0)
    return t[i], t[i] * 2


def over_tuple(n):
    out = []
    s = 0
    t = n
    for x in (1, 2.5, n):       # the loop variable is an int, then a float, then an int
        out.append(repr(x))
        s = s + x
        t += x                  # (an augmented assignment reads it as a BinOp does)
    return out, s, t


# ---- lists of ints and floats (a list of `num`): each element keeps its type ----------------

def list_display(n):
    xs = [1, 2.5, n]
    return xs, sorted(xs), max(xs), min(xs), sum(xs), xs.index(2.5), n in xs, xs[::-1], xs * 2, xs + [n]


def list_appends(n):
    ys = []
    for i in range(n):
        ys.append(i if i % 2 else i / 2)
    return ys, sum(ys), str(ys), len(ys)


def list_store(n):
    xs = [1, 2, 3]
    xs[n % 3] = 0.5
    return xs, [x * 2 for x in xs]


def nested_lists(n):
    rows = [[1, 2.5], [3, n]]
    return rows, [sum(r) for r in rows]


def star_rest(n):
    x, *rest = (n, 2.5, 3)
    return rest, sum(rest), rest[1], x


def keyed(xs):
    ys = [x if x > 0 else -0.5 for x in xs]
    out = []
    for y in ys:
        out.append(abs(y))
    print(ys, ys[0] if ys else 0, len(ys) or None)
    return sorted(ys, key=abs), out, [str(y) for y in ys], [f"{y}" for y in ys]


# ---- dicts whose values are ints and floats (values of `num`) -----------------------------

def dict_display(n):
    d = {"kj": 1000, "j": 1.0, "n": n}
    return d, d["kj"], sum(d.values()), sorted(d.values()), str(d)


def dict_stores(n):
    d = {}
    for i in range(n):
        d[i] = i if i % 2 else i / 2
    e = {"a": 1}
    e["b"] = 2.5
    e["a"] += n
    return d, list(d.values()), max(d.values()) if d else 0, e, {i: (i if i % 2 else 0.5) for i in range(n)}


def annotated_series(n: int, a: float, r: float) -> list[float]:
    """geometric_series' shape: an annotated empty list given an int first, then floats."""
    if not n:
        return []
    series: list[float] = []
    for _ in range(n):
        series.append(a if not series else float(series[-1] * r))
    return series


def coin_change(n, coins):
    dp = [float("inf")] * (n + 1)
    dp[0] = 0
    for i in range(1, n + 1):
        for c in coins:
            if c <= i and dp[i - c] + 1 < dp[i]:
                dp[i] = dp[i - c] + 1
    return dp[n], dp[:3]


def _best_cut(n, prices, max_rev):
    if max_rev[n] >= 0:
        return max_rev[n]
    if n == 0:
        return 0
    best = float("-inf")
    for i in range(1, n + 1):
        best = max(best, prices[i - 1] + _best_cut(n - i, prices, max_rev))
    max_rev[n] = best
    return max_rev[n]


def rod_cut(n, prices):
    """rod_cutting's top-down shape: a callee stores ints into a list of floats its caller
    made (the caller's list becomes one of num)."""
    max_rev = [float("-inf") for _ in range(n + 1)]
    return _best_cut(n, prices, max_rev), max_rev


def returned_displays(a):
    """Returns of a list of floats, of ints and of both: each display a list of num."""
    if a > 1:
        return [1.5, 2.5]
    if a > 0:
        return [1, 2]
    return [a, 0.5]


def hsv_like(red: int, blue: int) -> list[float]:
    """rgb_to_hsv's shape: a display of a float and an int|float under `-> list[float]`."""
    value = red / 255
    saturation = 0 if value == 0 else blue / value
    return [value, saturation]


def knapsack_fractions(value, weight, capacity):
    """fractional_knapsack's shape: `[0] * n` given ints and floats inside a loop."""
    index = sorted(range(len(value)), key=lambda i: value[i] / weight[i], reverse=True)
    total: float = 0
    fractions: list[float] = [0] * len(value)
    for i in index:
        if weight[i] <= capacity:
            fractions[i] = 1
            total += value[i]
            capacity -= weight[i]
        else:
            fractions[i] = capacity / weight[i]
            total += value[i] * capacity / weight[i]
            break
    return total, fractions


def neville(xs, ys, x0):
    """nevilles_method's shape: floats stored into the int rows of a comprehension's table."""
    n = len(xs)
    q = [[0] * n for _ in range(n)]
    for i in range(n):
        q[i][1] = ys[i]
    for i in range(2, n):
        for j in range(i, n):
            q[j][i] = ((x0 - xs[j - i + 1]) * q[j][i - 1] - (x0 - xs[j]) * q[j - 1][i - 1]) / (xs[j] - xs[j - i + 1])
    return q[n - 1][n - 1], q


def scale_in_place(xs, k):
    """A list argument of ints and floats written in place: the caller sees each element's
    own type, as in CPython."""
    for i in range(len(xs)):
        xs[i] = xs[i] * k
    xs.append(1)
    xs.sort()
    return sum(xs), xs[0]


def generated(xs):
    """Generator expressions over ints and floats: each consumer takes the num apart."""
    if any(not isinstance(x, int) or x < 0 for x in xs):
        kind = "not all non-negative ints"
    else:
        kind = "ints"
    return kind, sum(x * 2 for x in xs), sorted(x for x in xs), max(x for x in xs), [*xs[1:], xs[0]]


def matmul(a, b):
    """matrix_operation.multiply's shape: sums of products of a list[list[num]]."""
    return [[sum(m * n for m, n in zip(i, j)) for j in zip(*b)] for i in a]


def sets_and_keys(xs, n):
    """Sets and dict keys of ints and floats: 1 and 1.0 are one key, the first one kept."""
    d = {1: "a", 2.5: "b"}
    d[1.0] = "c"
    s = {1, 2.5, n}
    s.add(1.0)
    seen = set()
    for x in (1, 2.0, 3, 2, 1.5):
        seen.add(x)
    return d, s, 1.0 in s, 2 in d, seen, len(set(xs)) == len(xs), sorted(set(xs))


def _combine(candidates, path, answer, target, start):
    if target == 0:
        answer.append(path.copy())
        return
    for index in range(start, len(candidates)):
        if target >= candidates[index]:
            path.append(candidates[index])
            _combine(candidates, path, answer, target - candidates[index], index)
            path.pop()


def combination_sum(candidates, target):
    """combination_sum's shape: empty lists a callee fills with ints and floats, and a list
    of copies of them."""
    path = []
    answer = []
    _combine(candidates, path, answer, target, 0)
    return answer


def stores_into_arrays(xs):
    """An int|float stored into a float array and an int array: the one it holds, converted
    as NumPy's item assignment converts it (2.5 into an int array is 2)."""
    out, ints = np.zeros(len(xs) + 1), np.zeros(len(xs) + 1, dtype=np.int64)
    s = 0
    for k, x in enumerate(xs):
        s = s + x if k % 2 == 0 else s * 2
        out[k] = s
        ints[k] = s
    out[len(xs)] = s
    return [float(v) for v in out], [int(v) for v in ints]


def _row_sums(m, u):
    out = []
    for row in m:
        s = 0                       # an int, then a float once a float is added: int|float
        for a, b in zip(row, u):
            s += a * b
        out.append(s)
    return out


def power_steps(m, n):
    # `u = [1] * len(m)` (ints) meets `u = _row_sums(...)`, a list of int|float values, at
    # the loop's head: the display makes int|float values, its ints staying ints
    u = [1] * len(m)
    for _ in range(n):
        u = _row_sums(m, u)
    return u


def int_power(a, b):
    """int ** int: an int for a non-negative exponent, float(a) ** float(b) for a negative
    one (0 ** -1 raises ZeroDivisionError, as float's)."""
    return a ** b


def int_pow_call(a, b):
    x = a
    x **= b
    return pow(a, b), x


def alternating_series(n):
    # (-1) ** k over a range: the passes prove k >= 0 and the float side disappears
    s = 0.0
    for k in range(n):
        s += (-1) ** k / (2 * k + 1)
    return s


def p_series(n, p):
    # from a collection of algorithms: a list of strings made from `pow(i, p)`
    return [f"1 / {pow(i, p)}" if i != 1 else "1" for i in range(1, n + 1)]


def geometric_sum(first, ratio, n):
    total = 0
    for i in range(n):
        total += first * ratio ** i
    return total


def powers_table(base, lo, hi):
    return [base ** e for e in range(lo, hi)]


def karatsuba(a, b):
    # from a collection of algorithms: the exponent `m2` is a length // 2, never negative,
    # so `10 ** m2` stays an int and the recursion takes ints
    if len(str(a)) == 1 or len(str(b)) == 1:
        return a * b
    m1 = max(len(str(a)), len(str(b)))
    m2 = m1 // 2
    a1, a2 = divmod(a, 10**m2)
    b1, b2 = divmod(b, 10**m2)
    x = karatsuba(a2, b2)
    y = karatsuba((a1 + a2), (b1 + b2))
    z = karatsuba(a1, b1)
    return (z * 10 ** (2 * m2)) + ((y - z - x) * 10 ** (m2)) + (x)


def last_digits(n):
    # pow(2, e, 10 ** n): a float modulus (n < 0) is CPython's TypeError, at run time
    modulus = 10**n
    return 28433 * pow(2, 7830457, modulus) + 1


def ascending_runs(seq):
    # TheAlgorithms sorts/tim_sort.py: `run = [seq[0]]` before a loop that makes `run =
    # [seq[i]]` again and appends: both displays become lists of num together
    runs = []
    run = [seq[0]]
    i = 1
    while i < len(seq):
        if seq[i] < seq[i - 1]:
            runs.append(run)
            run = [seq[i]]
        else:
            run.append(seq[i])
        i += 1
    runs.append(run)
    return runs


def champernowne_digits(s, top):
    # Project Euler 40 (nayuki): `10 ** i` of a range variable is an int|float until the
    # optimizer proves the exponent >= 0; the float side raises CPython's TypeError if run
    out = 1
    for i in range(top):
        out *= int(s[10 ** i - 1])
    return out


def indexed_by(s, x):
    return s[x]


def float_totals(xs, n):
    # sum()/math.prod() of floats without a start: CPython's int start when there are none
    rows = [[x * k for x in xs] for k in range(n)]
    return sum(xs), math.prod(xs), sum(x / 2 for x in xs), [sum(r) for r in rows], sum(xs, 0.0)
