"""The runtime library: native functions every compiled library shares, generated in LLVM IR
and compiled once per process, on first use.

- runtime.dispatch: the compiled-function type's vectorcall for several specializations and
  its garbage-collection slots (``script.dispatch``, ``script.traverse``, ``script.clear``,
  ``script.dealloc``);
- runtime.entry: the entry points' cold paths (``script.mismatch``, ``script.raise``);
- runtime.boxing: the slow conversions of ints (``script.unbox.<t>``);
- runtime.interrupt: the count of SIGINTs, the SIGINT hook and ``script.poll``.

The library is linked into the JIT under the name `RUNTIME_LIBRARY`; every library that
`compile_native` or `load_native` links resolves these symbols there (llvm.jit `link`).
"""

from __future__ import annotations

import threading

from script.backend.llvm.builder import NativeModule
from script.backend.llvm.jit import get_jit
from script.backend.runtime import boxing, dispatch, entry, interrupt
from script.backend.runtime.symbols import symbol_library

RUNTIME_LIBRARY = "script.runtime"


class RuntimeLibrary:
    """The loaded runtime functions: `address[name]` for each one."""

    def __init__(self, tracker, names):
        self._tracker = tracker
        self.name = RUNTIME_LIBRARY
        self.address = {name: tracker[name] for name in names}


_runtime: RuntimeLibrary | None = None
_runtime_lock = threading.Lock()


def runtime_library() -> RuntimeLibrary:
    """The runtime functions, compiled and loaded on first use, then kept for the process.

    Neither optimized nor compiled with more than FastISel: a third of the compile time of
    -O2, on cold paths but for ``script.dispatch``, whose call overhead did not measurably
    change (benchmarks/call_overhead.py)."""
    global _runtime
    with _runtime_lock:
        if _runtime is None:
            jit = get_jit()
            m = NativeModule(RUNTIME_LIBRARY, jit.triple, jit.data_layout)
            names = (dispatch.build_runtime(m) + entry.build_runtime(m) + boxing.build_runtime(m)
                     + interrupt.build_runtime(m))
            tracker = jit.link(jit.emit_object(jit.parse(m.text()), 0), names,
                               [symbol_library()], name=RUNTIME_LIBRARY)
            _runtime = RuntimeLibrary(tracker, names)
        return _runtime


def install_sigint_hook() -> bool:
    """Put the runtime's SIGINT hook in front of Python's handler when it is not there
    (runtime.interrupt); called whenever code is compiled or loaded."""
    return interrupt.install_sigint_hook(runtime_library().address)


def libraries() -> list[str]:
    """The JIT libraries a compiled library's undefined symbols resolve in, in order."""
    return [symbol_library(), runtime_library().name]
