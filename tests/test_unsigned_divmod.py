"""`//` and `%` computed unsigned where `ranges` proves the dividend >= 0 and the divisor >=
1, and counters moved by small values (the `ranges` pass): the same values, types and
errors as CPython (ZeroDivisionError, OverflowError) for operands at the edges, at every
level. Golden IR cases: tests/ir/ranges/unsigned_*.ir, signed_divmod_keeps.ir,
counter_small_step.ir."""

from __future__ import annotations

import numpy as np
import pytest

import divmod_kernels as K
from difftest import check, compiled

LEVELS = ({"opt": 0}, {}, {"opt": 3})
LEVELS = tuple(dict(o, int_overflow="raise") for o in LEVELS)   # the checks themselves
INT_MIN, INT_MAX = -(1 << 63), (1 << 63) - 1
EDGES = (0, 1, -1, 2, -2, 9, -10, 1000003, -1000003, 2147483646, 2147483647, -2147483648,
         INT_MAX, INT_MIN, INT_MAX // 48271, INT_MAX // 48271 + 1, INT_MIN // 48271 - 1)
DIVISORS = (1, 2, 3, 7, 10, 1000003, INT_MAX, 0, -1, -3, INT_MIN)


@pytest.mark.parametrize("seed", [s for s in EDGES if abs(s) * 48271 <= INT_MAX])
def test_lcg(seed):
    for options in LEVELS:
        for n in (0, 1, 50):
            check(K.lcg, compiled(K.lcg, **options), n, seed)


@pytest.mark.parametrize("seed", [s for s in EDGES if abs(s) * 48271 > INT_MAX])
def test_lcg_first_product_overflows(seed):
    """A seed whose first product leaves int64 raises OverflowError (docs/integers.md), as
    before the checks of the later products went."""
    for options in LEVELS:
        with pytest.raises(OverflowError, match="state \\* 48271"):
            compiled(K.lcg, **options)(3, seed)


@pytest.mark.parametrize("m", (2147483647, 10, 1, -7, -2147483647, 0, (1 << 40) + 3, -(1 << 40)))
def test_lcg_any_modulus(m):
    for options in LEVELS:
        for seed in (0, 5, -5, INT_MAX // 7, -(INT_MAX // 7)):
            check(K.lcg_any_modulus, compiled(K.lcg_any_modulus, **options), 20, seed, m)


@pytest.mark.parametrize("k", DIVISORS)
def test_divisions(k):
    for options in LEVELS:
        for x in EDGES:
            if (x, k) == (INT_MIN, -1):         # CPython's 2**63: OverflowError (integers.md)
                with pytest.raises(OverflowError, match="x // k"):
                    compiled(K.mod_of_mod, **options)(x, k)
            else:
                check(K.mod_of_mod, compiled(K.mod_of_mod, **options), x, k)
            check(K.masked_divmod, compiled(K.masked_divmod, **options), x, k)
        for n in (0, 1, 7, 30):
            check(K.length_divmod, compiled(K.length_divmod, **options), np.zeros(n), k)


@pytest.mark.parametrize("x", [x for x in EDGES if INT_MIN + 40 <= x <= INT_MAX - 40])
def test_small_steps(x):
    for options in LEVELS:
        check(K.small_steps, compiled(K.small_steps, **options), x, 40)


def test_unsigned_forms_in_the_ir():
    """The optimized IR computes the proven divisions on u64 (and no overflow check is left
    in the LCG's loop); the others stay signed."""
    lcg = compiled(K.lcg)
    lcg(1, 1)
    ir = lcg.ir("opt")
    assert "mod %" in ir and ", 10:u64 : u64" in ir
    assert "'total += state % 10'" not in ir.replace("%%", "%")
    f = compiled(K.mod_of_mod)
    f(1, 1)
    ir = f.ir("opt")
    assert ": u64" in ir and "floordiv %0, %1 : i64" in ir
    f = compiled(K.small_steps)
    f(1, 1)
    ir = f.ir("opt")
    assert "total" not in ir and "'x + i'" in ir      # two small steps a round: a counter
