"""Array kernels against NumPy, Numba and C: `np.dot` of two vectors, `a @ b` of two
matrices, a 5-point stencil, an element-wise expression and an RNN time loop, compiled by
script from kernels_arrays.py with bounds checks on and off, both as a NumPy user writes
them (`np.dot`, `@`, slicing, array expressions) and as explicit loops.

    python benchmarks/arrays.py            # full sizes (about a minute)
    python benchmarks/arrays.py --quick    # small sizes, no Numba (a few seconds)
    python benchmarks/arrays.py --checks   # what bounds checks cost in the loop kernels

NumPy runs its BLAS on one thread (OPENBLAS_NUM_THREADS and friends are set to 1 before
NumPy loads), as every other column runs on one core. C is gcc -O3 -march=native
-ffp-contract=off (c/<kind>.c: the same loops as the `_loop` kernels). Numba runs in its
own Python (see README.md); its np.dot and @ call BLAS through SciPy, which may be missing
there: its loop versions always run. Figures are medians of repeats of loops lasting
>= 0.2 s (0.01 s with --quick); timing never fails anything.
"""

from __future__ import annotations

import os

for _var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import argparse          # noqa: E402
import ctypes            # noqa: E402
import json              # noqa: E402
import subprocess        # noqa: E402
import sys               # noqa: E402
import tempfile          # noqa: E402
import time              # noqa: E402

import numpy as np       # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.dirname(HERE))

import _common as C             # noqa: E402
import kernels_arrays as K      # noqa: E402
from run import CFLAGS, find_numba_python, fmt_ratio, fmt_time, table   # noqa: E402

KINDS = K.KINDS

NUMBA_SNIPPET = r'''
import json, os, sys
sys.path.insert(0, sys.argv[1])
for v in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(v, "1")
import numba, numpy as np
import _common as C, kernels_arrays as K
size, repeats, min_time = sys.argv[2], int(sys.argv[3]), float(sys.argv[4])
out = {"version": numba.__version__}
for kind in K.KINDS:
    args = K.arguments(kind, size)
    for name in (kind, kind + "_loop"):
        f = numba.njit(getattr(K, name))
        try:
            f(*args)
            n = C.calibrate(lambda: f(*args), min_time)
            out[name] = [C.time_per_call(lambda: f(*args), n) for _ in range(repeats)]
        except Exception as e:
            out[name] = f"{type(e).__name__}: {e}".splitlines()[0][:100]
print(json.dumps(out))
'''


def timed(fn, args, repeats, min_time):
    fn(*args)
    n = C.calibrate(lambda: fn(*args), min_time)
    return C.median([C.time_per_call(lambda: fn(*args), n) for _ in range(repeats)])


def _c_call(kind: str, f, args):
    """A function of `reps` running C's `bench_<kind>` on `args`, and where its check value
    lands; plus the value NumPy gives for it."""
    ptr = lambda x: x.ctypes.data_as(ctypes.c_void_p)   # noqa: E731
    i64 = ctypes.c_int64
    res = ctypes.c_double()
    if kind == "dot":
        a, b = args
        return (lambda reps: f(ptr(a), ptr(b), i64(a.shape[0]), reps, ctypes.byref(res))), res, float(a @ b)
    if kind == "matmul":
        a, b = args
        c = np.zeros((a.shape[0], b.shape[1]))
        return (lambda reps: f(ptr(a), ptr(b), ptr(c), *(i64(d) for d in (a.shape[0], a.shape[1], b.shape[1])),
                               reps, ctypes.byref(res))), res, float((a @ b)[-1, -1])
    if kind == "stencil":
        (a,) = args
        r = np.empty_like(a)
        n, m = a.shape
        return (lambda reps: f(ptr(a), ptr(r), i64(n), i64(m), reps, ctypes.byref(res))), res, \
            float(K.stencil(a)[n // 2, m // 2])
    if kind == "expr":
        a, b = args
        out = np.empty_like(a)
        return (lambda reps: f(ptr(a), ptr(b), ptr(out), i64(a.shape[0]), reps, ctypes.byref(res))), res, \
            float(K.expr(a, b)[-1])
    xs, w, u, b = args
    steps, n = xs.shape[0], w.shape[0]
    out, h, hn = np.empty((steps, n)), np.empty(n), np.empty(n)
    return (lambda reps: f(ptr(xs), ptr(w), ptr(u), ptr(b), ptr(out), ptr(h), ptr(hn), i64(steps),
                           i64(xs.shape[1]), i64(n), reps, ctypes.byref(res))), res, float(K.rnn(*args)[-1, -1])


def c_times(size, repeats, min_time):
    """{kind: seconds} of the C kernels, or {} without gcc."""
    import shutil
    if shutil.which("gcc") is None:
        return {}
    out = {}
    with tempfile.TemporaryDirectory(prefix="script-bench-arrays-") as tmp:
        for kind in KINDS:
            lib = os.path.join(tmp, f"lib{kind}.so")
            subprocess.run(["gcc", *CFLAGS, "-o", lib, os.path.join(HERE, "c", f"{kind}.c"), "-lm"], check=True)
            f = getattr(ctypes.CDLL(lib), f"bench_{kind}")
            f.restype = ctypes.c_double
            call, res, want = _c_call(kind, f, K.arguments(kind, size))
            call(1)
            if abs(res.value - want) > 1e-9 * max(abs(want), 1.0):
                print(f"  !! C {kind} gives {res.value}, NumPy {want}")
            reps = max(1, int(min_time / max(call(1), 1e-9)))
            out[kind] = C.median([call(reps) for _ in range(repeats)])
    return out


def thread_time_per_call(fn, args, number: int) -> float:
    """Thread CPU seconds per call: what other processes on a loaded machine take is not
    counted, which wall time would."""
    t0 = time.thread_time()
    for _ in range(number):
        fn(*args)
    return (time.thread_time() - t0) / number


def check_costs(size: str, repeats: int) -> None:
    """For each `_loop` kernel: compiled with bounds checks, with them but without the
    versioning pass (SCRIPT_DISABLE_PASSES, read at each compile), and without them; run
    times interleaved, as ratios to the unchecked one, and process CPU time to compile
    (the least of three compiles, after a first one that fills the caches)."""
    import script
    print(f"Bounds checks in the loop kernels, {size} sizes: thread CPU time per call, median "
          f"of {repeats} interleaved rounds, as a ratio to boundscheck=False; compile time")
    lines = []
    for kind in KINDS:
        args = K.arguments(kind, size)
        script.script(getattr(K, kind + "_loop"))(*args)     # what a first compile caches
        fns, compile_ms = {}, {}
        for label, bc, disabled in (("checked", True, ""), ("no versioning", True, "versioning"),
                                    ("unchecked", False, "")):
            os.environ["SCRIPT_DISABLE_PASSES"] = disabled
            spent = []
            for _ in range(3):
                t0 = time.process_time()
                fns[label] = script.script(getattr(K, kind + "_loop"), boundscheck=bc)
                fns[label](*args)
                spent.append((time.process_time() - t0) * 1e3)
            compile_ms[label] = min(spent)       # CPU time: only contention adds to it
        os.environ.pop("SCRIPT_DISABLE_PASSES")
        number = max(1, int(0.05 / max(thread_time_per_call(fns["unchecked"], args, 1), 1e-7)))
        times = {label: [] for label in fns}
        for _ in range(repeats):
            for label, fn in fns.items():
                times[label].append(thread_time_per_call(fn, args, number))
        t = {label: C.median(v) for label, v in times.items()}
        lines.append([kind + "_loop", fmt_time(t["unchecked"]),
                      fmt_ratio(t["checked"] / t["unchecked"]),
                      fmt_ratio(t["no versioning"] / t["unchecked"]),
                      *(f"{compile_ms[label]:.0f} ms" for label in fns)])
    table(lines, ["", "unchecked", "checked", "checked, no versioning", "compile checked",
                  "no versioning", "unchecked"])


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--no-numba", action="store_true")
    parser.add_argument("--repeats", type=int)
    parser.add_argument("--checks", action="store_true")
    opts = parser.parse_args(argv)
    import script
    size = "quick" if opts.quick else "full"
    if opts.checks:
        check_costs(size, opts.repeats or 25)
        return 0
    repeats = opts.repeats or (3 if opts.quick else 7)
    min_time = 0.01 if opts.quick else 0.2
    print(f"Array kernels, {size} sizes (float64): " + ", ".join(
        f"{kind} {'x'.join(map(str, K.SIZES[kind][size]))}" for kind in KINDS)
        + f"; load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    rows = {}
    keep = []
    for kind in KINDS:
        args = K.arguments(kind, size)
        want = getattr(K, kind)(*args)
        rows.setdefault("NumPy (BLAS, 1 thread)", {})[kind] = timed(getattr(K, kind), args, repeats, min_time)
        rows.setdefault("CPython loops", {})[kind] = timed(getattr(K, kind + "_loop"), args, 1, 0) \
            if opts.quick else "-"
        for label, name, bc in [("script np call", kind, True), ("script np call, boundscheck=False", kind, False),
                                ("script loops", kind + "_loop", True),
                                ("script loops, boundscheck=False", kind + "_loop", False)]:
            f = script.script(getattr(K, name), boundscheck=bc)
            keep.append(f)    # arrays it returned must not outlive it (see docs/arrays.md)
            got = f(*args)
            if not np.allclose(got, want, rtol=1e-9, atol=1e-12):
                print(f"  !! {label} {kind} disagrees with NumPy")
            rows.setdefault(label, {})[kind] = timed(f, args, repeats, min_time)
    for kind, t in c_times(size, repeats, min_time).items():
        rows.setdefault("C (gcc -O3, same loops)", {})[kind] = t
    numba_py = None if opts.quick or opts.no_numba else find_numba_python(None)
    if numba_py:
        r = subprocess.run([numba_py, "-c", NUMBA_SNIPPET, HERE, size, str(repeats), str(min_time)],
                           capture_output=True, text=True, timeout=600)
        if r.returncode == 0:
            res = json.loads(r.stdout.strip().splitlines()[-1])
            for kind in KINDS:
                for name, label in ((kind, f"Numba {res['version']} np call"), (kind + "_loop", f"Numba {res['version']} loops")):
                    v = res[name]
                    rows.setdefault(label, {})[kind] = C.median(v) if isinstance(v, list) else v
        else:
            print("  Numba failed:", (r.stderr.strip().splitlines() or ["?"])[-1])
    else:
        print("  Numba: " + ("skipped" if opts.quick or opts.no_numba else "not installed"))
    c = rows.get("C (gcc -O3, same loops)", {})
    out = []
    for label, times in rows.items():
        line = [label]
        for kind in KINDS:
            t = times.get(kind)
            if isinstance(t, str):
                line += [t[:40], "-"]
            else:
                line += [fmt_time(t), fmt_ratio(t / c[kind]) if t and kind in c else "-"]
        out.append(line)
    print()
    table(out, [""] + [h for kind in KINDS for h in (kind, "/ C")])
    return 0


if __name__ == "__main__":
    sys.exit(main())
