"""Stencils in counted loops, whose reverse keeps the adjoints of `a[i + c]` in sliding
windows of variables (script/autodiff/window.py): offsets on both sides, loops counting down,
reads under a condition, a break, and the loops that must not use windows (the array also
written in the loop, read at an index that is not the counter's); each
gradient against central finite differences."""

from __future__ import annotations

import math

import numpy as np
from hypothesis import given, strategies as st

import script
from test_grad import SETTINGS, check, vec


@script
def wide(a, k: float) -> float:
    s = 0.0
    for i in range(2, a.shape[0] - 1):
        s += a[i - 2] * a[i + 1] + k * a[i] * a[i] - a[i - 1]
    return s


@script
def downward(a, k: float) -> float:
    s = 0.0
    for i in range(a.shape[0] - 2, 0, -1):
        s = s * k + math.sin(a[i + 1] - a[i - 1]) * a[i]
    return s


@script
def conditional(a) -> float:
    s = 0.0
    for i in range(1, a.shape[0] - 1):
        if a[i] > 0.0:
            s += a[i - 1] * a[i + 1]
        else:
            s -= a[i] * a[i - 1]
    return s


@script
def steps(a, k: float, n: int) -> float:
    u = a.copy()
    v = a.copy()
    for _ in range(n):
        for i in range(a.shape[0]):
            v[i] = u[i]
        for i in range(1, a.shape[0] - 1):
            u[i] = v[i] + k * (v[i - 1] - 2.0 * v[i] + v[i + 1]) * v[i]
    return np.sum(u * u)


@script
def written_too(a, k: float) -> float:
    b = a.copy()
    for i in range(1, b.shape[0] - 1):
        b[i] = b[i - 1] * k + b[i + 1]
    return np.sum(b * b)


@script
def gathered(a, idx) -> float:
    s = 0.0
    for i in range(1, a.shape[0]):
        s += a[i] * a[idx[i]] + a[i - 1]
    return s


@script
def with_break(a, limit: float) -> float:
    s = 0.0
    for i in range(1, a.shape[0]):
        s += a[i] * a[i - 1]
        if s > limit:
            break
    return s


@given(vec(7), st.floats(-1.0, 1.0))
@SETTINGS
def test_offsets_on_both_sides(a, k):
    check(wide, (a, k), (0, 1))


@given(vec(6), st.floats(-0.8, 0.8))
@SETTINGS
def test_counting_down(a, k):
    check(downward, (a, k), (0, 1), rtol=1e-4, atol=1e-6)


@given(vec(6))
@SETTINGS
def test_reads_under_a_condition(a):
    if np.min(np.abs(a)) < 1e-3:
        return
    check(conditional, (a,), 0)


@given(vec(6), st.floats(0.05, 0.3), st.integers(0, 3))
@SETTINGS
def test_in_place_steps(a, k, n):
    check(steps, (a, k, n), (0, 1), rtol=1e-4, atol=1e-6)


@given(vec(6), st.floats(-0.9, 0.9))
@SETTINGS
def test_array_written_in_the_loop(a, k):
    check(written_too, (a, k), (0, 1), rtol=1e-4, atol=1e-6)


@given(vec(6))
@SETTINGS
def test_read_at_another_index(a):
    idx = np.array([5, 0, 3, 3, 1, 2])
    check(gathered, (a, idx), 0)


@given(vec(6), st.floats(-1.0, 2.0))
@SETTINGS
def test_loop_with_break(a, limit):
    s, partial = 0.0, []
    for i in range(1, 6):
        s += a[i] * a[i - 1]
        partial.append(s)
    if min(abs(p - limit) for p in partial) < 1e-3:
        return              # the break moves under the finite difference's step
    check(with_break, (a, limit), 0)
