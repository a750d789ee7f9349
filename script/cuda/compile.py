"""Compiling one kernel specialization: the IR module, its checks, PTX, and CPU code.

`build_module` runs the frontend, then the steps of `STEPS["kernel"]` (script.ir.passes):
`wrap_ints`, `check_kernel` (which rejects what kernels cannot do, at the user's line), the
verifier and the IR passes, as `@script` runs those of functions (script.compiler). `compile_ptx` and
`compile_cpu` take the module from there.
"""

from __future__ import annotations

import time

from script.errors import CompileError
from script.ir import types as T
from script.ir.analysis import calls_reach
from script.ir.core import Const, Function, Module, replace_all_uses_with


def build_module(info, types: tuple, boundscheck: bool, opt: int, stage: str = "opt",
                 print_after: str | None = None, stream=None) -> Module:
    """The kernel's IR module after the frontend (`stage` "ssa") or the IR passes ("opt");
    `print_after` and `stream` as in `run_pipeline` (the CLI's --print-after)."""
    from script.compiler import closure, step_unit
    from script.dispatcher import make_function_infos
    from script.frontend.specialize import COMPILE_LOCK, closure_of, specialize
    from script.ir.clone import clone_functions
    from script.ir.passes import run_steps
    with COMPILE_LOCK:
        make_function_infos()           # so that calls to cache hits are seen as @script calls
        func = specialize(info, types, boundscheck)
        funcs = clone_functions(closure_of(func))
        unit = step_unit(Module(funcs), funcs[0], opt, print_after=print_after, stream=stream)
        steps = {
            "wrap_ints": lambda unit: [wrap_ints(f) for f in unit.module.functions.values()],
            "check_kernel": lambda unit: check_kernel(unit.module, unit.entry, info),
            "closure": closure,
        }
        return run_steps("kernel", unit, steps, stop="verify" if stage == "ssa" else None).module


def wrap_ints(func: Function) -> None:
    """Kernels keep int64's wrapping arithmetic, as CUDA C's: every `ovf` test is false
    (docs/integers.md). A check per index computation would cost every thread a branch, and
    a GPU thread has no big int to fall back to either."""
    for i in list(func.instructions()):
        if i.opname == "ovf":
            replace_all_uses_with(i, Const(False, T.BOOL))
            i.erase()


def check_kernel(module: Module, entry: Function, info) -> None:
    """CompileError for a kernel returning a value, taking a tuple, recursing, or using an op
    GPU code does not have."""
    if not isinstance(entry.ret_type, T.NoneType):
        ret = next((i for i in entry.instructions() if i.opname == "ret" and i.operands), None)
        raise CompileError(f"a kernel cannot return a value (it returns {entry.ret_type}); write "
                           "results into an array argument", ret.loc if ret is not None else entry.loc)
    for name, t in zip(info.param_names, entry.param_types):
        if isinstance(t, T.TupleType):
            raise CompileError(f"kernel parameter '{name}' is a tuple; kernels take arrays and "
                               "scalars", entry.loc)
    for f in module.functions.values():         # (before the `exception` op it reads is refused)
        for i in f.instructions():
            if i.opname == "str_py" and i.attr == "exc_raise":      # frontend/built_exceptions.py
                raise CompileError("an exception class with an __init__ or other methods (CPython "
                                   "makes it when it is raised) cannot be raised in a kernel: kernels "
                                   "take classes whose body is 'pass' or a docstring", i.loc or f.loc)
    for f in module.functions.values():
        for i in f.instructions():
            if any(_has_complex(v.type) for v in (i, *i.operands)):
                raise CompileError("complex numbers are not supported in kernels (they are on the "
                                   "CPU, with @script)", i.loc or f.loc)
            if i.opname == "print":
                raise CompileError("print() is not supported in kernels", i.loc or f.loc)
            if i.op.family == "caught":      # a `try` whose body can raise
                raise CompileError("catching exceptions ('try' with 'except' or 'finally' around "
                                   "code that can raise) is not supported in kernels", i.loc or f.loc)
            if not i.op.kernel_ok:        # (OpInfo.kernel_ok: its GPU lowering exists)
                raise CompileError(f"'{i.opname}' (an array made in compiled code, or another "
                                   "CPU-only operation) is not supported in a kernel", i.loc or f.loc)
            if i.opname == "call" and calls_reach(i.attr, f):
                raise CompileError("recursion is not supported in kernels", i.loc or f.loc)


def _has_complex(t: T.Type) -> bool:
    """Whether `t` is, or a tuple `t` holds, a complex number (the first load of a complex
    array's element is where a kernel uses one)."""
    if isinstance(t, T.TupleType):
        return any(_has_complex(e) for e in t.elems)
    return isinstance(t, T.ComplexType)


def compile_ptx(module: Module, entry: str, arch: str, opt: int):
    from script.backend.nvptx.target import compile_ptx as emit
    return emit(module, entry, arch, 3 if opt > 0 else 0)


class CpuKernel:
    """A kernel compiled for the CPU: `run(args, grid, block)` runs the whole launch."""

    def __init__(self, callable_, library, resumable: bool, timings: dict):
        self.callable = callable_
        self.library = library
        self.resumable = resumable
        self.timings = timings

    def run(self, args, grid, block) -> None:
        self.callable(*args, *grid, *block)


def compile_cpu(module: Module, entry: str, opt: int) -> CpuKernel:
    """The grid driver of backend.llvm.grid around the kernel, loaded into this process."""
    from script.backend.llvm.abi import KERNEL_SYMBOL, WRITTEN_SYMBOL, has_arrays, kernel_name
    from script.backend.llvm.builder import NativeModule, int_const
    from script.backend.llvm.grid import SharedLayout, cpu_lowering, emit_driver
    from script.backend.llvm.jit import get_jit
    from script.backend.nvptx.lower import lower_functions
    from script.backend.runtime.library import NativeLibrary, entry_point, link_fresh
    from script.compiler import LLVM_LEVEL
    from script.cuda.barriers import has_barrier, make_resumable
    from script.ir.analysis import written_array_params
    t0 = time.perf_counter()
    func = module.functions[entry]
    param_types = list(func.param_types)
    _inline_barriers(module, func)
    resumable = make_resumable(func) if has_barrier(func) else None
    kernel = resumable.func if resumable is not None else func
    _verify(kernel)
    funcs = [kernel] + [f for f in module.functions.values() if f is not func]
    layout = SharedLayout(funcs)
    jit = get_jit()
    m = NativeModule(f"script.cpu.{entry}", jit.triple, jit.data_layout)
    lowered = lower_functions(m, kernel, cpu_lowering(layout))
    driver = emit_driver(m, lowered.entry_native, param_types, layout, resumable)
    m.alias(KERNEL_SYMBOL, driver)
    m.alias(kernel_name(entry), driver)
    sig = param_types + [T.I64] * 6
    from script.store import signature_symbol        # checked when its object is loaded
    m.define_constant(int_const("i64", 1), signature_symbol(entry, sig, T.NONE))
    if has_arrays(sig):
        written = written_array_params(kernel)
        m.define_constant(int_const("i64", sum(1 << k for k in written if k < len(sig))), WRITTEN_SYMBOL)
    try:      # the entry point keeps the GIL (the runtime's Ctrl-C/GIL protocol, if present)
        from script.backend.llvm.interrupt import RELEASE_GIL_SYMBOL
        m.define_constant(int_const("i8", 0), RELEASE_GIL_SYMBOL)
    except ImportError:
        pass
    mod = jit.parse(m.text())
    level = LLVM_LEVEL[opt]
    jit.optimize(mod, level)
    obj = jit.emit_object(mod, level)
    point = entry_point(sig, T.NONE)
    tracker = link_fresh([obj, point.object_code], Function(entry, sig, T.NONE), ())   # into the arena
    timings = {"cpu": time.perf_counter() - t0}
    lib = NativeLibrary(entry, tracker, obj, timings, mod, level, point)
    return _cpu_kernel(lib, entry, len(sig), resumable is not None)


def _cpu_kernel(lib, entry: str, nargs: int, resumable: bool) -> CpuKernel:
    from script.loadpath import new_instance, set_specializations
    from script.loadpath import plain_function_type

    def mismatch(*args, **kwargs):
        raise TypeError(f"kernel {entry}: arguments do not match its compiled signature")

    obj = new_instance(plain_function_type(), mismatch)
    set_specializations(obj, [lib], nargs)
    return CpuKernel(obj, lib, resumable, lib.timings)


def load_cpu(object_code: bytes, entry: str, param_types, resumable: bool) -> CpuKernel:
    """A CPU kernel from the object code `compile_cpu` emitted for the kernel `entry` taking
    `param_types` (a saved module's; same CPU). RuntimeError when it does not link."""
    from script.loadpath import load_native
    sig = list(param_types) + [T.I64] * 6        # the grid driver's: grid and block dims
    lib = load_native(object_code, Function(entry, sig, T.NONE))
    return _cpu_kernel(lib, entry, len(sig), resumable)


def _inline_barriers(module: Module, func: Function) -> None:
    """Inline every call of a function that has (or calls one that has) a barrier into the
    kernel, so that `make_resumable` sees them all."""
    from script.cuda.barriers import has_barrier
    from script.ir.passes.inline import inline_call

    def needs(f, seen=()):
        return has_barrier(f) or any(needs(g, seen + (id(f),)) for g in f.callees() if id(g) not in seen)

    for _ in range(32):
        call = next((i for i in func.instructions() if i.opname == "call" and needs(i.attr)), None)
        if call is None:
            return
        inline_call(func, call, call.attr)
    raise CompileError("cuda.syncthreads() is nested too deeply in device functions", func.loc)


def _verify(func: Function) -> None:
    from script.compiler import verify_enabled
    if verify_enabled():
        from script.ir.verifier import verify_function
        verify_function(func, after="cuda.barriers")
