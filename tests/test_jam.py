"""The `jam` and `unswitch` passes end to end: loop nests run several rows of the outer loop in one inner
loop, with CPython's results and errors (type, message, and what the rows before the error
stored), for row counts around the jam's width and for arrays that overlap (which take the
original loop). A loop branching on an argument runs as two loops (`unswitch`), with the same results.
Golden IR cases: tests/ir/jam/ and tests/ir/unswitch/."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import jam_kernels as K
import perf_kernels
import script
from difftest import check, compiled, outcome
from script.ir.passes.jam import LIMIT, ROWS

LEVELS = ({"opt": 0}, {}, {"opt": 3})
SIZES = (0, 1, ROWS - 1, ROWS, ROWS + 1, 2 * ROWS + 3, 21)


@pytest.mark.parametrize("n", SIZES)
def test_row_products(n):
    u = np.linspace(0.5, 1.5, n)
    a = np.arange(n * 3.0).reshape(n, 3) - 4.0
    for options in LEVELS:
        check(K.times_u, compiled(K.times_u, **options), u, np.zeros(n))
        check(K.matvec, compiled(K.matvec, **options), a, np.array([1.0, -2.0, 0.5]), np.zeros(n))
        check(K.two_stores, compiled(K.two_stores, **options), u, np.zeros(n), np.zeros(n))
        check(K.total_of_rows, compiled(K.total_of_rows, **options), u, np.zeros(n), 0.5)


def test_the_nests_are_jammed():
    """The default level jams them (the IR has the overlap guard and the jammed header)."""
    f = script.script(K.times_u)
    f(np.ones(9), np.zeros(9))
    text = f.ir("opt")
    assert "overlap %1, %0" in text and text.count("div 1.0:f64") == ROWS + 1, text
    g = script.script(K.total_of_rows)
    g(np.ones(9), np.zeros(9), 0.5)
    text = g.ir("opt")
    assert "overlap %1, %0" in text and text.count("store %1,") == ROWS + 1, text


@pytest.mark.parametrize("n", (ROWS, 9))
def test_overlapping_arrays_run_the_original_loop(n):
    """times_u(u, u): row i + 1 reads what row i stored, as CPython's loop does."""
    for fn in (K.times_u, K.two_stores):
        want = np.linspace(0.5, 1.5, n)
        got = want.copy()
        extra = (np.zeros(n),) if fn is K.two_stores else ()
        fn(want, want, *extra)
        compiled(fn)(got, got, *[e.copy() for e in extra])
        assert np.array_equal(want, got)
        part = np.linspace(0.5, 1.5, 2 * n)         # a view into the same memory
        want_p, got_p = part.copy(), part.copy()
        fn(want_p[:n], want_p[n // 2:n // 2 + n], *extra)
        compiled(fn)(got_p[:n], got_p[n // 2:n // 2 + n], *[e.copy() for e in extra])
        assert np.array_equal(want_p, got_p)


@pytest.mark.parametrize("shift", [-30.0, -3.0, 0.0, 1.0, 2.0, 5.0, 0.5])
def test_a_row_with_a_zero_divisor(shift):
    """u[j] - shift - i is 0 at some row (or none for 0.5 and -30): the rows before it
    stored, that row raises CPython's ZeroDivisionError."""
    u = np.arange(11.0)[::-1].copy()
    for options in LEVELS:
        check(K.shifted, compiled(K.shifted, **options), u, np.zeros(11), shift)


@pytest.mark.parametrize("k", [0, 1, ROWS - 1, ROWS, 6, 10, 99])
def test_a_row_whose_code_after_the_inner_loop_raises(k):
    u = np.linspace(0.0, 2.0, 10)
    for options in LEVELS:
        check(K.row_then_divide, compiled(K.row_then_divide, **options), u, np.zeros(10), k)
    short = np.zeros(6)                                 # out too short: IndexError at row 6
    check(K.row_then_divide, compiled(K.row_then_divide), u, short, 99)


@pytest.mark.parametrize("big", [1, 2**40, 2**58, 2**61, 2**62 - 1])
def test_an_overflowing_row(big):
    """Where CPython's int outgrows int64 it fails storing it (its own message), compiled
    code at the sum (its overflow message): the same rows stored before."""
    x = np.zeros(9, dtype=np.int64)
    want_out = np.zeros(9, dtype=np.int64)
    want = outcome(K.int_rows, (x, want_out, big))
    for options in ({"int_overflow": "raise"}, {"int_overflow": "raise", "opt": 3}):
        got_out = np.zeros(9, dtype=np.int64)
        got = outcome(compiled(K.int_rows, **options), (x, got_out, big))
        assert got[:2] == want[:2] and np.array_equal(want_out, got_out), (want, got, want_out, got_out)


@pytest.mark.parametrize("n", (ROWS, ROWS + 3, 2 * ROWS + 5))
@pytest.mark.parametrize("first", (0, 2, ROWS - 1, ROWS, ROWS + 2, 40))
def test_rows_whose_products_overflow(n, first):
    """Row `first` is the first whose product overflows (none when first >= n): the
    jammed code raises the unjammed code's OverflowError (CPython's ints do not overflow)
    after the same rows stored, with the same sums."""
    u = np.linspace(-1.0, 1.0, n)
    t = first + n - 1                   # the first i + j whose product overflows
    base = -(-(2**63) // t)
    results = []
    for options in ({"opt": 0}, {}, {"opt": 3}):
        out = np.zeros(n)
        results.append((outcome(compiled(K.scaled_entries, **options), (u, out, base)), out))
    (want, want_out), *rest = results
    assert (want[0] == "raise") == (first < n), want
    for got, got_out in rest:
        assert got[0] == want[0] and got[1:] == want[1:] and np.array_equal(got_out, want_out), \
            (want, got, want_out, got_out)
    if first >= n:      # no overflow: CPython's own sums
        check(K.scaled_entries, compiled(K.scaled_entries), u, np.zeros(n), base)


def test_the_rows_products_lose_their_tests_under_the_limit():
    """times_u's rows compute (i + j) * (i + j + 1) of counters below LIMIT (a guard on n):
    their overflow tests go, the original loop's stay; scaled_entries' base is any int, so
    its rows keep theirs and no limit is tested. The rows' inner loop is marked for SLP (no
    loop vectorization along j), matvec's (which loads per row) is not."""
    f = script.script(K.times_u)
    f(np.ones(9), np.zeros(9))
    text = f.ir("opt")
    assert f"cmp.le %2, {LIMIT}:i64" in text and text.count("ovf.mul") == 1, text
    assert '!{!"llvm.loop.vectorize.enable", i1 false}' in f.ir("llvm")
    g = script.script(K.scaled_entries)
    g(np.ones(9), np.zeros(9), 0)
    text = g.ir("opt")
    assert f"{LIMIT}:i64" not in text and text.count("ovf.mul") == ROWS + 1, text
    h = script.script(K.matvec)
    h(np.ones((9, 2)), np.ones(2), np.zeros(9))
    assert "vectorize.enable" not in h.ir("llvm")


@pytest.mark.parametrize("n", (ROWS - 1, ROWS, 2 * ROWS + 1))
def test_rows_of_nans_infinities_and_signed_zeros(n):
    """Each row's sum added in order, as CPython adds it: bit for bit, NaN, infinities and
    -0.0 included, in the jammed rows (no overflow tests left) and the rest."""
    specials = [math.nan, math.inf, -math.inf, -0.0, 0.0, 1e308, -1e308, 5e-324]
    for shift in range(4):
        u = np.array([specials[(k + shift) % len(specials)] for k in range(n)])
        check(K.times_u, compiled(K.times_u), u, np.zeros(n))
        check(K.times_u, compiled(K.times_u, opt=3), -u, np.zeros(n))


def test_rows_of_different_lengths_are_not_jammed():
    m = [[1.0, 2.0], [3.0], [], [4.0, 5.0, 6.0], [7.0], [1.0, 1.0]]
    check(K.nested_rows, compiled(K.nested_rows), m, np.zeros(6))


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 13), st.integers(0, 4),
       st.lists(st.sampled_from([0.0, -0.0, 1.0, -2.5, math.inf, math.nan, 1e-300]), min_size=4, max_size=4))
def test_hypothesis(n, m, values):
    a = np.resize(np.array(values), (n, m)) if n and m else np.zeros((n, m))
    x = np.resize(np.array(values[::-1]), m) if m else np.zeros(0)
    check(K.matvec, compiled(K.matvec), a, x, np.zeros(n))
    u = np.resize(np.array(values), n) if n else np.zeros(0)
    check(K.two_stores, compiled(K.two_stores), u, np.zeros(n), np.zeros(n))
    u = np.resize(np.array(values), 2 * n) if n else np.zeros(0)     # up to 26 rows
    check(K.times_u, compiled(K.times_u), u, np.zeros(2 * n))


@settings(max_examples=60, deadline=None)
@given(st.lists(st.floats(-0.5, 1.5), max_size=12), st.integers(0, 4), st.booleans())
def test_a_flag_argument_in_the_loop(xs, nbins, clamp):
    """Unswitched on `clamp`: each copy's counts, IndexErrors (a bin out of range without
    clamping, nbins == 0) and the last bin as CPython's."""
    x = np.array(xs, dtype=np.float64)
    for options in LEVELS:
        check(K.clamped_counts, compiled(K.clamped_counts, **options), x, nbins, clamp)


def test_the_flag_loop_is_unswitched():
    f = script.script(K.clamped_counts)
    f(np.zeros(3), 2, True)
    text = f.ir("opt")
    assert text.count("cbr %2,") == 1 and text.count("load %0,") == 2, text   # a loop per side


SAMPLES = [-5.0, -1.0, -0.0, 0.0, 0.25, 0.999, 1.0, 3.5, 1e15, -1e15]


@pytest.mark.parametrize("nbins", [0, 1, 2, 7])
def test_a_histogram_unswitched_on_its_flag_and_then_on_its_bins(nbins):
    """The clamped copy runs as two loops more (nbins <= 0 or not): CPython's counts, its
    IndexError for nbins == 0 (naming bin 0 or -1) only once a sample is binned, and the
    float errors of a NaN or infinite sample first, wherever it is."""
    for options in LEVELS:
        f = compiled(K.histogram_flag, **options)
        for clamp in (True, False):
            check(K.histogram_flag, f, np.array(SAMPLES), nbins, -1.0, 1.0, clamp)
            check(K.histogram_flag, f, np.array([], dtype=np.float64), nbins, -1.0, 1.0, clamp)
            check(K.histogram_flag, f, np.array([0.5, -0.5]), nbins, -1.0, 1.0, clamp)
            for bad in (math.nan, math.inf, -math.inf):
                check(K.histogram_flag, f, np.array([bad, 0.5]), nbins, -1.0, 1.0, clamp)
                check(K.histogram_flag, f, np.array([0.5, bad]), nbins, -1.0, 1.0, clamp)


def test_the_histogram_s_invariant_check_is_unswitched():
    f = script.script(K.histogram_flag)
    f(np.zeros(3), 2, -1.0, 1.0, True)
    text = f.ir("opt")
    assert "cmp.le %1, 0:i64" in text and text.count("check true, IndexError") == 1, text


@pytest.mark.parametrize("k", [0, 3, -2])
@pytest.mark.parametrize("off", [0, 2, -9])
def test_a_divisor_the_loop_cannot_change(k, off):
    """`int(a[i + off]) // k` (a Python int: NumPy's int64 // 0 is 0): with k == 0 the
    IndexError of an index out of range comes first where there is one, else the
    ZeroDivisionError at the first element; none when empty."""
    a = np.arange(-3, 5, dtype=np.int64)
    for options in LEVELS:
        f = compiled(K.sum_divided, **options)
        check(K.sum_divided, f, a, k, off)
        check(K.sum_divided, f, a[:0], k, off)
        check(K.sum_divided, f, a[:1], k, off)


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 4), st.sampled_from(SIZES), st.integers(0, 3),
       st.lists(st.sampled_from([0.0, 1.0, -1.0, 2.5, math.nan, math.inf]), min_size=1, max_size=30))
def test_the_nearest_centroid_first_among_equals(n, k, d, values):
    """k-means' assignment (perf_kernels.nearest): its `if s < best_d` picks after the inner
    sum are made selects by jam's `_pick_by_selects`, so the centroid loop is jammed; the
    first of equal distances wins, a NaN distance never does."""
    pool = np.array(values * 30)
    points = pool[:n * d].reshape(n, d) if n * d <= pool.size else np.zeros((n, d))
    centroids = pool[::-1][:k * d].reshape(k, d) if k * d <= pool.size else np.ones((k, d))
    for options in LEVELS:
        check(perf_kernels.nearest, compiled(perf_kernels.nearest, **options), points, centroids)


def test_the_centroid_loop_is_jammed():
    f = script.script(perf_kernels.nearest)
    f(np.zeros((2, 3)), np.ones((9, 3)))
    text = f.ir("opt")
    assert text.count(" = mul %") >= ROWS + 1, text         # the rows, and the original loop
