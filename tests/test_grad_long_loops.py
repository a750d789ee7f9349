"""Gradients of loops long enough for LLVM to vectorize their reverse (4 lanes, interleaved:
8 iterations and more, with a remainder after them), the paths the benchmarks take: the
adjoint's sums are `acc` (an add LLVM may regroup, script/ir/ops.py), a counted loop's
reverse is a counted loop of its own (script/autodiff/adjoint.py `_ordered_test`), and a
stencil's sliding windows flush at the end of each reverse iteration (window.py `retire`).
Each gradient against central finite differences; and the value `value_and_grad` returns,
with the forward's own float sums, bit for bit f's: only the adjoint's additions may be
regrouped."""

from __future__ import annotations

import math
import os
import sys

import numpy as np
from hypothesis import given, strategies as st

import script
from test_grad import SETTINGS, central, check

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                                "benchmarks"))
try:
    import grad as bench
finally:
    sys.path.pop(0)


def curve(n: int, phase: float) -> np.ndarray:
    return np.sin(np.linspace(phase, phase + 3.0, n))


@script
def weighted_square_sum(a, k: float) -> float:
    s = 0.0
    for i in range(a.shape[0]):
        s += k * a[i] * a[i] + math.sin(a[i])
    return s


@script
def stencil_down(a, k: float) -> float:
    s = 0.0
    for i in range(a.shape[0] - 2, 0, -1):
        s += k * a[i] * (a[i + 1] - a[i - 1]) + a[i] * a[i]
    return s


@script
def stops_early(a, limit: float) -> float:
    s = 0.0
    for i in range(1, a.shape[0]):
        s += a[i] * a[i - 1] + 0.5 * a[i]
        if s > limit:
            break
    return s


@script
def rectangle(a, k: float, rows: int) -> float:
    s = 0.0
    for r in range(rows):
        for i in range(a.shape[0]):
            s += math.sin(a[i] * k + r) * a[i]
    return s


@script
def triangle(a, k: float, rows: int) -> float:
    s = 0.0
    for r in range(rows):
        for i in range(min(r + 1, a.shape[0])):
            s += math.sin(a[i] * k + r) * a[i]
    return s


@given(st.integers(9, 41), st.integers(0, 4), st.floats(0.05, 0.3), st.floats(0.0, 2.0))
@SETTINGS
def test_heat_equations(n, steps, k, phase):
    for f in (bench.heat, bench.heat_copy):
        check(f, (curve(n, phase), k, steps), (0, 1), rtol=1e-5, atol=1e-7)


@given(st.integers(8, 30), st.integers(0, 12), st.floats(0.0, 2.0))
@SETTINGS
def test_loop_nests_reserve_their_tapes(n, rows, phase):
    """A rectangular nest reserves its tapes once (tape.reserve_nest_function); a
    triangular one, whose inner bound the outer loop changes, run by run."""
    check(rectangle, (curve(n, phase), 0.7, rows), (0, 1))
    check(triangle, (curve(n, phase), 0.7, rows), (0, 1))


@given(st.integers(8, 70), st.floats(-2.0, 2.0), st.floats(0.0, 2.0))
@SETTINGS
def test_sum_of_a_scalar_parameter_over_the_loop(n, k, phase):
    check(weighted_square_sum, (curve(n, phase), k), (0, 1))


@given(st.integers(8, 50), st.floats(-1.0, 1.0), st.floats(0.0, 2.0))
@SETTINGS
def test_stencil_counting_down(n, k, phase):
    check(stencil_down, (curve(n, phase), k), (0, 1))


@given(st.integers(10, 40), st.floats(0.0, 2.0))
@SETTINGS
def test_loop_left_by_a_break(n, phase):
    a = curve(n, phase)
    limit = 0.4 * n
    s = 0.0
    for i in range(1, n):
        s += a[i] * a[i - 1] + 0.5 * a[i]
        if abs(s - limit) < 1e-3:
            return          # the break moves under the finite difference's step
    check(stops_early, (a, limit), 0)


def test_reassociated_sum_is_the_sum():
    """The adjoint of k, a sum over 1000 points LLVM splits into lanes, is the sum of the
    same terms up to rounding."""
    a = curve(1000, 0.3)
    _, dk = script.grad(weighted_square_sum, (0, 1))(a, 0.7)
    assert math.isclose(dk, math.fsum(a * a), rel_tol=1e-13)


def test_value_is_the_functions_bit_for_bit():
    rng = np.random.default_rng(3)
    X = rng.normal(size=(300, 16))
    y = np.sign(rng.normal(size=300))
    w = rng.normal(size=16) * 0.1
    cases = [(bench.heat, (curve(256, 0.0), 0.2, 40), (0, 1)),
             (bench.heat_copy, (curve(100, 0.5), 0.2, 30), (0, 1)),
             (bench.logreg, (w, X, y), 0),
             (weighted_square_sum, (curve(1000, 0.1), 0.7), (0, 1))]
    for f, args, argnums in cases:
        value, _ = script.value_and_grad(f, argnums)(*args)
        assert value == f(*args) == f.py_func(*args), f.__name__


def test_only_the_adjoint_adds_are_reassociable():
    a = curve(64, 0.0)
    g = script.grad(weighted_square_sum, (0, 1))
    g(a, 0.5)
    assert "fadd reassoc nsz" in g.ir("llvm")
    assert " acc " in g.ir("opt")
    weighted_square_sum(a, 0.5)
    assert "reassoc" not in weighted_square_sum.ir("llvm")


def test_heat_gradient_at_the_benchmarks_size():
    u0 = curve(256, 0.0)
    _, dk = script.grad(bench.heat, (0, 1))(u0, 0.2, 20)
    assert math.isclose(dk, central(bench.heat.py_func, (u0, 0.2, 20), 1), rel_tol=1e-6)
