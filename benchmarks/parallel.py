"""What `@script(parallel=True)` gains: prange loops on all cores against the same loop on
one thread, timed in interleaved rounds in one process (docs/parallel.md).

    python benchmarks/parallel.py [--repeats N] [--threads N] [--quick]

Kernels (each a loop of independent iterations, 1-50 ms a call at the full sizes):

- ``sines``: ``out[i] = sum(sin(a[i] * j) for j in range(64))``: equal work per iteration
  (``sines-1ms``: the same on 2,000 elements, about a millisecond);
- ``reduce``: ``s += sqrt(a[i]) * sin(a[i])`` into one float: a reduction;
- ``mandel``: Mandelbrot rows, ``out[i, j]`` = escape count: unequal work per row (the
  128 chunks of a loop, taken in turn by the threads, balance it);
- ``overhead``: a loop of 2 iterations: what a parallel loop costs beyond its work.

Variants: ``serial`` is the function compiled without ``parallel`` (prange is range);
``1 thread`` and ``N threads`` are the parallel build with `script.set_num_threads` 1 and N
(1: the calling thread runs every chunk, no pool). Figures are medians of wall time; a
speed-up is the median over rounds of the ratio of two variants' times in one round
(neighbours in time share the machine's load). ``cores``: the process's CPU time over wall
time on N threads, what the machine gave it (on a shared machine, the ceiling of the
speed-up). Timing decides nothing here; the load average is printed first.
"""

from __future__ import annotations

import argparse
import math
import os
import statistics
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))

import numpy as np  # noqa: E402

import script  # noqa: E402
from script.backend.runtime import parallel as runtime  # noqa: E402


def sines(a, out):
    for i in script.prange(a.shape[0]):
        acc = 0.0
        for j in range(64):
            acc += math.sin(a[i] * j)
        out[i] = acc


def reduce(a):
    s = 0.0
    for i in script.prange(a.shape[0]):
        s += math.sqrt(a[i]) * math.sin(a[i])
    return s


def mandel(out, limit):
    h, w = out.shape[0], out.shape[1]
    for i in script.prange(h):
        y = -1.5 + 3.0 * i / h
        for j in range(w):
            x = -2.0 + 3.0 * j / w
            zr = 0.0
            zi = 0.0
            k = 0
            while k < limit and zr * zr + zi * zi <= 4.0:
                zr, zi = zr * zr - zi * zi + x, 2.0 * zr * zi + y
                k += 1
            out[i, j] = k


def overhead(a):
    s = 0.0
    for i in script.prange(a.shape[0]):
        s += a[i]
    return s


def cases(quick: bool):
    n = 20_000 if quick else 200_000
    rng = np.random.default_rng(0)
    a = rng.random(n)
    side = 120 if quick else 400
    small = 2_000 if not quick else 200          # about 1 ms serially here
    return [
        ("sines", sines, (a, np.zeros(n))),
        ("sines-1ms", sines, (a[:small], np.zeros(small))),
        ("reduce", reduce, (rng.random(n * 10),)),
        ("mandel", mandel, (np.zeros((side, side), dtype=np.int64), 200)),
        ("overhead", overhead, (np.ones(2),)),
    ]


def timed(fn, args, threads, number: int, cpu: list | None = None) -> float:
    """Seconds of wall time per call; appends the process's CPU time over wall time to `cpu`."""
    if threads is not None:
        runtime.set_num_threads(threads)
    c = time.process_time()
    t = time.perf_counter()
    for _ in range(number):
        fn(*args)
    wall = time.perf_counter() - t
    if cpu is not None:
        cpu.append((time.process_time() - c) / wall)
    return wall / number


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeats", type=int, default=0)
    ap.add_argument("--threads", type=int, default=0, help="default: the CPUs this process may use")
    ap.add_argument("--quick", action="store_true")
    opts = ap.parse_args()
    threads = opts.threads or runtime.get_num_threads()
    repeats = opts.repeats or (3 if opts.quick else 11)
    load = os.getloadavg() if hasattr(os, "getloadavg") else (float("nan"),) * 3
    print(f"load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}; {threads} threads; "
          f"{repeats} rounds; medians of wall time")
    print(f"{'kernel':10} {'serial':>10} {'1 thread':>10} {f'{threads} threads':>11} "
          f"{'speed-up':>9} {'vs serial':>9} {'cores':>6}")
    for name, fn, args in cases(opts.quick):
        serial, par = script.script(fn), script.script(parallel=True)(fn)
        want = serial(*args)
        runtime.set_num_threads(threads)
        if par(*args) != want and not (isinstance(want, float) and math.isclose(par(*args), want, rel_tol=1e-9)):
            print(f"!! {name}: the parallel result differs from the serial one")
        once = timed(serial, args, None, 1)
        number = max(1, int(0.05 / max(once, 1e-7)))
        rows = {"serial": [], "one": [], "many": []}
        cores: list = []
        for _ in range(repeats):
            rows["serial"].append(timed(serial, args, None, number))
            rows["one"].append(timed(par, args, 1, number))
            rows["many"].append(timed(par, args, threads, number, cores))
        speed = statistics.median(o / m for o, m in zip(rows["one"], rows["many"]))
        versus = statistics.median(s / m for s, m in zip(rows["serial"], rows["many"]))
        med = {k: statistics.median(v) for k, v in rows.items()}
        unit, scale = ("us", 1e6) if med["serial"] < 1e-3 else ("ms", 1e3)
        print(f"{name:10} {med['serial'] * scale:8.2f}{unit} {med['one'] * scale:8.2f}{unit} "
              f"{med['many'] * scale:9.2f}{unit} {speed:8.2f}x {versus:8.2f}x {statistics.median(cores):6.2f}")
    runtime.set_num_threads(threads)


if __name__ == "__main__":
    main()
