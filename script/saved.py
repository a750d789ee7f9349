"""`script.save` and `script.load`: compiled functions in one file, called without their source.

    script.save([collatz, poly], "kernels.smod")      # or one function, or {name: function}
    m = script.load("kernels.smod")                   # another process, source file gone
    m.collatz(27)

A saved module is a zip archive of data (saved_archive: format, integrity) described by a
JSON manifest (saved_manifest: fields, checks): for each specialization of each function its
optimized IR text, the frontend's SSA text, and the object code compiled for this CPU. Nothing
in it is evaluated by Python; the only code that runs is the compiled code it describes.

`load` checks the archive, the manifest, every member's size and the object code's SHA-256
before it runs anything, then for each specialization either links its object code — when
the archive is signed under a key the caller trusts or the caller passes object_code=True
(saved_trust), and the compiler version, the Python ABI, the triple and the CPU match
(saved_manifest.object_code_mismatch) — or parses its IR (hash-checked, always verified,
loadpath `secure_foreign_ir`) and compiles it again for this CPU. `inspect` reads the
manifest and texts only, linking nothing (`scriptc inspect`). Object code is linked by script.loadpath, without LLVM, where
it can. IR texts not compiled are hash-checked when first shown.
The loaded functions are objects of the same type as `@script`'s, with
the same dispatch, argument checks, exceptions, keyword and default arguments (an
unannotated parameter of a narrow type, i32 or f32, takes NumPy scalars only, as it did
before saving: the manifest's parameters say which are annotated, script.dispatcher
`numpy_scalar_params`); they cannot compile new specializations, having no source.
Kernels (`@script.kernel`) are saved and loaded by script.saved_cuda: IR, PTX per
architecture and the CPU path's object code. Every failure is a `LoadError`.
"""

from __future__ import annotations

import os
import types

from script.loadpath import LoadedSpecialization, load_specialization

# The container and the manifest (saved_archive, saved_manifest: zipfile, json, re, typing)
# are imported where a saved module is read or written, not here. The annotations naming
# their classes (Archive, Member, SpecEntry...) are never evaluated.

__all__ = ["save", "load", "inspect", "SavedModule", "LoadedSpecialization"]


# ---- the loaded module --------------------------------------------------------------------

class SavedModule(types.ModuleType):
    """What `script.load` returns: a module whose attributes are the saved functions.

    `__manifest__` is the checked `Manifest`; `__recompiled__` is None when the object code
    was used, else why the functions (and the kernels' CPU code) were compiled again from
    their IR. `__kernels__` names the kernels (`script.saved_cuda.SavedKernel`), which are
    in `__all__` too. `str()` (and so `print`) gives a summary: functions, kernels,
    signatures, target, compiler and Python versions."""

    def __init__(self, path: str, manifest: Manifest, functions: dict, recompiled: str | None,
                 kernels: dict | None = None):
        super().__init__(os.path.splitext(os.path.basename(path))[0],
                         f"script saved module loaded from {path}")
        kernels = kernels or {}
        self.__file__ = path
        self.__manifest__ = manifest
        self.__recompiled__ = recompiled
        self.__all__ = list(functions) + list(kernels)
        self.__kernels__ = list(kernels)
        for name, fn in {**functions, **kernels}.items():
            setattr(self, name, fn)

    def __reduce__(self):
        """Pickled by its functions' IR (script.pickling, reached through script.dispatcher's
        `Layers`: it imports this module)."""
        from script.dispatcher import Layers
        return Layers.reduce_module(self)

    def __repr__(self):
        n, k = len(self.__all__) - len(self.__kernels__), len(self.__kernels__)
        return (f"<script saved module {self.__name__!r} from {self.__file__!r}: {n} "
                f"function{'s' * (n != 1)}" + (f", {k} kernel{'s' * (k != 1)}>" if k else ">"))

    def __str__(self):
        m = self.__manifest__
        lines = [f"script saved module {self.__name__!r} ({self.__file__})",
                 f"  saved by script {m.compiler_version} (format {m.format_version}) with CPython "
                 f"{m.python_version} ({m.python_abi}), LLVM {m.llvm_version}",
                 f"  target {m.target.triple}, CPU {m.target.cpu}",
                 "  code: " + ("none linked (inspected: the manifest and texts only)"
                               if getattr(self, "__inspected__", False)
                               else "object code, as saved" if self.__recompiled__ is None
                               else f"compiled again from IR ({self.__recompiled__})"),
                 ]
        if m.functions or not m.kernels:
            lines.append("  functions:")
        for f in m.functions:
            lines.append(f"    {f.name}({', '.join(_format_param(p) for p in f.params)})"
                         + (f"  calls {', '.join(f.calls)}" if f.calls else ""))
            lines.extend(f"        {s}" for s in getattr(self, f.name).signatures)
        if m.kernels:
            from script.frontend.typeinfer import format_signature
            lines.append("  kernels:")
        for k in m.kernels:
            options = [f"{o}={v!r}" for o, v in (("arch", k.arch), ("boundscheck", k.boundscheck))
                       if v is not None]
            lines.append(f"    kernel {k.name}({', '.join(_format_param(p) for p in k.params)})"
                         + (f"  [{', '.join(options)}]" if options else ""))
            lines.extend(f"        {format_signature(s.arg_types)}  PTX "
                         f"{', '.join(p.arch for p in s.ptx) or 'none'}" for s in k.specializations)
        return "\n".join(lines)


def _format_param(p: Param) -> str:
    from script.frontend.typeinfer import python_type_name
    text = p.name if p.type is None else f"{p.name}: {python_type_name(p.type)}"
    return text + (f"={p.default!r}" if p.has_default else "")


def load(path: str | os.PathLike, trusted_keys=None, object_code: bool | None = None
         ) -> SavedModule:
    """Load the module `save` wrote at `path`. Raises LoadError if anything is wrong with it.

    Its object code runs only when the archive is signed under the user's key or one of
    `trusted_keys` (bytes, or paths of key files: script.saved_trust), or when the caller
    passes ``object_code=True`` (trusting this file as a native library it chooses to
    load). Otherwise — and with ``object_code=False`` — the functions are compiled again
    from the archive's IR, verified and made memory-safe; ``m.__recompiled__`` says why."""
    from script.saved_archive import read_archive
    from script.saved_trust import object_code_refusal, trusted_key_list
    keys = trusted_key_list(trusted_keys)
    archive = read_archive(path)
    return load_archive(archive, object_code_refusal(archive, keys, object_code))


def load_archive(archive: Archive, recompile: str | None = None) -> SavedModule:
    """The module in `archive` (checked: saved_archive). Its object code is linked where it
    fits this machine, unless `recompile` says why every function is compiled from its IR
    instead (script.pickling: a pickle carries no object code)."""
    from script.dispatcher import make_loaded_function, numpy_scalar_params
    from script.saved_manifest import object_code_mismatch, parse_manifest
    manifest = parse_manifest(archive.manifest, archive.origin)
    mismatch = recompile or object_code_mismatch(manifest)
    functions = {}
    for entry in manifest.functions:
        specs = {}
        for r in entry.specializations:
            rule = numpy_scalar_params(entry.param_types, r.arg_types)
            specs[r.arg_types] = load_specialization(archive, r, mismatch is None, rule)
        functions[entry.name] = make_loaded_function(entry, specs)
    kernels = {}
    if manifest.kernels:
        from script.saved_cuda import load_kernel
        kernels = {k.name: load_kernel(archive, k, mismatch is None) for k in manifest.kernels}
    return SavedModule(archive.origin, manifest, functions, mismatch, kernels)


def inspect(path: str | os.PathLike) -> SavedModule:
    """The module at `path` as far as its manifest and texts show it, without linking or
    compiling any of its code (`scriptc inspect`): its functions have `signatures` and
    `ir("ssa" | "opt")`, its kernels their saved IR and PTX; none can be called."""
    from script.saved_archive import read_archive
    from script.saved_manifest import parse_manifest
    archive = read_archive(path)
    manifest = parse_manifest(archive.manifest, archive.origin)
    functions = {}
    for entry in manifest.functions:
        specs = {r.arg_types: LoadedSpecialization(r, archive, None, None, {})
                 for r in entry.specializations}
        for r in entry.specializations:
            for text in (r.ir, r.ssa, r.object):
                if text is not None:
                    archive.check(text.path, text.size)
        functions[entry.name] = _Listed(entry.name, specs)
    kernels = {}
    if manifest.kernels:
        from script.saved_cuda import load_kernel
        kernels = {k.name: load_kernel(archive, k, None) for k in manifest.kernels}
    module = SavedModule(archive.origin, manifest, functions, None, kernels)
    module.__inspected__ = True
    return module


class _Listed:
    """A saved function as `inspect` shows it: the methods of compiled functions that read
    only its saved texts (script.dispatcher `_Methods`); no code, so no call."""

    def __init__(self, name: str, specs: dict):
        from script.dispatcher import _Methods
        self.__name__ = name
        self._specializations = specs
        self._methods = _Methods

    def ir(self, stage: str = "opt", signature=None) -> str:
        if stage not in ("ssa", "opt"):
            raise ValueError(f"inspecting a saved module shows its saved IR (ssa, opt) and "
                             f"kernels' PTX, not {stage!r}: load it (script.load) for that")
        return self._methods.ir(self, stage, signature)

    @property
    def signatures(self) -> list:
        return self._methods.signatures.fget(self)


# ---- saving -------------------------------------------------------------------------------

def save(obj, path: str | os.PathLike, signatures=None, key=None) -> None:
    """Write compiled functions to `path` (one zip archive; see the module docstring).

    `obj` is a compiled function or kernel (`@script.kernel`), a list of them (saved under
    their names) or a dict from name to function; functions and kernels `load` returned can
    be saved again. A kernel is saved with its GPU IR, PTX (the architectures compiled so
    far and the default one) and CPU code (script.saved_cuda). Each function is saved
    with the specializations compiled so far, or with exactly those `signatures` names:
    a list of argument-type tuples when `obj` is one function, else a dict from name to
    such a list (they are compiled first if need be). The archive is signed under `key`
    (script.saved_trust: bytes or a key file), by default the user's own."""
    from script.saved_archive import write_archive
    write_archive(path, *saved_members(obj, signatures), key=key)


def saved_members(obj, signatures=None, object_code: bool = True) -> tuple[dict, dict]:
    """The manifest (as JSON data) and the members (name -> bytes) `save` writes for `obj`;
    without `object_code`, only IR (script.pickling)."""
    from script.cuda.kernel import is_kernel
    from script.saved_manifest import host_manifest, manifest_json
    functions = _named_functions(obj)
    wanted = _wanted_signatures(functions, signatures)
    kernels = {name: fn for name, fn in functions.items() if is_kernel(fn)}
    functions = {name: fn for name, fn in functions.items() if name not in kernels}
    entries, members = [], {}
    for i, (name, fn) in enumerate(functions.items()):
        specs = _chosen_specializations(name, fn, wanted.get(name))
        records = []
        for j, spec in enumerate(specs):
            record, data = spec_record(spec, f"f{i}/s{j}", object_code)
            records.append(record)
            members.update(data)
        entries.append(_function_entry(name, fn, tuple(records)))
    entries = _with_saved_calls(entries)
    kernel_entries = []
    if kernels and not object_code:
        raise ValueError(f"kernel {next(iter(kernels))} cannot be saved without object code")
    if kernels:
        from script.saved_cuda import kernel_record
        for i, (name, k) in enumerate(kernels.items()):
            entry, data = kernel_record(name, k, f"k{i}", wanted.get(name))
            kernel_entries.append(entry)
            members.update(data)
    return manifest_json(host_manifest(tuple(entries), kernels=tuple(kernel_entries))), members


def spec_record(spec, base: str, object_code: bool = True) -> tuple[SpecEntry, dict]:
    """The manifest entry of `spec` (a compiled or loaded specialization) and its members
    (name -> bytes), named `base` + suffix; without `object_code`, its IR only."""
    from script.saved_archive import sha256
    from script.saved_manifest import Member, SpecEntry
    if isinstance(spec, LoadedSpecialization):
        functions, calls, opt_level = spec.record.functions, spec.record.calls, spec.record.opt_level
    else:
        funcs = list(spec.module.functions.values())
        functions = tuple(f.name for f in funcs)
        calls = {f.name: tuple(c.name for c in f.callees()) for f in funcs}
        opt_level = spec.native.opt_level
    data = {f"{base}.ir": spec.opt_text.encode("utf-8")}
    if spec.ssa_text is not None:
        data[f"{base}.ssa.ir"] = spec.ssa_text.encode("utf-8")
    if object_code:
        data[f"{base}.o"] = bytes(spec.native.object_code)
    member = {name: Member(name, len(b), sha256(b)) for name, b in data.items()}
    record = SpecEntry(tuple(spec.arg_types), spec.ret_type, functions[0], opt_level, functions,
                       calls, member[f"{base}.ir"], member.get(f"{base}.ssa.ir"), member.get(f"{base}.o"))
    return record, data


def _named_functions(obj) -> dict:
    import keyword
    if isinstance(obj, dict):
        functions = dict(obj)
    elif isinstance(obj, (list, tuple)):
        functions = {}
        for fn in obj:
            name = getattr(fn, "__name__", None)
            if name in functions:
                raise ValueError(f"two functions are named {name!r}: pass a dict to name them")
            functions[name] = fn
    else:
        functions = {getattr(obj, "__name__", None): obj}
    if not functions:
        raise ValueError("nothing to save")
    for name, fn in functions.items():
        if not isinstance(name, str) or not name.isidentifier() or keyword.iskeyword(name) \
                or name.startswith("__"):
            raise ValueError(f"{name!r} cannot name a saved function (an identifier not "
                             "starting with '__' is needed)")
        d = getattr(fn, "__dict__", {})
        if d.get("py_func") is None and "_saved_info" not in d and not _is_kernel(fn):
            raise TypeError(f"{name!r} is not a compiled function (decorate it with @script "
                            "or @script.kernel)")
    return functions


def _is_kernel(obj) -> bool:
    from script.cuda.kernel import is_kernel
    return is_kernel(obj)


def _wanted_signatures(functions: dict, signatures) -> dict:
    if signatures is None:
        return {}
    if not isinstance(signatures, dict):
        if len(functions) != 1:
            raise TypeError("with several functions, signatures= is a dict from name to a list "
                            "of argument-type tuples")
        signatures = {next(iter(functions)): signatures}
    unknown = set(signatures) - set(functions)
    if unknown:
        raise ValueError(f"signatures= names functions that are not saved: {', '.join(map(str, unknown))}")
    return {name: [tuple(s) for s in sigs] for name, sigs in signatures.items()}


def _chosen_specializations(name: str, fn, wanted) -> list:
    from script.dispatcher import _signature_key
    specs = fn.__dict__["_specializations"]
    hidden = getattr(fn.__dict__.get("_script_info"), "hidden_globals", ())
    if hidden:
        from script.dispatcher import hidden_globals_text
        raise ValueError(f"{name} cannot be saved: {hidden_globals_text(hidden)}")
    shared = getattr(fn.__dict__.get("_script_info"), "shared_defaults", ())
    if shared:
        from script.frontend.shared_defaults import not_kept_text
        raise ValueError(f"{name} cannot be saved: {not_kept_text(shared)}")
    if wanted is None:
        from script.dispatcher import compile_before_call, takes_instances
        compile_before_call(fn)             # never called: its annotations'
        # (one taking instances of a user's class is typed from the objects at each call by
        # the dispatcher, which a loaded module has not: not saved)
        chosen = [s for k, s in specs.items() if not takes_instances(k)]
    else:
        chosen = {}
        for types_ in wanted:
            fn.compile(*types_)
            key = _signature_key(fn, types_)
            chosen[key] = specs[key]
        chosen = list(chosen.values())
    if not chosen:
        raise ValueError(f"{name} has no compiled specialization to save: call it first, "
                         "annotate its parameters or pass signatures=")
    return chosen


def _function_entry(name: str, fn, specs: tuple) -> FunctionEntry:
    d = fn.__dict__
    saved = d.get("_saved_info")
    if saved is not None:
        from script.saved_manifest import FunctionEntry
        return FunctionEntry(name, saved.qualname, saved.module, saved.doc, saved.params, (), specs)
    from script.dispatcher import function_info
    from script.saved_manifest import FunctionEntry, Param, encode_value
    info = function_info(fn)
    if getattr(info, "vararg", None) is not None:
        raise ValueError(f"cannot save {name}: functions with a *{info.vararg} parameter cannot be saved "
                         "(a saved module's functions have named parameters only)")
    if getattr(info, "kwarg", None) is not None:
        raise ValueError(f"cannot save {name}: functions with a **{info.kwarg} parameter cannot be saved "
                         "(a saved module's functions have named parameters only)")
    params = []
    for pname, ptype in zip(info.param_names, info.param_types):
        has_default = pname in info.defaults
        if has_default:
            try:
                encode_value(info.defaults[pname])
            except ValueError as e:
                raise ValueError(f"cannot save the default of parameter '{pname}' of {name}: "
                                 f"{e} (only int, float, bool, None and tuples of them)") from None
        params.append(Param(pname, ptype, has_default, info.defaults.get(pname)))
    return FunctionEntry(name, info.qualname, d.get("__module__") or "", d.get("__doc__"),
                         tuple(params), (), specs)


def _with_saved_calls(entries: list) -> list:
    """`entries` with `calls`: the other saved functions whose code each one calls."""
    owner = {s.entry: e.name for e in entries for s in e.specializations}
    out = []
    for e in entries:
        called = {owner[n] for s in e.specializations for n in s.functions[1:] if n in owner}
        called.discard(e.name)
        out.append(e._replace(calls=tuple(sorted(called))))
    return out
