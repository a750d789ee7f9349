"""The Python type of compiled functions: a heap type with a vectorcall slot, made by ctypes.

`make_function_type(name, methods)` creates the type with ``PyType_FromSpec`` (flags
HAVE_VECTORCALL | BASETYPE | HAVE_GC | DISALLOW_INSTANTIATION; ``tp_call`` is
``PyVectorcall_Call``; ``__vectorcalloffset__``, ``__dictoffset__``, ``__weaklistoffset__``
members; traverse/clear/dealloc from runtime.dispatch) and assigns `methods` (functions,
properties, anything) onto the type itself: a Python subclass would lose the vectorcall fast
path. ``__dict__`` and ``__weakref__`` in `methods` are skipped: they describe the class
`methods` came from. Instances come only from `new_instance`; each has a ``__dict__`` for the
caller's own attributes, and calls `fallback(*args, **kwargs)` until `set_specializations`
installs entry points (runtime.entry) to try first.

The instance layout is runtime.layout's, the dispatch algorithm runtime.dispatch's. All writes
to an instance's native fields happen here, with the GIL held, in an order that keeps a
concurrent call safe: `ntry` is zeroed before the table changes and set last.
"""

from __future__ import annotations

import ctypes
import functools

from script.backend.runtime import layout
from script.backend.runtime.shared import runtime_library

_Py_tp_call, _Py_tp_clear, _Py_tp_dealloc, _Py_tp_traverse, _Py_tp_members, _Py_tp_getset = \
    50, 51, 52, 71, 72, 73
_T_PYSSIZET, _READONLY = 19, 1
_FLAGS = (1 << 7) | (1 << 10) | (1 << 11) | (1 << 14)
#        DISALLOW_INSTANTIATION | BASETYPE | HAVE_VECTORCALL | HAVE_GC


class _Slot(ctypes.Structure):
    _fields_ = [("slot", ctypes.c_int), ("pfunc", ctypes.c_void_p)]


class _Spec(ctypes.Structure):
    _fields_ = [("name", ctypes.c_char_p), ("basicsize", ctypes.c_int),
                ("itemsize", ctypes.c_int), ("flags", ctypes.c_uint),
                ("slots", ctypes.POINTER(_Slot))]


class _GetSet(ctypes.Structure):
    _fields_ = [("name", ctypes.c_char_p), ("get", ctypes.c_void_p), ("set", ctypes.c_void_p),
                ("doc", ctypes.c_char_p), ("closure", ctypes.c_void_p)]


class _Member(ctypes.Structure):
    _fields_ = [("name", ctypes.c_char_p), ("type", ctypes.c_int), ("offset", ctypes.c_ssize_t),
                ("flags", ctypes.c_int), ("doc", ctypes.c_char_p)]


_api = ctypes.pythonapi
_api.PyType_FromSpec.restype = ctypes.py_object
_api.PyType_FromSpec.argtypes = [ctypes.POINTER(_Spec)]
_api.PyType_GenericAlloc.restype = ctypes.py_object
_api.PyType_GenericAlloc.argtypes = [ctypes.py_object, ctypes.c_ssize_t]
_api.Py_IncRef.argtypes = [ctypes.py_object]
_api.Py_IncRef.restype = None

# Attributes of a class body that describe that class, not methods: never copied.
_TYPE_OWN = frozenset({"__dict__", "__weakref__"})

_specs_alive = []       # spec memory a type may point into, kept for the process's life
_types: dict[int, type] = {}    # the types made here, by id (kept alive)


def make_function_type(name: str, methods: dict | None = None) -> type:
    """A new compiled-function type called `name` (``module.Name`` sets ``__module__``)."""
    rt = runtime_library()
    members = (_Member * 4)(
        _Member(b"__vectorcalloffset__", _T_PYSSIZET, layout.VECTORCALL, _READONLY, None),
        _Member(b"__dictoffset__", _T_PYSSIZET, layout.DICT, _READONLY, None),
        _Member(b"__weaklistoffset__", _T_PYSSIZET, layout.WEAKLIST, _READONLY, None),
        _Member(None, 0, 0, 0, None))
    getset = (_GetSet * 2)(
        _GetSet(b"__dict__", _address(_api.PyObject_GenericGetDict),
                _address(_api.PyObject_GenericSetDict), None, None),
        _GetSet(None, None, None, None, None))
    slots = (_Slot * 7)(
        _Slot(_Py_tp_call, _address(_api.PyVectorcall_Call)),
        _Slot(_Py_tp_members, ctypes.addressof(members)),
        _Slot(_Py_tp_getset, ctypes.addressof(getset)),
        _Slot(_Py_tp_traverse, rt.address["script.traverse"]),
        _Slot(_Py_tp_clear, rt.address["script.clear"]),
        _Slot(_Py_tp_dealloc, rt.address["script.dealloc"]),
        _Slot(0, None))
    qualified = name if "." in name else f"script.{name}"
    spec = _Spec(qualified.encode(), layout.BASICSIZE, 0, _FLAGS, slots)
    _specs_alive.append((spec, slots, members, getset))
    tp = _api.PyType_FromSpec(ctypes.byref(spec))
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


def _address(c_function) -> int:
    return ctypes.cast(c_function, ctypes.c_void_p).value


def _field(obj, offset: int, kind=ctypes.c_ssize_t):
    return kind.from_address(id(obj) + offset)


def _check(obj) -> None:
    if not any(id(c) in _types for c in type(obj).__mro__):
        raise TypeError(f"not a compiled-function object: {type(obj).__name__}")


def new_instance(tp: type, fallback) -> object:
    """A new instance of `tp` (from `make_function_type`) that calls `fallback` for now."""
    if id(tp) not in _types:
        raise TypeError(f"{tp!r} was not made by make_function_type")
    if not callable(fallback):
        raise TypeError("the fallback must be callable")
    obj = _api.PyType_GenericAlloc(tp, 0)      # zeroed and tracked by the GC
    keepalive = []
    _field(obj, layout.NARGS).value = -1
    for offset, value in ((layout.FALLBACK, fallback), (layout.KEEPALIVE, keepalive)):
        _api.Py_IncRef(value)
        _field(obj, offset, ctypes.c_void_p).value = id(value)
    _field(obj, layout.VECTORCALL, ctypes.c_void_p).value = \
        runtime_library().address["script.dispatch"]
    return obj


def set_specializations(obj, specs, nargs: int) -> None:
    """Make `obj` try `specs` in order for calls with `nargs` positional arguments.

    Each spec is a `NativeLibrary` (runtime.library) or the address of an entry point
    (runtime.entry); a library is kept alive by `obj`, an address is the caller's to keep
    valid. One spec becomes the object's vectorcall itself; several go through
    ``script.dispatch``."""
    _check(obj)
    specs = list(specs)
    addresses = [s if isinstance(s, int) else s.entry_address for s in specs]
    table = (ctypes.c_void_p * max(len(addresses), 1))(*addresses)
    # Calls in flight may still read an old table or run old code: keep them all.
    _keepalive(obj).append((table, [s for s in specs if not isinstance(s, int)]))
    vectorcall = _field(obj, layout.VECTORCALL, ctypes.c_void_p)
    vectorcall.value = runtime_library().address["script.dispatch"]
    _field(obj, layout.NTRY).value = 0
    _field(obj, layout.TRIES, ctypes.c_void_p).value = ctypes.addressof(table)
    _field(obj, layout.NARGS).value = nargs
    _field(obj, layout.NTRY).value = len(addresses)
    if len(addresses) == 1:
        vectorcall.value = addresses[0]


def _keepalive(obj) -> list:
    address = _field(obj, layout.KEEPALIVE, ctypes.c_void_p).value
    if address is None:
        raise RuntimeError("compiled function was cleared by the garbage collector")
    return ctypes.cast(address, ctypes.py_object).value
