"""NumPy array creation in compiled code: `np.empty`, `zeros`, `ones`, `full`, the `*_like`
forms, `arange`, `linspace`, `copy`, `reshape`, `ravel`, `flatten`, `astype`.

Functions over the lowering `cx`. New arrays come from the IR's `alloc`
(C-contiguous, reference counted by the backend); every size is checked as NumPy checks it
(negative lengths, byte sizes beyond the address space) before it is allocated.
"""

from __future__ import annotations

import ast
import math

from script.frontend import arrays, elementwise, numpy_reduce
from script.frontend.registry import ANY, CALLS, METHODS, lowers, numpy_function
from script.frontend.unknown import Unknown
from script.frontend.pyref import PyRef
from script.ir import types as T
from script.ir.core import Const, Instr, Value
from script.ir.ops import MAX_MESSAGE_ARGS

_TOO_BIG = "array is too big; `arr.size * arr.dtype.itemsize` is larger than the maximum possible size."


def itemsize(t: T.Type) -> int:
    return 1 if isinstance(t, T.BoolType) else t.bits // 8


def alloc_array(cx, dtype: T.Type, dims: list[Value], node) -> Value:
    """A new C-contiguous array of `dtype` and lengths `dims` (i64 values), its contents
    undefined; ValueError for a negative length, as NumPy raises."""
    loc = cx.loc(node)
    dims = [cx.coerce(d, T.I64, node) for d in dims]
    if any(not isinstance(d, Const) for d in dims):
        negative = None
        for d in dims:
            c = cx.cmp("lt", d, Const(0, T.I64), node)
            negative = c if negative is None else cx.emit("or", [negative, c], T.BOOL, None, loc)
        cx.raise_if(negative, "ValueError", "negative dimensions are not allowed", node)
        check_byte_size(cx, dims, itemsize(dtype), node)
    elif any(d.value < 0 for d in dims):        # NumPy's ValueError when (if) the line runs
        cx.raise_always("ValueError", "negative dimensions are not allowed", node)
        dims = [Const(0, T.I64)] * len(dims)
    elif math.prod(d.value for d in dims) * itemsize(dtype) > T.I64.max:
        cx.raise_always("ValueError", _TOO_BIG, node)
        dims = [Const(0, T.I64)] * len(dims)
    return cx.emit("alloc", dims, T.ArrayType(dtype, len(dims), "C"), None, loc)


def check_byte_size(cx, dims: list[Value], size: int, node) -> None:
    """ValueError when the lengths (each >= 0) times `size` bytes exceed the i64 range,
    unless one of them is 0.

    The first length d is compared with a constant (``size * d > MAX`` exactly when
    ``d > MAX // size``); a later one divides MAX by ``max(d, 1)``, which the ranges
    pass sees is >= 1 and makes an unsigned division. Dividing by ``select(d != 0, d,
    1)`` (the same value for d >= 0) left LLVM a signed floor division, its sign fix-up
    and the test of a divisor -1 to fold, for each array a function makes."""
    loc = cx.loc(node)
    acc: Value = Const(size, T.I64)
    big: Value = Const(False, T.BOOL)
    zero: Value = Const(False, T.BOOL)
    for d in dims:
        nonzero = cx.cmp("ne", d, Const(0, T.I64), node)
        safe = cx.emit("max", [d, Const(1, T.I64)], T.I64, None, loc)
        if isinstance(acc, Const):
            over = cx.cmp("gt", d, Const(T.I64.max // acc.value, T.I64), node)
        else:
            limit = cx.emit("floordiv", [Const(T.I64.max, T.I64), safe], T.I64, None, loc)
            over = cx.emit("and", [nonzero, cx.cmp("gt", acc, limit, node)], T.BOOL, None, loc)
        big = cx.emit("or", [big, over], T.BOOL, None, loc)
        zero = cx.emit("or", [zero, cx.emit("not", [nonzero], T.BOOL, None, loc)], T.BOOL, None, loc)
        acc = cx.emit("mul", [acc, safe], T.I64, None, loc)
    bad = cx.emit("and", [big, cx.emit("not", [zero], T.BOOL, None, loc)], T.BOOL, None, loc)
    cx.raise_if(bad, "ValueError", _TOO_BIG, node)


def loop_nest(cx, node, dims: list[Value], body, idx=()) -> None:
    """Run `body(indices)` for every index tuple of an array with lengths `dims`, the last
    axis innermost."""
    if len(idx) == len(dims):
        body(list(idx))
        return
    cx.counted_loop(cx.info.synthetic_loop(node), Const(0, T.I64), dims[len(idx)], Const(1, T.I64),
                    lambda i: loop_nest(cx, node, dims, body, (*idx, i)))


def dims_of(cx, arr: Value, node) -> list[Value]:
    return [cx.emit("dim", [arr], T.I64, k, cx.loc(node)) for k in range(arr.type.ndim)]


def shape_values(cx, shape_node, node) -> list[Value]:
    """The lengths a shape argument names: an int, or a tuple or list of ints."""
    if isinstance(shape_node, (ast.List, ast.Tuple)):
        parts = [cx.expr(e) for e in shape_node.elts]
    else:
        v = cx.expr(shape_node)
        if isinstance(v.type, T.TupleType):
            parts = [cx.tuple_item(v, Const(k, T.I64), shape_node, shape_node)
                     for k in range(len(v.type.elems))]
        else:
            parts = [v]
    for p in parts:
        if not isinstance(p.type, (T.IntType, T.BoolType, Unknown)):
            cx.error(f"'{p.type}' object cannot be interpreted as an integer (array shape)",
                     shape_node)
    return [cx.coerce(p, T.I64, shape_node) for p in parts]


def dtype_arg(cx, dtype_node, default: T.Type) -> T.Type:
    """The element type a ``dtype=`` argument names (`float`, `np.int32`, ``"f4"``,
    `script.f32`, ``a.dtype``), or `default` when it is absent or None."""
    if dtype_node is None or (isinstance(dtype_node, ast.Constant) and dtype_node.value is None):
        return default
    if isinstance(dtype_node, ast.Constant) and isinstance(dtype_node.value, str):
        return dtype_from_object(cx, dtype_node.value, dtype_node)
    if isinstance(dtype_node, ast.Attribute) and dtype_node.attr == "dtype":
        base = cx.callee_ref(dtype_node.value)
        if isinstance(getattr(base, "type", None), T.ArrayType):
            return base.type.dtype
    ref = cx.callee_ref(dtype_node)
    if getattr(ref, "opname", None) == "str_const":      # a name bound to a string ("f4")
        return dtype_from_object(cx, ref.attr, dtype_node)
    if not isinstance(ref, PyRef):
        cx.error("dtype must be a type known when compiling (float, np.int32, 'f8', ...)", dtype_node)
    return dtype_from_object(cx, ref.obj, dtype_node)


def dtype_from_object(cx, obj, node) -> T.Type:
    import numpy as np
    from script.frontend.typeinfer import SizedType
    if isinstance(obj, SizedType):
        return obj.ir_type
    try:
        dt = np.dtype(obj)
    except TypeError:
        cx.error(f"data type {obj!r} not understood", node)
    from script.frontend.typeinfer import dtype_to_type
    t = dtype_to_type(dt)
    if t is None:
        cx.error(f"arrays of {dt} are not supported in compiled code", node)
    return t


def default_dtype(cx, v: Value) -> T.Type:
    """The dtype NumPy gives an array filled from scalar `v` (np.full's default)."""
    if isinstance(v.type, T.BoolType):
        return T.BOOL
    if isinstance(v.type, T.IntType):
        return v.type
    return v.type if isinstance(v.type, (T.FloatType, T.ComplexType)) else T.F64


def fill(cx, arr: Value, value: Value, node) -> None:
    v = arrays.item_value(cx, value, arr.type.dtype, node)
    loop_nest(cx, node, dims_of(cx, arr, node),
              lambda idx: cx.emit("store", [arr, v, *idx], T.NONE, None, cx.loc(node)))


def copy_into(cx, dst: Value, src: Value, node, convert: bool = False) -> None:
    """Copy `src` into `dst` of the same shape, converting elements as NumPy's casts do
    (`convert`: unchecked, as ``astype``), or as item assignment does."""
    def body(idx):
        v = cx.emit("load", [src, *idx], src.type.dtype, None, cx.loc(node))
        if convert:
            cx.emit("store", [dst, cast_element(cx, v, dst.type.dtype, node), *idx], T.NONE, None,
                    cx.loc(node))
        else:
            arrays.store_element(cx, dst, idx, v, node)
    loop_nest(cx, node, dims_of(cx, src, node), body)


def cast_element(cx, v: Value, t: T.Type, node) -> Value:
    """NumPy's unsafe cast of one element (``astype``): floats to ints truncate, no check."""
    if v.type == t:
        return v
    if isinstance(t, T.BoolType):
        return cx.truth(v, node)
    return cx.emit("convert", [v], t, None, cx.loc(node))

# ---- the functions --------------------------------------------------------------------


def np_args(cx, node: ast.Call, name: str, names: tuple, required: int) -> list:
    """The argument nodes of a call to numpy.`name` bound to parameter `names` (None where
    absent); the first `required` must be given."""
    bound = list(node.args) + [None] * (len(names) - len(node.args))
    if len(node.args) > len(names):
        cx.error(f"numpy.{name}() takes at most {len(names)} arguments here", node)
    for k in node.keywords:
        if k.arg not in names:
            cx.error(f"numpy.{name}() got an unsupported keyword argument '{k.arg}'", k.value)
        i = names.index(k.arg)
        if bound[i] is not None:
            cx.error(f"numpy.{name}() got multiple values for argument '{k.arg}'", k.value)
        bound[i] = k.value
    for i in range(required):
        if bound[i] is None:
            cx.error(f"numpy.{name}() missing required argument '{names[i]}'", node)
    return bound


def check_order(cx, order_node, node) -> None:
    if order_node is not None and not (isinstance(order_node, ast.Constant) and order_node.value in ("C", "K", "A")):
        cx.error("only order='C' arrays can be created in compiled code", order_node)


def np_empty(cx, node, name):
    shape, dtype, order = np_args(cx, node, name, ("shape", "dtype", "order"), 1)
    check_order(cx, order, node)
    arr = alloc_array(cx, dtype_arg(cx, dtype, T.F64), shape_values(cx, shape, node), node)
    if name in ("zeros", "ones"):
        fill(cx, arr, Const(0 if name == "zeros" else 1, T.I64), node)
    return arr


def np_full(cx, node, name):
    shape, value, dtype, order = np_args(cx, node, name, ("shape", "fill_value", "dtype", "order"), 2)
    check_order(cx, order, node)
    dims = shape_values(cx, shape, node)       # the arguments in order, as Python
    v = cx.expr(value)
    arr = alloc_array(cx, dtype_arg(cx, dtype, default_dtype(cx, v)), dims, node)
    fill(cx, arr, v, node)
    return arr


def np_like(cx, node, name):
    names = ("a", "fill_value", "dtype") if name == "full_like" else ("a", "dtype")
    args = np_args(cx, node, name, names, len(names) - 1)
    proto = array_arg(cx, args[0], name)
    arr = alloc_array(cx, dtype_arg(cx, args[-1], proto.type.dtype), dims_of(cx, proto, node), node)
    if name != "empty_like":
        value = {"zeros_like": Const(0, T.I64), "ones_like": Const(1, T.I64)}.get(name)
        fill(cx, arr, value if value is not None else cx.expr(args[1]), node)
    return arr


def array_arg(cx, arg_node, name: str) -> Value:
    v = numpy_reduce.array_like(cx, cx.expr(arg_node), arg_node)
    if not isinstance(v.type, T.ArrayType):
        cx.error(f"numpy.{name}() expects an array here, not {v.type}", arg_node)
    return v


def np_copy(cx, node, name):
    (a,) = np_args(cx, node, name, ("a",), 1)
    return copy_array(cx, array_arg(cx, a, name), node)


def copy_array(cx, arr: Value, node, dtype: T.Type | None = None) -> Value:
    out = alloc_array(cx, dtype or arr.type.dtype, dims_of(cx, arr, node), node)
    copy_into(cx, out, arr, node, convert=True)
    return out


def np_arange(cx, node, name):
    start, stop, step, dtype = np_args(cx, node, name, ("start", "stop", "step", "dtype"), 1)
    loc = cx.loc(node)
    values = [cx.expr(a) for a in (start, stop, step) if a is not None]
    if stop is None:
        values = [Const(0, T.I64)] + values
    if len(values) == 2:
        values.append(Const(1, T.I64))
    for v, n in zip(values, (start, stop, step)):
        if not v.type.is_numeric():
            cx.error(f"numpy.arange() arguments must be numbers, not {v.type}", n or node)
    floats = any(isinstance(v.type, T.FloatType) for v in values)
    t = T.F64 if floats else T.I64
    lo, hi, st = (cx.coerce(v, t, node) for v in values)
    # (a step of 0 raises when the call runs, as in NumPy, even where it is a constant)
    cx.raise_if(cx.cmp("eq", st, Const(0, t), node), "ZeroDivisionError",
                "float division by zero" if floats else "division by zero", node)
    if floats:
        span = cx.emit("div", [cx.emit("sub", [hi, lo], t, None, loc), st], t, None, loc)
        count = cx.emit("math", [span], t, "ceil", loc)
        ok = cx.emit("cmp", [count, Const(0.0, t)], T.BOOL, "gt", loc)   # false for NaN too
        count = cx.emit("select", [ok, count, Const(0.0, t)], t, None, loc)
        n = cx.convert_checked(count, T.I64, node)
    else:
        span = cx.emit("sub", [hi, lo], t, None, loc)
        pos = cx.cmp("gt", st, Const(0, t), node)
        adj = cx.emit("select", [pos, Const(-1, t), Const(1, t)], t, None, loc)
        n = cx.emit("floordiv", [cx.emit("add", [span, cx.emit("add", [st, adj], t, None, loc)], t, None, loc),
                                 st], t, None, loc)
        n = cx.emit("max", [n, Const(0, t)], t, None, loc)
    od = dtype_arg(cx, dtype, t)
    out = alloc_array(cx, od, [n], node)
    if isinstance(od, T.IntType):
        # NumPy stores the first two elements as Python scalars (item assignment: int()
        # of a float, OverflowError for a value the type cannot hold), the rest wrapped
        def check(value):
            arrays.item_value(cx, value, od, node)
        for k, value in enumerate((lo, cx.emit("add", [lo, st], t, None, loc))):
            cx.choose(cx.cmp("gt", n, Const(k, T.I64), node), lambda: check(value), lambda: None, node)
    # As NumPy's `fill` functions: the first two elements are start and start + step in
    # the output type, element i > 1 is first + i * (second - first), computed in the
    # output type (ints in int64, then wrapped). So np.arange(1.0, 4.0, 0.1)[5] is
    # 1.0 + 5 * 0.10000000000000009, not 1.0 + 5 * 0.1.
    first = cast_element(cx, lo, od, node)
    second = cast_element(cx, cx.emit("add", [lo, st], t, None, loc), od, node)
    ct = od if isinstance(od, T.FloatType) else T.I64
    base, delta = cx.coerce(first, ct, node), cx.coerce(second, ct, node)
    delta = cx.emit("sub", [delta, base], ct, None, loc)

    def body(idx):
        i = idx[0]
        v = cx.emit("add", [base, cx.emit("mul", [cx.coerce(i, ct, node), delta], ct, None, loc)],
                    ct, None, loc)
        v = cast_element(cx, v, od, node)
        v = cx.emit("select", [cx.cmp("eq", i, Const(1, T.I64), node), second, v], od, None, loc)
        v = cx.emit("select", [cx.cmp("eq", i, Const(0, T.I64), node), first, v], od, None, loc)
        cx.emit("store", [out, v, i], T.NONE, None, loc)
    loop_nest(cx, node, [n], body)
    return out


def np_linspace(cx, node, name):
    start, stop, num, endpoint, retstep, dtype = np_args(cx, 
        node, name, ("start", "stop", "num", "endpoint", "retstep", "dtype"), 2)
    loc = cx.loc(node)
    with_step = False
    if retstep is not None:
        r = cx.expr(retstep)
        if not isinstance(r, Const):
            cx.error("numpy.linspace(retstep=...) must be a constant in compiled code", retstep)
        with_step = bool(r.value)
    lo = cx.float_arg(cx.expr(start), node)
    hi = cx.float_arg(cx.expr(stop), node)
    t = T.F64
    lo, hi = cx.coerce(lo, t, node), cx.coerce(hi, t, node)
    n = Const(50, T.I64) if num is None else cx.coerce(cx.expr(num), T.I64, num)
    cx.raise_if(cx.cmp("lt", n, Const(0, T.I64), node), "ValueError",
                "Number of samples, %lld, must be non-negative.", node, [n])
    end = True
    if endpoint is not None:
        e = cx.expr(endpoint)
        if not isinstance(e, Const):
            cx.error("numpy.linspace(endpoint=...) must be a constant in compiled code", endpoint)
        end = bool(e.value)
    div = cx.emit("sub", [n, Const(1, T.I64)], T.I64, None, loc) if end else n
    fdiv = cx.coerce(div, t, node)
    delta = cx.emit("sub", [hi, lo], t, None, loc)
    step = cx.emit("div", [delta, fdiv], t, None, loc)
    out = alloc_array(cx, dtype_arg(cx, dtype, t), [n], node)

    # NumPy's arithmetic exactly: i * step, or i / div * delta when the step underflows
    # to 0, or i * delta when there is no step (a single sample).
    positive = cx.cmp("gt", div, Const(0, T.I64), node)
    step_zero = cx.emit("cmp", [step, Const(0.0, t)], T.BOOL, "eq", loc)

    def body(idx):
        i = cx.coerce(idx[0], t, node)
        by_step = cx.emit("mul", [i, step], t, None, loc)
        scaled = cx.emit("mul", [cx.emit("div", [i, fdiv], t, None, loc), delta], t, None, loc)
        v = cx.emit("select", [step_zero, scaled, by_step], t, None, loc)
        v = cx.emit("select", [positive, v, cx.emit("mul", [i, delta], t, None, loc)], t, None, loc)
        v = cx.emit("add", [v, lo], t, None, loc)
        cx.emit("store", [out, cast_element(cx, v, out.type.dtype, node), idx[0]], T.NONE, None, loc)
    loop_nest(cx, node, [n], body)
    if end:
        last = cx.emit("sub", [n, Const(1, T.I64)], T.I64, None, loc)
        has_two = cx.cmp("gt", n, Const(1, T.I64), node)
        when(cx, has_two, lambda: cx.emit(
            "store", [out, cast_element(cx, hi, out.type.dtype, node), last], T.NONE, None, loc), node)
    if with_step:           # (samples, step); the step is NaN where there is none, as NumPy's
        step = cx.emit("select", [positive, step, Const(float("nan"), t)], t, None, loc)
        return cx.make_tuple([out, step], node)
    return out


def when(cx, cond: Value, then, node) -> None:
    """Run `then()` (which emits code) only where `cond` holds."""
    if isinstance(cond, Const):
        if cond.value:
            then()
        return
    body, done = cx.new_block("when"), cx.new_block("when.done")
    cx.branch(cond, body, done, cx.loc(node))
    cx.seal(body)
    cx.start(body)
    then()
    cx.goto(done, cx.loc(node))
    cx.finish_join(done)

# ---- reshaping ------------------------------------------------------------------------


def reshape(cx, arr: Value, shape: list[Value], node) -> Value:
    """`arr.reshape(shape)`: a view of a C-contiguous array; of an array of another layout,
    a view where NumPy makes one (`reshape_strided`), else a C copy. One length may be
    negative (inferred, as NumPy's `_fix_unknown_dimension`), written so or only at run time
    (`a.reshape(s)` of a tuple `s`)."""
    loc = cx.loc(node)
    given = list(shape)
    size = size_of(cx, arr, node)
    one, zero = Const(1, T.I64), Const(0, T.I64)
    # whether each length is the unknown one: known when compiling for constants
    neg = [Const(d.value < 0, T.BOOL) if isinstance(d, Const) else cx.cmp("lt", d, zero, node) for d in shape]
    if sum(1 for n in neg if isinstance(n, Const) and n.value) > 1:
        cx.error("can only specify one unknown dimension", node)
    count: Value = zero
    for n in neg:
        if not (isinstance(n, Const) and not n.value):
            count = cx.emit("add", [count, cx.emit("convert", [n], T.I64, None, loc)], T.I64, None, loc)
    cx.raise_if(cx.cmp("gt", count, one, node), "ValueError", "can only specify one unknown dimension", node)
    some = cx.cmp("gt", count, zero, node)
    known: Value = one
    for d, n in zip(shape, neg):
        known = cx.emit("mul", [known, cx.emit("select", [n, one, d], T.I64, None, loc)], T.I64, None, loc)
    nonzero = cx.cmp("ne", known, zero, node)
    inferred = cx.emit("floordiv", [size, cx.emit("select", [nonzero, known, one], T.I64, None, loc)],
                       T.I64, None, loc)
    shape = [cx.emit("select", [n, inferred, d], T.I64, None, loc) for d, n in zip(shape, neg)]
    total = cx.emit("select", [some, cx.emit("mul", [known, inferred], T.I64, None, loc), known], T.I64, None, loc)
    # NumPy cannot infer a length next to a zero one, even for an empty array
    bad = cx.emit("or", [cx.cmp("ne", total, size, node),
                         cx.emit("and", [some, cx.emit("not", [nonzero], T.BOOL, None, loc)], T.BOOL, None, loc)],
                  T.BOOL, None, loc)
    # NumPy's message names an inferred length "newaxis", and leaves out a leading one
    # (`a.reshape(-1, 2)`: "into shape (2)"): one message for each place it may be.
    for k in [None] + list(range(len(shape))):
        if k is None:
            which = cx.emit("not", [some], T.BOOL, None, loc)
        elif isinstance(neg[k], Const) and not neg[k].value:
            continue
        else:
            which = neg[k]
        parts = ["newaxis" if j == k else "%lld" for j in range(len(shape))]
        if k == 0:
            parts = parts[1:]
        dims_text = ",".join(parts) + ("," if len(shape) == 1 and parts else "")
        named = [d for j, d in enumerate(given) if j != k]
        when = cx.emit("and", [bad, which], T.BOOL, None, loc)
        if 1 + len(named) <= MAX_MESSAGE_ARGS:
            cx.raise_if(when, "ValueError", f"cannot reshape array of size %lld into shape ({dims_text})",
                        node, [size] + named)
        else:
            cx.raise_if(when, "ValueError", "cannot reshape array of size %lld into the given shape", node, [size])
    if arr.type.layout != "C":
        return reshape_strided(cx, arr, given, shape, size, node)
    return cx.emit("reshape", [arr, *shape], T.ArrayType(arr.type.dtype, len(shape), "C"), None, loc)


def reshape_strided(cx, arr: Value, given: list[Value], shape: list[Value], size: Value, node) -> Value:
    """NumPy's reshape (PyArray_Newshape) of `arr`, whose layout is not known to be C, to
    `shape` (checked, -1 resolved; `given` as written), decided at run time: a view with
    `arr`'s strides when the lengths are the same as written; with C strides when `arr` is
    C-contiguous (NumPy's flag: also when empty); with the strides of NumPy's
    `_attempt_nocopy_reshape` when its axes allow (`nocopy_strides`); else a reshape of a C
    copy. Writes through the result reach `arr` exactly where they do in NumPy, and its
    strides are NumPy's."""
    loc = cx.loc(node)
    n = len(shape)
    odims = dims_of(cx, arr, node)
    ostrides = [cx.emit("stride", [arr], T.I64, k, loc) for k in range(arr.type.ndim)]
    fits, strides = nocopy_strides(cx, odims, ostrides, shape, itemsize(arr.type.dtype), node)
    cflag = cx.emit("or", [is_c_contiguous(cx, arr, node), cx.cmp("eq", size, Const(0, T.I64), node)],
                    T.BOOL, None, loc)
    acc: Value = Const(itemsize(arr.type.dtype), T.I64)
    c_strides: list[Value] = [acc] * n
    for k in reversed(range(n)):
        c_strides[k] = acc
        acc = cx.emit("mul", [acc, cx.emit("max", [shape[k], Const(1, T.I64)], T.I64, None, loc)],
                      T.I64, None, loc)
    strides = [cx.emit("select", [cflag, c, s], T.I64, None, loc) for c, s in zip(c_strides, strides)]
    ok = cx.emit("or", [fits, cflag], T.BOOL, None, loc)
    if len(given) == arr.type.ndim and not any(isinstance(d, Const) and d.value == -1 for d in given):
        same: Value = Const(True, T.BOOL)
        for d, o in zip(given, odims):
            same = cx.emit("and", [same, cx.cmp("eq", d, o, node)], T.BOOL, None, loc)
        strides = [cx.emit("select", [same, o, s], T.I64, None, loc) for o, s in zip(ostrides, strides)]
        ok = cx.emit("or", [ok, same], T.BOOL, None, loc)
    t = T.ArrayType(arr.type.dtype, n, "A")
    return cx.choose(ok, lambda: cx.emit("reshape", [arr, *shape, *strides], t, None, loc),
                     lambda: cx.emit("reshape", [copy_array(cx, arr, node), *shape], t.with_layout("C"), None, loc),
                     node)


def nocopy_strides(cx, odims: list[Value], ostrides: list[Value], dims: list[Value], item: int,
                   node) -> tuple[Value, list[Value]]:
    """(fits, strides): whether NumPy's `_attempt_nocopy_reshape` (shape.c, C order) views an
    array of lengths `odims` and byte strides `ostrides` (not empty, not C-contiguous) with
    lengths `dims` (the same size), and the strides it gives. Its loop pairs runs of old and
    new axes of equal product; unrolled here, as the axes' counts are known but not which
    lengths are 1. With P(i) the product of the old lengths after axis i and Q(k) that of the
    new lengths after axis k, runs end at the old axes of length > 1 whose P(i) is some Q(k)
    (a "cut"); so:

    - it fits when every old axis of length > 1 that is not a cut has the stride of the
      next such axis times that axis's length (lengths 1 are skipped, as NumPy removes them);
    - new axis k takes the stride of the cut i with the greatest P(i) <= Q(k) (< Q(k) for a
      length 1 inside a run, which NumPy counts in the run after it), times Q(k) / P(i).

    tests/test_reshape_views.py checks this against NumPy's strides."""
    loc = cx.loc(node)
    one, zero = Const(1, T.I64), Const(0, T.I64)

    def mul(a, b):
        return cx.emit("mul", [a, b], T.I64, None, loc)

    def suffix(lengths):
        out, acc = [one] * len(lengths), one
        for k in reversed(range(len(lengths))):
            out[k] = acc
            acc = mul(acc, lengths[k])
        return out
    big_p, big_q = suffix(odims), suffix(dims)
    fits: Value = Const(True, T.BOOL)
    cut: list[Value] = [Const(False, T.BOOL)] * len(odims)
    has_next: Value = Const(False, T.BOOL)
    next_dim, next_stride = zero, zero
    for i in reversed(range(len(odims))):
        long = cx.cmp("ne", odims[i], one, node)
        at_cut: Value = Const(False, T.BOOL)
        for q in big_q:
            at_cut = cx.emit("or", [at_cut, cx.cmp("eq", big_p[i], q, node)], T.BOOL, None, loc)
        cut[i] = cx.emit("and", [long, at_cut], T.BOOL, None, loc)
        joined = cx.cmp("eq", ostrides[i], mul(next_dim, next_stride), node)
        inside = cx.emit("and", [cx.emit("and", [long, has_next], T.BOOL, None, loc),
                                 cx.emit("not", [at_cut], T.BOOL, None, loc)], T.BOOL, None, loc)
        fits = cx.emit("and", [fits, cx.emit("or", [cx.emit("not", [inside], T.BOOL, None, loc), joined],
                                             T.BOOL, None, loc)], T.BOOL, None, loc)
        has_next = cx.emit("or", [has_next, long], T.BOOL, None, loc)
        next_dim = cx.emit("select", [long, odims[i], next_dim], T.I64, None, loc)
        next_stride = cx.emit("select", [long, ostrides[i], next_stride], T.I64, None, loc)
    strides = []
    for k, q in enumerate(big_q):
        strict = cx.emit("and", [cx.cmp("eq", dims[k], one, node), cx.cmp("ne", q, one, node)], T.BOOL, None, loc)
        stride, per = Const(item, T.I64), one
        for i in reversed(range(len(odims))):
            below = cx.emit("select", [strict, cx.cmp("lt", big_p[i], q, node), cx.cmp("le", big_p[i], q, node)],
                            T.BOOL, None, loc)
            use = cx.emit("and", [cut[i], below], T.BOOL, None, loc)
            stride = cx.emit("select", [use, ostrides[i], stride], T.I64, None, loc)
            per = cx.emit("select", [use, big_p[i], per], T.I64, None, loc)
        per = cx.emit("max", [per, one], T.I64, None, loc)
        strides.append(mul(stride, cx.emit("floordiv", [q, per], T.I64, None, loc)))
    return fits, strides


def contiguous(cx, arr: Value, node) -> Value:
    """`arr` as a C-contiguous array: itself when its strides are C's (checked at run
    time), else a copy. The result has layout "C"."""
    c = arr.type.with_layout("C")
    return cx.choose(is_c_contiguous(cx, arr, node),
                     lambda: cx.emit("reshape", [arr, *dims_of(cx, arr, node)], c, None, cx.loc(node)),
                     lambda: copy_array(cx, arr, node), node)


def is_c_contiguous(cx, arr: Value, node) -> Value:
    """Whether `arr`'s strides are C's at run time (NumPy's C_CONTIGUOUS flag: an axis
    of length 1 may have any stride); the constant true for a C array and for a view that
    is one whatever the strides (`_is_c_view`)."""
    if arr.type.layout == "C" or _is_c_view(arr):
        return Const(True, T.BOOL)
    loc = cx.loc(node)
    ok: Value = Const(True, T.BOOL)
    expect: Value = Const(itemsize(arr.type.dtype), T.I64)
    for k in reversed(range(arr.type.ndim)):
        d = cx.emit("dim", [arr], T.I64, k, loc)
        s = cx.emit("stride", [arr], T.I64, k, loc)
        good = cx.emit("or", [cx.cmp("eq", s, expect, node), cx.cmp("le", d, Const(1, T.I64), node)],
                       T.BOOL, None, loc)
        ok = cx.emit("and", [ok, good], T.BOOL, None, loc)
        expect = cx.emit("mul", [expect, d], T.I64, None, loc)
    return ok


def _is_c_view(arr: Value) -> bool:
    """Whether `arr` is a view of a C array with indices on its first axes, then a slice of
    step 1, then whole axes (``xs[t]``, ``m[2:5]``, ``x[1:-1]``, ``a[i, 1:4, :]``): its
    strides are then C's by the rule of `is_c_contiguous`, since an axis longer than 1 of the
    view is one of the array's, whose stride is C's. Matmul's operand ``xs[t]`` needs no
    copy then, and its copy loop no compiling."""
    if not (isinstance(arr, Instr) and arr.opname == "view" and arr.operands[0].type.layout == "C"):
        return False
    parent, rest = arr.operands[0], list(arr.operands[1:])
    axes = arr.attr
    if "n" in axes or axes.lstrip("i").strip("s") or "s" not in axes:
        return False
    first = axes.index("s")
    for k, kind in enumerate(axes):
        if kind == "i":
            rest.pop(0)
            continue
        start, length, step = rest[:3]
        del rest[:3]
        whole = (isinstance(start, Const) and start.value == 0 and isinstance(length, Instr)
                 and length.opname == "dim" and length.attr == k and length.operands[0] is parent)
        if not (isinstance(step, Const) and step.value == 1 and (k == first or whole)):
            return False
    return True


def size_of(cx, arr: Value, node) -> Value:
    """The number of elements of `arr` (the product of its lengths)."""
    size, *rest = dims_of(cx, arr, node)
    for d in rest:
        size = cx.emit("mul", [size, d], T.I64, None, cx.loc(node))
    return size

# ---- array methods --------------------------------------------------------------------


def array_method(cx, arr: Value, name: str, node: ast.Call) -> Value:
    """``arr.<name>(...)``: the registry's ("array", name) entry."""
    return METHODS.lookup("array", name)(cx, arr, node)


def array_method_other(cx, arr: Value, name: str, node: ast.Call) -> Value:
    from script.lib.numpy import numpy_lib
    fn = numpy_lib.METHODS.get(name)
    if name == "tolist":
        fn = numpy_lib.TOLIST.get(arr.type.ndim)
        if fn is None:
            cx.error(f"a.tolist() of a {arr.type.ndim}-d array is not supported in compiled code "
                     f"(up to {max(numpy_lib.TOLIST)} axes: lists of lists)", node)
    if name in ("std", "var") and axis_given(node, 0):
        return std_var(cx, node, name, first=arr)
    from script.frontend import numpy_along, numpy_shape
    from script.frontend.numpy_lib_call import call_library
    if fn is not None:
        return call_library(cx, node, name, first=arr, fn=fn)
    if name in numpy_shape.METHODS or name in numpy_along.METHODS:
        return call_library(cx, node, name, first=arr)
    if name == "nonzero":
        from script.frontend.numpy_lib_call import call_library
        return call_library(cx, node, name, first=arr)
    if name == "clip":
        return elementwise.np_clip(cx, node, name, first=arr)
    if name in ("transpose", "swapaxes") and arr.type.ndim == 2 and (
            name == "transpose" and not node.args or name == "swapaxes" and len(node.args) == 2):
        return cx.emit("transpose", [arr], arr.type.with_layout("A"), None, cx.loc(node))
    cx.error(f"array method '{name}' is not supported in compiled code", node.func)


def np_library(cx, node, name):
    """``np.<name>(...)`` written in the subset itself (numpy_lib_call)."""
    from script.frontend.numpy_lib_call import call_library
    if name in ("std", "var") and axis_given(node, 1):
        return std_var(cx, node, name)
    if name in ("average", "count_nonzero", "ptp") and axis_given(node, 1) and not axis_is_none(node):
        from script.frontend import axis_stats
        return getattr(axis_stats, name + "_axis")(cx, node)
    return call_library(cx, node, name)


def np_where_any(cx, node, name):
    """``np.where(condition)`` is ``np.nonzero``; with x and y, element-wise
    (elementwise.np_where)."""
    if len(node.args) + len(node.keywords) == 1:
        return np_library(cx, node, "nonzero")
    return elementwise.np_where(cx, node, name)


def axis_is_none(node: ast.Call) -> bool:
    """Whether a call says ``axis=None`` by keyword (the whole-array form)."""
    return any(k.arg == "axis" and isinstance(k.value, ast.Constant) and k.value.value is None
               for k in node.keywords)


def axis_given(node: ast.Call, position: int) -> bool:
    """Whether a call passes ``axis`` (by keyword, or as positional argument `position`)."""
    return len(node.args) > position or any(k.arg == "axis" for k in node.keywords)


def std_var(cx, node, name, first: Value | None = None) -> Value:
    """``np.std``/``np.var`` along an axis: the mean along it, broadcast back through a
    new axis, the squared differences summed along it over ``n - ddof``."""
    if first is None:
        a_node, axis_node, ddof_node = np_args(cx, node, name, ("a", "axis", "ddof"), 1)
        arr = cx.expr(a_node)
    else:
        axis_node, ddof_node = np_args(cx, node, name, ("axis", "ddof"), 0)
        arr = first
    if not isinstance(arr.type, T.ArrayType):
        cx.error(f"numpy.{name}() takes an array", node)
    loc = cx.loc(node)
    axis = numpy_reduce.axis_arg(cx, axis_node, arr.type.ndim, node)
    if axis is None or arr.type.ndim == 1:
        cx.error(f"numpy.{name}(axis=...) needs an axis of an array of 2 or more dimensions here", node)
    mv = numpy_reduce.keep_axis(cx, numpy_reduce.reduce_value(cx, arr, "mean", axis_node, node), axis, node)
    d = elementwise.ufunc_expr(cx, "subtract", [arr, mv], node)
    sq = elementwise.materialize(cx, elementwise.ufunc_expr(cx, "multiply", [d, d], node), node)
    total = numpy_reduce.reduce_value(cx, sq, "sum", axis_node, node)
    ddof = Const(0, T.I64) if ddof_node is None else cx.coerce(cx.expr(ddof_node), T.I64, ddof_node)
    count = cx.emit("sub", [cx.emit("dim", [arr], T.I64, axis, loc), ddof], T.I64, None, loc)
    v = elementwise.ufunc_expr(cx, "true_divide", [total, count], node)
    return elementwise.ufunc_expr(cx, "sqrt", [v], node) if name == "std" else v


def method_copy(cx, arr, node):
    method_args(cx, node, "copy", 0)
    return copy_array(cx, arr, node)


def method_reshape(cx, arr, node):
    if node.keywords:
        cx.error("reshape() takes no keyword arguments here", node)
    if len(node.args) == 1:
        shape = shape_values(cx, node.args[0], node)
    else:
        shape = [cx.coerce(cx.expr(a), T.I64, a) for a in node.args]
    return reshape(cx, arr, shape, node)


def method_ravel(cx, arr, node):
    """NumPy's ravel (PyArray_Ravel, C order): a view of a C-contiguous array, else a copy,
    never a strided view as `reshape(-1)` may be; so always C-contiguous."""
    method_args(cx, node, "ravel", 0)
    src = arr if arr.type.layout == "C" else contiguous(cx, arr, node)
    return reshape(cx, src, [Const(-1, T.I64)], node)


def method_flatten(cx, arr, node):
    method_args(cx, node, "flatten", 0)
    return reshape(cx, copy_array(cx, arr, node), [Const(-1, T.I64)], node)


def method_astype(cx, arr, node):
    if len(node.args) != 1 or node.keywords:
        cx.error("astype() takes one argument (the dtype) here", node)
    return copy_array(cx, arr, node, dtype_arg(cx, node.args[0], arr.type.dtype))


def method_fill(cx, arr, node):
    (v,) = method_args(cx, node, "fill", 1)
    fill(cx, arr, v, node)
    return Const(None, T.NONE)


def method_args(cx, node, name: str, n: int) -> list[Value]:
    if node.keywords or len(node.args) != n:
        cx.error(f"{name}() takes {n} positional argument{'s' if n != 1 else ''} here", node)
    return [cx.expr(a) for a in node.args]


for _name, _handler in (("copy", method_copy), ("reshape", method_reshape),
                       ("ravel", method_ravel), ("flatten", method_flatten),
                       ("astype", method_astype), ("fill", method_fill)):
    METHODS.register(("array", _name), _handler)
METHODS.register(("array", ANY), lambda low, arr, node: array_method_other(low, arr, node.func.attr, node))

for _name, _handler in (
        ("empty", np_empty), ("zeros", np_empty), ("ones", np_empty),
        ("full", np_full), ("empty_like", np_like),
        ("zeros_like", np_like), ("ones_like", np_like),
        ("full_like", np_like), ("copy", np_copy),
        ("arange", np_arange), ("linspace", np_linspace),
        ("where", np_where_any)):
    CALLS.register(numpy_function(_name), _handler)


@lowers(numpy_function("finfo"), numpy_function("iinfo"))
def _limits(lowering, node, name):
    from script.frontend.numpy_limits import lower_limits       # (loaded by the first call)
    return lower_limits(lowering, node, name)


@lowers(numpy_function("pad"))
def _pad(lowering, node, name):
    from script.frontend.numpy_pad import lower_pad             # (loaded by the first call)
    return lower_pad(lowering, node)


@CALLS.family
def _ufunc_method(obj):
    """``np.maximum.accumulate``, ``np.add.at``, ... (a method of a ufunc: made anew at each
    access, so a family rather than keys)."""
    import numpy as np
    if type(getattr(obj, "__self__", None)) is not np.ufunc:
        return None
    method = numpy_reduce.ufunc_method(obj)
    return None if method is None else (numpy_reduce.np_ufunc_method, method)


@CALLS.family
def _library_function(obj):
    """NumPy's functions written in the subset (numpy_lib_call)."""
    from script.frontend.numpy_lib_call import library_name
    name = library_name(obj)
    return None if name is None else (np_library, name)
