"""Backend compile time per stage, in ms, for small hand-built IR functions.

    python benchmarks/compile_time.py [--repeats N]

Stages: lowering to LLVM IR text (llvmlite), parsing it back, LLVM's optimizer at -O0/-O2/-O3,
object emission, and linking into the JIT. Each figure is the minimum over `--repeats`
compilations (the first compilation in a process also pays for the JIT's creation, which is
reported apart).
"""

from __future__ import annotations

import argparse
import os
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from script.ir import types as T  # noqa: E402
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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=20)
    opts = parser.parse_args()
    from script.backend.llvm.abi import entry_name
    from script.backend.llvm.jit import get_jit
    from script.backend.runtime.library import build_llvm_module
    from script.backend.runtime.symbols import symbol_library

    t0 = time.perf_counter()
    jit = get_jit()
    symbol_library()
    print(f"JIT creation: {(time.perf_counter() - t0) * 1e3:.1f} ms")
    stages = ("lower", "parse", "optimize", "emit", "link", "total")
    print(f"{'function':10s} {'level':5s} " + " ".join(f"{s:>9s}" for s in stages))
    for func in (add(), sum_squares()):
        module = Module([func])
        for level in (0, 2, 3):
            best = dict.fromkeys(stages, float("inf"))
            for _ in range(opts.repeats):
                t = [time.perf_counter()]
                text = str(build_llvm_module(module, func.name).ir)
                t.append(time.perf_counter())
                mod = jit.parse(text)
                t.append(time.perf_counter())
                jit.optimize(mod, level)
                t.append(time.perf_counter())
                obj = jit.emit_object(mod, level)
                t.append(time.perf_counter())
                jit.link(obj, [entry_name(func.name)], [symbol_library()])
                t.append(time.perf_counter())
                spans = [b - a for a, b in zip(t, t[1:])] + [t[-1] - t[0]]
                for stage, span in zip(stages, spans):
                    best[stage] = min(best[stage], span * 1e3)
            print(f"{func.name:10s} -O{level:<3d} " + " ".join(f"{best[s]:9.2f}" for s in stages))


if __name__ == "__main__":
    main()
