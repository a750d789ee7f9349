"""Kernels of issue 21's slow shapes (kernels_shapes.py) against Numba and C: a spectral
norm through a helper function, Floyd-Warshall with `min`, a `math.floor` histogram clamped
under a flag, Levenshtein, a `%` LCG, recursive quicksort and fib, Mandelbrot, Collatz.

    python benchmarks/shapes.py                  # full sizes (about two minutes)
    python benchmarks/shapes.py --quick          # small sizes, no Numba (a few seconds)
    python benchmarks/shapes.py --only floyd_min,levenshtein --repeats 9

The harness is classic.py's (`classic.run_set`): results checked against CPython and
between implementations, script, C and Numba repeats interleaved, medians.
"""

from __future__ import annotations

import ctypes
import os
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import classic                      # noqa: E402
import kernels_shapes as K          # noqa: E402


def _c_args(name: str, args):
    """The ctypes arguments of `bench_<name>` before (reps, check), in c/<name>.c's order."""
    p = lambda x: x.ctypes.data_as(ctypes.c_void_p)    # noqa: E731
    i, d = ctypes.c_int64, ctypes.c_double
    keep = list(args)
    if name == "floyd_min":
        (dist,) = args
        keep.append(out := np.empty(dist.shape))
        return [p(dist), p(out), i(dist.shape[0])], keep
    if name == "matvec_loops":
        a, x = args
        keep.append(y := np.empty(a.shape[0]))
        return [p(a), p(x), p(y), i(a.shape[0]), i(a.shape[1])], keep
    if name == "histogram_floor":
        x, nbins, lo, hi, clamp = args
        keep.append(counts := np.empty(nbins, dtype=np.int64))
        return [p(x), i(nbins), d(lo), d(hi), i(int(clamp)), p(counts), i(x.shape[0])], keep
    if name == "levenshtein":
        a, b = args
        keep.append(table := np.empty((a.shape[0] + 1) * (b.shape[0] + 1), dtype=np.int64))
        return [p(a), i(a.shape[0]), p(b), i(b.shape[0]), p(table)], keep
    if name == "quicksort_rec":
        (x,) = args
        keep.append(out := np.empty_like(x))
        return [p(x), p(out), i(x.shape[0])], keep
    if name in ("spectral_norm_calls", "lcg_mod", "fib_rec", "mandelbrot_count", "collatz_longest"):
        return [i(a) for a in args], keep
    raise KeyError(name)


def main(argv=None) -> int:
    return classic.run_set(argv, K, _c_args, "Issue-21 shapes", __doc__)


if __name__ == "__main__":
    sys.exit(main())
