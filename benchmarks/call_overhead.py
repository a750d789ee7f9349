"""Cost of one call from Python, in ns: pure Python, a builtin, a compiled function, ctypes.

    python benchmarks/call_overhead.py [--repeats N]

Every candidate computes ``f(1, 2) == 3`` on two ints. The candidates are timed in
interleaved rounds (so a noisy neighbour slows them all alike), each round a `timeit` of
`--number` calls; the table shows the median and the minimum over rounds. The compiled
function is built from hand-written IR (an ``i64`` add), so this measures the entry point,
not the frontend.
"""

from __future__ import annotations

import argparse
import ctypes
import operator
import os
import statistics
import sys
import timeit

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from script.backend import compile_native  # noqa: E402
from script.loadpath import make_function_type, new_instance, set_specializations  # noqa: E402
from script.ir import types as T  # noqa: E402
from script.ir.core import Function, Instr, Module, set_terminator  # noqa: E402


def python_add(a, b):
    return a + b


def compiled_add():
    f = Function("add", [T.I64, T.I64], T.I64)
    a, b = f.params
    set_terminator(f.entry, "ret", [f.entry.append(Instr("add", [a, b], T.I64))])
    lib = compile_native(Module([f]), "add")
    tp = make_function_type("bench.CompiledFunction")
    obj = new_instance(tp, python_add)
    set_specializations(obj, [lib], 2)
    obj.library = lib
    generic = new_instance(tp, python_add)      # two specializations: the generic dispatch
    set_specializations(generic, [lib, lib], 2)
    generic.library = lib
    return obj, generic


def ctypes_add():
    """A native ``i64 add(i64, i64)`` called through ctypes, for reference."""
    import llvmlite.ir as ir
    from script.backend.llvm.jit import get_jit
    jit = get_jit()
    module = ir.Module("ctypes_add")
    i64 = ir.IntType(64)
    fn = ir.Function(module, ir.FunctionType(i64, [i64, i64]), "add")
    builder = ir.IRBuilder(fn.append_basic_block())
    builder.ret(builder.add(*fn.args))
    mod = jit.parse(str(module))
    tracker = jit.link(jit.emit_object(mod), ["add"], {})
    proto = ctypes.CFUNCTYPE(ctypes.c_longlong, ctypes.c_longlong, ctypes.c_longlong)
    call = proto(tracker["add"])
    call.tracker = tracker
    return call


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=15)
    parser.add_argument("--number", type=int, default=200_000)
    opts = parser.parse_args()
    compiled, generic = compiled_add()
    candidates = {
        "pure Python f(a, b)": python_add,
        "operator.add": operator.add,
        "compiled f(a, b)": compiled,
        "compiled, generic dispatch": generic,
        "ctypes (native add)": ctypes_add(),
    }
    for name, f in candidates.items():
        assert f(1, 2) == 3, name
    times = {name: [] for name in candidates}
    for _ in range(opts.repeats):
        for name, f in candidates.items():
            t = timeit.timeit("f(1, 2)", globals={"f": f}, number=opts.number)
            times[name].append(t / opts.number * 1e9)
    print(f"Python {sys.version.split()[0]}; ns per call, {opts.repeats} rounds "
          f"of {opts.number} calls")
    print(f"{'':28s} {'median':>8s} {'min':>8s}")
    for name, ts in times.items():
        print(f"{name:28s} {statistics.median(ts):8.1f} {min(ts):8.1f}")


if __name__ == "__main__":
    main()
