"""Compiling an IR entry function to a loaded native library, and loading saved object code.

A `NativeLibrary` is one JIT-linked object: the lowered entry function, copies of all it
calls, and its CPython entry point ``script.entry.<entry>`` (runtime.entry). It keeps the code
loaded for as long as it is referenced; whoever installs its `entry_address` in a
dispatcher must keep the library alive too (runtime.heaptype does).
"""

from __future__ import annotations

import time

from script.ir.core import Function, Module
from script.backend.llvm.abi import NativeModule, entry_name
from script.backend.llvm.jit import get_jit
from script.backend.llvm.lower import lower_entry
from script.backend.runtime.symbols import symbol_library
from script.backend.runtime.entry import build_entry


class NativeLibrary:
    """A loaded native library for one entry function.

    Attributes: `function_name`; `entry_address`, also `try_call_address` (the entry point of
    runtime.entry: a vectorcall that returns MISMATCH when called with ``self == NULL``);
    `object_code` (relocatable, position-independent; loadable by `load_native` in any process
    on the same CPU); `compile_seconds` (lowering, optimization, emission and linking; for a
    loaded library, the load time). `llvm_ir` (optimized) and `asm` are computed on first
    access, and are None for a library loaded from object code.
    """

    def __init__(self, function_name: str, tracker, object_code: bytes, compile_seconds: float,
                 module_ref=None, opt_level: int = 3):
        self.function_name = function_name
        self._tracker = tracker
        self.entry_address: int = tracker[entry_name(function_name)]
        self.try_call_address = self.entry_address
        self.object_code = object_code
        self.compile_seconds = compile_seconds
        self.opt_level = opt_level
        self._module_ref = module_ref
        self._asm = None

    @property
    def llvm_ir(self) -> str | None:
        return None if self._module_ref is None else str(self._module_ref)

    @property
    def asm(self) -> str | None:
        if self._asm is None and self._module_ref is not None:
            self._asm = get_jit().emit_assembly(self._module_ref, self.opt_level)
        return self._asm

    def __repr__(self):
        return f"<NativeLibrary {self.function_name} at {self.entry_address:#x}>"


def build_llvm_module(module: Module, entry: str) -> NativeModule:
    """The LLVM module of `entry`: its lowering, its callees' and its CPython entry point."""
    jit = get_jit()
    func = module.functions[entry]
    m = NativeModule(f"script.{entry}", jit.triple, jit.data_layout)
    lowered = lower_entry(m, func)
    build_entry(m, lowered)
    return m


def compile_native(module: Module, entry: str, opt_level: int = 3) -> NativeLibrary:
    """Lower, optimize at -O`opt_level`, emit and load `module.functions[entry]`.

    Requires: the module is verified."""
    start = time.perf_counter()
    jit = get_jit()
    m = build_llvm_module(module, entry)
    mod = jit.parse(str(m.ir))
    jit.optimize(mod, opt_level)
    obj = jit.emit_object(mod, opt_level)
    tracker = jit.link(obj, [entry_name(entry)], [symbol_library()])
    return NativeLibrary(entry, tracker, obj, time.perf_counter() - start, mod, opt_level)


def load_native(object_code: bytes, entry_func: Function) -> NativeLibrary:
    """Load object code that `compile_native` emitted for `entry_func` (same CPU)."""
    start = time.perf_counter()
    tracker = get_jit().link(bytes(object_code), [entry_name(entry_func.name)], [symbol_library()])
    return NativeLibrary(entry_func.name, tracker, bytes(object_code),
                         time.perf_counter() - start)
