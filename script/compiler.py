"""The pipeline for one specialization: frontend → verified SSA → IR passes → LLVM → native.

`compile_specialization` runs under the frontend's process-wide lock. Each stage's text is
kept (lazily for LLVM and assembly) so `f.ir(stage)` can show it without recompiling.
"""

from __future__ import annotations

import contextlib
import gc
import os
import time
from dataclasses import dataclass, field

from script.ir import types as T
from script.ir.core import Function, Module
from script.ir.passes.jam import jammed
from script.loadpath import stage_text

# LLVM's optimization level for each of script's: -O2 by default (as fast as -O3 on the
# benchmark kernels and without SLP vectorization, see llvm.jit `optimize`), -O3 for opt=3.
# `llvm_level` lowers -O2 to -O1 for code that keeps all its data in registers.
LLVM_LEVEL = {0: 0, 1: 2, 2: 2, 3: 3}


def llvm_level(module: Module, opt: int) -> int:
    """LLVM's optimization level for `module` at script's level `opt`: `LLVM_LEVEL[opt]`, but
    -O1 in place of -O2 for a module of one function whose values are all scalars (or
    tuples of them) and that calls nothing but the math library. What -O2 adds to -O1
    (GVN, dead store and memcpy elimination, merged load/store motion, constraint
    elimination of bounds checks, tail calls) works on memory and calls, or repeats what
    script's own passes did (sccp, cse, licm); loop vectorization and unrolling run at
    both levels (llvm.jit `optimize`). LLVM's optimizer takes about a sixth less time at
    -O1, and the benchmarks' scalar loops (collatz, lcg_pi, branchy) run as fast."""
    level = LLVM_LEVEL[opt]
    if level == 2 and any(jammed(f) for f in module.functions.values()):
        return 3        # rows of a jammed loop nest are packed by SLP, which runs at -O3
    if level != 2 or len(module.functions) != 1:
        return level
    func = next(iter(module.functions.values()))
    if not all(_is_scalar(t) for t in (*func.param_types, func.ret_type)):
        return level
    for i in func.instructions():
        if not (i.op.pure or i.op.env_only):
            return level
        if i.has_result and not _is_scalar(i.type):
            return level
    return 1


def _is_scalar(t: T.Type) -> bool:
    if isinstance(t, T.TupleType):
        return all(_is_scalar(e) for e in t.elems)
    return isinstance(t, (T.BoolType, T.NoneType, T.IntType, T.FloatType, T.ExcType))   # exc: words


def verify_enabled() -> bool:
    """The verifier runs after the frontend and every pass when SCRIPT_VERIFY=1 (tests set it)."""
    return os.environ.get("SCRIPT_VERIFY", "") not in ("", "0")


def disabled_passes() -> tuple[str, ...]:
    """Passes turned off for debugging with SCRIPT_DISABLE_PASSES=cse,licm."""
    return tuple(p for p in os.environ.get("SCRIPT_DISABLE_PASSES", "").split(",") if p)


@dataclass
class Specialization:
    """One compiled signature of a user function."""

    arg_types: tuple
    ret_type: T.Type
    module: Module                     # optimized IR: the entry function first, then callees
    ssa_functions: list                # the frontend's IR (never changed after it is built)
    native: object                     # backend NativeLibrary
    timings: dict = field(default_factory=dict)

    @property
    def entry(self) -> Function:
        return next(iter(self.module.functions.values()))

    @property
    def ssa_text(self) -> str:
        """Printed on demand: printing it for every compilation cost 0.5 ms of ~30."""
        from script.ir.printer import format_module
        return format_module(Module(self.ssa_functions))

    @property
    def opt_text(self) -> str:
        from script.ir.printer import format_module
        return format_module(self.module)

    def ir(self, stage: str) -> str:
        return stage_text(self, stage)


def step_unit(module: Module, entry: Function | None = None, opt: int = 2, passes=None,
              options=frozenset(), **pipeline):
    """The `Unit` the steps of script.ir.passes `STEPS` work on: `module` (entry: its first
    function) at level `opt`, verified as SCRIPT_VERIFY and with the passes
    SCRIPT_DISABLE_PASSES asks; `pipeline`: `print_after`, `stream`."""
    from script.ir.passes import Unit
    return Unit(module, entry if entry is not None else next(iter(module.functions.values())),
                level=opt, passes=passes, options=frozenset(options), verify=verify_enabled(),
                disabled=disabled_passes(), **pipeline)


def optimize_module(module: Module, opt: int, passes=None) -> dict:
    """Run the IR pass pipeline on every function of `module`, in place (the "optimize"
    step alone). Returns statistics."""
    from script.ir.passes import run_step
    return run_step("function", "optimize", step_unit(module, opt=opt, passes=passes)).stats


def add_interrupt_checks(module: Module) -> None:
    """`poll` instructions in the loops of every function of `module` (script.ir.interrupts),
    verified afterwards when the verifier is on (the "interrupts" step alone)."""
    from script.ir.passes import run_step
    run_step("function", "interrupts", step_unit(module), poll_loops)


def poll_loops(unit) -> None:
    """The "interrupts" step: script.ir.interrupts on every function of the unit's module."""
    from script.ir.interrupts import insert_polls
    for f in unit.module.functions.values():
        insert_polls(f)


def closure(unit) -> Module:
    """The "closure" step: the module of the functions the entry still calls (callees
    inlined everywhere are gone)."""
    from script.frontend.specialize import closure_of
    return Module(closure_of(unit.entry))


def function_steps(info, ssa_functions: list) -> dict:
    """The functions of the steps of `STEPS["function"]` that are not script.ir's own
    (the frontend's checks, prange outlining, closure, interrupt polls), for `info`'s
    specialization whose frontend IR is `ssa_functions`."""
    from script.frontend.cuda_lowering import reject_kernel_ops
    from script.frontend.frozen import reject_const_array_writes
    from script.frontend.iterator_returns import reject_iterator_return
    from script.frontend.list_args import reject_argument_list_writes
    from script.frontend.records import reject_boxed_instances

    def prange(unit):
        from script.ir.parallel import outline_prange_loops
        outline_prange_loops(unit.module, unit.entry)

    return {
        "prange": prange,
        "reject_kernel_ops": lambda unit: reject_kernel_ops(unit.module),
        "reject_argument_list_writes": lambda unit: reject_argument_list_writes(ssa_functions),
        "reject_boxed_instances": lambda unit: reject_boxed_instances(unit.entry, info.name),
        "reject_iterator_return": lambda unit: reject_iterator_return(ssa_functions[0], info.name),
        "reject_const_array_writes": lambda unit: reject_const_array_writes(unit.module),
        "closure": closure,
        "interrupts": poll_loops,
    }


@contextlib.contextmanager
def _gc_paused():
    """No cyclic garbage collection while a compile runs: it makes tens of thousands of
    objects (AST, IR, LLVM text) that live until it ends, so collections triggered by
    their allocation find little garbage but walk every live object of the process (two
    collections, 0.5-1 ms, a compile with a small heap; more with a large one). The
    garbage it leaves (cycles of IR values and their users) is collected afterwards."""
    if not gc.isenabled():
        yield
        return
    gc.disable()
    try:
        yield
    finally:
        gc.enable()


def compile_specialization(info, arg_types: tuple, opt: int = 2, passes=None,
                           boundscheck: bool = True, interruptible: bool = True,
                           nogil: bool = True, fastmath: bool = False, parallel: bool = False) -> Specialization:
    """Compile `info` for `arg_types`. `interruptible` puts interrupt checks in every loop
    after the IR passes (script.ir.interrupts), so Ctrl-C stops a running call; `nogil`
    lets the entry point release the GIL while code that may run long runs; `parallel` runs
    the entry's prange loops on the runtime's threads (script.ir.parallel)."""
    from script.backend import compile_native
    from script.dispatcher import make_function_infos, numpy_scalar_params
    from script.frontend.python_classes import entry_wrapper
    from script.frontend.specialize import COMPILE_LOCK, closure_of, specialize
    from script.ir.clone import clone_functions
    with COMPILE_LOCK, _gc_paused():
        t0 = time.perf_counter()
        make_function_infos()           # so that calls to cache hits are seen as @script calls
        func = specialize(info, arg_types, boundscheck)
        ssa_functions = closure_of(func)
        funcs = clone_functions(ssa_functions)
        from script.ir.passes import run_steps
        options = {name for name, on in (("parallel", parallel), ("interruptible", interruptible)) if on}
        unit = step_unit(Module(funcs), funcs[0], opt, passes, options)
        steps = function_steps(info, ssa_functions)
        run_steps("function", unit, steps, stop="verify")
        t1 = time.perf_counter()
        module = run_steps("function", unit, steps, start="optimize").module
        wrapper = entry_wrapper(ssa_functions[0], next(iter(module.functions.values())), info.name)       # a Counter, deque... returned
        if wrapper is not None:
            module = Module([wrapper, *module.functions.values()])
            funcs = [wrapper]
        t2 = time.perf_counter()
        native = compile_native(module, funcs[0].name, opt_level=llvm_level(module, opt),
                                nogil=nogil, fastmath=fastmath,
                                numpy_scalars=numpy_scalar_params(info.param_types, arg_types))
        t3 = time.perf_counter()
    return Specialization(tuple(arg_types), funcs[0].ret_type, module, ssa_functions, native,
                          {"frontend": t1 - t0, "passes": t2 - t1, "backend": t3 - t2})
