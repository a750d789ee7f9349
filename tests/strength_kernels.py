"""Kernels for tests/test_strength.py: `**` by constants, and `//`, `%` by powers of two."""

import math

import script


def int_powers(x):
    return (x ** 0, x ** 1, x ** 2, x ** 3, x ** 4, x ** 5, x ** 6, x ** 7, x ** 8, x ** 9,
            x ** 10, x ** 11, x ** 12, x ** 13, x ** 14, x ** 15, x ** 16)


def int_high_powers(x):
    return x ** 31, x ** 32, x ** 63, x ** 64, x ** 65


def two_to(n):
    return 2 ** n


def two_to_u8(n: script.u8) -> script.u8:
    return 2 ** n


def i32_powers(x: script.i32):
    return x ** 2, x ** 3, x ** 5


def u8_powers(x: script.u8):
    return x ** 2, x ** 3, x ** 7


def power_in_loop(x, n):
    """The exponent is a constant only once the inlined callee's argument is propagated."""
    total = 0
    for i in range(n):
        total += raise_to(x + i, 3)
    return total


@script.script
def raise_to(b, e):
    return b ** e


def float_exact_powers(x):
    return x ** 1.0, x ** 1, x ** 0.0, math.pow(x, 1.0), math.pow(x, 0.0), math.pow(x, -0.0)


def float_square(x):
    return x ** 2


def float_square_reference(x):
    """What compiled ``x ** 2`` means: the exactly rounded square, OverflowError as CPython."""
    r = x * x
    if math.isinf(r) and math.isfinite(x):
        raise OverflowError("(34, 'Numerical result out of range')")
    return r


def div_mod_pow2(x):
    return (x // 1, x // 2, x // 4, x // 8, x // 1024, x // 4611686018427387904,
            x % 2, x % 4, x % 8, x % 1024, x % 4611686018427387904,
            x // -2, x % -2, x // -8, x % -8)


def div_mod_pow2_i8(x: script.i8):
    return x // 2, x // 4, x // 64, x % 2, x % 4, x % 64, x // -2, x % -2, x // -64, x % -64


def mod_compares_i8(x: script.i8):
    return x % 5 == 1, x % 7 != 6, x % 100 == 99, x % 127 == 0, x % 3 == 2


def div_mod_pow2_u8(x: script.u8):
    return x // 2, x // 8, x // 128, x % 2, x % 8, x % 128
