"""Backends: native code for the host CPU through LLVM (`llvm/`), and the CPython side of
calling it (`runtime/`). The backend imports `script.ir`, `script.errors` and the leaf
`script.store`, nothing above them (tests/test_import_graph.py): loading object code without
LLVM, the compiled-function type and the objects tests make from IR (`compile_callable`)
are script.loadpath's, which builds on this package.

The entry points below import llvmlite only when first called, so `import script.backend`
stays cheap.

    compile_native(module, entry, opt_level=3, nogil=True, numpy_scalars=()) -> NativeLibrary
    link_with_llvm(object_code, entry, param_types, ret_type, numpy_scalars=()) -> NativeLibrary

`numpy_scalars` are the positions of the parameters whose narrow scalars (i32, f32, …) the
entry point takes as NumPy scalars, not as Python ints and floats (runtime.boxing).
"""

from __future__ import annotations

# The annotations name NativeLibrary (runtime.library) and Module (ir.core); they are
# never evaluated. No `typing` here: a load that links with LLVM imports this package, and where nothing has
# imported typing before (no site, a clean virtual environment) it costs ~10 ms with re and enum.


def compile_native(module: "Module", entry: str, opt_level: int = 3,
                   nogil: bool = True, numpy_scalars=(), fastmath: bool = False) -> "NativeLibrary":
    """Compile `module.functions[entry]` (and all it calls) for this CPU and load it.

    The result keeps the code loaded; its `entry_address` (also `try_call_address`) is the
    CPython entry point (runtime.entry), which releases the GIL during calls when `nogil`
    and the code has a loop or recursion. `fastmath`: see runtime.library.build_llvm_module."""
    from script.backend.runtime.library import compile_native as compile_
    return compile_(module, entry, opt_level, nogil, numpy_scalars, fastmath)


def link_with_llvm(object_code: bytes, entry: str, param_types, ret_type,
                   numpy_scalars=()) -> "NativeLibrary":
    """Link `object_code` (compiled for the IR function `entry` of this signature) with LLVM's
    linker: where script.loadpath `load_object` declines (not x86-64 Linux)."""
    from script.backend.runtime.library import load_native as load
    from script.ir.core import Function
    return load(object_code, Function(entry, list(param_types), ret_type), numpy_scalars)
