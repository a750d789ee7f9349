"""The runtime library: native functions every compiled library shares, generated in LLVM IR,
compiled once per machine and loaded once per process, on first use.

- runtime.dispatch: the compiled-function type's vectorcall for several specializations and
  its garbage-collection slots (``script.dispatch``, ``script.traverse``, ``script.clear``,
  ``script.dealloc``);
- runtime.entry: the entry points' cold paths (``script.mismatch``, ``script.raise``);
- runtime.boxing: the slow conversions of ints (``script.unbox.<t>``);
- runtime.interrupt: the count of SIGINTs, the SIGINT hook and ``script.poll``.

Its object code is kept in the per-machine store (native.store) and loaded with native.elfload,
so a process that only loads saved code never imports LLVM; where that loader declines, the
library is compiled and linked into the JIT as before. Either way `address` names every
function, and `jit_library()` is the JIT library (llvm.jit `link`) through which libraries
that LLVM links find them.

This module is on the load path: it imports the LLVM backend only to compile the library.
"""

from __future__ import annotations

import threading

from script.backend.native import elfload, store
from script.backend.runtime import symbols

RUNTIME_LIBRARY = "script.runtime"


class RuntimeLibrary:
    """The loaded runtime functions: `address[name]` for each one. `image` is the
    native.elfload image that holds them, or None when the JIT linked them (`tracker`)."""

    def __init__(self, address: dict, image=None, tracker=None):
        self.address = address
        self.image = image
        self._tracker = tracker


_runtime: RuntimeLibrary | None = None
_runtime_lock = threading.Lock()
_jit_library: str | None = None


def runtime_library() -> RuntimeLibrary:
    """The runtime functions, loaded on first use, then kept for the process (never unloaded:
    the type of compiled functions points into them)."""
    global _runtime
    with _runtime_lock:
        if _runtime is None:
            _runtime = _load()
        return _runtime


def _load() -> RuntimeLibrary:
    path = store.object_path("runtime", "runtime library") if elfload.is_supported() else None
    code = None if path is None else store.read_object(path)
    compiled = code is None
    if compiled:
        code, names = _compile()
    if path is not None:
        try:
            image = elfload.load([code], symbols.resolve)
        except elfload.ElfError:
            pass
        else:
            if compiled:
                store.write_object(path, code)
            image.keep()
            return RuntimeLibrary(image.symbols, image=image)
    from script.backend.llvm.jit import get_jit
    jit = get_jit()
    if not compiled:
        code, names = _compile()
    tracker = jit.link(code, names, [symbols.symbol_library()], name=RUNTIME_LIBRARY)
    return RuntimeLibrary({name: tracker[name] for name in names}, tracker=tracker)


def _compile() -> tuple[bytes, list]:
    """The runtime library's object code for this CPU, and the names it exports. Neither
    optimized nor compiled with more than FastISel: a third of the compile time of -O2, on
    cold paths but for ``script.dispatch``, whose call overhead did not measurably change
    (benchmarks/call_overhead.py)."""
    from script.backend.llvm.builder import NativeModule
    from script.backend.llvm.jit import get_jit
    from script.backend.runtime import boxing, dispatch, entry, interrupt
    jit = get_jit()
    m = NativeModule(RUNTIME_LIBRARY, jit.triple, jit.data_layout)
    names = (dispatch.build_runtime(m) + entry.build_runtime(m) + boxing.build_runtime(m)
             + interrupt.build_runtime(m))
    return jit.emit_object(jit.parse(m.text()), 0), names


def install_sigint_hook() -> bool:
    """Put the runtime's SIGINT hook in front of Python's handler when it is not there
    (runtime.interrupt); called whenever code is compiled or loaded."""
    from script.backend.runtime.interrupt import install_sigint_hook as install
    return install(runtime_library().address)


def jit_library() -> str:
    """The JIT library of the runtime's functions: the one linked when the JIT loaded them,
    else one of their addresses (llvm.jit `add_symbols`)."""
    global _jit_library
    rt = runtime_library()
    if _jit_library is None:
        if rt.image is None:
            _jit_library = RUNTIME_LIBRARY
        else:
            from script.backend.llvm.jit import get_jit
            _jit_library = get_jit().add_symbols(RUNTIME_LIBRARY, rt.address)
    return _jit_library


def libraries() -> list[str]:
    """The JIT libraries a compiled library's undefined symbols resolve in, in order."""
    return [symbols.symbol_library(), jit_library()]
