"""Library routines written in the compiled subset itself.

Builtins whose natural implementation is a loop (`math.gcd`, `math.isqrt`, …) are written
here as ordinary Python and compiled by the same frontend when user code calls them, so no
hand-built IR is needed. Each must behave exactly like the CPython builtin it stands for, on
the int64 range (checked by tests against CPython).
"""

import math


def gcd2(a: int, b: int) -> int:
    a = -a if a < 0 else a
    b = -b if b < 0 else b
    while b:
        a, b = b, a % b
    return a


def lcm2(a: int, b: int) -> int:
    if a == 0 or b == 0:
        return 0
    g = gcd2(a, b)
    r = a // g * b
    return -r if r < 0 else r


def isqrt(n: int) -> int:
    if n < 0:
        raise ValueError("isqrt() argument must be nonnegative")
    x = int(math.sqrt(float(n)))
    while x * x > n:
        x -= 1
    while (x + 1) * (x + 1) <= n:
        x += 1
    return x


def factorial(n: int) -> int:
    if n < 0:
        raise ValueError("factorial() not defined for negative values")
    if n > 20:
        raise OverflowError("factorial() result does not fit in int64")
    r = 1
    for i in range(2, n + 1):
        r *= i
    return r


def comb(n: int, k: int) -> int:
    if n < 0:
        raise ValueError("n must be a non-negative integer")
    if k < 0:
        raise ValueError("k must be a non-negative integer")
    if k > n:
        return 0
    if k > n - k:
        k = n - k
    r = 1
    for i in range(1, k + 1):
        r = r * (n - k + i) // i
    return r


def perm(n: int, k: int) -> int:
    if n < 0:
        raise ValueError("n must be a non-negative integer")
    if k < 0:
        raise ValueError("k must be a non-negative integer")
    if k > n:
        return 0
    r = 1
    for i in range(n - k + 1, n + 1):
        r *= i
    return r


def round_int(x: int, ndigits: int) -> int:
    if ndigits >= 0:
        return x
    if ndigits < -18:
        return 0
    p = 10 ** (-ndigits)
    q, r = divmod(x, p)
    if 2 * r > p or (2 * r == p and q % 2 == 1):
        q += 1
    return q * p


def isclose(a: float, b: float, rel_tol: float, abs_tol: float) -> bool:
    if rel_tol < 0.0 or abs_tol < 0.0:
        raise ValueError("tolerances must be non-negative")
    if a == b:
        return True
    if math.isinf(a) or math.isinf(b):
        return False
    diff = abs(b - a)
    return (diff <= abs(rel_tol * b)) or (diff <= abs(rel_tol * a)) or (diff <= abs_tol)
