"""The object `@script` returns: native code in its call slot, Python attributes beside it.

Its type is a heap type made with CPython's `PyType_FromSpec` (see backend.runtime), whose
vectorcall slot runs LLVM-generated code: it checks the argument types against each compiled
specialization and calls the first that matches, with no Python frame in between. When none
matches (a new type signature, keyword arguments, a NumPy scalar, a wrong type), it calls the
Python `_fallback` below, which binds the arguments, compiles a new specialization if the
function is unannotated, and calls again. The methods here are copied onto that heap type,
since a Python subclass would lose the fast call path.

Narrow scalars (i8 … u64 but int64, f32: types no Python value has). Each call dispatches on
its arguments' own types, whatever was compiled before: an unannotated parameter takes a
Python int as int64 and ``numpy.int32(3)`` as i32, so the entry point of a specialization
that inferred i32 matches only NumPy's int32 scalars (`numpy_scalar_params`, runtime.boxing),
never a Python int. An annotated parameter (``x: script.i32``) converts what it is given: a
Python int (OverflowError out of range), natively, and a NumPy scalar of a kind that converts
(`to_python_value`), through the fallback.
"""

from __future__ import annotations

import contextlib
import enum
import threading
import weakref

from script.errors import MIXED_NUMBERS, CompileError
from script.ir import types as T
from script.pyhooks.named_instance import is_argument_class
from script.frontend.typeinfer import (beyond_int64, empty_argument_types, format_signature, python_type_name,
                                      to_python_value, typeof)


class Layers:
    """What this module calls in the layers above it, which import it: the compile cache
    (script.cache), the compiler (script.compiler) and pickling (script.pickling). Set once
    by the package (script/__init__.py), which imports this module before anything can make
    a function object, so that no import closes a cycle (tests/test_import_graph.py); each
    imports its module when first called."""

    lookup = None           # script.cache quick_lookup: a decoration's cache hit, parsing nothing
    build = None            # script.compiler compile_specialization
    build_cached = None     # script.cache cached_specialization: the same through the cache
    reduce_function = None  # script.pickling reduce_function: `f.__reduce__()`
    reduce_module = None    # script.pickling reduce_module: a saved module's (script.saved)


_TYPE = None
_TYPE_LOCK = threading.Lock()
_reentry = threading.local()
_deferred: list | None = None      # CompileErrors of decorations while deferred_compilation() runs
_without_info = weakref.WeakSet()  # functions whose FunctionInfo is made on first use
# code flags (inspect's, not imported: a cache hit stays light) of functions `_reruns` refuses:
# VARARGS VARKEYWORDS GENERATOR COROUTINE ITERABLE_COROUTINE ASYNC_GENERATOR
_NOT_RERUN = 0x4 | 0x8 | 0x20 | 0x80 | 0x100 | 0x200


def function_type():
    """The one heap type of compiled functions, made on first use (by one thread only:
    `is_script_function` compares with it)."""
    global _TYPE
    if _TYPE is None:
        with _TYPE_LOCK:
            if _TYPE is None:
                from script.loadpath import make_function_type
                _TYPE = make_function_type("script.Function", dict(_Methods.__dict__))
    return _TYPE


class _Methods:
    """Attributes of compiled functions (copied onto the heap type; never instantiated)."""

    __module__ = "script"

    def ir(self, stage: str = "opt", signature=None) -> str:
        """The function's code at `stage`: "ssa" (typed SSA from the frontend), "opt" (after the
        IR passes), "llvm" (LLVM IR after LLVM's optimizer) or "asm" (machine code).
        With several specializations, all are shown unless `signature` picks one (a tuple of
        argument types or values' types, e.g. ``(float, int)``)."""
        specs = self._specializations
        compile_before_call(self)
        if not specs:
            raise ValueError(f"{self.__name__} has no compiled specialization yet: call it first "
                             "or annotate its parameters")
        if signature is not None:
            key = _signature_key(self, signature)
            if key not in specs:
                raise ValueError(f"{self.__name__} has no specialization {format_signature(key)}; "
                                 f"it has {', '.join(format_signature(k) for k in specs)}")
            return specs[key].ir(stage)
        return "\n".join(spec.ir(stage) for spec in specs.values())

    @property
    def signatures(self) -> list:
        """The compiled signatures, as ``(float, int) -> float`` strings."""
        return [f"{format_signature(k)} -> {python_type_name(s.ret_type)}"
                for k, s in self._specializations.items()]

    def compile(self, *types):
        """Compile the specialization for these argument types (Python or script types) now."""
        key = _signature_key(self, types)
        _specialization_for(self, key)
        return self

    def __repr__(self):
        return f"<script function {self.__qualname__} at {id(self):#x}>"

    def __reduce__(self):
        """Pickled by its IR and signatures, without source or object code (script.pickling):
        compiled first for its annotations when nothing has compiled it yet."""
        compile_before_call(self)
        return Layers.reduce_function(self)

    def __copy__(self):
        return self

    def __deepcopy__(self, memo):
        return self

    def __get__(self, obj, objtype=None):
        return self


def _signature_key(fn, types) -> tuple:
    from script.frontend.typeinfer import type_from_annotation
    from script.ir import types as T
    out = []
    for t in types:
        ir_t = t if isinstance(t, T.Type) else type_from_annotation(t)
        if ir_t is None:
            raise TypeError(f"{t!r} is not a type compiled functions take")
        out.append(ir_t)
    return tuple(out)


def make_script_function(py_func, opt: int = 2, passes=None, cache: bool = False,
                         boundscheck: bool = True, interruptible: bool = True, nogil: bool = True,
                         fastmath: bool = False, parallel: bool = False, int_overflow: str = "python"):
    """The function object of `py_func`. With `cache`, an annotated function found in the
    compile cache without parsing (script.cache `quick_lookup`) gets its FunctionInfo only
    when something needs it (`function_info`): a hit touches neither the frontend nor LLVM.
    With `int_overflow` "python", a call that raised OverflowError leaving no trace runs
    again as `py_func` (`_rerun_target`)."""
    from script.loadpath import new_instance, set_rerun, set_specializations
    options = dict(boundscheck=boundscheck, interruptible=interruptible, nogil=nogil,
                   fastmath=fastmath, parallel=parallel)
    hit = None
    if cache and _deferred is None:
        hit = Layers.lookup(py_func, opt, passes, **options)
    info = None
    if hit is None:
        from script.frontend.specialize import COMPILE_LOCK, CONTEXT
        with COMPILE_LOCK:
            try:
                info = CONTEXT.info_for(py_func)
            except CompileError as e:
                if _deferred is None:
                    raise
                _deferred.append(e.with_traceback(None))
                return py_func
    target = []      # the fallback needs the object, which needs the fallback: one indirection

    def trampoline(*args, **kwargs):
        return target[0](*args, **kwargs)

    obj = new_instance(function_type(), trampoline)
    d = obj.__dict__
    d.update(py_func=py_func, _specializations={}, _opt=opt, _passes=passes,
             _cache=cache, _boundscheck=boundscheck, _interruptible=interruptible, _nogil=nogil,
             _fastmath=fastmath, _parallel=parallel,
             __name__=py_func.__name__, __qualname__=py_func.__qualname__,
             __doc__=py_func.__doc__, __module__=py_func.__module__, __wrapped__=py_func)
    target.append(_make_fallback(obj))
    if int_overflow == "python" and _reruns(py_func):
        d["_rerun"] = _rerun_target(py_func)
        set_rerun(obj, d["_rerun"])
    if hit is not None:
        arg_types, spec = hit
        d["_specializations"][arg_types] = spec
        set_specializations(obj, [spec.native], len(arg_types))
        _without_info.add(obj)
        return obj
    d["_script_info"] = info
    if info.vararg is not None or info.kwarg is not None or info.hidden_globals or \
            getattr(info, "shared_defaults", ()):
        # Python's binding packs `*args` and `**kwargs` and adds the hidden parameters (the fallback); the
        # specializations live on a second object, so no call from Python reaches them
        # unpacked (frontend/varargs.py, global_writes.py), and each call's objects for
        # the shared defaults are checked (frontend/shared_defaults.py).
        from script.loadpath import plain_function_type

        def no_match(*args, **kwargs):
            raise TypeError(_type_error(obj, info, args))
        d["_packed"] = new_instance(plain_function_type(), no_match)
    return obj      # compiled on the first call, annotated or not: the module has run by then


def _reruns(py_func) -> bool:
    """Whether calls of `py_func` may run again as `py_func(*args)` with the positional
    arguments the compiled call was given: no keyword-only parameter (the fallback passes
    every argument by position), no `*args` or `**kwargs`, not a generator or coroutine."""
    code = py_func.__code__
    return not code.co_kwonlyargcount and not code.co_flags & _NOT_RERUN


def _rerun_target(py_func):
    """What runs a call of `py_func` again (runtime.entry `script.rerun`): the Python
    function, with the fallback's guard against re-entry lifted, since the calls it makes of
    compiled functions are new calls."""
    def rerun(*args):
        active = getattr(_reentry, "active", False)
        _reentry.active = False
        try:
            return py_func(*args)
        finally:
            _reentry.active = active
    return rerun


def signature_before_call(obj) -> tuple | None:
    """The argument types to compile `obj` for when no call has chosen them (`script.save`,
    `scriptc check`): its annotations', where every parameter has one naming a type."""
    info = function_info(obj)
    return tuple(info.param_types) if info.is_annotated else getattr(info, "hinted_signature", None)


def compile_before_call(obj) -> None:
    """Compile `@script` function `obj` for its annotations when nothing has compiled it yet
    (`f.ir()`, `script.save`, pickling: it compiles on its first call, which may not have
    come); a loaded function or one without a full set of annotations is left as it is."""
    d = obj.__dict__
    if d["_specializations"] or d.get("py_func") is None:
        return
    key = signature_before_call(obj)
    if key is not None:
        _specialization_for(obj, key)


def function_info(obj):
    """The frontend's FunctionInfo of a function `@script` returned, made now if its
    decoration deferred it."""
    d = obj.__dict__
    info = d.get("_script_info")
    if info is None:
        from script.frontend.specialize import COMPILE_LOCK, CONTEXT
        with COMPILE_LOCK:
            info = d["_script_info"] = CONTEXT.info_for(d["py_func"])
            _without_info.discard(obj)
    return info


def make_function_infos() -> None:
    """Give every function whose decoration deferred its FunctionInfo one: the frontend
    recognizes a call to a `@script` function by it. Whatever compiles user code
    (script.compiler, script.cuda) calls this first."""
    for obj in list(_without_info):
        function_info(obj)


def is_script_function(obj) -> bool:
    """Whether `obj` is a function object `@script` returned."""
    return _TYPE is not None and type(obj) is _TYPE and obj.__dict__.get("py_func") is not None


@contextlib.contextmanager
def deferred_compilation():
    """Decorate without compiling, so a whole file can be imported and then checked.

    While active (the command line imports users' files this way), `@script` compiles
    nothing when it decorates: annotated functions compile on first call like unannotated
    ones. A decoration that fails at once (an unsupported annotation, ``*args``) returns
    the plain Python function and appends its `CompileError` to the yielded list. Not
    thread-safe: it is meant for a single-threaded import.
    """
    global _deferred
    saved = _deferred
    errors: list = []
    _deferred = errors
    try:
        yield errors
    finally:
        _deferred = saved


def make_loaded_function(info, specs: dict):
    """A function object for a saved function (`script.saved`), which has no source: `info`
    is its `saved_manifest.FunctionEntry`, `specs` maps argument types to loaded
    specializations. It dispatches, checks and converts arguments, binds keywords and
    defaults like the original, and raises TypeError for types it was not saved with."""
    from script.loadpath import new_instance, set_specializations
    target = []

    def trampoline(*args, **kwargs):
        return target[0](*args, **kwargs)

    obj = new_instance(function_type(), trampoline)
    obj.__dict__.update(_saved_info=info, py_func=None, _specializations=dict(specs),
                        __name__=info.name, __qualname__=info.qualname, __doc__=info.doc,
                        __module__=info.module)
    target.append(_make_fallback(obj, info, info.python_signature))
    set_specializations(obj, [s.native for s in specs.values()], len(info.params))
    return obj


def _make_fallback(obj, info=None, make_signature=None):
    """`info` is a saved function's FunctionEntry (which cannot compile: only its saved
    specializations exist), with `make_signature` giving its Python signature; None for a
    `@script` function. Either is made on the first call that needs it (imports cost
    what a cache hit or a load should not)."""
    signature = None

    def fallback(*args, **kwargs):
        nonlocal info, signature
        if signature is None:
            if info is None:
                import inspect
                info = function_info(obj)
                signature = inspect.signature(info.py_func)
            else:
                signature = make_signature()
        try:
            bound = signature.bind(*args, **kwargs)
        except TypeError as e:
            raise TypeError(_binding_error(obj, info, signature, e, args, kwargs)) from None
        if getattr(info, "shared_defaults", ()):
            from script.frontend.shared_defaults import check_given
            check_given(info, bound.arguments)
        bound.apply_defaults()
        hidden = _hidden_globals(info)
        values = list(bound.arguments.values()) + hidden
        if getattr(info, "kwarg", None) is not None and hidden:      # (`**kwargs` is the last parameter)
            values.append(values.pop(len(bound.arguments) - 1))
        statics = _static_arguments(obj, info, values)
        if statics:
            try:
                return _call_bound(obj, info, statics, values)
            finally:
                _store_cells(info, hidden)
        key, coerced = _types_for(obj, info, values)
        if obj.__dict__.get("py_func") is None and key not in obj.__dict__["_specializations"]:
            raise TypeError(_type_error(obj, info, values))
        key = _compile_for(obj, info, key, values)
        _refuse_lost_list_writes(obj, info, key, values, coerced)
        if getattr(_reentry, "active", False):
            # the types match a specialization, the values did not: an int beyond int64?
            if beyond_int64(coerced):
                rerun = obj.__dict__.get("_rerun")
                if rerun is not None:
                    return rerun(*coerced)      # nothing has run: CPython runs the call
                raise OverflowError(f"{obj.__dict__['__name__']}() got an int that does not fit in "
                                    "64 bits (compiled ints are int64)")
            raise TypeError(_type_error(obj, info, values))
        _reentry.active = True
        try:
            return _call_target(obj, key, None, obj.__dict__.get("_packed", obj))(*coerced)
        finally:
            _reentry.active = False
            _store_cells(info, hidden)

    return fallback


def _hidden_globals(info) -> list:
    """The current objects of the module containers `info`'s function takes as hidden
    parameters (frontend/global_writes.py): read at each call, as CPython reads them."""
    names = getattr(info, "hidden_globals", ())
    if not names:
        return []
    from script.frontend.global_writes import CELL
    scope = info.py_func.__globals__
    out = []
    for name in names:
        cell = name.startswith(CELL)       # a rebound scalar: a one-item list, read back after
        g = name[len(CELL):] if cell else name
        if g not in scope:
            raise NameError(f"name '{g}' is not defined")
        out.append([scope[g]] if cell else scope[g])
    return out


def _store_cells(info, hidden: list) -> None:
    """Store the values compiled code left in the cells of rebound scalar globals (after the
    call, on both ways out: the entry point wrote the cells back)."""
    if hidden:
        from script.frontend.global_writes import CELL
        scope = info.py_func.__globals__
        for name, value in zip(info.hidden_globals, hidden):
            if name.startswith(CELL) and type(value) is list and len(value) == 1:
                scope[name[len(CELL):]] = value[0]


def hidden_globals_text(names) -> str:
    """Why a function with hidden parameters is neither saved nor pickled."""
    from script.frontend.global_writes import CELL
    listed = ", ".join(f"'{n.removeprefix(CELL)}'" for n in names)
    return (f"it uses the module global{'s' if len(names) > 1 else ''} {listed}, which its module's "
            "functions write, so compiled code takes it from the module at each call; a saved or "
            "pickled function has no module to take it from (pass it as an argument)")


def _static_arguments(obj, info, values) -> dict:
    """position -> argument for the arguments that are functions (a def, a lambda, a
    builtin such as math.sin, a ufunc, an @script function) or classes: compiled code has no
    values of those, so the function is specialized for the object itself, as a call from
    compiled code binds one (frontend/static_args.py). Only an unannotated parameter the
    function does not assign, of a function with source and no `*args`."""
    if obj.__dict__.get("py_func") is None or info.vararg is not None:
        return {}
    out = {}
    for k, (ann, value) in enumerate(zip(info.param_types, values)):
        if ann is None and _is_static(value):
            from script.frontend.static_args import is_assigned
            if not is_assigned(info, info.param_names[k]):
                out[k] = value
    return out


def _is_static(value) -> bool:
    import types
    if isinstance(value, types.BuiltinFunctionType):
        return value.__self__ is None or isinstance(value.__self__, types.ModuleType)  # not 'x'.join
    if isinstance(value, (types.FunctionType, type)) or is_script_function(value):
        return True
    return type(value).__name__ == "ufunc" and type(value).__module__ == "numpy"


class _Bound:
    """The specializations of a function for one set of static arguments: the bound info
    (`static_args.BoundFunctionInfo`), the objects (held, so their ids stay theirs), and
    the compiled-function object the calls go through, taking the other arguments."""

    __slots__ = ("objects", "info", "specializations", "target")

    def __init__(self, obj, info, statics: dict):
        from script.frontend.static_args import bind_objects
        from script.loadpath import new_instance, plain_function_type
        self.objects = tuple(statics.values())
        self.info = bind_objects(info, {info.param_names[k]: v for k, v in statics.items()})
        self.specializations = {}

        def no_match(*args):
            raise TypeError(_type_error(obj, self.info, list(args)))
        self.target = new_instance(plain_function_type(), no_match)


def _call_bound(obj, info, statics: dict, values: list):
    """Call `obj` with static arguments `statics` (position -> object) among `values`."""
    ident = tuple((k, id(v)) for k, v in statics.items())
    table = obj.__dict__.setdefault("_bound", {})
    entry = table.get(ident)
    if entry is None:
        from script.frontend.specialize import COMPILE_LOCK
        with COMPILE_LOCK:
            entry = table.setdefault(ident, _Bound(obj, info, statics))
    rest = [v for k, v in enumerate(values) if k not in statics]
    key, coerced = _types_for(obj, entry.info, rest)
    key = _compile_for(obj, entry.info, key, rest, entry)
    _refuse_lost_list_writes(entry, entry.info, key, rest, coerced)
    return _call_target(obj, key, entry, entry.target)(*coerced)


def _binding_error(obj, info, signature, error: TypeError, args, kwargs) -> str:
    """CPython's own text for arguments that do not bind (``f() missing 1 required positional
    argument: 'b'``): the Python function is called with them, which fails before its body
    runs, as the binding did; a saved function, which has none, through a stand-in with its
    `signature` (inspect's words where none can be made)."""
    py_func = obj.__dict__.get("py_func")
    try:
        (py_func or _stand_in(info.name, signature))(*args, **kwargs)
    except TypeError as e:
        return str(e)
    except Exception:  # noqa: BLE001 - a stand-in that cannot be made: inspect's words
        pass
    return f"{info.name}(): {error}"


def _stand_in(name: str, signature):
    """A Python function with `signature`'s parameters and an empty body, for CPython's
    binding errors of a saved function, which has no Python function of its own."""
    import inspect
    params = [p.replace(annotation=inspect.Parameter.empty,
                        default=inspect.Parameter.empty if p.default is inspect.Parameter.empty else None)
              for p in signature.parameters.values()]
    text = str(signature.replace(parameters=params, return_annotation=inspect.Signature.empty))
    scope: dict = {}
    exec(f"def {name}{text}:\n    pass\n", scope)  # noqa: S102 - names and markers from a signature
    return scope[name]


def _refuse_lost_list_writes(obj, info, key: tuple, values: list, coerced: list) -> None:
    """TypeError where an argument list had to be converted into a new list (an annotation
    asked for floats, the list holds ints) and the specialization writes it: the writes
    would reach the copy, not the caller's list (runtime.list_reflect)."""
    copied = [k for k, (v, c) in enumerate(zip(values, coerced)) if _list_copied(v, c)]
    if not copied:
        return
    spec = _specializations_of(obj).get(key)
    written = getattr(spec, "_written_lists", None)
    if written is None:
        from script.ir.list_flow import param_list_effects
        try:
            funcs = list(spec.module.functions.values())
            written = {k for k, _ in param_list_effects(funcs)[0]}
        except Exception:       # noqa: BLE001 - no IR to tell: take every list as written
            written = set(range(len(key)))
        try:
            spec._written_lists = written
        except AttributeError:
            pass
    for k in copied:
        if k in written:
            name = info.param_names[k]
            raise TypeError(f"{info.name}(): argument '{name}' is a list the function writes, and it must "
                            f"be converted to {format_signature((key[k],))[1:-1]} (its annotation): the writes "
                            f"would be lost; pass a list of that type, or drop the annotation")


def _list_copied(value, coerced) -> bool:
    """Whether `coerced` (`to_python_value` of `value`) holds a new list where `value` holds one."""
    if type(value) is list:
        return coerced is not value
    return type(value) is tuple and any(_list_copied(v, c) for v, c in zip(value, coerced))


def numpy_scalar_params(annotations, arg_types) -> tuple:
    """The positions of the unannotated parameters (annotation None) whose argument types hold
    a narrow scalar type (`_has_narrow`): their specialization's entry point takes those as
    NumPy scalars (backend `numpy_scalars`). A function's, a saved function's and a cached
    function's specializations all take the rule from here."""
    return tuple(k for k, (ann, t) in enumerate(zip(annotations, arg_types))
                 if ann is None and _has_narrow(t))


def _has_narrow(t) -> bool:
    """Whether `t` is or holds (in a tuple) a scalar type no Python value has (runtime.boxing
    `has_narrow`, which this module does not import: it is on the load path)."""
    if isinstance(t, T.TupleType):
        return any(_has_narrow(e) for e in t.elems)
    return isinstance(t, T.IntType) and t != T.I64 or t == T.F32


def _specializations_of(obj) -> dict:
    return obj.specializations if isinstance(obj, _Bound) else obj.__dict__["_specializations"]


def _compile_for(obj, info, key: tuple, values: list, bound: _Bound | None = None) -> tuple:
    """The specialization for argument types `key`, or for the types tried instead (which
    this returns). An empty container argument (`[]`, `[[]]`, `{}`, `set()`) holds ints
    there; when the function does not compile so, it takes the other types typeinfer
    `empty_argument_types` lists, each empty argument its k-th, in turn (`if not words:
    return []` before `w.upper()` compiles with strs), else the TypeError that asks for an
    annotation. An instance's fields that hold only None are first taken to hold None or an
    instance of its class (`head.next = node` of a one-node list), then None only
    (instance_args)."""
    failed = obj.__dict__.setdefault("_failed_guesses", set())
    if (id(bound), key) in failed:
        other = _retyped(key, values, failed, bound)
        if other != key:
            return _compile_for(obj, info, other, values, bound)
        # (every typing failed before: build again, to raise what the first call raised)
    try:
        _specialization_for(obj, key, bound)
        return key
    except CompileError as e:
        if takes_instances(key):
            failed.add((id(bound), key))
            other = _retyped(key, values, failed, bound)
            if other != key:
                return _compile_for(obj, info, other, values, bound)
        other = {k: empty_argument_types(v, t) for k, (ann, v, t) in
                 enumerate(zip(info.param_types, values, key)) if ann is None}
        if e.reason == MIXED_NUMBERS:
            # a list of ints the function stores floats into (`row[j] /= 2`), or of floats it
            # stores ints into: its elements ints and floats, each kept as it is (`num`), as
            # CPython's list holds them
            # (or of strs a function stores numbers into, or the reverse: a list of their
            # union, `[1, "a"]`, each element kept as it is)
            for k, (ann, t) in enumerate(zip(info.param_types, key)):
                wide = T.num_leaves(t) if type(t) is T.ListType else None
                if ann is None and wide not in (None, t):
                    other[k] = other.get(k, []) + [wide]
                wide = _union_leaves(t) if ann is None and type(t) is T.ListType else None
                if wide not in (None, t):
                    other[k] = other.get(k, []) + [wide]
        guessed = any(empty_argument_types(v, t) for v, t in zip(values, key))
        other = {k: ts for k, ts in other.items() if ts}
        if not other:
            raise
        first = e
    for j in range(max(map(len, other.values()))):
        try:
            alternative = tuple(other[k][min(j, len(other[k]) - 1)] if k in other else t
                                for k, t in enumerate(key))
            _specialization_for(obj, alternative, bound)
            return alternative
        except CompileError:
            pass
    if not guessed:         # (only list[num] tried, and it failed too: the first build's error)
        raise first.with_traceback(None) from None
    k = min(other)
    why = str(first).splitlines()[0] if str(first) else ""
    raise TypeError(_type_error(obj, info, values, bad=(info.param_names[k], values[k]))
                    + (f" (with {format_signature(key)} it fails: {why})" if why else "")) from None


def _union_leaves(t):
    """List type `t` (of lists) of ints, floats, strs or a union of them, as a list of the
    union of all three (None for another type)."""
    if type(t) is T.ListType:
        inner = _union_leaves(t.elem)
        return None if inner is None else T.ListType(inner)
    if t in _UNION_LEAVES or isinstance(t, T.IntFloatType) or \
            isinstance(t, T.UnionType) and set(t.alternatives) <= set(_UNION_LEAVES):
        return T.UnionType(_UNION_LEAVES)
    return None


_UNION_LEAVES = (T.I64, T.F64, T.STR)


def _retyped(key: tuple, values: list, failed: set, bound) -> tuple:
    """Argument types for instances whose types `key` did not compile: typed again, now that
    the failed build may have widened their classes' fields (an int field given a float:
    int|float), with the guess for None-only fields, then without (instance_args); `key`
    itself when every one of those failed too."""
    from script.frontend.instance_args import holding_type_of, instance_type_of
    for empty in range(_EMPTY_DICT_GUESSES):        # (fields holding `{}`: instance_args)
        for guess in (True, False):
            other = tuple(t if not takes_instances((t,)) else instance_type_of(v, typeof, guess=guess, empty=empty)
                          if isinstance(t, T.ClassType) else holding_type_of(v, typeof, guess=guess, empty=empty)
                          for t, v in zip(key, values))
            if (id(bound), other) not in failed:
                return other
    return key


_EMPTY_DICT_GUESSES = 12        # (instance_args.empty_dict_types)


def _types_for(obj, info, values):
    types, coerced = [], []
    tables: dict = {}           # the dicts and sets in fields of instance arguments
    hints = getattr(info, "param_hints", info.param_types)
    for name, ann, hint, value in zip(info.param_names, info.param_types, hints, values):
        if ann is None and hint is not None and _types_empty(hint, value):
            ann = hint      # `xs: list[float]` given []: the annotation types the empty list
        if ann is not None:
            try:
                coerced.append(to_python_value(ann, value))
            except (TypeError, ValueError):
                raise TypeError(_type_error(obj, info, values)) from None
            types.append(ann)
            continue
        t = typeof(value)
        if t is None and isinstance(value, (int, float, str, complex)):      # a subclass: _type_error says
            raise TypeError(_type_error(obj, info, values, bad=(name, value)))
        if t is None and (is_argument_class(type(value)) or type(value) in (list, tuple)):
            from script.frontend.instance_args import NotAnArgument, holding_type_of, instance_type_of
            try:
                t = instance_type_of(value, typeof, held=tables) if is_argument_class(type(value)) else \
                    holding_type_of(value, typeof, held=tables)
            except NotAnArgument as e:
                raise TypeError(f"{_type_error(obj, info, values)}; argument '{name}' cannot be "
                                f"passed: {e}") from None
        if t is not None and takes_instances((t,)):
            types.append(t)
            coerced.append(value)       # the caller's objects: the entry point writes them back
            continue
        if t is None:
            raise TypeError(_type_error(obj, info, values, bad=(name, value)))
        types.append(t)
        coerced.append(to_python_value(t, value, numpy_scalars=True))
    if tables:
        from script.frontend.instance_args import NotAnArgument, check_tables_apart
        try:
            check_tables_apart(tables, values, types)
        except NotAnArgument as e:
            raise TypeError(f"{_type_error(obj, info, values)}; {e}") from None
    return tuple(types), coerced


def _types_empty(hint, value) -> bool:
    """Whether annotation `hint` gives the types an empty container argument `value` lacks
    (`[]`, `[[]]`, `{}`, `set()`: values whose own type `typeof` guesses)."""
    t = typeof(value)
    if t is None or type(t) is not type(hint) or not empty_argument_types(value, t):
        return False
    try:
        to_python_value(hint, value)
    except (TypeError, ValueError):
        return False
    return True


def _describe_value(v) -> str:
    """The type of argument `v` as a signature names it (an array's dtype, rank, layout)."""
    if type(v).__name__ == "ndarray":
        t = typeof(v)
        return str(t) if t is not None else f"ndarray of {v.dtype} ({v.ndim}-d)"
    return type(v).__name__


def _type_error(obj, info, values, bad=None) -> str:
    got = "(" + ", ".join(_describe_value(v) for v in values) + ")"
    accepted = [format_signature(k) for k in obj.__dict__["_specializations"]]
    if info.is_annotated:
        accepted = [format_signature(info.param_types)]
    text = f"{info.name}() got arguments of types {got}"
    if bad is not None:
        text += f"; argument '{bad[0]}' of type {type(bad[1]).__name__} is not supported in compiled code"
        if type(bad[1]) is list:
            text += (" (an empty list has no element type, and the function compiles for none of "
                     "ints, floats and strs: annotate the parameter, e.g. list[int])"
                     if not bad[1] else " (list arguments hold only bools, only ints within int64, "
                     "only floats, or ints and floats (not with None: ints and floats together "
                     "are kept apart only without None), or only strs; "
                     "tuples of numbers and strs; numbers or None; "
                     "or lists of such lists)")
        if isinstance(bad[1], enum.Enum):
            from script.frontend.enum_values import is_plain_enum_class, refusal
            why = refusal(type(bad[1])) if is_plain_enum_class(type(bad[1])) else None
            text += (f" ({why})" if why else " (a member of an IntEnum, StrEnum or IntFlag is not its value "
                     "to CPython: pass member.value; docs/differences.md)")
        elif isinstance(bad[1], (int, float, str, complex)) and not type(bad[1]).__module__.startswith("numpy"):
            base = next(c for c in (bool, int, float, str, complex) if isinstance(bad[1], c))
            text += (f" (a subclass of {base.__name__}: compiled code would give back a plain {base.__name__}; "
                     f"pass {base.__name__}(x))")
        elif not isinstance(bad[1], type) and isinstance(getattr(bad[1], "__dict__", None), dict):
            text += " (instances of classes stay inside compiled code: pass their fields; docs/records.md)"
        if type(bad[1]) in (dict, set):
            text += (f" (an empty {type(bad[1]).__name__} has no key type, and the function compiles for "
                     f"none of the usual ones: annotate the parameter, e.g. "
                     f"{'dict[int, int]' if type(bad[1]) is dict else 'set[int]'})" if not bad[1] else
                     " (keys, and values, must each be of one type: bools, ints, floats (ints and floats together), strs or tuples of them,"
                     " or for values lists (of lists) of those, or dicts or sets; dicts of arrays can be results"
                     " but not arguments)")
    if accepted:
        text += f"; it accepts {' or '.join(accepted)}"
    return text


def _specialization_for(obj, key: tuple, bound: _Bound | None = None):
    """The specialization of `obj` for `key`, compiled now if it has none; with `bound`, of
    `obj` for those static arguments (never in the compile cache, which keys on source)."""
    d = obj.__dict__
    specs = d["_specializations"] if bound is None else bound.specializations
    spec = specs.get(key)
    if spec is not None:
        return spec
    if d.get("py_func") is None:
        raise TypeError(f"{d['__name__']}() was loaded from a saved module without a "
                        f"specialization {format_signature(key)}; it has "
                        f"{', '.join(format_signature(k) for k in specs)}")
    build = Layers.build_cached if d.get("_cache") and bound is None else Layers.build
    from script.frontend.specialize import COMPILE_LOCK
    with COMPILE_LOCK:
        spec = specs.get(key)
        if spec is not None:
            return spec
        try:
            spec = build(function_info(obj) if bound is None else bound.info, key, d["_opt"], d["_passes"], d.get("_boundscheck", True),
                         interruptible=d.get("_interruptible", True), nogil=d.get("_nogil", True),
                         fastmath=d.get("_fastmath", False), parallel=d.get("_parallel", False))
        except CompileError as e:
            raise e.with_traceback(None) from None
        specs[key] = spec
        from script.loadpath import new_instance, plain_function_type, set_specializations
        if takes_instances(key):
            # Its entry point matches an instance by its class only (the fields' types are
            # the dispatcher's: instance_args): called through the fallback, which typed them.
            target = new_instance(plain_function_type(), _no_instance_match)
            d.setdefault("_instance_targets", {})[(id(bound), key)] = target
            set_specializations(target, [spec.native], len(key))
            return spec
        target = d.get("_packed", obj) if bound is None else bound.target
        set_specializations(target, [s.native for k, s in specs.items() if not takes_instances(k)], len(key))
    return spec


def takes_instances(key: tuple) -> bool:
    """Whether a specialization's argument types hold an instance of a user's class (alone,
    or in a list or tuple of them: instance_args)."""
    return any(isinstance(t, T.ClassType) or isinstance(t, T.ListType) and isinstance(t.elem, T.ClassType)
               or type(t) is T.TupleType and any(isinstance(e, T.ClassType) for e in t.elems) for t in key)


def _no_instance_match(*args):
    raise TypeError("the instances passed do not have the fields' types they were typed with")


def _call_target(obj, key: tuple, bound, default):
    """What a call with argument types `key` goes through: the specialization's own object
    where it takes instances (`_specialization_for`), else `default`."""
    targets = obj.__dict__.get("_instance_targets")
    return targets.get((id(bound), key), default) if targets and takes_instances(key) else default
