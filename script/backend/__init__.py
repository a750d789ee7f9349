"""Backends: native code for the host CPU through LLVM (`llvm/`), and the CPython side of
calling it (`runtime/`).

The entry points below import llvmlite only when first called, so `import script.backend`
stays cheap; loading object code on the CPU it was compiled for (`load_object`) does not
import it at all (script.loadpath, which a cache hit uses without this package).

    compile_native(module, entry, opt_level=3, nogil=True, numpy_scalars=()) -> NativeLibrary
    load_native(object_code, entry_func, numpy_scalars=()) -> NativeLibrary
    load_object(object_code, entry, param_types, ret_type, numpy_scalars=(), code_digest=None)
        -> NativeLibrary
    link_with_llvm(object_code, entry, param_types, ret_type, numpy_scalars=()) -> NativeLibrary

`numpy_scalars` are the positions of the parameters whose narrow scalars (i32, f32, …) the
entry point takes as NumPy scalars, not as Python ints and floats (runtime.boxing).
    make_function_type(name, methods) -> type
    new_instance(tp, fallback) -> compiled-function object
    set_specializations(obj, [NativeLibrary | address, ...], nargs)
    compile_callable(module, entry, fallback=None) -> compiled-function object
"""

from __future__ import annotations

# The annotations name NativeLibrary (runtime.library), Function and Module (ir.core); they are
# never evaluated. No `typing` here: a cache hit imports this package, and where nothing has
# imported typing before (no site, a clean virtual environment) it costs ~10 ms with re and enum.


def compile_native(module: "Module", entry: str, opt_level: int = 3,
                   nogil: bool = True, numpy_scalars=(), fastmath: bool = False) -> "NativeLibrary":
    """Compile `module.functions[entry]` (and all it calls) for this CPU and load it.

    The result keeps the code loaded; its `entry_address` (also `try_call_address`) is the
    CPython entry point (runtime.entry), which releases the GIL during calls when `nogil`
    and the code has a loop or recursion. `fastmath`: see runtime.library.build_llvm_module."""
    from script.backend.runtime.library import compile_native as compile_
    return compile_(module, entry, opt_level, nogil, numpy_scalars, fastmath)


def load_native(object_code: bytes, entry_func: "Function", numpy_scalars=()) -> "NativeLibrary":
    """Load the `object_code` of a `NativeLibrary` compiled for `entry_func` (same CPU)."""
    return load_object(object_code, entry_func.name, entry_func.param_types, entry_func.ret_type,
                       numpy_scalars)


def load_object(object_code: bytes, entry: str, param_types, ret_type,
                numpy_scalars=(), code_digest: str | None = None) -> "NativeLibrary":
    """`load_native` for the IR function named `entry` of this signature: linked without
    LLVM where script.loadpath can (a cache hit or a saved module then imports no
    llvmlite), else by LLVM's linker. RuntimeError when the object is not that function's.
    `code_digest`, 64 hex digits that identify `object_code` (the caller has them: a
    manifest's, a cache entry's), saves hashing it to name its shared object."""
    from script.loadpath import load_object as link
    lib = link(object_code, entry, param_types, ret_type, numpy_scalars, code_digest)
    return lib if lib is not None else link_with_llvm(object_code, entry, param_types,
                                                      ret_type, numpy_scalars)


def link_with_llvm(object_code: bytes, entry: str, param_types, ret_type,
                   numpy_scalars=()) -> "NativeLibrary":
    """`load_object` by LLVM's linker, where script.loadpath declines."""
    from script.backend.runtime.library import load_native as load
    from script.ir.core import Function
    return load(object_code, Function(entry, list(param_types), ret_type), numpy_scalars)


def make_function_type(name: str, methods: dict | None = None) -> type:
    """A new heap type for compiled functions, with `methods` assigned onto it."""
    from script.loadpath import make_function_type as make
    return make(name, methods)


def new_instance(tp: type, fallback) -> object:
    """A compiled-function object of type `tp` that calls `fallback(*args, **kwargs)` until
    specializations match."""
    from script.loadpath import new_instance as new
    return new(tp, fallback)


def set_specializations(obj, specs, nargs: int) -> None:
    """Make `obj` try `specs` (NativeLibrary objects or entry addresses) in order for calls
    with exactly `nargs` positional arguments and no keywords, then its fallback."""
    from script.loadpath import set_specializations as install
    install(obj, specs, nargs)


def compile_callable(module: "Module", entry: str, fallback=None, opt_level: int = 3):
    """`module.functions[entry]` compiled and wrapped in a callable object of a plain
    compiled-function type: for tests and tools that start from IR. Calls whose argument
    types do not match go to `fallback`, or raise TypeError without one."""
    from script.loadpath import plain_function_type
    lib = compile_native(module, entry, opt_level)
    func = module.functions[entry]
    if fallback is None:
        def fallback(*args, **kwargs):
            raise TypeError(f"{entry}() takes ({', '.join(map(str, func.param_types))}), "
                            f"got ({', '.join(type(a).__name__ for a in args)})"
                            + (" and keyword arguments" if kwargs else ""))
    obj = new_instance(plain_function_type(), fallback)
    set_specializations(obj, [lib], len(func.params))
    obj.__name__ = entry
    obj.library = lib
    return obj
