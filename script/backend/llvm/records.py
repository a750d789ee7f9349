"""Releasing class instances (`types.ClassType`: a list of one tuple, lists.py) without
recursion.

A recursive class's instances chain (a linked list of 10**6 nodes, a degenerate tree): a
release that recursed into each field's instance would nest as deep as the chain and
overflow the C stack. So the last decref of an instance does not release the instances its
fields hold by calling itself: a field's instance whose count drops to zero is pushed on a
work list, threaded through the dead objects themselves (their count word holds the
function that releases their fields, their capacity word the next dead object), and one loop
(`script.record.release`) pops and releases them until none is left. Instances inside a
field's list, dict or set are released by those containers' own helpers (each nesting of
containers is one level of C recursion, as for lists of lists). Releasing a field that is not
an instance is memory.emit_rc's recursion over element types, which reaches this module:
so the functions here take it as their `count_elem` argument.
"""

from __future__ import annotations

from script.ir import types as T
from script.backend.llvm.abi import LIKELY, llvm_type
from script.backend.llvm.builder import NULL, Builder, Callee, NativeModule, Value, int_const
from script.backend.llvm.counted import REFCOUNT, managed, refcount_helper
from script.backend.llvm.lists import CAP, DATA, LEN

RELEASE = "script.record.release"


def decref(m: NativeModule, b: Builder, obj: Value, t: T.ClassType, count_elem) -> None:
    """One reference less to instance `obj` (NULL: none); at zero, its release (`count_elem`:
    memory.emit_rc, for its fields)."""
    name = f"script.record.decref.{t}"      # (not lists' DECREF: that of a list of instances)
    b.call(refcount_helper(m, name, False, lambda: _free_helper(m, t, count_elem), LIKELY), [obj])


def _free_helper(m: NativeModule, t: T.ClassType, count_elem):
    """``void script.record.free.<t>(ptr obj)``: the release of dead instance `obj`."""
    name = f"script.record.free.{t}"
    fn = m.helpers.get(name)
    if fn is not None:
        return fn
    fn = m.helpers[name] = m.new_function(name, "void", ["ptr"], attrs=("nounwind", "noinline"))
    b = Builder(fn, fn.append_block("entry"))
    b.call(_release_helper(m), [fn.args[0], _fields_helper(m, t, count_elem).pointer])
    b.ret_void()
    return fn


def _release_helper(m: NativeModule):
    """``void script.record.release(ptr obj, ptr fields)``: releases dead `obj` (its fields
    by `fields`), then every instance that dies on the way, in a loop."""
    fn = m.helpers.get(RELEASE)
    if fn is not None:
        return fn
    fn = m.helpers[RELEASE] = m.new_function(RELEASE, "void", ["ptr", "ptr"], attrs=("nounwind", "noinline"))
    obj, fields = fn.args
    b = Builder(fn, fn.append_block("entry"))
    work = b.alloca("ptr")
    b.store_at(fields, obj, REFCOUNT)
    b.store_at(NULL, obj, CAP)
    b.store(obj, work)
    head, body, done = fn.append_block("head"), fn.append_block("body"), fn.append_block("done")
    b.branch(head)
    b.position_at_end(head)
    top = b.load("ptr", work)
    b.cbranch(b.icmp("ne", top, NULL), body, done, LIKELY)
    b.position_at_end(body)
    b.store(b.load_at("ptr", top, CAP), work)
    release = b.load_at("ptr", top, REFCOUNT)
    b.call(Callee(release.ref, "void", ["ptr", "ptr"]), [top, work])
    b.branch(head)
    b.position_at_end(done)
    b.ret_void()
    return fn


def _fields_helper(m: NativeModule, t: T.ClassType, count_elem):
    """``void script.record.fields.<t>(ptr obj, ptr work)``: releases the fields of dead
    instance `obj` (instances that die go on the list at `work`) and frees it."""
    name = f"script.record.fields.{t}"
    fn = m.helpers.get(name)
    if fn is not None:
        return fn
    fn = m.helpers[name] = m.new_function(name, "void", ["ptr", "ptr"], attrs=("nounwind",))
    obj, work = fn.args
    b = Builder(fn, fn.append_block("entry"))
    filled, done = fn.append_block("filled"), fn.append_block("done")
    # (a record whose list_resize failed holds no tuple: MemoryError on the way)
    b.cbranch(b.icmp("ne", b.load_at("i64", obj, LEN), int_const("i64", 0)), filled, done, LIKELY)
    b.position_at_end(filled)
    data = b.load_at("ptr", obj, DATA)
    _release_part(m, fn, b, b.load(llvm_type(t.elem), data), t.elem, work, count_elem)
    b.branch(done)
    b.position_at_end(done)
    free = m.declare("free", "void", ["ptr"], attrs=("nounwind",))
    b.call(free, [b.load_at("ptr", obj, DATA)])
    b.call(free, [obj])
    b.ret_void()
    return fn


def _release_part(m: NativeModule, fn, b: Builder, v: Value, t: T.Type, work: Value, count_elem) -> None:
    if isinstance(t, T.ClassType):
        count, dead, done = fn.append_block("count"), fn.append_block("dead"), fn.append_block("next")
        b.cbranch(b.icmp("ne", v, NULL), count, done)
        b.position_at_end(count)
        new_count = b.index_arith("sub", b.load_at("i64", v, REFCOUNT), int_const("i64", 1), "nuw nsw")
        b.store_at(new_count, v, REFCOUNT)
        b.cbranch(b.icmp("eq", new_count, int_const("i64", 0)), dead, done)
        b.position_at_end(dead)
        b.store_at(_fields_helper(m, t, count_elem).pointer, v, REFCOUNT)
        b.store_at(b.load("ptr", work), v, CAP)
        b.store(v, work)
        b.branch(done)
        b.position_at_end(done)
    elif isinstance(t, T.TupleType):
        for k, e in enumerate(t.elems):
            if managed(e):
                _release_part(m, fn, b, b.extract_value(v, k, llvm_type(e)), e, work, count_elem)
    elif managed(t):
        count_elem(m, b, "decref", v, t)
