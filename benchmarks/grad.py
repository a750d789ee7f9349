"""What a gradient costs: `script.grad(f)` against `f` itself on loop-heavy functions, and
against torch.autograd and jax.grad on the same functions where those are installed
(skipped when absent: nan). torch and JAX get the functions written on whole arrays
(`ARRAY_API`); JAX's is `jax.jit(jax.grad(f))` in float64, timed in process CPU time (XLA
may use other threads).

    python benchmarks/grad.py [--repeats N] [--quick]

Functions: an RNN cell over a sequence (written with loops, and with NumPy's `@`/`tanh`),
a 1-D heat equation's time loop (updating in place from a copy kept in one buffer, and from
a new copy each step), and a logistic-regression loss accumulated in a loop. Figures are medians of thread CPU time over `repeats` rounds, each
timing a batch of calls of the function and then of its gradient; the ratio is the median
over rounds of the gradient's time over the function's in the same round (neighbours in
time share the machine's load). Timing decides nothing here.
"""

from __future__ import annotations

import argparse
import math
import os
import statistics
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import numpy as np  # noqa: E402

import script  # noqa: E402
from _common import calibrate, time_per_call  # noqa: E402


@script
def rnn_loops(W, U, xs, h0):
    n = h0.shape[0]
    h = h0.copy()
    hn = np.zeros(n)
    for t in range(xs.shape[0]):
        for i in range(n):
            a = 0.0
            for j in range(n):
                a += W[i, j] * h[j]
            for j in range(xs.shape[1]):
                a += U[i, j] * xs[t, j]
            hn[i] = math.tanh(a)
        for i in range(n):
            h[i] = hn[i]
    s = 0.0
    for i in range(n):
        s += h[i] * h[i]
    return s


@script
def rnn_numpy(W, U, xs, h0):
    h = h0.copy()
    for t in range(xs.shape[0]):
        h = np.tanh(W @ h + U @ xs[t])
    return np.sum(h * h)


@script
def heat(u0, k: float, steps: int):
    u = u0.copy()
    v = u0.copy()
    n = u.shape[0]
    for s in range(steps):
        for i in range(n):
            v[i] = u[i]
        for i in range(1, n - 1):
            u[i] += k * (v[i - 1] - 2.0 * v[i] + v[i + 1])
    t = 0.0
    for i in range(n):
        t += u[i] * u[i]
    return t


@script
def heat_copy(u0, k: float, steps: int):
    u = u0.copy()
    n = u.shape[0]
    for s in range(steps):
        v = u.copy()
        for i in range(1, n - 1):
            u[i] = v[i] + k * (v[i - 1] - 2.0 * v[i] + v[i + 1])
    t = 0.0
    for i in range(n):
        t += u[i] * u[i]
    return t


@script
def logreg(w, X, y):
    loss = 0.0
    for i in range(X.shape[0]):
        z = 0.0
        for j in range(X.shape[1]):
            z += X[i, j] * w[j]
        loss += math.log(1.0 + math.exp(-y[i] * z))
    return loss / X.shape[0]


def cases(quick: bool):
    rng = np.random.default_rng(1)
    n, m, T = (16, 8, 50) if quick else (32, 16, 400)
    W, U = rng.normal(size=(n, n)) * 0.3, rng.normal(size=(n, m)) * 0.3
    xs, h0 = rng.normal(size=(T, m)), rng.normal(size=n)
    u0 = np.sin(np.linspace(0, 3, 64 if quick else 256))
    steps = 50 if quick else 500
    X = rng.normal(size=(200 if quick else 2000, 16))
    y = np.sign(rng.normal(size=X.shape[0]))
    w = rng.normal(size=16) * 0.1
    return [
        ("rnn_loops", rnn_loops, (W, U, xs, h0), (0, 1)),
        ("rnn_numpy", rnn_numpy, (W, U, xs, h0), (0, 1)),
        ("heat", heat, (u0, 0.2, steps), (0, 1)),
        ("heat_copy", heat_copy, (u0, 0.2, steps), (0, 1)),
        ("logreg", logreg, (w, X, y), 0),
    ]


def _cpu_time(fn, number: int, clock=time.thread_time) -> float:
    return time_per_call(fn, number, clock)


def _median_time(fn, repeats: int, clock=time.thread_time) -> float:
    n = calibrate(fn, 0.05)
    return statistics.median(_cpu_time(fn, n, clock) for _ in range(repeats))


def _rounds(f, g, repeats: int):
    """Median times of f and g and the median of their ratio, over interleaved rounds."""
    nf, ng = calibrate(f, 0.05), calibrate(g, 0.05)
    tf, tg = [], []
    for _ in range(repeats):
        tf.append(_cpu_time(f, nf))
        tg.append(_cpu_time(g, ng))
    return statistics.median(tf), statistics.median(tg), statistics.median(b / a for a, b in zip(tf, tg))


def _torch_grad(name, args, argnums):
    """torch.autograd's gradient of the same function, or None without PyTorch."""
    try:
        import torch
    except ImportError:
        return None
    nums = argnums if isinstance(argnums, tuple) else (argnums,)

    def run():
        ts = [torch.tensor(a, requires_grad=k in nums) if isinstance(a, np.ndarray) else
              torch.tensor(a, dtype=torch.float64, requires_grad=True) if isinstance(a, float) else a
              for k, a in enumerate(args)]
        out = ARRAY_API[name](torch, *ts)
        return torch.autograd.grad(out, [ts[k] for k in nums])
    return run


def _jax_grad(name, args, argnums):
    """`jax.jit(jax.grad(...))` of the same function (float64; int arguments static, so
    Python loops over them are unrolled once, at the first call), or None without JAX."""
    try:
        import jax
    except ImportError:
        return None
    jax.config.update("jax_enable_x64", True)
    import jax.numpy as jnp
    nums = argnums if isinstance(argnums, tuple) else (argnums,)
    static = tuple(k for k, a in enumerate(args) if isinstance(a, int))
    fn = jax.jit(jax.grad(lambda *a: ARRAY_API[name](jnp, *a), argnums=nums),
                 static_argnums=static)
    fn(*args)                                   # trace and compile outside the timing

    def run():
        return jax.block_until_ready(fn(*args))
    return run


def _agree(ours, theirs) -> bool:
    """Whether script's gradient and another library's agree (a check that both compute the
    same)."""
    ours = ours if isinstance(ours, tuple) else (ours,)
    return all(np.allclose(np.asarray(o), np.asarray(t.detach() if hasattr(t, "detach") else t),
                           rtol=1e-9, atol=1e-12)
               for o, t in zip(ours, theirs))


# The same functions on whole arrays, for torch and jax.numpy (`xp`: either module).

def _xp_rnn(xp, W, U, xs, h0):
    h = h0
    for t in range(xs.shape[0]):
        h = xp.tanh(W @ h + U @ xs[t])
    return xp.sum(h * h)


def _xp_heat(xp, u0, k, steps):
    u = u0
    for _ in range(steps):
        u = xp.concatenate([u[:1], u[1:-1] + k * (u[:-2] - 2.0 * u[1:-1] + u[2:]), u[-1:]])
    return xp.sum(u * u)


def _xp_logreg(xp, w, X, y):
    return xp.mean(xp.log1p(xp.exp(-y * (X @ w))))


ARRAY_API = {"rnn_loops": _xp_rnn, "rnn_numpy": _xp_rnn, "heat": _xp_heat, "heat_copy": _xp_heat,
             "logreg": _xp_logreg}


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeats", type=int, default=7)
    ap.add_argument("--quick", action="store_true")
    a = ap.parse_args(argv)
    print(f"{'function':<10} {'f (ms)':>9} {'grad (ms)':>10} {'ratio':>6} {'torch (ms)':>11}"
          f" {'jax (ms)':>9}  (the same gradient?)")
    for name, f, args, argnums in cases(a.quick):
        g = script.grad(f, argnums)
        f(*args)
        g(*args)
        tf, tg, ratio = _rounds(lambda: f(*args), lambda: g(*args), a.repeats)
        others, notes = [], ""
        for lib, make, clock in (("torch", _torch_grad, time.thread_time),
                                 ("jax", _jax_grad, time.process_time)):
            run = make(name, args, argnums)
            others.append(float("nan") if run is None else _median_time(run, a.repeats, clock))
            if run is not None:
                notes += f"  {lib} {'same' if _agree(g(*args), run()) else 'DIFFERS'}"
        print(f"{name:<10} {tf * 1e3:9.3f} {tg * 1e3:10.3f} {ratio:6.2f} {others[0] * 1e3:11.3f}"
              f" {others[1] * 1e3:9.3f}{notes}")


if __name__ == "__main__":
    main()
