"""script.grad / script.value_and_grad: every gradient against central finite differences of
the Python function, over inputs hypothesis draws; and the refusals, at the line."""

import math

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import script
from script.errors import CompileError

SETTINGS = settings(max_examples=6, deadline=None, derandomize=True)
finite = st.floats(-2.0, 2.0, allow_nan=False, allow_infinity=False)


def vec(n, lo=-1.5, hi=1.5):
    return st.lists(st.floats(lo, hi, allow_nan=False), min_size=n, max_size=n).map(np.array)


def copy_args(args):
    return [a.copy() if isinstance(a, np.ndarray) else a for a in args]


def central(f, args, k, h=1e-6):
    """The central difference of Python function f in argument k (arrays element by element)."""
    def at(k, j, d):
        a = copy_args(args)
        if isinstance(a[k], np.ndarray):
            a[k].flat[j] += d
        else:
            a[k] += d
        return f(*a)
    if isinstance(args[k], np.ndarray):
        out = np.zeros_like(args[k])
        for j in range(args[k].size):
            out.flat[j] = (at(k, j, h) - at(k, j, -h)) / (2 * h)
        return out
    return (at(k, 0, h) - at(k, 0, -h)) / (2 * h)


def check(f, args, argnums, rtol=1e-5, atol=1e-6):
    g = script.grad(f, argnums)(*copy_args(args))
    nums = argnums if isinstance(argnums, tuple) else (argnums,)
    got = g if isinstance(argnums, tuple) else (g,)
    assert len(got) == len(nums)
    for k, gk in zip(nums, got):
        want = central(f.py_func, args, k)
        if isinstance(want, np.ndarray):
            assert isinstance(gk, np.ndarray) and gk.shape == args[k].shape
        np.testing.assert_allclose(gk, want, rtol=rtol, atol=atol)


# ---- scalar loops, conditionals, math functions ----------------------------------------

@script
def loop_if(x: float, n: int) -> float:
    s = 0.0
    for i in range(n):
        if s > 1.0:
            s = s * 0.5
        s += math.sin(x * i) + x
    return s


@script
def math_mix(x: float, y: float) -> float:
    t = math.exp(0.3 * x) * math.cos(y) + math.log1p(x * x) + math.tanh(x - y)
    t += math.sqrt(1.0 + y * y) + math.atan2(y, 2.5) + abs(x) ** 1.5 + math.hypot(x, y)
    t += math.erf(x) + min(x, y) * max(x, 0.5) + (x / (2.0 + y * y)) + math.pow(2.0 + x, y)
    return t


@script
def newton_sqrt(a: float) -> float:
    x = a
    while abs(x * x - a) > 1e-12 * a:
        x = 0.5 * (x + a / x)
    return x


@script
def helper(x: float, k: int) -> float:
    s = 0.0
    for i in range(k):
        s = s * x + 1.0
    return s


@script
def calls(x: float, y: float) -> float:
    return helper(x, 4) * helper(y, 3) + helper(x * y, 2)


@given(finite, st.integers(0, 12))
@SETTINGS
def test_loop_with_conditional(x, n):
    check(loop_if, (x, n), 0)


@given(st.floats(-0.9, 0.9), st.floats(-2.0, 2.0))
@SETTINGS
def test_math_functions(x, y):
    if abs(x) < 1e-3 or abs(x - y) < 1e-3 or abs(x - 0.5) < 1e-3:
        return              # kinks of abs, min and max: no derivative there
    check(math_mix, (x, y), (0, 1), rtol=1e-4)


@given(st.floats(0.1, 100.0))
@SETTINGS
def test_while_loop(a):
    check(newton_sqrt, (a,), 0, rtol=1e-4)


@given(finite, finite)
@SETTINGS
def test_calls_are_differentiated(x, y):
    check(calls, (x, y), (0, 1), rtol=1e-4, atol=1e-5)


# ---- arrays: reads, writes, in-place updates, reductions, matmul ------------------------

@script
def inplace(x, w: float):
    for i in range(1, x.shape[0]):
        x[i] += w * x[i - 1] * x[i]
    t = 0.0
    for i in range(x.shape[0]):
        t += x[i] ** 2
    return t


@script
def heat(u0, k: float, steps: int):
    u = u0.copy()
    n = u.shape[0]
    for s in range(steps):
        v = u.copy()
        for i in range(1, n - 1):
            u[i] = v[i] + k * (v[i - 1] - 2.0 * v[i] + v[i + 1])
    return np.sum(u * u)


@script
def reductions(x):
    return np.mean(x * x) + np.max(np.sin(x)) + np.dot(x, x[::-1])


@script
def rnn(W, xs, h0):
    h = h0.copy()
    for t in range(xs.shape[0]):
        h = np.tanh(W @ h + xs[t])
    return np.sum(h * h)


@script
def two_d(a):
    s = 0.0
    for i in range(a.shape[0]):
        for j in range(a.shape[1]):
            if a[i, j] > 0.0:
                s += a[i, j] * a[j, i]
            else:
                s -= math.exp(a[i, j])
    return s


@given(vec(5), st.floats(-0.5, 0.5))
@SETTINGS
def test_inplace_updates(x, w):
    check(inplace, (x, w), (0, 1), rtol=1e-4, atol=1e-5)


@given(vec(7), st.floats(0.05, 0.3), st.integers(0, 4))
@SETTINGS
def test_heat_equation(u0, k, steps):
    check(heat, (u0, k, steps), (0, 1), rtol=1e-4, atol=1e-5)


@given(vec(6))
@SETTINGS
def test_reductions(x):
    s = np.sin(x)
    if np.sort(s)[-1] - np.sort(s)[-2] < 1e-3:
        return              # a tie for the max: no derivative
    check(reductions, (x,), 0, rtol=1e-4, atol=1e-5)


@pytest.mark.slow          # LLVM takes seconds over the gradient of W @ h and np.tanh
@given(st.integers(0, 2**32 - 1))
@SETTINGS
def test_rnn_matmul(seed):
    rng = np.random.default_rng(seed)
    W, xs, h0 = rng.normal(size=(3, 3)) * 0.5, rng.normal(size=(4, 3)), rng.normal(size=3)
    check(rnn, (W, xs, h0), (0, 2), rtol=1e-4, atol=1e-5)


@given(vec(9).map(lambda v: v.reshape(3, 3)))
@SETTINGS
def test_two_d_with_branches(a):
    if np.min(np.abs(a)) < 1e-3:
        return
    check(two_d, (a,), 0, rtol=1e-4, atol=1e-5)


def test_non_contiguous_array_argument():
    a = np.arange(1.0, 13.0).reshape(3, 4).T[:3] / 10.0
    check(two_d, (a,), 0, rtol=1e-4, atol=1e-5)


def test_value_and_grad():
    vg = script.value_and_grad(heat, (0, 1))
    u0 = np.linspace(0.0, 1.0, 6) ** 2
    value, (du, dk) = vg(u0, 0.1, 3)
    assert value == heat(u0, 0.1, 3)
    np.testing.assert_allclose(du, central(heat.py_func, (u0, 0.1, 3), 0), rtol=1e-5)
    assert isinstance(dk, float)


def test_argnums_single_tuple_gives_tuple():
    g = script.grad(loop_if, (0,))(0.3, 5)
    assert isinstance(g, tuple) and len(g) == 1


def test_gradient_ir_is_visible():
    g = script.grad(loop_if)
    g(0.5, 3)
    text = g.ir("opt")
    assert "loop_if$grad" in text and "loop_if.f64_i64.adj" in text
    assert "loop_if" in g.ir("ssa")


# ---- loop shapes: break, continue, early return, nested ranges, try, callees writing ----

@script
def break_continue(x: float, n: int) -> float:
    s = x
    for i in range(n):
        if s > 5.0:
            break
        if i % 3 == 1:
            continue
        s = s * 1.1 + math.cos(s)
    return s


@script
def early_return(x: float) -> float:
    if x > 1.0:
        return x * x
    t = 0.0
    k = 0
    while k < 10:
        t += x ** k / (k + 1)
        k += 2
    return t


@script
def triangle(x, w: float) -> float:
    s = 0.0
    n = x.shape[0]
    for i in range(n):
        for j in range(i, n):
            s += w * x[i] * x[j] + math.sin(x[j] - x[i])
    for i in range(n - 1, -1, -2):
        s = s * 0.9 + x[i] * x[i]
    return s


@script
def with_try(x: float) -> float:
    s = 0.0
    for i in range(5):
        try:
            s += math.log(x - i)
        except ValueError:
            s += x
    return s


@script
def scale(a, k: float):
    for i in range(a.shape[0]):
        a[i] = a[i] * k
    return 0


@script
def calls_writer(x, k: float) -> float:
    y = x.copy()
    scale(y, k)
    scale(y, k)
    return np.sum(y * x)


@script
def single(x, a: float) -> float:
    s = np.float32(0.0)
    for i in range(x.shape[0]):
        s += x[i] * x[i] * np.float32(a)
    return float(s)


@pytest.mark.parametrize("x", [0.7, 2.9])
def test_break_and_continue(x):
    check(break_continue, (x, 20), 0)


@pytest.mark.parametrize("x", [0.5, 1.5])
def test_early_return(x):
    check(early_return, (x,), 0)


@given(vec(5), st.floats(-1.0, 1.0))
@SETTINGS
def test_nested_and_reversed_ranges(x, w):
    check(triangle, (x, w), (0, 1), rtol=1e-4, atol=1e-5)


@pytest.mark.parametrize("x", [2.5, 6.5])
def test_try_except(x):
    check(with_try, (x,), 0)


def test_callee_writing_an_array_is_inlined():
    check(calls_writer, (np.array([0.3, -0.5, 0.8, 1.1]), 1.3), (0, 1))


def test_float32():
    x = np.array([0.3, -0.5, 0.8, 1.1], dtype=np.float32)
    dx, da = script.grad(single, (0, 1))(x, 0.5)
    assert dx.dtype == np.float32
    np.testing.assert_allclose(dx, x, rtol=1e-6)
    np.testing.assert_allclose(da, float(np.sum(x.astype(np.float64) ** 2)), rtol=1e-6)


@script
def new_array_each_step(x, w: float) -> float:
    s = 0.0
    prev = np.zeros(x.shape[0])
    for t in range(4):
        prev[0] = prev[0] * 1.5              # writes last step's array after it was read
        cur = np.zeros(x.shape[0])
        for i in range(x.shape[0]):
            cur[i] = w * x[i] + math.sin(prev[i])
        for i in range(x.shape[0]):
            s += cur[i] * cur[i] * w
        prev = cur
    return s


@given(vec(4), st.floats(-1.0, 1.0))
@SETTINGS
def test_arrays_made_each_step_and_written_later(x, w):
    check(new_array_each_step, (x, w), (0, 1), rtol=1e-4, atol=1e-5)


@script
def big_sum(x) -> float:
    return np.sum(np.sin(x) * x)


@script
def recursive(x, n):
    if n == 0:
        return x
    return math.sin(recursive(x, n - 1)) + x * 0.5


@script
def uses_recursive(x: float) -> float:
    return recursive(x, 5) * recursive(x * 2.0, 3)


def test_recursive_calls_run_their_adjoint():
    x = np.linspace(-1.0, 2.0, 300)          # NumPy's pairwise sum recurses from 128 on
    np.testing.assert_allclose(script.grad(big_sum)(x), np.cos(x) * x + np.sin(x), rtol=1e-12)
    check(uses_recursive, (0.7,), 0)


# ---- refusals ---------------------------------------------------------------------------

@script
def int_result(x: float) -> int:
    return int(x)


@script
def uses_gamma(x: float) -> float:
    return math.gamma(x)


@script
def into_list(x: float) -> float:
    xs = [0.0]
    xs[0] = x * 2.0
    return xs[0]


def test_int_result_is_refused():
    with pytest.raises(CompileError, match="result is i64, not a float"):
        script.grad(int_result)(1.5)


def test_non_differentiable_math_is_refused_at_its_line():
    with pytest.raises(CompileError, match="cannot differentiate math.gamma") as e:
        script.grad(uses_gamma)(1.5)
    assert "return math.gamma(x)" in str(e.value)


def test_float_into_a_container_is_refused():
    with pytest.raises(CompileError, match="cannot differentiate through `list_set`"):
        script.grad(into_list)(1.5)


def test_int_argnum_is_refused():
    with pytest.raises(CompileError, match="parameter 'n' of type i64"):
        script.grad(loop_if, 1)(0.5, 3)


def test_arrays_sharing_memory_are_refused_at_the_call():
    @script
    def two(a, b):
        return np.sum(a * b)
    x = np.ones(4)
    with pytest.raises(ValueError, match="share memory"):
        script.grad(two, (0, 1))(x, x)
    np.testing.assert_allclose(script.grad(two, (0, 1))(x, x.copy())[0], x)


def test_not_a_compiled_function():
    with pytest.raises(TypeError, match="not a function compiled with @script"):
        script.grad(lambda x: x)


def test_against_torch_autograd():
    torch = pytest.importorskip("torch")
    rng = np.random.default_rng(3)
    x, w = rng.normal(size=6), 0.3
    ours = script.grad(inplace, (0, 1))(x.copy(), w)
    tx = torch.tensor(x, requires_grad=True)
    tw = torch.tensor(w, dtype=torch.float64, requires_grad=True)
    xs = [tx[0]]
    for i in range(1, 6):
        xs.append(tx[i] + tw * xs[i - 1] * tx[i])
    theirs = torch.autograd.grad(sum(v ** 2 for v in xs), [tx, tw])
    np.testing.assert_allclose(ours[0], theirs[0].numpy(), rtol=1e-12)
    np.testing.assert_allclose(ours[1], theirs[1].item(), rtol=1e-12)


def test_against_jax():
    jax = pytest.importorskip("jax")
    jax.config.update("jax_enable_x64", True)
    rng = np.random.default_rng(3)
    x, w = rng.normal(size=6), 0.3
    ours = script.grad(inplace, (0, 1))(x.copy(), w)

    def loss(x, w):
        xs = [x[0]]
        for i in range(1, 6):
            xs.append(x[i] + w * xs[i - 1] * x[i])
        return sum(v ** 2 for v in xs)
    theirs = jax.grad(loss, (0, 1))(x, w)
    np.testing.assert_allclose(ours[0], np.asarray(theirs[0]), rtol=1e-12)
    np.testing.assert_allclose(ours[1], float(theirs[1]), rtol=1e-12)


@script
def oscillator_loss(c: float, k: float, observed, dt: float) -> float:
    x, v = 1.0, 0.0
    total = 0.0
    for t in range(observed.shape[0]):
        v += dt * (-k * x - c * v)
        x += dt * v
        d = x - observed[t]
        total += d * d
    return total


def test_fitting_a_simulation_as_docs_grad_md_does():
    optimize = pytest.importorskip("scipy.optimize")
    xs, x, v = [], 1.0, 0.0
    for _ in range(300):
        v += 0.02 * (-2.0 * x - 0.3 * v)
        x += 0.02 * v
        xs.append(x)
    observed = np.array(xs)
    loss_and_grad = script.value_and_grad(oscillator_loss, argnums=(0, 1))

    def objective(p):
        value, (dc, dk) = loss_and_grad(p[0], p[1], observed, 0.02)
        return value, np.array([dc, dk])
    fit = optimize.minimize(objective, x0=[1.0, 1.0], jac=True, method="L-BFGS-B")
    np.testing.assert_allclose(fit.x, [0.3, 2.0], atol=1e-4)
