"""Complex routines written in the compiled subset itself (as pylib.py's are), compiled on
demand when user code needs them: `**` with an exponent that is not a known small integer,
and the `cmath` functions. Each follows CPython 3.11's C code (Objects/complexobject.c,
Modules/cmathmodule.c) operation by operation, so the results are CPython's bit for bit.

The real functions are NumPy's scalar ufuncs, which the compiler lowers to the C library
calls themselves (math.cos would raise ValueError for an infinite argument, as Python's
does; C's cos gives NaN and sets errno, which is what CPython's complex code sees).
"""

import cmath
import math

import numpy as np


def powu(x: complex, n: int) -> complex:
    """c_powu: x ** n for n >= 0 by repeated squaring, starting from 1+0j."""
    r = 1 + 0j
    p = x
    mask = 1
    while mask > 0 and n >= mask:
        if n & mask:
            r = r * p
        mask <<= 1
        p = p * p
    return r


def c_pow(a: complex, b: complex) -> complex:
    """complex_pow: c_powi for a small integer exponent, else _Py_c_pow; EDOM (a zero base,
    the cosine of an infinite phase) is ZeroDivisionError, an infinite part OverflowError."""
    if b.imag == 0.0 and b.real == np.floor(b.real) and abs(b.real) <= 100.0:
        n = int(b.real)
        if n > 0:
            p = powu(a, n)
        else:
            d = powu(a, -n)
            if d.real == 0.0 and d.imag == 0.0:
                raise ZeroDivisionError("0.0 to a negative or complex power")
            p = (1 + 0j) / d
    elif b.real == 0.0 and b.imag == 0.0:
        p = 1 + 0j
    elif a.real == 0.0 and a.imag == 0.0:
        if b.imag != 0.0 or b.real < 0.0:
            raise ZeroDivisionError("0.0 to a negative or complex power")
        p = 0j
    else:
        vabs = np.hypot(a.real, a.imag)
        length = np.power(vabs, b.real)
        at = np.arctan2(a.imag, a.real)
        phase = at * b.real
        if b.imag != 0.0:
            e = np.exp(at * b.imag)
            if e == 0.0:        # C's division by zero: inf, or NaN for a zero or NaN length
                length = math.inf if length > 0.0 else math.nan
            else:
                length = length / e
            phase += b.imag * np.log(vabs)
        if math.isinf(phase):       # cos(inf) sets errno to EDOM
            raise ZeroDivisionError("0.0 to a negative or complex power")
        p = complex(length * np.cos(phase), length * np.sin(phase))
    if math.isinf(p.real) or math.isinf(p.imag):
        raise OverflowError("complex exponentiation")
    return p


# ---- cmath (Modules/cmathmodule.c) ------------------------------------------------------

INF = math.inf
NAN = math.nan
PI = 3.14159265358979323846
E = 2.7182818284590452354
M_LN2 = 0.6931471805599453094
M_LN10 = 2.302585092994045684
DBL_MIN = 2.2250738585072014e-308
CM_LARGE_DOUBLE = 1.7976931348623157e308 / 4.0
CM_LOG_LARGE_DOUBLE = math.log(CM_LARGE_DOUBLE)
SCALE_UP = 9007199254740992.0           # 2 ** 53: ldexp(x, CM_SCALE_UP)
SCALE_DOWN = 2.0 ** -27                 # ldexp(x, CM_SCALE_DOWN)


# CPython's tables of special values (the C99 Annex G results for infinite and NaN parts),
# indexed by `special_type` of the real and the imaginary part, read from the running
# CPython: it returns table[i][j] for any argument of those special types (a cell of two
# finite parts is never read). So the tables are the ones of the version compiled code is
# compared with (3.13 changed some of tanh's).
_REPRESENTATIVES = (-math.inf, -2.0, -0.0, 0.0, 2.0, math.inf, math.nan)


def _table(fn, make=complex) -> np.ndarray:
    table = np.full((7, 7), complex(math.nan, math.nan), dtype=np.complex128)
    for i, x in enumerate(_REPRESENTATIVES):
        for j, y in enumerate(_REPRESENTATIVES):
            if math.isfinite(x) and math.isfinite(y):
                continue
            try:
                table[i, j] = fn(make(x, y)) if make is complex else fn(x, y)
            except (ValueError, OverflowError):
                pass            # raises: the value is never seen
    return table


EXP_SPECIAL = _table(cmath.exp)
LOG_SPECIAL = _table(cmath.log)
SQRT_SPECIAL = _table(cmath.sqrt)
COSH_SPECIAL = _table(cmath.cosh)
SINH_SPECIAL = _table(cmath.sinh)
TANH_SPECIAL = _table(cmath.tanh)
RECT_SPECIAL = _table(cmath.rect, make=None)
ACOS_SPECIAL = _table(cmath.acos)
ACOSH_SPECIAL = _table(cmath.acosh)
ASINH_SPECIAL = _table(cmath.asinh)
ATANH_SPECIAL = _table(cmath.atanh)
CM_SQRT_LARGE_DOUBLE = math.sqrt(CM_LARGE_DOUBLE)
CM_SQRT_DBL_MIN = math.sqrt(DBL_MIN)


def special_type(d: float) -> int:
    """0 -inf, 1 negative finite, 2 -0.0, 3 +0.0, 4 positive finite, 5 +inf, 6 NaN."""
    if math.isfinite(d):
        if d != 0.0:
            return 4 if math.copysign(1.0, d) == 1.0 else 1
        return 3 if math.copysign(1.0, d) == 1.0 else 2
    if d != d:
        return 6
    return 5 if d > 0.0 else 0


def is_special(z: complex) -> bool:
    return not (math.isfinite(z.real) and math.isfinite(z.imag))


def check_range(r: complex) -> complex:
    """ERANGE: an infinite part of a result from finite parts."""
    if math.isinf(r.real) or math.isinf(r.imag):
        raise OverflowError("math range error")
    return r


def exp(z: complex) -> complex:
    x = z.real
    y = z.imag
    if is_special(z):
        if math.isinf(x) and math.isfinite(y) and y != 0.0:
            if x > 0.0:
                r = complex(math.copysign(INF, np.cos(y)), math.copysign(INF, np.sin(y)))
            else:
                r = complex(math.copysign(0.0, np.cos(y)), math.copysign(0.0, np.sin(y)))
        else:
            r = EXP_SPECIAL[special_type(x), special_type(y)]
        if math.isinf(y) and (math.isfinite(x) or (math.isinf(x) and x > 0.0)):
            raise ValueError("math domain error")
        return r
    if x > CM_LOG_LARGE_DOUBLE:
        e = np.exp(x - 1.0)
        return check_range(complex(e * np.cos(y) * E, e * np.sin(y) * E))
    e = np.exp(x)
    return check_range(complex(e * np.cos(y), e * np.sin(y)))


def cosh(z: complex) -> complex:
    x = z.real
    y = z.imag
    if is_special(z):
        if math.isinf(x) and math.isfinite(y) and y != 0.0:
            if x > 0.0:
                r = complex(math.copysign(INF, np.cos(y)), math.copysign(INF, np.sin(y)))
            else:
                r = complex(math.copysign(INF, np.cos(y)), -math.copysign(INF, np.sin(y)))
        else:
            r = COSH_SPECIAL[special_type(x), special_type(y)]
        if math.isinf(y) and not math.isnan(x):
            raise ValueError("math domain error")
        return r
    if abs(x) > CM_LOG_LARGE_DOUBLE:
        x1 = x - math.copysign(1.0, x)
        return check_range(complex(np.cos(y) * np.cosh(x1) * E, np.sin(y) * np.sinh(x1) * E))
    return check_range(complex(np.cos(y) * np.cosh(x), np.sin(y) * np.sinh(x)))


def sinh(z: complex) -> complex:
    x = z.real
    y = z.imag
    if is_special(z):
        if math.isinf(x) and math.isfinite(y) and y != 0.0:
            if x > 0.0:
                r = complex(math.copysign(INF, np.cos(y)), math.copysign(INF, np.sin(y)))
            else:
                r = complex(-math.copysign(INF, np.cos(y)), math.copysign(INF, np.sin(y)))
        else:
            r = SINH_SPECIAL[special_type(x), special_type(y)]
        if math.isinf(y) and not math.isnan(x):
            raise ValueError("math domain error")
        return r
    if abs(x) > CM_LOG_LARGE_DOUBLE:
        x1 = x - math.copysign(1.0, x)
        return check_range(complex(np.cos(y) * np.sinh(x1) * E, np.sin(y) * np.cosh(x1) * E))
    return check_range(complex(np.cos(y) * np.sinh(x), np.sin(y) * np.cosh(x)))


def tanh(z: complex) -> complex:
    x = z.real
    y = z.imag
    if is_special(z):
        if math.isinf(x) and math.isfinite(y) and y != 0.0:
            r = complex(1.0 if x > 0.0 else -1.0, math.copysign(0.0, 2.0 * np.sin(y) * np.cos(y)))
        else:
            r = TANH_SPECIAL[special_type(x), special_type(y)]
        if math.isinf(y) and math.isfinite(x):
            raise ValueError("math domain error")
        return r
    if abs(x) > CM_LOG_LARGE_DOUBLE:
        return complex(math.copysign(1.0, x), 4.0 * np.sin(y) * np.cos(y) * np.exp(-2.0 * abs(x)))
    tx = np.tanh(x)
    ty = np.tan(y)
    cx = 1.0 / np.cosh(x)
    txty = tx * ty
    denom = 1.0 + txty * txty
    return complex(tx * (1.0 + ty * ty) / denom, ((ty / denom) * cx) * cx)


def cos(z: complex) -> complex:
    return cosh(complex(-z.imag, z.real))


def sin(z: complex) -> complex:
    s = sinh(complex(-z.imag, z.real))
    return complex(s.imag, -s.real)


def tan(z: complex) -> complex:
    s = tanh(complex(-z.imag, z.real))
    return complex(s.imag, -s.real)


def sqrt(z: complex) -> complex:
    if is_special(z):
        return SQRT_SPECIAL[special_type(z.real), special_type(z.imag)]
    if z.real == 0.0 and z.imag == 0.0:
        return complex(0.0, z.imag)
    ax = abs(z.real)
    ay = abs(z.imag)
    if ax < DBL_MIN and ay < DBL_MIN:
        ax = ax * SCALE_UP
        s = np.sqrt(ax + np.hypot(ax, ay * SCALE_UP)) * SCALE_DOWN
    else:
        ax = ax / 8.0
        s = 2.0 * np.sqrt(ax + np.hypot(ax, ay / 8.0))
    d = ay / (2.0 * s)
    if z.real >= 0.0:
        return complex(s, math.copysign(d, z.imag))
    return complex(d, math.copysign(s, z.imag))


def log_errno(z: complex) -> tuple[complex, bool]:
    """c_log and whether it set EDOM (a zero argument)."""
    if is_special(z):
        return LOG_SPECIAL[special_type(z.real), special_type(z.imag)], False
    ax = abs(z.real)
    ay = abs(z.imag)
    if ax > CM_LARGE_DOUBLE or ay > CM_LARGE_DOUBLE:
        re = np.log(np.hypot(ax / 2.0, ay / 2.0)) + M_LN2
    elif ax < DBL_MIN and ay < DBL_MIN:
        if ax > 0.0 or ay > 0.0:
            re = np.log(np.hypot(ax * SCALE_UP, ay * SCALE_UP)) - 53.0 * M_LN2
        else:
            return complex(-INF, np.arctan2(z.imag, z.real)), True
    else:
        h = np.hypot(ax, ay)
        if 0.71 <= h and h <= 1.73:
            am = ax if ax > ay else ay
            an = ay if ax > ay else ax
            re = np.log1p((am - 1.0) * (am + 1.0) + an * an) / 2.0
        else:
            re = np.log(h)
    return complex(re, np.arctan2(z.imag, z.real)), False


def log(z: complex) -> complex:
    r, bad = log_errno(z)
    if bad:
        raise ValueError("math domain error")
    return r


def log_base(z: complex, base: complex) -> complex:
    """cmath.log(z, base): errno is the second c_log's, then the division's."""
    r, bad = log_errno(z)
    b, bad = log_errno(base)
    if b.real == 0.0 and b.imag == 0.0:
        raise ValueError("math domain error")
    q = r / b
    if bad:
        raise ValueError("math domain error")
    return q


def log10(z: complex) -> complex:
    r, bad = log_errno(z)
    if bad:
        raise ValueError("math domain error")
    return complex(r.real / M_LN10, r.imag / M_LN10)


def polar(z: complex) -> tuple[float, float]:
    phi = np.arctan2(z.imag, z.real)
    if math.isinf(z.real) or math.isinf(z.imag):
        return INF, phi
    r = np.hypot(z.real, z.imag)
    if math.isinf(r) and math.isfinite(z.real) and math.isfinite(z.imag):
        raise OverflowError("math range error")
    return r, phi


def rect(r: float, phi: float) -> complex:
    if not (math.isfinite(r) and math.isfinite(phi)):
        if math.isinf(r) and math.isfinite(phi) and phi != 0.0:
            if r > 0.0:
                z = complex(math.copysign(INF, np.cos(phi)), math.copysign(INF, np.sin(phi)))
            else:
                z = complex(-math.copysign(INF, np.cos(phi)), -math.copysign(INF, np.sin(phi)))
        else:
            z = RECT_SPECIAL[special_type(r), special_type(phi)]
        if r != 0.0 and not math.isnan(r) and math.isinf(phi):
            raise ValueError("math domain error")
        return z
    if phi == 0.0:
        return complex(r, r * phi)
    return complex(r * np.cos(phi), r * np.sin(phi))


def isclose(a: complex, b: complex, rel_tol: float, abs_tol: float) -> bool:
    if rel_tol < 0.0 or abs_tol < 0.0:
        raise ValueError("tolerances must be non-negative")
    if a.real == b.real and a.imag == b.imag:
        return True
    if math.isinf(a.real) or math.isinf(a.imag) or math.isinf(b.real) or math.isinf(b.imag):
        return False
    diff = abs_nothrow(a - b)
    return diff <= rel_tol * abs_nothrow(b) or diff <= rel_tol * abs_nothrow(a) or diff <= abs_tol


def abs_nothrow(z: complex) -> float:
    """_Py_c_abs without the overflow error (isclose ignores errno)."""
    return np.hypot(z.real, z.imag)


def acos(z: complex) -> complex:
    if is_special(z):
        return ACOS_SPECIAL[special_type(z.real), special_type(z.imag)]
    if abs(z.real) > CM_LARGE_DOUBLE or abs(z.imag) > CM_LARGE_DOUBLE:
        re = np.arctan2(abs(z.imag), z.real)
        im = -math.copysign(np.log(np.hypot(z.real / 2.0, z.imag / 2.0)) + M_LN2 * 2.0, z.imag)
        return complex(re, im)
    s1 = sqrt(complex(1.0 - z.real, -z.imag))
    s2 = sqrt(complex(1.0 + z.real, z.imag))
    return complex(2.0 * np.arctan2(s1.real, s2.real), np.arcsinh(s2.real * s1.imag - s2.imag * s1.real))


def acosh(z: complex) -> complex:
    if is_special(z):
        return ACOSH_SPECIAL[special_type(z.real), special_type(z.imag)]
    if abs(z.real) > CM_LARGE_DOUBLE or abs(z.imag) > CM_LARGE_DOUBLE:
        return complex(np.log(np.hypot(z.real / 2.0, z.imag / 2.0)) + M_LN2 * 2.0, np.arctan2(z.imag, z.real))
    s1 = sqrt(complex(z.real - 1.0, z.imag))
    s2 = sqrt(complex(z.real + 1.0, z.imag))
    return complex(np.arcsinh(s1.real * s2.real + s1.imag * s2.imag), 2.0 * np.arctan2(s1.imag, s2.real))


def asinh(z: complex) -> complex:
    if is_special(z):
        return ASINH_SPECIAL[special_type(z.real), special_type(z.imag)]
    if abs(z.real) > CM_LARGE_DOUBLE or abs(z.imag) > CM_LARGE_DOUBLE:
        if z.imag >= 0.0:
            re = math.copysign(np.log(np.hypot(z.real / 2.0, z.imag / 2.0)) + M_LN2 * 2.0, z.real)
        else:
            re = -math.copysign(np.log(np.hypot(z.real / 2.0, z.imag / 2.0)) + M_LN2 * 2.0, -z.real)
        return complex(re, np.arctan2(z.imag, abs(z.real)))
    s1 = sqrt(complex(1.0 + z.imag, -z.real))
    s2 = sqrt(complex(1.0 - z.imag, z.real))
    return complex(np.arcsinh(s1.real * s2.imag - s2.real * s1.imag),
                   np.arctan2(z.imag, s1.real * s2.real - s1.imag * s2.imag))


def asin(z: complex) -> complex:
    s = asinh(complex(-z.imag, z.real))
    return complex(s.imag, -s.real)


def atanh(z: complex) -> complex:
    if is_special(z):
        return ATANH_SPECIAL[special_type(z.real), special_type(z.imag)]
    if z.real < 0.0:
        r = atanh_nonneg(complex(-z.real, -z.imag))
        return complex(-r.real, -r.imag)
    return atanh_nonneg(z)


def atanh_nonneg(z: complex) -> complex:
    """atanh of a finite z with z.real >= 0 (CPython's reduction by atanh(-z) = -atanh(z))."""
    ay = abs(z.imag)
    if z.real > CM_SQRT_LARGE_DOUBLE or ay > CM_SQRT_LARGE_DOUBLE:
        h = np.hypot(z.real / 2.0, z.imag / 2.0)
        return complex(z.real / 4.0 / h / h, math.copysign(PI / 2.0, z.imag))
    if z.real == 1.0 and ay < CM_SQRT_DBL_MIN:
        if ay == 0.0:
            raise ValueError("math domain error")
        return complex(-np.log(np.sqrt(ay) / np.sqrt(np.hypot(ay, 2.0))),
                       math.copysign(np.arctan2(2.0, -ay) / 2.0, z.imag))
    one_minus = 1.0 - z.real
    re = np.log1p(4.0 * z.real / (one_minus * one_minus + ay * ay)) / 4.0
    im = -np.arctan2(-2.0 * z.imag, (1.0 - z.real) * (1.0 + z.real) - ay * ay) / 2.0
    return complex(re, im)


def atan(z: complex) -> complex:
    s = atanh(complex(-z.imag, z.real))
    return complex(s.imag, -s.real)
