"""Lists made in compiled code: their heap objects, reference counts and the list ops.

A list value is a pointer to a 32-byte object from ``malloc``::

    struct List { i64 refcount; i64 len; i64 cap; ptr data; }

`data` (from ``realloc``) holds `cap` elements in their LLVM types (`abi.llvm_type`), of
which the first `len` are the list's. Growing doubles the capacity, so appending is
amortized O(1). A list is only ever reachable from the call that made it: an argument list
from Python is copied in (and written back after the call: runtime.list_reflect), a returned
one boxed into a new Python list (runtime.boxing). So
counts are plain loads and stores, as for array buffers (memory.py).

Elements that hold references (lists, arrays, tuples of them: `counted.managed`) are owned by
the list: each slot counts one reference, a slot not yet written is all zeros (a NULL list,
an array without owner: counting it does nothing). So for such element types `list_set`
counts the new value and releases the old one (`replace_item`), `list_resize` releases the
elements it drops and zeroes the slots it adds, and the last decref releases every element
before freeing the data (helpers per element type, ``script.list.*.<elem>``; a class
instance's fields are released in a loop, not by recursion: records.py). A list never holds
itself; an instance may, through a cycle of fields, and is then never freed. Counting an
element is the recursion over element types that memory.emit_rc is, which imports this
module: so the functions here that count elements take it as their `count_elem` argument, and
callers reach them through memory (`emit_rc`, `resize_list`, `replace_item`).

Out of memory: `list_new` gives NULL when even the object cannot be had, and `list_resize`
of NULL fails like any resize that finds no memory. The frontend follows every `list_new`
with a checked `list_resize`, which raises MemoryError, so no other op ever sees NULL;
counting NULL (releasing what is held on the way out of that MemoryError) does nothing.
"""

from __future__ import annotations

from script.ir import types as T
from script.backend.llvm.abi import LIKELY, llvm_type
from script.backend.llvm.builder import FALSE, NULL, TRUE, Builder, NativeModule, Value, int_const
from script.backend.llvm.counted import REFCOUNT, managed, refcount_helper

LEN, CAP, DATA = 8, 16, 24
OBJECT_SIZE = 32
INCREF, DECREF = "script.list.incref", "script.list.decref"
NEW, RESIZE, GROW = "script.list.new", "script.list.resize", "script.list.grow"
MIN_CAPACITY = 4


def element_size(elem: T.Type) -> Value:
    """The distance in bytes between two elements of type `elem` in a list's data."""
    return Value("i64", f"ptrtoint (ptr getelementptr ({llvm_type(elem)}, ptr null, i32 1) to i64)")


def new(m: NativeModule, b: Builder) -> Value:
    """``list_new``: an empty list with one reference (NULL without memory)."""
    return b.call(_new_helper(m), [])


def length(b: Builder, lst: Value) -> Value:
    return b.load_at("i64", lst, LEN)


def get(b: Builder, t: T.ListType, lst: Value, index: Value) -> Value:
    lt = llvm_type(t.elem)
    return b.load(lt, b.gep_inbounds(lt, b.load_at("ptr", lst, DATA), index))


def set_item(b: Builder, t: T.ListType, lst: Value, value: Value, index: Value) -> None:
    """Store `value` in slot `index`, counting nothing (a fresh slot takes over a reference)."""
    lt = llvm_type(t.elem)
    b.store(value, b.gep_inbounds(lt, b.load_at("ptr", lst, DATA), index))


def replace_item(m: NativeModule, b: Builder, t: T.ListType, lst: Value, value: Value, index: Value,
                 count_elem) -> None:
    """``list_set``: the slot gets a reference to `value` (borrowed from the caller) and
    releases the element it held (counted first, as the two may be the same object);
    `count_elem`: memory.emit_rc."""
    if not managed(t.elem):
        set_item(b, t, lst, value, index)
        return
    lt = llvm_type(t.elem)
    slot = b.gep_inbounds(lt, b.load_at("ptr", lst, DATA), index)
    count_elem(m, b, "incref", value, t.elem)
    old = b.load(lt, slot)
    b.store(value, slot)
    count_elem(m, b, "decref", old, t.elem)


def resize(m: NativeModule, b: Builder, t: T.ListType, lst: Value, n: Value, count_elem) -> Value:
    """``list_resize``: true when the list now has `n` elements, false (unchanged) when
    memory ran out; `count_elem`: memory.emit_rc, for the elements it drops."""
    if managed(t.elem):
        return b.call(_managed_resize_helper(m, t.elem, count_elem), [lst, n])
    return b.call(_resize_helper(m), [lst, n, element_size(t.elem)])


def emit_rc(m: NativeModule, b: Builder, kind: str, lst: Value, t: T.ListType, count_elem, cold: bool = False) -> None:
    """Count a reference of `lst` (not a class instance's: records.py); `count_elem`:
    memory.emit_rc, for the elements the last decref releases; `cold`: a decref on a path
    that seldom runs (releasing what is held when an exception leaves), through a call
    instead of inline code, which would otherwise be copied into every such path of a
    function holding many lists."""
    if kind == "decref" and managed(t.elem):
        b.call(_managed_decref_helper(m, t.elem, count_elem), [lst])
        return
    if cold and kind == "decref":
        b.call(_cold_decref(m), [lst])
        return
    b.call(_rc_helper(m, INCREF if kind == "incref" else DECREF), [lst])


FREE = "script.list.free"


def _free_helper(m: NativeModule):
    """``void script.list.free(ptr list)``: frees the data and the object of a list whose
    last reference went; out of line, so that each decref inlines only its count."""
    fn = m.helpers.get(FREE)
    if fn is not None:
        return fn
    fn = m.helpers[FREE] = m.new_function(FREE, "void", ["ptr"], attrs=("nounwind", "noinline"))
    lst, = fn.args
    b = Builder(fn, fn.append_block("entry"))
    free = m.declare("free", "void", ["ptr"], attrs=("nounwind",))
    b.call(free, [b.load_at("ptr", lst, DATA)])
    b.call(free, [lst])
    b.ret_void()
    return fn


COLD_DECREF = "script.list.decref.cold"


def _cold_decref(m: NativeModule):
    fn = m.helpers.get(COLD_DECREF)
    if fn is not None:
        return fn
    fn = m.helpers[COLD_DECREF] = m.new_function(COLD_DECREF, "void", ["ptr"], attrs=("nounwind", "noinline", "cold"))
    b = Builder(fn, fn.append_block("entry"))
    b.call(_rc_helper(m, DECREF), [fn.args[0]])
    b.ret_void()
    return fn


def data_pointer(b: Builder, lst: Value) -> Value:
    """The address of element 0 (for code that fills or reads a whole list: boxing)."""
    return b.load_at("ptr", lst, DATA)


# --- helpers, defined once per module ------------------------------------------------------

def _new_helper(m: NativeModule):
    fn = m.helpers.get(NEW)
    if fn is not None:
        return fn
    fn = m.helpers[NEW] = m.new_function(NEW, "ptr", [], attrs=("nounwind",))
    b = Builder(fn, fn.append_block("entry"))
    obj = b.call(m.declare("malloc", "ptr", ["i64"], attrs=("nounwind",)), [int_const("i64", OBJECT_SIZE)])
    ok, failed = fn.append_block("ok"), fn.append_block("failed")
    b.cbranch(b.icmp("ne", obj, NULL), ok, failed, LIKELY)
    b.position_at_end(failed)
    b.ret(NULL)
    b.position_at_end(ok)
    b.store_at(int_const("i64", 1), obj, REFCOUNT)
    b.store_at(int_const("i64", 0), obj, LEN)
    b.store_at(int_const("i64", 0), obj, CAP)
    b.store_at(NULL, obj, DATA)
    b.ret(obj)
    return fn


def _resize_helper(m: NativeModule):
    """``i1 script.list.resize(ptr list, i64 n, i64 size)``: inlined; within the capacity it
    only stores the length, else it calls the out-of-line ``script.list.grow``."""
    fn = m.helpers.get(RESIZE)
    if fn is not None:
        return fn
    fn = m.helpers[RESIZE] = m.new_function(RESIZE, "i1", ["ptr", "i64", "i64"],
                                            attrs=("nounwind", "alwaysinline"))
    lst, n, size = fn.args
    b = Builder(fn, fn.append_block("entry"))
    live, failed, fits, grow = (fn.append_block(x) for x in ("live", "failed", "fits", "grow"))
    b.cbranch(b.icmp("ne", lst, NULL), live, failed, LIKELY)
    b.position_at_end(failed)
    b.ret(FALSE)
    b.position_at_end(live)
    b.cbranch(b.icmp("sle", n, b.load_at("i64", lst, CAP)), fits, grow, LIKELY)
    b.position_at_end(fits)
    b.store_at(n, lst, LEN)
    b.ret(TRUE)
    b.position_at_end(grow)
    b.ret(b.call(_grow_helper(m), [lst, n, size]))
    return fn


def _grow_helper(m: NativeModule):
    """``i1 script.list.grow(ptr list, i64 n, i64 size)``: a capacity of at least `n`, at
    least double the old one; false when the byte size is out of range or realloc fails."""
    fn = m.helpers.get(GROW)
    if fn is not None:
        return fn
    fn = m.helpers[GROW] = m.new_function(GROW, "i1", ["ptr", "i64", "i64"], attrs=("nounwind", "noinline"))
    lst, n, size = fn.args
    b = Builder(fn, fn.append_block("entry"))
    sized, failed, done = fn.append_block("sized"), fn.append_block("failed"), fn.append_block("done")
    twice = b.index_arith("mul", b.load_at("i64", lst, CAP), int_const("i64", 2), "nuw nsw")
    cap = b.select(b.icmp("sgt", n, twice), n, twice)
    cap = b.select(b.icmp("slt", cap, int_const("i64", MIN_CAPACITY)), int_const("i64", MIN_CAPACITY), cap)
    # Elements of no bytes (empty tuples) count as one byte: no division by zero, and no
    # realloc(p, 0), which frees p.
    size = b.select(b.icmp("eq", size, int_const("i64", 0)), int_const("i64", 1), size)
    # No more bytes than an i64 can count (far beyond any real memory: realloc then fails).
    limit = b._emit("i64", f"udiv i64 {1 << 62}, {size.ref}")
    b.cbranch(b.icmp("sle", cap, limit), sized, failed, LIKELY)
    b.position_at_end(failed)
    b.ret(FALSE)
    b.position_at_end(sized)
    realloc = m.declare("realloc", "ptr", ["ptr", "i64"], attrs=("nounwind",))
    data = b.call(realloc, [b.load_at("ptr", lst, DATA), b.index_arith("mul", cap, size, "nuw nsw")])
    b.cbranch(b.icmp("ne", data, NULL), done, failed, LIKELY)
    b.position_at_end(done)
    b.store_at(data, lst, DATA)
    b.store_at(cap, lst, CAP)
    b.store_at(n, lst, LEN)
    b.ret(TRUE)
    return fn


def _rc_helper(m: NativeModule, name: str):
    """``void script.list.incref(ptr list)`` / ``decref``; the last decref frees the data and
    the object. NULL (a list that could not be made) is left alone."""
    return refcount_helper(m, name, name == INCREF, lambda: _free_helper(m), LIKELY)


def _release_elements(m: NativeModule, fn, b: Builder, elem: T.Type, lst: Value, lo: Value, hi: Value,
                      count_elem) -> None:
    """Release elements `lo` <= k < `hi` of `lst` (a loop in `fn`; `b` continues after it)."""
    lt = llvm_type(elem)
    data = b.load_at("ptr", lst, DATA)
    entry = b.block
    head, body, done = fn.append_block("rel.head"), fn.append_block("rel.body"), fn.append_block("rel.done")
    b.branch(head)
    b.position_at_end(head)
    k = b.phi("i64")
    k.add_incoming(lo, entry)
    b.cbranch(b.icmp("slt", k, hi), body, done)
    b.position_at_end(body)
    count_elem(m, b, "decref", b.load(lt, b.gep_inbounds(lt, data, k)), elem)
    k.add_incoming(b.index_arith("add", k, int_const("i64", 1), "nuw nsw"), b.block)
    b.branch(head)
    b.position_at_end(done)


def _managed_decref_helper(m: NativeModule, elem: T.Type, count_elem):
    """``void script.list.decref.<elem>(ptr list)``: the last decref releases the elements,
    then frees the data and the object. Not inlined (it loops, and may recurse into the
    helpers of inner element types)."""
    name = f"{DECREF}.{elem}"
    fn = m.helpers.get(name)
    if fn is not None:
        return fn
    fn = m.helpers[name] = m.new_function(name, "void", ["ptr"], attrs=("nounwind",))
    lst, = fn.args
    b = Builder(fn, fn.append_block("entry"))
    count, release, done = fn.append_block("count"), fn.append_block("release"), fn.append_block("done")
    b.cbranch(b.icmp("ne", lst, NULL), count, done, LIKELY)
    b.position_at_end(count)
    new_count = b.index_arith("sub", b.load_at("i64", lst, REFCOUNT), int_const("i64", 1), "nuw nsw")
    b.store_at(new_count, lst, REFCOUNT)
    b.cbranch(b.icmp("eq", new_count, int_const("i64", 0)), release, done)
    b.position_at_end(release)
    _release_elements(m, fn, b, elem, lst, int_const("i64", 0), b.load_at("i64", lst, LEN), count_elem)
    free = m.declare("free", "void", ["ptr"], attrs=("nounwind",))
    b.call(free, [b.load_at("ptr", lst, DATA)])
    b.call(free, [lst])
    b.branch(done)
    b.position_at_end(done)
    b.ret_void()
    return fn


def _managed_resize_helper(m: NativeModule, elem: T.Type, count_elem):
    """``i1 script.list.resize.<elem>(ptr list, i64 n)``: releases the elements beyond `n`
    when shrinking, zeroes the new slots when growing (after the plain resize succeeded)."""
    name = f"{RESIZE}.{elem}"
    fn = m.helpers.get(name)
    if fn is not None:
        return fn
    fn = m.helpers[name] = m.new_function(name, "i1", ["ptr", "i64"], attrs=("nounwind",))
    lst, n = fn.args
    b = Builder(fn, fn.append_block("entry"))
    live, failed, shrink, sized, grown, done = (fn.append_block(x) for x in (
        "live", "failed", "shrink", "sized", "grown", "done"))
    b.cbranch(b.icmp("ne", lst, NULL), live, failed, LIKELY)
    b.position_at_end(failed)
    b.ret(FALSE)
    b.position_at_end(live)
    old = b.load_at("i64", lst, LEN)
    b.cbranch(b.icmp("slt", n, old), shrink, sized)
    b.position_at_end(shrink)
    _release_elements(m, fn, b, elem, lst, n, old, count_elem)
    b.branch(sized)
    b.position_at_end(sized)
    size = element_size(elem)
    ok = b.call(_resize_helper(m), [lst, n, size])
    b.cbranch(b.and_(ok, b.icmp("sgt", n, old)), grown, done)
    b.position_at_end(grown)
    start = b.gep("i8", b.load_at("ptr", lst, DATA), b.index_arith("mul", old, size, "nuw nsw"))
    nbytes = b.index_arith("mul", b.index_arith("sub", n, old, "nuw nsw"), size, "nuw nsw")
    memset = m.intrinsic("llvm.memset.p0.i64", "void", ["ptr", "i8", "i64", "i1"])
    b.call(memset, [start, int_const("i8", 0), nbytes, FALSE])
    b.branch(done)
    b.position_at_end(done)
    b.ret(ok)
    return fn
