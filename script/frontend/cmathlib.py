"""Complex routines written in the compiled subset itself (as pylib.py's are), compiled on
demand when user code needs them: `**` with an exponent that is not a known small integer,
and the `cmath` functions. Each follows CPython 3.11's C code (Objects/complexobject.c,
Modules/cmathmodule.c) operation by operation, so the results are CPython's bit for bit.

The real functions are NumPy's scalar ufuncs, which the compiler lowers to the C library
calls themselves (math.cos would raise ValueError for an infinite argument, as Python's
does; C's cos gives NaN and sets errno, which is what CPython's complex code sees).
"""

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
