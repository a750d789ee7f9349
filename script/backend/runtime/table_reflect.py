"""Dict and set arguments are the caller's objects: written back after the call.

A dict or set passed from Python is copied into a native table (runtime.table_boxing); a
call whose function writes that table (bit k of the library's reflect mask, llvm.abi
`reflect_mask`, from ir.list_flow's facts) writes it back into the caller's object on both
ways out of the call, so writes made before an exception are seen, as in CPython:

- a set: the native table is boxed into a new `set` slot for slot (compiled sets are
  CPython's hash table, table_boxing.py), whose body is then exchanged with the argument's,
  as CPython's own `set_swap_bodies` does: the caller's set holds exactly the table CPython
  would have built (its iteration order too), and the new set takes the old body away;
- a dict: the native table is boxed into a new `dict` (its entries in insertion order, the
  lists among its values the caller's lists through the call's memo), and the argument is
  cleared and updated from it: the same items in the same order as CPython's.

A table argument that is the result (`return seen`) is the caller's object, not a copy.
What cannot be written back faithfully is the frontend's CompileError (frontend/list_args.py):
a write to a table inside a table argument, a value converted on its way into one; one
object passed as two table arguments, one of them written, is a TypeError at the call here.
"""

from __future__ import annotations

from script.ir import types as T
from script.backend.llvm import memory
from script.backend.llvm.builder import NULL, Builder, Value, int_const
from script.backend.runtime import capi, table_boxing
from script.backend.runtime.table_boxing import SET_FILL, SET_FINGER, SET_MASK, SET_SMALLTABLE, SET_TABLE, SET_USED

_SMALLTABLE_BYTES = 8 * 16       # PySet_MINSIZE entries of (key, hash)
_ALIASED = ("the same {kind} is passed as two arguments of a function that writes one of them: "
            "compiled code copies each, so a write through one would not be seen through the other; "
            "pass a copy ({kind}(x)) as the second")


def table_params(param_types) -> list[int]:
    """The positions of the dict and set parameters (those an entry point may write back)."""
    return [k for k, t in enumerate(param_types) if isinstance(t, T.HashType)]


def emit_alias_check(conv, objs: list[Value], param_types, mask: Value) -> None:
    """TypeError (to `conv.error`) when one object is two table arguments, one written."""
    b, m, fn = conv.b, conv.m, conv.fn
    ks = table_params(param_types)
    for i, k in enumerate(ks):
        for j in ks[i + 1:]:
            if type(param_types[k]) is not type(param_types[j]):
                continue
            written = b.icmp("ne", b.and_(mask, int_const("i64", (1 << k) | (1 << j))), int_const("i64", 0))
            same = b.and_(b.icmp("eq", objs[k], objs[j]), written)
            bad = fn.append_block("table_aliased")
            bb = Builder(fn, bad)
            kind = "set" if isinstance(param_types[k], T.SetType) else "dict"
            text = m.cstring(_ALIASED.format(kind=kind).encode())
            capi.call(m, bb, "PyErr_SetString", capi.exception_class(m, bb, "TypeError"), text)
            bb.branch(conv.error)
            conv._continue_if(b.icmp("eq", same, int_const("i1", 0)), bad)


def emit_reflect(conv, objs: list[Value], values: list[Value], param_types, mask: Value, failed) -> None:
    """Write each written table argument back into the caller's object (jump to `failed`,
    an exception set, when memory runs out)."""
    b, m, fn = conv.b, conv.m, conv.fn
    for k in table_params(param_types):
        t = param_types[k]
        write, done = fn.append_block("table_write_back"), fn.append_block("table_written")
        bit = b.and_(b.lshr(mask, int_const("i64", k)), int_const("i64", 1))
        b.cbranch(b.icmp("ne", bit, int_const("i64", 0)), write, done)
        b.position_at_end(write)
        memory.emit_rc(m, b, "incref", values[k], t)       # (boxing takes a reference over)
        fresh = conv.emit_box(values[k], t, failed)
        if isinstance(t, T.SetType):
            _swap_set_bodies(b, m, objs[k], fresh)
        else:
            capi.call(m, b, "PyDict_Clear", objs[k])
            status = capi.call(m, b, "PyDict_Update", objs[k], fresh)
            drop = fn.append_block("table_update_failed")
            db = Builder(fn, drop)
            capi.call(m, db, "Py_DecRef", fresh)
            db.branch(failed)
            conv._continue_if(b.icmp("eq", status, int_const("i32", 0)), drop)
        capi.call(m, b, "Py_DecRef", fresh)
        b.branch(done)
        b.position_at_end(done)


def box_or_argument(conv, v: Value, t: T.HashType, error) -> Value:
    """Native table `v` boxed (its reference taken over), or, where it is one of the table
    arguments `conv.table_args` (native, object, type) of its type, that argument's object:
    a table argument in the result (`return seen`, `return seen, n`) is the caller's object,
    as in CPython."""
    b, m, fn = conv.b, conv.m, conv.fn
    same, obj = int_const("i1", 0), NULL
    for native, arg, at in conv.table_args:
        if at == t:
            hit = b.icmp("eq", b.extract_value(v, 0, "ptr"), b.extract_value(native, 0, "ptr"))
            obj = b.select(hit, arg, obj)
            same = b.or_(same, hit)
    is_arg, boxed, join = fn.append_block("table_is_argument"), fn.append_block("table_boxed"), fn.append_block()
    b.cbranch(same, is_arg, boxed)
    ab = Builder(fn, is_arg)
    memory.emit_rc(m, ab, "decref", v, t)
    capi.call(m, ab, "Py_IncRef", obj)
    ab.branch(join)
    b.position_at_end(boxed)
    out = table_boxing.box_table(conv, v, t, error)
    end = b.block
    b.branch(join)
    b.position_at_end(join)
    result = b.phi("ptr")
    result.add_incoming(obj, is_arg)
    result.add_incoming(out, end)
    return result


def _swap_set_bodies(b: Builder, m, a: Value, c: Value) -> None:
    """Exchange the tables of sets `a` and `c` (CPython's `set_swap_bodies`; their hashes are
    both -1, a set's)."""
    for offset in (SET_FILL, SET_USED, SET_MASK, SET_FINGER):
        x, y = b.load_at("i64", a, offset), b.load_at("i64", c, offset)
        b.store_at(y, a, offset)
        b.store_at(x, c, offset)
    a_small, c_small = b.offset(a, SET_SMALLTABLE), b.offset(c, SET_SMALLTABLE)
    a_table, c_table = b.load_at("ptr", a, SET_TABLE), b.load_at("ptr", c, SET_TABLE)
    a_in_small, c_in_small = b.icmp("eq", a_table, a_small), b.icmp("eq", c_table, c_small)
    b.store_at(b.select(c_in_small, a_small, c_table), a, SET_TABLE)
    b.store_at(b.select(a_in_small, c_small, a_table), c, SET_TABLE)
    copy = m.intrinsic("llvm.memcpy.p0.p0.i64", "void", ["ptr", "ptr", "i64", "i1"])
    tmp = b.alloca(f"[{_SMALLTABLE_BYTES // 8} x i64]")
    size = int_const("i64", _SMALLTABLE_BYTES)
    b.call(copy, [tmp, a_small, size, int_const("i1", 0)])
    b.call(copy, [a_small, c_small, size, int_const("i1", 0)])
    b.call(copy, [c_small, tmp, size, int_const("i1", 0)])
