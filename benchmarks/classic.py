"""Classic numeric kernels (kernels_classic.py) against Numba and C: n-body forces,
Mandelbrot, Black-Scholes, k-means assignment, prefix sums, 2-D convolution, insertion sort,
sieve, Floyd-Warshall, histogram, transpose, a Newton iteration, a floor-modulo hash.

    python benchmarks/classic.py                 # full sizes (about two minutes)
    python benchmarks/classic.py --quick         # small sizes, no Numba (a few seconds)
    python benchmarks/classic.py --only sieve,conv2d --repeats 9

Each kernel is checked first: script against CPython on the quick-size arguments, then
script, C and Numba against each other on the timed arguments (kernels_classic.check_value,
floats to 1e-9 relative). C is c/<name>.c, gcc -O3 -march=native -ffp-contract=off, the
repetition loop inside C; its outputs are allocated once outside that loop (the Python
kernels allocate theirs on every call) except the sieve's, which mallocs per call as the
kernel does. script and C repeats are interleaved; Numba runs afterwards in its own Python
(see README.md). Figures are medians of repeats of loops lasting >= 0.2 s.
"""

from __future__ import annotations

import argparse
import ctypes
import json
import os
import shutil
import subprocess
import sys
import tempfile

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.dirname(HERE))

import _common as C                # noqa: E402
import kernels_classic as K        # noqa: E402
from run import CFLAGS, find_numba_python, fmt_ratio, fmt_time, table   # noqa: E402

NUMBA_SNIPPET = r'''
import json, sys
sys.path.insert(0, sys.argv[1])
import numba
import importlib
import _common as C
from classic import numba_kernel
K = importlib.import_module(sys.argv[6])
names, size, repeats, min_time = sys.argv[2].split(","), sys.argv[3], int(sys.argv[4]), float(sys.argv[5])
out = {"version": numba.__version__}
for name in names:
    args = K.arguments(name, size)
    try:
        f = numba_kernel(numba, K, name)
        check = K.check_value(name, f(*args))
        n = C.calibrate(lambda: f(*args), min_time)
        out[name] = {"check": check, "times": [C.time_per_call(lambda: f(*args), n) for _ in range(repeats)]}
    except Exception as e:
        out[name] = f"{type(e).__name__}: {e}".splitlines()[0][:100]
print(json.dumps(out))
'''


def numba_kernel(numba, K, name: str):
    """Kernel `name` of module K under numba.njit, and the functions it calls (K.HELPERS, and
    itself, for recursion) too. They are jitted in a private copy of K, so script and
    CPython keep calling the plain functions."""
    import importlib.util
    copy = getattr(K, "_numba_copy", None)
    if copy is None:
        spec = importlib.util.spec_from_file_location(K.__name__ + "_numba", K.__file__)
        copy = importlib.util.module_from_spec(spec)
        sys.modules[spec.name] = copy       # Numba links a recursive call through it
        spec.loader.exec_module(copy)
        for helper in getattr(copy, "HELPERS", ()):
            setattr(copy, helper, numba.njit(getattr(copy, helper)))
        K._numba_copy = copy
    f = getattr(copy, name)
    if not hasattr(f, "py_func"):
        f = numba.njit(f)
        setattr(copy, name, f)
    return f


def _c_args(name: str, args):
    """The ctypes arguments of `bench_<name>` before (reps, check), in c/<name>.c's order.
    Output buffers are made here and kept alive by the returned list."""
    p = lambda x: x.ctypes.data_as(ctypes.c_void_p)    # noqa: E731
    i, d = ctypes.c_int64, ctypes.c_double
    f64 = lambda *s: np.empty(s)                       # noqa: E731
    i64 = lambda *s: np.empty(s, dtype=np.int64)       # noqa: E731
    keep = list(args)
    if name == "nbody_accel":
        pos, mass, eps = args
        keep.append(acc := f64(*pos.shape))
        return [p(pos), p(mass), d(eps), p(acc), i(pos.shape[0])], keep
    if name == "mandelbrot":
        w, h, it = args
        keep.append(out := i64(h, w))
        return [i(w), i(h), i(it), p(out)], keep
    if name == "black_scholes":
        s, k, t, r, v = args
        keep.append(out := f64(s.shape[0]))
        return [p(s), p(k), p(t), d(r), d(v), p(out), i(s.shape[0])], keep
    if name == "kmeans_assign":
        pts, cen = args
        keep.append(lab := i64(pts.shape[0]))
        return [p(pts), p(cen), p(lab), i(pts.shape[0]), i(pts.shape[1]), i(cen.shape[0])], keep
    if name == "prefix_sum":
        (a,) = args
        keep += [out := i64(a.shape[0]), sq := i64(a.shape[0])]
        return [p(a), p(out), p(sq), i(a.shape[0])], keep
    if name == "conv2d":
        img, ker = args
        keep.append(out := f64(img.shape[0] - ker.shape[0] + 1, img.shape[1] - ker.shape[1] + 1))
        return [p(img), p(ker), p(out), *(i(x) for x in (*img.shape, *ker.shape))], keep
    if name == "insertion_sort":
        (a,) = args
        keep.append(b := i64(a.shape[0]))
        return [p(a), p(b), i(a.shape[0])], keep
    if name == "sieve":
        return [i(args[0])], keep
    if name == "floyd_warshall":
        (dist,) = args
        keep.append(out := f64(*dist.shape))
        return [p(dist), p(out), i(dist.shape[0])], keep
    if name == "histogram":
        x, nbins, lo, hi = args
        keep.append(counts := i64(nbins))
        return [p(x), i(nbins), d(lo), d(hi), p(counts), i(x.shape[0])], keep
    if name == "transpose":
        (a,) = args
        keep.append(out := f64(a.shape[1], a.shape[0]))
        return [p(a), p(out), i(a.shape[0]), i(a.shape[1])], keep
    if name == "newton_cbrt":
        (a,) = args
        keep.append(out := f64(a.shape[0]))
        return [p(a), p(out), i(a.shape[0])], keep
    if name == "int_mod_hash":
        a, m = args
        return [p(a), i(m), i(a.shape[0])], keep
    raise KeyError(name)


def c_runner(name, args, build_dir, c_args=_c_args):
    """A `run(reps) -> (seconds per call, check value)` over C's bench_<name>, or None."""
    if shutil.which("gcc") is None:
        return None
    lib = os.path.join(build_dir, f"lib{name}.so")
    subprocess.run(["gcc", *CFLAGS, "-o", lib, os.path.join(HERE, "c", f"{name}.c"), "-lm"], check=True)
    f = getattr(ctypes.CDLL(lib), f"bench_{name}")
    f.restype = ctypes.c_double
    cargs, keep = c_args(name, args)
    res = ctypes.c_double()

    def run(reps):
        t = f(*cargs, ctypes.c_int(reps), ctypes.byref(res))
        return t, res.value
    run.keep = keep
    return run


def same(a, b) -> bool:
    return abs(a - b) <= 1e-9 * max(abs(a), abs(b), 1.0)


def results_equal(got, want) -> bool:
    if isinstance(want, tuple):
        return all(results_equal(g, w) for g, w in zip(got, want))
    return np.array_equal(got, want) if np.asarray(want).dtype.kind in "iub" else \
        np.allclose(got, want, rtol=1e-12, atol=0.0)


def main(argv=None) -> int:
    return run_set(argv, K, _c_args, "Classic kernels", __doc__)


def _numba_in_process():
    """Numba, when this Python has it: then its repeats are interleaved with script's and
    C's, as theirs are with each other (a noisy neighbour slows all three alike). Numba
    sets no LLVM option script relies on (script sets its own around each compile)."""
    import importlib.util
    if importlib.util.find_spec("numba") is None:
        return None
    import numba
    return numba


def _numba_checked(numba, K, name, args, checks):
    """Kernel `name` under Numba, its result's check value put in `checks`; None (after
    printing why) where Numba is absent or does not compile it."""
    if numba is None:
        return None
    try:
        nf = numba_kernel(numba, K, name)
        checks["Numba"] = K.check_value(name, nf(*args))
        return nf
    except Exception as e:
        print(f"  Numba {name}: " + f"{type(e).__name__}: {e}".splitlines()[0][:100])
        return None


def run_set(argv, K, c_args, title: str, doc: str) -> int:
    """The command line of a kernel set: K is its kernels module (NAMES, arguments,
    check_value, the kernels), c_args(name, args) the ctypes arguments of c/<name>.c."""
    parser = argparse.ArgumentParser(description=doc.splitlines()[0])
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--no-numba", action="store_true")
    parser.add_argument("--repeats", type=int)
    parser.add_argument("--only", help="comma-separated kernel names")
    parser.add_argument("--json", help="write every figure to this file")
    opts = parser.parse_args(argv)
    import script
    names = opts.only.split(",") if opts.only else list(K.NAMES)
    size = "quick" if opts.quick else "full"
    repeats = opts.repeats or (3 if opts.quick else 7)
    min_time = 0.01 if opts.quick else 0.2
    print(f"{title}, {size} sizes; median of {repeats} repeats of >= {min_time} s; "
          f"load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    times = {n: {} for n in names}
    checks = {n: {} for n in names}
    numba = None if opts.quick or opts.no_numba else _numba_in_process()
    build_dir = tempfile.mkdtemp(prefix="script-bench-classic-")
    keep = []
    try:
        for name in names:
            fn = getattr(K, name)
            f = script.script(fn)
            keep.append(f)
            small = K.arguments(name, "quick")
            if not results_equal(f(*small), fn(*small)):
                print(f"  !! script {name} disagrees with CPython")
            args = K.arguments(name, size)
            checks[name]["script"] = K.check_value(name, f(*args))
            c_run = c_runner(name, args, build_dir, c_args)
            keep.append(c_run)
            nf = _numba_checked(numba, K, name, args, checks[name])
            ts, tc, tn = [], [], []
            n_calls = C.calibrate(lambda: f(*args), min_time)
            if nf:
                n_numba = C.calibrate(lambda: nf(*args), min_time)
            if c_run:
                checks[name]["C"] = c_run(1)[1]
                reps = max(1, int(min_time / max(c_run(1)[0], 1e-9)))
            for _ in range(repeats):
                ts.append(C.time_per_call(lambda: f(*args), n_calls))
                if c_run:
                    tc.append(c_run(reps)[0])
                if nf:
                    tn.append(C.time_per_call(lambda: nf(*args), n_numba))
            times[name]["script"] = C.median(ts)
            if tc:
                times[name]["C"] = C.median(tc)
            if tn:
                times[name]["Numba"] = C.median(tn)
    finally:
        shutil.rmtree(build_dir, ignore_errors=True)
    numba_py = None if opts.quick or opts.no_numba or numba else find_numba_python(None)
    version = numba.__version__ if numba else None
    if numba_py:
        r = subprocess.run([numba_py, "-c", NUMBA_SNIPPET, HERE, ",".join(names), size, str(repeats),
                            str(min_time), K.__name__], capture_output=True, text=True, timeout=900)
        if r.returncode == 0:
            res = json.loads(r.stdout.strip().splitlines()[-1])
            version = res.pop("version")
            for name, v in res.items():
                if isinstance(v, dict):
                    times[name]["Numba"] = C.median(v["times"])
                    checks[name]["Numba"] = v["check"]
                else:
                    print(f"  Numba {name}: {v}")
        else:
            print("  Numba failed:", (r.stderr.strip().splitlines() or ["?"])[-1])
    elif not numba:
        print("  Numba: " + ("skipped" if opts.quick or opts.no_numba else "not installed"))
    for name in names:
        ref = checks[name]["script"]
        for who, v in checks[name].items():
            if not same(v, ref):
                print(f"  !! {name}: {who} gives {v!r}, script {ref!r}")
    rows = []
    for name in names:
        t = times[name]
        c, nb, s = t.get("C"), t.get("Numba"), t["script"]
        rows.append([name, fmt_time(s), fmt_time(nb), fmt_time(c),
                     fmt_ratio(s / c) if c else "-", fmt_ratio(nb / c) if c and nb else "-",
                     fmt_ratio(s / nb) if nb else "-"])
    print()
    table(rows, ["kernel", "script", f"Numba {version or ''}".strip(), "C", "script/C", "Numba/C", "script/Numba"])
    if opts.json:
        with open(opts.json, "w") as fh:
            json.dump({"times": times, "checks": checks, "numba": version}, fh, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
