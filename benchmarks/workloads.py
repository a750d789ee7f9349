"""Workload kernels (kernels_workloads.py) against Numba and C: a pairwise distance matrix,
a Jacobi heat stencil, Cholesky, the spectral norm, fannkuch, N-queens, character counting
over a str, a dict word count, a list of primes, a float32 blur, logistic regression, an
iterative quicksort and a bubble sort on lists, Horner's rule; anagram groups (a dict of
strs), a CSV text from f-strings, Ackermann's function, a list of tuples sorted with a key.

    python benchmarks/workloads.py               # full sizes (about two minutes)
    python benchmarks/workloads.py --quick       # small sizes, no Numba (a few seconds)
    python benchmarks/workloads.py --only fannkuch,word_count --repeats 9

The same harness as classic.py (classic.run_set): script checked against CPython on the
quick-size arguments, then script, C and Numba against each other on the timed ones; C is
c/<name>.c (gcc -O3 -march=native -ffp-contract=off, the repetition loop inside C, output
buffers allocated once outside it); script and C repeats interleaved, Numba afterwards in its
own Python. Strs reach C as ASCII bytes (the texts are ASCII); lists live inside the kernels
(made from an LCG), as C's growable arrays do.
"""

from __future__ import annotations

import ctypes
import os
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import classic                      # noqa: E402
import kernels_workloads as K       # noqa: E402


def _c_args(name: str, args):
    """The ctypes arguments of `bench_<name>` before (reps, check), in c/<name>.c's order.
    Buffers are made here and kept alive by the returned list."""
    p = lambda x: x.ctypes.data_as(ctypes.c_void_p)    # noqa: E731
    i, d = ctypes.c_int64, ctypes.c_double
    f64 = lambda *s: np.empty(s)                       # noqa: E731
    keep = list(args)
    if name == "pairwise_dist":
        (x,) = args
        keep.append(out := f64(x.shape[0], x.shape[0]))
        return [p(x), p(out), i(x.shape[0]), i(x.shape[1])], keep
    if name == "jacobi2d":
        a, steps = args
        keep += [u := f64(*a.shape), v := f64(*a.shape)]
        return [p(a), p(u), p(v), i(a.shape[0]), i(a.shape[1]), i(steps)], keep
    if name == "cholesky":
        (a,) = args
        keep.append(low := f64(*a.shape))
        return [p(a), p(low), i(a.shape[0])], keep
    if name in ("spectral_norm", "fannkuch"):
        return [i(args[0])], keep
    if name == "nqueens":
        return [i(args[0])], keep
    if name in ("char_count", "word_count", "anagram_groups"):
        keep.append(b := ctypes.create_string_buffer(args[0].encode("ascii")))
        return [b, i(len(args[0]))], keep
    if name in ("primes_list", "csv_builder"):
        return [i(args[0])], keep
    if name == "blur_f32":
        img, k = args
        keep.append(out := np.empty((img.shape[0] - 2, img.shape[1] - 2), dtype=np.float32))
        return [p(img), p(k), p(out), i(img.shape[0]), i(img.shape[1])], keep
    if name == "logreg":
        x, y, iters, lr = args
        n, dd = x.shape
        keep += [w := f64(dd), pp := f64(n), g := f64(dd)]
        return [p(x), p(y), i(n), i(dd), i(iters), d(lr), p(w), p(pp), p(g)], keep
    if name in ("quicksort_list", "bubble_sort", "ackermann", "sort_records"):
        return [i(args[0]), i(args[1])], keep
    if name == "horner":
        c, x = args
        keep.append(out := f64(x.shape[0]))
        return [p(c), i(c.shape[0]), p(x), p(out), i(x.shape[0])], keep
    raise KeyError(name)


def main(argv=None) -> int:
    return classic.run_set(argv, K, _c_args, "Workload kernels", __doc__)


if __name__ == "__main__":
    sys.exit(main())
