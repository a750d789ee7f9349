"""Exceptions CPython raised for compiled code (the `str_py` op: ``int(s)`` of a bad str),
made into records that compiled code catches like its own.

`emit_record`, with the GIL held and the Python exception set, takes the exception out of
the thread state into the Env's record (llvm.abi): status 1 (caught.STATUS_RECORDED), the
class index of its nearest class in EXCEPTIONS (so `exc_match` needs nothing new), the
format PYOBJ_MARK, and in the first slot the exception object itself, whose reference the
record owns. ``script.raise`` (runtime.entry) raises that object as it is, and
script.caught_text gives its ``str``/``repr`` and class: the exception is CPython's own, its
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
    module = capi.call(m, b, "PyImport_ImportModule", m.cstring(b"script.caught_text"))
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
