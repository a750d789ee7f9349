"""Bounds checks of stepped ranges and mirrored indices (versioning.py `_stepped_offset`,
bce.py `_mirror`), end to end: each kernel of bce_shapes_kernels.py against CPython at
every level, on starts, stops and lengths that put an index out of bounds at the first, a
middle or the last iteration or never (NumPy's negative indices included), with what the
loop stored before failing; and the IR shows the checks gone from the loop that runs when
none can fail. Golden IR cases: tests/ir/versioning/stepped_*.ir, tests/ir/bce/mirror*.ir."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import bce_shapes_kernels as K
import perf_kernels
from difftest import compiled
from test_versioning import check_levels, floats


@pytest.mark.parametrize("n", range(6))
def test_small_ranges(n):
    for stop in range(-3, 9):
        check_levels(K.step_from_zero, floats(n), stop)
        for start in range(-4, 9):
            check_levels(K.step_offsets, np.zeros(n), floats(n + 1), start, stop)
            check_levels(K.step_down_offsets, np.zeros(n), floats(n + 2), start, stop)
            for step in (-3, -1, 2, 5):
                check_levels(K.step_variable, np.zeros(n), floats(n), start, stop, step)


@settings(max_examples=80, deadline=None)
@given(st.integers(0, 12), st.integers(0, 14),
       st.sampled_from([-(1 << 40), -13, -2, -1, 0, 1, 2, 5, 11, 1 << 40]),
       st.sampled_from([-(1 << 40), -12, -1, 0, 1, 3, 7, 12, 1 << 40]))
def test_stepped_bounds_anywhere(na, nb, start, stop):
    check_levels(K.step_offsets, np.zeros(na), floats(nb), start, stop)
    check_levels(K.step_down_offsets, np.zeros(na), floats(nb), start, stop)
    check_levels(K.step_from_zero, floats(nb), stop)


@pytest.mark.parametrize("n", range(5))
def test_mirrored_indices(n):
    for m in range(5):
        check_levels(K.mirror, np.zeros(n), floats(m))
        check_levels(K.mirror_wraps, np.zeros(n), floats(m))
    check_levels(K.mirror_from_one, floats(n))
    check_levels(K.mirror_past_the_end, floats(n))


def _checks(text: str) -> int:
    """The `check` instructions in IR text (not the word elsewhere: a source path may hold it)."""
    return sum(line.lstrip().startswith("check ") for line in text.splitlines())


def _opt(fn, *args) -> str:
    f = compiled(fn)
    f(*args)
    return f.ir("opt")


def test_checks_leave_the_loops():
    """No index or overflow check in the loop that runs when none can fail: the only loop
    (a guard known true folds the other away), or the first of a versioned pair."""
    for fn, args, checks in ((K.step_from_zero, (floats(4), 4), 1),
                             (K.step_offsets, (np.zeros(9), floats(10), 1, 8), 3),
                             (K.step_down_offsets, (np.zeros(9), floats(11), 8, 1), 4)):
        text = _opt(fn, *args)
        fast = text.split("\nbb3")[0]           # the versioned copy comes first
        assert _checks(fast) == 0 and text.count("IndexError") == checks, text
    assert _opt(K.mirror, np.zeros(3), floats(3)).count("IndexError") == 1    # out[i]'s, in the checked copy
    assert _checks(_opt(K.mirror_from_one, floats(3))) == 0
    assert "IndexError" in _opt(K.mirror_past_the_end, floats(0))
    assert "IndexError" in _opt(K.mirror_wraps, np.zeros(3), floats(3))


@settings(max_examples=20, deadline=None)
@given(st.lists(st.integers(-5, 5), max_size=7))
def test_countdown_under_a_short_circuit_test(xs):
    # `while j >= 0 and b[j] > x`: simplify_cfg threads the edge on which `j >= 0` failed
    # past the `and`'s merge, so bce's countdown holds in the loop
    check_levels(perf_kernels.insertion_sort, np.array(xs, dtype=np.int64))
    text = _opt(perf_kernels.insertion_sort, np.array(xs, dtype=np.int64))
    # only `b[j + 1] = x` after the inner loop keeps its check (j may be -1 there)
    assert text.count("IndexError") == 1, text


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 6), st.lists(st.floats(-3.0, 9.0), max_size=12), st.floats(-2.0, 2.0),
       st.floats(0.5, 3.0))
def test_checks_decided_by_the_branch_before_them(n, xs, lo, scale):
    check_levels(K.binned, np.zeros(n, dtype=np.int64), np.array(xs, dtype=np.float64), lo, scale)


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 6), st.lists(st.integers(-9, 9), max_size=10), st.integers(-2, 8))
def test_checks_a_branch_does_not_decide(n, idx, m):
    idx = np.array(idx, dtype=np.int64)
    check_levels(K.below_only, np.zeros(n, dtype=np.int64), idx)
    check_levels(K.else_side, np.ones(n), idx, m)
    check_levels(K.else_side, np.ones(n), idx, n)


def test_nan_is_neither_below_nor_above():
    x = np.array([0.5, np.nan, 1.5, 1.0])
    check_levels(K.nan_guard, np.zeros(4), x)


def test_the_binned_count_has_no_index_check():
    f = compiled(K.binned)
    f(np.zeros(3, dtype=np.int64), np.ones(2), 0.0, 1.0)
    assert "IndexError" not in f.ir("opt")
