"""NumPy's Generator API (``rng = np.random.default_rng(seed)``; ``rng.random``, ``normal``,
``integers``, ``choice``, ...) in compiled code, written in the compiled subset itself.

A compiled Generator draws from an MT19937 state of compiled code's own (`GENERATOR_STATE`,
one per process, with nprandom's functions rebound to it), not from a PCG64: the numbers are not NumPy's stream (docs/random.md), but the same seed
gives the same numbers in every compiled function and run. `default_rng(seed)` seeds that
state with init_by_array on the seed's 32-bit words (any int ``0 <= seed < 2**64``), and
`default_rng()` leaves it as it is (a stream seeded from the system's entropy). The
functions take NumPy's Generator parameter names, so bind() reports the others; the
distributions are nprandom's (53-bit doubles, polar Box-Muller, masked rejection).
"""

from __future__ import annotations

import math

import numpy as np

from script.frontend import npbinomial, nprandom
from script.frontend.mt19937 import GENERATOR_STATE, init_by_array, next_double, rebound

# nprandom's and npbinomial's functions drawing from the Generator's state, not NumPy's global
_binomial = rebound(vars(npbinomial), NUMPY_STATE=GENERATOR_STATE)
_legacy = rebound(vars(nprandom), NUMPY_STATE=GENERATOR_STATE, binomial=_binomial.binomial)
binomial = _binomial.binomial
_count, _interval, _randint, _sample = _legacy._count, _legacy._interval, _legacy._randint, _legacy._sample
permutation, permutation_of_int, random_sample = _legacy.permutation, _legacy.permutation_of_int, _legacy.random_sample
shuffle, standard_exponential = _legacy.shuffle, _legacy.standard_exponential
standard_normal, uniform = _legacy.standard_normal, _legacy.uniform

_UNIFORM, _NORMAL, _EXPONENTIAL = 0, 1, 2       # nprandom._draw's kinds


def seed_generator(seed: int) -> None:
    if seed < 0:
        raise ValueError("expected non-negative integer")
    hi = (seed >> 32) & 0xffffffff
    init_by_array(GENERATOR_STATE(), seed & 0xffffffff, hi, 2 if hi != 0 else 1)


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
    mt = GENERATOR_STATE()
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
    return _int_draws(size, _weighted_index, GENERATOR_STATE(), cdf)


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
    return _int_draws(size, _poisson, GENERATOR_STATE(), lam)


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


__all__ = ["binomial", "choice", "choice_of_int", "choice_of_int_p", "choice_p", "exponential", "integers",
           "normal", "permutation", "permutation_of_int", "poisson", "random", "seed_generator",
           "shuffle", "standard_exponential", "standard_normal", "uniform"]
