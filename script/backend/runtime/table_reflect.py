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

A dict or set in a field of an instance argument (frontend/instance_args.py) is copied in
through the call's memo instead (`unbox_field`): one record per Python table, whose native
side is a one-item list holding the table (so that the memo's references hold it), also
found by the address of the table's `index` list plus 1. So the same dict reached through
two fields (or two instances) is one native table, written back once into the caller's
object (`_reflect_helper`, as above), and boxing a table the memo knows (`box_memo`: the
instance's field written back, a returned `g.adj`) gives the caller's object itself.
What cannot be written back faithfully is the frontend's CompileError (frontend/list_args.py):
a write to a table inside a table argument, a value converted on its way into one; one
object passed as two table arguments, one of them written, is a TypeError at the call here.
"""

from __future__ import annotations

from script.ir import types as T
from script.backend.llvm import lists, memory
from script.backend.llvm.builder import FALSE, NULL, TRUE, Builder, Value, int_const
from script.backend.runtime import capi, list_memo, table_boxing
from script.backend.runtime.list_memo import HELPER_ATTRS, REC_PY
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
        _write_back(conv, objs[k], conv.emit_box(values[k], t, failed), t, failed)
        b.branch(done)
        b.position_at_end(done)


def _write_back(conv, obj: Value, fresh: Value, t: T.HashType, failed) -> None:
    """Caller's dict or set `obj` takes the contents of `fresh` (a new dict or set, released
    here; to `failed` with an exception set when memory runs out)."""
    b, m, fn = conv.b, conv.m, conv.fn
    if isinstance(t, T.SetType):
        _swap_set_bodies(b, m, obj, fresh)
    else:
        capi.call(m, b, "PyDict_Clear", obj)
        status = capi.call(m, b, "PyDict_Update", obj, fresh)
        drop = fn.append_block("table_update_failed")
        db = Builder(fn, drop)
        capi.call(m, db, "Py_DecRef", fresh)
        db.branch(failed)
        conv._continue_if(b.icmp("eq", status, int_const("i32", 0)), drop)
    capi.call(m, b, "Py_DecRef", fresh)


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
    out = box_memo(conv, v, t, error)
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


# --- dicts and sets in fields of instance arguments, through the call's memo ------------------

def unbox_field(conv, obj: Value, t: T.HashType, written: Value) -> Value:
    """The native table of dict or set `obj` (a field of an instance argument, checked
    against `t`), through the call's memo `conv.memo`: the memo's, where the call met `obj`
    already, else a new copy, recorded with `written` (i64); a new reference, for the
    record. To `conv.error` with an exception set when it fails."""
    b, m = conv.b, conv.m
    holder = b.call(_unbox_helper(m, t, type(conv)), [obj, conv.memo, written])
    conv._continue_if(b.icmp("ne", holder, NULL), conv.error)
    v = lists.get(b, T.ListType(t), holder, int_const("i64", 0))
    memory.emit_rc(m, b, "incref", v, t)
    return v


def box_memo(conv, v: Value, t: T.HashType, error) -> Value:
    """`table_boxing.box_table`, but the caller's object where `v` is a table of the call's
    memo (`unbox_field`'s: a dict held in an instance's field), whose reference this takes
    over."""
    if conv.memo is None:
        return table_boxing.box_table(conv, v, t, error)
    b, m, fn = conv.b, conv.m, conv.fn
    rec = b.call(list_memo.find(m), [conv.memo, b.gep("i8", b.extract_value(v, 0, "ptr"), int_const("i64", 1))])
    known, fresh, join = fn.append_block("table_known"), fn.append_block("table_fresh"), fn.append_block()
    b.cbranch(b.icmp("ne", rec, NULL), known, fresh)
    kb = Builder(fn, known)
    memory.emit_rc(m, kb, "decref", v, t)
    obj = capi.call(m, kb, "Py_NewRef", kb.load_at("ptr", rec, REC_PY))
    kb.branch(join)
    b.position_at_end(fresh)
    out = table_boxing.box_table(conv, v, t, error)
    end = b.block
    b.branch(join)
    b.position_at_end(join)
    result = b.phi("ptr")
    result.add_incoming(obj, known)
    result.add_incoming(out, end)
    return result


def _unbox_helper(m, t: T.HashType, converter):
    """``List *script.table.unbox.memo.<t>(PyObject *py, Memo *memo, i64 written)``: the
    memo's holder (a one-item list of the native table, borrowed) of dict or set `py`, or a
    new one, recorded (its key also the table's index list plus 1: `box_memo`); NULL with an
    exception set."""
    name = f"script.table.unbox.memo.{t}"
    fn = m.helpers.get(name)
    if fn is not None:
        return fn
    fn = m.helpers[name] = m.new_function(name, "ptr", ["ptr", "ptr", "i64"], linkage="internal",
                                          attrs=HELPER_ATTRS)
    py, memo, written = fn.args
    b = Builder(fn, fn.append_block("entry"))
    failed = fn.append_block("failed")
    Builder(fn, failed).ret(NULL)
    lt = T.ListType(t)
    reflect, release = _reflect_helper(m, t, converter), _release_helper(m, lt)
    kind = "set" if isinstance(t, T.SetType) else "dict"
    list_memo.emit_lookup(m, b, memo, py, written, reflect, (
        f"one {kind} is held as a {t} and as another type in fields of the arguments: a compiled "
        f"function takes each {kind} as one type"), lambda b, holder: b.ret(holder))
    conv = converter(m, fn, b, failed)
    conv.memo, conv.reflecting, conv.written = memo, TRUE, written
    table = table_boxing.unbox_table(conv, py, t)
    conv.unboxed_tables.clear()             # (the holder owns the table)
    holder = lists.new(m, b)
    no_memory = fn.append_block("no_memory")
    nb = Builder(fn, no_memory)
    memory.emit_rc(m, nb, "decref", table, t)
    capi.call(m, nb, "PyErr_NoMemory")
    nb.ret(NULL)
    conv._continue_if(b.icmp("ne", holder, NULL), no_memory)
    release_holder = fn.append_block("release_holder")
    rb = Builder(fn, release_holder)
    memory.emit_rc(m, rb, "decref", holder, lt)
    rb.ret(NULL)
    conv._continue_if(memory.resize_list(m, b, lt, holder, int_const("i64", 1)), no_memory)
    lists.set_item(b, lt, holder, table, int_const("i64", 0))
    conv._continue_if(b.call(list_memo.add(m), [memo, py, holder, reflect.pointer, release.pointer, written]),
                      release_holder)
    # The table's index list plus 1 is a key of the same record (box_memo finds it by it).
    d = b.load_at("ptr", memo, list_memo.MEMO_DICT)
    key = capi.call(m, b, "PyLong_FromVoidPtr", b.gep("i8", b.extract_value(table, 0, "ptr"), int_const("i64", 1)))
    conv._continue_if(b.icmp("ne", key, NULL), release_holder)
    index = capi.call(m, b, "PyLong_FromLongLong", b.sub(b.load_at("i64", memo, list_memo.MEMO_N), int_const("i64", 1)))
    drop_key = fn.append_block("drop_key")
    kb = Builder(fn, drop_key)
    capi.call(m, kb, "Py_DecRef", key)
    kb.branch(release_holder)
    conv._continue_if(b.icmp("ne", index, NULL), drop_key)
    status = capi.call(m, b, "PyDict_SetItem", d, key, index)
    capi.call(m, b, "Py_DecRef", key)
    capi.call(m, b, "Py_DecRef", index)
    conv._continue_if(b.icmp("eq", status, int_const("i32", 0)), release_holder)
    memory.emit_rc(m, b, "decref", holder, lt)      # (the memo holds it for the call)
    b.ret(holder)
    return fn


def _reflect_helper(m, t: T.HashType, converter):
    """``i1 script.table.reflect.<t>(PyObject *py, List *holder, Memo *memo)``: the caller's
    dict or set `py` takes the contents of the table `holder` holds (lists among its values
    the memo's Python lists); false with an exception set."""
    name = f"script.table.reflect.{t}"
    fn = m.helpers.get(name)
    if fn is not None:
        return fn
    fn = m.helpers[name] = m.new_function(name, "i1", ["ptr", "ptr", "ptr"], linkage="internal",
                                          attrs=HELPER_ATTRS)
    py, holder, memo = fn.args
    b = Builder(fn, fn.append_block("entry"))
    failed = fn.append_block("failed")
    Builder(fn, failed).ret(FALSE)
    conv = converter(m, fn, b, failed)
    conv.memo = memo
    v = lists.get(b, T.ListType(t), holder, int_const("i64", 0))
    memory.emit_rc(m, b, "incref", v, t)       # (boxing takes a reference over)
    fresh = table_boxing.box_table(conv, v, t, failed)
    conv._continue_if(b.icmp("ne", fresh, NULL), failed)
    _write_back(conv, py, fresh, t, failed)
    b.ret(TRUE)
    return fn


def _release_helper(m, lt: T.ListType):
    """``void script.table.release.<lt>(List *holder)``: one decref of a holder."""
    name = f"script.table.release.{lt}"
    fn = m.helpers.get(name)
    if fn is not None:
        return fn
    fn = m.helpers[name] = m.new_function(name, "void", ["ptr"], linkage="internal", attrs=HELPER_ATTRS)
    b = Builder(fn, fn.append_block("entry"))
    memory.emit_rc(m, b, "decref", fn.args[0], lt)
    b.ret_void()
    return fn
