"""Exceptions CPython raised for compiled code (the `str_py` op: ``int(s)`` of a bad str),
made into records that compiled code catches like its own.

`emit_record`, with the GIL held and the Python exception set, takes the exception out of
the thread state into the Env's record (llvm.abi): status 1 (caught.STATUS_RECORDED), the
class index of its nearest class in EXCEPTIONS (so `exc_match` needs nothing new), the
format PYOBJ_MARK, and in the first slot the exception object itself, whose reference the
record owns. ``script.raise`` (runtime.entry) raises that object as it is, and
script.pyhooks.caught_text gives its ``str``/``repr`` and class: the exception is CPython's own, its
arguments and class included. An exception of no class in EXCEPTIONS stays set, with status
2, as a signal handler's does: no clause catches it and it leaves the function unchanged.
"""

from __future__ import annotations

from script.backend.llvm.abi import ENV_ARGS, ENV_EXC, ENV_FMT, ENV_STATUS, STATUS_PYTHON_ERROR
from script.backend.llvm.builder import NULL, Builder, NativeModule, Value, int_const
from script.backend.runtime import capi

# The first byte of the format of a record that holds a Python exception object (after
# runtime.entry KEYED_MARK and USER_MARK).
PYOBJ_MARK = 4
STATUS_RECORDED = 1             # llvm.caught


def emit_record(m: NativeModule, b: Builder, env: Value) -> None:
    """Move the Python exception set into `env`'s record (see the module doc)."""
    fn = b.fn
    parts = [b.alloca("ptr") for _ in range(3)]         # type, value, traceback
    capi.call(m, b, "PyErr_Fetch", *parts)
    capi.call(m, b, "PyErr_NormalizeException", *parts)
    value = b.load("ptr", parts[1])
    module = capi.call(m, b, "PyImport_ImportModule", m.cstring(b"script.pyhooks.caught_text"))
    imported, index_made, keep, record, done = (fn.append_block(n) for n in (
        "pyerr_module", "pyerr_index", "pyerr_keep", "pyerr_record", "pyerr_done"))
    b.cbranch(b.icmp("ne", module, NULL), imported, keep)
    b.position_at_end(imported)
    index_obj = capi.call(m, b, "PyObject_CallMethod", module, m.cstring(b"class_index"), m.cstring(b"O"), value)
    capi.call(m, b, "Py_DecRef", module)
    b.cbranch(b.icmp("ne", index_obj, NULL), index_made, keep)
    b.position_at_end(index_made)
    index = capi.call(m, b, "PyLong_AsLongLong", index_obj)
    capi.call(m, b, "Py_DecRef", index_obj)
    b.cbranch(b.icmp("sge", index, int_const("i64", 0)), record, keep)

    b.position_at_end(keep)             # as it was: set, status 2 (nothing catches it)
    capi.call(m, b, "PyErr_Clear")
    capi.call(m, b, "PyErr_Restore", *(b.load("ptr", p) for p in parts))
    b.store_at(int_const("i32", STATUS_PYTHON_ERROR), env, ENV_STATUS)
    b.branch(done)

    b.position_at_end(record)           # the record owns the value's reference
    b.store_at(int_const("i32", STATUS_RECORDED), env, ENV_STATUS)
    b.store_at(b.trunc(index, "i32"), env, ENV_EXC)
    b.store_at(m.cstring(bytes([PYOBJ_MARK])), env, ENV_FMT)
    b.store_at(b.ptrtoint(value, "i64"), env, ENV_ARGS)
    capi.call(m, b, "Py_DecRef", b.load("ptr", parts[0]))
    capi.call(m, b, "Py_DecRef", b.load("ptr", parts[2]))
    b.branch(done)
    b.position_at_end(done)


# ---- references a caught exception holds ----------------------------------------------------

RETAIN_SYMBOL, RELEASE_SYMBOL = "script.exc.incref", "script.exc.decref"


def build_runtime(m: NativeModule) -> list[str]:
    """``void script.exc.incref(Env *env, ptr record)`` and ``script.exc.decref``: count the
    references an exception record (an `exc` value, llvm.caught) holds one more or one less:
    the Python object of a PYOBJ_MARK record (with the GIL, taken back with ``env->tstate``
    when the call released it), else the native strs of its SLOT_STR slots (their kinds end
    with KINDS_END: llvm.abi). A record of status 2 holds nothing."""
    for name, increments in ((RETAIN_SYMBOL, True), (RELEASE_SYMBOL, False)):
        _build_rc(m, name, increments)
    return [RETAIN_SYMBOL, RELEASE_SYMBOL]


def _build_rc(m: NativeModule, name: str, increments: bool) -> None:
    from script.backend.llvm import strings
    from script.backend.llvm.abi import KINDS_END, KINDS_SHIFT, SLOT_STR
    fn = m.new_function(name, "void", ["ptr", "ptr"], linkage="external")
    env, record = fn.args
    b = Builder(fn, fn.append_block("entry"))
    done, recorded, formatted, pyobj, slots = (fn.append_block(n) for n in (
        "done", "recorded", "formatted", "pyobj", "slots"))
    status = b.load_at("i32", record, ENV_STATUS)
    b.cbranch(b.icmp("eq", status, int_const("i32", STATUS_RECORDED)), recorded, done)
    b.position_at_end(recorded)
    fmt = b.load_at("ptr", record, ENV_FMT)
    b.cbranch(b.icmp("ne", fmt, NULL), formatted, done)
    b.position_at_end(formatted)
    b.cbranch(b.icmp("eq", b.load("i8", fmt), int_const("i8", PYOBJ_MARK)), pyobj, slots)

    b.position_at_end(pyobj)
    obj = b.inttoptr(b.load_at("i64", record, ENV_ARGS), "ptr")
    capi.holding_gil(m, b, env, lambda: capi.call(m, b, "Py_IncRef" if increments else "Py_DecRef", obj))
    b.branch(done)

    b.position_at_end(slots)            # kinds: 4 bytes a slot after the format, KINDS_END last
    kinds_at = b.zext(b.lshr(b.load_at("i32", record, ENV_EXC), int_const("i32", KINDS_SHIFT)), "i64")
    start = b.block
    loop, body, str_slot, next_ = (fn.append_block(n) for n in ("kind", "kind_body", "str_slot", "next"))
    has_kinds = b.icmp("ne", kinds_at, int_const("i64", 0))
    b.cbranch(has_kinds, loop, done)
    b.position_at_end(loop)
    k = b.phi("i64")
    k.add_incoming(int_const("i64", 0), start)
    kind = b.load(("i8"), b.gep("i8", fmt, b.add(kinds_at, b.mul(k, int_const("i64", 4)))))
    b.cbranch(b.icmp("eq", kind, int_const("i8", KINDS_END)), done, body)
    b.position_at_end(body)
    b.cbranch(b.icmp("eq", kind, int_const("i8", SLOT_STR)), str_slot, next_)
    b.position_at_end(str_slot)
    s = b.inttoptr(b.load(("i64"), b.gep("i8", record, b.add(int_const("i64", ENV_ARGS), b.mul(k, int_const("i64", 8))))), "ptr")
    strings.emit_rc(m, b, "incref" if increments else "decref", s)
    b.branch(next_)
    b.position_at_end(next_)
    k_next = b.add(k, int_const("i64", 1))
    k.add_incoming(k_next, next_)
    b.branch(loop)
    b.position_at_end(done)
    b.ret_void()
