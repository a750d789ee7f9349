"""Strings in compiled code: their heap objects, reference counts and the string ops.

A str value is a pointer to one object from ``malloc`` holding its code points inline::

    struct Str { i64 refcount; i64 len; i32 data[len]; }

UTF-32: one code point per element, whatever its value (lone surrogates included, as CPython
allows), so indexing, slicing and lengths are Python's with no decoding. Strings are
immutable once filled: `str_new` makes one whose code points `str_set` writes before anyone
reads it (lib/python/strlib.py). A string is only reachable from the call that made it or
from a constant: an argument from Python is copied in (runtime.boxing), a result boxed into
a new Python str. Counts are plain loads and stores, as for lists.

Constants (`str_const`) are writable globals of the same layout whose count starts at
`IMMORTAL`: counting them (a constant stored into a list, returned) never frees them.

Out of memory: `str_new` jumps to the caller's MemoryError block; NULL is never a string
value, but a list's unset slots hold NULL (lists.py), which counting leaves alone.
"""

from __future__ import annotations

from script.backend.llvm.abi import EXC_TYPE
from script.backend.llvm.builder import FALSE, NULL, TRUE, Builder, NativeModule, Value, int_const
from script.backend.llvm.counted import refcount_helper

REFCOUNT, LEN, DATA = 0, 8, 16
IMMORTAL = 1 << 62
MAX_LEN = 1 << 60               # more code points than any memory holds: MemoryError
INCREF, DECREF = "script.str.incref", "script.str.decref"
# The runtime library's function behind `str_py` (runtime/strings.py).
PY_SYMBOL = "script.str.py"


def new(m: NativeModule, b: Builder, n: Value, fail) -> Value:
    """``str_new``: a string of `n` (>= 0) code points, undefined, with one reference;
    jumps to `fail` when memory runs out."""
    fn = b.fn
    sized, made = fn.append_block("str_sized"), fn.append_block("str_made")
    b.cbranch(b.icmp("ule", n, int_const("i64", MAX_LEN)), sized, fail)
    b.position_at_end(sized)
    nbytes = b.index_arith("add", b.index_arith("mul", n, int_const("i64", 4), "nuw nsw"),
                           int_const("i64", DATA), "nuw nsw")
    obj = b.call(m.declare("malloc", "ptr", ["i64"], attrs=("nounwind",)), [nbytes])
    b.cbranch(b.icmp("ne", obj, NULL), made, fail)
    b.position_at_end(made)
    b.store_at(int_const("i64", 1), obj, REFCOUNT)
    b.store_at(n, obj, LEN)
    return obj


def length(b: Builder, s: Value) -> Value:
    return b.load_at("i64", s, LEN)


def data_pointer(b: Builder, s: Value) -> Value:
    return b.offset(s, DATA)


def get(b: Builder, s: Value, index: Value) -> Value:
    """Code point `index` (in bounds) as an i64."""
    return b.zext(b.load("i32", b.gep_inbounds("i32", data_pointer(b, s), index)), "i64")


def set_item(b: Builder, s: Value, code: Value, index: Value) -> None:
    b.store(b.trunc(code, "i32"), b.gep_inbounds("i32", data_pointer(b, s), index))


def char(m: NativeModule, b: Builder, code: Value, fail) -> Value:
    """``str_char``: the string of one code point, from the table of the first 256 (immortal,
    as CPython's latin-1 singletons) or new; jumps to `fail` when memory runs out."""
    fn = b.fn
    small, big, done = fn.append_block("char_small"), fn.append_block("char_big"), fn.append_block("char_done")
    b.cbranch(b.icmp("ult", code, int_const("i64", 256)), small, big)
    b.position_at_end(small)
    table = _latin1_table(m)
    shared = b.gep(_CHAR_TYPE, table, code)
    b.branch(done)
    b.position_at_end(big)
    made = new(m, b, int_const("i64", 1), fail)
    set_item(b, made, code, int_const("i64", 0))
    big_end = b.block
    b.branch(done)
    b.position_at_end(done)
    phi = b.phi("ptr")
    phi.add_incoming(shared, small)
    phi.add_incoming(made, big_end)
    return phi


_CHAR_TYPE = "{i64, i64, [1 x i32]}"


def _latin1_table(m: NativeModule) -> Value:
    key = "script.str.latin1"
    ref = m.helpers.get(key)
    if ref is None:
        items = ", ".join(f"{_CHAR_TYPE} {{i64 {IMMORTAL}, i64 1, [1 x i32] [i32 {c}]}}" for c in range(256))
        ref = m.helpers[key] = m.define_global(key, f"[256 x {_CHAR_TYPE}]", f"[{items}]")
    return ref


def constant(m: NativeModule, text: str) -> Value:
    """The address of the immortal constant object of `text`, one per text in a module."""
    key = ("str_const", text)
    ref = m.helpers.get(key)
    if ref is not None:
        return ref
    codes = [ord(c) for c in text]
    n = len(codes)
    body = ", ".join(f"i32 {c}" for c in codes)
    t = f"{{i64, i64, [{n} x i32]}}"
    init = f"{{i64 {IMMORTAL}, i64 {n}, [{n} x i32] [{body}]}}" if n else \
        f"{{i64 {IMMORTAL}, i64 0, [0 x i32] zeroinitializer}}"
    ref = m.helpers[key] = m.define_global(f"script.str.const.{len(m.helpers)}", t, init)
    return ref


# The view of an array a `str_py` operand is (the runtime makes an ndarray over it):
# {ptr data, i64 ndim, i64 NumPy type number, [MAX_VIEW_DIMS x i64] shape, the same strides}
MAX_VIEW_DIMS = 32
ARRAY_VIEW = f"{{ptr, i64, i64, [{MAX_VIEW_DIMS} x i64], [{MAX_VIEW_DIMS} x i64]}}"
VIEW_SHAPE, VIEW_STRIDES = 24, 24 + 8 * MAX_VIEW_DIMS      # byte offsets of the two lists


def array_view(b: Builder, v: Value, t) -> Value:
    """The address (as an i64) of a view of array value `v` of type `t` (`ARRAY_VIEW`),
    alive for the function: what `str_py.array_str` hands the runtime as its int."""
    from script.backend.llvm.abi import ARRAY_DATA, ARRAY_SHAPE, ARRAY_STRIDES
    from script.backend.runtime.capi import NPY_TYPE_NUMS
    view = b.entry_alloca(ARRAY_VIEW)
    b.store_at(b.extract_value(v, ARRAY_DATA, "ptr"), view, 0)
    b.store_at(int_const("i64", t.ndim), view, 8)
    b.store_at(int_const("i64", NPY_TYPE_NUMS[str(t.dtype)][0]), view, 16)
    for k in range(t.ndim):
        b.store_at(b._emit("i64", f"extractvalue {v.type} {v.ref}, {ARRAY_SHAPE}, {k}"), view, VIEW_SHAPE + 8 * k)
        b.store_at(b._emit("i64", f"extractvalue {v.type} {v.ref}, {ARRAY_STRIDES}, {k}"), view, VIEW_STRIDES + 8 * k)
    return b.ptrtoint(view, "i64")


def call_python(m: NativeModule, b: Builder, env: Value, fn_index: int, operands: list, types: list,
                result: str, unwind) -> Value:
    """``str_py``: the runtime's ``i32 script.str.py(Env*, i32 f, ptr s0, ptr s1, i64 i, double x,
    ptr out)`` (runtime/strings.py) with the str operands as s0, s1, an int as i, a float as
    x; its result (`result`: "str", "i64", "f64" or "bool") read from `out`. Goes to
    `unwind` when it raised (the Env's status says so); with no `unwind` (a `raised` follows)
    it goes on, with a zero result (a NULL str, which releasing leaves alone)."""
    strs = [v for v, t in zip(operands, types) if t == "str"] + [NULL, NULL]
    ints = [v for v, t in zip(operands, types) if t in ("i64", "u64")] + [int_const("i64", 0)]
    for v, t in zip(operands, types):
        if t == "exc":          # a caught exception: its record's address, as the int
            record = b.entry_alloca(EXC_TYPE)
            b.store(v, record)
            ints.insert(0, b.ptrtoint(record, "i64"))
    floats = [v for v, t in zip(operands, types) if t == "f64"] + [Value("double", "0.0")]
    out = b.entry_alloca("i64")
    if unwind is None:
        b.store(int_const("i64", 0), out)
    callee = m.declare(PY_SYMBOL, "i32", ["ptr", "i32", "ptr", "ptr", "i64", "double", "ptr"],
                       attrs=("nounwind",))
    ok = b.call(callee, [env, int_const("i32", fn_index), strs[0], strs[1], ints[0], floats[0], out])
    if unwind is not None:
        cont = b.fn.append_block("str_py_done")
        b.cbranch(b.icmp("eq", ok, int_const("i32", 0)), unwind, cont)
        b.position_at_end(cont)
    if result == "str":
        return b.load("ptr", out)
    if result == "f64":
        return b.load("double", out)
    word = b.load("i64", out)
    return b.icmp("ne", word, int_const("i64", 0)) if result == "bool" else word


def concat(m: NativeModule, b: Builder, x: Value, y: Value, fail) -> Value:
    """``str_concat``: x + y, taking over `x`'s reference; jumps to `fail` (x untouched) when
    memory runs out."""
    r = b.call(_concat_helper(m), [x, y])
    ok = b.fn.append_block("concat_ok")
    b.cbranch(b.icmp("ne", r, NULL), ok, fail)
    b.position_at_end(ok)
    return r


def _concat_helper(m: NativeModule):
    """``ptr script.str.concat(ptr x, ptr y)``: x + y (NULL without memory, x unchanged). A
    string only `x` holds (count 1, not `y` itself) grows in place with ``realloc``: appending
    in a loop is amortized O(1) where realloc can extend the block, as in CPython."""
    name = "script.str.concat"
    fn = m.helpers.get(name)
    if fn is not None:
        return fn
    fn = m.helpers[name] = m.new_function(name, "ptr", ["ptr", "ptr"], attrs=("nounwind",))
    x, y = fn.args
    b = Builder(fn, fn.append_block("entry"))
    nx, ny = length(b, x), length(b, y)
    same, sized, grow, copy, copied, failed = (fn.append_block(h) for h in (
        "same", "sized", "grow", "copy", "copied", "failed"))
    b.cbranch(b.icmp("eq", ny, int_const("i64", 0)), same, sized)
    b.position_at_end(same)
    b.ret(x)
    b.position_at_end(failed)
    b.ret(NULL)
    b.position_at_end(sized)
    n = b.index_arith("add", nx, ny, "nuw nsw")
    nbytes = b.index_arith("add", b.index_arith("mul", n, int_const("i64", 4), "nuw nsw"),
                           int_const("i64", DATA), "nuw nsw")
    fits = b.icmp("ule", n, int_const("i64", MAX_LEN))
    only = b.and_(b.icmp("eq", b.load_at("i64", x, REFCOUNT), int_const("i64", 1)), b.icmp("ne", x, y))
    in_place = fn.append_block("in_place")
    b.cbranch(fits, in_place, failed)
    b.position_at_end(in_place)
    b.cbranch(only, grow, copy)
    memcpy = m.intrinsic("llvm.memcpy.p0.p0.i64", "void", ["ptr", "ptr", "i64", "i1"])
    four = int_const("i64", 4)

    def append_y(p):
        at = b.gep_inbounds("i32", data_pointer(b, p), nx)
        b.call(memcpy, [at, data_pointer(b, y), b.index_arith("mul", ny, four, "nuw nsw"), FALSE])

    b.position_at_end(grow)
    realloc = m.declare("realloc", "ptr", ["ptr", "i64"], attrs=("nounwind",))
    p = b.call(realloc, [x, nbytes])
    grown = fn.append_block("grown")
    b.cbranch(b.icmp("ne", p, NULL), grown, failed)
    b.position_at_end(grown)
    append_y(p)
    b.store_at(n, p, LEN)
    b.ret(p)
    b.position_at_end(copy)
    q = b.call(m.declare("malloc", "ptr", ["i64"], attrs=("nounwind",)), [nbytes])
    b.cbranch(b.icmp("ne", q, NULL), copied, failed)
    b.position_at_end(copied)
    b.store_at(int_const("i64", 1), q, REFCOUNT)
    b.store_at(n, q, LEN)
    b.call(memcpy, [data_pointer(b, q), data_pointer(b, x), b.index_arith("mul", nx, four, "nuw nsw"), FALSE])
    append_y(q)
    b.call(_rc_helper(m, DECREF), [x])          # a count above 1 (or immortal): not freed
    b.ret(q)
    return fn


def equal(m: NativeModule, b: Builder, x: Value, y: Value) -> Value:
    """``str_eq``: the same object, or the same length and code points (``memcmp``)."""
    return b.call(_equal_helper(m), [x, y])


def _equal_helper(m: NativeModule):
    name = "script.str.eq"
    fn = m.helpers.get(name)
    if fn is not None:
        return fn
    fn = m.helpers[name] = m.new_function(name, "i1", ["ptr", "ptr"], attrs=("nounwind",))
    x, y = fn.args
    b = Builder(fn, fn.append_block("entry"))
    same, other, sized, compare = (fn.append_block(h) for h in ("same", "other", "sized", "compare"))
    b.cbranch(b.icmp("eq", x, y), same, other)
    b.position_at_end(same)
    b.ret(TRUE)
    b.position_at_end(other)
    n = length(b, x)
    b.cbranch(b.icmp("eq", n, length(b, y)), compare, sized)
    b.position_at_end(sized)
    b.ret(FALSE)
    b.position_at_end(compare)
    memcmp = m.declare("memcmp", "i32", ["ptr", "ptr", "i64"], attrs=("nounwind",))
    nbytes = b.index_arith("mul", n, int_const("i64", 4), "nuw nsw")
    r = b.call(memcmp, [data_pointer(b, x), data_pointer(b, y), nbytes])
    b.ret(b.icmp("eq", r, int_const("i32", 0)))
    return fn


def emit_rc(m: NativeModule, b: Builder, kind: str, s: Value) -> None:
    b.call(_rc_helper(m, INCREF if kind == "incref" else DECREF), [s])


def _rc_helper(m: NativeModule, name: str):
    """``void script.str.incref(ptr s)`` / ``decref``; the last decref frees the object.
    NULL (an unset list slot) is left alone."""
    return refcount_helper(m, name, name == INCREF,
                           lambda: m.declare("free", "void", ["ptr"], attrs=("nounwind",)))
