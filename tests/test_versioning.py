"""Loop versioning for bounds checks (script/ir/passes/versioning.py), end to end.

Differential: each kernel of versioning_kernels.py runs in CPython and compiled (opt=0, the
default level and opt=3) on ranges and lengths that put an index out of bounds at the first,
a middle or the last iteration, or never, including negative indices (NumPy's wraparound:
`b[-1]` is valid), empty ranges and a negative step; results, exceptions (type and message)
and what the loop stored into its array argument before failing must agree. The IR tests
check that the fast copy is really made for these kernels (so the comparisons above run it)
and that both copies of a loop get their Ctrl-C polls.
"""

from __future__ import annotations

import os
import sys

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

import script
import versioning_kernels as K
from difftest import check, compiled
from script.ir.parser import parse_module
from script.ir.passes import run_pipeline

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "benchmarks"))
from kernels_classic import conv2d  # noqa: E402  (a 'valid' 2-D correlation: img[i + u, j + v])

LEVELS = ({"opt": 0}, {}, {"opt": 3})


def check_levels(fn, *args, approx=False):
    for options in LEVELS:
        check(fn, compiled(fn, **options), *(a.copy() if isinstance(a, np.ndarray) else a
                                             for a in args), approx=approx)


def floats(n):
    return np.arange(1.0, n + 1.0) * 1.5


def test_every_small_range_of_the_offsets():
    """Exhaustively near the guard's edges: the first and last iterations in bounds or one
    past them at either end, on arrays of a few elements."""
    for na in range(4):
        for nb in range(5):
            for lo in range(-2, 3):
                for hi in range(-1, 6):
                    check_levels(K.stencil, np.zeros(na), floats(nb), lo, hi)
                    check_levels(K.counting_down, np.zeros(na), floats(nb), hi, lo)


@settings(max_examples=80, deadline=None)
@given(st.integers(0, 10), st.integers(0, 12), st.integers(-12, 12), st.integers(-12, 12))
def test_offsets_out_of_bounds_at_any_iteration(na, nb, lo, hi):
    check_levels(K.stencil, np.zeros(na), floats(nb), lo, hi)


@settings(max_examples=80, deadline=None)
@given(st.integers(0, 10), st.integers(0, 12), st.integers(-12, 12), st.integers(-12, 12))
def test_counting_down(na, nb, hi, lo):
    check_levels(K.counting_down, np.zeros(na), floats(nb), hi, lo)


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 10), st.integers(0, 30), st.integers(-3, 12))
def test_scaled_indices(na, nb, n):
    check_levels(K.scaled, np.zeros(na), floats(nb), n)


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 4), st.integers(0, 6), st.integers(0, 4), st.integers(0, 8),
       st.integers(0, 8), st.integers(-5, 5))
def test_nested_rows(rows, cols, xr, xc, ny, t):
    x = np.arange(xr * xc, dtype=np.float64).reshape(xr, xc)
    check_levels(K.rows, np.zeros((rows, cols)), x, floats(ny), t)


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 8), st.integers(0, 8), st.integers(-2, 10))
def test_value_leaving_the_loop(na, nb, n):
    check_levels(K.until, np.zeros(na, dtype=np.int64), np.arange(nb, dtype=np.int64) + 1, n)


def test_rnn_step():
    rng = np.random.default_rng(1)
    n, m = 6, 4
    args = (rng.random(n), rng.random((n, m)), rng.random((n, n)), rng.random(m), rng.random(n))
    check_levels(K.rnn_step, *args, approx=True)           # tanh: libm's against NumPy's
    w_short = args[1][:, :3]                     # k runs to 3: x is longer, fine
    check_levels(K.rnn_step, args[0], w_short, *args[2:], approx=True)
    x_short = args[3][:3]                        # k reaches 3: x[3] fails in row 0
    check_levels(K.rnn_step, *args[:3], x_short, args[4])
    b_short = args[4][:2]                        # b[2] fails in row 2, after rows 0 and 1
    check_levels(K.rnn_step, *args[:4], b_short)


@settings(max_examples=80, deadline=None)
@given(st.integers(0, 10), st.integers(0, 12), st.integers(-14, 14), st.integers(-12, 12), st.integers(-12, 12))
def test_indices_shifted_by_a_value_of_the_callers(na, nb, j, lo, hi):
    check_levels(K.shifted, np.zeros(na), floats(nb), j, lo, hi)
    check_levels(K.shifted_down, np.zeros(na), floats(nb), j, hi, lo)


def test_shifts_near_the_guards_limits():
    """A shift past 2**40 (the guard sends it to the checked loop), and ones that make the
    index wrap or leave int64 (the checked loop raises as CPython)."""
    for j in (2**40 - 3, 2**40 + 1, -2**40 - 1, 2**62, -2**62, 2**63 - 3):
        check_levels(K.shifted, np.zeros(4), floats(5), j, 0, 3)
        check_levels(K.shifted, np.zeros(4), floats(5), j, -j - 1, -j + 2)


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 6), st.integers(0, 7), st.integers(0, 4), st.integers(0, 4))
def test_correlation_of_any_shapes(h, w, kh, kw):
    img = np.arange(h * w, dtype=np.float64).reshape(h, w) * 0.5
    ker = np.arange(kh * kw, dtype=np.float64).reshape(kh, kw) - 1.0
    check_levels(conv2d, img, ker)


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 6), st.integers(0, 10), st.integers(-2, 5), st.integers(-12, 6))
def test_windows_past_either_end(n, nx, w, t):
    check_levels(K.window, np.zeros(n), floats(nx), w, t)


def _versioned(fn, *args, opt=2) -> int:
    """How many loops the pipeline versions in `fn` specialized for `args`."""
    f = script.script(fn)
    f(*args)
    module = parse_module(f.ir("ssa"))
    stats = {}
    for func in module.functions.values():
        run_pipeline(func, opt, verify=True, stats=stats)
    return stats.get("versioning.loops", 0)


def test_the_kernels_get_a_fast_copy():
    a, b = np.zeros(4), np.zeros(9)
    assert _versioned(K.stencil, a, b, 1, 3) == 1
    assert _versioned(K.counting_down, a, b, 3, 0) == 1
    assert _versioned(K.scaled, a, b, 3) == 1
    assert _versioned(K.rows, np.zeros((2, 2)), np.zeros((2, 3)), b, 1) == 1
    assert _versioned(K.until, a.astype(np.int64), b.astype(np.int64), 3) == 1
    assert _versioned(K.rnn_step, a, np.zeros((4, 4)), np.zeros((4, 4)), a, a) == 2
    assert _versioned(K.top_level, a, b, opt=3) == 1
    assert _versioned(K.shifted, a, b, 1, 0, 3) == 1
    assert _versioned(K.shifted_down, a, b, 0, 3, 0) == 1
    assert _versioned(conv2d, np.zeros((5, 5)), np.zeros((2, 2))) >= 1
    assert _versioned(K.window, a, b, 2, 1) == 1


def test_both_copies_of_a_top_level_loop_are_interruptible():
    f = script.script(K.top_level)
    a = np.ones(5)
    assert f(a, a) == 5.0
    text = f.ir("opt")
    assert text.count("check ") == 1              # the checked copy's
    assert text.count("poll") == 2                # one per copy (the checked one polls by its counter)


def test_checks_stay_when_bounds_checks_are_off():
    f = script.script(K.top_level, boundscheck=False)
    a = np.ones(5)
    assert f(a, a) == 5.0
    assert "check " not in f.ir("opt")
    assert f.ir("opt").count("poll") == 1         # nothing to version: one loop
