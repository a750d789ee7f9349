"""The functions of benchmarks/grad.py (the issue's RNN, heat equation and logistic
regression), small: each gradient against central finite differences, and against torch and
JAX (the benchmark's own versions of them) where installed. The benchmark times these
gradients; here they must be right, whatever made them fast (reserved tapes, peeks hoisted
out of inner loops, the in-place stencil's buffer)."""

from __future__ import annotations

import os
import sys

import numpy as np
import pytest

import script
from test_grad import central, check

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                                "benchmarks"))
try:
    import grad as bench
finally:
    sys.path.pop(0)


def small_cases():
    rng = np.random.default_rng(7)
    W, U = rng.normal(size=(4, 4)) * 0.4, rng.normal(size=(4, 3)) * 0.4
    xs, h0 = rng.normal(size=(5, 3)), rng.normal(size=4)
    u0 = np.sin(np.linspace(0.0, 3.0, 9))
    X = rng.normal(size=(12, 4))
    y = np.sign(rng.normal(size=12))
    w = rng.normal(size=4) * 0.3
    return {
        "rnn_loops": (bench.rnn_loops, (W, U, xs, h0), (0, 1, 3)),
        "rnn_numpy": (bench.rnn_numpy, (W, U, xs, h0), (0, 1, 3)),
        "heat": (bench.heat, (u0, 0.2, 4), (0, 1)),
        "heat_copy": (bench.heat_copy, (u0, 0.2, 4), (0, 1)),
        "logreg": (bench.logreg, (w, X, y), (0, 1)),
    }


CASES = small_cases()
SLOW = {"rnn_numpy"}             # LLVM takes seconds over the gradient of W @ h and np.tanh


@pytest.mark.parametrize("name", [pytest.param(n, marks=pytest.mark.slow) if n in SLOW else n
                                  for n in CASES])
def test_benchmark_gradient_against_finite_differences(name):
    f, args, argnums = CASES[name]
    check(f, args, argnums, rtol=1e-5, atol=1e-7)


@pytest.mark.parametrize("steps", [0, 1, 2, 7])
def test_in_place_heat_equation_any_number_of_steps(steps):
    """The in-place stencil reads a buffer it overwrites every step, and its loops reserve
    their tapes before they run: from no step at all to several."""
    u0 = np.cos(np.linspace(0.0, 2.0, 6))
    du, dk = script.grad(bench.heat, (0, 1))(u0, 0.15, steps)
    np.testing.assert_allclose(du, central(bench.heat.py_func, (u0, 0.15, steps), 0),
                               rtol=1e-5, atol=1e-8)
    np.testing.assert_allclose(dk, central(bench.heat.py_func, (u0, 0.15, steps), 1),
                               rtol=1e-5, atol=1e-8)


@pytest.mark.parametrize("lib,make", [("torch", bench._torch_grad), ("jax", bench._jax_grad)])
@pytest.mark.parametrize("name", ["heat", "logreg", "rnn_loops"])
def test_benchmark_gradient_against_torch_and_jax(lib, make, name):
    pytest.importorskip(lib)
    f, args, argnums = CASES[name]
    ours = script.grad(f, argnums)(*args)
    assert bench._agree(ours, make(name, args, argnums)())
