"""Plain Python functions that the differential tests compile and compare with CPython."""

import math

import numpy as NP

LIMIT = 10
SCALE = 2.5
PAIR = (3, 4.5)
FLAG = True


def add(a, b):
    return a + b


def arith(a, b):
    return a + b, a - b, a * b, -a, +b, abs(a)


def true_div(a, b):
    return a / b


def floor_div(a, b):
    return a // b


def modulo(a, b):
    return a % b


def div_mod(a, b):
    return divmod(a, b)


def power(a, b):
    return a ** b


def power_const(a):
    return a ** 2, a ** 3, a ** 0, 2 ** -1


def bitwise(a, b):
    return a & b, a | b, a ^ b, ~a


def shifts(a, b):
    return a << b, a >> b


def shifts_by_constants(a, small):
    """Constant counts below the width lower to plain shifts (backend arith); `small` keeps
    the left shifts within int64, where Python's and int64's agree."""
    return a >> 0, a >> 1, a >> 63, a >> 64, small << 0, small << 3, small << 60


def mod_compares(x):
    """`x % k == c` for a constant k > 0 and 0 <= c < k is lowered without the sign fix-up
    (backend arith.lower_mod_cmp); the others take the general path."""
    return (x % 5 == 1, x % 5 != 1, 1 == x % 5, x % 7 == 0, x % 3 != 2, x % 6 == 5,
            x % 5 == 7, x % 5 == -1, x % -5 == -1, x % 4 == 1, x % 1000003 == 999999)


def mod5_is_1(x):
    return x % 5 == 1


def mod_compare_loop(n, s):
    """branchy's shape over negative counters and totals."""
    t = 0
    for i in range(-n, n):
        if i % 3 == 0:
            t += i ^ (i >> 1)
        elif (i ^ t ^ s) % 5 == 1:
            t += i % 7
        else:
            t ^= i
    return t


def compare(a, b):
    return a < b, a <= b, a > b, a >= b, a == b, a != b


def chained(a, b, c):
    return a < b < c, a <= b != c, a == b == c


def logic(a, b):
    return (a and b), (a or b), not a, (a > 0 and b > 0) or a == b


def ifexp(a, b):
    return a // b if b != 0 else 0


def branches(x):
    if x < 0:
        r = -1
    elif x == 0:
        r = 0
    elif x < 10:
        r = 1
    else:
        r = 2
    return r


def collatz(n: int) -> int:
    steps = 0
    while n != 1:
        n = n // 2 if n % 2 == 0 else 3 * n + 1
        steps += 1
    return steps


def poly(x, k):
    acc = 0.0
    for i in range(k, 0, -1):
        acc = acc * x + i
    return acc


def range_forms(a, b, c):
    s = 0
    for i in range(a):
        s += i
    for i in range(a, b):
        s += 2 * i
    for i in range(a, b, c):
        s += 3 * i
    return s


def loop_else(n, stop):
    for i in range(n):
        if i == stop:
            break
    else:
        return -1
    return i


def while_else(n):
    i = 0
    while i < n:
        i += 1
        if i == 7:
            break
    else:
        i = -i
    return i


def continue_loop(n):
    s = 0
    i = 0
    while i < n:
        i += 1
        if i % 3 == 0:
            continue
        s += i
    return s


def nested(n):
    total = 0
    for i in range(n):
        for j in range(i):
            if j > 5:
                break
            total += i * j
    return total


def early_return(n):
    for i in range(n):
        if i * i > n:
            return i
    return -1


def widening(n):
    s = 0
    for i in range(n):
        s = s + 0.5
    return s


def maybe_unbound(n):
    if n > 0:
        y = n * 2
    return y


def last_index(n):
    for i in range(n):
        pass
    return i


def tuples(x, y):
    t = (x, y, x + y)
    a, b, c = t
    (p, q), r = (a, b), c
    return t[2], t[-1], (p, q, r), len(t)


def swap(a, b):
    a, b = b, a
    return a, b


def tuple_arg(t):
    a, b = t
    return b, a


def tuple_eq(a, b):
    return (a, b) == (b, a), (a, b) != (a, b), a in (1, 2, 3)


def asserts(x):
    assert x > 0, "x must be positive"
    return x


def raises(x):
    if x > 100:
        raise ValueError("too big")
    if x < -100:
        raise IndexError(x)
    if x == 0:
        raise ZeroDivisionError
    return x


def builtins_int(a, b):
    return abs(a), min(a, b), max(a, b), min(a, b, 0), max(a, 2, b), round(a), int(a), float(a), bool(a)


def builtins_float(x, y):
    return abs(x), min(x, y), max(x, y), round(x), round(x, 2), int(x), float(x), bool(x)


def round_digits(x, n):
    return round(x, n)


def conversions(x):
    return int(x), float(int(x)), bool(x), int(True), float(False)


def globals_use(x):
    return x * LIMIT + SCALE + PAIR[0] + PAIR[1] if FLAG else 0.0


def math_funcs(x):
    return (math.sqrt(x), math.exp(x), math.log(x), math.log2(x), math.log10(x), math.log1p(x),
            math.sin(x), math.cos(x), math.tan(x), math.atan(x), math.sinh(x), math.cosh(x),
            math.tanh(x), math.asinh(x), math.erf(x), math.erfc(x), math.expm1(x), math.fabs(x),
            math.floor(x), math.ceil(x), math.trunc(x), math.degrees(x), math.radians(x))


def math_domain(x):
    return math.sqrt(x), math.log(x), math.acos(x), math.asin(x), math.atanh(x), math.acosh(x)


def math_two(x, y):
    return (math.atan2(x, y), math.copysign(x, y), math.fmod(x, y),
            math.pow(x, y), math.remainder(x, y), math.log(x, y))


def math_int(a, b):
    return math.gcd(a, b), math.lcm(a, b), math.isqrt(abs(a)), math.factorial(abs(b) % 15), math.comb(abs(a) % 30, abs(b) % 30)


def math_misc(x):
    return math.isnan(x), math.isinf(x), math.isfinite(x), math.modf(x), math.isclose(x, 1.0), math.pi, math.e, math.inf


def gamma(x):
    return math.gamma(x), math.lgamma(x)


def fib(n):
    if n < 2:
        return n
    return fib(n - 1) + fib(n - 2)


def is_even(n):
    if n == 0:
        return True
    return is_odd(n - 1)


def is_odd(n):
    if n == 0:
        return False
    return is_even(n - 1)


def kw(a, b=2, c=3.0):
    return a + b * c


def call_kw(x):
    return kw(x, c=1.5) + kw(b=1, a=x) + kw(x)


def returns_none(x):
    if x > 0:
        return
    x += 1


def walrus(x):
    if (y := x * 2) > 10:
        return y
    return -y


def lcg_pi(n, seed):
    inside = 0
    state = seed
    for _ in range(n):
        state = (state * 1103515245 + 12345) % 2147483648
        x = state / 2147483648.0
        state = (state * 1103515245 + 12345) % 2147483648
        y = state / 2147483648.0
        if x * x + y * y < 1.0:
            inside += 1
    return 4.0 * inside / n


def branchy_sum(n):
    s = 0
    for i in range(n):
        if i % 3 == 0:
            s += i
        elif i % 5 == 1:
            s -= i // 2
        else:
            s ^= i
    return s


def const_divisors(a):
    return a // 2, a % 2, a // 8, a % 8, a // 3, a % 3, a // 7, a % 7, a // 1, a % 1, a // -4, a % -4


def range_edges(start, stop, step):
    n = 0
    last = 0
    for i in range(start, stop, step):
        n += 1
        last = i
        if n > 50:
            break
    return n, last


def frexp_ldexp(x, i):
    m, e = math.frexp(x)
    return m, e, math.ldexp(x, i), math.ldexp(m, e)


def tuple_sum(a, b):
    return sum((a, b, 3)), sum((a, b), 0.5), sum(())


def hypot(x, y):
    return math.hypot(x, y), math.hypot(x, y, 1.0)


def enumerate_tuples(a, b):
    s = 0
    for i, x in enumerate((a, b, a + b)):
        s += i * x
    for x, y in zip((a, b), (b, a, 7)):
        s += x - y
    return s


def numpy_math(x, y):
    return (NP.sqrt(x), NP.exp(y), NP.arctan2(x, y), NP.floor(x), NP.abs(y), NP.minimum(x, y),
            NP.maximum(x, y), NP.isnan(x), NP.hypot(x, y), NP.pi * x, NP.tanh(y))
