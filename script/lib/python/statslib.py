"""The `statistics` module on lists of numbers, written in the compiled subset.

Compiled on demand for each element type (as heapqlib's routines are) when user code calls
`statistics.mean(xs)`, `median`, `stdev`, ... (builtins_lowering's library table).

CPython computes `mean`, `variance`, `stdev` and `harmonic_mean` with exact fractions and
rounds once at the end. So do these routines, with floats only: a sum is kept exactly as a
list of float parts (error-free transformations: Dekker's product, Shewchuk's sums, which
`pylib.fsum` rounds correctly), and a quotient or square root is first estimated, then
corrected by the exact sign of `N - q * D` at the midpoints next to the estimate. The results
are CPython's to the last bit wherever the squares of the data do not overflow.

Differences (docs/lists.md): CPython returns an `int` where the exact result over ints is a
whole number (`mean([1, 2, 3])` is `2`) and a `float` otherwise; a static type cannot be both,
so these routines return a float for a list of ints (`2.0`, equal to `2`).
"""

import math
from statistics import StatisticsError

from script.lib.python.pylib import fsum

_SPLIT = 134217729.0            # 2**27 + 1: Veltkamp's splitting constant for float64


def _two_product(parts, a: float, b: float, sign: float) -> None:
    """Append `sign * a * b` to `parts` exactly, as two floats (Dekker)."""
    p = a * b
    c = _SPLIT * a
    ah = c - (c - a)
    al = a - ah
    c = _SPLIT * b
    bh = c - (c - b)
    bl = b - bh
    e = ((ah * bh - p) + ah * bl + al * bh) + al * bl
    parts.append(sign * p)
    parts.append(sign * e)


def _sign(parts) -> int:
    s = fsum(parts)
    return 1 if s > 0.0 else (-1 if s < 0.0 else 0)


def _beyond(num, den, q: float, half: float) -> int:
    """The sign of num - (q + half) * den, exactly (num and den: exact sums of parts;
    `half` a power of two or zero)."""
    parts = list(num)
    for d in den:
        _two_product(parts, q, d, -1.0)
        parts.append(-(half * d))
    return _sign(parts)


def _quotient(num, den) -> float:
    """The float nearest the exact sum of `num` over the exact, positive sum of `den`
    (ties to even)."""
    q = fsum(num) / fsum(den)
    if not _is_exactly_checkable(q):
        return q
    for _ in range(4):
        up = math.nextafter(q, math.inf)
        s = _beyond(num, den, q, (up - q) / 2.0)
        if s > 0 or s == 0 and _is_odd(q):
            q = up
            continue
        down = math.nextafter(q, -math.inf)
        s = _beyond(num, den, q, -(q - down) / 2.0)
        if s < 0 or s == 0 and _is_odd(q):
            q = down
            continue
        break
    return q


def _is_odd(q: float) -> bool:
    """Whether q's last significand bit is set (the rounding tie goes to the even one)."""
    m, e = math.frexp(q)
    return int(m * 9007199254740992.0) % 2 == 1


def _sqrt_beyond(num, den: float, s: float, half: float) -> int:
    """The sign of num - den * (s + half)**2, exactly (half a power of two)."""
    parts = list(num)
    sq = []
    _two_product(sq, s, s, 1.0)
    sq.append(2.0 * s * half)
    sq.append(half * half)
    for t in sq:
        _two_product(parts, den, t, -1.0)
    return _sign(parts)


def _sqrt_quotient(num, den: float) -> float:
    """The float nearest the square root of the exact sum of `num` over `den` > 0."""
    s = math.sqrt(_quotient(num, [den]))
    if not _is_exactly_checkable(s * s):
        return s
    for _ in range(4):
        up = math.nextafter(s, math.inf)
        c = _sqrt_beyond(num, den, s, (up - s) / 2.0)
        if c > 0 or c == 0 and _is_odd(s):
            s = up
            continue
        down = math.nextafter(s, -math.inf)
        c = _sqrt_beyond(num, den, s, -(s - down) / 2.0)
        if c < 0 or c == 0 and _is_odd(s):
            s = down
            continue
        break
    return s


def _is_exactly_checkable(q: float) -> bool:
    """Whether q is far enough from underflow and overflow for the exact products of the
    rounding checks (elsewhere the estimate stands: a difference in the last bit at most)."""
    return 1e-250 < abs(q) < 1e250


def _special_sum(data) -> float:
    """The sum of the infinities and NaNs of `data`, in order (0.0 when there are none):
    what CPython's exact sums keep aside."""
    special = 0.0
    for x in data:
        v = float(x)
        if not math.isfinite(v):
            special += v
    return special


def _exponent(xs) -> int:
    """The binary exponent of the largest magnitude in xs (0 for none): the exact products
    are computed on the data scaled by a power of two near 1, where they cannot overflow."""
    top = 0.0
    for x in xs:
        top = max(top, abs(x))
    return math.frexp(top)[1] if top > 0.0 else 0


def _has_special(data) -> bool:
    for x in data:
        if not math.isfinite(float(x)):
            return True
    return False


def mean(data) -> float:
    xs = [float(x) for x in data]
    if len(xs) < 1:
        raise StatisticsError("mean requires at least one data point")
    if _has_special(xs):
        return _special_sum(xs) / len(xs)
    e = _exponent(xs)
    return math.ldexp(_quotient([math.ldexp(x, -e) for x in xs], [float(len(xs))]), e)


def fmean(data) -> float:
    xs = [float(x) for x in data]
    total = fsum(xs)
    if len(xs) == 0:
        raise StatisticsError("fmean requires at least one data point")
    return total / len(xs)


def geometric_mean(data) -> float:
    logs = []
    for x in data:
        v = float(x)
        if not v > 0.0:
            if math.isnan(v):
                logs.append(v)
                continue
            raise StatisticsError("geometric mean requires a non-empty dataset containing positive numbers")
        logs.append(math.log(v))
    if len(logs) == 0:
        raise StatisticsError("geometric mean requires a non-empty dataset containing positive numbers")
    return math.exp(fsum(logs) / len(logs))


def harmonic_mean(data) -> float:
    xs = [float(x) for x in data]
    n = len(xs)
    if n < 1:
        raise StatisticsError("harmonic_mean requires at least one data point")
    if n == 1:
        if xs[0] < 0.0:
            raise StatisticsError("harmonic mean does not support negative values")
        return xs[0]
    inverses = []
    for x in xs:
        if x < 0.0:
            raise StatisticsError("harmonic mean does not support negative values")
        if x == 0.0:
            return 0.0
        inverses.append(1.0 / x)
    if _has_special(inverses):
        total = _special_sum(inverses)
        if total <= 0.0:
            raise StatisticsError("Weighted sum must be positive")
        return n / total
    if fsum(inverses) <= 0.0:
        raise StatisticsError("Weighted sum must be positive")
    e = _exponent(inverses)
    return math.ldexp(_quotient([float(n)], [math.ldexp(x, -e) for x in inverses]), -e)


def median(data) -> float:
    xs = sorted(data)
    n = len(xs)
    if n == 0:
        raise StatisticsError("no median for empty data")
    if n % 2 == 1:
        return float(xs[n // 2])
    i = n // 2
    return (xs[i - 1] + xs[i]) / 2


def median_low(data):
    xs = sorted(data)
    n = len(xs)
    if n == 0:
        raise StatisticsError("no median for empty data")
    if n % 2 == 1:
        return xs[n // 2]
    return xs[n // 2 - 1]


def median_high(data):
    xs = sorted(data)
    n = len(xs)
    if n == 0:
        raise StatisticsError("no median for empty data")
    return xs[n // 2]


def _counts(data):
    counts = {}
    for x in data:
        counts[x] = counts.get(x, 0) + 1
    return counts


def mode(data):
    counts = _counts(data)
    if len(counts) == 0:
        raise StatisticsError("no mode for empty data")
    best = max(counts.values())
    for value, count in counts.items():
        if count == best:
            return value
    raise StatisticsError("no mode for empty data")


def multimode(data):
    counts = _counts(data)
    if len(counts) == 0:
        return [x for x in data]
    best = max(counts.values())
    return [value for value, count in counts.items() if count == best]


def quantiles(data, n: int = 4, method: str = "exclusive"):
    if n < 1:
        raise StatisticsError("n must be at least 1")
    xs = sorted(data)
    ld = len(xs)
    if ld < 2:
        raise StatisticsError("must have at least two data points")
    result = []
    if method == "inclusive":
        m = ld - 1
        for i in range(1, n):
            j, delta = divmod(i * m, n)
            result.append((xs[j] * (n - delta) + xs[j + 1] * delta) / n)
        return result
    if method == "exclusive":
        m = ld + 1
        for i in range(1, n):
            j = i * m // n
            j = 1 if j < 1 else ld - 1 if j > ld - 1 else j
            delta = i * m - j * n
            result.append((xs[j - 1] * (n - delta) + xs[j] * delta) / n)
        return result
    raise ValueError(f"Unknown method: {method!r}")


def _squares(xs):
    """The exact n * sum(x*x) - sum(x)**2 (n times the sum of squared deviations), as parts."""
    n = float(len(xs))
    parts = []
    for x in xs:
        sq = []
        _two_product(sq, x, x, 1.0)
        for t in sq:
            _two_product(parts, n, t, 1.0)
    total = _exact_sum(xs)
    for a in total:
        for b in total:
            _two_product(parts, a, b, -1.0)
    return parts


def _exact_sum(xs):
    """The exact sum of xs as non-overlapping float parts (Shewchuk's partials)."""
    p = [0.0 for _ in range(0)]
    for item in xs:
        x = item
        q = [0.0 for _ in range(0)]
        for y in p:
            if abs(x) < abs(y):
                x, y = y, x
            hi = x + y
            lo = y - (hi - x)
            if lo != 0.0:
                q.append(lo)
            x = hi
        q.append(x)
        p = q
    return p


def _spread(data, what: str, least: int, sample: bool, root: bool) -> float:
    xs = [float(x) for x in data]
    n = len(xs)
    if n < least:
        raise StatisticsError(f"{what} requires at least {'two data points' if least == 2 else 'one data point'}")
    if _has_special(xs):
        v = _special_sum(xs) / (n - 1 if sample else n)
        if root:
            raise AttributeError("'float' object has no attribute 'numerator'")
        return v
    den = float(n) * float(n - 1 if sample else n)
    e = _exponent(xs)
    scaled = _squares([math.ldexp(x, -e) for x in xs])
    return math.ldexp(_sqrt_quotient(scaled, den), e) if root else math.ldexp(_quotient(scaled, [den]), 2 * e)


def _spread_about(data, c, what: str, least: int, sample: bool, root: bool) -> float:
    """variance(data, xbar) and friends: CPython squares each x - c in the data's own
    arithmetic, then sums the squares exactly."""
    sq = [float((x - c) * (x - c)) for x in data]
    n = len(sq)
    if n < least:
        raise StatisticsError(f"{what} requires at least {'two data points' if least == 2 else 'one data point'}")
    if _has_special(sq):
        v = _special_sum(sq) / (n - 1 if sample else n)
        if root:
            raise AttributeError("'float' object has no attribute 'numerator'")
        return v
    den = float(n - 1 if sample else n)
    e = 2 * (_exponent(sq) // 2)
    scaled = _exact_sum([math.ldexp(x, -e) for x in sq])
    return math.ldexp(_sqrt_quotient(scaled, den), e // 2) if root else math.ldexp(_quotient(scaled, [den]), e)


def variance(data, xbar=None) -> float:
    if xbar is None:
        return _spread(data, "variance", 2, True, False)
    return _spread_about(data, xbar, "variance", 2, True, False)


def pvariance(data, mu=None) -> float:
    if mu is None:
        return _spread(data, "pvariance", 1, False, False)
    return _spread_about(data, mu, "pvariance", 1, False, False)


def stdev(data, xbar=None) -> float:
    if xbar is None:
        return _spread(data, "stdev", 2, True, True)
    return _spread_about(data, xbar, "stdev", 2, True, True)


def pstdev(data, mu=None) -> float:
    if mu is None:
        return _spread(data, "pstdev", 1, False, True)
    return _spread_about(data, mu, "pstdev", 1, False, True)


ROUTINES = ("mean", "fmean", "geometric_mean", "harmonic_mean", "median", "median_low", "median_high",
            "mode", "multimode", "quantiles", "variance", "pvariance", "stdev", "pstdev")
