"""Do script's IR passes pay for themselves? Each kernel compiled three ways, in one process:

    python benchmarks/passes.py [--quick] [--repeats N] [--trials N] [--only a,b] [--json F]

- ``O0``: ``opt=0``: no IR passes, and LLVM at -O0 (compiler.LLVM_LEVEL[0]);
- ``none``: ``opt=2, passes=()``: no IR passes, LLVM at -O2 as for the default;
- ``O2``: ``opt=2``, the default: the IR pipeline, then LLVM at -O2.

``none`` against ``O2`` is the fair comparison (LLVM's level is the same; only our pipeline
differs); ``O0`` is there for reference. Per kernel and variant it reports:

- runtime: median over `--repeats` interleaved rounds (each a loop of calls lasting at least
  0.1 s, 0.02 s with `--quick`), wall clock;
- compile time: medians over `--trials` fresh compiles (a new `script.script` object each, so
  every trial runs the IR passes and the backend; the frontend's IR is cached per Python
  function and the same for every variant, so it is left out): ``passes`` (our pipeline),
  ``llvm`` (LLVM's optimizer plus code generation, the backend's ``optimize`` and ``emit``
  steps) and ``backend`` (all of the backend: lowering to LLVM IR text, parsing, optimizing,
  emitting, linking);
- the size of the LLVM IR handed to LLVM (the text `build_llvm_module` makes, before LLVM's
  optimizer; the CPython entry point, compiled once per signature, is not included), lines
  and KiB.

Every variant's result is compared with the others' before timing. Timing decides nothing.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.dirname(HERE))

import numpy as np  # noqa: E402

import interrupt_cost as loops  # noqa: E402
import kernels_arrays as L  # noqa: E402
import kernels_scalar as K  # noqa: E402
import script  # noqa: E402
from script.backend.runtime import library  # noqa: E402

VARIANTS = {"O0": dict(opt=0), "none": dict(opt=2, passes=()), "O2": dict(opt=2)}


def int_powers(n):
    """Constant powers of ints (what the strength pass rewrites), reduced to stay small."""
    total = 0
    for i in range(n):
        k = i % 1000
        total += (k ** 5 - 3 * k ** 3 + k ** 2) % 1009
    return total


def kernels(quick: bool) -> dict:
    size = "quick" if quick else "full"
    table = {name: (fn, sizes[size]) for name, (fn, sizes) in K.KERNELS.items()}
    table["int_powers"] = (int_powers, (20_000 if quick else 1_000_000,))
    vec = L.arguments("dot", size)
    mat = L.arguments("matmul", size)
    table.update({"np.dot": (L.dot, vec), "dot_loop": (L.dot_loop, vec),
                  "a @ b": (L.matmul, mat), "matmul_loop": (L.matmul_loop, mat)})
    rng = np.random.default_rng(1)
    n = 20_000 if quick else 1_000_000
    x, y = rng.random(n), rng.random(n)
    grid = rng.random((100, 100) if quick else (1000, 1000))
    table.update({
        "isum": (loops.isum, (rng.integers(0, 1000, n),)),
        "saxpy": (loops.saxpy, (2.0, x, y, np.zeros(n))),
        "stencil": (loops.stencil, (grid, np.zeros_like(grid))),
        "prefix_max": (loops.prefix_max, (x, np.zeros(n))),
    })
    return table


class _IrSize:
    """Records the size of the LLVM IR text each compile hands to LLVM."""

    def __init__(self):
        self.last = None
        self._build = library.build_llvm_module

    def __enter__(self):
        def build(*args, **kwargs):
            m = self._build(*args, **kwargs)
            text = m.text()
            self.last = (text.count("\n") + 1, len(text.encode()))
            return m
        library.build_llvm_module = build
        return self

    def __exit__(self, *exc):
        library.build_llvm_module = self._build


def compile_once(fn, args, options: dict, sizes: _IrSize):
    """A fresh compile of `fn` for `args`: (the compiled function, {stage: seconds}, ir size)."""
    f = script.script(fn, **options)
    f(*args)
    spec, = f.__dict__["_specializations"].values()
    t = spec.native.timings
    stages = {"passes": spec.timings["passes"],
              "llvm": t.get("optimize", 0.0) + t.get("emit", 0.0),
              "backend": spec.timings["backend"]}
    return f, stages, sizes.last


def time_call(f, args, min_time: float) -> float:
    number = 1
    while True:
        t0 = time.perf_counter()
        for _ in range(number):
            f(*args)
        elapsed = time.perf_counter() - t0
        if elapsed >= min_time:
            return elapsed / number
        number *= 2


def _same(a, b) -> bool:
    if isinstance(a, np.ndarray) or isinstance(b, np.ndarray):
        return np.array_equal(a, b)
    return a == b or (a != a and b != b)


def measure(name, fn, args, opts) -> dict:
    sizes = _IrSize()
    compiled, compile_times, ir = {}, {v: [] for v in VARIANTS}, {}
    with sizes:
        for _ in range(opts.trials):
            for v, options in VARIANTS.items():
                compiled[v], stages, ir[v] = compile_once(fn, args, options, sizes)
                compile_times[v].append(stages)
    results = {v: f(*args) for v, f in compiled.items()}
    ok = all(_same(results["O0"], r) for r in results.values())
    runs = {v: [] for v in VARIANTS}
    for _ in range(opts.repeats):
        for v, f in compiled.items():
            runs[v].append(time_call(f, args, opts.min_time))
    row = {"agree": ok}
    for v in VARIANTS:
        row[v] = {"run_s": statistics.median(runs[v]),
                  **{k: statistics.median(s[k] for s in compile_times[v])
                     for k in ("passes", "llvm", "backend")},
                  "ir_lines": ir[v][0], "ir_bytes": ir[v][1]}
    return row


def geomean(xs) -> float:
    xs = [x for x in xs if x > 0]
    return float(np.exp(np.mean(np.log(xs)))) if xs else float("nan")


def report(rows: dict) -> None:
    ms = 1e3
    print(f"{'kernel':12s} | {'run ms: O0':>10s} {'none':>8s} {'O2':>8s} {'O2/none':>7s} | "
          f"{'compile ms: none':>16s} {'O2':>6s} {'(passes':>7s} {'llvm)':>6s} {'O2/none':>7s} | "
          f"{'IR lines: O0':>12s} {'none':>5s} {'O2':>5s} {'O2/none':>7s}")
    for name, r in rows.items():
        o0, none, o2 = r["O0"], r["none"], r["O2"]
        c_none = none["passes"] + none["backend"]
        c_o2 = o2["passes"] + o2["backend"]
        flag = "" if r["agree"] else "   !! results differ"
        print(f"{name:12s} | {o0['run_s'] * ms:10.3f} {none['run_s'] * ms:8.3f} "
              f"{o2['run_s'] * ms:8.3f} {o2['run_s'] / none['run_s']:7.3f} | "
              f"{c_none * ms:16.2f} {c_o2 * ms:6.2f} {o2['passes'] * ms:7.2f} "
              f"{o2['llvm'] * ms:6.2f} {c_o2 / c_none:7.3f} | "
              f"{o0['ir_lines']:12d} {none['ir_lines']:5d} {o2['ir_lines']:5d} "
              f"{o2['ir_lines'] / none['ir_lines']:7.3f}{flag}")
    g = {k: geomean([f(r) for r in rows.values()]) for k, f in {
        "run": lambda r: r["O2"]["run_s"] / r["none"]["run_s"],
        "compile": lambda r: (r["O2"]["passes"] + r["O2"]["backend"])
        / (r["none"]["passes"] + r["none"]["backend"]),
        "llvm": lambda r: r["O2"]["llvm"] / r["none"]["llvm"],
        "ir": lambda r: r["O2"]["ir_lines"] / r["none"]["ir_lines"]}.items()}
    print(f"geometric means, O2 / none: runtime {g['run']:.3f}, compile (passes + backend) "
          f"{g['compile']:.3f}, LLVM's optimize + emit alone {g['llvm']:.3f}, "
          f"IR lines {g['ir']:.3f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="small sizes, few repeats")
    parser.add_argument("--repeats", type=int, default=None)
    parser.add_argument("--trials", type=int, default=None)
    parser.add_argument("--only", default="", help="comma-separated kernel names")
    parser.add_argument("--json", default=None, help="write every figure to this file")
    opts = parser.parse_args()
    opts.repeats = opts.repeats or (3 if opts.quick else 7)
    opts.trials = opts.trials or (3 if opts.quick else 7)
    opts.min_time = 0.02 if opts.quick else 0.1
    table = kernels(opts.quick)
    if opts.only:
        wanted = opts.only.split(",")
        unknown = set(wanted) - set(table)
        if unknown:
            parser.error(f"unknown kernel {', '.join(sorted(unknown))}; known: {', '.join(table)}")
        table = {k: table[k] for k in wanted}
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"script's IR passes: O0 = opt=0 (LLVM -O0), none = opt=2 without IR passes "
          f"(LLVM -O2), O2 = the default; load {load:.1f}, {os.cpu_count()} cores"
          + ("; SCRIPT_VERIFY is set: passes are slower" if os.environ.get("SCRIPT_VERIFY")
             not in (None, "", "0") else ""))
    rows = {name: measure(name, fn, args, opts) for name, (fn, args) in table.items()}
    report(rows)
    if opts.json:
        with open(opts.json, "w") as fh:
            json.dump(rows, fh, indent=1)


if __name__ == "__main__":
    main()
