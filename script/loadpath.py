"""The load path: everything a process runs to call code it did not compile — a cache hit, a
saved module — without LLVM, the frontend or ctypes: the runtime library and the
compiled-function type (from the per-machine store: script.store), and linking saved object
code. One module, beside script.cache, and not in the backend's packages: a fresh process
pays ~0.3 ms for each module and package it imports, and a cache hit is meant to cost under
5 ms in all (docs/saved-modules.md). So this imports only what `import script` has loaded
(tests/test_loader.py checks what a hit imports); the backend only where the store has no
runtime library or entry point yet, or object code does not link without LLVM.

The compiled-function type is a heap type with a vectorcall slot, made by the runtime module's
``new_type`` (``PyType_FromSpec``: flags HAVE_VECTORCALL | BASETYPE | HAVE_GC |
DISALLOW_INSTANTIATION; ``tp_call`` is ``PyVectorcall_Call``; ``__vectorcalloffset__``,
``__dictoffset__``, ``__weaklistoffset__`` members; traverse/clear/dealloc from
runtime.dispatch). `make_function_type(name, methods)` assigns `methods` onto the type itself
(a Python subclass would lose the vectorcall fast path; ``__dict__`` and ``__weakref__`` are
skipped). Instances come only from `new_instance`; each has a ``__dict__``, and calls
`fallback(*args, **kwargs)` until `set_specializations` installs entry points (runtime.entry)
to try first. The runtime module writes an instance with the GIL held, in an order that keeps
a concurrent call safe: `ntry` is zeroed before the table changes and set last
(runtime.layout, runtime.dispatch).

Saved object code: `load_object` links a library's object with the entry point of its
signature from the store, in Python, by native.elfload, into the arena that holds all
compiled code (native.arena: a memory map per protection for every library loaded, and a
dropped library's pages given back); it binds the runtime's functions, the C-API, libc and
libm by name in the global scope, and what only the running process knows (NumPy's API and
objects, the random generators' states, BLAS and LAPACK: runtime.symbols) by address. When
the store has no entry point for the signature yet, it is compiled (runtime.library
`entry_point`, which stores it). It returns None, and the caller links with LLVM instead
(`load_native`), only where elfload does not run (not x86-64 Linux); where it runs, an
object elfload declines is an error (RuntimeError: the caller's LoadError), never given to
LLVM's linker, which aborts the process on some malformed objects. An entry point depends
on its signature, the positions of the parameters that take NumPy scalars, and the stack
size limit (runtime.entry `stack_budget`), so all three name it.

`load_specialization` turns a saved module's or a cache entry's record into a
`LoadedSpecialization`, with the object code linked or the IR compiled again.
"""

from __future__ import annotations

import functools
import threading
import time

from script import store
from script.errors import LoadError
from script.store import ENTRY_SYMBOL, KERNEL_SYMBOL, SIGNATURE_SYMBOL


# ---- the runtime library ------------------------------------------------------------------

def runtime_library() -> store.RuntimeLibrary:
    """The runtime functions (script.store `runtime_library`), made by the backend where the
    store has none."""
    return store.runtime_library(_build_runtime)


def _build_runtime() -> store.RuntimeLibrary:
    # only where the store has no runtime library that loads: a hit imports no backend
    from script.backend.runtime.shared import build_runtime
    return build_runtime()


def install_sigint_hook() -> bool:
    """script.store `install_sigint_hook` for the runtime library."""
    return store.install_sigint_hook(runtime_library())


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
    """Make `obj` try `specs` in order for calls with exactly `nargs` positional arguments and
    no keywords, then its fallback.

    Each spec is a `NativeLibrary` (runtime.library), a `LoadedLibrary`, or the address of an
    entry point (runtime.entry); a library is kept alive by `obj`, an address is the
    caller's to keep valid. One spec becomes the object's vectorcall itself; several go
    through ``script.dispatch``."""
    _check(obj)
    specs = list(specs)
    addresses = [s if isinstance(s, int) else s.entry_address for s in specs]
    table = b"".join(a.to_bytes(8, "little") for a in addresses)   # not struct: the imports
    # Calls in flight may still read an old table or run old code: keep them all.
    runtime_library().module.set_specializations(
        obj, table, nargs, (table, [s for s in specs if not isinstance(s, int)]))


def set_rerun(obj, target) -> None:
    """Make `obj` answer a call that raised OverflowError, where its library says the call
    left no trace, with ``target(*args)`` (None: never; runtime.entry `script.rerun`)."""
    _check(obj)
    runtime_library().module.set_rerun(obj, target)


# ---- object code --------------------------------------------------------------------------

_entry_points: dict = {}     # (param types, ret type, numpy scalars) -> the object, once read
_entry_points_lock = threading.Lock()


def entry_point_path(param_types, ret_type, numpy_scalars=()) -> str:
    """script.store `entry_point_path` for this process's runtime library."""
    return store.entry_point_path(runtime_library(), param_types, ret_type, numpy_scalars)


def _entry_point(param_types, ret_type, numpy_scalars=()) -> bytes | None:
    """The stored entry point of this signature, or None. Its bytes are read once a process
    (a file of the store always holds the same object): loading ten functions of one
    signature reads one file. (The stack limit is read with it: a process that changes it
    later keeps the entry points it has read.)"""
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
    code loaded from object code (no LLVM IR, no assembly). `image` is elfload's: the code
    stays mapped while the library is referenced."""

    llvm_ir = None
    asm = None
    opt_level = None

    def __init__(self, function_name: str, entry_address: int, object_code: bytes,
                 seconds: float, numpy_scalars: tuple, image):
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
                numpy_scalars=()) -> LoadedLibrary | None:
    """Link `object_code`, compiled for the IR function `entry` of this signature, with its
    entry point (whose parameters at the positions `numpy_scalars` take NumPy scalars,
    compiled now when the store has none); None where script's loaders do not run (not
    x86-64 Linux: LLVM's linker is the only one there). RuntimeError when the object is
    not that function's, or for these types, or when elfload declines it. The code is
    unmapped (its arena blocks given back) when the library goes."""
    start = time.perf_counter()
    if not store.is_supported():
        return None
    install_sigint_hook()
    key = (tuple(param_types), ret_type, tuple(numpy_scalars))
    point = _entry_point(*key) or _make_entry_point(*key)
    from script.backend.native import elfload       # here: `import script` needs none of it
    try:
        image = elfload.load([object_code, point], _resolver(runtime_library()))
    except elfload.ElfError as e:
        # Never LLVM's linker instead: it aborts the process on some objects that read
        # well (a symbol nobody defines: "LLVM ERROR", tests/fuzz_trust.py found one).
        raise RuntimeError(f"it is malformed or not script's ({e})") from None
    for name in (f"{KERNEL_SYMBOL}.{entry}", store.signature_symbol(entry, param_types, ret_type),
                 ENTRY_SYMBOL):
        if name not in image.symbols:
            raise RuntimeError(_missing(name, entry))
    return LoadedLibrary(entry, image[ENTRY_SYMBOL], bytes(object_code),
                         time.perf_counter() - start, key[2], image)


def _resolver(runtime: store.RuntimeLibrary):
    """elfload's binding of the names the objects do not define: what only the running
    process knows (NumPy's API and objects, the random generators' states, BLAS and LAPACK:
    store `bound_at_run_time`) by runtime.symbols, which imports ctypes; the runtime's
    functions, the C-API, libc and libm by ``dlsym`` in the global scope, where the runtime
    library was loaded (RTLD_GLOBAL), as the system's loader would bind them; where LLVM's
    JIT holds the runtime library, its own table."""
    dlsym = runtime.module.dlsym if runtime.path is not None else None

    def resolve(name: str) -> int | None:
        if not store.bound_at_run_time(name):
            address = dlsym(0, name.encode()) if dlsym else runtime.address.get(name)   # 0: RTLD_DEFAULT
            if address:
                return address
        from script.backend.runtime.symbols import resolve as resolve_in_process
        return resolve_in_process(name)
    return resolve


def load_or_link(object_code: bytes, entry: str, param_types, ret_type, numpy_scalars=()):
    """`load_object`, else (where script's loaders do not run) LLVM's linker (backend
    `link_with_llvm`): a `LoadedLibrary` or a `NativeLibrary`. RuntimeError when the object is
    not that function's."""
    lib = load_object(object_code, entry, param_types, ret_type, numpy_scalars)
    if lib is None:
        from script.backend import link_with_llvm
        lib = link_with_llvm(object_code, entry, param_types, ret_type, numpy_scalars)
    return lib


def load_native(object_code: bytes, entry_func, numpy_scalars=()):
    """`load_or_link` for the object code of a library compiled for the IR function
    `entry_func` (same CPU)."""
    return load_or_link(object_code, entry_func.name, entry_func.param_types, entry_func.ret_type,
                        numpy_scalars)


def compile_callable(module, entry: str, fallback=None, opt_level: int = 3):
    """`module.functions[entry]` compiled and wrapped in a callable object of a plain
    compiled-function type: for tests and tools that start from IR. Calls whose argument
    types do not match go to `fallback`, or raise TypeError without one."""
    from script.backend import compile_native
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


def _missing(name: str, entry: str) -> str:
    if name.startswith(SIGNATURE_SYMBOL):
        return (f"the object code was not compiled for the types declared for {entry} (it does "
                f"not define {name})")
    return f"the object code does not define {name}"


def _make_entry_point(param_types, ret_type, numpy_scalars) -> bytes:
    """The entry point of this signature compiled now (with LLVM) and kept in the store."""
    from script.backend.runtime.library import entry_point
    code = entry_point(param_types, ret_type, numpy_scalars).object_code
    with _entry_points_lock:
        _entry_points[(tuple(param_types), ret_type, tuple(numpy_scalars))] = code
    return code


# ---- loaded specializations ---------------------------------------------------------------

# The annotations naming the container's and the manifest's classes (Archive, Member,
# SpecEntry: saved_archive, saved_manifest; cache's Entry and Record) are never evaluated.

class LoadedSpecialization:
    """A specialization read from a saved module or a cache entry: `compiler.Specialization`'s
    interface (not its subclass: loading imports neither the compiler nor the IR classes).
    `record` is its manifest entry. Its texts are read from the archive (their size and
    digest checked; `LoadError` if damaged) and its IR parsed only when asked for, so
    loading object code neither decompresses IR nor imports lark; `opt_text` is the saved
    text, which is what printing the parsed module gives."""

    def __init__(self, record: SpecEntry, archive: Archive, native, module, timings: dict):
        self.record = record
        self.arg_types = record.arg_types
        self.ret_type = record.ret_type
        self.native = native
        self.timings = timings
        self.origin = archive.origin
        self._archive = archive
        self._texts: dict = {}
        self._module = module

    def _text(self, member: Member | None) -> str | None:
        if member is None:
            return None
        if member.path not in self._texts:
            self._texts[member.path] = self._archive.text(*member_fields(member))
        return self._texts[member.path]

    @property
    def opt_text(self) -> str:
        return self._text(self.record.ir)

    @property
    def ssa_text(self) -> str | None:
        return self._text(self.record.ssa)

    @property
    def module(self):
        if self._module is None:
            self._module = parse_ir(self.opt_text, self.record, self.origin, safe=False)
        return self._module

    @property
    def entry(self):
        return next(iter(self.module.functions.values()))

    def ir(self, stage: str) -> str:
        return stage_text(self, stage)

    def __repr__(self):
        return f"<LoadedSpecialization {self.record.entry} from {self.origin}>"


STAGES = ("ssa", "opt", "llvm", "asm")


def stage_text(spec, stage: str) -> str:
    """`f.ir(stage)` of one specialization, compiled (script.compiler `Specialization`) or
    loaded (`LoadedSpecialization`): the same stages and messages for both."""
    if stage == "ssa":
        text = spec.ssa_text
    elif stage == "opt":
        text = spec.opt_text
    elif stage == "llvm":
        text = spec.native.llvm_ir
    elif stage == "asm":
        text = spec.native.asm
    else:
        raise ValueError(f"unknown stage {stage!r}; expected one of {', '.join(STAGES)}")
    if text is None:
        raise ValueError(f"the {stage!r} text of this specialization is not available: it "
                         "was loaded from object code (a saved module or the cache)")
    return text


def parse_ir(text: str, record: SpecEntry, origin: str, safe: bool = True):
    """The verified IR module of `record`, checked against its manifest entry (a `SpecEntry`,
    a cache entry's `Record`, or a kernel's `KernelModule`); with `safe`, made memory-safe
    (script.ir.safety) for compiling, else as the text says (for inspection only)."""
    from script.ir.parser import parse_module
    module = parse_module(text, f"{origin}:{record.ir.path}")
    where = f"{origin}: IR of {record.entry}"
    if tuple(module.functions) != record.functions:
        raise LoadError(f"{where} defines {', '.join(module.functions)}; the manifest lists "
                        f"{', '.join(record.functions)}")
    entry = module.functions[record.entry]
    if tuple(entry.param_types) != record.arg_types or entry.ret_type != record.ret_type:
        raise LoadError(f"{where} takes ({', '.join(map(str, entry.param_types))}) -> "
                        f"{entry.ret_type}, not the manifest's types")
    calls = {f.name: tuple(c.name for c in f.callees()) for f in module.functions.values()}
    if calls != record.calls:
        raise LoadError(f"{where}: its calls differ from the manifest's callee graph")
    return module if not safe else secure_foreign_ir(module, where)


def secure_foreign_ir(module, where: str):
    """The step every IR module read from a file passes before it is compiled (`parse_ir`:
    saved modules' functions and kernels' CPU code): IR that did not come from this
    process's frontend, which verifies but might index outside its arrays, gets a check on
    every memory access (script.ir.safety; docs/saved-modules.md, "Trust")."""
    from script.ir.safety import make_memory_safe
    return make_memory_safe(module)


def load_specialization(archive: Archive, record: SpecEntry, use_object: bool,
                        numpy_scalars: tuple = ()) -> LoadedSpecialization:
    """Link `record`'s object code when `use_object`, else compile its IR for this CPU; the
    entry point takes NumPy scalars at the positions `numpy_scalars` (script.dispatcher
    `numpy_scalar_params`)."""
    start = time.perf_counter()
    for text in (record.ir, record.ssa):
        if text is not None:
            archive.check(text.path, text.size)    # present; its hash is checked when read
    module = None
    if use_object and record.object is not None:
        code = archive.member(*member_fields(record.object))
        try:
            native = load_or_link(code, record.entry, record.arg_types, record.ret_type,
                                  numpy_scalars)
        except RuntimeError as e:       # the linker: not an object file, symbols missing
            raise LoadError(f"{archive.origin}: object code of {record.entry} does not load: "
                            f"{e}") from None
    else:
        from script.backend import compile_native
        module = parse_ir(archive.text(*member_fields(record.ir)), record, archive.origin)
        try:
            native = compile_native(module, record.entry, record.opt_level,
                                    numpy_scalars=numpy_scalars)
        except Exception as e:  # noqa: BLE001 - verified IR the backend rejects: still the file's
            raise LoadError(f"{archive.origin}: compiling the IR of {record.entry} failed "
                            f"({type(e).__name__}: {e})") from e
    return LoadedSpecialization(record, archive, native, module,
                                {"load": time.perf_counter() - start})


def member_fields(m: Member) -> tuple:
    return m.path, m.size, m.sha256
