"""NumPy's binomial distribution (``np.random.binomial`` and ``Generator.binomial``) in the
compiled subset: random_binomial of NumPy's distributions.c, inversion while the rarer
outcome's mean ``min(p, 1 - p) * n`` is at most 30, Kachitvichyanukul and Schmeiser's BTPE
above, on 53-bit doubles of the compiled `numpy` MT19937. NumPy's legacy ``RandomState``
draws the same way from its MT19937, so after the same ``np.random.seed`` the legacy
function gives NumPy's numbers; the Generator's stream is another (docs/random.md).
"""

from __future__ import annotations

import math

import numpy as np

from script.frontend.mt19937 import NUMPY_STATE, next_double


def binomial(n, p: float, size=None):
    """Successes in `n` trials of probability `p` (int64 values, an array of `size`)."""
    if n < 0:
        raise ValueError("n < 0")
    if not (0.0 <= p <= 1.0):
        raise ValueError("p < 0, p > 1 or p is NaN")
    mt = NUMPY_STATE()
    if size is None:
        return _binomial(mt, n, p * 1.0)
    out = np.empty(size, dtype=np.int64)
    flat = out.reshape(-1)
    for i in range(flat.shape[0]):
        flat[i] = _binomial(mt, n, p * 1.0)
    return out


def _binomial(mt, n: int, p: float) -> int:
    if n == 0 or p == 0.0:
        return 0
    if p <= 0.5:
        if p * n <= 30.0:
            return _binomial_inversion(mt, n, p)
        return _binomial_btpe(mt, n, p)
    q = 1.0 - p
    if q * n <= 30.0:
        return n - _binomial_inversion(mt, n, q)
    return n - _binomial_btpe(mt, n, q)


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
