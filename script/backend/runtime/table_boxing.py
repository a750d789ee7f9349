"""Dicts and sets between Python and native code (the tables of lib/python/dictlib.py and
lib/python/setlib.py).

A set crosses the boundary with its layout: a compiled set is CPython's hash table
(setlib.py), so a returned one is a new `set` whose `PySetObject` fields and table are
written from it (active slots boxed, deleted ones CPython's dummy, `fill`, `used` and the
pop finger as they are), and a set argument is read from the `PySetObject`'s table the same
way. Either side then iterates, pops and grows as the other would have (3.11's layout:
`SET_*` offsets below, checked by `check_set_layout`).

A returned dict or set becomes a new Python `dict` (its items in insertion order) or `set`
of the boxed live entries, and the native table is released. A dict or set argument is
matched exactly (a `dict` or `set`, whose keys, and values, each match the parameter's types
as a tuple's items do) and copied into a new native table: the entries in the argument's
order, hashed with the `hash` op's code (llvm.hashing), and the slots built here, sized as
dictlib's `rebuild` sizes them. The copy is written back into the argument when compiled
code may have written it (runtime.table_reflect), then released (its list values, copied
through the call's memo where there is one, are the list arguments they are:
runtime.list_reflect). (An int key or value
beyond the parameter's type, which only a call that skips the dispatcher's check passes,
raises OverflowError as for a scalar argument; the table copied so far is then not freed.)
"""

from __future__ import annotations

import functools

from script.ir import types as T
from script.backend.llvm import hashing, lists, memory
from script.backend.llvm.abi import llvm_type
from script.backend.llvm.builder import NULL, Builder, Value, counted_loop, int_const, undef
from script.backend.runtime import capi
from script.backend.runtime.capi import OB_TYPE, TUPLE_ITEMS, VAR_SIZE

TYPE_OBJECT = {T.DictType: "PyDict_Type", T.SetType: "PySet_Type"}


# --- native -> Python ----------------------------------------------------------------------

def box_table(conv, v: Value, t: T.HashType, error) -> Value:
    """A new dict or set of the live entries of native table `v`, whose reference this takes
    over (released whether boxing succeeds or not)."""
    b, m, fn = conv.b, conv.m, conv.fn
    failed = fn.append_block("table_failed")
    fb = Builder(fn, failed)
    memory.emit_rc(m, fb, "decref", v, t)
    fb.branch(error)
    if isinstance(t, T.SetType):
        return _box_set(conv, v, t, failed)
    out = capi.call(m, b, "PyDict_New")
    conv._continue_if(b.icmp("ne", out, NULL), failed)
    release = fn.append_block("release_table")
    rb = Builder(fn, release)
    capi.call(m, rb, "Py_DecRef", out)
    rb.branch(failed)
    entries = b.extract_value(v, 1, "ptr")
    et = t.entry
    lt = T.ListType(et)

    def body(i, latch):
        e = lists.get(b, lt, entries, i)
        live = fn.append_block("tbl_live")
        b.cbranch(b.icmp("sge", b.extract_value(e, 0, "i64"), int_const("i64", 0)), live, latch)
        b.position_at_end(live)
        key = conv.emit_box(_shared(conv, b.extract_value(e, 1, llvm_type(t.key)), t.key), t.key, release)
        conv._continue_if(b.icmp("ne", key, NULL), release)
        release_key = fn.append_block("release_key")
        kb = Builder(fn, release_key)
        capi.call(m, kb, "Py_DecRef", key)
        kb.branch(release)
        value = conv.emit_box(_shared(conv, b.extract_value(e, 2, llvm_type(t.value)), t.value), t.value,
                              release_key)
        conv._continue_if(b.icmp("ne", value, NULL), release_key)
        ok = capi.call(m, b, "PyDict_SetItem", out, key, value)
        capi.call(m, b, "Py_DecRef", key)
        capi.call(m, b, "Py_DecRef", value)
        conv._continue_if(b.icmp("eq", ok, int_const("i32", 0)), release)

    counted_loop(conv.b, lists.length(b, entries), body)
    memory.emit_rc(m, b, "decref", v, t)
    return out


def _shared(conv, x: Value, t: T.Type) -> Value:
    """`x`, an entry's key or value, with one more reference for boxing to take over (the
    entries keep their own until the table is released)."""
    if memory.managed(t):
        memory.emit_rc(conv.m, conv.b, "incref", x, t)
    return x


# PySetObject (CPython 3.11, Include/cpython/setobject.h): fill, used, mask, table, hash,
# finger, then the 8 entries of the small table; an entry is (key, hash).
SET_FILL, SET_USED, SET_MASK, SET_TABLE, SET_FINGER, SET_SMALLTABLE = 16, 24, 32, 40, 56, 64
_HEADER = 3             # setlib's index: used, fill, finger, then a state per slot
_DUMMY, _ACTIVE = 1, 2


def _box_set(conv, v: Value, t: T.SetType, failed) -> Value:
    """A new `set` with the table of native set `v` (slot for slot), whose reference this
    takes over."""
    b, m, fn = conv.b, conv.m, conv.fn
    check_set_layout()
    out = capi.call(m, b, "PySet_New", NULL)
    conv._continue_if(b.icmp("ne", out, NULL), failed)
    release = fn.append_block("release_set")
    rb = Builder(fn, release)
    capi.call(m, rb, "Py_DecRef", out)
    rb.branch(failed)
    index, entries = b.extract_value(v, 0, "ptr"), b.extract_value(v, 1, "ptr")
    it, et = T.ListType(T.I64), T.ListType(t.entry)
    size = lists.length(b, entries)
    big, small, go = fn.append_block("set_big"), fn.append_block("set_small"), fn.append_block("set_fill")
    b.cbranch(b.icmp("sgt", size, int_const("i64", 8)), big, small)
    b.position_at_end(big)
    table = capi.call(m, b, "PyMem_Calloc", size, int_const("i64", 16))
    conv._continue_if(b.icmp("ne", table, NULL), release)
    b.store_at(table, out, SET_TABLE)
    b.store_at(b.sub(size, int_const("i64", 1)), out, SET_MASK)
    big_end = b.block
    b.branch(go)
    b.position_at_end(small)
    smalltable = b.offset(out, SET_SMALLTABLE)
    b.branch(go)
    b.position_at_end(go)
    slots = b.phi("ptr")
    slots.add_incoming(table, big_end)
    slots.add_incoming(smalltable, small)
    dummy = b.load("ptr", capi.address_of(m, "_PySet_Dummy"))

    def body(i, latch):
        state = lists.get(b, it, index, b.add(i, int_const("i64", _HEADER)))
        entry = b.gep("i8", slots, b.mul(i, int_const("i64", 16)))
        active, deleted = fn.append_block("set_active"), fn.append_block("set_dummy")
        b.switch(state, latch, [(_ACTIVE, active), (_DUMMY, deleted)])
        b.position_at_end(deleted)
        b.store(dummy, entry)
        b.store_at(int_const("i64", -1), entry, 8)
        b.branch(latch)
        b.position_at_end(active)
        e = lists.get(b, et, entries, i)
        key = conv.emit_box(_shared(conv, b.extract_value(e, 1, llvm_type(t.key)), t.key), t.key, release)
        conv._continue_if(b.icmp("ne", key, NULL), release)
        b.store(key, entry)
        b.store_at(b.extract_value(e, 0, "i64"), entry, 8)
        # (counted as it goes, so that releasing a set half made releases its keys)
        b.store_at(b.add(b.load_at("i64", out, SET_USED), int_const("i64", 1)), out, SET_USED)

    counted_loop(conv.b, size, body)
    b.store_at(lists.get(b, it, index, int_const("i64", 1)), out, SET_FILL)
    b.store_at(lists.get(b, it, index, int_const("i64", 2)), out, SET_FINGER)
    memory.emit_rc(m, b, "decref", v, t)
    return out


def _unbox_set(conv, obj: Value, t: T.SetType) -> Value:
    """A new native set with the table of `obj`, a `set` `check_table` matched."""
    b, m, fn = conv.b, conv.m, conv.fn
    check_set_layout()
    size = b.add(b.load_at("i64", obj, SET_MASK), int_const("i64", 1))
    table = b.load_at("ptr", obj, SET_TABLE)
    index, entries = lists.new(m, b), lists.new(m, b)
    conv.unboxed_tables.append((index, entries, t))
    it, et = T.ListType(T.I64), T.ListType(t.entry)
    no_memory = fn.append_block("no_memory")
    nb = Builder(fn, no_memory)
    capi.call(m, nb, "PyErr_NoMemory")
    nb.branch(conv.error)
    ok = b.and_(memory.resize_list(m, b, it, index, b.add(size, int_const("i64", _HEADER))),
                memory.resize_list(m, b, et, entries, size))
    conv._continue_if(ok, no_memory)
    for k, offset in enumerate((SET_USED, SET_FILL, SET_FINGER)):
        lists.set_item(b, it, index, b.load_at("i64", obj, offset), int_const("i64", k))
    dummy = b.load("ptr", capi.address_of(m, "_PySet_Dummy"))
    lt = llvm_type(t.entry)

    def body(i, latch):
        entry = b.gep("i8", table, b.mul(i, int_const("i64", 16)))
        key_obj = b.load("ptr", entry)
        empty = b.icmp("eq", key_obj, NULL)
        state = b.select(empty, int_const("i64", 0),
                         b.select(b.icmp("eq", key_obj, dummy), int_const("i64", _DUMMY), int_const("i64", _ACTIVE)))
        lists.set_item(b, it, index, state, b.add(i, int_const("i64", _HEADER)))
        active = fn.append_block("set_active")
        b.cbranch(b.icmp("eq", state, int_const("i64", _ACTIVE)), active, latch)
        b.position_at_end(active)
        made, made_tables = len(conv.unboxed), len(conv.unboxed_tables)
        key = conv.emit_unbox(key_obj, t.key)
        e = b.insert_value(b.insert_value(undef(lt), b.load_at("i64", entry, 8), 0), key, 1)
        del conv.unboxed[made:], conv.unboxed_tables[made_tables:]
        lists.set_item(b, et, entries, e, i)

    counted_loop(conv.b, size, body)
    return b.insert_value(b.insert_value(undef(llvm_type(t)), index, 0), entries, 1)


@functools.cache
def check_set_layout() -> None:
    """Fail loudly if this interpreter's set layout is not the one `SET_*` describes."""
    import ctypes
    import sys
    s = {1, 2, 3}
    s.discard(2)
    word = lambda offset: ctypes.c_ssize_t.from_address(id(s) + offset).value      # noqa: E731
    dummy = ctypes.c_void_p.in_dll(ctypes.pythonapi, "_PySet_Dummy").value
    ok = (sys.version_info[:2] == (3, 11) and word(SET_FILL) == 3 and word(SET_USED) == 2
          and word(SET_MASK) == 7 and word(SET_TABLE) == id(s) + SET_SMALLTABLE
          and word(SET_SMALLTABLE + 32) == dummy and word(SET_SMALLTABLE + 40) == -1
          and word(SET_SMALLTABLE + 16) == id(1) and word(SET_SMALLTABLE + 24) == 1)
    if not ok:
        raise RuntimeError("script: this Python's set objects are not laid out as runtime/table_boxing.py "
                           "expects (CPython 3.11's); sets cannot cross between Python and compiled code")


# --- Python -> native ----------------------------------------------------------------------

def check_table(conv, obj: Value, t: T.HashType, mismatch) -> None:
    """Continue when `obj` (a dict or set, matched by type) holds keys (and values) that
    match `t`'s; else `mismatch`."""
    b, m, fn = conv.b, conv.m, conv.fn
    if isinstance(t, T.DictType):
        pos, key_at, value_at = b.alloca("i64"), b.alloca("ptr"), b.alloca("ptr")
        b.store(int_const("i64", 0), pos)

        def body(i, latch):
            capi.call(m, b, "PyDict_Next", obj, pos, key_at, value_at)
            conv.emit_type_checks([b.load("ptr", key_at), b.load("ptr", value_at)], [t.key, t.value], mismatch)

        counted_loop(conv.b, capi.call(m, b, "PyDict_Size", obj), body)
        return
    items = capi.call(m, b, "PySequence_Tuple", obj)
    conv._continue_if(b.icmp("ne", items, NULL), conv.error)
    drop = fn.append_block("set_mismatch")
    db = Builder(fn, drop)
    capi.call(m, db, "Py_DecRef", items)
    db.branch(mismatch)

    def body(i, latch):
        item = b.load("ptr", b.gep("ptr", b.offset(items, TUPLE_ITEMS), i))
        conv.emit_type_checks([item], [t.key], drop)

    counted_loop(conv.b, b.load_at("i64", items, VAR_SIZE), body)
    capi.call(m, b, "Py_DecRef", items)


def unbox_table(conv, obj: Value, t: T.HashType) -> Value:
    """A new native table holding the entries of `obj`, which `check_table` matched."""
    b, m, fn = conv.b, conv.m, conv.fn
    if isinstance(t, T.SetType):
        return _unbox_set(conv, obj, t)
    n = capi.call(m, b, "PyDict_Size", obj)
    index, entries = lists.new(m, b), lists.new(m, b)
    conv.unboxed_tables.append((index, entries, t))
    # Slots as dictlib.rebuild sizes them: a power of two, at least 8 and 3 per entry.
    three = b.mul(n, int_const("i64", 3))
    three = b.select(b.icmp("slt", three, int_const("i64", 8)), int_const("i64", 8), three)
    zeros = b.call(m.intrinsic("llvm.ctlz.i64", "i64", ["i64", "i1"]),
                   [b.sub(three, int_const("i64", 1)), int_const("i1", 0)])
    size = b.shl(int_const("i64", 1), b.sub(int_const("i64", 64), zeros))
    no_memory = fn.append_block("no_memory")
    nb = Builder(fn, no_memory)
    capi.call(m, nb, "PyErr_NoMemory")
    nb.branch(conv.error)
    ok = b.and_(memory.resize_list(m, b, T.ListType(T.I64), index, b.add(size, int_const("i64", 1))),
                memory.resize_list(m, b, T.ListType(t.entry), entries, n))
    conv._continue_if(ok, no_memory)
    slots = lists.data_pointer(b, index)
    b.store(n, slots)
    b.call(m.intrinsic("llvm.memset.p0.i64", "void", ["ptr", "i8", "i64", "i1"]),
           [b.gep("i64", slots, int_const("i64", 1)), int_const("i8", -1),
            b.mul(size, int_const("i64", 8)), int_const("i1", 0)])
    mask = b.sub(size, int_const("i64", 1))
    pos, key_at, value_at = b.alloca("i64"), b.alloca("ptr"), b.alloca("ptr")
    b.store(int_const("i64", 0), pos)
    lt = llvm_type(t.entry)

    def body(j, latch):
        capi.call(m, b, "PyDict_Next", obj, pos, key_at, value_at)
        key_obj = b.load("ptr", key_at)
        made, made_tables = len(conv.unboxed), len(conv.unboxed_tables)
        key = conv.emit_unbox(key_obj, t.key)
        h = hashing.lower_hash(m, b, t.key, key)
        e = b.insert_value(b.insert_value(undef(lt), h, 0), key, 1)
        e = b.insert_value(e, conv.emit_unbox(b.load("ptr", value_at), t.value), 2)
        # The strs, lists and tables made: the entries own them (a fresh slot takes over).
        del conv.unboxed[made:], conv.unboxed_tables[made_tables:]
        lists.set_item(b, T.ListType(t.entry), entries, e, j)
        _place(conv, slots, b.and_(h, mask), mask, j)

    counted_loop(conv.b, n, body)
    return b.insert_value(b.insert_value(undef(llvm_type(t)), index, 0), entries, 1)


def _place(conv, slots: Value, start: Value, mask: Value, j: Value) -> None:
    """Store entry number `j` in the first empty slot from `start` on (linear probing)."""
    b, fn = conv.b, conv.fn
    head, found = fn.append_block("probe"), fn.append_block("probe_found")
    entry = b.block
    b.branch(head)
    b.position_at_end(head)
    i = b.phi("i64")
    i.add_incoming(start, entry)
    slot = b.gep("i64", slots, b.add(i, int_const("i64", 1)))
    nxt = b.and_(b.add(i, int_const("i64", 1)), mask)
    i.add_incoming(nxt, head)
    b.cbranch(b.icmp("eq", b.load("i64", slot), int_const("i64", -1)), found, head)
    b.position_at_end(found)
    b.store(j, slot)


def release_tables(conv, b: Builder) -> None:
    for index, entries, t in conv.unboxed_tables:
        memory.emit_rc(conv.m, b, "decref", index, T.ListType(T.I64))
        memory.emit_rc(conv.m, b, "decref", entries, T.ListType(t.entry))


def type_check(conv, obj: Value, t: T.HashType) -> Value:
    """Whether `obj`'s type is exactly `dict` (`set`)."""
    b = conv.b
    return b.icmp("eq", b.load_at("ptr", obj, OB_TYPE), capi.address_of(conv.m, TYPE_OBJECT[type(t)]))
