"""The manifest of a saved module: what the archive holds, as data, checked field by field.

`Manifest` and the entries below are the one description of the format (docs/saved-modules.md
shows the JSON). `manifest_json(m)` writes it; `parse_manifest(obj, origin)` reads it back
and checks every field — JSON type, range, size, the syntax of names — and the
consistency between fields (the entry function comes first, every callee is in the module,
annotated parameters have the same type in every specialization), raising `LoadError` that
names the field. Invariant: ``parse_manifest(manifest_json(m)) == m``.

Types are data: a scalar is its IR spelling (``"i64"``, ``"f32"``, ``"bool"``, ``"none"``),
a tuple ``{"tuple": [...]}``, an array ``{"array": {"dtype": "f64", "ndim": 2, "layout":
"C"}}`` (layout "C" or "A"). Parameter defaults are JSON null, booleans and integers,
``{"float": repr}`` (exact, NaN and infinities included) and ``{"tuple": [...]}``.

Kernels (`@script.kernel`, format version 2) are a separate list, `KernelEntry`: per
specialization the IR module PTX is made from (`gpu`), the IR module of the CPU path with
its object code (`cpu`), and PTX per architecture (`PtxEntry`: the text, its entry name and
the exception-message table the launcher reads).

Readers ignore keys they do not know; a change that an older reader must not ignore bumps
`FORMAT_VERSION`, and a reader refuses versions it does not know. Version 1 (no kernels) is
still read.
"""

from __future__ import annotations

import keyword
import re
import sys
from typing import NamedTuple

from script import store
from script.store import __version__, python_abi
from script.errors import LoadError
from script.ir import types as T
from script.saved_archive import is_member_name

FORMAT = "script-module"
FORMAT_VERSION = 2
READABLE_VERSIONS = (1, 2)              # 1: before kernels

MAX_FUNCTIONS = 1024
MAX_SPECIALIZATIONS = 256
MAX_TOTAL_SPECIALIZATIONS = 2048          # of all functions and kernels together
MAX_PARAMS = 255
MAX_NAME = 1024
MAX_DOC = 1 << 20
MAX_TYPE_DEPTH = 16
MAX_PTX = 16                            # architectures per kernel specialization
MAX_MESSAGES = 4096
MAX_MESSAGE = 1 << 16
_ARCH = re.compile(r"sm_[0-9]{2,4}a?")
_SHA256 = re.compile("[0-9a-f]{64}")


class Member(NamedTuple):
    """A member of the archive: its name, size in bytes and SHA-256 (hex)."""
    path: str
    size: int
    sha256: str


class Target(NamedTuple):
    """What object code was compiled for: LLVM's triple, CPU name and feature string."""
    triple: str
    cpu: str
    features: str


class SpecEntry(NamedTuple):
    """One specialization: its types, its IR module (entry first) and where its code is."""
    arg_types: tuple
    ret_type: T.Type
    entry: str                                  # IR name of the entry function
    opt_level: int                              # LLVM's level for the object code, 0-3
    functions: tuple                            # IR functions of the module, entry first
    calls: dict                                 # IR function -> tuple of the ones it calls
    ir: Member                                  # optimized IR text
    ssa: Member | None = None                   # the frontend's SSA text, for f.ir("ssa")
    object: Member | None = None                # object code for the manifest's target


class Param(NamedTuple):
    name: str
    type: T.Type | None                         # the annotation, None when unannotated
    has_default: bool = False
    default: object = None


class FunctionEntry(NamedTuple):
    """A saved function. Also the dispatcher's description of a loaded function, which
    reads `name`, `param_names`, `param_types`, `is_annotated` and `python_signature()`."""
    name: str
    qualname: str
    module: str
    doc: str | None
    params: tuple
    calls: tuple                                # other saved functions it calls
    specializations: tuple

    @property
    def param_names(self) -> list:
        return [p.name for p in self.params]

    @property
    def param_types(self) -> list:
        return [p.type for p in self.params]

    @property
    def is_annotated(self) -> bool:
        return all(p.type is not None for p in self.params)

    def python_signature(self):
        import inspect
        kind = inspect.Parameter.POSITIONAL_OR_KEYWORD
        return inspect.Signature([inspect.Parameter(p.name, kind, default=p.default if p.has_default
                                                    else inspect.Parameter.empty)
                                  for p in self.params])


class KernelModule(NamedTuple):
    """One IR module of a kernel specialization: the GPU's (what PTX is made from) or the
    CPU path's (bounds checks may differ), with the CPU's object code. `parse_ir` reads it
    like a `SpecEntry` (the entry returns none)."""
    arg_types: tuple
    entry: str
    functions: tuple
    calls: dict
    ir: Member
    object: Member | None = None                # the CPU path's grid driver and kernel
    resumable: bool = False                     # split at barriers (cuda.barriers)

    @property
    def ret_type(self) -> T.Type:
        return T.NONE


class PtxEntry(NamedTuple):
    """PTX of a kernel specialization for one architecture."""
    arch: str                                   # "sm_80"
    name: str                                   # the PTX entry (.entry) name
    messages: tuple                             # exception message formats (bytes), by index
    ptx: Member


class KernelSpecEntry(NamedTuple):
    arg_types: tuple
    gpu: KernelModule
    cpu: KernelModule
    ptx: tuple                                  # PtxEntry, the default architecture first


class KernelEntry(NamedTuple):
    """A saved kernel; also the description `script.cuda` reads of a loaded one (`name`,
    `param_names`, `param_types`, `is_annotated`, as FunctionEntry)."""
    name: str
    qualname: str
    module: str
    doc: str | None
    params: tuple                               # Param, without defaults
    arch: str | None                            # @script.kernel(arch=...)
    boundscheck: bool | None
    opt: int
    specializations: tuple

    param_names = FunctionEntry.param_names
    param_types = FunctionEntry.param_types
    is_annotated = FunctionEntry.is_annotated


class Manifest(NamedTuple):
    compiler_version: str
    python_version: str                         # informative ("3.11.7")
    python_abi: str                             # object code is used only on the same one
    llvm_version: str
    target: Target
    functions: tuple
    format_version: int = FORMAT_VERSION
    kernels: tuple = ()                         # KernelEntry (format version 2)


# ---- the running process ------------------------------------------------------------------

def host_target() -> Target:
    """What this process compiles for (script.store: recorded per machine, so that reading
    it does not load LLVM)."""
    return Target(*store.host_target()[:3])


def llvm_version() -> str:
    return store.host_target()[3]


def host_manifest(functions: tuple, kernels: tuple = ()) -> Manifest:
    """A manifest of `functions` (FunctionEntry) and `kernels` (KernelEntry) compiled in
    this process for this CPU."""
    return Manifest(__version__, sys.version.split()[0], python_abi(), llvm_version(),
                    host_target(), tuple(functions), FORMAT_VERSION, tuple(kernels))


def object_code_mismatch(m: Manifest) -> str | None:
    """Why the object code of `m` cannot run in this process, or None when it can: it needs
    the same compiler version, Python ABI, triple and CPU name, and CPU features that this
    CPU has (every ``+feature`` of the saved set)."""
    host = host_target()
    if m.compiler_version != __version__:
        return f"saved by script {m.compiler_version}, this is {__version__}"
    if m.python_abi != python_abi():
        return f"saved for {m.python_abi}, this is {python_abi()}"
    if m.target.triple != host.triple:
        return f"saved for {m.target.triple}, this is {host.triple}"
    if m.target.cpu != host.cpu:
        return f"saved for CPU {m.target.cpu!r}, this is {host.cpu!r}"
    missing = _enabled(m.target.features) - _enabled(host.features)
    if missing:
        return f"saved for CPU features this CPU lacks ({', '.join(sorted(missing)[:5])})"
    return None


def _enabled(features: str) -> set:
    return {f[1:] for f in features.split(",") if f.startswith("+")}


# ---- writing ------------------------------------------------------------------------------

def encode_type(t: T.Type):
    if isinstance(t, T.OptionalType):      # before tuples: it is one
        return {"optional": encode_type(t.value)}
    if isinstance(t, getattr(T, "UnionType", ())):          # before tuples: it is one
        return {"union": [encode_type(a) for a in t.alternatives]}
    if isinstance(t, getattr(T, "IntFloatType", ())):       # before tuples: it is one ("num")
        return str(t)
    if isinstance(t, getattr(T, "NamedTupleType", ())):     # before tuples: it is one
        return {"named": {"key": t.key, "fields": list(t.fields), "elems": [encode_type(e) for e in t.elems]}}
    if isinstance(t, T.TupleType):
        return {"tuple": [encode_type(e) for e in t.elems]}
    if isinstance(t, getattr(T, "EnumType", ())):         # a plain Enum's member, by its class
        return {"enum": t.key}
    if _is_array(t):
        return {"array": {"dtype": encode_type(t.dtype), "ndim": t.ndim, "layout": t.layout}}
    if isinstance(t, getattr(T, "IterType", ())):          # before lists: it is one
        return {"iter": [t.kind, encode_type(t.elem)]}
    if isinstance(t, getattr(T, "VarTupleType", ())):      # before lists: it is one
        return {"var_tuple": encode_type(t.elem)}
    if isinstance(t, T.ListType):
        return {"list": encode_type(t.elem)}
    if isinstance(t, T.DictType):
        return {"dict": [encode_type(t.key), encode_type(t.value)]}
    if isinstance(t, T.SetType):
        return {"set": encode_type(t.key)}
    if T.parse_scalar(str(t)) == t:
        return str(t)
    raise ValueError(f"values of type {t} cannot be saved yet")


def _is_array(t) -> bool:
    array_type = getattr(T, "ArrayType", None)       # the IR's array type, where it exists
    return array_type is not None and isinstance(t, array_type)


def encode_value(v):
    """A parameter default as data; ValueError for values that are not scalars or tuples."""
    if v is None or type(v) in (bool, int):
        return v
    if type(v) is float:
        return {"float": repr(v)}
    if type(v) is complex:          # both parts exactly, signed zeros and NaN signs included
        return {"complex": [repr(v.real), repr(v.imag)]}
    if type(v) is tuple:
        return {"tuple": [encode_value(x) for x in v]}
    if type(v) is str:
        return {"str": v}
    raise ValueError(f"{v!r} of type {type(v).__name__}")


def _member_json(m: Member | None):
    return None if m is None else {"path": m.path, "size": m.size, "sha256": m.sha256}


def _spec_json(s: SpecEntry) -> dict:
    members = {"ir": _member_json(s.ir)}
    for kind in ("ssa", "object"):
        if getattr(s, kind) is not None:
            members[kind] = _member_json(getattr(s, kind))
    return {"arg_types": [encode_type(t) for t in s.arg_types], "ret_type": encode_type(s.ret_type),
            "entry": s.entry, "opt_level": s.opt_level, "functions": list(s.functions),
            "calls": {k: list(v) for k, v in s.calls.items()}, "members": members}


def _param_json(p: Param) -> dict:
    out = {"name": p.name, "type": None if p.type is None else encode_type(p.type)}
    if p.has_default:
        out["default"] = encode_value(p.default)
    return out


def manifest_json(m: Manifest) -> dict:
    out = {
        "format": FORMAT, "format_version": m.format_version,
        "compiler": {"name": "script", "version": m.compiler_version},
        "python": {"version": m.python_version, "abi": m.python_abi},
        "llvm": {"version": m.llvm_version},
        "target": {"triple": m.target.triple, "cpu": m.target.cpu, "features": m.target.features},
        "functions": [{"name": f.name, "qualname": f.qualname, "module": f.module, "doc": f.doc,
                       "params": [_param_json(p) for p in f.params], "calls": list(f.calls),
                       "specializations": [_spec_json(s) for s in f.specializations]}
                      for f in m.functions],
    }
    if m.format_version >= 2:
        out["kernels"] = [_kernel_json(k) for k in m.kernels]
    return out


def _kernel_module_json(k: KernelModule) -> dict:
    out = {"entry": k.entry, "functions": list(k.functions),
           "calls": {n: list(v) for n, v in k.calls.items()}, "ir": _member_json(k.ir)}
    if k.object is not None:
        out["object"] = _member_json(k.object)
        out["resumable"] = k.resumable
    return out


def _kernel_json(k: KernelEntry) -> dict:
    return {"name": k.name, "qualname": k.qualname, "module": k.module, "doc": k.doc,
            "params": [_param_json(p) for p in k.params], "arch": k.arch,
            "boundscheck": k.boundscheck, "opt": k.opt,
            "specializations": [
                {"arg_types": [encode_type(t) for t in s.arg_types],
                 "gpu": _kernel_module_json(s.gpu), "cpu": _kernel_module_json(s.cpu),
                 "ptx": [{"arch": p.arch, "entry": p.name,
                          "messages": [m.decode("latin-1") for m in p.messages],
                          "member": _member_json(p.ptx)} for p in s.ptx]}
                for s in k.specializations]}


# ---- reading ------------------------------------------------------------------------------

class _At:
    """A JSON value at `path` in the manifest, with accessors that check its type."""

    def __init__(self, value, path: str, origin: str):
        self.value, self.path, self.origin = value, path, origin

    def fail(self, message: str):
        raise LoadError(f"{self.origin}: manifest field {self.path}: {message}")

    def get(self, key: str, optional: bool = False):
        if not isinstance(self.value, dict):
            self.fail(f"expected an object, found {_json_kind(self.value)}")
        if key not in self.value:
            if optional:
                return None
            self.fail(f"missing '{key}'")
        return _At(self.value[key], f"{self.path}.{key}", self.origin)

    def str(self, max_len: int = MAX_NAME, none: bool = False):
        if none and self.value is None:
            return None
        if not isinstance(self.value, str):
            self.fail(f"expected a string, found {_json_kind(self.value)}")
        if len(self.value) > max_len:
            self.fail(f"longer than {max_len} characters")
        return self.value

    def name(self) -> str:
        s = self.str()
        if not s.isidentifier() or keyword.iskeyword(s) or s.startswith("__"):
            self.fail(f"{s!r} is not a name a saved function or parameter can have")
        return s

    def int(self, lo: int, hi: int) -> int:
        if type(self.value) is not int or not lo <= self.value <= hi:
            self.fail(f"expected an integer from {lo} to {hi}, found {self.value!r:.40}")
        return self.value

    def list(self, max_len: int) -> list:
        if not isinstance(self.value, list):
            self.fail(f"expected a list, found {_json_kind(self.value)}")
        if len(self.value) > max_len:
            self.fail(f"more than {max_len} items")
        return [_At(v, f"{self.path}[{i}]", self.origin) for i, v in enumerate(self.value)]


def _json_kind(v) -> str:
    return {dict: "an object", list: "a list", str: "a string", bool: "a boolean",
            int: "an integer", float: "a number", type(None): "null"}.get(type(v), "a value")


def parse_manifest(obj, origin: str) -> Manifest:
    """The manifest decoded from JSON `obj`, every field checked (see the module docstring)."""
    top = _At(obj, "manifest", origin)
    if top.get("format").value != FORMAT:
        top.fail(f"not a saved script module (format {top.get('format').value!r:.40})")
    version = top.get("format_version").int(0, 1 << 31)
    if version not in READABLE_VERSIONS:
        raise LoadError(f"{origin}: unknown format version {version} (this script reads "
                        f"versions {', '.join(map(str, READABLE_VERSIONS))}); save it again "
                        "with this version of script")
    target = top.get("target")
    functions = [_parse_function(f) for f in top.get("functions").list(MAX_FUNCTIONS)]
    names = [f.name for f in functions]
    if len(set(names)) != len(names):
        top.fail("two functions have the same name")
    for f in functions:
        if not set(f.calls) <= set(names):
            top.fail(f"function {f.name!r} calls functions that are not saved")
    kernels = []
    if version >= 2:
        kernels = [_parse_kernel(k) for k in top.get("kernels").list(MAX_FUNCTIONS)]
        kernel_names = [k.name for k in kernels]
        if len(set(kernel_names)) != len(kernel_names) or set(kernel_names) & set(names):
            top.fail("two functions or kernels have the same name")
    count = sum(len(f.specializations) for f in [*functions, *kernels])
    if count > MAX_TOTAL_SPECIALIZATIONS:       # each one is linked or compiled at load
        top.fail(f"{count} specializations, more than the {MAX_TOTAL_SPECIALIZATIONS} allowed")
    return Manifest(top.get("compiler").get("version").str(), top.get("python").get("version").str(),
                    top.get("python").get("abi").str(), top.get("llvm").get("version").str(),
                    Target(target.get("triple").str(), target.get("cpu").str(),
                           target.get("features").str(1 << 16)),
                    tuple(functions), version, tuple(kernels))


def _parse_function(at: _At) -> FunctionEntry:
    params = []
    for p in at.get("params").list(MAX_PARAMS):
        ann = p.get("type")
        default = p.get("default", optional=True)
        params.append(Param(p.get("name").name(), None if ann.value is None else _parse_type(ann),
                            default is not None, None if default is None else _parse_value(default)))
    if len({p.name for p in params}) != len(params):
        at.fail("two parameters have the same name")
    specs = tuple(_parse_spec(s, params) for s in at.get("specializations").list(MAX_SPECIALIZATIONS))
    if not specs:
        at.fail("a function without specializations")
    if len({s.arg_types for s in specs}) != len(specs):
        at.fail("two specializations have the same argument types")
    return FunctionEntry(at.get("name").name(), at.get("qualname").str(), at.get("module").str(),
                         at.get("doc").str(MAX_DOC, none=True), tuple(params),
                         tuple(c.name() for c in at.get("calls").list(MAX_FUNCTIONS)), specs)


def _parse_arg_types(at: _At, params: list) -> tuple:
    arg_types = tuple(_parse_type(t) for t in at.get("arg_types").list(MAX_PARAMS))
    if len(arg_types) != len(params):
        at.fail(f"{len(arg_types)} argument types for {len(params)} parameters")
    for p, t in zip(params, arg_types):
        if p.type is not None and p.type != t:
            at.fail(f"parameter '{p.name}' is annotated {p.type} but this specialization takes {t}")
    return arg_types


def _parse_module_graph(at: _At) -> tuple:
    """`entry`, `functions` (entry first, each once) and the `calls` graph within them."""
    functions = tuple(f.str() for f in at.get("functions").list(MAX_FUNCTIONS))
    entry = at.get("entry").str()
    if not functions or functions[0] != entry or len(set(functions)) != len(functions):
        at.fail("'functions' must list each IR function once, the entry first")
    calls_at = at.get("calls")
    if not isinstance(calls_at.value, dict) or set(calls_at.value) != set(functions):
        calls_at.fail("expected an object with one key per IR function")
    calls = {}
    for name in functions:
        callees = tuple(c.str() for c in calls_at.get(name).list(MAX_FUNCTIONS))
        if not set(callees) <= set(functions):
            calls_at.fail(f"{name} calls functions outside the module")
        calls[name] = callees
    return entry, functions, calls


def _parse_spec(at: _At, params: list) -> SpecEntry:
    arg_types = _parse_arg_types(at, params)
    entry, functions, calls = _parse_module_graph(at)
    members = at.get("members")
    ssa, obj = members.get("ssa", optional=True), members.get("object", optional=True)
    return SpecEntry(arg_types, _parse_type(at.get("ret_type")), entry, at.get("opt_level").int(0, 3),
                     functions, calls, _parse_member(members.get("ir")),
                     None if ssa is None else _parse_member(ssa),
                     None if obj is None else _parse_member(obj))


def _parse_kernel(at: _At) -> KernelEntry:
    params = []
    for p in at.get("params").list(MAX_PARAMS):
        ann = p.get("type")
        params.append(Param(p.get("name").name(), None if ann.value is None else _parse_type(ann)))
    if len({p.name for p in params}) != len(params):
        at.fail("two parameters have the same name")
    arch = at.get("arch").str(16, none=True)
    if arch is not None and _ARCH.fullmatch(arch) is None:
        at.get("arch").fail(f"{arch!r} is not a CUDA architecture")
    boundscheck = at.get("boundscheck").value
    if boundscheck not in (None, True, False):
        at.get("boundscheck").fail("expected true, false or null")
    specs = tuple(_parse_kernel_spec(s, params)
                  for s in at.get("specializations").list(MAX_SPECIALIZATIONS))
    if not specs:
        at.fail("a kernel without specializations")
    if len({s.arg_types for s in specs}) != len(specs):
        at.fail("two specializations have the same argument types")
    return KernelEntry(at.get("name").name(), at.get("qualname").str(), at.get("module").str(),
                       at.get("doc").str(MAX_DOC, none=True), tuple(params), arch, boundscheck,
                       at.get("opt").int(0, 3), specs)


def _parse_kernel_spec(at: _At, params: list) -> KernelSpecEntry:
    arg_types = _parse_arg_types(at, params)
    if any(isinstance(t, T.TupleType) for t in arg_types):
        at.fail("a kernel takes arrays and scalars, not tuples")
    gpu, cpu = (_parse_kernel_module(at.get(k), arg_types, k == "cpu") for k in ("gpu", "cpu"))
    ptx = []
    for p in at.get("ptx").list(MAX_PTX):
        arch = p.get("arch").str(16)
        if _ARCH.fullmatch(arch) is None:
            p.get("arch").fail(f"{arch!r} is not a CUDA architecture")
        name = p.get("entry").str()
        if re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", name) is None:
            p.get("entry").fail(f"{name!r} is not a PTX identifier")
        messages = []
        for m in p.get("messages").list(MAX_MESSAGES):
            try:
                messages.append(m.str(MAX_MESSAGE).encode("latin-1"))
            except UnicodeEncodeError:
                m.fail("a message is bytes written as latin-1 text")
        ptx.append(PtxEntry(arch, name, tuple(messages), _parse_member(p.get("member"))))
    if len({p.arch for p in ptx}) != len(ptx):
        at.get("ptx").fail("two PTX texts for the same architecture")
    return KernelSpecEntry(arg_types, gpu, cpu, tuple(ptx))


def _parse_kernel_module(at: _At, arg_types: tuple, cpu: bool) -> KernelModule:
    entry, functions, calls = _parse_module_graph(at)
    obj = at.get("object") if cpu else None      # the CPU path's code is required
    resumable = at.get("resumable").value if cpu else False
    if resumable not in (True, False):
        at.get("resumable").fail("expected true or false")
    return KernelModule(arg_types, entry, functions, calls, _parse_member(at.get("ir")),
                        None if obj is None else _parse_member(obj), resumable)


def _parse_member(at: _At) -> Member:
    path = at.get("path").str(255)
    if not is_member_name(path):
        at.fail(f"member name {path!r} is not allowed")
    digest = at.get("sha256").str(64)
    if _SHA256.fullmatch(digest) is None:
        at.fail("sha256 must be 64 lowercase hex digits")
    return Member(path, at.get("size").int(0, 1 << 40), digest)


def _parse_type(at: _At, depth: int = 0) -> T.Type:
    v = at.value
    if isinstance(v, str):
        t = T.parse_scalar(v)
        if t is not None:
            return t
    elif isinstance(v, dict) and list(v) == ["tuple"] and depth < MAX_TYPE_DEPTH:
        return T.TupleType([_parse_type(e, depth + 1) for e in at.get("tuple").list(64)])
    elif isinstance(v, dict) and list(v) == ["named"] and depth < MAX_TYPE_DEPTH:
        n = at.get("named")
        key = n.get("key").str(512)
        if ":" not in key:
            n.get("key").fail(f"{key!r} is not a class's 'module:qualname'")
        fields = [f.str() for f in n.get("fields").list(64)]
        elems = [_parse_type(e, depth + 1) for e in n.get("elems").list(64)]
        if len(fields) != len(elems):
            n.fail("a named tuple needs one type a field")
        return T.NamedTupleType(key, fields, elems)
    elif isinstance(v, dict) and list(v) == ["enum"] and hasattr(T, "EnumType"):
        key = at.get("enum").str(512)
        if ":" not in key:
            at.get("enum").fail(f"{key!r} is not a class's 'module:qualname'")
        return T.EnumType(key)
    elif isinstance(v, dict) and list(v) == ["array"] and hasattr(T, "ArrayType"):
        a = at.get("array")
        dtype = _parse_type(a.get("dtype"), MAX_TYPE_DEPTH)
        layout = a.get("layout").str(1)
        if not dtype.is_numeric() or layout not in ("C", "A"):
            a.fail("not an array of numbers in layout 'C' or 'A'")
        return T.ArrayType(dtype, a.get("ndim").int(1, 32), layout)
    elif isinstance(v, dict) and list(v) == ["optional"] and depth < MAX_TYPE_DEPTH:
        value = _parse_type(at.get("optional"), depth + 1)
        if not T.is_optional_value(value):
            at.fail(f"optionals of {value} are not supported")
        return T.OptionalType(value)
    elif isinstance(v, dict) and list(v) == ["union"] and hasattr(T, "UnionType") and depth < MAX_TYPE_DEPTH:
        alternatives = [_parse_type(e, depth + 1) for e in at.get("union").list(64)]
        if len(alternatives) < 2 or not all(T.is_union_alternative(a) for a in alternatives):
            at.fail(f"unions of {', '.join(map(str, alternatives))} are not supported")
        return T.UnionType(alternatives)
    elif isinstance(v, dict) and list(v) in (["list"], ["var_tuple"]) and depth < MAX_TYPE_DEPTH:
        elem = _parse_type(at.get(next(iter(v))), depth + 1)
        if not T.is_list_element(elem):
            at.fail(f"lists of {elem} are not supported")
        return T.ListType(elem) if "list" in v else T.VarTupleType(elem)
    elif isinstance(v, dict) and list(v) == ["iter"] and depth < MAX_TYPE_DEPTH:
        parts = at.get("iter").list(2)
        if len(parts) != 2:
            at.fail("an iterable needs its kind and its element type")
        kind_at, elem_at = parts
        kind, elem = kind_at.str(32), _parse_type(elem_at, depth + 1)
        if not kind.isidentifier() or not T.is_list_element(elem):
            at.fail(f"iterables {kind!r} of {elem} are not supported")
        return T.IterType(elem, kind)
    elif isinstance(v, dict) and list(v) in (["dict"], ["set"]) and depth < MAX_TYPE_DEPTH:
        parts = [at.get("set")] if "set" in v else at.get("dict").list(2)
        types = [_parse_type(p, depth + 1) for p in parts]
        if len(types) != (1 if "set" in v else 2) or not T.is_key_type(types[0]) \
                or len(types) == 2 and not T.is_list_element(types[1]):
            at.fail(f"{'sets' if 'set' in v else 'dicts'} of {', '.join(map(str, types))} are not supported")
        return T.SetType(types[0]) if "set" in v else T.DictType(*types)
    at.fail(f"{v!r:.60} is not a type this version of script knows")


def _parse_value(at: _At, depth: int = 0):
    v = at.value
    if v is None or type(v) in (bool, int):
        return v
    if isinstance(v, dict) and list(v) == ["float"]:
        try:
            return float(at.get("float").str(64))
        except ValueError:
            at.fail(f"{v['float']!r} is not a float")
    if isinstance(v, dict) and list(v) == ["complex"]:
        parts = at.get("complex").list(2)
        try:
            if len(parts) != 2:
                raise ValueError
            return complex(*(float(p.str(64)) for p in parts))
        except ValueError:
            at.fail(f"{v['complex']!r:.60} is not the two parts of a complex number")
    if isinstance(v, dict) and list(v) == ["tuple"] and depth < MAX_TYPE_DEPTH:
        return tuple(_parse_value(e, depth + 1) for e in at.get("tuple").list(64))
    if isinstance(v, dict) and list(v) == ["str"]:
        return at.get("str").str(1 << 20)
    at.fail(f"{v!r:.60} is not a default value this version of script knows")
