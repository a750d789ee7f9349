"""The runtime library: native functions every compiled library shares, generated in LLVM IR,
compiled once per machine and loaded once per process, on first use (script.loadpath
`runtime_library`: script.store's, which keeps it in the per-machine store as a shared object
where it can).

- runtime.dispatch: the compiled-function type's vectorcall for several specializations and
  its garbage-collection slots (``script.dispatch``, ``script.traverse``, ``script.clear``,
  ``script.dealloc``);
- runtime.entry: the entry points' cold paths (``script.mismatch``, ``script.raise``);
- runtime.boxing: the slow conversions of ints (``script.unbox.<t>``);
- runtime.list_memo, runtime.list_reflect: the memo of the list arguments an entry point
  writes back (``script.memo.*``), and the helpers of flat lists of numbers;
- runtime.strings: strs between CPython and compiled code, and the `str_py` op;
- runtime.interrupt: the count of SIGINTs, the SIGINT hook and ``script.poll``;
- runtime.py_errors: the references of caught exceptions (``script.exc.incref`` / ``decref``);
- runtime.parallel: the threads of prange loops (``script.par.run``, ``script.par.serve``);
- runtime.pymodule: ``PyInit__runtime``, the extension module through which Python makes
  compiled-function objects without ctypes.

This module compiles it (`compile_runtime`), links it into the store's shared object or,
where the loader cannot use one, into the JIT (`build_runtime`), and gives the JIT the library through which libraries
that LLVM links find its functions (`jit_library`).
"""

from __future__ import annotations

from script import store
from script.store import INIT_SYMBOL

RUNTIME_LIBRARY = "script.runtime"
_jit_library: str | None = None


def runtime_library() -> store.RuntimeLibrary:
    """The runtime library of this process (script.store `runtime_library`), built here
    where the store has none."""
    return store.runtime_library(build_runtime)


def build_runtime() -> store.RuntimeLibrary:
    """The runtime library compiled now: linked into the store's shared object and loaded
    from there (x86-64 Linux), else (elsewhere, or where elfso declines) into the JIT."""
    if store.is_supported():
        from script.backend.native.elfso import link_into_store
        path = store.runtime_path()
        link_into_store(path, [compile_runtime()[0]])
        lib = store.load_runtime(path)
        if lib is not None:
            return lib
    return store.RuntimeLibrary(*load_in_jit())


def compile_runtime() -> tuple[bytes, list]:
    """The runtime library's object code for this CPU, and the names it exports. Neither
    optimized nor compiled with more than FastISel: a third of the compile time of -O2, on
    cold paths but for ``script.dispatch``, whose call overhead did not measurably change
    (benchmarks/call_overhead.py)."""
    from script.backend.llvm.builder import NativeModule
    from script.backend.llvm.jit import get_jit
    from script.backend.runtime import boxing, dispatch, entry, interrupt, parallel, py_errors, pymodule, strings
    jit = get_jit()
    m = NativeModule(RUNTIME_LIBRARY, jit.triple, jit.data_layout)
    names = (strings.build_runtime(m) + dispatch.build_runtime(m) + entry.build_runtime(m)
             + boxing.build_runtime(m) + interrupt.build_runtime(m)      # strings first: boxing calls them
             + py_errors.build_runtime(m) + parallel.build_runtime(m))
    names += pymodule.build_runtime(m, names)
    return jit.emit_object(jit.parse(m.text()), 0), names


def load_in_jit() -> tuple:
    """Compile the runtime library into the JIT: (addresses, the extension module
    (``PyInit__runtime`` called through ctypes), None, the JIT's tracker), the arguments of
    script.store's `RuntimeLibrary`."""
    import ctypes
    from script.backend.llvm.jit import get_jit
    from script.backend.runtime import symbols
    code, names = compile_runtime()
    tracker = get_jit().link(code, names, [symbols.symbol_library()], name=RUNTIME_LIBRARY)
    address = {name: tracker[name] for name in names}
    module = ctypes.PYFUNCTYPE(ctypes.py_object)(address[INIT_SYMBOL])()
    return address, module, None, tracker


def jit_library() -> str:
    """The JIT library of the runtime's functions: the one linked when the JIT loaded them,
    else one of their addresses (llvm.jit `add_symbols`)."""
    global _jit_library
    rt = runtime_library()
    if _jit_library is None:
        if rt.path is None:
            _jit_library = RUNTIME_LIBRARY
        else:
            from script.backend.llvm.jit import get_jit
            _jit_library = get_jit().add_symbols(RUNTIME_LIBRARY, rt.address)
    return _jit_library


def libraries() -> list[str]:
    """The JIT libraries a compiled library's undefined symbols resolve in, in order."""
    from script.backend.runtime import symbols
    return [symbols.symbol_library(), jit_library()]
