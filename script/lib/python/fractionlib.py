"""`fractions.Fraction` in compiled code: a class written in the compiled subset after
CPython's Lib/fractions.py, instantiated as a record (records.py) where user code calls
`fractions.Fraction` (fraction_calls.py), boxed back as a real `fractions.Fraction`
(script.pyhooks.named_instance: its fields are CPython's slots, `_numerator` and
`_denominator`).

Numerators and denominators are int64: every int operation here is checked as user code's is
(`checks_int64`, below), so a result that does not fit raises OverflowError, never a wrapped
value. The operations reduce before they multiply, as CPython's `_mul` does (and `//`, `%` and
the comparisons never form the products CPython forms: `_compare` compares two fractions by
their continued fractions, `_compare_float` a fraction and a float bit by bit), so nearly
every result that fits is computed; the exceptions are sums whose cross products overflow
while the sum fits (`na * db + da * nb` of opposite signs). Results CPython answers with a
larger int are OverflowErrors.

`isinstance` of a Fraction answers for CPython's class (`isinstance(x, fractions.Fraction)`,
`numbers.Rational`), so the code here tests `_Fraction`, not its own class.

What CPython decides by a value's type at run time is decided here by `isinstance` (a
constant in compiled code): `Fraction ** Fraction` and `int ** Fraction`, whose result type
depends on the exponent's value, return NotImplemented, which compiled code reports as a
CompileError at the operator.
"""

from __future__ import annotations

import fractions
import math

from script.frontend.int_consts import checks_int64


_Fraction = fractions.Fraction     # what `isinstance` sees of a Fraction (instance_test.py)
_RATIONAL_FORMAT = fractions._RATIONAL_FORMAT       # (the pattern CPython parses strs with)


class Fraction:
    """A rational number: `_numerator / _denominator`, in lowest terms, `_denominator > 0`."""

    def __init__(self, numerator=0, denominator=None):
        if denominator is None:
            if isinstance(numerator, _Fraction):
                n = numerator._numerator
                d = numerator._denominator
            elif isinstance(numerator, float):
                n, d = _float_ratio(numerator)
            elif isinstance(numerator, str):
                n, d = _parsed(numerator)
                n, d = _lowest(n, d)
            else:
                n = int(numerator)
                d = 1
        else:
            n, d = _ratio_of(numerator, denominator)
            n, d = _lowest(n, d)
        self._numerator = n
        self._denominator = d

    @property
    def numerator(self):
        return self._numerator

    @property
    def denominator(self):
        return self._denominator

    def as_integer_ratio(self):
        return (self._numerator, self._denominator)

    def is_integer(self):
        return self._denominator == 1

    def limit_denominator(self, max_denominator=1000000):
        """CPython's algorithm: the best of the two bounds the continued fraction gives."""
        if max_denominator < 1:
            raise ValueError("max_denominator should be at least 1")
        if self._denominator <= max_denominator:
            return _make(self._numerator, self._denominator)
        p0, q0, p1, q1 = 0, 1, 1, 0
        n, d = self._numerator, self._denominator
        while True:
            a = n // d
            q2 = q0 + a * q1
            if q2 > max_denominator:
                break
            p0, q0, p1, q1 = p1, q1, p0 + a * p1, q2
            n, d = d, n - a * d
        k = (max_denominator - q0) // q1
        bound1 = Fraction(p0 + k * p1, q0 + k * q1)
        bound2 = Fraction(p1, q1)
        if abs(bound2 - self) <= abs(bound1 - self):
            return bound2
        return bound1

    def __repr__(self):
        return f"Fraction({self._numerator}, {self._denominator})"

    def __str__(self):
        if self._denominator == 1:
            return str(self._numerator)
        return f"{self._numerator}/{self._denominator}"

    # ---- arithmetic: Fraction op (Fraction | int) stays a Fraction; with a float, a float

    def __add__(self, b):
        if isinstance(b, _Fraction):
            return _add(self._numerator, self._denominator, b._numerator, b._denominator)
        if isinstance(b, int):
            return _add(self._numerator, self._denominator, b, 1)
        if isinstance(b, float):
            return self.__float__() + b
        return NotImplemented

    def __radd__(self, a):
        if isinstance(a, int):
            return _add(a, 1, self._numerator, self._denominator)
        if isinstance(a, float):
            return a + self.__float__()
        return NotImplemented

    def __sub__(self, b):
        if isinstance(b, _Fraction):
            return _add(self._numerator, self._denominator, -b._numerator, b._denominator)
        if isinstance(b, int):
            return _add(self._numerator, self._denominator, -b, 1)
        if isinstance(b, float):
            return self.__float__() - b
        return NotImplemented

    def __rsub__(self, a):
        if isinstance(a, int):
            return _add(a, 1, -self._numerator, self._denominator)
        if isinstance(a, float):
            return a - self.__float__()
        return NotImplemented

    def __mul__(self, b):
        if isinstance(b, _Fraction):
            return _mul(self._numerator, self._denominator, b._numerator, b._denominator)
        if isinstance(b, int):
            return _mul(self._numerator, self._denominator, b, 1)
        if isinstance(b, float):
            return self.__float__() * b
        return NotImplemented

    def __rmul__(self, a):
        if isinstance(a, int):
            return _mul(a, 1, self._numerator, self._denominator)
        if isinstance(a, float):
            return a * self.__float__()
        return NotImplemented

    def __truediv__(self, b):
        if isinstance(b, _Fraction):
            return _div(self._numerator, self._denominator, b._numerator, b._denominator)
        if isinstance(b, int):
            return _div(self._numerator, self._denominator, b, 1)
        if isinstance(b, float):
            return self.__float__() / b
        return NotImplemented

    def __rtruediv__(self, a):
        if isinstance(a, int):
            return _div(a, 1, self._numerator, self._denominator)
        if isinstance(a, float):
            return a / self.__float__()
        return NotImplemented

    def __floordiv__(self, b):
        if isinstance(b, _Fraction):
            return _floordiv(self._numerator, self._denominator, b._numerator, b._denominator)
        if isinstance(b, int):
            return _floordiv(self._numerator, self._denominator, b, 1)
        if isinstance(b, float):
            return self.__float__() // b
        return NotImplemented

    def __rfloordiv__(self, a):
        if isinstance(a, int):
            return _floordiv(a, 1, self._numerator, self._denominator)
        if isinstance(a, float):
            return a // self.__float__()
        return NotImplemented

    def __mod__(self, b):
        if isinstance(b, _Fraction):
            return _mod(self._numerator, self._denominator, b._numerator, b._denominator)
        if isinstance(b, int):
            return _mod(self._numerator, self._denominator, b, 1)
        if isinstance(b, float):
            return self.__float__() % b
        return NotImplemented

    def __rmod__(self, a):
        if isinstance(a, int):
            return _mod(a, 1, self._numerator, self._denominator)
        if isinstance(a, float):
            return a % self.__float__()
        return NotImplemented

    def __divmod__(self, b):
        if isinstance(b, _Fraction) or isinstance(b, int):
            return (self // b, self % b)
        if isinstance(b, float):
            return divmod(self.__float__(), b)
        return NotImplemented

    def __rdivmod__(self, a):
        if isinstance(a, int):
            return (a // self, a % self)
        if isinstance(a, float):
            return divmod(a, self.__float__())
        return NotImplemented

    def __pow__(self, b):
        """`** int` is a Fraction; `** float` a float. `** Fraction` is a Fraction or a float
        by the exponent's value: not compiled (NotImplemented)."""
        if isinstance(b, int):
            return _pow(self._numerator, self._denominator, b)
        if isinstance(b, float):
            return self.__float__() ** b
        return NotImplemented

    def __rpow__(self, a):
        if isinstance(a, float):
            if self._denominator == 1:
                return a ** self._numerator
            return a ** self.__float__()
        return NotImplemented

    def __pos__(self):
        return _make(self._numerator, self._denominator)

    def __neg__(self):
        return _make(-self._numerator, self._denominator)

    def __abs__(self):
        return _make(abs(self._numerator), self._denominator)

    # ---- conversions

    def __float__(self):
        return self._numerator / self._denominator

    def __int__(self):
        return self.__trunc__()

    def __trunc__(self):
        if self._numerator < 0:
            return -(-self._numerator // self._denominator)
        return self._numerator // self._denominator

    def __floor__(self):
        return self._numerator // self._denominator

    def __ceil__(self):
        return -(-self._numerator // self._denominator)

    def __round__(self, ndigits=None):
        """Half to even; with `ndigits`, a Fraction."""
        if ndigits is None:
            return _round_half_even(self._numerator, self._denominator)
        shift = 10 ** abs(ndigits)
        if ndigits > 0:
            return Fraction(round(self * shift), shift)
        return Fraction(round(self / shift) * shift)

    def __bool__(self):
        return self._numerator != 0

    def __hash__(self):
        return _hash(self._numerator, self._denominator)

    # ---- comparisons: exact, never by products that could overflow

    def __eq__(self, b):
        if isinstance(b, _Fraction):
            return self._numerator == b._numerator and self._denominator == b._denominator
        if isinstance(b, int):
            return self._numerator == b and self._denominator == 1
        if isinstance(b, float):
            if math.isnan(b) or math.isinf(b):
                return 0.0 == b
            return _compare_float(self._numerator, self._denominator, b) == 0
        if isinstance(b, complex):
            return b.imag == 0 and self.__eq__(b.real)
        return NotImplemented

    def __lt__(self, b):
        if isinstance(b, float) and (math.isnan(b) or math.isinf(b)):
            return 0.0 < b
        return _order(self, b) < 0

    def __le__(self, b):
        if isinstance(b, float) and (math.isnan(b) or math.isinf(b)):
            return 0.0 <= b
        return _order(self, b) <= 0

    def __gt__(self, b):
        if isinstance(b, float) and (math.isnan(b) or math.isinf(b)):
            return 0.0 > b
        return _order(self, b) > 0

    def __ge__(self, b):
        if isinstance(b, float) and (math.isnan(b) or math.isinf(b)):
            return 0.0 >= b
        return _order(self, b) >= 0


def _make(n: int, d: int):
    """The Fraction n/d of a pair already in lowest terms (CPython's `_normalize=False`)."""
    f = Fraction(0)
    f._numerator = n
    f._denominator = d
    return f


def _ratio_of(numerator, denominator):
    """`Fraction(a, b)`'s pair before reduction: ints as they are, Fractions crossed."""
    if isinstance(numerator, _Fraction):
        if isinstance(denominator, _Fraction):
            return (numerator._numerator * denominator._denominator,
                    denominator._numerator * numerator._denominator)
        return numerator._numerator, _rational(denominator) * numerator._denominator
    if isinstance(denominator, _Fraction):
        return _rational(numerator) * denominator._denominator, denominator._numerator
    return _rational(numerator), _rational(denominator)


def _rational(x) -> int:
    """An int given with another argument to `Fraction(a, b)` (a float or a str: CPython's
    TypeError)."""
    if not isinstance(x, int):
        raise TypeError("both arguments should be Rational instances")
    return int(x)


def _lowest(n: int, d: int):
    """n/d in lowest terms, the sign on the numerator (CPython's `__new__`)."""
    if d == 0:
        raise ZeroDivisionError(f"Fraction({n}, 0)")
    g = math.gcd(n, d)
    if d < 0:
        g = -g
    return n // g, d // g


def _parsed(text: str):
    """`Fraction(text)`'s terms before reduction, as CPython's `__new__` reads them (its own
    regular expression: `fractions._RATIONAL_FORMAT`)."""
    m = _RATIONAL_FORMAT.match(text)
    if m is None:
        raise ValueError(f"Invalid literal for Fraction: {text!r}")
    numerator = int(m.group("num") or "0")
    denominator = 1
    denom = m.group("denom")
    if denom:
        denominator = int(denom)
    else:
        decimal = m.group("decimal")
        if decimal:
            decimal = decimal.replace("_", "")
            scale = 10 ** len(decimal)
            numerator = numerator * scale + int(decimal)
            denominator *= scale
        exp = m.group("exp")
        if exp:
            e = int(exp)
            if e >= 0:
                numerator *= 10 ** e
            else:
                denominator *= 10 ** -e
    if m.group("sign") == "-":
        numerator = -numerator
    return numerator, denominator


def _float_ratio(x: float):
    """`x.as_integer_ratio()` where both fit in int64 (OverflowError otherwise)."""
    if math.isnan(x):
        raise ValueError("cannot convert NaN to integer ratio")
    if math.isinf(x):
        raise OverflowError("cannot convert Infinity to integer ratio")
    m, e = math.frexp(x)
    for _ in range(300):
        if m == math.floor(m):
            break
        m *= 2.0
        e -= 1
    n = int(m)
    while e < 0 and n % 2 == 0:
        n //= 2
        e += 1
    if e >= 0:
        return n * 2 ** e, 1
    return n, 2 ** -e


def _add(na: int, da: int, nb: int, db: int):
    """na/da + nb/db (CPython's `_add`)."""
    g = math.gcd(da, db)
    if g == 1:
        return _make(na * db + da * nb, da * db)
    s = da // g
    t = na * (db // g) + nb * s
    g2 = math.gcd(t, g)
    if g2 == 1:
        return _make(t, s * db)
    return _make(t // g2, s * (db // g2))


def _mul(na: int, da: int, nb: int, db: int):
    """na/da * nb/db, reduced across before multiplying (CPython's `_mul`)."""
    g1 = math.gcd(na, db)
    if g1 > 1:
        na //= g1
        db //= g1
    g2 = math.gcd(nb, da)
    if g2 > 1:
        nb //= g2
        da //= g2
    return _make(na * nb, db * da)


def _div(na: int, da: int, nb: int, db: int):
    """na/da / nb/db (CPython's `_div`, whose ZeroDivisionError names the reduced numerator)."""
    g1 = math.gcd(na, nb)
    if g1 > 1:
        na //= g1
        nb //= g1
    g2 = math.gcd(db, da)
    if g2 > 1:
        da //= g2
        db //= g2
    n = na * db
    d = nb * da
    if d == 0:
        raise ZeroDivisionError(f"Fraction({n}, 0)")
    if d < 0:
        n = -n
        d = -d
    return _make(n, d)


def _floordiv(na: int, da: int, nb: int, db: int) -> int:
    """floor((na/da) / (nb/db)): the floor of the reduced quotient (CPython's int division by
    zero where nb is 0)."""
    if nb == 0:
        return na // nb
    q = _div(na, da, nb, db)
    return q._numerator // q._denominator


def _mod(na: int, da: int, nb: int, db: int):
    """na/da - nb/db * floor(na/da / nb/db), over the least common denominator."""
    if nb == 0:
        return _make(na % nb, 1)
    g = math.gcd(da, db)
    a = na * (db // g)
    b = nb * (da // g)
    return Fraction(a % b, da // g * db)


def _pow(n: int, d: int, power: int):
    """(n/d) ** power of an int power (CPython's `__pow__`: already in lowest terms)."""
    if power >= 0:
        return _make(n ** power, d ** power)
    if n == 0:
        raise ZeroDivisionError(f"Fraction({d ** -power}, 0)")
    if n > 0:
        return _make(d ** -power, n ** -power)
    return _make((-d) ** -power, (-n) ** -power)


def _round_half_even(n: int, d: int) -> int:
    floor = n // d
    twice = (n - floor * d) * 2
    if twice < d or twice == d and floor % 2 == 0:
        return floor
    return floor + 1


def _order(a, b) -> int:
    """-1, 0 or 1 as Fraction `a` is below, equal to or above `b` (a Fraction, int or finite
    float)."""
    if isinstance(b, _Fraction):
        return _compare(a._numerator, a._denominator, b._numerator, b._denominator)
    if isinstance(b, float):
        return _compare_float(a._numerator, a._denominator, b)
    return _compare(a._numerator, a._denominator, b, 1)


def _compare(na: int, da: int, nb: int, db: int) -> int:
    """The sign of na/da - nb/db (positive denominators) by their continued fractions: the
    integer parts, then the reciprocals of the remainders, with the order reversed."""
    sign = 1
    while True:
        qa = na // da
        qb = nb // db
        if qa != qb:
            return sign if qa > qb else -sign
        ra = na - qa * da
        rb = nb - qb * db
        if ra == 0 or rb == 0:
            if ra == rb:
                return 0
            return sign if ra > 0 else -sign
        na, da, nb, db = da, ra, db, rb
        sign = -sign


def _compare_float(n: int, d: int, x: float) -> int:
    """The sign of n/d - x for a finite float x, exactly: the integer parts, then the binary
    digits of the remainders (x's are exact, as is doubling a float below 1)."""
    if x >= 9223372036854775808.0:         # beyond every int64 ratio
        return -1
    if x < -9223372036854775808.0:
        return 1
    q = math.floor(x)
    frac = x - float(q)
    qa = n // d
    if qa != q:
        return 1 if qa > q else -1
    r = n - qa * d
    while True:
        if frac == 0.0:
            return 1 if r > 0 else 0
        if r == 0:
            return -1
        bit = r >= d - r
        r = r - (d - r) if bit else r + r
        frac = frac * 2.0
        fbit = frac >= 1.0
        if fbit:
            frac -= 1.0
        if bit != fbit:
            return 1 if bit else -1


_MODULUS = 2305843009213693951        # sys.hash_info.modulus: 2**61 - 1


def _mulmod(a: int, b: int) -> int:
    """a * b % _MODULUS of a, b below it, a bit of b at a time (the product needs 122 bits)."""
    r = 0
    for k in range(60, -1, -1):
        r = r * 2
        if r >= _MODULUS:
            r -= _MODULUS
        if (b >> k) & 1:
            r += a
            if r >= _MODULUS:
                r -= _MODULUS
    return r


def _hash(n: int, d: int) -> int:
    """CPython's hash of n/d: |n| times the inverse of d modulo 2**61 - 1, with n's sign (the
    hash of infinity where d is a multiple of the modulus)."""
    m = d % _MODULUS
    if m == 0:
        h = 314159
    else:
        inv = 1
        base = m
        e = _MODULUS - 2
        while e > 0:
            if e & 1:
                inv = _mulmod(inv, base)
            base = _mulmod(base, base)
            e >>= 1
        r = n % _MODULUS                # |n| % _MODULUS, without |n| (beyond int64 for -2**63)
        h = _mulmod(_MODULUS - r if n < 0 and r else r, inv)
    if n < 0:
        h = -h
    return -2 if h == -1 else h


checks_int64(*(f for f in list(vars(Fraction).values()) + [
    _make, _ratio_of, _rational, _lowest, _parsed, _float_ratio, _add, _mul, _div, _floordiv, _mod, _pow,
    _round_half_even, _compare, _compare_float] if callable(f)))
checks_int64(Fraction.numerator.fget, Fraction.denominator.fget)
