"""Saved object code linked without LLVM: a library's object (runtime.library) with the entry
point of its signature from the per-machine store, by native.elfload.

`load_object` is the load path of cache hits and `script.load` on the CPU the code was
compiled for. It returns None — and the caller links with LLVM instead (runtime.library
`load_native`) — when elfload does not run here or declines the objects, or when the store
has no entry point for the signature yet (whoever compiles one stores it: runtime.library
`entry_point`).

An entry point depends on its signature and on the stack size limit (runtime.entry
`stack_budget` is compiled into it), so both describe its object in the store.
"""

from __future__ import annotations

import time

from script.backend.native import elfload, store

ENTRY_SYMBOL = "script.entry"       # llvm.abi's names (tests/test_elfload.py checks them)
KERNEL_SYMBOL = "script.kernel"


def entry_point_path(param_types, ret_type) -> str:
    """The store's file of the entry point for this signature (IR types)."""
    try:
        import resource
        limit = resource.getrlimit(resource.RLIMIT_STACK)[0]
    except (ImportError, ValueError, OSError):
        limit = None
    return store.object_path("entry", f"({', '.join(map(str, param_types))}) -> {ret_type}; "
                                      f"stack limit {limit}")


class LoadedLibrary:
    """A library linked by elfload: the interface of runtime.library's `NativeLibrary` for
    code loaded from object code (no LLVM IR, no assembly). The code stays mapped while the
    library is referenced."""

    llvm_ir = None
    asm = None
    opt_level = None

    def __init__(self, function_name: str, image: elfload.Image, object_code: bytes,
                 seconds: float):
        self.function_name = function_name
        self._image = image
        self.entry_address: int = image[ENTRY_SYMBOL]
        self.try_call_address = self.entry_address
        self.object_code = object_code
        self.timings = {"link": seconds}
        self.compile_seconds = seconds

    def __repr__(self):
        return f"<LoadedLibrary {self.function_name} at {self.entry_address:#x}>"


def load_object(object_code: bytes, entry: str, param_types, ret_type) -> LoadedLibrary | None:
    """Link `object_code`, compiled for the IR function `entry` of this signature, with its
    entry point; None when elfload cannot (see the module docstring). RuntimeError when the
    object is not that function's."""
    start = time.perf_counter()
    if not elfload.is_supported():
        return None
    point = store.read_object(entry_point_path(param_types, ret_type))
    if point is None:
        return None
    from script.backend.runtime.shared import install_sigint_hook, runtime_library
    from script.backend.runtime.symbols import resolve
    install_sigint_hook()
    runtime = runtime_library().address
    try:
        image = elfload.load([object_code, point], lambda name: runtime.get(name) or resolve(name))
    except elfload.ElfError:
        return None
    if f"{KERNEL_SYMBOL}.{entry}" not in image.symbols or ENTRY_SYMBOL not in image.symbols:
        raise RuntimeError(f"the object code does not define {KERNEL_SYMBOL}.{entry}")
    return LoadedLibrary(entry, image, bytes(object_code), time.perf_counter() - start)
