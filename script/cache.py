"""The on-disk compile cache of ``@script(cache=True)``.

An entry is a saved module (script.saved's format, checked the same way) holding one
specialization of one function, in a file named by a key: the SHA-256 of every input the
compiled code depends on —

- the function's source text, its defaults, and for every name it reads from outside
  (module globals, closure cells, builtins, ``mod.attr`` chains; found in the source, so a
  superset of what the frontend reads) the value it has now: constants by value, modules
  and classes by name, Python and ``@script`` functions by their own source, defaults and
  names, transitively — so editing a callee in another file, or a global constant,
  changes the key, and editing an unrelated function in the same file does not;
- the argument types, `opt`, `passes`, `boundscheck`, `interruptible`, `nogil` and
  SCRIPT_DISABLE_PASSES;
- the compiler (its version and the sizes and times of its own files), LLVM's version, the
  Python ABI, the target triple, CPU name and features.

Where: ``$SCRIPT_CACHE_DIR`` when set; else ``__pycache__`` beside the source file, or the
user's cache directory (``$XDG_CACHE_HOME/script``, ``~/.cache/script``, ``~/Library/Caches/
script``, ``%LOCALAPPDATA%\\script\\Cache``) when that cannot be written. A lookup tries the
same places in the same order.

Invariants: a hit links the entry's object code and compiles nothing; a wrong or stale
entry is never used (its key, types and target are checked against the running process);
a corrupt one is ignored with a RuntimeWarning, and rebuilt; writes are atomic (temp file
and rename), so concurrent processes never see or leave a partial entry; writing an entry
removes the entries it replaces (same function and signature, another key). Failing to
write is silent: the cache never turns a compile into an error.
"""

from __future__ import annotations

import ast
import builtins
import functools
import os
import sys
import types
import warnings

from script.compiler import Specialization, compile_specialization, disabled_passes
from script.errors import CompileError, LoadError
from script.saved_archive import read_archive_bytes, sha256, write_archive
from script.saved_manifest import (FunctionEntry, Param, host_manifest, host_target, llvm_version,
                                   manifest_json, object_code_mismatch, parse_manifest,
                                   python_abi)

KEY_VERSION = 1
MAX_DEPENDENCIES = 256          # functions walked for one key; beyond it, no caching


class _Uncacheable(Exception):
    pass


def cached_specialization(info, arg_types: tuple, opt: int = 2, passes=None,
                          boundscheck: bool = True, interruptible: bool = True,
                          nogil: bool = True) -> Specialization:
    """`compile_specialization`, through the cache. Called under the frontend's lock."""
    options = dict(boundscheck=boundscheck, interruptible=interruptible, nogil=nogil)
    # Options at their defaults add nothing to the key or name, so entries stay as they were.
    flags = "".join(f"-no{k}" for k, v in options.items() if not v)
    try:
        key = cache_key(info, arg_types, opt, passes) + flags
    except Exception:  # noqa: BLE001 - _Uncacheable, or a value the key cannot describe
        return compile_specialization(info, arg_types, opt, passes, **options)
    name = entry_name(info, arg_types, opt, (passes, flags) if flags else passes, key)
    spec = _lookup(name, key, arg_types, _directories(info.filename))
    if spec is None:
        spec = compile_specialization(info, arg_types, opt, passes, **options)
        try:
            _store(name, key, info, spec, _directories(info.filename))
        except Exception:  # noqa: BLE001 - e.g. a type this format cannot hold yet
            pass
    return spec


# ---- the key ------------------------------------------------------------------------------

def cache_key(info, arg_types: tuple, opt: int, passes) -> str:
    """The hex SHA-256 of everything the compiled code of `info` for `arg_types` depends on."""
    from script import __version__
    target = host_target()
    lines = [f"script-cache {KEY_VERSION}", f"compiler {__version__} {compiler_fingerprint()}",
             f"llvm {llvm_version()}", f"python {python_abi()}",
             f"target {target.triple} {target.cpu} {target.features}",
             f"options opt={opt} passes={passes!r} disabled={disabled_passes()!r}",
             f"types {', '.join(map(str, arg_types))}"]
    _Dependencies(lines).function(info.py_func)
    return sha256("\n".join(lines).encode("utf-8", "backslashreplace"))


@functools.cache
def compiler_fingerprint() -> str:
    """The compiler's own files (path, size, modification time): a changed compiler misses."""
    root = os.path.dirname(os.path.abspath(__file__))
    lines = []
    for folder, dirs, files in os.walk(root):
        dirs.sort()
        for name in sorted(files):
            if name.endswith(".py"):
                path = os.path.join(folder, name)
                st = os.stat(path)
                lines.append(f"{os.path.relpath(path, root)} {st.st_size} {st.st_mtime_ns}")
    return sha256("\n".join(lines).encode("utf-8", "backslashreplace"))[:16]


class _Dependencies:
    """Appends to `lines` a description of each function reached from the root: its source,
    defaults, and the value of every outside name it reads (see the module docstring)."""

    def __init__(self, lines: list):
        self.lines = lines
        self.seen: dict[int, int] = {}

    def function(self, py_func) -> str:
        from script.frontend.specialize import CONTEXT
        index = self.seen.get(id(py_func))
        if index is not None:
            return f"function #{index}"
        if len(self.seen) >= MAX_DEPENDENCIES:
            raise _Uncacheable
        index = self.seen[id(py_func)] = len(self.seen)
        label = f"function #{index} {py_func.__qualname__}"
        try:
            info = CONTEXT.info_for(py_func)
        except CompileError:           # cannot be compiled: a call to it will fail anyway
            self.lines.append(f"{label} without source")
            return f"function #{index}"
        source = sha256(info.source.encode("utf-8", "backslashreplace"))
        self.lines.append(f"{label} {info.filename} {source}")
        for name, value in info.defaults.items():
            self.lines.append(f"  #{index} default {name} = {self.value(value)}")
        for path in _outside_names(info):
            self.lines.append(f"  #{index} {path} = {self.value(_resolve(info, path))}")
        return f"function #{index}"

    def value(self, obj, depth: int = 0) -> str:
        from script.frontend.specialize import CONTEXT
        if obj is _MISSING:
            return "missing"
        if obj is None or type(obj) in (bool, int, float):
            return f"{type(obj).__name__} {obj!r}"
        if type(obj) is tuple and depth < 16:
            return "(" + ", ".join(self.value(x, depth + 1) for x in obj) + ")"
        info = CONTEXT.script_info(obj)
        if info is not None:
            return self.function(info.py_func)
        if isinstance(obj, types.FunctionType):
            return self.function(obj)
        if isinstance(obj, types.ModuleType):
            return f"module {obj.__name__}"
        if isinstance(obj, (type, types.BuiltinFunctionType)):
            return f"{type(obj).__name__} {getattr(obj, '__module__', None)}.{obj.__qualname__}"
        try:
            text = repr(obj)
        except Exception:  # noqa: BLE001 - an object whose repr fails: never reuse
            raise _Uncacheable from None
        return f"object {type(obj).__module__}.{type(obj).__qualname__} {text[:1000]}"


_MISSING = object()


def _outside_names(info) -> list[str]:
    """Every name, and ``a.b.c`` chain, that `info`'s signature and body read from outside
    the function (not decorators: they do not reach compiled code)."""
    node = info.node
    roots = [node.args, *node.body] + ([node.returns] if node.returns is not None else [])
    paths = set()
    for root in roots:
        for n in ast.walk(root):
            parts = []
            while isinstance(n, ast.Attribute):
                parts.append(n.attr)
                n = n.value
            if isinstance(n, ast.Name) and n.id not in info.local_names:
                paths.add(".".join([n.id, *reversed(parts)]))
    return sorted(paths)


def _resolve(info, path: str):
    """What `path` names for `info` now: closure cell, then module global, then builtin."""
    first, *rest = path.split(".")
    found, obj = info.global_value(first)
    if not found:
        if not hasattr(builtins, first):
            return _MISSING
        obj = getattr(builtins, first)
    for attr in rest:
        try:
            obj = getattr(obj, attr)
        except Exception:  # noqa: BLE001 - whatever getattr raises, the name is not there
            return _MISSING
    return obj


# ---- files --------------------------------------------------------------------------------

def entry_name(info, arg_types: tuple, opt: int, passes, key: str) -> str:
    """``<file stem>.<qualname>.<slot>.<key>.smod``: the slot (function, file, types and
    options) is what an entry replaces older entries of."""
    slot = sha256(f"{info.filename}\n{info.qualname}\n{arg_types}\n{opt}\n{passes}"
                  .encode("utf-8", "backslashreplace"))[:16]
    stem = os.path.splitext(os.path.basename(info.filename))[0]
    return f"{stem}.{info.qualname}.{slot}.{key[:32]}.smod"


def user_cache_dir() -> str:
    if sys.platform == "win32":
        base = os.environ.get("LOCALAPPDATA") or os.path.expanduser("~/AppData/Local")
        return os.path.join(base, "script", "Cache")
    if sys.platform == "darwin":
        return os.path.expanduser("~/Library/Caches/script")
    return os.path.join(os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache"), "script")


def _directories(source_file: str) -> list[str]:
    override = os.environ.get("SCRIPT_CACHE_DIR")
    if override:
        return [override]
    beside = os.path.join(os.path.dirname(os.path.abspath(source_file)), "__pycache__")
    return [beside, user_cache_dir()]


def _lookup(name: str, key: str, arg_types: tuple, directories: list) -> Specialization | None:
    from script.saved import load_specialization
    for directory in directories:
        path = os.path.join(directory, name)
        try:
            with open(path, "rb") as f:
                data = f.read()
        except OSError:
            continue
        try:
            archive = read_archive_bytes(data, path)
            manifest = parse_manifest(archive.manifest, path)
            records = [s for f in manifest.functions for s in f.specializations]
            if manifest.cache_key != key or len(records) != 1 or records[0].arg_types != arg_types \
                    or records[0].object is None or object_code_mismatch(manifest) is not None:
                raise LoadError("it does not describe this function, key and CPU")
            return load_specialization(archive, records[0], use_object=True)
        except LoadError as e:
            warnings.warn(f"script: ignoring a corrupt cache entry {path}: {e}; compiling again",
                          RuntimeWarning, stacklevel=2)
    return None


def _store(name: str, key: str, info, spec: Specialization, directories: list) -> None:
    from script.saved import spec_record
    record, members = spec_record(spec, "f0/s0")
    params = tuple(Param(n, t) for n, t in zip(info.param_names, info.param_types))
    entry = FunctionEntry("function", info.qualname, info.py_func.__module__ or "", None, params,
                          (), (record,))
    manifest = manifest_json(host_manifest((entry,), cache_key=key))
    for directory in directories:
        try:
            os.makedirs(directory, exist_ok=True)
            write_archive(os.path.join(directory, name), manifest, members)
        except OSError:
            continue
        _remove_replaced(directory, name)
        return


def _remove_replaced(directory: str, name: str) -> None:
    slot_prefix = name.rsplit(".", 2)[0] + "."
    try:
        for other in os.listdir(directory):
            if other.startswith(slot_prefix) and other.endswith(".smod") and other != name:
                os.unlink(os.path.join(directory, other))
    except OSError:
        pass
