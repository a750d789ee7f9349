"""What interrupt checks and releasing the GIL cost: the same kernels compiled with
``interruptible`` and ``nogil`` on and off, timed in interleaved rounds in one process.

    python benchmarks/interrupt_cost.py [--repeats N] [--quick]

Kernels: the scalar ones of benchmarks/run.py (fib, collatz, lcg_pi, mt_pi, branchy) and
array loops (an int64 sum, a saxpy and a clip with an ``if`` in its body, which LLVM
vectorizes; a float dot product, a 2-D stencil and a prefix scan, which it does not).
Variants:

- ``plain``: ``interruptible=False, nogil=False``, the code as it was before either existed;
- ``checks``: ``interruptible=True, nogil=False``: the cost of the polls alone;
- ``default``: ``interruptible=True, nogil=True``, what ``@script`` compiles.

Also: the call overhead of a function with a loop called on an empty range (what releasing
and taking back the GIL adds to a call), against the same function with ``nogil=False``.
Figures are medians of thread CPU time; a ratio is the median over rounds of the ratio of
two variants' times in the same round (neighbours in time share the machine's load, which
on a shared machine moves the figures more than what is measured). Timing decides nothing
here.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
import timeit

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.dirname(HERE))

import numpy as np  # noqa: E402

import kernels_scalar as K  # noqa: E402
import script  # noqa: E402


def isum(a):
    s = 0
    for i in range(a.shape[0]):
        s += a[i]
    return s


def saxpy(a, x, y, out):
    for i in range(x.shape[0]):
        out[i] = a * x[i] + y[i]
    return out[0]


def dot(x, y):
    s = 0.0
    for i in range(x.shape[0]):
        s += x[i] * y[i]
    return s


def stencil(a, out):
    n, m = a.shape
    for i in range(1, n - 1):
        for j in range(1, m - 1):
            out[i, j] = 0.25 * (a[i - 1, j] + a[i + 1, j] + a[i, j - 1] + a[i, j + 1])
    return out[1, 1]


def prefix_max(a, out):
    best = a[0]
    for i in range(a.shape[0]):
        if a[i] > best:
            best = a[i]
        out[i] = best
    return best


def clip(a, lo, hi):
    for i in range(a.shape[0]):
        x = a[i]
        if x < lo:
            a[i] = lo
        elif x > hi:
            a[i] = hi
    return a[0]


def loop_add(n, b):
    s = b
    for i in range(n):
        s += i
    return s


VARIANTS = {"plain": dict(interruptible=False, nogil=False),
            "checks": dict(interruptible=True, nogil=False),
            "default": dict(interruptible=True, nogil=True)}


def kernels(quick: bool):
    rng = np.random.default_rng(1)
    n = 20_000 if quick else 1_000_000
    x, y, out = rng.random(n), rng.random(n), np.zeros(n)
    ints = rng.integers(0, 1000, n)
    grid = rng.random((100, 100) if quick else (1000, 1000))
    sizes = {name: sizes["quick" if quick else "full"] for name, (_, sizes) in K.KERNELS.items()}
    table = {name: (fn, sizes[name]) for name, (fn, _) in K.KERNELS.items()}
    table.update({
        "isum (vectorized)": (isum, (ints,)),
        "saxpy (vectorized)": (saxpy, (2.0, x, y, out)),
        "clip (vectorized)": (clip, (x.copy(), 0.25, 0.75)),   # clipped on the first call
        "dot": (dot, (x, y)),
        "stencil 2-D": (stencil, (grid, np.zeros_like(grid))),
        "prefix_max": (prefix_max, (x, out)),
    })
    return table


def time_call(f, args, min_time: float) -> float:
    """Seconds of this thread's CPU time per call (a loaded machine inflates wall-clock time
    more: it counts the time spent waiting for a core)."""
    number = 1
    while True:
        t0 = time.thread_time()
        for _ in range(number):
            f(*args)
        elapsed = time.thread_time() - t0
        if elapsed >= min_time:
            return elapsed / number
        number *= 2


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=15)
    parser.add_argument("--quick", action="store_true")
    opts = parser.parse_args()
    min_time = 0.02 if opts.quick else 0.1
    print(f"{'kernel':20s} {'plain':>10s} {'checks':>8s} {'default':>8s}   (ratios to plain)")
    for name, (fn, args) in kernels(opts.quick).items():
        compiled = {v: script.script(fn, **o) for v, o in VARIANTS.items()}
        results = {v: f(*args) for v, f in compiled.items()}
        assert len({repr(r) for r in results.values()}) == 1, (name, results)
        times = {v: [] for v in compiled}
        for _ in range(opts.repeats):
            for v, f in compiled.items():
                times[v].append(time_call(f, args, min_time))
        plain = statistics.median(times["plain"])
        ratio = {v: statistics.median(t / p for t, p in zip(times[v], times["plain"]))
                 for v in ("checks", "default")}
        print(f"{name:20s} {plain * 1e3:8.3f}ms {ratio['checks']:8.3f} {ratio['default']:8.3f}")
    print("\ncall overhead, ns per call (median of rounds of 200000 calls):")
    calls = {"no loop, f(1, 2)": (script.script(_add), (1, 2))}
    for v in ("checks", "default"):
        calls[f"loop_add(0, 2), {v}"] = (script.script(loop_add, **VARIANTS[v]), (0, 2))
    for f, args in calls.values():
        f(*args)
    rounds = {k: [] for k in calls}
    for _ in range(5 if opts.quick else 15):
        for k, (f, args) in calls.items():
            t = timeit.timeit("f(*args)", globals={"f": f, "args": args}, number=200_000)
            rounds[k].append(t / 200_000 * 1e9)
    for k, ts in rounds.items():
        print(f"  {k:28s} {statistics.median(ts):7.1f}")


def _add(a, b):
    return a + b


if __name__ == "__main__":
    main()
