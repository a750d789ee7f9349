"""NumPy's Generator API (``rng = np.random.default_rng(seed)``; ``rng.random``, ``normal``,
``integers``, ``choice``, ...) in compiled code, written in the compiled subset itself.

A compiled Generator is NumPy's: a PCG64 seeded through SeedSequence (pcg64.py), in the
`rng_state` part ``generator_pcg`` (one per process), drawing as NumPy's Generator draws,
so that `default_rng(seed)` gives NumPy's numbers for the same seed:

- doubles are ``(next64 >> 11) * 2**-53``; `uniform` is ``low + (high - low) * U``;
- normals and exponentials are NumPy's ziggurats over NumPy's own tables (ziggurat.py;
  `require` loads them before a method that needs them is compiled, or refuses it);
- `integers` is Lemire's bounded integers (``random_bounded_uint64_fill``): 32-bit draws
  (halves of 64-bit ones, buffered in the state) for spans below 2**32;
- `shuffle` and `permutation` swap with ``random_interval`` (masked rejection) from the last
  element down, as the legacy functions do (nprandom's, rebound to this state);
- `choice` without replacement is NumPy's: Floyd's sampling with a hash set, then a
  shuffle, or for a large population a partial shuffle of ``arange(n)``; with `p` the
  inverse of its cumulative sum by ``searchsorted(side='right')``;
- `poisson` is Knuth's product below 10 and Hormann's PTRS above, with NumPy's own log-gamma
  (``random_loggam``); `binomial` is npbinomial's, rebound to this state.

`default_rng()` without a seed leaves the state as it is (seeded from the system's entropy
when the process links its first library). The functions take NumPy's Generator parameter
names, so bind() reports the others.
"""

from __future__ import annotations

import math

import numpy as np

from script.frontend import ziggurat
from script.lib.numpy import npbinomial, nprandom
from script.frontend.mt19937 import rebound
from script.lib.numpy.pcg64 import GENERATOR_STATE, mulhi, next32, next64, next_double
from script.lib.numpy.pcg64 import seed as _seed

# npbinomial's and nprandom's functions drawing from the Generator's PCG64 (their draws
# are NumPy's Generator's: binomial on doubles, shuffle on random_interval)
_binomial = rebound(vars(npbinomial), NUMPY_STATE=GENERATOR_STATE, next_double=next_double)
_legacy = rebound(vars(nprandom), NUMPY_STATE=GENERATOR_STATE, next32=next32, next64=next64,
                  next_double=next_double, binomial=_binomial.binomial)
binomial = _binomial.binomial
_count, _interval = _legacy._count, _legacy._interval
permutation, permutation_of_int, shuffle = _legacy.permutation, _legacy.permutation_of_int, _legacy.shuffle

_STANDARD, _UNIFORM, _STANDARD_NORMAL, _NORMAL, _STANDARD_EXPONENTIAL, _EXPONENTIAL = range(6)
_NEEDS_TABLES = ("standard_normal", "normal", "standard_exponential", "exponential")
_POISSON_LAM_MAX = float(2**63 - 1) - math.sqrt(2**63 - 1) * 10     # NumPy's POISSON_LAM_MAX

# NumPy's ziggurat tables (ziggurat.py), set by `require` before any use is compiled
KI = WI = FI = KE = WE = FE = None


def require(method: str) -> str | None:
    """Why Generator.`method` cannot be compiled exactly here (None when it can): the
    normal and exponential methods need NumPy's ziggurat tables, loaded here on first use."""
    global KI, WI, FI, KE, WE, FE
    if method not in _NEEDS_TABLES or KI is not None:
        return None
    try:
        t = ziggurat.tables()
    except LookupError as e:
        return f"Generator.{method}() needs NumPy's ziggurat tables to give NumPy's numbers: {e}"
    KI, WI, FI = t["ki_double"], t["wi_double"], t["fi_double"]
    KE, WE, FE = t["ke_double"], t["we_double"], t["fe_double"]
    return None


def seed_generator(seed: int) -> None:
    _seed(GENERATOR_STATE(), seed)


# ---- floats ----------------------------------------------------------------------------------

def _standard_normal(g) -> float:
    """random_standard_normal: the ziggurat, 8 bits of strip, a sign, 52 bits of position."""
    while True:
        r = next64(g)
        idx = int(r & 0xff)
        r >>= 8
        rabs = (r >> 1) & 0x000fffffffffffff
        x = float(rabs) * WI[idx]
        if r & 1 != 0:
            x = -x
        if rabs < KI[idx]:
            return x
        if idx == 0:                    # the tail beyond R
            while True:
                xx = -ziggurat.NORMAL_INV_R * math.log1p(-next_double(g))
                yy = -math.log1p(-next_double(g))
                if yy + yy > xx * xx:
                    if (rabs >> 8) & 1 != 0:
                        return -(ziggurat.NORMAL_R + xx)
                    return ziggurat.NORMAL_R + xx
        elif (FI[idx - 1] - FI[idx]) * next_double(g) + FI[idx] < math.exp(-0.5 * x * x):
            return x


def _standard_exponential(g) -> float:
    """random_standard_exponential: the ziggurat on 61 bits (8 of strip)."""
    while True:
        r = next64(g) >> 3
        idx = int(r & 0xff)
        r >>= 8
        x = float(r) * WE[idx]
        if r < KE[idx]:
            return x
        if idx == 0:
            return ziggurat.EXPONENTIAL_R - math.log1p(-next_double(g))
        if (FE[idx - 1] - FE[idx]) * next_double(g) + FE[idx] < math.exp(-x):
            return x


def _draw(g, kind: int, a: float, b: float) -> float:
    if kind == _STANDARD_NORMAL:
        return _standard_normal(g)
    if kind == _NORMAL:
        return a + b * _standard_normal(g)
    if kind == _STANDARD_EXPONENTIAL:
        return _standard_exponential(g)
    return a * _standard_exponential(g)


def _uniform(g, kind: int, a: float, b: float) -> float:
    if kind == _STANDARD:
        return next_double(g)
    return a + b * next_double(g)


def _floats(size, draw, kind: int, a: float, b: float):
    """One ``draw(g, kind, a, b)`` when `size` is None, else a float64 array of `size` of
    them, in C order (`draw` is bound when compiled: uniforms compile no ziggurat)."""
    g = GENERATOR_STATE()
    if size is None:
        return draw(g, kind, a, b)
    out = np.empty(size)
    flat = out.reshape(-1)
    for i in range(flat.shape[0]):
        flat[i] = draw(g, kind, a, b)
    return out


def random(size=None):
    return _floats(size, _uniform, _STANDARD, 0.0, 1.0)


def uniform(low: float = 0.0, high: float = 1.0, size=None):
    span = high - low
    if not math.isfinite(span):
        raise OverflowError("high - low range exceeds valid bounds")
    if span < 0.0:
        raise ValueError("high - low < 0")
    return _floats(size, _uniform, _UNIFORM, low, span)


def standard_normal(size=None):
    return _floats(size, _draw, _STANDARD_NORMAL, 0.0, 1.0)


def normal(loc: float = 0.0, scale: float = 1.0, size=None):
    if scale < 0.0:
        raise ValueError("scale < 0")
    return _floats(size, _draw, _NORMAL, loc, scale)


def standard_exponential(size=None):
    return _floats(size, _draw, _STANDARD_EXPONENTIAL, 1.0, 0.0)


def exponential(scale: float = 1.0, size=None):
    if scale < 0.0:
        raise ValueError("scale < 0")
    return _floats(size, _draw, _EXPONENTIAL, scale, 0.0)


# ---- integers ------------------------------------------------------------------------------

def _lemire32(g, rng) -> int:
    """buffered_bounded_lemire_uint32: a value in [0, rng] (rng < 2**32 - 1, u64)."""
    excl = rng + 1
    m = np.uint64(next32(g)) * excl
    leftover = m & 0xffffffff
    if leftover < excl:
        threshold = (np.uint64(0xffffffff) - rng) % excl
        while leftover < threshold:
            m = np.uint64(next32(g)) * excl
            leftover = m & 0xffffffff
    return np.int64(m >> 32)


def _lemire64(g, rng) -> int:
    """bounded_lemire_uint64: a value in [0, rng] (rng < 2**64 - 1, u64), as int64 bits."""
    excl = rng + 1
    x = next64(g)
    leftover = x * excl
    if leftover < excl:
        threshold = (np.uint64(0xffffffffffffffff) - rng) % excl
        while leftover < threshold:
            x = next64(g)
            leftover = x * excl
    return np.int64(mulhi(x, excl))


def _bounded(g, off: int, rng) -> int:
    """random_bounded_uint64 without masking: `off` plus a value in [0, rng] (rng u64)."""
    if rng == 0:
        return off
    if rng < 0xffffffff:
        return off + _lemire32(g, rng)
    if rng == 0xffffffff:
        return off + np.int64(next32(g))
    if rng == np.uint64(0xffffffffffffffff):
        return off + np.int64(next64(g))
    return off + _lemire64(g, rng)


def integers(low, high=None, size=None, endpoint=False):
    """int64 values in [low, high) ([low, high] with `endpoint`; from 0 without `high`)."""
    if high is None:
        return _integers(0, low, size, endpoint)
    return _integers(low, high, size, endpoint)


def _integers(low: int, high: int, size, closed: bool):
    if size is not None:
        if _count(size) == 0:
            return np.empty(size, dtype=np.int64)
    if closed:
        if low > high:
            raise ValueError("high < 0" if low == 0 else "low > high")
        rng = np.uint64(np.int64(high)) - np.uint64(np.int64(low))
    else:
        if low >= high:
            raise ValueError("high <= 0" if low == 0 else "low >= high")
        rng = np.uint64(np.int64(high)) - np.uint64(np.int64(low)) - np.uint64(1)
    g = GENERATOR_STATE()
    if size is None:
        return _bounded(g, low, rng)
    out = np.empty(size, dtype=np.int64)
    flat = out.reshape(-1)
    for i in range(flat.shape[0]):
        flat[i] = _bounded(g, low, rng)
    return out


# ---- choice ----------------------------------------------------------------------------------

def _check_sample(n: int, size, what: str) -> None:
    if n <= 0:
        if size is None:
            raise ValueError(what)
        if _count(size) != 0:
            raise ValueError(what)


def choice_of_int(a: int, size=None, replace=True):
    """``choice(n, size, replace)``: values of ``arange(n)``."""
    _check_sample(a, size, "a must be a positive integer unless no samples are taken")
    if replace:
        return _integers(0, a, size, False)
    return _without_replacement(a, size)


def choice(a, size=None, replace=True):
    """``choice(a, size, replace)`` of a 1-d array, equal probabilities."""
    _check_sample(a.shape[0], size, "a cannot be empty unless no samples are taken")
    if replace:
        return a[_integers(0, a.shape[0], size, False)]
    return a[_without_replacement(a.shape[0], size)]


def _shuffle_tail(g, idx, n: int, first: int) -> None:
    """_shuffle_int: swaps from n - 1 down to `first` with bounded Lemire draws."""
    for i in range(n - 1, first - 1, -1):
        j = _bounded(g, 0, np.uint64(i))
        idx[i], idx[j] = idx[j], idx[i]


def _without_replacement(n: int, size):
    """NumPy's sample without replacement of `k` of ``arange(n)`` (one value without a
    size, as an index): a partial shuffle of the whole range for large populations, else
    Floyd's algorithm with an open-addressing set, then a shuffle of the sample."""
    k = 1 if size is None else _count(size)
    if k > n:
        raise ValueError("Cannot take a larger sample than population when replace is False")
    if k < 0:
        raise ValueError("negative dimensions are not allowed")
    g = GENERATOR_STATE()
    if n > 10000 and k > n // 50:
        pool = np.arange(n)
        _shuffle_tail(g, pool, n, max(n - k, 1))
        idx = pool[n - k:].copy()
    else:
        idx = np.empty(k, dtype=np.int64)
        mask = _legacy._mask(int(1.2 * k))
        empty = np.uint64(0xffffffffffffffff)
        table = np.full(mask + 1, empty, dtype=np.uint64)
        for j in range(n - k, n):
            val = _bounded(g, 0, np.uint64(j))
            loc = val & mask
            while table[loc] != empty and table[loc] != np.uint64(val):
                loc = (loc + 1) & mask
            if table[loc] == empty:
                table[loc] = val
                idx[j - n + k] = val
            else:
                loc = j & mask
                while table[loc] != empty:
                    loc = (loc + 1) & mask
                table[loc] = j
                idx[j - n + k] = j
        _shuffle_tail(g, idx, k, 1)
    if size is None:
        return idx[0]
    return idx.reshape(size)


def _cdf_of(p, n: int):
    """The cumulative sum of probabilities `p` for `n` values, checked as NumPy checks it
    (a Kahan sum for the total), normalized by its last value."""
    if p.ndim != 1:
        raise ValueError("p must be 1-dimensional")
    if p.shape[0] != n:
        raise ValueError("a and p must have same size")
    total = 0.0
    c = 0.0
    negative = False
    for i in range(n):
        x = float(p[i])
        if x < 0.0:
            negative = True
        y = x - c
        t = total + y
        c = (t - total) - y
        total = t
    if math.isnan(total):
        raise ValueError("Probabilities contain NaN")
    if negative:
        raise ValueError("Probabilities are not non-negative")
    if abs(total - 1.0) > math.sqrt(2.220446049250313e-16):
        raise ValueError("Probabilities do not sum to 1. See Notes section of docstring for more information.")
    cdf = np.empty(n)
    acc = 0.0
    for i in range(n):
        acc += float(p[i])
        cdf[i] = acc
    return cdf / cdf[n - 1]


def _weighted_index(g, cdf) -> int:
    """``cdf.searchsorted(U, side='right')``: the first index whose cdf exceeds U."""
    u = next_double(g)
    lo = 0
    hi = cdf.shape[0]
    while lo < hi:
        mid = (lo + hi) // 2
        if cdf[mid] > u:
            hi = mid
        else:
            lo = mid + 1
    return lo


def _weighted(n: int, size, p):
    cdf = _cdf_of(p, n)
    return _int_draws(size, _weighted_index, GENERATOR_STATE(), cdf)


def _int_draws(size, draw, g, x):
    """One ``draw(g, x)`` when `size` is None, else an int64 array of `size` of them."""
    if size is None:
        return draw(g, x)
    out = np.empty(size, dtype=np.int64)
    flat = out.reshape(-1)
    for i in range(flat.shape[0]):
        flat[i] = draw(g, x)
    return out


def choice_of_int_p(a: int, size=None, replace=True, p=None):
    """``choice(n, size, p=p)``: with replacement, by inverting p's cumulative sum."""
    _check_sample(a, size, "a must be a positive integer unless no samples are taken")
    return _weighted(a, size, p)


def choice_p(a, size=None, replace=True, p=None):
    _check_sample(a.shape[0], size, "a cannot be empty unless no samples are taken")
    return a[_weighted(a.shape[0], size, p)]


# ---- discrete distributions ----------------------------------------------------------------

def poisson(lam: float = 1.0, size=None):
    """Knuth's product of uniforms below lam 10, Hormann's PTRS from 10 (random_poisson)."""
    if not lam >= 0.0:
        raise ValueError("lam < 0 or lam is NaN")
    if not lam <= _POISSON_LAM_MAX:
        raise ValueError("lam value too large")
    return _int_draws(size, _poisson, GENERATOR_STATE(), lam)


def _poisson(g, lam: float) -> int:
    if lam >= 10.0:
        return _poisson_ptrs(g, lam)
    if lam == 0.0:
        return 0
    enlam = math.exp(-lam)
    k = 0
    prod = 1.0
    while True:
        prod *= next_double(g)
        if prod > enlam:
            k += 1
        else:
            return k


def _poisson_ptrs(g, lam: float) -> int:
    slam = math.sqrt(lam)
    loglam = math.log(lam)
    b = 0.931 + 2.53 * slam
    a = -0.059 + 0.02483 * b
    invalpha = 1.1239 + 1.1328 / (b - 3.4)
    vr = 0.9277 - 3.6224 / (b - 2.0)
    while True:
        u = next_double(g) - 0.5
        v = next_double(g)
        us = 0.5 - abs(u)
        k = int(math.floor((2.0 * a / us + b) * u + lam + 0.43))
        if us >= 0.07 and v <= vr:
            return k
        if k < 0 or (us < 0.013 and v > us):
            continue
        if math.log(v) + math.log(invalpha) - math.log(a / (us * us) + b) <= \
                -lam + k * loglam - _loggam(k + 1.0):
            return k


_LOGGAM_COEFFS = np.array([8.333333333333333e-02, -2.777777777777778e-03, 7.936507936507937e-04,
                           -5.952380952380952e-04, 8.417508417508418e-04, -1.917526917526918e-03,
                           6.410256410256410e-03, -2.955065359477124e-02, 1.796443723688307e-01,
                           -1.39243221690590e+00])


def _loggam(x: float) -> float:
    """NumPy's random_loggam: Stirling's series from x + n >= 7, then the recurrence down."""
    if x == 1.0 or x == 2.0:
        return 0.0
    n = int(7.0 - x) if x < 7.0 else 0
    x0 = x + n
    x2 = (1.0 / x0) * (1.0 / x0)
    gl0 = _LOGGAM_COEFFS[9]
    for k in range(8, -1, -1):
        gl0 *= x2
        gl0 += _LOGGAM_COEFFS[k]
    gl = gl0 / x0 + 0.5 * 1.8378770664093453 + (x0 - 0.5) * math.log(x0) - x0
    for _ in range(n):
        gl -= math.log(x0 - 1.0)
        x0 -= 1.0
    return gl


__all__ = ["binomial", "choice", "choice_of_int", "choice_of_int_p", "choice_p", "exponential", "integers",
           "normal", "permutation", "permutation_of_int", "poisson", "random", "require", "seed_generator",
           "shuffle", "standard_exponential", "standard_normal", "uniform"]
