"""The `defer` pass end to end: a counted loop's float checks raised at its exit give the
exception CPython raises (type and message), for a failure at the first, a middle or the
last iteration or never, and the same sums otherwise (-0.0, NaN, infinities included);
loops that store stay checked per iteration (what was stored before the error agrees).
Golden IR cases: tests/ir/defer/."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import defer_kernels as K
from difftest import check, compiled

LEVELS = ({"opt": 0}, {}, {"opt": 3})


def _with(values, n, at, bad):
    x = np.asarray(values(n), dtype=np.float64)
    if at is not None and n:
        x[at % n] = bad
    return x


@pytest.mark.parametrize("at", [None, 0, 7, -1])
@pytest.mark.parametrize("bad", [0.0, -0.0, math.nan, math.inf, -1.0])
def test_float_checks_at_exit(at, bad):
    for n in (0, 1, 33):
        x = _with(lambda m: np.arange(1.0, m + 1.0), n, at, bad)
        for options in LEVELS:
            for fn, args in ((K.recip_sum, (x,)), (K.two_divisions, (x, 3.0)),
                             (K.sqrt_sum, (x,)), (K.recip_store, (x.copy(),))):
                check(fn, compiled(fn, **options), *args)


@pytest.mark.parametrize("at", [None, 0, 7, -1])
def test_versioned_loop(at):
    """`y[i + 2]` is versioned (its index checks go from one copy), then the copy's float
    check deferred; with `y` too short an index out of bounds and a zero divisor come in
    one run, and the first wins."""
    x = _with(lambda m: np.arange(2.0, m + 2.0), 20, at, 2.0)
    for size in (22, 21, 10, 3):
        for options in LEVELS:
            check(K.recip_sum_offset, compiled(K.recip_sum_offset, **options), x, np.full(size, 2.0))


@pytest.mark.parametrize("shift", [0, 1, 5, 40])
def test_helper_division_in_a_double_loop(shift):
    """The spectral norm's entry through a helper: with `shift` some divisor is 0."""
    u = np.linspace(0.5, 1.5, 20)
    for options in LEVELS:
        check(K.row_sums, compiled(K.row_sums, **options), u, np.zeros(20), shift)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.sampled_from([0.0, -0.0, 1.0, -2.5, 3.0, math.inf, math.nan, 1e-300]),
                max_size=20))
def test_float_checks_hypothesis(values):
    x = np.array(values, dtype=np.float64)
    for fn, args in ((K.recip_sum, (x,)), (K.two_divisions, (x, 3.0)), (K.sqrt_sum, (x,))):
        check(fn, compiled(fn), *args)


def test_loop_is_single_exit():
    """The division's check is no longer in the loop (the IR after the passes)."""
    f = compiled(K.recip_sum)
    f(np.ones(3))
    text = f.ir("opt")
    body = text[text.index("div 1.0"):]
    loop_part = body[:body.index("br bb")]
    assert "check" not in loop_part, text
