"""Compile time per stage, in ms: end to end on fresh Python functions, and for the backend alone
on small hand-built IR functions.

    python benchmarks/compile_time.py [--trials N] [--repeats N] [--profile] [--no-interrupts]
                                      [--fresh N]

End to end (the function of `run.py`'s compile-latency section, COMPILE_TEMPLATE): each trial
writes a NEW module to a temp file, imports it, and times ``script.script(f)`` plus the first
call, split into decorate, frontend, passes, and the backend's steps (lower to LLVM IR text,
parse, optimize, emit object code, link); "other" is the rest of the first call (argument
binding, dispatcher update). Medians over `--trials`, wall clock, and "cpu": the thread's CPU
time for the whole, which a busy machine inflates less (it leaves out time spent waiting
for a core). `--profile` also runs cProfile over the trials and prints the top functions by
cumulative time; `--no-interrupts` also times functions compiled with ``interruptible=False``,
alternating with the others trial by trial, so that both see the same machine load.

Fresh process (`--fresh N`): N new Python processes each import NumPy and script, then time
the first compile and call of one function (the same template), against the warm figure
above: what a user's first compile costs beyond a warm one (imports of the frontend,
llvmlite, the runtime). Medians; run with PYTHONDONTWRITEBYTECODE unset (docs: NOTES).

Backend alone: minimum over `--repeats` compilations of each hand-built function per
optimization level (the first compilation in a process also pays for the JIT's creation,
which is reported apart; the CPython entry point of each signature is compiled once, on
first use, and only linked afterwards).
"""

from __future__ import annotations

import argparse
import cProfile
import importlib.util
import os
import pstats
import statistics
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, ".."))

from script.ir import types as T  # noqa: E402
from script.backend.runtime.library import STEPS as BACKEND_STEPS  # noqa: E402
from script.ir.core import Const, Function, Instr, Module, set_terminator  # noqa: E402


def add() -> Function:
    f = Function("add", [T.I64, T.I64], T.I64)
    set_terminator(f.entry, "ret", [f.entry.append(Instr("add", list(f.params), T.I64))])
    return f


def sum_squares() -> Function:
    """sum(i * i for i in range(n)): a loop with block parameters."""
    f = Function("sumsq", [T.I64], T.I64)
    n, = f.params
    loop, body, done = f.add_block("loop"), f.add_block("body"), f.add_block("done")
    i, acc = loop.add_param(T.I64), loop.add_param(T.I64)
    result = done.add_param(T.I64)
    set_terminator(f.entry, "br", [Const(0, T.I64), Const(0, T.I64)], [loop], [2])
    c = loop.append(Instr("cmp", [i, n], T.BOOL, "lt"))
    set_terminator(loop, "cbr", [c, acc], [body, done], [0, 1])
    sq = body.append(Instr("mul", [i, i], T.I64))
    acc2 = body.append(Instr("add", [acc, sq], T.I64))
    i2 = body.append(Instr("add", [i, Const(1, T.I64)], T.I64))
    set_terminator(body, "br", [i2, acc2], [loop], [2])
    set_terminator(done, "ret", [result])
    return f


def fresh_functions(count: int, tmp: str, tag: str):
    """`count` new Python functions from run.py's COMPILE_TEMPLATE, each in its own module."""
    from run import COMPILE_TEMPLATE
    seed = int(time.time() * 1000) % 1_000_000
    for t in range(count):
        name = f"ct_{tag}_{seed}_{t}"
        path = os.path.join(tmp, name + ".py")
        with open(path, "w") as fh:
            fh.write(COMPILE_TEMPLATE.format(name=name, k=t + 1))
        spec = importlib.util.spec_from_file_location(name, path)
        mod = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(mod)
        yield getattr(mod, name)


def end_to_end(trials: int, profile: bool, settings=(True,)) -> None:
    """Compile latency of fresh functions, for each `interruptible` value in `settings`
    (trials alternate between them)."""
    import script
    from run import COMPILE_ARGS
    keep = []               # the frontend caches by id(function): keep every one alive
    rows = {setting: [] for setting in settings}
    with tempfile.TemporaryDirectory(prefix="script-compile-time-") as tmp:
        for fn in fresh_functions(3, tmp, "warm"):      # JIT, runtime library, caches
            f = script.script(fn)
            f(*COMPILE_ARGS)
            keep.append(f)
        fns = fresh_functions(trials * len(settings), tmp, "e2e")
        for t in range(trials):
            for interruptible in (settings if t % 2 == 0 else settings[::-1]):
                fn = next(fns)
                c0 = time.thread_time()
                t0 = time.perf_counter()
                f = script.script(fn, interruptible=interruptible)
                t1 = time.perf_counter()
                f(*COMPILE_ARGS)
                t2 = time.perf_counter()
                cpu = time.thread_time() - c0
                keep.append(f)
                spec = next(iter(f.__dict__["_specializations"].values()))
                row = {"total": t2 - t0, "decorate": t1 - t0,
                       "frontend": spec.timings["frontend"], "passes": spec.timings["passes"],
                       **spec.native.timings}
                row["other"] = row["total"] - sum(v for k, v in row.items() if k != "total")
                row["cpu"] = cpu
                rows[interruptible].append(row)
        if profile:
            pr = cProfile.Profile()
            pr.enable()
            for fn in fresh_functions(trials, tmp, "prof"):
                f = script.script(fn)
                f(*COMPILE_ARGS)
                keep.append(f)
            pr.disable()
    keys = ["total", "decorate", "frontend", "passes", *BACKEND_STEPS, "other", "cpu"]
    for interruptible in settings:
        what = "" if interruptible else ", interruptible=False"
        print(f"end to end{what}, median of {trials} fresh functions (ms):")
        print(" ".join(f"{k:>9s}" for k in keys))
        print(" ".join(f"{statistics.median(r[k] for r in rows[interruptible]) * 1e3:9.2f}"
                       for k in keys))
    if profile:
        pstats.Stats(pr).sort_stats("cumulative").print_stats(40)


FRESH = r"""
import sys, time, importlib.util
sys.path[:0] = [sys.argv[1], sys.argv[2]]
import numpy
import script
from run import COMPILE_ARGS
spec = importlib.util.spec_from_file_location(sys.argv[4], sys.argv[3])
mod = importlib.util.module_from_spec(spec)
spec.loader.exec_module(mod)
t0 = time.perf_counter()
f = script.script(getattr(mod, sys.argv[4]))
f(*COMPILE_ARGS)
print(time.perf_counter() - t0)
"""


def fresh_processes(count: int) -> list[float]:
    """First compile + call in `count` new processes (NumPy and script imported before), s."""
    import subprocess
    from run import COMPILE_TEMPLATE
    out = []
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    with tempfile.TemporaryDirectory(prefix="script-compile-fresh-") as tmp:
        seed = int(time.time() * 1000) % 1_000_000
        for t in range(count):
            name = f"ct_fresh_{seed}_{t}"
            path = os.path.join(tmp, name + ".py")
            with open(path, "w") as fh:
                fh.write(COMPILE_TEMPLATE.format(name=name, k=t + 1))
            r = subprocess.run([sys.executable, "-c", FRESH, os.path.join(HERE, ".."), HERE, path, name],
                               capture_output=True, text=True, env=env, check=True)
            out.append(float(r.stdout.split()[-1]))
    return out


def fresh_vs_warm(count: int, trials: int) -> None:
    import script
    from run import COMPILE_ARGS
    keep, warm = [], []
    with tempfile.TemporaryDirectory(prefix="script-compile-warm-") as tmp:
        for k, fn in enumerate(fresh_functions(3 + trials, tmp, "fw")):
            t0 = time.perf_counter()
            f = script.script(fn)
            f(*COMPILE_ARGS)
            if k >= 3:
                warm.append(time.perf_counter() - t0)
            keep.append(f)
    fresh = fresh_processes(count)
    w, fr = statistics.median(warm) * 1e3, statistics.median(fresh) * 1e3
    print(f"\nfirst compile: fresh process {fr:.1f} ms, warm {w:.1f} ms (medians of {count} "
          f"processes and {trials} functions): {fr - w:.1f} ms more")


def backend_alone(repeats: int) -> None:
    from script.backend.llvm.abi import ENTRY_SYMBOL
    from script.backend.llvm.jit import get_jit
    from script.backend.runtime.library import build_llvm_module, entry_point
    from script.backend.runtime.shared import libraries

    t0 = time.perf_counter()
    jit = get_jit()
    libraries()
    print(f"\nJIT and runtime library creation: {(time.perf_counter() - t0) * 1e3:.1f} ms")
    stages = BACKEND_STEPS + ("total",)
    print(f"{'function':10s} {'level':5s} " + " ".join(f"{s:>9s}" for s in stages))
    for func in (add(), sum_squares()):
        module = Module([func])
        for level in (0, 2, 3):
            best = dict.fromkeys(stages, float("inf"))
            for _ in range(repeats):
                t = [time.perf_counter()]
                text = build_llvm_module(module, func.name).text()
                t.append(time.perf_counter())
                mod = jit.parse(text)
                t.append(time.perf_counter())
                jit.optimize(mod, level)
                t.append(time.perf_counter())
                obj = jit.emit_object(mod, level)
                t.append(time.perf_counter())
                entry = entry_point(func.param_types, func.ret_type).object_code
                jit.link([obj, entry], [ENTRY_SYMBOL], libraries())
                t.append(time.perf_counter())
                spans = [b - a for a, b in zip(t, t[1:])] + [t[-1] - t[0]]
                for stage, span in zip(stages, spans):
                    best[stage] = min(best[stage], span * 1e3)
            print(f"{func.name:10s} -O{level:<3d} " + " ".join(f"{best[s]:9.2f}" for s in stages))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--trials", type=int, default=15)
    parser.add_argument("--repeats", type=int, default=20)
    parser.add_argument("--profile", action="store_true")
    parser.add_argument("--no-interrupts", action="store_true",
                        help="also time the functions compiled with interruptible=False")
    parser.add_argument("--fresh", type=int, default=0, metavar="N",
                        help="also time the first compile in N fresh processes against a warm one")
    opts = parser.parse_args()
    sys.path.insert(0, HERE)
    if opts.fresh:
        fresh_vs_warm(opts.fresh, opts.trials)
        return
    end_to_end(opts.trials, opts.profile, (True, False) if opts.no_interrupts else (True,))
    backend_alone(opts.repeats)


if __name__ == "__main__":
    main()
