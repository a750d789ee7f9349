"""List arguments are the caller's lists: copy in, then write back (Numba calls it reflection).

A native list is not a Python list (runtime.list_boxing copies one into the other), so the
entry point copies a list argument in and, after the call, writes the native list's contents
back into the caller's list object: resized, element by element, with the lists inside it
mapped back to the caller's own inner list objects. It does so on both ways out of the call,
so writes made before an exception are seen, as in CPython.

Only calls of a library whose mask (``script.reflect``, llvm.abi `REFLECT_SYMBOL`, from
ir.list_flow) says that a list parameter is written (bit k) or may reach the result (bit
32 + k) pay for this; with the mask 0 an entry point copies its lists in as before.

The memo (runtime.list_memo). With the mask not 0, every list argument (inside tuples, lists
and dict values too) is copied in through a memo of the Python lists seen in this call, so
that one Python list is one native list however often it occurs (``f(a, a)``, ``f([a, a])``,
the rows of ``[[0] * 3] * 3``), as in CPython: a write through one occurrence is seen through
the others. A record per Python list holds references to the Python list and to its native
copy (so neither is freed during the call: a native list dropped by compiled code is still
written back, and its address is never reused by a new one), the functions that write it
back and release it (which also say its type: one Python list met as two list types is a
TypeError at the call), and whether it is written.

After the call, each written record's native list is boxed into a new Python list whose
inner lists are the memo's Python lists where the native ones are the memo's (new native
lists become new Python lists), and the caller's list takes those items
(``PyList_SetSlice``), or, where the length is unchanged, takes them slot by slot, keeping
the objects of slots that already hold the value. A new native list boxed is recorded too,
so that it is one Python list however often it occurs. The result is boxed the same way, so
a returned argument list is the caller's object. Then the memo releases what it holds.

Types. A written argument must give back the objects CPython's list would hold. A native
list holds one type, so ints copied into a list of floats would come back as floats: a list
argument whose elements are not all of one type (an int among floats, a float among complex
numbers, at any tuple position too) does not match (runtime/list_boxing.py), a TypeError at
the call. A value converted on its way into an argument list is the frontend's CompileError
(frontend/list_args.py).

Boxing the elements is boxing.Converter's, which calls this module for lists: so the
functions that box take the class as their `converter` argument (`type(conv)` from a
converter), and this module does not import boxing.
"""

from __future__ import annotations

from script.ir import types as T
from script.backend.llvm import lists, memory
from script.backend.llvm.abi import LIKELY
from script.backend.llvm.builder import FALSE, NULL, TRUE, Builder, NativeModule, Value, counted_loop, int_const
from script.backend.runtime import capi, list_boxing, list_memo
from script.backend.runtime.list_memo import HELPER_ATTRS, REC_PY
from script.backend.runtime.capi import LIST_ITEMS, OB_TYPE, VAR_SIZE

# --- in the entry point -----------------------------------------------------------------------

def emit_begin(conv, mask: Value | None) -> Value:
    """The call's memo, empty (its dict is made by the first record), and whether argument
    lists go through it (`conv.reflecting`: the mask is not 0; never without a mask, where
    the memo only keeps the lists of the result one object each)."""
    b = conv.b
    memo = list_memo.emit_new(b)
    conv.reflecting = FALSE if mask is None else b.icmp("ne", mask, int_const("i64", 0))
    return memo


def shares_lists(t: T.Type, inside: bool = False) -> bool:
    """Whether a value of type `t` may hold one list in two places (a list of lists, a tuple
    of two lists), so that boxing it needs a memo to give Python one object for it."""
    if _holds_record(t):
        return True         # a record is boxed through the memo, which keeps it one object
    if isinstance(t, T.ListType):
        return inside or _list_count(t.elem) > 0
    return _list_count(t) > 1


def _holds_record(t: T.Type) -> bool:
    if isinstance(t, T.ClassType):
        return True
    if isinstance(t, T.ListType):
        return _holds_record(t.elem)
    if isinstance(t, T.TupleType):
        return any(_holds_record(e) for e in t.elems)
    if isinstance(t, T.DictType):
        return _holds_record(t.key) or _holds_record(t.value)
    return isinstance(t, T.SetType) and _holds_record(t.key)


def _list_count(t: T.Type) -> int:
    if isinstance(t, T.ListType):
        return 1
    if isinstance(t, T.OptionalType):
        return _list_count(t.value)
    if isinstance(t, T.TupleType):
        return sum(_list_count(e) for e in t.elems)
    return 0


def emit_reflect(m: NativeModule, b: Builder, memo: Value) -> Value:
    """Write every written record back (i1: false with a Python exception set)."""
    return b.call(list_memo.reflect_all(m), [memo])


def emit_release(m: NativeModule, b: Builder, memo: Value) -> None:
    b.call(list_memo.release_memo(m), [memo])


def emit_unbox(conv, obj: Value, t: T.ListType, written: Value) -> Value:
    """Native list of Python list `obj` through the call's memo `conv.memo` where
    `conv.reflecting` (else copied as without one), with `written` (i64 0 or 1) or-ed into
    its record; NULL with an exception set when it fails."""
    b, m = conv.b, conv.m
    fn = conv.fn
    if _holds_record(t):        # instances are copied in through the memo only (boxing.record_unbox_helper)
        return b.call(_unbox_helper(m, t, type(conv)), [obj, conv.memo, written])
    via, plain, done = fn.append_block("via_memo"), fn.append_block("plain_unbox"), fn.append_block("unboxed")
    b.cbranch(conv.reflecting, via, plain)
    b.position_at_end(via)
    v1 = b.call(_unbox_helper(m, t, type(conv)), [obj, conv.memo, written])
    via_end = b.block
    b.branch(done)
    b.position_at_end(plain)
    v2 = b.call(list_boxing.unbox_callee(m, t), [obj])
    no_memory, made = fn.append_block("plain_no_memory"), fn.append_block("plain_made")
    b.cbranch(b.icmp("eq", v2, NULL), no_memory, made)
    b.position_at_end(no_memory)
    capi.call(m, b, "PyErr_NoMemory")
    b.branch(made)
    b.position_at_end(made)
    b.branch(done)
    b.position_at_end(done)
    out = b.phi("ptr")
    out.add_incoming(v1, via_end)
    out.add_incoming(v2, made)
    return out


def box_mapped(m: NativeModule, t: T.ListType, converter):
    """``PyObject *script.list.box.<t>(List *native, Memo *memo)``: the memo's Python list
    when `native` is a memo's native list (a new reference), else a new Python list of its
    elements, the lists among them mapped the same way, recorded in the memo (which may be
    NULL) where it is counted more than once, so that it is one Python list however often it
    occurs; NULL with an exception set when memory runs out. Borrows `native`."""
    name = f"script.list.box.{t}"
    fn, new = _helper(m, name, "ptr", ["ptr", "ptr"], t)
    if not new:
        return fn
    native, memo = fn.args
    b = Builder(fn, fn.append_block("entry"))
    failed = fn.append_block("failed")
    Builder(fn, failed).ret(NULL)
    if isinstance(t, T.VarTupleType):       # a tuple: never an argument's list, boxed each time
        b.ret(_box_elements(m, fn, b, native, t, memo, failed, converter))
        return fn
    found, fresh, look = fn.append_block("found"), fn.append_block("fresh"), fn.append_block("look")
    # Only a list counted more than once can be met again (the memo counts one for an
    # argument's): the others are boxed without a look at the memo.
    shared = b.icmp("sgt", b.load_at("i64", native, lists.REFCOUNT), int_const("i64", 1))
    b.cbranch(shared, look, fresh)
    b.position_at_end(look)
    rec = b.call(list_memo.find(m), [memo, b.gep("i8", native, int_const("i64", 1))])
    b.cbranch(b.icmp("ne", rec, NULL), found, fresh)
    b.position_at_end(found)
    b.ret(capi.call(m, b, "Py_NewRef", b.load_at("ptr", rec, REC_PY)))
    b.position_at_end(fresh)
    out = _box_elements(m, fn, b, native, t, memo, failed, converter)
    # A new list met again (`t.append(row); t.append(row)`) is the same Python list: recorded,
    # not written back.
    record, added, not_added = fn.append_block("record"), fn.append_block("added"), fn.append_block("not_added")
    b.cbranch(shared, record, added)
    b.position_at_end(record)
    reflect = _reflect_helper(m, t, converter)
    ok = b.call(list_memo.add(m), [memo, out, native, reflect.pointer, release_helper(m, t).pointer,
                                   int_const("i64", 0)])
    b.cbranch(ok, added, not_added, LIKELY)
    b.position_at_end(not_added)
    capi.call(m, b, "Py_DecRef", out)
    b.ret(NULL)
    b.position_at_end(added)
    b.ret(out)
    return fn


def _box_elements(m: NativeModule, fn, b: Builder, native: Value, t: T.ListType, memo: Value, failed,
                  converter) -> Value:
    """A new Python list of the boxed elements of `native` (borrowed), lists mapped through
    `memo`; jumps to `failed` with an exception set when memory runs out."""
    error = fn.append_block("box_failed")
    Builder(fn, error).branch(failed)
    conv = converter(m, fn, b, error)
    conv.memo = memo
    return conv.box_list_items(native, t, error)


def _reflect_helper(m: NativeModule, t: T.ListType, converter):
    """``i1 script.list.reflect.<t>(PyObject *py, List *native, Memo *memo)``: the caller's
    list `py` takes the boxed elements of `native` (`box_mapped`'s, this list's own
    contents, not its mapping); false with an exception set. Where the length is unchanged,
    slot by slot in place, and a slot whose object is already the value (an int or float
    equal to the native one, the same mapped list, True or False, an equal str or tuple of
    ints and strs: `_keeps_equal`) keeps its object, as in CPython, which writes nothing
    there; otherwise the list takes a new list's items."""
    name = f"script.list.reflect.{t}"
    fn, new = _helper(m, name, "i1", ["ptr", "ptr", "ptr"], t)
    if not new:
        return fn
    py, native, memo = fn.args
    b = Builder(fn, fn.append_block("entry"))
    failed, in_place, resized = (fn.append_block(x) for x in ("failed", "in_place", "resized"))
    Builder(fn, failed).ret(FALSE)
    n = lists.length(b, native)
    b.cbranch(b.icmp("eq", n, b.load_at("i64", py, VAR_SIZE)), in_place, resized)
    b.position_at_end(resized)
    new = _box_elements(m, fn, b, native, t, memo, failed, converter)
    r = capi.call(m, b, "PyList_SetSlice", py, int_const("i64", 0), int_const("i64", (1 << 63) - 1), new)
    capi.call(m, b, "Py_DecRef", new)
    b.ret(b.icmp("eq", r, int_const("i32", 0)))

    b.position_at_end(in_place)
    items = b.load_at("ptr", py, LIST_ITEMS)

    def write_slot(i, latch):
        slot = b.gep("ptr", items, i)
        old = b.load("ptr", slot)
        v = lists.get(b, t, native, i)
        if t.elem in (T.I64, T.F64):
            boxing = fn.append_block("slot_box")
            b.cbranch(_holds_value(m, b, old, v, t.elem), latch, boxing)
            b.position_at_end(boxing)
        if memory.managed(t.elem):          # boxing takes over a reference; the list keeps its own
            memory.emit_rc(m, b, "incref", v, t.elem)
        conv = converter(m, fn, b, failed)
        conv.memo = memo
        obj = conv.emit_box(v, t.elem, failed)
        conv._continue_if(b.icmp("ne", obj, NULL), failed)
        same, store, stored = (fn.append_block(x) for x in ("slot_same", "slot_store", "slot_stored"))
        if _keeps_equal(t.elem):            # an equal str or tuple of the same class: the caller's
            compare, typed = fn.append_block("slot_compare"), fn.append_block("slot_same_class")
            b.cbranch(b.icmp("eq", obj, old), same, compare)
            b.position_at_end(compare)
            b.cbranch(b.icmp("eq", b.load_at("ptr", obj, OB_TYPE), b.load_at("ptr", old, OB_TYPE)), typed, store)
            b.position_at_end(typed)
            equal = capi.call(m, b, "PyObject_RichCompareBool", obj, old, int_const("i32", _PY_EQ))
            b.cbranch(b.icmp("eq", equal, int_const("i32", 1)), same, store)
        else:
            b.cbranch(b.icmp("eq", obj, old), same, store)
        b.position_at_end(same)
        capi.call(m, b, "Py_DecRef", obj)
        b.branch(stored)
        b.position_at_end(store)
        b.store(obj, slot)
        capi.call(m, b, "Py_DecRef", old)
        b.branch(stored)
        b.position_at_end(stored)

    counted_loop(b, n, write_slot)
    b.ret(TRUE)
    return fn


_PY_EQ = 2


def _keeps_equal(t: T.Type) -> bool:
    """Whether a slot of element type `t` whose object equals the written value (of the same
    class) keeps the caller's object: strs, and tuples of ints, bools and strs, whose `==` is
    sameness of value (a float's is not: -0.0 == 0.0)."""
    if isinstance(t, T.TupleType) and not isinstance(t, (T.HashType, T.OptionalType)):
        return all(_keeps_equal(e) or e in (T.I64, T.BOOL) for e in t.elems)
    return isinstance(t, T.StrType)


def _holds_value(m: NativeModule, b: Builder, obj: Value, v: Value, t: T.Type) -> Value:
    """Whether Python object `obj` is exactly an int (a float, bit for bit) of native value `v`."""
    fn = b.fn
    if t == T.F64:
        is_float = b.icmp("eq", b.load_at("ptr", obj, OB_TYPE), capi.address_of(m, "PyFloat_Type"))
        check, joined = fn.append_block("float_check"), fn.append_block("float_checked")
        entry = b.block
        b.cbranch(is_float, check, joined)
        b.position_at_end(check)
        bits = b.bitcast(b.load_at("double", obj, capi.FLOAT_VALUE), "i64")
        equal = b.icmp("eq", bits, b.bitcast(v, "i64"))
        checked = b.block
        b.branch(joined)
        b.position_at_end(joined)
        out = b.phi("i1")
        out.add_incoming(FALSE, entry)
        out.add_incoming(equal, checked)
        return out
    is_int = b.icmp("eq", b.load_at("ptr", obj, OB_TYPE), capi.address_of(m, "PyLong_Type"))
    check, joined = fn.append_block("int_check"), fn.append_block("int_checked")
    entry = b.block
    b.cbranch(is_int, check, joined)
    b.position_at_end(check)
    overflow = b.entry_alloca("i32")
    value = capi.call(m, b, "PyLong_AsLongLongAndOverflow", obj, overflow)
    equal = b.and_(b.icmp("eq", b.load("i32", overflow), int_const("i32", 0)), b.icmp("eq", value, v))
    checked = b.block
    b.branch(joined)
    b.position_at_end(joined)
    out = b.phi("i1")
    out.add_incoming(FALSE, entry)
    out.add_incoming(equal, checked)
    return out


def release_helper(m: NativeModule, t: T.ListType):
    """``void script.list.release.<t>(List *native)``: one decref of a list of type `t`."""
    name = f"script.list.release.{t}"
    fn, new = _helper(m, name, "void", ["ptr"], t)
    if not new:
        return fn
    b = Builder(fn, fn.append_block("entry"))
    memory.emit_rc(m, b, "decref", fn.args[0], t)
    b.ret_void()
    return fn


def _unbox_helper(m: NativeModule, t: T.ListType, converter):
    """``List *script.list.unbox.memo.<t>(PyObject *py, Memo *memo, i64 written)``: the
    memo's native list of `py` (a new reference), or a new one, recorded (the module
    docstring); NULL with an exception set."""
    name = f"script.list.unbox.memo.{t}"
    fn, new = _helper(m, name, "ptr", ["ptr", "ptr", "i64"], t)
    if not new:
        return fn
    py, memo, written = fn.args
    b = Builder(fn, fn.append_block("entry"))
    reflect, release = _reflect_helper(m, t, converter), release_helper(m, t)

    def found(b, native):
        memory.emit_rc(m, b, "incref", native, t)
        b.ret(native)

    list_memo.emit_lookup(m, b, memo, py, written, reflect, (
        f"one list is passed as a {t} and as another list type (an empty list, or ints in one "
        f"place and floats in another): a compiled function takes each list as one type"), found)
    no_memory, failed = fn.append_block("no_memory"), fn.append_block("failed")
    Builder(fn, failed).ret(NULL)
    nb = Builder(fn, no_memory)
    capi.call(m, nb, "PyErr_NoMemory")
    nb.ret(NULL)
    if isinstance(t.elem, T.ListType):
        lst = lists.new(m, b)
        release_new = fn.append_block("release_new")
        rb = Builder(fn, release_new)
        memory.emit_rc(m, rb, "decref", lst, t)          # with the inner lists made so far
        rb.ret(NULL)
        n = b.load_at("i64", py, VAR_SIZE)
        items = b.load_at("ptr", py, LIST_ITEMS)
        grown = fn.append_block("grown")
        b.cbranch(memory.resize_list(m, b, t, lst, n), grown, _no_memory_releasing(m, fn, lst, t))
        b.position_at_end(grown)

        child_helper = converter.record_unbox_callee(m, t.elem) if isinstance(t.elem, T.ClassType) \
            else _unbox_helper(m, t.elem, converter)

        def unbox_child(i, _latch):
            child = b.call(child_helper, [b.load("ptr", b.gep("ptr", items, i)), memo, written])
            stored = fn.append_block("stored")
            b.cbranch(b.icmp("ne", child, NULL), stored, release_new, LIKELY)
            b.position_at_end(stored)
            lists.set_item(b, t, lst, child, i)

        counted_loop(b, n, unbox_child)
    else:
        lst = b.call(list_boxing.unbox_callee(m, t), [py])
        made = fn.append_block("made")
        b.cbranch(b.icmp("eq", lst, NULL), no_memory, made)
        b.position_at_end(made)
    added, not_added = fn.append_block("added"), fn.append_block("not_added")
    ok = b.call(list_memo.add(m), [memo, py, lst, reflect.pointer, release.pointer, written])
    b.cbranch(ok, added, not_added, LIKELY)
    b.position_at_end(not_added)
    memory.emit_rc(m, b, "decref", lst, t)
    b.ret(NULL)
    b.position_at_end(added)
    b.ret(lst)
    return fn


def _no_memory_releasing(m: NativeModule, fn, lst: Value, t: T.ListType):
    """A block that releases `lst`, sets MemoryError and returns NULL."""
    b = Builder(fn, fn.append_block("no_memory_release"))
    memory.emit_rc(m, b, "decref", lst, t)
    capi.call(m, b, "PyErr_NoMemory")
    b.ret(NULL)
    return b.block


# --- the runtime library's functions (runtime.shared), declared by entry points -------------

# The helpers of flat lists of numbers, the most common list parameters, are the runtime
# library's (compiled once per machine); an entry point's module makes only the others'.
_SHARED = (T.ListType(T.BOOL), T.ListType(T.I64), T.ListType(T.F64))
_RUNTIME = "script.runtime"         # runtime.shared RUNTIME_LIBRARY (which imports loadpath)


def _helper(m: NativeModule, name: str, ret: str, params, t: T.ListType):
    """(the helper `name` of list type `t` in `m`, whether its body is to be built now): a
    module other than the runtime library declares the runtime library's (`_SHARED`)."""
    fn = m.helpers.get(name)
    if fn is not None:
        return fn, False
    shared = type(t) is T.ListType and t in _SHARED
    if shared and m.name != _RUNTIME:
        fn = m.helpers[name] = m.declare(name, ret, params, attrs=("nounwind",))
        return fn, False
    fn = m.helpers[name] = m.new_function(name, ret, params, linkage="external" if shared else "internal",
                                          attrs=HELPER_ATTRS)
    return fn, True


def build_runtime(m: NativeModule, converter) -> list[str]:
    """Define the memo's functions (runtime.list_memo) and the helpers of `_SHARED` list
    types in `m` (the runtime library); returns their names. `converter`: boxing.Converter."""
    fns = list_memo.build_runtime(m)
    for t in _SHARED:
        fns += [_unbox_helper(m, t, converter), _reflect_helper(m, t, converter), release_helper(m, t),
                box_mapped(m, t, converter)]
    return [f.name for f in fns]
