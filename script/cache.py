"""The on-disk compile cache of ``@script(cache=True)``.

An entry (script.cache_entry: a flat file, checked by its BLAKE2b digest, read without zipfile or
json) holds one specialization of one function: its IR texts and object code, as a saved
module has them, in a file named by its slot (the function's file and qualified name, the
argument types and the options): writing an entry replaces the slot's previous one. It
holds the key: the digest (native.store `digest`) of every input the compiled code depends on —

- the function's source text, its defaults, and for every name it reads from outside
  (module globals, closure cells, builtins, ``mod.attr`` chains; found in the source, so a
  superset of what the frontend reads) the value it has now: constants by value, modules
  and classes by name, Python and ``@script`` functions by their own source, defaults and
  names, transitively — so editing a callee in another file, or a global constant,
  changes the key, and editing an unrelated function in the same file does not;
- the argument types, `opt`, `passes`, `boundscheck`, `interruptible`, `nogil` and
  SCRIPT_DISABLE_PASSES;
- the compiler (its version, and the sizes and times of its own files in a checkout or its
  install's RECORD: native.store `compiler_fingerprint`), LLVM's version, the
  Python ABI, the target triple, CPU name and features (native.store: read without LLVM).

Describing a function needs its source text and the outside names it reads, which parsing
gives (the frontend's FunctionInfo). So an entry also records, per function the key
describes (`cache_entry.Source`), where it is, the digest of its file and of its
source, and its outside names. A lookup first describes the functions from that record
(`quick`): while each function is at the recorded place of a file with the recorded
digest, its source and names are the recorded ones, and the values of the names are read
from the live objects, as always. Only when that fails (a file changed, a new callee) are
the functions parsed. Either way the key is rebuilt in full and compared: the record saves
the parsing, never the check. A hit at decoration then needs neither the frontend nor LLVM
(script.dispatcher defers the function's FunctionInfo until something needs it), and the
modules a hit imports are few and small: this one, cache_entry, script.loaded and the
native loader (not zipfile, json, hashlib or the manifest, nor any module of Python's that
`import script` has not: tests/test_loader.py).

Where: ``$SCRIPT_CACHE_DIR`` when set; else ``__pycache__`` beside the source file, or the
user's cache directory (``$XDG_CACHE_HOME/script``, ``~/.cache/script``, ``~/Library/Caches/
script``, ``%LOCALAPPDATA%\\script\\Cache``) when that cannot be written. A lookup tries the
same places in the same order.

Invariants: a hit links the entry's object code and compiles nothing; a wrong or stale
entry is never used (its key, types and target are checked against the running process);
a corrupt one (or one of another function) is ignored with a RuntimeWarning, and rebuilt;
writes are atomic (temp file and rename), so concurrent processes never see or leave a
partial entry. Failing to write is silent: the cache never turns a compile into an error.
"""

from __future__ import annotations

import builtins
import os
import types

from script import cache_entry
from script.backend.native import store
from script.backend.native.store import compiler_fingerprint, digest, python_abi, user_cache_dir
from script.cache_entry import Source
from script.errors import CompileError, LoadError
from script.ir import types as T

__all__ = ["cached_specialization", "quick_lookup", "user_cache_dir", "compiler_fingerprint"]

KEY_VERSION = 2
SUFFIX = ".cache"               # an entry's file: <file stem>.<qualname>.<slot>.cache
MAX_DEPENDENCIES = 256          # functions walked for one key; beyond it, no caching


class _Uncacheable(Exception):
    pass


class _NotQuick(Exception):
    """The entry's record does not describe the functions as they are: parse them."""


class Target:
    """What this process compiles for: LLVM's triple, CPU name and features."""

    __slots__ = ("triple", "cpu", "features")

    def __init__(self, triple: str, cpu: str, features: str):
        self.triple, self.cpu, self.features = triple, cpu, features


def host_target() -> Target:
    """The host's target (native.store: recorded per machine, read without LLVM)."""
    return Target(*store.host_target()[:3])


def llvm_version() -> str:
    return store.host_target()[3]


def quick_lookup(py_func, opt: int = 2, passes=None, boundscheck: bool = True,
                 interruptible: bool = True, nogil: bool = True):
    """``(arg_types, specialization)`` of an annotated `py_func` from the cache when its
    entry's record still describes it (the module docstring), else None; parses nothing
    and compiles nothing. For decoration: what is not found here goes through
    `cached_specialization`, which reports corrupt entries."""
    arg_types = _annotated_types(py_func)
    if arg_types is None:
        return None
    request = _Request(py_func, arg_types, opt, passes, boundscheck, interruptible, nogil)
    try:
        entry = _read(request, warn=False)
        return None if entry is None else (arg_types, _quick(request, entry))
    except (_NotQuick, _Uncacheable, LoadError):
        return None
    except Exception:  # noqa: BLE001 - a value the key cannot describe: the slow path decides
        return None


def cached_specialization(info, arg_types: tuple, opt: int = 2, passes=None,
                          boundscheck: bool = True, interruptible: bool = True,
                          nogil: bool = True):
    """`compile_specialization`, through the cache. Called under the frontend's lock."""
    from script.compiler import compile_specialization
    options = dict(boundscheck=boundscheck, interruptible=interruptible, nogil=nogil)
    from script.dispatcher import numpy_scalar_params
    request = _Request(info.py_func, arg_types, opt, passes, boundscheck, interruptible, nogil)
    request.numpy_scalars = numpy_scalar_params(info.param_types, arg_types)
    entry = _read(request, warn=True)
    if entry is not None:
        try:
            return _quick(request, entry)
        except (_NotQuick, _Uncacheable):
            pass
        except LoadError as e:
            _warn_corrupt(entry.path, e)
            entry = None
        except Exception:  # noqa: BLE001 - a value the key cannot describe: no caching
            return compile_specialization(info, arg_types, opt, passes, **options)
    try:
        description = _Description(request.header(), None)
        description.function(info.py_func)
        description.argument_classes(arg_types)
    except Exception:  # noqa: BLE001 - _Uncacheable, or a value the key cannot describe
        return compile_specialization(info, arg_types, opt, passes, **options)
    key = description.key()
    spec = None
    if entry is not None and entry.key == key:
        try:
            spec = _load(entry, request.numpy_scalars)
        except LoadError as e:
            _warn_corrupt(entry.path, e)
        else:
            if not description.sources:
                return spec
            # A hit the record did not find (a file changed elsewhere): record it anew, so
            # that the next lookup does not parse.
    if spec is None:
        spec = compile_specialization(info, arg_types, opt, passes, **options)
    try:
        _store(request, key, description.sources, info, spec)
    except Exception:  # noqa: BLE001 - e.g. a type this format cannot hold yet
        pass
    return spec


class _Request:
    """One specialization asked of the cache: the function, its argument types, options, and
    the positions of the parameters its entry point takes as NumPy scalars (none for an
    annotated function; script.dispatcher `numpy_scalar_params`: the source and the argument
    types, which the key covers, decide them, so the key need not name them)."""

    numpy_scalars: tuple = ()

    def __init__(self, py_func, arg_types, opt, passes, boundscheck, interruptible, nogil):
        self.py_func, self.arg_types, self.opt, self.passes = py_func, tuple(arg_types), opt, passes
        options = dict(boundscheck=boundscheck, interruptible=interruptible, nogil=nogil)
        # Options at their defaults add nothing, so the entries of the defaults keep their names.
        self.flags = "".join(f"-no{k}" for k, v in options.items() if not v)

    def header(self) -> list:
        """The key's lines about everything but the functions' text and names."""
        from script import __version__
        target = host_target()
        # SCRIPT_DISABLE_PASSES as written (compiler.disabled_passes reads it the same way).
        disabled = os.environ.get("SCRIPT_DISABLE_PASSES", "")
        return [f"script-cache {KEY_VERSION}", f"compiler {__version__} {compiler_fingerprint()}",
                f"llvm {llvm_version()}", f"python {python_abi()}",
                f"target {target.triple} {target.cpu} {target.features}",
                f"options opt={self.opt} passes={self.passes!r} disabled={disabled!r} "
                f"flags={self.flags!r}",
                f"types {', '.join(map(str, self.arg_types))}"]

    def name(self) -> str:
        """``<file stem>.<qualname>.<slot>.cache``, the slot a digest of the file, qualified
        name, argument types and options."""
        filename = self.py_func.__code__.co_filename
        qualname = self.py_func.__qualname__.replace("<locals>.", "")
        slot = digest(f"{filename}\n{qualname}\n{self.arg_types}\n{self.opt}\n{self.passes}\n"
                      f"{self.flags}".encode("utf-8", "backslashreplace"))[:16]
        stem = os.path.splitext(os.path.basename(filename))[0]
        return f"{stem}.{qualname}.{slot}{SUFFIX}"

    def directories(self) -> list:
        override = os.environ.get("SCRIPT_CACHE_DIR")
        if override:
            return [override]
        source = self.py_func.__code__.co_filename
        return [os.path.join(os.path.dirname(os.path.abspath(source)), "__pycache__"),
                user_cache_dir()]


# ---- the key ------------------------------------------------------------------------------

class _Description:
    """The key's text: the header, then each function reached from the root — its source,
    defaults, and the value of every outside name it reads (the module docstring). With
    `recorded` (an entry's Sources) each function's source and names are taken from
    it while its file is unchanged (else `_NotQuick`); without, they come from parsing,
    and `sources` records them."""

    def __init__(self, header: list, recorded: tuple | None):
        self.lines = list(header)
        self.recorded = recorded
        self.sources: list[Source] | None = [] if recorded is None else None
        self.seen: dict[int, int] = {}
        self.classes: dict[int, int] = {}

    def key(self) -> str:
        return digest("\n".join(self.lines).encode("utf-8", "backslashreplace"))

    def function(self, py_func) -> str:
        index = self.seen.get(id(py_func))
        if index is not None:
            return f"function #{index}"
        if len(self.seen) >= MAX_DEPENDENCIES:
            raise _Uncacheable
        index = self.seen[id(py_func)] = len(self.seen)
        label = f"function #{index} {py_func.__qualname__}"
        source = self._source(index, py_func)
        if source is None:             # cannot be compiled: a call to it will fail anyway
            self.lines.append(f"{label} without source")
            return f"function #{index}"
        self.lines.append(f"{label} {source.file} {source.source_digest}")
        for name, value in _defaults(py_func).items():
            self.lines.append(f"  #{index} default {name} = {self.value(value)}")
        for path in source.names:
            self.lines.append(f"  #{index} {path} = {self.value(_resolve(py_func, path))}")
        return f"function #{index}"

    def argument_classes(self, arg_types) -> None:
        """The named tuple classes of the arguments (their methods are compiled too)."""
        from script.ir import types as T
        from script.named_instance import lookup_class
        stack = list(arg_types)
        while stack:
            t = stack.pop()
            if isinstance(t, T.NamedTupleType):
                self.lines.append(f"argument class {self.value(lookup_class(t.key))}")
            if isinstance(t, T.TupleType):
                stack.extend(t.elems)
            elif isinstance(t, T.ListType):
                stack.append(t.elem)

    def user_class(self, cls: type) -> str | None:
        """A named tuple or record class compiled code reads (frontend named_tuples.py,
        records.py): its fields, defaults, constants and every function it defines, whose
        sources join the key as a called function's do. None for other classes."""
        if cls.__module__ == "builtins":
            return None
        from script.named_instance import is_named_tuple_class, is_record_class
        if not (is_named_tuple_class(cls) or is_record_class(cls)):
            return None
        if id(cls) in self.classes:
            return f"class #{self.classes[id(cls)]}"
        self.classes[id(cls)] = len(self.classes)
        parts = [f"class #{self.classes[id(cls)]} {cls.__module__}.{cls.__qualname__}",
                 f"bases {[b.__qualname__ for b in cls.__bases__]}"]
        for name in ("_fields", "_field_defaults", "__annotations__"):
            if name in vars(cls):
                parts.append(f"{name} {vars(cls)[name]!r}")
        for f in getattr(cls, "__dataclass_fields__", {}).values():
            parts.append(f"field {f.name} {f.type!r} {f.default!r} {f.init}")
        for name, member in sorted(vars(cls).items()):
            if isinstance(member, types.FunctionType) and member.__code__.co_filename.startswith("<"):
                parts.append(f"{name} made")       # a dataclass's or namedtuple's own
            elif isinstance(member, types.FunctionType):
                parts.append(f"{name} {self.function(member)}")
            elif type(member) in (bool, int, float, complex, str):
                parts.append(f"{name} {type(member).__name__} {member!r}")
            elif not name.startswith("__"):
                parts.append(f"{name} {type(member).__name__}")
        return "; ".join(parts)

    def _source(self, index: int, py_func) -> Source | None:
        code = py_func.__code__
        if self.recorded is not None:
            if index >= len(self.recorded):
                raise _NotQuick
            rec = self.recorded[index]
            if (rec.qualname, rec.file, rec.line) != (py_func.__qualname__, code.co_filename,
                                                      code.co_firstlineno) \
                    or _file_digest(rec.file) != rec.file_digest:
                raise _NotQuick
            return rec
        from script.frontend.specialize import CONTEXT
        before = _file_digest(code.co_filename)
        try:
            info = CONTEXT.info_for(py_func)
        except CompileError:
            self.sources = None        # nothing to record: lookups will parse
            return None
        source = Source(py_func.__qualname__, info.filename, code.co_firstlineno,
                        before or "", digest(info.source.encode("utf-8", "backslashreplace")),
                        tuple(_outside_names(info)))
        if self.sources is not None:
            # A file that changed while it was read, or cannot be read: no record of it.
            if before is None or _file_digest(code.co_filename) != before:
                self.sources = None
            else:
                self.sources.append(source)
        return source

    def value(self, obj, depth: int = 0) -> str:
        if obj is _MISSING:
            return "missing"
        if obj is None or type(obj) in (bool, int, float, complex):
            return f"{type(obj).__name__} {obj!r}"
        if type(obj) is tuple and depth < 16:
            return "(" + ", ".join(self.value(x, depth + 1) for x in obj) + ")"
        from script.dispatcher import is_script_function
        if is_script_function(obj):
            return self.function(obj.__dict__["py_func"])
        if isinstance(obj, types.FunctionType):
            return self.function(obj)
        if isinstance(obj, types.ModuleType):
            return f"module {obj.__name__}"
        described = self.user_class(obj) if isinstance(obj, type) else None
        if described is not None:
            return described
        if isinstance(obj, (type, types.BuiltinFunctionType)):
            return f"{type(obj).__name__} {getattr(obj, '__module__', None)}.{obj.__qualname__}"
        if isinstance(obj, types.MethodType):
            # a bound method such as random.seed (the frontend knows it by identity): its
            # repr holds an address, different in every process
            owner = type(obj.__self__)
            return f"method {owner.__module__}.{owner.__qualname__}.{obj.__func__.__name__}"
        if type(obj).__name__ == "ndarray" and type(obj).__module__ == "numpy":
            # frozen into the code (frontend.frozen): its contents are part of the key
            import numpy as np
            return f"ndarray {obj.dtype.str} {obj.shape} {digest(np.ascontiguousarray(obj).tobytes())}"
        if type(obj) in (list, dict, set, frozenset):
            # copied into the code when compiled (frontend.lists, frontend.dicts): all of its
            # contents are part of the key, not the first thousand characters of its repr
            return f"{type(obj).__name__} {digest(repr(obj).encode())}"
        try:
            text = repr(obj)
        except Exception:  # noqa: BLE001 - an object whose repr fails: never reuse
            raise _Uncacheable from None
        return f"object {type(obj).__module__}.{type(obj).__qualname__} {text[:1000]}"


_MISSING = object()


def _file_digest(path: str) -> str | None:
    try:
        return digest(store.read_file(path, 1 << 30))
    except OSError:
        return None


def _defaults(py_func) -> dict:
    """Parameter name -> default, from the last parameter back (as the frontend's
    FunctionInfo.defaults)."""
    code = py_func.__code__
    names = code.co_varnames[:code.co_argcount]
    return dict(zip(reversed(names), reversed(py_func.__defaults__ or ())))


def _outside_names(info) -> list[str]:
    """Every name, and ``a.b.c`` chain, that `info`'s signature and body read from outside
    the function (not decorators: they do not reach compiled code)."""
    import ast
    node = info.node
    roots = [node.args, *node.body] + ([node.returns] if node.returns is not None else [])
    paths = set()
    for root in roots:
        for n in ast.walk(root):
            if isinstance(n, (ast.Import, ast.ImportFrom)):
                # what it binds is read when compiled, not from the module: not described
                raise _Uncacheable
            parts = []
            while isinstance(n, ast.Attribute):
                parts.append(n.attr)
                n = n.value
            if isinstance(n, ast.Name) and n.id not in info.local_names:
                paths.add(".".join([n.id, *reversed(parts)]))
    return sorted(paths)


def _resolve(py_func, path: str):
    """What `path` names for `py_func` now: closure cell, then module global, then builtin
    (the frontend's order, FunctionInfo.global_value)."""
    first, *rest = path.split(".")
    code = py_func.__code__
    obj = _MISSING
    if first in code.co_freevars:
        try:
            obj = py_func.__closure__[code.co_freevars.index(first)].cell_contents
        except ValueError:              # an empty cell
            pass
    if obj is _MISSING:
        obj = py_func.__globals__.get(first, _MISSING)
    if obj is _MISSING:
        obj = getattr(builtins, first, _MISSING)
    for attr in rest:
        if obj is _MISSING:
            break
        try:
            obj = getattr(obj, attr)
        except Exception:  # noqa: BLE001 - whatever getattr raises, the name is not there
            obj = _MISSING
    return obj


def _annotated_types(py_func) -> tuple | None:
    """The argument types of a function whose every parameter has an annotation naming a
    type (evaluated as the frontend evaluates it), else None."""
    from script.frontend.typeinfer import type_from_annotation
    code = py_func.__code__
    if code.co_kwonlyargcount or code.co_flags & 0x0C:       # *args, **kwargs
        return None
    annotations = getattr(py_func, "__annotations__", None) or {}
    out = []
    for name in code.co_varnames[:code.co_argcount]:
        ann = annotations.get(name)
        if isinstance(ann, str):
            scope = dict(py_func.__globals__)
            scope.update((n, c.cell_contents) for n, c in zip(code.co_freevars,
                                                               py_func.__closure__ or ())
                         if _is_full(c))
            try:
                ann = eval(ann, scope)  # noqa: S307 - as the frontend evaluates annotations
            except Exception:  # noqa: BLE001 - the frontend will report it
                return None
        t = None if ann is None or getattr(ann, "__name__", None) == "ndarray" \
            else type_from_annotation(ann)
        if t is None or isinstance(t, T.OptionalType):      # specialized on each call
            return None
        out.append(t)
    return tuple(out)


def _is_full(cell) -> bool:
    try:
        cell.cell_contents
    except ValueError:
        return False
    return True


# ---- entries ------------------------------------------------------------------------------

def _read(request: _Request, warn: bool):
    """The slot's entry (a `cache_entry.Entry`), checked as one of this function and these
    argument types; None when there is none, or it is corrupt (a RuntimeWarning if `warn`)."""
    name = request.name()
    for directory in request.directories():
        path = os.path.join(directory, name)
        try:
            data = store.read_file(path, cache_entry.MAX_ENTRY_BYTES)
        except OSError:
            continue
        try:
            entry = cache_entry.decode(data, path)
            if entry.record.arg_types != request.arg_types \
                    or entry.qualname != request.py_func.__qualname__:
                raise LoadError("it is not an entry of this function and these types")
            return entry
        except LoadError as e:
            if warn:
                _warn_corrupt(path, e)
    return None


def _quick(request: _Request, entry):
    """The entry's specialization when its record rebuilds its key (else _NotQuick)."""
    if not entry.sources:
        raise _NotQuick
    description = _Description(request.header(), entry.sources)
    description.function(request.py_func)
    description.argument_classes(request.arg_types)
    if description.key() != entry.key:
        raise _NotQuick
    return _load(entry, request.numpy_scalars)


def _load(entry, numpy_scalars: tuple):
    from script import __version__
    from script.loaded import load_specialization
    host = host_target()
    # The key covers all of these; a mismatch means an entry that lies about its key.
    if (entry.compiler, entry.python_abi, entry.target, entry.llvm) != \
            (__version__, python_abi(), (host.triple, host.cpu, host.features), llvm_version()):
        raise LoadError("its object code was compiled for another compiler, Python or CPU")
    return load_specialization(entry, entry.record, use_object=True, numpy_scalars=numpy_scalars,
                               digest=entry.digest)


def _warn_corrupt(path: str, error: Exception) -> None:
    import warnings             # not before: few processes warn, and importing it costs one
    warnings.warn(f"script: ignoring a corrupt cache entry {path}: {error}; compiling again",
                  RuntimeWarning, stacklevel=4)


def _store(request: _Request, key: str, sources, info, spec) -> None:
    from script import __version__
    from script.saved import spec_record
    record, members = spec_record(spec, "f0/s0")
    target = host_target()
    payload = {"ir": members["f0/s0.ir"], "ssa": members.get("f0/s0.ssa.ir"),
               "object": members["f0/s0.o"]}
    try:
        data = cache_entry.encode(cache_entry.entry_fields(
            key, __version__, python_abi(), llvm_version(),
            (target.triple, target.cpu, target.features), info.py_func.__qualname__, record,
            sources), payload)
    except ValueError:          # a file name with a tab or line break: no record, lookups parse
        data = cache_entry.encode(cache_entry.entry_fields(
            key, __version__, python_abi(), llvm_version(),
            (target.triple, target.cpu, target.features), info.py_func.__qualname__, record,
            None), payload)
    name = request.name()
    for directory in request.directories():
        try:
            os.makedirs(directory, exist_ok=True)
            store.write_atomically(os.path.join(directory, name), data)
        except OSError:
            continue
        _remove_replaced(directory, name)
        return


def _remove_replaced(directory: str, name: str) -> None:
    """Remove the slot's other entries: written under older names (with the key in the
    name) or in the older zip format (``.smod``)."""
    slot_prefix = name[:-len(SUFFIX)] + "."
    try:
        for other in os.listdir(directory):
            if other.startswith(slot_prefix) and other.endswith((SUFFIX, ".smod")) \
                    and other != name:
                os.unlink(os.path.join(directory, other))
    except OSError:
        pass
