"""Compiling an IR entry function to a loaded native library, and loading saved object code
with LLVM's linker (where script.loadpath declines).

A `NativeLibrary` is one linked library (native.elfload's image, or LLVM's JIT's where
elfload does not run) of two objects: the library's own, with the lowered entry function
(exported as ``script.kernel``, llvm.abi) and copies of all it calls; and the CPython entry
point ``script.entry`` of the entry function's signature
(runtime.entry), compiled once per process and signature (`entry_point`) and linked into
every library of that signature, and kept in the per-machine store (native.store) for
processes that load code without LLVM. A library keeps its code loaded for as long as it is
referenced; whoever installs its `entry_address` in a dispatcher must keep the library alive
too (script.loadpath does).
"""

from __future__ import annotations

import os
import threading
import time
from dataclasses import dataclass

from script.ir import types as T
from script.ir.core import Function, Module
from script.ir.effects import leaves_no_trace
from script.backend.llvm.abi import ENTRY_SYMBOL, has_arrays, kernel_name, reachable_functions
from script.backend.llvm.builder import NativeModule, int_const
from script.backend.llvm.interrupt import NO_TRACE, RELEASE_GIL, RELEASE_GIL_SYMBOL, can_run_long
from script.backend.llvm.jit import get_jit
from script.backend.llvm.lower import lower_entry
from script import store
from script.backend.native import elfload
from script.backend.runtime.entry import build_entry
from script.backend.runtime.shared import libraries, runtime_library
from script.backend.runtime.symbols import numpy_symbol_library, resolve


def _libraries(func: Function, numpy_scalars=()) -> list[str]:
    """The JIT libraries the library of `func` links against (NumPy's when it takes arrays or
    its entry point NumPy scalars)."""
    libs = libraries()
    if numpy_scalars or has_arrays(list(func.param_types) + [func.ret_type], in_lists=True):
        libs.append(numpy_symbol_library())
    return libs


@dataclass
class EntryPoint:
    """The compiled CPython entry point of one signature (runtime.entry)."""

    object_code: bytes
    module_ref: object          # the LLVM module, for its text and assembly


_entry_points: dict[tuple, EntryPoint] = {}
_entry_points_lock = threading.Lock()


def entry_point(param_types, ret_type: T.Type, numpy_scalars=()) -> EntryPoint:
    """The entry point for entry functions taking `param_types` and returning `ret_type`, whose
    parameters at the positions `numpy_scalars` take NumPy scalars (runtime.entry), compiled
    on first use, then kept for the process."""
    key = (tuple(param_types), ret_type, tuple(numpy_scalars))
    with _entry_points_lock:
        point = _entry_points.get(key)
        if point is None:
            jit = get_jit()
            m = NativeModule(ENTRY_SYMBOL, jit.triple, jit.data_layout)
            build_entry(m, *key)
            mod = jit.parse(m.text())         # `optnone`: nothing for the optimizer to do
            point = _entry_points[key] = EntryPoint(jit.emit_object(mod), mod)
            _store_entry_point(key, point.object_code)
        return point


def _store_entry_point(key: tuple, object_code: bytes) -> None:
    """Keep the object of an entry point in the per-machine store, where loading saved code
    without LLVM finds it (script.loadpath)."""
    if store.is_supported():
        path = store.entry_point_path(runtime_library(), *key)
        if not os.path.exists(path):
            store.write_object(path, object_code)


class NativeLibrary:
    """A loaded native library for one entry function.

    Attributes: `function_name`; `entry_address`, also `try_call_address` (the entry point of
    runtime.entry: a vectorcall that returns MISMATCH when called with ``self == NULL``);
    `numpy_scalars`, the positions of the parameters its entry point takes as NumPy scalars;
    `object_code` (the library's own object, relocatable and position-independent; loadable by
    `load_native` in any process on the same CPU); `compile_seconds` (lowering, optimization,
    emission and linking; for a loaded library, the load time) and `timings` (seconds per
    step: lower, parse, optimize, emit, link). `llvm_ir` (optimized, then the entry point's)
    and `asm` are computed on first access, and are None for a library loaded from object
    code.
    """

    def __init__(self, function_name: str, tracker, object_code: bytes, timings: dict,
                 module_ref=None, opt_level: int = 3, entry: EntryPoint | None = None,
                 numpy_scalars: tuple = ()):
        self.function_name = function_name
        self.numpy_scalars = numpy_scalars
        self._tracker = tracker
        self.entry_address: int = tracker[ENTRY_SYMBOL]
        self.try_call_address = self.entry_address
        self.object_code = object_code
        self.timings = timings
        self.compile_seconds = sum(timings.values())
        self.opt_level = opt_level
        self._module_ref = module_ref
        self._entry = entry
        self._asm = None

    @property
    def llvm_ir(self) -> str | None:
        if self._module_ref is None:
            return None
        return f"{self._module_ref}\n{self._entry.module_ref}"

    @property
    def asm(self) -> str | None:
        if self._asm is None and self._module_ref is not None:
            jit = get_jit()
            self._asm = (jit.emit_assembly(self._module_ref, self.opt_level) + "\n"
                         + jit.emit_assembly(self._entry.module_ref))
        return self._asm

    def __repr__(self):
        return f"<NativeLibrary {self.function_name} at {self.entry_address:#x}>"


FASTMATH_FLAGS = " reassoc contract"


def build_llvm_module(module: Module, entry: str, nogil: bool = True,
                      fastmath: bool = False) -> NativeModule:
    """The LLVM module of `entry`: its lowering and its callees', and the ``script.nogil``
    flags its entry point reads: RELEASE_GIL when `nogil` and the code may run for long,
    NO_TRACE when a call changes only objects it made (ir.effects). With
    `fastmath`, LLVM may reassociate float additions, subtractions, multiplications and
    divisions and contract them into FMAs (the flags `reassoc contract`; not `nnan` or
    `ninf`, so NaN and infinity tests keep their meaning) in `entry` and every function it
    calls."""
    jit = get_jit()
    m = NativeModule(f"script.{entry}", jit.triple, jit.data_layout,
                     FASTMATH_FLAGS if fastmath else "")
    func = module.functions[entry]
    lower_entry(m, func)
    funcs = reachable_functions(func)
    flags = RELEASE_GIL if nogil and can_run_long(funcs) else 0
    if leaves_no_trace(func, funcs):
        flags |= NO_TRACE
    m.define_constant(int_const("i8", flags), RELEASE_GIL_SYMBOL)
    return m


def compile_native(module: Module, entry: str, opt_level: int = 3, nogil: bool = True,
                   numpy_scalars=(), fastmath: bool = False) -> NativeLibrary:
    """Lower, optimize at -O`opt_level`, emit and load `module.functions[entry]`; its entry
    point releases the GIL during the call when `nogil` and the code may run for long, and
    takes NumPy scalars for the parameters at the positions `numpy_scalars`.

    Requires: the module is verified."""
    t = [time.perf_counter()]
    jit = get_jit()
    func = module.functions[entry]
    store.install_sigint_hook(runtime_library())
    text = build_llvm_module(module, entry, nogil, fastmath).text()
    t.append(time.perf_counter())
    mod = jit.parse(text)
    t.append(time.perf_counter())
    jit.optimize(mod, opt_level)
    t.append(time.perf_counter())
    obj = jit.emit_object(mod, opt_level)
    t.append(time.perf_counter())
    numpy_scalars = tuple(numpy_scalars)
    point = entry_point(func.param_types, func.ret_type, numpy_scalars)
    tracker = link_fresh([obj, point.object_code], func, numpy_scalars)
    t.append(time.perf_counter())
    timings = {step: b - a for step, a, b in zip(STEPS, t, t[1:])}
    return NativeLibrary(entry, tracker, obj, timings, mod, opt_level, point, numpy_scalars)


STEPS = ("lower", "parse", "optimize", "emit", "link")      # the stages `timings` names


def link_fresh(objects: list, func: Function, numpy_scalars: tuple):
    """Link objects LLVM just emitted for `func` (a library's, or a CUDA kernel's CPU path:
    script.cuda.compile): by native.elfload where it runs (x86-64 Linux), into
    the shared arena of compiled code (native.arena: a few memory maps for all libraries, and
    a dropped library's pages given back), else, or when elfload declines them, by the JIT.
    Each JIT link keeps ~10 KiB for the life of the process (its JITDylib is never removed:
    docs/memory.md), and takes twice elfload's time (0.7 against 0.35 ms for a small
    function). Objects from files never come here (load_native: LLVM aborts on some forged
    ones after elfload declined them)."""
    if elfload.is_supported():
        runtime = runtime_library()
        try:
            image = elfload.load(objects, lambda name: runtime.address.get(name) or resolve(name))
        except elfload.ElfError:
            pass
        else:
            if ENTRY_SYMBOL in image.symbols:
                return image
    return get_jit().link(objects, [ENTRY_SYMBOL], _libraries(func, numpy_scalars))


def load_native(object_code: bytes, entry_func: Function, numpy_scalars=()) -> NativeLibrary:
    """Load object code that `compile_native` emitted for `entry_func` (same CPU); only its
    name and signature matter, and the entry point takes NumPy scalars for the parameters at
    the positions `numpy_scalars`. Object code of another function does not link
    (RuntimeError)."""
    start = time.perf_counter()
    store.install_sigint_hook(runtime_library())
    numpy_scalars = tuple(numpy_scalars)
    point = entry_point(entry_func.param_types, entry_func.ret_type, numpy_scalars)
    exports = [ENTRY_SYMBOL, kernel_name(entry_func.name),    # the second fails for another's,
               store.signature_symbol(entry_func.name, entry_func.param_types, entry_func.ret_type)]
    tracker = get_jit().link([bytes(object_code), point.object_code], exports,
                           _libraries(entry_func, numpy_scalars))
    return NativeLibrary(entry_func.name, tracker, bytes(object_code),
                         {"link": time.perf_counter() - start}, numpy_scalars=numpy_scalars)
