"""The runtime library as a Python extension module, ``script._runtime``: the native half of
the load path, so that loading compiled code needs neither ctypes nor LLVM.

``PyInit__runtime`` (in the runtime library, runtime.shared) creates a module whose
functions (METH_FASTCALL, generated here in LLVM IR) do what the load path would otherwise do
through ctypes:

    new_type(name: bytes) -> type           the compiled-function heap type (script.loadpath)
    new_instance(tp, fallback) -> object    an instance calling `fallback` for now
    set_specializations(obj, table: bytes, nargs: int, keep) -> None
                                            install the entry points packed in `table`
    set_rerun(obj, target) -> None          what runs a call again when it raised
                                            OverflowError leaving no trace (None: nothing)
    sigint_hook(install: int) -> int        put the SIGINT hook in front (1) or take it out (0)
    sigint_count() -> int                   SIGINTs the hook has seen
    dlopen(path: bytes) -> int              a shared object's handle (OSError when it fails)
    dlsym(handle: int, name: bytes) -> int  a symbol's address, 0 when it has none
    stack_limit() -> int                    the soft RLIMIT_STACK, -1 when unlimited
                                            (these three on POSIX systems only)
    reserve(size: int) -> int               an address range of `size` bytes, inaccessible
                                            (mmap PROT_NONE, private, anonymous, NORESERVE)
    protect(address: int, size: int, prot: int) -> None     mprotect
    discard(address: int, size: int) -> None                madvise MADV_DONTNEED
    unmap(address: int, size: int) -> None                  munmap
    write(address: int, data: bytearray) -> None            copy `data` to `address`
                                            (these five: native.arena's memory, on POSIX
                                            systems only; OSError with errno when refused)

and ``names``, the runtime library's exported symbols (bytes, one a line). Where the runtime
library is a shared object (native.elfso) Python imports it with ``_imp.create_dynamic``;
where LLVM's JIT links it, Python calls ``PyInit__runtime`` through ctypes
(script.loadpath). The memory functions are native.arena's, so that linking code with
native.elfload needs no ctypes either (a cache hit imports none). The writes to an
instance follow runtime.layout, in the order script.loadpath documents.
"""

from __future__ import annotations

import os

from script.backend.llvm.builder import (
    NULL, Builder, Callee, NativeModule, Value, global_ref, int_const)
from script.backend.runtime import layout
from script.store import INIT_SYMBOL, MODULE_NAME

_PYTHON_API_VERSION = 1013
_METH_FASTCALL = 0x80
_SIGINT, _RTLD_NOW, _RLIMIT_STACK = 2, 2, 3
_MAP_PRIVATE_ANONYMOUS_NORESERVE, _MADV_DONTNEED = 0x02 | 0x20 | 0x4000, 4    # Linux's values
_Py_tp_call, _Py_tp_clear, _Py_tp_dealloc, _Py_tp_traverse, _Py_tp_members, _Py_tp_getset = \
    50, 51, 52, 71, 72, 73
_T_PYSSIZET, _READONLY = 19, 1
TYPE_FLAGS = (1 << 7) | (1 << 10) | (1 << 11) | (1 << 14)
#            DISALLOW_INSTANTIATION | BASETYPE | HAVE_VECTORCALL | HAVE_GC

# C functions the module calls (beyond runtime.capi's table): name -> (ret, params, varargs)
_API = {
    "PyModule_Create2": ("ptr", ["ptr", "i32"]),
    "PyModule_AddObjectRef": ("i32", ["ptr", "ptr", "ptr"]),
    "PyBytes_FromStringAndSize": ("ptr", ["ptr", "i64"]),
    "PyBytes_AsString": ("ptr", ["ptr"]),
    "PyBytes_Size": ("i64", ["ptr"]),
    "PyLong_AsVoidPtr": ("ptr", ["ptr"]),
    "PyLong_FromVoidPtr": ("ptr", ["ptr"]),
    "PyLong_AsSsize_t": ("i64", ["ptr"]),
    "PyLong_FromLongLong": ("ptr", ["i64"]),
    "PyErr_Occurred": ("ptr", []),
    "PyErr_SetString": ("void", ["ptr", "ptr"]),
    "PyType_FromSpec": ("ptr", ["ptr"]),
    "PyType_GenericAlloc": ("ptr", ["ptr", "i64"]),
    "PyList_New": ("ptr", ["i64"]),
    "PyList_Append": ("i32", ["ptr", "ptr"]),
    "Py_IncRef": ("void", ["ptr"]),
    "Py_DecRef": ("void", ["ptr"]),
    "PyOS_getsig": ("ptr", ["i32"]),
    "PyOS_setsig": ("ptr", ["i32", "ptr"]),
    "dlopen": ("ptr", ["ptr", "i32"]),
    "dlsym": ("ptr", ["ptr", "ptr"]),
    "dlerror": ("ptr", []),
    "getrlimit": ("i32", ["i32", "ptr"]),
    "PyErr_SetFromErrno": ("ptr", ["ptr"]),
    "PyByteArray_AsString": ("ptr", ["ptr"]),
    "PyByteArray_Size": ("i64", ["ptr"]),
    "mmap": ("ptr", ["ptr", "i64", "i32", "i32", "i32", "i64"]),
    "mprotect": ("i32", ["ptr", "i64", "i32"]),
    "madvise": ("i32", ["ptr", "i64", "i32"]),
    "munmap": ("i32", ["ptr", "i64"]),
    "memcpy": ("ptr", ["ptr", "ptr", "i64"]),
}


class _Calls:
    def __init__(self, m: NativeModule, b: Builder):
        self.m, self.b = m, b

    def __getattr__(self, name: str):
        ret, params = _API[name]
        callee = self.m.declare(name, ret, params, attrs=("nounwind",))
        return lambda *args: self.b.call(callee, list(args))


def build_runtime(m: NativeModule, names: list[str]) -> list[str]:
    """Define the module's functions and ``PyInit__runtime`` in `m` (the runtime library, whose
    exported symbols are `names`); returns the names this adds."""
    methods = [
        ("new_type", 1, _new_type),
        ("new_instance", 2, _new_instance),
        ("set_specializations", 4, _set_specializations),
        ("set_rerun", 2, _set_rerun),
        ("sigint_hook", 1, _sigint_hook),
        ("sigint_count", 0, _sigint_count),
        ("poke", 2, _poke),
    ]
    if os.name == "posix":          # what the load path uses where shared objects run
        methods += [("dlopen", 1, _dlopen), ("dlsym", 2, _dlsym), ("stack_limit", 0, _stack_limit),
                    ("reserve", 1, _reserve), ("protect", 3, _protect), ("discard", 2, _discard),
                    ("unmap", 2, _unmap), ("write", 2, _write)]
    entries = []
    for name, nargs, body in methods:
        fn = _method(m, name, nargs, body)
        entries.append(f"{{ptr, ptr, i32, ptr}} {{ptr {m.cstring(name.encode()).ref}, "
                       f"ptr {fn.ref}, i32 {_METH_FASTCALL}, ptr null}}")
    entries.append("{ptr, ptr, i32, ptr} zeroinitializer")
    table = m.define_global("script.module.methods", f"[{len(entries)} x {{ptr, ptr, i32, ptr}}]",
                            f"[{', '.join(entries)}]")
    # PyModuleDef: PyModuleDef_HEAD_INIT (refcnt 1, type, m_init, m_index, m_copy), m_name,
    # m_doc, m_size (-1: no per-module state), m_methods, m_slots, traverse, clear, free.
    definition = m.define_global(
        "script.module.def", "{i64, ptr, ptr, i64, ptr, ptr, ptr, i64, ptr, ptr, ptr, ptr, ptr}",
        f"{{i64 1, ptr null, ptr null, i64 0, ptr null, ptr {m.cstring(MODULE_NAME.encode()).ref}, "
        f"ptr null, i64 -1, ptr {table.ref}, ptr null, ptr null, ptr null, ptr null}}")
    _build_init(m, definition, names + [INIT_SYMBOL])
    return [INIT_SYMBOL]


def _build_init(m: NativeModule, definition: Value, names: list[str]) -> None:
    fn = m.new_function(INIT_SYMBOL, "ptr", [], linkage="external")
    b = Builder(fn, fn.append_block("entry"))
    c = _Calls(m, b)
    module = c.PyModule_Create2(definition, int_const("i32", _PYTHON_API_VERSION))
    made, failed = fn.append_block("made"), fn.append_block("failed")
    b.cbranch(b.icmp("eq", module, NULL), failed, made)
    b.position_at_end(made)
    text = "\n".join(names).encode()
    listing = c.PyBytes_FromStringAndSize(m.cstring(text), int_const("i64", len(text)))
    added = c.PyModule_AddObjectRef(module, m.cstring(b"names"), listing)   # NULL: fails
    ok, undo = fn.append_block("ok"), fn.append_block("undo")
    b.cbranch(b.icmp("eq", added, int_const("i32", 0)), ok, undo)
    b.position_at_end(ok)
    c.Py_DecRef(listing)
    b.ret(module)
    b.position_at_end(undo)
    c.Py_DecRef(module)
    b.branch(failed)
    b.position_at_end(failed)
    b.ret(NULL)


def _method(m: NativeModule, name: str, nargs: int, body):
    """A METH_FASTCALL function ``script.module.<name>`` taking exactly `nargs` arguments,
    whose body `body(m, b, fn, args, fail)` returns its result (NULL with an exception set
    for an error; `fail` is a block that returns NULL)."""
    fn = m.new_function(f"script.module.{name}", "ptr", ["ptr", "ptr", "i64"])
    _, argv, count = fn.args
    b = Builder(fn, fn.append_block("entry"))
    fail, wrong, go = fn.append_block("fail"), fn.append_block("arity"), fn.append_block("go")
    b.cbranch(b.icmp("eq", count, int_const("i64", nargs)), go, wrong)
    b.position_at_end(wrong)
    _raise(m, b, "TypeError", f"{name}() takes {nargs} arguments")
    b.branch(fail)
    b.position_at_end(fail)
    b.ret(NULL)
    b.position_at_end(go)
    args = [b.load("ptr", b.gep("ptr", argv, int_const("i64", k))) for k in range(nargs)]
    b.ret(body(m, b, fn, args, fail))
    return fn


def _raise(m: NativeModule, b: Builder, exception: str, message: str) -> None:
    cls = b.load("ptr", m.declare_data(f"PyExc_{exception}", "ptr"))
    _Calls(m, b).PyErr_SetString(cls, m.cstring(message.encode()))


def _none(m: NativeModule, b: Builder) -> Value:
    none = m.declare_data("_Py_NoneStruct")
    _Calls(m, b).Py_IncRef(none)
    return none


def _check(b: Builder, fn, failed: Value, fail) -> None:
    """Go to `fail` when `failed`, else on."""
    on = fn.append_block()
    b.cbranch(failed, fail, on)
    b.position_at_end(on)


def _converted(m: NativeModule, b: Builder, fn, value: Value, error: Value, fail) -> Value:
    """`value`, a C-API conversion's result, going to `fail` when it equals `error` and an
    exception is set."""
    c = _Calls(m, b)
    suspect, on = fn.append_block("suspect"), fn.append_block("converted")
    b.cbranch(b.icmp("eq", value, error), suspect, on)
    b.position_at_end(suspect)
    b.cbranch(b.icmp("ne", c.PyErr_Occurred(), NULL), fail, on)
    b.position_at_end(on)
    return value


# ---- the functions ------------------------------------------------------------------------

def _new_type(m, b, fn, args, fail):
    c = _Calls(m, b)
    name = c.PyBytes_AsString(args[0])
    _check(b, fn, b.icmp("eq", name, NULL), fail)
    api = {n: m.declare(n, "ptr", ["ptr"]).ref for n in
           ("PyVectorcall_Call", "PyObject_GenericGetDict", "PyObject_GenericSetDict")}
    members = m.define_global(
        "script.module.members", "[4 x {ptr, i32, i64, i32, ptr}]",
        "[" + ", ".join(
            f"{{ptr, i32, i64, i32, ptr}} {{ptr {m.cstring(member.encode()).ref}, "
            f"i32 {_T_PYSSIZET}, i64 {offset}, i32 {_READONLY}, ptr null}}"
            for member, offset in (("__vectorcalloffset__", layout.VECTORCALL),
                                   ("__dictoffset__", layout.DICT),
                                   ("__weaklistoffset__", layout.WEAKLIST)))
        + ", {ptr, i32, i64, i32, ptr} zeroinitializer]")
    getset = m.define_global(
        "script.module.getset", "[2 x {ptr, ptr, ptr, ptr, ptr}]",
        f"[{{ptr, ptr, ptr, ptr, ptr}} {{ptr {m.cstring(b'__dict__').ref}, "
        f"ptr {api['PyObject_GenericGetDict']}, ptr {api['PyObject_GenericSetDict']}, "
        "ptr null, ptr null}, {ptr, ptr, ptr, ptr, ptr} zeroinitializer]")
    slots = [(_Py_tp_call, api["PyVectorcall_Call"]), (_Py_tp_members, members.ref),
             (_Py_tp_getset, getset.ref), (_Py_tp_traverse, global_ref("script.traverse")),
             (_Py_tp_clear, global_ref("script.clear")),
             (_Py_tp_dealloc, global_ref("script.dealloc")), (0, "null")]
    table = m.define_global("script.module.slots", f"[{len(slots)} x {{i32, ptr}}]",
                            "[" + ", ".join(f"{{i32, ptr}} {{i32 {k}, ptr {v}}}"
                                            for k, v in slots) + "]")
    spec = b.alloca("{ptr, i32, i32, i32, ptr}")       # PyType_Spec
    b.store(name, spec)
    b.store_at(int_const("i32", layout.BASICSIZE), spec, 8)
    b.store_at(int_const("i32", 0), spec, 12)
    b.store_at(int_const("i32", TYPE_FLAGS), spec, 16)
    b.store_at(table, spec, 24)
    return c.PyType_FromSpec(spec)


def _new_instance(m, b, fn, args, fail):
    c = _Calls(m, b)
    tp, fallback = args
    obj = c.PyType_GenericAlloc(tp, int_const("i64", 0))       # zeroed, tracked by the GC
    _check(b, fn, b.icmp("eq", obj, NULL), fail)
    b.store_at(int_const("i64", -1), obj, layout.NARGS)
    c.Py_IncRef(fallback)
    b.store_at(fallback, obj, layout.FALLBACK)
    keep = c.PyList_New(int_const("i64", 0))
    made, undo = fn.append_block("made"), fn.append_block("undo")
    b.cbranch(b.icmp("eq", keep, NULL), undo, made)
    b.position_at_end(undo)
    c.Py_DecRef(obj)
    b.branch(fail)
    b.position_at_end(made)
    b.store_at(keep, obj, layout.KEEPALIVE)
    b.store_at(Value("ptr", global_ref("script.dispatch")), obj, layout.VECTORCALL)
    return obj


def _set_specializations(m, b, fn, args, fail):
    """Entries are zeroed before the table changes and counted last: a call in another
    thread (which holds the GIL only between bytecodes) never sees a half-written state."""
    c = _Calls(m, b)
    obj, table, nargs, keep = args
    tries = c.PyBytes_AsString(table)
    _check(b, fn, b.icmp("eq", tries, NULL), fail)
    count = b.ashr(c.PyBytes_Size(table), int_const("i64", 3))
    n = _converted(m, b, fn, c.PyLong_AsSsize_t(nargs), int_const("i64", -1), fail)
    keepalive = b.load_at("ptr", obj, layout.KEEPALIVE)
    cleared, present = fn.append_block("cleared"), fn.append_block("present")
    b.cbranch(b.icmp("eq", keepalive, NULL), cleared, present)
    b.position_at_end(cleared)
    _raise(m, b, "RuntimeError", "compiled function was cleared by the garbage collector")
    b.branch(fail)
    b.position_at_end(present)
    _check(b, fn, b.icmp("ne", c.PyList_Append(keepalive, keep), int_const("i32", 0)), fail)
    b.store_at(Value("ptr", global_ref("script.dispatch")), obj, layout.VECTORCALL)
    b.store_at(int_const("i64", 0), obj, layout.NTRY)
    b.store_at(tries, obj, layout.TRIES)
    b.store_at(n, obj, layout.NARGS)
    b.store_at(count, obj, layout.NTRY)
    single, done = fn.append_block("single"), fn.append_block("done")
    b.cbranch(b.icmp("eq", count, int_const("i64", 1)), single, done)
    b.position_at_end(single)
    b.store_at(b.load("ptr", tries), obj, layout.VECTORCALL)
    b.branch(done)
    b.position_at_end(done)
    return _none(m, b)


def _set_rerun(m, b, fn, args, fail):
    """Hold `target` (None: NULL) in the instance's rerun field, dropping the one it held."""
    c = _Calls(m, b)
    obj, target = args
    none = m.declare_data("_Py_NoneStruct")
    target = b.select(b.icmp("eq", target, none), NULL, target)
    old = b.load_at("ptr", obj, layout.RERUN)
    held, stored = fn.append_block("held"), fn.append_block("stored")
    b.cbranch(b.icmp("ne", target, NULL), held, stored)
    b.position_at_end(held)
    c.Py_IncRef(target)
    b.branch(stored)
    b.position_at_end(stored)
    b.store_at(target, obj, layout.RERUN)
    dropped, done = fn.append_block("dropped"), fn.append_block("done")
    b.cbranch(b.icmp("ne", old, NULL), dropped, done)
    b.position_at_end(dropped)
    c.Py_DecRef(old)
    b.branch(done)
    b.position_at_end(done)
    return _none(m, b)


def _sigint_hook(m, b, fn, args, fail):
    """Install (argument 1): unless the hook is there already, or SIGINT is not handled by a
    function (SIG_DFL, SIG_IGN, SIG_ERR), record the current handler as the one to chain to,
    then install the hook; should the handler have changed in between, chain to the one
    replaced. Uninstall (0): give SIGINT back to the chained handler if the hook is there.
    Returns whether the hook is installed."""
    from script.backend.runtime.interrupt import HANDLER_SYMBOL, PREVIOUS_SYMBOL
    c = _Calls(m, b)
    install = _converted(m, b, fn, c.PyLong_AsSsize_t(args[0]), int_const("i64", -1), fail)
    handler = Value("ptr", global_ref(HANDLER_SYMBOL))
    previous = Value("ptr", global_ref(PREVIOUS_SYMBOL))
    sigint = int_const("i32", _SIGINT)
    yes, no = fn.append_block("yes"), fn.append_block("no")
    current = c.PyOS_getsig(sigint)
    hooked = b.icmp("eq", current, handler)
    adding, removing = fn.append_block("adding"), fn.append_block("removing")
    b.cbranch(b.icmp("ne", install, int_const("i64", 0)), adding, removing)
    b.position_at_end(removing)
    put_back = fn.append_block("put_back")
    b.cbranch(hooked, put_back, no)
    b.position_at_end(put_back)
    c.PyOS_setsig(sigint, b.load_atomic("ptr", previous, 8))
    b.branch(no)
    b.position_at_end(adding)
    check = fn.append_block("check")
    b.cbranch(hooked, yes, check)
    b.position_at_end(check)
    word = b.ptrtoint(current, "i64")
    special = b.or_(b.icmp("ule", word, int_const("i64", 1)),
                    b.icmp("eq", word, int_const("i64", -1)))
    put = fn.append_block("put")
    b.cbranch(special, no, put)
    b.position_at_end(put)
    b.store_atomic(current, previous, 8)                # before the hook can run
    replaced = c.PyOS_setsig(sigint, handler)
    changed, same = fn.append_block("changed"), fn.append_block("same")
    b.cbranch(b.icmp("ne", replaced, current), changed, same)
    b.position_at_end(changed)
    is_function = b.icmp("ugt", b.ptrtoint(replaced, "i64"), int_const("i64", 1))
    b.store_atomic(b.select(is_function, replaced, NULL), previous, 8)
    b.branch(yes)
    b.position_at_end(same)
    b.branch(yes)
    b.position_at_end(yes)
    b_yes = c.PyLong_FromLongLong(int_const("i64", 1))
    b.ret(b_yes)
    b.position_at_end(no)
    return c.PyLong_FromLongLong(int_const("i64", 0))


def _sigint_count(m, b, fn, args, fail):
    from script.backend.llvm.interrupt import SIGINTS_SYMBOL
    count = b.load_atomic("i64", Value("ptr", global_ref(SIGINTS_SYMBOL)), 8)
    return _Calls(m, b).PyLong_FromLongLong(count)


def _dlopen(m, b, fn, args, fail):
    c = _Calls(m, b)
    path = c.PyBytes_AsString(args[0])
    _check(b, fn, b.icmp("eq", path, NULL), fail)
    handle = c.dlopen(path, int_const("i32", _RTLD_NOW))
    failed, opened = fn.append_block("failed"), fn.append_block("opened")
    b.cbranch(b.icmp("eq", handle, NULL), failed, opened)
    b.position_at_end(failed)
    why = c.dlerror()
    c.PyErr_SetString(b.load("ptr", m.declare_data("PyExc_OSError", "ptr")),
                      b.select(b.icmp("eq", why, NULL), m.cstring(b"dlopen failed"), why))
    b.branch(fail)
    b.position_at_end(opened)
    return c.PyLong_FromVoidPtr(handle)


def _dlsym(m, b, fn, args, fail):
    c = _Calls(m, b)
    handle = _converted(m, b, fn, c.PyLong_AsVoidPtr(args[0]), NULL, fail)
    name = c.PyBytes_AsString(args[1])
    _check(b, fn, b.icmp("eq", name, NULL), fail)
    return c.PyLong_FromVoidPtr(c.dlsym(handle, name))


def _stack_limit(m, b, fn, args, fail):
    c = _Calls(m, b)
    limits = b.alloca("[2 x i64]")
    failed = b.icmp("ne", c.getrlimit(int_const("i32", _RLIMIT_STACK), limits), int_const("i32", 0))
    return c.PyLong_FromLongLong(b.select(failed, int_const("i64", -1), b.load("i64", limits)))


def _poke(m, b, fn, args, fail):
    c = _Calls(m, b)
    where = _converted(m, b, fn, c.PyLong_AsVoidPtr(args[0]), NULL, fail)
    value = _converted(m, b, fn, c.PyLong_AsVoidPtr(args[1]), NULL, fail)
    b.store(value, where)
    return _none(m, b)


# ---- native.arena's memory ----------------------------------------------------------------

def _os_error(m: NativeModule, b: Builder, fn, failed: Value, fail) -> None:
    """Go to `fail` with OSError (errno's) when `failed`, else on."""
    error, on = fn.append_block("os_error"), fn.append_block()
    b.cbranch(failed, error, on)
    b.position_at_end(error)
    _Calls(m, b).PyErr_SetFromErrno(b.load("ptr", m.declare_data("PyExc_OSError", "ptr")))
    b.branch(fail)
    b.position_at_end(on)


def _range(m, b, fn, args, fail) -> tuple:
    """The address and size of a call's first two arguments."""
    c = _Calls(m, b)
    address = _converted(m, b, fn, c.PyLong_AsVoidPtr(args[0]), NULL, fail)
    return address, _converted(m, b, fn, c.PyLong_AsSsize_t(args[1]), int_const("i64", -1), fail)


def _reserve(m, b, fn, args, fail):
    c = _Calls(m, b)
    size = _converted(m, b, fn, c.PyLong_AsSsize_t(args[0]), int_const("i64", -1), fail)
    at = c.mmap(NULL, size, int_const("i32", 0), int_const("i32", _MAP_PRIVATE_ANONYMOUS_NORESERVE),
                int_const("i32", -1), int_const("i64", 0))
    _os_error(m, b, fn, b.icmp("eq", b.ptrtoint(at, "i64"), int_const("i64", -1)), fail)
    return c.PyLong_FromVoidPtr(at)


def _protect(m, b, fn, args, fail):
    c = _Calls(m, b)
    address, size = _range(m, b, fn, args, fail)
    prot = _converted(m, b, fn, c.PyLong_AsSsize_t(args[2]), int_const("i64", -1), fail)
    done = c.mprotect(address, size, b.trunc(prot, "i32"))
    _os_error(m, b, fn, b.icmp("ne", done, int_const("i32", 0)), fail)
    return _none(m, b)


def _discard(m, b, fn, args, fail):
    address, size = _range(m, b, fn, args, fail)
    done = _Calls(m, b).madvise(address, size, int_const("i32", _MADV_DONTNEED))
    _os_error(m, b, fn, b.icmp("ne", done, int_const("i32", 0)), fail)
    return _none(m, b)


def _unmap(m, b, fn, args, fail):
    address, size = _range(m, b, fn, args, fail)
    _os_error(m, b, fn, b.icmp("ne", _Calls(m, b).munmap(address, size), int_const("i32", 0)), fail)
    return _none(m, b)


def _write(m, b, fn, args, fail):
    c = _Calls(m, b)
    address = _converted(m, b, fn, c.PyLong_AsVoidPtr(args[0]), NULL, fail)
    wrong, right = fn.append_block("not_bytearray"), fn.append_block("bytearray")
    kind = b.load_at("ptr", args[1], 8)                                 # ob_type
    b.cbranch(b.icmp("eq", kind, m.declare_data("PyByteArray_Type")), right, wrong)
    b.position_at_end(wrong)
    _raise(m, b, "TypeError", "write() takes a bytearray")
    b.branch(fail)
    b.position_at_end(right)
    data = c.PyByteArray_AsString(args[1])
    c.memcpy(address, data, c.PyByteArray_Size(args[1]))
    return _none(m, b)
