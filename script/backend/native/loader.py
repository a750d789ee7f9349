"""The load path: what a process needs to run compiled code without compiling anything —
the runtime library, the compiled-function type, and saved object code — in one module,
since a cache hit imports it whole (each module imported costs a hit ~0.2 ms).

The runtime library (runtime.shared has its contents) is, on x86-64 Linux, a shared object
in the per-machine store (linked by native.elfso), imported as the extension module
``script._runtime`` (runtime.pymodule) with RTLD_GLOBAL, so that the shared objects of
compiled code find its functions by name: a process that only loads saved code imports
neither LLVM nor ctypes. Elsewhere, or where elfso declines, runtime.shared compiles it into
the JIT. `runtime_library()` has its addresses and its module either way.

The compiled-function type is a heap type with a vectorcall slot, made by the runtime
module's ``new_type`` (``PyType_FromSpec``: flags HAVE_VECTORCALL | BASETYPE | HAVE_GC |
DISALLOW_INSTANTIATION; ``tp_call`` is ``PyVectorcall_Call``; ``__vectorcalloffset__``,
``__dictoffset__``, ``__weaklistoffset__`` members; traverse/clear/dealloc from
runtime.dispatch). `make_function_type(name, methods)` assigns `methods` (functions,
properties, anything) onto the type itself: a Python subclass would lose the vectorcall fast
path; ``__dict__`` and ``__weakref__`` in `methods` are skipped (they describe the class
`methods` came from). Instances come only from `new_instance`; each has a ``__dict__`` for
the caller's own attributes, and calls `fallback(*args, **kwargs)` until `set_specializations`
installs entry points (runtime.entry) to try first. The instance layout is runtime.layout's,
the dispatch algorithm runtime.dispatch's; the runtime module writes an instance with the GIL
held, in an order that keeps a concurrent call safe: `ntry` is zeroed before the table
changes and set last.

Saved object code: `load_object` links a library's object (runtime.library) with the entry
point of its signature from the per-machine store, as a shared object that the system's
loader loads — linked once by elfso and kept in the store, named by a digest of the object and
its entry point's file; it imports the runtime's functions, the C-API, libc and libm by
name — else (code naming what the system's loader cannot bind: NumPy's API and objects, the
random generators' states, BLAS and LAPACK, which runtime.symbols finds at run time) linked
in Python by native.elfload. It returns None — and the caller links with LLVM instead
(runtime.library `load_native`) — when neither runs here or both decline the objects, or
when the store has no entry point for the signature yet (whoever compiles one stores it:
runtime.library `entry_point`).

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

# Only modules that `import script` has loaded, even where Python starts without site (which
# imports re, struct and warnings in many installations, and not in a clean one): each other
# costs a fresh process's cache hit 0.5-1 ms (tests/test_loader.py checks what a hit imports).
import functools
import os
import sys
import threading
import time

from script.backend import native
from script.backend.native import store

ENTRY_SYMBOL = "script.entry"       # llvm.abi's names (tests/test_elfload.py checks them)
KERNEL_SYMBOL = "script.kernel"
MODULE_NAME, INIT_SYMBOL = "script._runtime", "PyInit__runtime"    # runtime.pymodule's


# ---- the runtime library ------------------------------------------------------------------

class RuntimeLibrary:
    """The loaded runtime functions: `address[name]` for each one, and `module`, the
    runtime's extension module (runtime.pymodule). `path` is the shared object's, or None
    when the JIT linked them (`tracker`)."""

    def __init__(self, address: dict, module, path: str | None = None, tracker=None):
        self.address = address
        self.module = module
        self.path = path
        self._tracker = tracker


_runtime: RuntimeLibrary | None = None
_runtime_lock = threading.Lock()


def runtime_library() -> RuntimeLibrary:
    """The runtime functions, loaded on first use, then kept for the process (never unloaded:
    the type of compiled functions points into them)."""
    global _runtime
    with _runtime_lock:
        if _runtime is None:
            _runtime = _load_runtime()
        return _runtime


def _load_runtime() -> RuntimeLibrary:
    if native.is_supported():
        path = store.shared_path("runtime", "runtime library")
        module = _import(path)
        if module is None:
            from script.backend.runtime.shared import compile_runtime
            _link_shared(path, [compile_runtime()[0]])
            module = _import(path)
        if module is not None:
            handle = module.dlopen(path.encode())
            address = {name: module.dlsym(handle, name.encode())
                       for name in module.names.decode().split("\n")}
            return RuntimeLibrary(address, module, path=path)
    from script.backend.runtime.shared import load_in_jit
    return RuntimeLibrary(*load_in_jit())


class _Spec:
    """What ``_imp.create_dynamic`` reads of a module spec."""

    def __init__(self, name: str, origin: str):
        self.name, self.origin = name, origin


def _import(path: str):
    """The runtime's extension module from the shared object at `path`, loaded with
    RTLD_GLOBAL; None when the store has none or it does not load."""
    if not store.check_shared(path):
        return None
    import _imp
    flags = sys.getdlopenflags()
    sys.setdlopenflags(os.RTLD_NOW | os.RTLD_GLOBAL)
    try:
        return _imp.create_dynamic(_Spec(MODULE_NAME, path))
    except ImportError:
        return None
    finally:
        sys.setdlopenflags(flags)


_hook_lock = threading.Lock()
_hooked = []                # the runtime module, once the hook was installed


def install_sigint_hook() -> bool:
    """Put the runtime's SIGINT hook (runtime.interrupt) in front of Python's handler, unless
    it is there already or Python does not handle SIGINT (through a Python-level handler:
    ``signal.getsignal(SIGINT)`` is callable); called whenever code is compiled or loaded.
    Returns whether the hook is installed. At exit SIGINT goes back to the handler the hook
    chains to, before the JIT's code is unmapped."""
    import _signal as signal        # the C module, without `signal`'s enums
    if os.name != "posix" or not hasattr(signal, "SIGINT") \
            or not callable(signal.getsignal(signal.SIGINT)):
        return False
    module = runtime_library().module
    with _hook_lock:
        installed = bool(module.sigint_hook(1))
        if installed and not _hooked:
            import atexit
            atexit.register(_uninstall)
            _hooked.append(module)
        return installed


def _uninstall() -> None:
    with _hook_lock:
        for module in _hooked:
            module.sigint_hook(0)


# ---- the compiled-function type -----------------------------------------------------------

# Attributes of a class body that describe that class, not methods: never copied.
_TYPE_OWN = frozenset({"__dict__", "__weakref__"})

_names_alive = []       # type names a type may point into (CPython < 3.12), kept for good
_types: dict[int, type] = {}    # the types made here, by id (kept alive)


def make_function_type(name: str, methods: dict | None = None) -> type:
    """A new compiled-function type called `name` (``module.Name`` sets ``__module__``)."""
    qualified = (name if "." in name else f"script.{name}").encode()
    _names_alive.append(qualified)
    tp = runtime_library().module.new_type(qualified)
    _types[id(tp)] = tp
    for key, value in (methods or {}).items():
        if key not in _TYPE_OWN:
            setattr(tp, key, value)
    return tp


@functools.cache
def plain_function_type() -> type:
    """A compiled-function type with no methods beyond a repr (for `compile_callable`)."""
    return make_function_type("script.backend.CompiledFunction", {
        "__repr__": lambda self: f"<compiled function {self.__dict__.get('__name__', '?')}>"})


def _check(obj) -> None:
    if not any(id(c) in _types for c in type(obj).__mro__):
        raise TypeError(f"not a compiled-function object: {type(obj).__name__}")


def new_instance(tp: type, fallback) -> object:
    """A new instance of `tp` (from `make_function_type`) that calls `fallback` for now."""
    if id(tp) not in _types:
        raise TypeError(f"{tp!r} was not made by make_function_type")
    if not callable(fallback):
        raise TypeError("the fallback must be callable")
    return runtime_library().module.new_instance(tp, fallback)


def set_specializations(obj, specs, nargs: int) -> None:
    """Make `obj` try `specs` in order for calls with `nargs` positional arguments.

    Each spec is a `NativeLibrary` (runtime.library) or the address of an entry point
    (runtime.entry); a library is kept alive by `obj`, an address is the caller's to keep
    valid. One spec becomes the object's vectorcall itself; several go through
    ``script.dispatch``."""
    _check(obj)
    specs = list(specs)
    addresses = [s if isinstance(s, int) else s.entry_address for s in specs]
    table = b"".join(a.to_bytes(8, "little") for a in addresses)   # not struct: the imports
    # Calls in flight may still read an old table or run old code: keep them all.
    runtime_library().module.set_specializations(
        obj, table, nargs, (table, [s for s in specs if not isinstance(s, int)]))


# ---- object code --------------------------------------------------------------------------

_entry_points: dict = {}     # (param types, ret type, numpy scalars) -> the object, once read
_entry_points_lock = threading.Lock()


def entry_point_path(param_types, ret_type, numpy_scalars=()) -> str:
    """The store's file of the entry point for this signature (IR types) whose parameters at
    the positions `numpy_scalars` take NumPy scalars."""
    limit = runtime_library().module.stack_limit()
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
    """A library loaded without LLVM: the interface of runtime.library's `NativeLibrary` for
    code loaded from object code (no LLVM IR, no assembly). `image` is elfload's, or None
    for a shared object (never unloaded). The code stays mapped while the library is
    referenced."""

    llvm_ir = None
    asm = None
    opt_level = None

    def __init__(self, function_name: str, entry_address: int, object_code: bytes,
                 seconds: float, numpy_scalars: tuple = (), image=None):
        self.function_name = function_name
        self.numpy_scalars = numpy_scalars
        self._image = image
        self.entry_address = entry_address
        self.try_call_address = entry_address
        self.object_code = object_code
        self.timings = {"link": seconds}
        self.compile_seconds = seconds

    def __repr__(self):
        return f"<LoadedLibrary {self.function_name} at {self.entry_address:#x}>"


def load_object(object_code: bytes, entry: str, param_types, ret_type,
                numpy_scalars=(), digest: str | None = None) -> LoadedLibrary | None:
    """Link `object_code`, compiled for the IR function `entry` of this signature, with its
    entry point (whose parameters at the positions `numpy_scalars` take NumPy scalars); None
    when neither loader can (see the module docstring). RuntimeError when the object is not
    that function's. `digest` (64 hex digits) identifies `object_code`: its own by default."""
    start = time.perf_counter()
    if not native.is_supported():
        return None
    install_sigint_hook()
    numpy_scalars = tuple(numpy_scalars)
    key = (tuple(param_types), ret_type, numpy_scalars)
    kernel = f"{KERNEL_SYMBOL}.{entry}"
    runtime = runtime_library()
    address = None
    if runtime.path is not None:
        address = _load_shared(object_code, digest or store.digest(object_code), key, kernel,
                               runtime)
    image = None
    if address is None:
        point = _entry_point(*key)
        if point is None:
            return None
        from script.backend.native import elfload
        from script.backend.runtime.symbols import resolve
        try:
            image = elfload.load([object_code, point],
                                 lambda name: runtime.address.get(name) or resolve(name))
        except elfload.ElfError:
            return None
        if kernel not in image.symbols or ENTRY_SYMBOL not in image.symbols:
            raise RuntimeError(f"the object code does not define {kernel}")
        address = image[ENTRY_SYMBOL]
    return LoadedLibrary(entry, address, bytes(object_code), time.perf_counter() - start,
                         numpy_scalars, image)


def _load_shared(object_code: bytes, digest: str, key: tuple, kernel: str,
                 runtime) -> int | None:
    """The entry address of the shared object of `object_code` (identified by `digest`) with
    the entry point of `key`, linked into the store on first use; None when it cannot be made
    or does not load."""
    point_path = entry_point_path(*key)
    path = os.path.join(os.path.dirname(point_path), f"code-{digest[:32]}-"
                                                     f"{os.path.basename(point_path)[:-2]}.so")
    if not store.check_shared(path):
        point = _entry_point(*key)
        from script.backend.runtime.symbols import bound_at_run_time
        if point is None or not _link_shared(path, [object_code, point], bound_at_run_time):
            return None
    module = runtime.module
    try:
        handle = module.dlopen(path.encode())
    except OSError:
        return None             # a name the system's loader cannot bind: elfload binds it
    if module.dlsym(handle, b"script.late"):
        _bind_late(module, handle)
    address = module.dlsym(handle, ENTRY_SYMBOL.encode())
    if not address or not module.dlsym(handle, kernel.encode()):
        raise RuntimeError(f"the object code does not define {kernel}")
    return address


def _bind_late(module, handle: int) -> None:
    """Fill the GOT slots of what the system's loader could not bind (runtime.symbols
    `bound_at_run_time`: NumPy's API and objects, ...), before any of the code runs.
    Filling a slot again (the same library opened twice) writes the same address."""
    from script.backend.runtime import symbols
    for name in symbols.late_names():
        slot = module.dlsym(handle, f"script.got.{name}".encode())
        if slot:
            address = symbols.resolve(name)
            if not address:
                raise RuntimeError(f"the object code needs {name}, which is not here")
            module.poke(slot, address)


def _link_shared(path: str, objects: list, late=None) -> bool:
    """Link `objects` into a shared object stored at `path` (elfso `link_shared`, binding the
    names `late` picks after loading); whether the store now holds it."""
    from script.backend.native import elfload, elfso
    try:
        data = elfso.link_shared(objects, late=late)
    except elfload.ElfError:
        return False
    store.write_shared(path, data)
    return store.check_shared(path)
