"""Arrays made in compiled code: their buffers and reference counts (lists: lists.py).

A buffer is one block from ``aligned_alloc(64, ...)``: a 64-byte header whose first word is
the reference count, then the elements (so the data is 64-byte aligned, as vector loops
like). The array struct's `owner` field (abi) says who keeps the memory alive:

- a buffer: the header's address (64-byte aligned, so its low bit is 0); each array value
  that holds it counts one reference, and the last `decref` frees it;
- an argument: the address of the caller's ndarray plus 1 (``owner | 1``, never a multiple
  of 64); the caller keeps it alive for the call, so counting it is a no-op;
- NULL: memory nobody owns (a kernel's shared array); counting is a no-op too.

Counts are plain loads and stores, not atomics: native code runs without the GIL, but a
buffer is only ever reachable from the one call that made it until it is returned, and
then its only holder is the ndarray's base object (boxing), released with the GIL held.

`emit_rc` counts a value of any type: the one recursion over element types (a list's
elements, an instance's fields, a tuple's parts), above lists.py, strings.py and records.py,
which take it as an argument where they count what a list or an instance holds. So a list
is resized and stored into through `resize_list` and `replace_item` here.
"""

from __future__ import annotations

from script.ir import types as T
from script.backend.llvm.abi import LIKELY, UNLIKELY, ARRAY_DATA, ARRAY_OWNER, ARRAY_SHAPE, ARRAY_STRIDES, itemsize, llvm_type
from script.backend.llvm import lists, records, strings
from script.backend.llvm.builder import NULL, Builder, NativeModule, Value, int_const, undef
from script.backend.llvm.counted import managed

HEADER = 64             # bytes before the first element; also the alignment
INCREF, DECREF = "script.incref", "script.decref"
DECREF_COLD = "script.decref.cold"        # the same, never inlined: on raising paths


def alloc(m: NativeModule, b: Builder, t: T.ArrayType, dims: list[Value], fail) -> Value:
    """A new C-contiguous array of `t` with lengths `dims` and one reference; jumps to the
    block `fail` (MemoryError) when the memory cannot be had. The frontend has checked that
    the lengths are >= 0 and the byte size fits in an i64."""
    size = itemsize(t.dtype)
    strides = [int_const("i64", size)]
    for d in reversed(dims[1:]):
        strides.insert(0, b.index_arith("mul", strides[0], d, "nuw nsw"))
    nbytes = b.index_arith("mul", strides[0], dims[0], "nuw nsw") if dims else int_const("i64", size)
    # Round up to the alignment, as aligned_alloc requires a multiple of it.
    total = b.and_(b.index_arith("add", nbytes, int_const("i64", 2 * HEADER - 1), "nuw nsw"),
                   int_const("i64", -HEADER))
    fn = m.declare("aligned_alloc", "ptr", ["i64", "i64"], attrs=("nounwind",))
    big = b.icmp("uge", total, int_const("i64", HUGE_PAGES_FROM))
    align = b.select(big, int_const("i64", HUGE_PAGE), int_const("i64", HEADER))
    block = b.call(fn, [align, total])
    cont = b.fn.append_block("allocated")
    b.cbranch(b.icmp("ne", block, NULL), cont, fail, LIKELY)
    b.position_at_end(cont)
    _advise_huge_pages(m, b, block, total, big)
    b.store(int_const("i64", 1), block, 8)
    lt = llvm_type(t)
    out = b.insert_value(undef(lt), block, ARRAY_OWNER)
    out = b.insert_value(out, b.gep("i8", block, int_const("i64", HEADER)), ARRAY_DATA)
    for k, (d, st) in enumerate(zip(dims, strides)):
        out = b._emit(lt, f"insertvalue {lt} {out.ref}, i64 {d.ref}, {ARRAY_SHAPE}, {k}")
        out = b._emit(lt, f"insertvalue {lt} {out.ref}, i64 {st.ref}, {ARRAY_STRIDES}, {k}")
    return out


HUGE_PAGES_FROM = 1 << 22      # bytes: NumPy's threshold for the same advice
HUGE_PAGE = 1 << 21
_MADV_HUGEPAGE = 14             # Linux's value


def _advise_huge_pages(m: NativeModule, b: Builder, block: Value, total: Value, big: Value) -> None:
    """Ask the kernel to back a buffer of 4 MiB or more with huge pages, as NumPy does for
    its arrays (``madvise(MADV_HUGEPAGE)`` from the first whole page on; the answer is
    ignored: a kernel without transparent huge pages keeps small ones). A buffer that large
    comes from a fresh `mmap` (glibc gives it back when freed), so every call that makes one
    faults its memory in again: 4 KiB pages took 15-18 ms a call for two 8 MB outputs
    (benchmarks/README.md, prefix sums), 2 MiB pages a few. `big`: whether `total` is that
    large (`alloc` aligned the buffer to a huge page then)."""
    advise, after = b.fn.append_block("huge"), b.fn.append_block("advised")
    b.cbranch(big, advise, after, UNLIKELY)
    b.position_at_end(advise)
    addr = b.ptrtoint(block, "i64")
    start = b.and_(b.index_arith("add", addr, int_const("i64", 4095), "nuw"), int_const("i64", -4096))
    length = b.index_arith("sub", b.index_arith("add", addr, total, "nuw"), start, "nuw")
    madvise = m.declare("madvise", "i32", ["ptr", "i64", "i32"], attrs=("nounwind",))
    b.call(madvise, [b.inttoptr(start, "ptr"), length, int_const("i32", _MADV_HUGEPAGE)])
    b.branch(after)
    b.position_at_end(after)


def emit_rc(m: NativeModule, b: Builder, kind: str, v: Value, t: T.Type, cold: bool = False) -> None:
    """``incref`` or ``decref`` every reference native value `v` of type `t` holds (`cold`:
    on a path that seldom runs, lists.emit_rc)."""
    if kind == "decref" and isinstance(t, T.ClassType):
        records.decref(m, b, v, t, emit_rc)        # (no recursion: records.py)
        return
    if isinstance(t, T.ListType):
        lists.emit_rc(m, b, kind, v, t, emit_rc, cold)
        return
    if isinstance(t, T.TextType):
        strings.emit_rc(m, b, kind, v)
        return
    if isinstance(t, T.ArrayType):
        owner = b.extract_value(v, ARRAY_OWNER, "ptr")
        cold_release = cold and kind == "decref"
        b.call(helper(m, DECREF_COLD if cold_release else INCREF if kind == "incref" else DECREF),
               [owner])
        return
    for k, e in enumerate(t.elems):
        if managed(e):
            emit_rc(m, b, kind, b.extract_value(v, k, llvm_type(e)), e, cold)


def resize_list(m: NativeModule, b: Builder, t: T.ListType, lst: Value, n: Value) -> Value:
    """``list_resize`` (lists.resize), releasing the elements it drops."""
    return lists.resize(m, b, t, lst, n, emit_rc)


def replace_item(m: NativeModule, b: Builder, t: T.ListType, lst: Value, value: Value, index: Value) -> None:
    """``list_set`` (lists.replace_item), counting the element stored and the one replaced."""
    lists.replace_item(m, b, t, lst, value, index, emit_rc)


def helper(m: NativeModule, name: str):
    """``void script.incref(ptr owner)`` / ``script.decref``, defined once per module; the
    last decref frees the buffer. ``script.decref.cold``, the same never inlined, releases
    on the paths an exception takes: a function raising at many points with many arrays
    live had the decref inlined at each (script.grad's RNN gradient: 1,100 inlined releases,
    most of its 20,000 lines of LLVM IR and of LLVM's time)."""
    fn = m.helpers.get(name)
    if fn is not None:
        return fn
    attrs = ("nounwind", "noinline", "cold") if name == DECREF_COLD else ("nounwind", "alwaysinline")
    fn = m.helpers[name] = m.new_function(name, "void", ["ptr"], attrs=attrs)
    owner, = fn.args
    b = Builder(fn, fn.append_block("entry"))
    count, done = fn.append_block("count"), fn.append_block("done")
    addr = b.ptrtoint(owner, "i64")
    # A buffer's header is 64-byte aligned and not NULL; an argument's owner has bit 0 set.
    is_buffer = b.and_(b.icmp("ne", addr, int_const("i64", 0)),
                       b.icmp("eq", b.and_(addr, int_const("i64", 1)), int_const("i64", 0)))
    b.cbranch(is_buffer, count, done)
    b.position_at_end(count)
    old = b.load("i64", owner, 8)
    if name == INCREF:
        b.store(b.index_arith("add", old, int_const("i64", 1), "nuw nsw"), owner, 8)
        b.branch(done)
    else:
        new = b.index_arith("sub", old, int_const("i64", 1), "nuw nsw")
        b.store(new, owner, 8)
        release = fn.append_block("release")
        b.cbranch(b.icmp("eq", new, int_const("i64", 0)), release, done)
        b.position_at_end(release)
        b.call(m.declare("free", "void", ["ptr"], attrs=("nounwind",)), [owner])
        b.branch(done)
    b.position_at_end(done)
    b.ret_void()
    return fn
