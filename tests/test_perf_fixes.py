"""Fixes made for the classic kernels of benchmarks/kernels_classic.py, end to end.

- versioning of loops over ``range(start, stop, step)`` with a step other than +-1 (the
  sieve's ``for j in range(i * i, n + 1, i)``): the copy without index checks runs when one
  test before the loop puts every value of the range in bounds, else the checked loop.
- ``int(x)`` of a float: its three checks (NaN, infinity, range) tested on the hot path by
  one compare of ``|x|``, then a plain ``fptosi`` (script.backend.llvm.lower).
- polls calling the runtime through a ``preserve_allcc`` thunk (llvm.interrupt).

Differential: compiled (opt=0, the default level, opt=3) against CPython, on arguments that
put an index out of bounds at the first, a middle or the last iteration or never, with
negative indices and steps, empty ranges, and NaN, infinities and the edges of the int64
range for ``int()``; results, exceptions and what was stored before an error must agree.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import perf_kernels as K
from difftest import check, compiled
from script.ir.parser import parse_module

LEVELS = ({"opt": 0}, {}, {"opt": 3})


def check_levels(fn, *args):
    for options in LEVELS:
        check(fn, compiled(fn, **options), *(a.copy() if isinstance(a, np.ndarray) else a for a in args))


def floats(n):
    return np.arange(1.0, n + 1.0) * 1.5


def opt_ir(fn, *args) -> str:
    f = compiled(fn)
    f(*args)
    return f.ir("opt")


# --- versioning of stepped ranges ------------------------------------------------------------

def test_stepped_ranges_exhaustive_near_the_edges():
    for n in range(5):
        for start in range(-7, 8):
            for stop in range(-7, 8):
                for step in (-3, -2, 2, 3, 7):
                    check_levels(K.stepped_store, floats(n), start, stop, step)
                check_levels(K.stepped_up3, floats(n), start, stop)
                check_levels(K.stepped_down2, floats(n), start, stop)


@settings(max_examples=150, deadline=None)
@given(st.integers(0, 30), st.integers(-40, 40), st.integers(-40, 40),
       st.integers(-9, 9).filter(lambda s: s not in (-1, 0, 1)))
def test_stepped_store_any_iteration(n, start, stop, step):
    check_levels(K.stepped_store, floats(n), start, stop, step)


@settings(max_examples=100, deadline=None)
@given(st.integers(0, 20), st.integers(0, 20), st.integers(-25, 25), st.integers(-25, 25),
       st.integers(-6, 6).filter(lambda s: s not in (-1, 0, 1)))
def test_stepped_two_arrays(na, nb, start, stop, step):
    check_levels(K.stepped_two_arrays, floats(na), np.zeros(nb), start, stop, step)


def test_stepped_range_near_the_int_range():
    """Ranges whose ends or step are near 2**63: the trip count is unsigned; the guard's
    comparisons are of the ends themselves, so nothing wraps."""
    big = (1 << 63) - 1
    for start, stop, step in ((0, big, 1 << 62), (big - 5, big, 2), (-big - 1, 3, 1 << 62),
                              (2, -big - 1, -(1 << 62)), (big, -big - 1, -big), (-big - 1, big, big)):
        check_levels(K.stepped_store, floats(4), start, stop, step)


def test_step_zero_raises():
    check_levels(K.stepped_store, floats(3), 0, 3, 0)


def test_sieve_counts_primes():
    for n in (0, 1, 2, 3, 4, 10, 97, 100, 1000, 7919):
        check_levels(K.sieve, n)


def test_stepped_loops_are_versioned():
    """The fast copies exist (so the tests above run them): no index check in the sieve's
    inner loop, and the guard compares the range's ends once."""
    import re
    ir = opt_ir(K.stepped_store, floats(4), 0, 4, 2)
    assert ir.count("IndexError") == 1, ir      # the checked loop (its write repeats the read's check)
    assert len(re.findall(r"^bb\d+\(%\d+: u64", ir, re.M)) >= 2, ir     # and its copy
    ir = opt_ir(K.sieve, 100)
    inner = [b for b in ir.split("\nbb") if re.search(r"store %\d+, false, %", b) and "mul" in b]
    assert any("IndexError" not in b for b in inner), ir


# --- int() of floats -------------------------------------------------------------------------

SPECIAL = [0.0, -0.0, 0.5, -0.5, 0.999999, -0.999999, -(2.0 ** 63), 2.0 ** 63 - 1024,
           -(2.0 ** 63) + 1024, math.nextafter(2.0 ** 63, 0), 9.2e18, -9.2e18, math.inf,
           -math.inf, math.nan, 5e-324, 123456.789, -123456.789]
OUT_OF_RANGE = [2.0 ** 63, -(2.0 ** 63) * (1 + 2 ** -52), 1e300, -1e300, 1e19, -1e19]


def fits(v: float) -> bool:
    return math.isnan(v) or math.isinf(v) or -(2 ** 63) <= int(v) < 2 ** 63


def check_int(fn, x, scale=1.0):
    """CPython's int() has no range: where a value does not fit an int64 the compiled code
    raises OverflowError with int_overflow="raise" (documented), and gives CPython's answer,
    running the call again, by default."""
    first = next((k for k, v in enumerate(x) if not math.isfinite(v * scale) or not fits(float(v) * scale)),
                 None)
    if first is None or not math.isfinite(x[first] * scale):
        return check_levels(fn, x if first is None else x[:first + 1])    # CPython raises too
    for options in LEVELS:
        try:
            compiled(fn, int_overflow="raise", **options)(x.copy())
        except OverflowError as e:
            assert "out of range" in str(e)
        else:
            raise AssertionError(f"{fn.__name__}({x!r}) did not raise")
    check_levels(fn, x)


def test_int_of_special_floats():
    for v in SPECIAL + OUT_OF_RANGE:
        check_int(K.int_of_each, np.array([1.5, v, 2.5]))
        check_int(K.int_sum, np.array([v / 3.0]), 3.0)
        for options in LEVELS:
            x = np.array([0.25, v, 0.5])
            if fits(v):
                check(K.polled_float_loop, compiled(K.polled_float_loop, **options), x, 0.0, 1.0)


@settings(max_examples=150, deadline=None)
@given(st.lists(st.one_of(st.floats(allow_nan=True, allow_infinity=True), st.sampled_from(SPECIAL),
                          st.sampled_from(OUT_OF_RANGE)), max_size=12))
def test_int_of_any_floats(xs):
    check_int(K.int_of_each, np.array(xs, dtype=np.float64))


@settings(max_examples=100, deadline=None)
@given(st.lists(st.one_of(st.floats(-1e15, 1e15), st.sampled_from([math.nan, math.inf, -math.inf])),
                max_size=12))
def test_int_sum(xs):
    check_int(K.int_sum, np.array(xs, dtype=np.float64), 3.0)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.floats(-5.0, 5.0), min_size=0, max_size=40), st.integers(1, 20),
       st.floats(-4.0, 0.0), st.floats(0.5, 4.0))
def test_histogram(xs, nbins, lo, hi):
    check_levels(K.histogram, np.array(xs, dtype=np.float64), nbins, lo, hi)


def test_histogram_of_nan_and_huge_values_raises_as_cpython():
    for bad in (math.nan, math.inf, -math.inf):
        check_levels(K.histogram, np.array([0.1, bad, 0.2]), 8, -1.0, 1.0)


def test_int_checks_become_one_compare():
    """The lowered loop converts with a plain fptosi, or on x86-64 one cvttsd2si whose
    result tests the checks (backend/llvm/lower.py), never the saturating conversion."""
    f = compiled(K.int_sum)
    f(np.array([1.0]))
    llvm = f.ir("llvm")
    assert ("fptosi double" in llvm or "llvm.x86.sse2.cvttsd2si64" in llvm) and "llvm.fptosi.sat" not in llvm, llvm


# --- polls through a register-preserving thunk --------------------------------------------

@settings(max_examples=40, deadline=None)
@given(st.lists(st.floats(-1e6, 1e6), max_size=200), st.floats(-10.0, 10.0), st.floats(0.1, 10.0))
def test_polled_float_loop(xs, lo, scale):
    for options in LEVELS:
        check(K.polled_float_loop, compiled(K.polled_float_loop, **options),
              np.array(xs, dtype=np.float64), lo, scale)


# --- short-circuit joins threaded, countdowns and repeated checks in bce ------------------------

@settings(max_examples=80, deadline=None)
@given(st.lists(st.integers(-50, 50), max_size=30))
def test_insertion_sort(xs):
    check_levels(K.insertion_sort, np.array(xs, dtype=np.int64))
    check_levels(K.countdown_break, np.array(xs, dtype=np.float64), 3.0)


@settings(max_examples=80, deadline=None)
@given(st.lists(st.floats(0.0, 1.0), max_size=12), st.lists(st.floats(0.0, 1.0), max_size=12))
def test_countdowns_over_other_arrays(xs, ys):
    a, b = np.array(xs, dtype=np.float64), np.array(ys, dtype=np.float64)
    check_levels(K.countdown_other_array, a, b)
    check_levels(K.countdown_from_i, a, 0.5)
    check_levels(K.countdown_by_two, a)
    check_levels(K.countdown_reads_ahead, a, 0.3)


def test_countdown_edges():
    for n in range(5):
        for fill in (0.0, 1.0):
            a = np.full(n, fill)
            check_levels(K.countdown_from_i, a, 0.5)     # raises at the last i when fill > x
            check_levels(K.countdown_other_array, a, np.full(max(n - 2, 0), 2.0))
            check_levels(K.countdown_by_two, a)
            check_levels(K.insertion_sort, np.arange(n, 0, -1))
            check_levels(K.countdown_reads_ahead, np.arange(n, 0, -1) * 1.0, 0.5)
            check_levels(K.countdown_reads_ahead, np.arange(n, 0, -1) * 1.0, 1.5)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.floats(-3.0, 3.0), max_size=20), st.floats(-2.0, 0.0), st.floats(0.0, 2.0))
def test_short_circuits(xs, lo, hi):
    check_levels(K.short_circuit_or, np.array(xs, dtype=np.float64), lo, hi)


# --- float sums vectorized in order ---------------------------------------------------------------

@settings(max_examples=60, deadline=None)
@given(st.integers(0, 9), st.integers(1, 5), st.integers(0, 11), st.integers(0, 2 ** 32 - 1))
def test_ordered_reductions_bit_exact(n, k, d, seed):
    rng = np.random.default_rng(seed)
    scale = 10.0 ** rng.integers(-8, 9, size=(1, d))     # mixed magnitudes: order matters
    pts, cen = rng.normal(size=(n, d)) * scale, rng.normal(size=(k, d)) * scale
    check_levels(K.nearest, pts, cen)
    a, b = rng.normal(size=n * 37) * 1e8, rng.normal(size=n * 37)
    check_levels(K.ordered_dot, a, b)
    check_levels(K.ordered_dot, a[::3], b[::3])


def test_ordered_reduction_vectorizes():
    f = compiled(K.nearest)
    f(np.ones((2, 4)), np.ones((3, 4)))
    assert "llvm.vector.reduce.fadd" in f.ir("llvm")


# --- ``while j >= C: …; j -= 1`` counted by the interrupt checks ---------------------------------

@pytest.mark.parametrize("chunk", [1, 3, 1 << 16])
def test_countdown_loops_strip_mined_in_chunks(monkeypatch, chunk):
    """Strip-mined as counted loops (a chunk of 1 or 3 iterations puts a poll between any
    two), they run Python's iterations, from near the ends of the int range too."""
    import script
    from script.ir import interrupts
    monkeypatch.setattr(interrupts, "CHUNK", chunk)
    big = 2 ** 63 - 1
    f, g = script.script(K.countdown_ge), script.script(K.countup_le)
    for a in (-big - 1, -big + 3, -10, -4, -3, -2, 0, 1, 7, 100, 70_000):
        assert f(a, 2) == K.countdown_ge(a, 2), a
    for a in (big, big - 3, 100, 6, 5, 4, -3, -70_000):
        assert g(a, 3) == K.countup_le(a, 3), a
    assert "poll" in f.ir("opt") and "poll" in g.ir("opt")




# --- math.sqrt's range check folded -----------------------------------------------------------

@settings(max_examples=80, deadline=None)
@given(st.lists(st.one_of(st.floats(allow_nan=True, allow_infinity=True),
                          st.sampled_from([0.0, -0.0, math.inf, -math.inf, math.nan, 1e308, 5e-324, -1.0])),
                max_size=8))
def test_sqrt_special_values(xs):
    check_levels(K.sqrt_each, np.array(xs, dtype=np.float64))


def test_sqrt_range_check_is_folded():
    """The range check tests the argument (x == inf), not |sqrt(x)|, and LLVM then folds
    ``x == inf and |x| < inf`` away."""
    ir = opt_ir(K.sqrt_each, np.array([1.0]))
    assert ir.count(" abs ") == 1, ir                    # |x| < inf only: no |sqrt(x)|
