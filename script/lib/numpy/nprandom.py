"""NumPy's legacy global generator (``np.random.seed``, ``rand``, ``randint``, ...) in compiled
code, written in the compiled subset itself.

Each function draws from NumPy's global ``RandomState`` (`NUMPY_STATE`: the interpreter's own
MT19937 state and cached Gaussian, which seeding in Python seeds for compiled code too) as
NumPy's ``RandomState`` draws: `seed` is ``mt19937_seed`` (init_genrand), doubles take 53 bits,
Gaussians are the legacy polar Box-Muller with its cached second value, integers are
the legacy masked rejection sampling (`randint` gives int64), shuffles use
``random_interval``. Arrays are filled in C order, as NumPy fills them. `size` is None
(one value) or a tuple of ints: random_calls.py makes an int size a 1-tuple and gives
``rand(d0, d1, ...)`` its dimensions as one.
"""

from __future__ import annotations

import math

import numpy as np

from script.frontend.mt19937 import GAUSS, HAS_GAUSS, NUMPY_STATE, init_genrand, next32, next64, next_double
from script.lib.numpy.npbinomial import binomial  # noqa: F401  (np.random.binomial, random_calls.py)

_UNIFORM, _NORMAL, _EXPONENTIAL = 0, 1, 2       # what `_draw` draws
_SIGN = -9223372036854775808                    # flips the order of ints to unsigned order


def seed(seed: int) -> None:
    if seed < 0 or seed > 0xffffffff:
        raise ValueError("Seed must be between 0 and 2**32 - 1")
    init_genrand(NUMPY_STATE(), seed)


# ---- floats ----------------------------------------------------------------------------------

def _gauss(mt) -> float:
    """legacy_gauss: polar Box-Muller; the second value waits in the state."""
    cached = mt[GAUSS]
    if mt[HAS_GAUSS][0] != 0:
        mt[HAS_GAUSS][0] = 0
        x = cached[0]
        cached[0] = 0.0
        return x
    while True:
        x1 = 2.0 * next_double(mt) - 1.0
        x2 = 2.0 * next_double(mt) - 1.0
        r2 = x1 * x1 + x2 * x2
        if r2 < 1.0 and r2 != 0.0:
            break
    f = math.sqrt(-2.0 * math.log(r2) / r2)
    cached[0] = f * x1
    mt[HAS_GAUSS][0] = 1
    return f * x2


def _draw(mt, kind: int, a: float, b: float) -> float:
    """One value: `a + b * U` (uniform), `a + b * Z` (normal), `a * E` (exponential)."""
    if kind == _UNIFORM:
        return a + b * next_double(mt)
    if kind == _NORMAL:
        return a + b * _gauss(mt)
    return a * -math.log(1.0 - next_double(mt))


def _sample(size, kind: int, a: float, b: float):
    """One value when `size` is None, else a float64 array of that shape."""
    mt = NUMPY_STATE()
    if size is None:
        return _draw(mt, kind, a, b)
    out = np.empty(size)
    flat = out.reshape(-1)
    for i in range(flat.shape[0]):
        flat[i] = _draw(mt, kind, a, b)
    return out


def random_sample(size=None):
    return _sample(size, _UNIFORM, 0.0, 1.0)


def uniform(low: float = 0.0, high: float = 1.0, size=None):
    span = high - low
    if not math.isfinite(span):
        raise OverflowError("Range exceeds valid bounds")
    return _sample(size, _UNIFORM, low, span)


def standard_normal(size=None):
    return _sample(size, _NORMAL, 0.0, 1.0)


def normal(loc: float = 0.0, scale: float = 1.0, size=None):
    if scale < 0.0:
        raise ValueError("scale < 0")
    return _sample(size, _NORMAL, loc, scale)


def standard_exponential(size=None):
    return _sample(size, _EXPONENTIAL, 1.0, 0.0)


def exponential(scale: float = 1.0, size=None):
    if scale < 0.0:
        raise ValueError("scale < 0")
    return _sample(size, _EXPONENTIAL, scale, 0.0)


# ---- integers ------------------------------------------------------------------------------

def _mask(n: int) -> int:
    """The smallest mask of low bits covering `n` (all bits when n, as uint64, >= 2**63)."""
    n |= n >> 1
    n |= n >> 2
    n |= n >> 4
    n |= n >> 8
    n |= n >> 16
    return n | (n >> 32)


def _bounded(mt, off: int, rng: int, mask: int) -> int:
    """random_bounded_uint64, masked: `off` plus a value in [0, rng], both uint64 bits."""
    if rng == 0:
        return off
    if 0 <= rng <= 0xffffffff:
        while True:
            v = int(next32(mt)) & mask
            if v <= rng:
                return off + v
    if rng == -1:
        return off + next64(mt)
    while True:
        v = next64(mt) & mask
        if (v ^ _SIGN) <= (rng ^ _SIGN):
            return off + v


def _count(size) -> int:
    n = 1
    for d in size:
        n *= d
    return n


def randint(low, high=None, size=None):
    if high is None:
        return _randint(0, low, size)
    return _randint(low, high, size)


def _randint(low: int, high: int, size):
    if size is not None:
        if _count(size) == 0:
            return np.empty(size, dtype=np.int64)
    if low >= high:
        if low == 0:
            raise ValueError("high <= 0")
        raise ValueError("low >= high")
    rng = high - 1 - low                # the span's uint64 bits
    mask = _mask(rng)
    mt = NUMPY_STATE()
    if size is None:
        return _bounded(mt, low, rng, mask)
    out = np.empty(size, dtype=np.int64)
    flat = out.reshape(-1)
    for i in range(flat.shape[0]):
        flat[i] = _bounded(mt, low, rng, mask)
    return out


# ---- permutations --------------------------------------------------------------------------

def _interval(mt, top: int) -> int:
    """random_interval: a value in [0, top] by masked rejection (0 <= top < 2**63)."""
    if top == 0:
        return 0
    mask = _mask(top)
    if top <= 0xffffffff:
        while True:
            v = int(next32(mt)) & mask
            if v <= top:
                return v
    while True:
        v = next64(mt) & mask
        if v <= top:
            return v


def shuffle(x) -> None:
    """In place, along the first axis."""
    if x.size == 0:
        return
    mt = NUMPY_STATE()
    if x.ndim == 1:
        for i in range(x.shape[0] - 1, 0, -1):
            j = _interval(mt, i)
            x[i], x[j] = x[j], x[i]
    else:
        for i in range(x.shape[0] - 1, 0, -1):
            j = _interval(mt, i)
            if i != j:
                row = x[j].copy()
                x[j] = x[i]
                x[i] = row


def permutation_of_int(x: int):
    """``permutation(n)``: ``arange(n)`` shuffled."""
    out = np.arange(x)
    shuffle(out)
    return out


def permutation(x):
    """A shuffled copy (for more than one axis, of the rows, as NumPy: an index shuffled)."""
    if x.ndim == 1:
        out = x.copy()
        shuffle(out)
        return out
    idx = permutation_of_int(x.shape[0])
    out = np.empty_like(x)
    for k in range(x.shape[0]):
        out[k] = x[idx[k]]
    return out


def choice(a, size=None):
    """``choice(a, size)`` with replacement and equal probabilities, of a 1-d array: NumPy's
    legacy draw, ``a[randint(0, len(a), size)]``."""
    if a.shape[0] == 0:
        if size is None:
            raise ValueError("'a' cannot be empty unless no samples are taken")
        if _count(size) != 0:
            raise ValueError("'a' cannot be empty unless no samples are taken")
    idx = randint(0, a.shape[0], size)
    return a[idx]


def choice_of_int(a: int, size=None):
    """``choice(n, size)``: ``randint(0, n, size)``, with choice's message for n <= 0."""
    if a <= 0:
        if size is None:
            raise ValueError("a must be greater than 0 unless no samples are taken")
        if _count(size) != 0:
            raise ValueError("a must be greater than 0 unless no samples are taken")
    return randint(0, a, size)
