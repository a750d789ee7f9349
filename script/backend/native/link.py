"""Saved object code linked without LLVM: a library's object (runtime.library) with the entry
point of its signature from the per-machine store, by native.elfload.

`load_object` is the load path of cache hits and `script.load` on the CPU the code was
compiled for. It returns None — and the caller links with LLVM instead (runtime.library
`load_native`) — when elfload does not run here or declines the objects, or when the store
has no entry point for the signature yet (whoever compiles one stores it: runtime.library
`entry_point`).

An entry point depends on its signature, on the positions of the parameters that take NumPy
scalars (runtime.entry `numpy_scalars`; named only when there are some, so the entry points
of other signatures keep their names) and on the stack size limit (runtime.entry
`stack_budget` is compiled into it), so all three describe its object in the store. Its bytes
are read from the store once a process (a file there is named by what it was compiled from,
so the same name always holds the same object): loading ten functions of one signature
reads and checks one file. (The stack limit is read with the file: a process that changes
it later keeps the entry points it has read.)
"""

from __future__ import annotations

import threading
import time

from script.backend.native import elfload, store

ENTRY_SYMBOL = "script.entry"       # llvm.abi's names (tests/test_elfload.py checks them)
KERNEL_SYMBOL = "script.kernel"


_entry_points: dict = {}     # (param types, ret type, numpy scalars) -> the object, once read
_entry_points_lock = threading.Lock()


def entry_point_path(param_types, ret_type, numpy_scalars=()) -> str:
    """The store's file of the entry point for this signature (IR types) whose parameters at
    the positions `numpy_scalars` take NumPy scalars."""
    try:
        import resource
        limit = resource.getrlimit(resource.RLIMIT_STACK)[0]
    except (ImportError, ValueError, OSError):
        limit = None
    scalars = f"; numpy scalars {', '.join(map(str, numpy_scalars))}" if numpy_scalars else ""
    return store.object_path("entry", f"({', '.join(map(str, param_types))}) -> {ret_type}"
                                      f"{scalars}; stack limit {limit}")


def _entry_point(param_types, ret_type, numpy_scalars=()) -> bytes | None:
    """The stored entry point of this signature (see the module docstring), or None."""
    key = (tuple(param_types), ret_type, tuple(numpy_scalars))
    code = _entry_points.get(key)
    if code is None:
        code = store.read_object(entry_point_path(*key))
        if code is not None:
            with _entry_points_lock:
                _entry_points[key] = code
    return code


class LoadedLibrary:
    """A library linked by elfload: the interface of runtime.library's `NativeLibrary` for
    code loaded from object code (no LLVM IR, no assembly). The code stays mapped while the
    library is referenced."""

    llvm_ir = None
    asm = None
    opt_level = None

    def __init__(self, function_name: str, image: elfload.Image, object_code: bytes,
                 seconds: float, numpy_scalars: tuple = ()):
        self.function_name = function_name
        self.numpy_scalars = numpy_scalars
        self._image = image
        self.entry_address: int = image[ENTRY_SYMBOL]
        self.try_call_address = self.entry_address
        self.object_code = object_code
        self.timings = {"link": seconds}
        self.compile_seconds = seconds

    def __repr__(self):
        return f"<LoadedLibrary {self.function_name} at {self.entry_address:#x}>"


def load_object(object_code: bytes, entry: str, param_types, ret_type,
                numpy_scalars=()) -> LoadedLibrary | None:
    """Link `object_code`, compiled for the IR function `entry` of this signature, with its
    entry point (whose parameters at the positions `numpy_scalars` take NumPy scalars); None
    when elfload cannot (see the module docstring). RuntimeError when the object is not that
    function's."""
    start = time.perf_counter()
    if not elfload.is_supported():
        return None
    numpy_scalars = tuple(numpy_scalars)
    point = _entry_point(param_types, ret_type, numpy_scalars)
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
    return LoadedLibrary(entry, image, bytes(object_code), time.perf_counter() - start,
                         numpy_scalars)
