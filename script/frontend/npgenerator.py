"""NumPy's Generator API (``rng = np.random.default_rng(seed)``; ``rng.random``, ``normal``,
``integers``, ``choice``, ...) in compiled code, written in the compiled subset itself.

A compiled Generator draws from the compiled `numpy` MT19937 state (nprandom.py's), not from
a PCG64 of its own: the numbers are not NumPy's stream (docs/random.md), but the same seed
gives the same numbers in every compiled function and run. `default_rng(seed)` seeds that
state with init_by_array on the seed's 32-bit words (any int ``0 <= seed < 2**64``), and
`default_rng()` leaves it as it is (a stream seeded from the system's entropy). The
functions take NumPy's Generator parameter names, so bind() reports the others; the
distributions are nprandom's (53-bit doubles, polar Box-Muller, masked rejection).
"""

from __future__ import annotations

import math

import numpy as np

from script.frontend.mt19937 import NUMPY_GAUSS, NUMPY_WORDS, init_by_array, next_double
from script.frontend.nprandom import (_count, _interval, _randint, _sample, permutation,
                                      permutation_of_int, random_sample, shuffle,
                                      standard_exponential, standard_normal, uniform)

_UNIFORM, _NORMAL, _EXPONENTIAL = 0, 1, 2       # nprandom._draw's kinds


def seed_generator(seed: int) -> None:
    if seed < 0:
        raise ValueError("expected non-negative integer")
    hi = (seed >> 32) & 0xffffffff
    init_by_array(NUMPY_WORDS(), seed & 0xffffffff, hi, 2 if hi != 0 else 1)
    NUMPY_GAUSS()[0] = 0.0


def random(size=None):
    return random_sample(size)


def normal(loc: float = 0.0, scale: float = 1.0, size=None):
    if scale < 0.0:
        raise ValueError("scale < 0")
    return _sample(size, _NORMAL, loc, scale)


def exponential(scale: float = 1.0, size=None):
    if scale < 0.0:
        raise ValueError("scale < 0")
    return _sample(size, _EXPONENTIAL, scale, 0.0)


def integers(low, high=None, size=None, endpoint=False):
    """int64 values in [low, high) ([low, high] with `endpoint`; [0, low) without `high`)."""
    if high is None:
        return _randint(0, low + 1 if endpoint else low, size)
    return _randint(low, high + 1 if endpoint else high, size)


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
        return _randint(0, a, size)
    return _without_replacement(a, size)


def choice(a, size=None, replace=True):
    """``choice(a, size, replace)`` of a 1-d array, equal probabilities."""
    _check_sample(a.shape[0], size, "a cannot be empty unless no samples are taken")
    if replace:
        idx = _randint(0, a.shape[0], size)
        return a[idx]
    return a[_without_replacement(a.shape[0], size)]


def _without_replacement(n: int, size):
    """The first `k` of a partial Fisher-Yates shuffle of ``arange(n)`` (one value without a
    size, as an index)."""
    k = 1 if size is None else _count(size)
    if k > n:
        raise ValueError("Cannot take a larger sample than population when replace is False")
    pool = np.arange(n)
    mt = NUMPY_WORDS()
    for i in range(k):
        j = i + _interval(mt, n - 1 - i)
        pool[i], pool[j] = pool[j], pool[i]
    if size is None:
        return pool[0]
    return pool[:k].copy().reshape(size)


def _cdf_of(p, n: int):
    """The cumulative sum of probabilities `p` for `n` values, checked as NumPy checks it."""
    if p.ndim != 1:
        raise ValueError("p must be 1-dimensional")
    if p.shape[0] != n:
        raise ValueError("a and p must have same size")
    cdf = np.empty(n)
    acc = 0.0
    for i in range(n):
        x = float(p[i])
        if not x >= 0.0:
            raise ValueError("Probabilities are not non-negative")
        acc += x
        cdf[i] = acc
    if abs(acc - 1.0) > math.sqrt(2.220446049250313e-16):
        raise ValueError("Probabilities do not sum to 1. See Notes section of docstring for more information.")
    return cdf / acc


def _weighted_index(mt, cdf) -> int:
    u = next_double(mt)
    lo = 0
    hi = cdf.shape[0] - 1
    while lo < hi:                      # the first index whose cdf exceeds u
        mid = (lo + hi) // 2
        if cdf[mid] > u:
            hi = mid
        else:
            lo = mid + 1
    return lo


def _weighted(n: int, size, p):
    cdf = _cdf_of(p, n)
    return _int_draws(size, _weighted_index, NUMPY_WORDS(), cdf)


def _int_draws(size, draw, mt, x):
    """One ``draw(mt, x)`` when `size` is None, else an int64 array of `size` of them."""
    if size is None:
        return draw(mt, x)
    out = np.empty(size, dtype=np.int64)
    flat = out.reshape(-1)
    for i in range(flat.shape[0]):
        flat[i] = draw(mt, x)
    return out


def choice_of_int_p(a: int, size=None, replace=True, p=None):
    """``choice(n, size, p=p)``: with replacement, by inverting p's cumulative sum."""
    _check_sample(a, size, "a must be a positive integer unless no samples are taken")
    return _weighted(a, size, p)


def choice_p(a, size=None, replace=True, p=None):
    _check_sample(a.shape[0], size, "a cannot be empty unless no samples are taken")
    return a[_weighted(a.shape[0], size, p)]


def poisson(lam: float = 1.0, size=None):
    """Knuth's product of uniforms below lam 10, Hormann's PTRS above (NumPy's choice of
    algorithms; other draws)."""
    if not lam >= 0.0:
        raise ValueError("lam < 0 or lam is NaN")
    return _int_draws(size, _poisson, NUMPY_WORDS(), lam)


def _poisson(mt, lam: float) -> int:
    if lam == 0.0:
        return 0
    if lam < 10.0:
        enlam = math.exp(-lam)
        k = 0
        prod = 1.0
        while True:
            prod *= next_double(mt)
            if prod > enlam:
                k += 1
            else:
                return k
    slam = math.sqrt(lam)
    loglam = math.log(lam)
    b = 0.931 + 2.53 * slam
    a = -0.059 + 0.02483 * b
    invalpha = 1.1239 + 1.1328 / (b - 3.4)
    vr = 0.9277 - 3.6224 / (b - 2.0)
    while True:
        u = next_double(mt) - 0.5
        v = next_double(mt)
        us = 0.5 - abs(u)
        k = int(math.floor((2.0 * a / us + b) * u + lam + 0.43))
        if us >= 0.07 and v <= vr:
            return k
        if k < 0 or (us < 0.013 and v > us):
            continue
        if math.log(v) + math.log(invalpha) - math.log(a / (us * us) + b) <= \
                -lam + k * loglam - math.lgamma(k + 1.0):
            return k


def binomial(n, p: float, size=None):
    """Successes in `n` trials of probability `p`: NumPy's algorithms (inversion up to 30
    expected successes of the rarer outcome, Kachitvichyanukul and Schmeiser's BTPE above;
    other draws)."""
    if n < 0:
        raise ValueError("n < 0")
    if not (0.0 <= p <= 1.0):
        raise ValueError("p < 0, p > 1 or p is NaN")
    return _int_draws(size, _binomial, NUMPY_WORDS(), (n, p * 1.0))


def _binomial(mt, n_p: tuple) -> int:
    n, p = n_p
    if n == 0 or p == 0.0:
        return 0
    if p <= 0.5:
        if p * n <= 30.0:
            return _binomial_inversion(mt, n, p)
        return _binomial_btpe(mt, n, p)
    if (1.0 - p) * n <= 30.0:
        return n - _binomial_inversion(mt, n, 1.0 - p)
    return _binomial_btpe(mt, n, p)


def _stirling_tail(v: float) -> float:
    v2 = v * v
    return (13680. - (462. - (132. - (99. - 140. / v2) / v2) / v2) / v2) / v / 166320.


def _binomial_btpe(mt, n: int, p: float) -> int:
    """NumPy's random_binomial_btpe: a triangle, two parallelograms and two exponential
    tails over the distribution, accepted by the recurrence near the mode and by Stirling's
    bounds away from it. Its steps are the `step` numbers of the C code's labels."""
    r = min(p, 1.0 - p)
    q = 1.0 - r
    fm = n * r + r
    m = int(math.floor(fm))
    p1 = math.floor(2.195 * math.sqrt(n * r * q) - 4.6 * q) + 0.5
    xm = m + 0.5
    xl = xm - p1
    xr = xm + p1
    c = 0.134 + 20.5 / (15.3 + m)
    a = (fm - xl) / (fm - xl * r)
    laml = a * (1.0 + a / 2.0)
    a = (xr - fm) / (xr * q)
    lamr = a * (1.0 + a / 2.0)
    p2 = p1 * (1.0 + 2.0 * c)
    p3 = p2 + c / laml
    p4 = p3 + c / lamr
    nrq = n * r * q
    y = 0
    while True:
        u = next_double(mt) * p4            # step 10
        v = next_double(mt)
        if u <= p1:
            y = int(math.floor(xm - p1 * v + u))
            break
        if u <= p2:                         # step 20
            x = xl + (u - p1) / c
            v = v * c + 1.0 - abs(m - x + 0.5) / p1
            if v > 1.0:
                continue
            y = int(math.floor(x))
        elif u <= p3:                       # step 30
            if v == 0.0:
                continue
            y = int(math.floor(xl + math.log(v) / laml))
            if y < 0:
                continue
            v = v * (u - p2) * laml
        else:                               # step 40
            if v == 0.0:
                continue
            y = int(math.floor(xr - math.log(v) / lamr))
            if y > n:
                continue
            v = v * (u - p3) * lamr
        k = abs(y - m)                      # step 50
        if not (k > 20 and k < nrq / 2.0 - 1):
            s = r / q
            a = s * (n + 1)
            f = 1.0
            if m < y:
                for i in range(m + 1, y + 1):
                    f *= (a / i - s)
            elif m > y:
                for i in range(y + 1, m + 1):
                    f /= (a / i - s)
            if v > f:
                continue
            break
        rho = (k / nrq) * ((k * (k / 3.0 + 0.625) + 0.16666666666666666) / nrq + 0.5)    # step 52
        t = -k * k / (2 * nrq)
        aa = math.log(v) if v > 0.0 else -math.inf
        if aa < t - rho:
            break
        if aa > t + rho:
            continue
        x1 = y + 1.0
        f1 = m + 1.0
        z = n + 1.0 - m
        w = n - y + 1.0
        if aa > (xm * math.log(f1 / x1) + (n - m + 0.5) * math.log(z / w) + (y - m) * math.log(w * r / (x1 * q))
                 + _stirling_tail(f1) + _stirling_tail(z) + _stirling_tail(x1) + _stirling_tail(w)):
            continue
        break
    if p > 0.5:                             # step 60
        y = n - y
    return y


def _binomial_inversion(mt, n: int, p: float) -> int:
    """NumPy's random_binomial_inversion (for n * p <= 30)."""
    q = 1.0 - p
    qn = math.exp(n * math.log(q))
    mean = n * p
    bound = min(n * 1.0, mean + 10.0 * math.sqrt(mean * q + 1.0))
    x = 0
    px = qn
    u = next_double(mt)
    while u > px:
        x += 1
        if x > bound:
            x = 0
            px = qn
            u = next_double(mt)
        else:
            u -= px
            px = ((n - x + 1) * p * px) / (x * q)
    return x


__all__ = ["binomial", "choice", "choice_of_int", "choice_of_int_p", "choice_p", "exponential", "integers",
           "normal", "permutation", "permutation_of_int", "poisson", "random", "seed_generator",
           "shuffle", "standard_exponential", "standard_normal", "uniform"]
