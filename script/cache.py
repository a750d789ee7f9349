"""The on-disk compile cache of ``@script(cache=True)``.

An entry (a flat file, checked by its BLAKE2b MAC under the user's key, read without zipfile or json: "entries"
below) holds one specialization of one function: its IR texts and object code, as a saved
module has them, in a file named by its slot (the function's file and qualified name, the
argument types and the options): writing an entry replaces the slot's previous one. It
holds the key: the digest (script.store `digest`) of every input the compiled code depends on —

- the function's source text, its defaults, and for every name it reads from outside
  (module globals, closure cells, builtins, ``mod.attr`` chains; found in the source, so a
  superset of what the frontend reads) the value it has now: constants by value, modules
  and classes by name, Python and ``@script`` functions by their own source, defaults and
  names, transitively — so editing a callee in another file, or a global constant,
  changes the key, and editing an unrelated function in the same file does not;
- the argument types, `opt`, `passes`, `boundscheck`, `interruptible`, `nogil`, `fastmath`, `parallel` and
  SCRIPT_DISABLE_PASSES;
- the compiler (its version, and the sizes and times of its own files in a checkout or its
  install's RECORD: store `compiler_fingerprint`), LLVM's version, the Python ABI, the
  target triple, CPU name and features (store `host_target`: read without LLVM).

Describing a function needs its source text and the outside names it reads, which parsing
gives (the frontend's FunctionInfo). So an entry also records, per function the key
describes (`Source`), where it is, the digest of its file and of its
source, and its outside names. A lookup first describes the functions from that record
(`quick`): while each function is at the recorded place of a file with the recorded
digest, its source and names are the recorded ones, and the values of the names are read
from the live objects, as always. Only when that fails (a file changed, a new callee) are
the functions parsed. Either way the key is rebuilt in full and compared: the record saves
the parsing, never the check. A hit at decoration then needs neither the frontend nor LLVM
(script.dispatcher defers the function's FunctionInfo until something needs it), and a hit
imports two modules: this one and script.loadpath, which links the object code (not
zipfile, json, hashlib or the manifest, nor any module of Python's that `import script` has
not: tests/test_loader.py). A fresh process pays ~0.3 ms for each module it imports, so
what only a miss runs — parsing functions for their outside names, writing entries — is in
script.cache_write.

Where (`Request.directories`; only folders of the user's that no one else may write in:
docs/saved-modules.md, "Trust"): ``$SCRIPT_CACHE_DIR`` when set; else ``__pycache__``
beside the source file, or the user's cache directory (``$XDG_CACHE_HOME/script``, ``~/.cache/script``, ``~/Library/Caches/
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

from script import loadpath, store
from script.errors import CompileError, LoadError
from script.store import (__version__, compiler_fingerprint, digest, mac, python_abi, read_file, sha256,
                          user_cache_dir)
from script.ir import types as T

__all__ = ["cached_specialization", "quick_lookup", "user_cache_dir", "compiler_fingerprint"]

KEY_VERSION = 2
SUFFIX = store.CACHE_SUFFIX     # (a leaf's: script.cache_write writes entries)
MAX_DEPENDENCIES = 256          # functions walked for one key; beyond it, no caching


class Uncacheable(Exception):
    pass


# The entry's record does not describe the functions as they are: parse them. Handled where
# Uncacheable is, and the same class: each class a hit's import makes costs ~70k instructions.
_NotQuick = Uncacheable


def host_target() -> tuple:
    """What this process compiles for: LLVM's triple, CPU name and features (script.store:
    recorded per machine, read without LLVM)."""
    return store.host_target()[:3]


def llvm_version() -> str:
    return store.host_target()[3]


def quick_lookup(py_func, opt: int = 2, passes=None, boundscheck: bool = True,
                 interruptible: bool = True, nogil: bool = True, fastmath: bool = False, parallel: bool = False):
    """``(arg_types, specialization)`` of an annotated `py_func` from the cache when its
    entry's record still describes it (the module docstring), else None; parses nothing
    and compiles nothing. For decoration: what is not found here goes through
    `cached_specialization`, which reports corrupt entries."""
    arg_types = _annotated_types(py_func)
    if arg_types is None:
        return None
    request = Request(py_func, arg_types, opt, passes, boundscheck, interruptible, nogil,
                      fastmath, parallel)
    try:
        entry = _read(request, warn=False)
        return None if entry is None else (arg_types, _quick(request, entry))
    except (Uncacheable, LoadError):
        return None
    except Exception:  # noqa: BLE001 - a value the key cannot describe: the slow path decides
        return None


def cached_specialization(info, arg_types: tuple, opt: int = 2, passes=None,
                          boundscheck: bool = True, interruptible: bool = True,
                          nogil: bool = True, fastmath: bool = False, parallel: bool = False):
    """`compile_specialization`, through the cache. Called under the frontend's lock."""
    from script.compiler import compile_specialization
    options = dict(boundscheck=boundscheck, interruptible=interruptible, nogil=nogil,
                   fastmath=fastmath, parallel=parallel)
    from script.dispatcher import numpy_scalar_params
    if getattr(info, "hidden_globals", ()) or getattr(info, "shared_defaults", ()):
        # its module's state, not its source (global_writes.py); a default object every call
        # from Python is checked against (frontend/shared_defaults.py), which a hit would skip
        return compile_specialization(info, arg_types, opt, passes, **options)
    request = Request(info.py_func, arg_types, opt, passes, boundscheck, interruptible, nogil,
                      fastmath, parallel)
    request.numpy_scalars = numpy_scalar_params(info.param_types, arg_types)
    entry = _read(request, warn=True)
    if entry is not None:
        try:
            return _quick(request, entry)
        except Uncacheable:
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
    except Exception:  # noqa: BLE001 - Uncacheable, or a value the key cannot describe
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
        from script.cache_write import store_entry
        # The running process's, as this module sees them (tests change them here).
        host = (host_target(), llvm_version(), python_abi())
        store_entry(request, key, description.sources, info, spec, host)
    except Exception:  # noqa: BLE001 - e.g. a type this format cannot hold yet
        pass
    return spec


class Request:
    """One specialization asked of the cache: the function, its argument types, options, and
    the positions of the parameters its entry point takes as NumPy scalars (none for an
    annotated function; script.dispatcher `numpy_scalar_params`: the source and the argument
    types, which the key covers, decide them, so the key need not name them)."""

    numpy_scalars: tuple = ()

    def __init__(self, py_func, arg_types, opt, passes, boundscheck, interruptible, nogil,
                 fastmath=False, parallel=False):
        self.py_func, self.arg_types, self.opt, self.passes = py_func, tuple(arg_types), opt, passes
        options = dict(boundscheck=boundscheck, interruptible=interruptible, nogil=nogil)
        # Options at their defaults add nothing, so the entries of the defaults keep their names.
        self.flags = "".join(f"-no{k}" for k, v in options.items() if not v) + \
            ("-fastmath" if fastmath else "") + ("-parallel" if parallel else "")

    def header(self) -> list:
        """The key's lines about everything but the functions' text and names."""
        triple, cpu, features = host_target()
        # SCRIPT_DISABLE_PASSES as written (compiler.disabled_passes reads it the same way).
        disabled = os.environ.get("SCRIPT_DISABLE_PASSES", "")
        return [f"script-cache {KEY_VERSION}", f"compiler {__version__} {compiler_fingerprint()}",
                f"llvm {llvm_version()}", f"python {python_abi()}",
                f"target {triple} {cpu} {features}",
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
        """Where the entry may be, in order: `store.cache_root` (checked: the user's own,
        closed to others) when $SCRIPT_CACHE_DIR is set; else ``__pycache__`` beside the
        source, when it is absent or the user's own and closed to others (the next otherwise,
        silently: a folder of another user's sources is not a cache of this user's), then
        `cache_root`."""
        if os.environ.get("SCRIPT_CACHE_DIR"):
            return [store.cache_root()]
        source = self.py_func.__code__.co_filename
        beside = os.path.join(os.path.dirname(os.path.abspath(source)), "__pycache__")
        try:
            private = store.not_private(os.stat(beside)) is None
        except OSError:
            private = True              # absent: made 0700 when written
        return ([beside] if private else []) + [store.cache_root()]


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
            raise Uncacheable
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
        from script.pyhooks.named_instance import lookup_class
        stack = list(arg_types)
        while stack:
            t = stack.pop()
            if isinstance(t, T.NamedTupleType):
                self.lines.append(f"argument class {self.value(lookup_class(t.key))}")
            if isinstance(t, T.TupleType):
                stack.extend(t.elems)
            elif isinstance(t, T.ListType):
                stack.append(T.contents(t))

    def user_class(self, cls: type) -> str | None:
        """A named tuple or record class compiled code reads (frontend named_tuples.py,
        records.py): its fields, defaults, constants and every function it defines, whose
        sources join the key as a called function's do. None for other classes."""
        if cls.__module__ == "builtins":
            return None
        from script.pyhooks.named_instance import is_named_tuple_class, is_record_class
        if not (is_named_tuple_class(cls) or is_record_class(cls)):
            return None
        if id(cls) in self.classes:
            return f"class #{self.classes[id(cls)]}"
        self.classes[id(cls)] = len(self.classes)
        parts = [f"class #{self.classes[id(cls)]} {cls.__module__}.{cls.__qualname__}",
                 f"bases {[self.user_class(b) or b.__qualname__ for b in cls.__bases__]}"]
        for name in ("_fields", "_field_defaults", "__annotations__"):
            if name in vars(cls):
                parts.append(f"{name} {vars(cls)[name]!r}")
        for f in getattr(cls, "__dataclass_fields__", {}).values():
            parts.append(f"field {f.name} {f.type!r} {f.default!r} {f.init}")
        for name, member in sorted(vars(cls).items()):
            if isinstance(member, (staticmethod, classmethod)):
                member = member.__func__
            if isinstance(member, property):        # (docs/records.md: properties run compiled)
                parts += [f"{name}.{k} {self.function(f)}" for k, f in (("get", member.fget), ("set", member.fset))
                          if isinstance(f, types.FunctionType)]
                continue
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
        from script.cache_write import outside_names
        from script.frontend.specialize import CONTEXT
        before = _file_digest(code.co_filename)
        try:
            info = CONTEXT.info_for(py_func)
        except CompileError:
            self.sources = None        # nothing to record: lookups will parse
            return None
        names = outside_names(info)
        if names is None:
            raise Uncacheable
        source = Source(py_func.__qualname__, info.filename, code.co_firstlineno,
                        before or "", digest(info.source.encode("utf-8", "backslashreplace")),
                        tuple(names))
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
            raise Uncacheable from None
        return f"object {type(obj).__module__}.{type(obj).__qualname__} {text[:1000]}"


_MISSING = object()


def _file_digest(path: str) -> str | None:
    try:
        return digest(read_file(path, 1 << 30))
    except OSError:
        return None


def _defaults(py_func) -> dict:
    """Parameter name -> default, from the last parameter back (as the frontend's
    FunctionInfo.defaults)."""
    code = py_func.__code__
    names = code.co_varnames[:code.co_argcount]
    return dict(zip(reversed(names), reversed(py_func.__defaults__ or ())))


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
#
# An entry is a flat file that a hit reads with one ``open`` and one digest (loadpath
# `digest`), without zipfile, json or the manifest's checks (docs/saved-modules.md, "The
# compile cache"):
#
#     script-cache-entry 3\n          the format and its version (`MAGIC`)
#     <64 hex digits>\n               digest of everything below this line
#     <text size> <ir> <ssa> <object>\n   decimal byte counts (ssa -1 when absent)
#     <text>                          UTF-8 lines "field<TAB>value<TAB>..." (below)
#     <ir><ssa><object>               the members' bytes, in that order
#
# Fields of the text, each once, in any order (readers ignore fields they do not know):
# ``key`` (the cache key), ``compiler`` (version), ``python`` (ABI), ``llvm``, ``target``
# (triple, CPU, features), ``qualname``, ``types`` (argument types, printed as the IR prints
# them, then the return type), ``entry``, ``opt_level``, ``function`` (one per IR function,
# entry first, followed by the ones it calls), and ``source`` (one per function the key
# describes, in the key's order: qualified name, file, first line, digest of the file and of
# the source text, outside names: `Source`). script.cache_write writes them.
#
# The digest is a MAC (loadpath `mac`: BLAKE2b keyed with the user's key) and covers every
# byte after it, so truncation, a flipped bit, a stray write or an entry another user made
# or re-hashed is found before anything is parsed; a file of another format or version, a digest that does
# not match, a malformed field: every failure is a `LoadError`, which the cache reports and
# replaces. Like a saved module, the file is data: nothing in it is evaluated, and the only
# code that runs is the object code it carries.

MAGIC = store.CACHE_MAGIC
_PREFIX = b"script-cache-entry "        # any version: another one is reported as such
_DIGEST = 64
MAX_ENTRY_BYTES = 256 << 20
MEMBERS = ("ir", "ssa", "object")


class Source:
    """A function a cache key describes, as the entry records it (script.cache)."""

    __slots__ = ("qualname", "file", "line", "file_digest", "source_digest", "names")

    def __init__(self, qualname: str, file: str, line: int, file_digest: str,
                 source_digest: str, names: tuple):
        self.qualname, self.file, self.line = qualname, file, line
        self.file_digest, self.source_digest, self.names = file_digest, source_digest, names

    def fields(self) -> list:
        return [self.qualname, self.file, str(self.line), self.file_digest, self.source_digest,
                *self.names]

    def __eq__(self, other):
        return isinstance(other, Source) and self.fields() == other.fields()


class Member:
    """A member of an entry: `saved_manifest.Member`'s fields. `sha256` is None: the entry's
    own digest, checked when it was read, covers the bytes."""

    __slots__ = ("path", "size", "sha256")

    def __init__(self, path: str, size: int):
        self.path, self.size, self.sha256 = path, size, None


class Record:
    """The specialization an entry holds: the fields of `saved_manifest.SpecEntry` that
    loading and saving read (script.saved `LoadedSpecialization`, `spec_record`)."""

    __slots__ = ("arg_types", "ret_type", "entry", "opt_level", "functions", "calls", "ir",
                 "ssa", "object")

    def __init__(self, arg_types, ret_type, entry, opt_level, functions, calls, ir, ssa, obj):
        self.arg_types, self.ret_type, self.entry, self.opt_level = arg_types, ret_type, entry, \
            opt_level
        self.functions, self.calls, self.ir, self.ssa, self.object = functions, calls, ir, ssa, obj


class Entry:
    """A read entry: its fields, and its members handed out like `saved_archive.Archive`'s
    (`check`, `member`, `text`), from memory."""

    def __init__(self, origin: str, fields: dict, record: Record, sources: tuple,
                 members: dict):
        self.origin = origin
        self.path = origin
        self.key = fields["key"][0]
        self.compiler, self.python_abi, self.llvm = (fields[k][0] for k in
                                                     ("compiler", "python", "llvm"))
        self.target = tuple(fields["target"])
        self.qualname = fields["qualname"][0]
        self.record = record
        self.sources = sources
        self._members = members

    def check(self, name: str, size: int) -> None:
        data = self._members.get(name)
        if data is None or len(data) != size:
            raise LoadError(f"{self.origin}: member {name!r} is missing or has another size")

    def member(self, name: str, size: int, digest=None) -> bytes:
        self.check(name, size)
        data = self._members[name]
        if digest is not None:
            if sha256(data) != digest:
                raise LoadError(f"{self.origin}: member {name!r} is corrupt")
        return data

    def text(self, name: str, size: int, digest=None) -> str:
        try:
            return self.member(name, size, digest).decode("utf-8")
        except UnicodeDecodeError as e:
            raise LoadError(f"{self.origin}: member {name!r} is not UTF-8 text ({e})") from None


def _read(request: Request, warn: bool):
    """The slot's entry (an `Entry`), checked as one of this function and these
    argument types; None when there is none, or it is corrupt (a RuntimeWarning if `warn`)."""
    name = request.name()
    for directory in request.directories():
        path = os.path.join(directory, name)
        try:
            data = read_file(path, MAX_ENTRY_BYTES, touch=True)
        except OSError:
            continue
        try:
            entry = decode(data, path)
            if entry.record.arg_types != request.arg_types \
                    or entry.qualname != request.py_func.__qualname__:
                raise LoadError("it is not an entry of this function and these types")
            return entry
        except LoadError as e:
            if warn:
                _warn_corrupt(path, e)
    return None


def _quick(request: Request, entry):
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
    # The key covers all of these; a mismatch means an entry that lies about its key.
    if (entry.compiler, entry.python_abi, entry.target, entry.llvm) != \
            (__version__, python_abi(), tuple(host_target()), llvm_version()):
        raise LoadError("its object code was compiled for another compiler, Python or CPU")
    return loadpath.load_specialization(entry, entry.record, use_object=True,
                                        numpy_scalars=numpy_scalars)


def _warn_corrupt(path: str, error: Exception) -> None:
    import warnings             # not before: few processes warn, and importing it costs one
    warnings.warn(f"script: ignoring a corrupt cache entry {path}: {error}; compiling again",
                  RuntimeWarning, stacklevel=4)


def decode(data: bytes, origin: str) -> Entry:
    """The entry in `data` (a file's bytes), every byte checked against its digest and every
    field parsed; LoadError naming what is wrong."""
    if not data.startswith(MAGIC):
        if data.startswith(_PREFIX):
            version = data[len(_PREFIX):data.find(b"\n", 0, 64)][:16]
            raise LoadError(f"{origin}: a cache entry of another version "
                            f"({version.decode('ascii', 'replace')!r}; this script writes "
                            f"{MAGIC.strip().decode()!r})")
        raise LoadError(f"{origin}: not a cache entry of this format")
    if len(data) > MAX_ENTRY_BYTES:
        raise LoadError(f"{origin}: larger than {MAX_ENTRY_BYTES} bytes")
    start = len(MAGIC) + _DIGEST + 1
    body = data[start:]
    if len(data) < start or data[start - 1:start] != b"\n" \
            or data[len(MAGIC):start - 1] != mac(body).encode("ascii"):
        raise LoadError(f"{origin}: the entry is damaged or not this user's (its MAC does not "
                        "match)")
    try:
        entry = _parse(body, origin)
    except LoadError:
        raise
    except (ValueError, KeyError, IndexError) as e:
        raise LoadError(f"{origin}: malformed cache entry ({type(e).__name__}: {e})") from None
    return entry


def _parse(body: bytes, origin: str) -> Entry:
    end = body.index(b"\n", 0, 128)
    sizes = [int(s) for s in body[:end].split(b" ")]
    if len(sizes) != 4 or min(sizes[0], sizes[1], sizes[3]) < 0 or sizes[2] < -1 \
            or end + 1 + sum(max(s, 0) for s in sizes) != len(body):
        raise LoadError(f"{origin}: malformed cache entry (its sizes do not add up)")
    at = end + 1
    text = body[at:at + sizes[0]].decode("utf-8")
    at += sizes[0]
    members = {}
    for kind, size in zip(MEMBERS, sizes[1:]):
        if size >= 0:
            members[kind] = body[at:at + size]
            at += size
    fields: dict = {}
    functions, calls, sources = [], {}, []
    if not text.endswith("\n"):
        raise ValueError("the text does not end a line")
    for line in text[:-1].split("\n"):
        name, *values = line.split("\t")
        if name == "function":
            functions.append(values[0])
            calls[values[0]] = tuple(values[1:])
        elif name == "source":
            q, file, line_no, file_sha, source_sha, *names = values
            if len(file_sha) != 64 or len(source_sha) != 64:
                raise ValueError("a source's digests are not 64 hex digits")
            sources.append(Source(q, file, int(line_no), file_sha, source_sha, tuple(names)))
        elif name in fields:
            raise ValueError(f"field {name!r} appears twice")
        else:
            fields[name] = values
    for name, count in (("key", 1), ("compiler", 1), ("python", 1), ("llvm", 1), ("target", 3),
                        ("qualname", 1), ("entry", 1), ("opt_level", 1)):
        if len(fields.get(name, ())) != count:
            raise ValueError(f"field {name!r} is missing or malformed")
    types = [parse_type(t) for t in fields.get("types", ())]
    entry = fields["entry"][0]
    opt_level = int(fields["opt_level"][0])
    if not types or not functions or functions[0] != entry or len(set(functions)) != \
            len(functions) or not 0 <= opt_level <= 3 or "ir" not in members \
            or "object" not in members \
            or any(not set(c) <= set(functions) for c in calls.values()):
        raise ValueError("its types, functions or members are inconsistent")
    record = Record(tuple(types[:-1]), types[-1], entry, opt_level, tuple(functions), calls,
                    Member("ir", len(members["ir"])),
                    Member("ssa", len(members["ssa"])) if "ssa" in members else None,
                    Member("object", len(members["object"])))
    return Entry(origin, fields, record, tuple(sources), members)


def parse_type(text: str) -> T.Type:
    """The type `str(t)` printed as `text` (scalars, tuples, arrays, lists); ValueError for
    anything else."""
    t = _parse_type(text, 0)
    if str(t) != text:
        raise ValueError(f"{text!r} is not a type as script prints it")
    return t


def _split_top(inner: str) -> list[str]:
    """`inner` split at its commas outside brackets."""
    parts, level, start = [], 0, 0
    for i, c in enumerate(inner):
        if c in "([":
            level += 1
        elif c in ")]":
            level -= 1
        elif c == "," and level == 0:
            parts.append(inner[start:i].strip())
            start = i + 1
    last = inner[start:].strip()
    if last:
        parts.append(last)
    return parts


def _parse_named(inner: str, depth: int) -> T.NamedTupleType:
    """``"mod:P", "x": i64, ...`` (types.NamedTupleType's spelling: quoted names, which are
    identifiers, so no escapes: not json, which a hit does not import)."""
    key, *parts = _split_top(inner)
    fields, elems = [], []
    for part in parts:
        name, sep, t = part.partition(": ")
        if not sep:
            raise ValueError(f"{part!r} is not a named tuple field")
        fields.append(_unquote(name))
        elems.append(_parse_type(t, depth + 1))
    return T.NamedTupleType(_unquote(key), fields, elems)


def _unquote(text: str) -> str:
    if len(text) < 2 or text[0] != '"' or text[-1] != '"' or "\\" in text or '"' in text[1:-1]:
        raise ValueError(f"{text!r} is not a quoted name")
    return text[1:-1]


def _parse_type(text: str, depth: int) -> T.Type:
    if depth > 16:
        raise ValueError("a type nested too deeply")
    scalar = T.parse_scalar(text)
    if scalar is not None:
        return scalar
    if text.startswith("(") and text.endswith(")"):
        return T.TupleType([_parse_type(p, depth + 1) for p in _split_top(text[1:-1])])
    if text.startswith("named[") and text.endswith("]"):
        return _parse_named(text[6:-1], depth)
    if text.startswith("opt[") and text.endswith("]"):
        value = _parse_type(text[4:-1], depth + 1)
        if not T.is_optional_value(value):
            raise ValueError(f"optionals of {value} are not supported")
        return T.OptionalType(value)
    if text.startswith("set[") and text.endswith("]"):
        key = _parse_type(text[4:-1], depth + 1)
        if not T.is_key_type(key):
            raise ValueError(f"sets of {key} are not supported")
        return T.SetType(key)
    if text.startswith("dict[") and text.endswith("]"):
        parts = _split_top(text[5:-1])
        if len(parts) != 2:
            raise ValueError(f"{text!r} is not a dict type")
        key, value = (_parse_type(p, depth + 1) for p in parts)
        if not T.is_key_type(key) or not T.is_list_element(value):
            raise ValueError(f"dicts of {key}, {value} are not supported")
        return T.DictType(key, value)
    if text.startswith("list[") and text.endswith("]"):
        elem = _parse_type(text[5:-1], depth + 1)
        if not T.is_list_element(elem):
            raise ValueError(f"lists of {elem} are not supported")
        return T.ListType(elem)
    if text.startswith('iter["') and text.endswith("]") and '", ' in text:
        kind, _, rest = text[6:-1].partition('", ')
        elem = _parse_type(rest, depth + 1)
        if not kind.isidentifier() or not T.is_list_element(elem):
            raise ValueError(f"iterables {kind!r} of {elem} are not supported")
        return T.IterType(elem, kind)
    if text.startswith("tuple[") and text.endswith(", ...]"):
        elem = _parse_type(text[6:-6], depth + 1)
        if not T.is_list_element(elem):
            raise ValueError(f"tuples of {elem} are not supported")
        return T.VarTupleType(elem)
    dtype, bracket, dims = text.partition("[")
    dtype_type = T.parse_scalar(dtype)
    if bracket and dims.endswith("]") and dtype_type is not None and dtype_type.is_numeric():
        parts = dims[:-1].split(",")
        layout = "C" if parts[-1] == "::1" else "A"
        if 1 <= len(parts) <= 32:
            return T.ArrayType(dtype_type, len(parts), layout)
    raise ValueError(f"{text!r} is not a type this version of script knows")
