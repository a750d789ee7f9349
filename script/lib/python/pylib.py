"""Library routines written in the compiled subset itself.

Builtins whose natural implementation is a loop (`math.gcd`, `math.isqrt`, …) are written
here as ordinary Python and compiled by the same frontend when user code calls them, so no
hand-built IR is needed. Each must behave exactly like the CPython builtin it stands for, on
the int64 range (checked by tests against CPython).
"""

import math


def gcd2(a: int, b: int) -> int:
    """Euclid's on the signed values, the sign dropped last: -2**63, whose absolute value
    int64 lacks, overflows only where the gcd is 2**63 (`gcd(-2**63, 0)`)."""
    g = signed_gcd(a, b)
    return -g if g < 0 else g


def signed_gcd(a: int, b: int) -> int:
    """The gcd of a and b, or its negative."""
    while b:
        a, b = b, a % b
    return a


def lcm2(a: int, b: int) -> int:
    if a == 0 or b == 0:
        return 0
    g = gcd2(a, b)
    r = a // g * b
    return -r if r < 0 else r


def gcd(*xs: int) -> int:
    """math.gcd of any number of ints (0 of none)."""
    return gcd_of(xs)


def gcd_of(xs) -> int:
    """math.gcd(*xs) of a list or tuple of ints."""
    g = 0
    for x in xs:
        g = signed_gcd(g, x)
    return -g if g < 0 else g


def lcm(*xs: int) -> int:
    """math.lcm of any number of ints (1 of none)."""
    return lcm_of(xs)


def lcm_of(xs) -> int:
    """math.lcm(*xs) of a list or tuple of ints."""
    r = 1
    for x in xs:
        r = lcm2(r, x)
    return r


def extreme_of(xs, kind: str, name: str):
    """max(*xs) (`name` "max") or min(*xs) of a list of numbers: max(xs) or min(xs), except
    that no argument and one (which max() would iterate, a `kind` that is no iterable) are
    CPython's TypeErrors."""
    if len(xs) < 2:
        raise TypeError(f"{name} expected at least 1 argument, got 0" if len(xs) == 0 else
                        f"'{kind}' object is not iterable")
    return max(xs) if name == "max" else min(xs)


def _addmod(a: int, b: int, m: int) -> int:
    """(a + b) % m for 0 <= a, b < m, without overflow."""
    return a - (m - b) if a >= m - b else a + b


def _mulmod(a: int, b: int, m: int) -> int:
    """a * b % m for 0 <= a, b < m, without overflow (doubling when a * b could pass 2**63)."""
    if m <= 3037000499:
        return a * b % m
    r = 0
    while b > 0:
        if b & 1:
            r = _addmod(r, a, m)
        a = _addmod(a, a, m)
        b >>= 1
    return r


def powmod(base: int, exp: int, mod: int) -> int:
    """pow(base, exp, mod) as CPython: the result has mod's sign; a negative exponent
    raises to the power of base's inverse modulo mod."""
    if mod == 0:
        raise ValueError("pow() 3rd argument cannot be 0")
    if mod == -9223372036854775807 - 1:
        raise OverflowError("pow() modulus does not fit in int64 when negated")
    m = -mod if mod < 0 else mod
    b = base % m
    r = 1 % m
    if exp < 0:
        # the inverse of b modulo m by the extended Euclidean algorithm
        r0, r1, s0, s1 = m, b, 0, 1
        while r1 != 0:
            q = r0 // r1
            r0, r1 = r1, r0 - q * r1
            s0, s1 = s1, s0 - q * s1
        if r0 != 1:
            raise ValueError("base is not invertible for the given modulus")
        b = s0 % m
        r = b % m                  # one factor now: -exp may not fit in int64
        exp = -(exp + 1)
    while exp > 0:
        if exp & 1:
            r = _mulmod(r, b, m)
        b = _mulmod(b, b, m)
        exp >>= 1
    return r - m if mod < 0 and r != 0 else r


def isqrt(n: int) -> int:
    if n < 0:
        raise ValueError("isqrt() argument must be nonnegative")
    x = int(math.sqrt(float(n)))
    while x > 0 and x > n // x:         # x * x > n, without the product (it may not fit)
        x -= 1
    while x + 1 <= n // (x + 1):        # (x + 1) ** 2 <= n
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


def _check_counts(n: int, k: int) -> None:
    if n < 0:
        raise ValueError("n must be a non-negative integer")
    if k < 0:
        raise ValueError("k must be a non-negative integer")


def comb(n: int, k: int) -> int:
    _check_counts(n, k)
    if k > n:
        return 0
    if k > n - k:
        k = n - k
    r = 1
    for i in range(1, k + 1):
        r = r * (n - k + i) // i
    return r


def perm(n: int, k: int) -> int:
    _check_counts(n, k)
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


def int_truediv(a: int, b: int) -> float:
    """a / b of two Python ints (b != 0), as CPython gives it: the exact quotient correctly
    rounded. Where both are within 2**53 they convert exactly and the float division rounds
    once; beyond, `int_truediv_wide`."""
    if -9007199254740992 <= a <= 9007199254740992 and -9007199254740992 <= b <= 9007199254740992:
        return float(a) / float(b)
    return int_truediv_wide(a, b)


def int_truediv_wide(a: int, b: int) -> float:
    # CPython's long_true_divide on int64: 55 bits of the quotient (53, a guard bit and a
    # sticky bit or-ed with whether anything was left), which float() rounds half to even,
    # then scaled exactly by a power of two (a quotient of int64s is >= 2**-63). -2**63 has
    # no int64 magnitude: it is halved, exactly, and the scale makes up for it.
    e = 0
    if a == -9223372036854775807 - 1:
        a = a // 2
        e = 1
    if b == -9223372036854775807 - 1:
        b = b // 2
        e -= 1
    neg = (a < 0) != (b < 0)
    if a == 0:
        return -0.0 if neg else 0.0
    x = -a if a < 0 else a
    y = -b if b < 0 else b
    q = x // y
    r = x - q * y
    if q >= 18014398509481984:              # 2**54: 55 bits or more already
        s = q.bit_length() - 55
        low = q & ((1 << s) - 1)
        v = ldexp(float((q >> s) | (1 if low != 0 or r != 0 else 0)), s + e)
    else:
        k = 0
        while q < 18014398509481984:        # one more bit: 2r against y, without overflow
            if r >= y - r:
                r = r - (y - r)
                q = 2 * q + 1
            else:
                r = r + r
                q = 2 * q
            k += 1
        v = ldexp(float(q | (1 if r != 0 else 0)), e - k)
    return -v if neg else v


int_truediv_wide.__qualname__ += "$cold"        # seldom runs: kept out of the callers' loops (ir.core)


def isclose(a: float, b: float, rel_tol: float, abs_tol: float) -> bool:
    if rel_tol < 0.0 or abs_tol < 0.0:
        raise ValueError("tolerances must be non-negative")
    if a == b:
        return True
    if math.isinf(a) or math.isinf(b):
        return False
    diff = abs(b - a)
    return (diff <= abs(rel_tol * b)) or (diff <= abs(rel_tol * a)) or (diff <= abs_tol)


def frexp(x: float) -> tuple[float, int]:
    if x == 0.0 or x != x or x - x != 0.0:          # zero, NaN, infinity
        return (x, 0)
    m = abs(x)
    e = 0
    if m < 2.2250738585072014e-308:                  # subnormal: scale into the normal range
        m *= 18014398509481984.0                     # 2**54
        e = -54
    k = int(math.floor(math.log2(m))) + 1
    f = m * 2.0 ** (-k)
    while f >= 1.0:
        f *= 0.5
        k += 1
    while f < 0.5:
        f *= 2.0
        k -= 1
    return (math.copysign(f, x), e + k)


def ldexp(x: float, i: int) -> float:
    # Scales in steps that stay representable; one multiplication when 2**i is a float, so
    # the result is correctly rounded there (beyond, a subnormal result may round twice).
    if x == 0.0 or x != x or x - x != 0.0:
        return x
    if i > 2200:
        i = 2200
    if i < -2200:
        i = -2200
    while i > 1023:
        x *= 8.98846567431158e+307                  # 2**1023
        i -= 1023
    while i < -1074:
        x *= 2.2250738585072014e-308                 # 2**-1022
        i += 1022
    r = x * 2.0 ** i
    if r - r != 0.0:
        raise OverflowError("math range error")
    return r


def bit_length(n: int) -> int:
    """int.bit_length(): bits of |n| (INT64_MIN has 64)."""
    if n == -9223372036854775807 - 1:
        return 64
    n = -n if n < 0 else n
    bits = 0
    while n:
        n >>= 1
        bits += 1
    return bits


def bit_length_u64(n):
    """int.bit_length() of a u64 (frontend/int_consts.py): its argument is never negative."""
    bits = 0
    while n:
        n >>= 1
        bits += 1
    return bits


def bit_count(n):
    """int.bit_count(): ones in |n|, for any int type (INT64_MIN's negation is itself, whose
    pattern has the one bit CPython counts)."""
    n = -n if n < 0 else n
    c = 0
    while n:
        n &= n - 1
        c += 1
    return c


def is_integer(x: float) -> bool:
    return math.isfinite(x) and x % 1.0 == 0.0


def fsum(xs) -> float:
    """math.fsum: CPython's msum (Shewchuk's exact partials, then the correctly rounded
    sum), with its errors for an intermediate overflow and for inf - inf."""
    p = [0.0]
    n = 0
    special = 0.0
    inf_sum = 0.0
    for item in xs:
        x = float(item)
        xsave = x
        i = 0
        for j in range(n):
            y = p[j]
            if abs(x) < abs(y):
                x, y = y, x
            hi = x + y
            lo = y - (hi - x)
            if lo != 0.0:
                p[i] = lo
                i += 1
            x = hi
        n = i
        if x != 0.0:
            if not math.isfinite(x):
                if math.isfinite(xsave):
                    raise OverflowError("intermediate overflow in fsum")
                if math.isinf(xsave):
                    inf_sum += xsave
                special += xsave
                n = 0
            else:
                if n == len(p):
                    p.append(x)
                else:
                    p[n] = x
                n += 1
    if special != 0.0:
        if math.isnan(inf_sum):
            raise ValueError("-inf + inf in fsum")
        return special
    hi = 0.0
    lo = 0.0
    if n > 0:
        n -= 1
        hi = p[n]
        while n > 0:
            x = hi
            n -= 1
            y = p[n]
            hi = x + y
            lo = y - (hi - x)
            if lo != 0.0:
                break
        if n > 0 and (lo < 0.0 and p[n - 1] < 0.0 or lo > 0.0 and p[n - 1] > 0.0):
            y = lo * 2.0
            x = hi + y
            if y == x - hi:
                hi = x
    return hi


from script.frontend.int_consts import checks_int64  # noqa: E402 (after the functions it names)
# results the user sees, whose overflow CPython would give as a big int
checks_int64(gcd2, signed_gcd, gcd, lcm2, comb, perm, round_int)


def _two_product(x: float, y: float) -> tuple[float, float]:
    """x * y as an exact sum hi + lo (Veltkamp-Dekker splitting, as CPython's dl_mul)."""
    c = 134217729.0 * x                 # 2**27 + 1
    xh = c - (c - x)
    xl = x - xh
    c = 134217729.0 * y
    yh = c - (c - y)
    yl = y - yh
    z = x * y
    return z, xl * yl - (((z - xh * yh) - xl * yh) - xh * yl)


def vector_norm(vec) -> float:
    """math.hypot of the (absolute) values `vec` (a tuple): CPython's vector_norm, correctly rounded
    (scaled by a power of two, squares summed exactly with compensation, the square root
    corrected once), so each result is CPython's to the last bit."""
    m = 0.0
    found_nan = False
    for x in vec:
        found_nan = found_nan or x != x
        if x > m:
            m = x
    if m - m != 0.0 and m == m:         # an infinity
        return m
    if found_nan:
        return math.nan
    if m == 0.0 or len(vec) <= 1:
        return m
    e = frexp(m)[1]
    if e < -1023:                       # subnormals: made normal, then scaled back
        return 2.2250738585072014e-308 * vector_norm(tuple([x / 2.2250738585072014e-308 for x in vec]))
    scale = ldexp(1.0, -e)
    csum = 1.0
    frac1 = 0.0
    frac2 = 0.0
    for x in vec:
        x *= scale
        hi, lo = _two_product(x, x)
        s = csum + hi
        frac2 += (csum - s) + hi
        csum = s
        frac1 += lo
    h = math.sqrt(csum - 1.0 + (frac1 + frac2))
    hi, lo = _two_product(-h, h)
    s = csum + hi
    frac2 += (csum - s) + hi
    csum = s
    frac1 += lo
    x = csum - 1.0 + (frac1 + frac2)
    h += x / (2.0 * h)
    return h / scale
