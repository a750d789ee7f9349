"""NumPy's reductions in compiled code: `sum`, `prod`, `min`, `max`, `mean`, `argmin`,
`argmax`, `any`, `all` over a whole array or along one axis, and the running `cumsum` and
`cumprod`, as `np.sum(a, axis)` and as methods (`a.sum(axis)`).

Functions over the lowering `cx`. Results follow NumPy:

- dtypes: sum, prod, cumsum and cumprod of bool and of ints narrower than 64 bits give int64
  (uint64 for unsigned ints); mean of bool and ints gives float64; argmin/argmax int64;
  any/all bool; min/max the array's dtype. Integers wrap on overflow, as NumPy's do.
- an axis is an int constant (negative counts from the end); one out of range is a
  CompileError with NumPy's AxisError message. Reducing a 1-d array along its axis gives a
  scalar, as NumPy does.
- min/max of a zero-length reduction raise NumPy's ValueError ("zero-size array to reduction
  operation minimum which has no identity"), argmin/argmax theirs ("attempt to get argmin of
  an empty sequence"); a mean of nothing is NaN (NumPy also warns; compiled code does not).
- NaN: min/max propagate it; argmin/argmax give the index of the first NaN.
- float sums use NumPy's pairwise summation (numpy_kernels.pairwise_sum) along a contiguous
  line: the whole of a C-contiguous or 1-d array, or each line of a reduction along the last
  axis; along another axis they add the slices in order, as NumPy's iteration does. The
  result is then bit-identical to NumPy's in those cases; other layouts (a transposed array,
  a strided 2-d view) sum the same numbers in another order and differ only by rounding.

Loop order: a reduction along the last axis (and every argmin, argmax, any, all) reduces
one line per result element; sum/prod/min/max/mean along an earlier axis instead combine
whole slices into the result (``out[j] += a[i, j]`` with `j` innermost), which walks memory
in order and vectorizes.
"""

from __future__ import annotations

import ast
import functools
import math

from script.frontend import complex_arrays, complex_lowering, elementwise
from script.lib.numpy import numpy_kernels
from script.frontend.array_views import line_view
from script.frontend.registry import CALLS, numpy_function
from script.frontend.unknown import UNKNOWN, Undef, Unknown
from script.ir import types as T
from script.ir.core import Const, Value

_ALIASES = {"amin": "min", "amax": "max"}
_UFUNC = {"min": "minimum", "max": "maximum"}


def sum_type(dtype: T.Type) -> T.Type:
    """The dtype of NumPy's sum, prod, cumsum and cumprod of `dtype` (the platform int for
    bool and narrower ints, its unsigned twin for unsigned ones)."""
    if isinstance(dtype, T.BoolType):
        return T.I64
    if isinstance(dtype, T.IntType):
        return T.I64 if dtype.signed else T.U64
    return dtype


def result_type(kind: str, dtype: T.Type) -> T.Type:
    if kind in ("sum", "prod"):
        return sum_type(dtype)
    if kind == "mean":
        return dtype if isinstance(dtype, (T.FloatType, T.ComplexType)) else T.F64
    if kind in ("argmin", "argmax"):
        return T.I64
    if kind in ("any", "all"):
        return T.BOOL
    return dtype


def np_reduce(cx, node, name):
    a_node, axis_node = cx.np_args(node, name, ("a", "axis"), 1)
    return reduce_value(cx, cx.expr(a_node), _ALIASES.get(name, name), axis_node, node)


def array_like(cx, v: Value, node) -> Value:
    """`v`, or a new array of it where it is a list (of lists) of numbers: NumPy's functions
    take any array_like (`np.dot([1, 2], [3, 4])`, `np.cumsum(xs)`), as np.asarray makes it."""
    t = v.type
    while isinstance(t, T.ListType) and not isinstance(t, (T.ClassType, T.IterType)):
        t = cx.read_type(v) if t is v.type else t.elem
    if t is not v.type and t.is_numeric() and not isinstance(t, T.BoolType):
        return cx.list_to_array(v, None, node)
    return v


def method_reduce(cx, arr, node):
    name = node.func.attr
    (axis_node,) = cx.np_args(node, name, ("axis",), 0)
    return reduce_value(cx, arr, name, axis_node, node)


def reduce_value(cx, arr: Value, kind: str, axis_node, node) -> Value:
    if isinstance(arr.type, Unknown):
        return Undef(UNKNOWN, cx.loc(node))
    if isinstance(arr.type, T.ListType) and cx.read_type(arr).is_numeric():
        arr = cx.list_to_array(arr, None, node)       # np.max([x, y]): as np.asarray
    if not isinstance(arr.type, T.ArrayType):
        cx.error(f"numpy.{kind}() of a {arr.type} is not supported in compiled code "
                 "(it takes an array)", node)
    if isinstance(axis_node, ast.Tuple):
        return reduce_axes(cx, arr, kind, axis_node, node)
    axis = axis_arg(cx, axis_node, arr.type.ndim, node)
    if axis is None or arr.type.ndim == 1:
        return reduce_all(cx, arr, kind, node)
    return reduce_axis(cx, arr, axis, kind, node)


def reduce_axes(cx, arr: Value, kind: str, axes_node: ast.Tuple, node) -> Value:
    """A reduction along a tuple of constant axes (``a.sum(axis=(0, 1))``): the whole
    array when it names every axis, else one axis after another, the last first (a mean
    of the means of equal-length lines is the mean; float results differ from NumPy's
    by rounding only)."""
    ndim = arr.type.ndim
    if kind not in ("sum", "prod", "min", "max", "mean", "any", "all"):
        cx.error(f"numpy.{kind}() takes one axis, not a tuple of axes", axes_node)
    axes = [axis_arg(cx, e, ndim, node) for e in axes_node.elts]
    if any(a is None for a in axes):
        cx.error("an axis in a tuple of axes must be an int constant", axes_node)
    if len(set(axes)) != len(axes):
        cx.error("duplicate value in 'axis'", axes_node)
    if len(axes) == ndim:
        return reduce_all(cx, arr, kind, node)
    for axis in sorted(axes, reverse=True):
        arr = reduce_axis(cx, arr, axis, kind, node) if arr.type.ndim > 1 else reduce_all(cx, arr, kind, node)
    return arr


def axis_arg(cx, axis_node, ndim: int, node) -> int | None:
    """The axis an ``axis=`` argument names, normalized to 0 <= axis < ndim; None for
    the whole array."""
    if axis_node is None:
        return None
    v = cx.expr(axis_node)
    if isinstance(v, Const) and v.value is None:
        return None
    if not (isinstance(v, Const) and isinstance(v.type, T.IntType)):
        cx.error("axis must be an int constant in compiled code (tuples of axes are not "
                 "supported)", axis_node)
    if not -ndim <= v.value < ndim:
        cx.error(f"axis {v.value} is out of bounds for array of dimension {ndim}", axis_node)
    return v.value % ndim

# ---- whole arrays ---------------------------------------------------------------------


def reduce_all(cx, arr: Value, kind: str, node) -> Value:
    """The reduction of every element of `arr` (a scalar)."""
    t: T.ArrayType = arr.type
    check_nonempty(cx, cx.size_of(arr, node), kind, node)
    if t.ndim == 1:
        return reduce_line(cx, arr, 0, [], kind, node)
    dims = cx.dims_of(arr, node)
    rt = result_type(kind, t.dtype)
    if kind in ("sum", "mean") and isinstance(rt, (T.FloatType, T.ComplexType)):
        total = float_sum_all(cx, arr, rt, node)
        return mean_of(cx, total, cx.size_of(arr, node), node) if kind == "mean" else total
    load = lambda idx: cx.emit("load", [arr, *idx], t.dtype, None, cx.loc(node))  # noqa: E731
    if kind in ("argmin", "argmax"):
        best, where, _ = fold(cx, node, dims, arg_init(cx, arr, [Const(0, T.I64)] * t.ndim, node) + [
            Const(0, T.I64)], lambda acc, idx: arg_step(cx, kind, acc[:2], load(idx), acc[2], node) + [
            cx.emit("add", [acc[2], Const(1, T.I64)], T.I64, None, cx.loc(node))])
        return where
    init = reduce_init(cx, arr, kind, rt, [Const(0, T.I64)] * t.ndim, node)
    step = reduce_step(cx, kind, rt, node, vector=t.layout == "C")
    (total,) = fold(cx, node, dims, [init], lambda acc, idx: [step(acc[0], load(idx))])
    if kind in ("min", "max") and isinstance(rt, T.FloatType):     # a NaN: NumPy's (rare: again)
        return cx.choose(cx.emit("cmp", [total, total], T.BOOL, "ne", cx.loc(node)),
                         lambda: float_minmax_all(cx, arr, kind, node), lambda: total, node)
    return mean_of(cx, total, cx.size_of(arr, node), node) if kind == "mean" else total


def float_minmax_all(cx, arr: Value, kind: str, node) -> Value:
    """The float min/max of an n-d array: NumPy reduces a C-contiguous one as one line
    (float_minmax_line: the NaN it gives depends on where); another layout element by
    element in index order, the first NaN kept as it is (NumPy goes line by line there,
    and its NaN may be the positive one: docs/arrays.md)."""
    loc = cx.loc(node)
    t: T.ArrayType = arr.type

    def flat():
        line = cx.emit("reshape", [arr, cx.size_of(arr, node)], T.ArrayType(t.dtype, 1, "C"), None, loc)
        return reduce_line(cx, line, 0, [], kind, node)

    def each():
        load = lambda idx: cx.emit("load", [arr, *idx], t.dtype, None, loc)  # noqa: E731
        step = reduce_step(cx, kind, t.dtype, node, first_nan=True)
        init = reduce_init(cx, arr, kind, t.dtype, [Const(0, T.I64)] * t.ndim, node)
        (total,) = fold(cx, node, cx.dims_of(arr, node), [init], lambda acc, idx: [step(acc[0], load(idx))])
        return total

    if t.layout == "C":
        return flat()
    return cx.choose(cx.is_c_contiguous(arr, node), flat, each, node)


def float_sum_all(cx, arr: Value, rt: T.Type, node) -> Value:
    """The float sum of an n-d array, as NumPy adds it: pairwise over all of its memory
    when it is C-contiguous, else pairwise per line along the last axis, the lines added
    in order."""
    loc = cx.loc(node)

    def flat():
        line = cx.emit("reshape", [arr, cx.size_of(arr, node)], T.ArrayType(arr.type.dtype, 1, "C"),
                       None, loc)
        return reduce_line(cx, line, 0, [], "sum", node, rt)

    def by_lines():
        dims = cx.dims_of(arr, node)
        (total,) = fold(cx, node, dims[:-1], [Const(0.0, rt)], lambda acc, idx: [cx.emit(
            "add", [acc[0], reduce_line(cx, arr, arr.type.ndim - 1, idx, "sum", node, rt)], rt, None, loc)])
        return total

    if arr.type.layout == "C":
        return flat()
    return cx.choose(cx.is_c_contiguous(arr, node), flat, by_lines, node)

# ---- along an axis --------------------------------------------------------------------


def reduce_axis(cx, arr: Value, axis: int, kind: str, node) -> Value:
    """The reduction of `arr` (ndim >= 2) along `axis`: a new array of the other axes."""
    t: T.ArrayType = arr.type
    loc = cx.loc(node)
    dims = cx.dims_of(arr, node)
    n = dims[axis]
    out_dims = dims[:axis] + dims[axis + 1:]
    rt = result_type(kind, t.dtype)
    check_nonempty(cx, n, kind, node)
    out = cx.alloc_array(rt, out_dims, node)
    store = lambda v, idx: cx.emit("store", [out, v, *idx], T.NONE, None, loc)  # noqa: E731
    if axis == t.ndim - 1 or kind in ("argmin", "argmax", "any", "all"):
        cx.loop_nest(node, out_dims, lambda idx: store(reduce_line(cx, arr, axis, idx, kind, node), idx))
        return out
    # Whole slices at a time: out[j] = step(out[j], a[..., i, ...]) for i in order.
    at = lambda idx, i: [*idx[:axis], i, *idx[axis:]]  # noqa: E731
    load = lambda a, idx: cx.emit("load", [a, *idx], a.type.dtype, None, loc)  # noqa: E731
    step = reduce_step(cx, kind, rt, node)
    first = 1 if kind in ("min", "max") else 0
    cx.loop_nest(node, out_dims, lambda idx: store(reduce_init(cx, arr, kind, rt, at(idx, Const(0, T.I64)),
                                                                            node), idx))
    cx.counted_loop(cx.info.synthetic_loop(node), Const(first, T.I64), n, Const(1, T.I64),
                    lambda i: cx.loop_nest(node, out_dims, lambda idx: store(
                          step(load(out, idx), load(arr, at(idx, i))), idx)))
    if kind == "mean":
        cx.loop_nest(node, out_dims, lambda idx: store(mean_of(cx, load(out, idx), n, node), idx))
    return out


def reduce_line(cx, arr: Value, axis: int, idx: list[Value], kind: str, node,
                rt: T.Type | None = None) -> Value:
    """The reduction of the line of `arr` along `axis` at the other axes' indices `idx`
    (a scalar of the result type, or `rt`). The caller has checked that min, max,
    argmin and argmax have an element to start from."""
    t: T.ArrayType = arr.type
    loc = cx.loc(node)
    rt = rt or result_type(kind, t.dtype)
    n = cx.emit("dim", [arr], T.I64, axis, loc)
    if kind in ("sum", "mean") and isinstance(rt, T.ComplexType) and rt == t.dtype:
        line = arr if t.ndim == 1 else line_view(cx, arr, axis, idx, node)
        parts = call_kernel(cx, numpy_kernels.pairwise_sum_complex,
                            [line, Const(0, T.I64), n, Const(-0.0, rt.part)], node)
        s = complex_lowering.make_complex(cx, *(cx.emit("extract", [parts], rt.part, k, loc) for k in (0, 1)), node)
        s = cx.emit("add", [Const(0j, rt), s], rt, None, loc)     # as for floats
        return mean_of(cx, s, n, node) if kind == "mean" else s
    if kind in ("sum", "mean") and isinstance(rt, T.FloatType):
        line = arr if t.ndim == 1 else line_view(cx, arr, axis, idx, node)
        s = call_kernel(cx, numpy_kernels.pairwise_sum, [line, Const(0, T.I64), n, Const(-0.0, rt)], node)
        s = cx.emit("add", [Const(0.0, rt), s], rt, None, loc)     # NumPy's sum of -0.0s is 0.0
        return mean_of(cx, s, n, node) if kind == "mean" else s
    at = lambda i: [*idx[:axis], i, *idx[axis:]]  # noqa: E731
    load = lambda i: cx.emit("load", [arr, *at(i)], t.dtype, None, loc)  # noqa: E731
    if kind in ("argmin", "argmax"):
        _, where = fold(cx, node, [n], arg_init(cx, arr, at(Const(0, T.I64)), node),
                        lambda acc, i: arg_step(cx, kind, acc, load(i[0]), i[0], node))
        return where
    step = reduce_step(cx, kind, rt, node, vector=t.layout == "C" and axis == t.ndim - 1)
    init = reduce_init(cx, arr, kind, rt, at(Const(0, T.I64)), node)
    (total,) = fold(cx, node, [n], [init], lambda acc, i: [step(acc[0], load(i[0]))])
    if kind in ("min", "max") and isinstance(rt, T.FloatType):     # a NaN: NumPy's (rare: again)
        exact = reduce_step(cx, kind, rt, node, first_nan=True)
        return cx.choose(cx.emit("cmp", [total, total], T.BOOL, "ne", loc), lambda: float_minmax_line(
            cx, arr, axis, n, init, lambda acc, i: exact(acc, load(i)), node), lambda: total, node)
    return mean_of(cx, total, n, node) if kind == "mean" else total


def float_minmax_line(cx, arr: Value, axis: int, n: Value, first: Value, step, node) -> Value:
    """The float min/max of a line of `n` >= 1 elements starting with `first`, with NumPy's
    NaN: its contiguous reduction (`simd_reduce_c_max_f64`, one per line) starts from the
    first element, runs the next ones through whole vectors, whose NaN comes out as the
    positive quiet NaN, and the rest one at a time, which keep the first NaN's own bits
    (as a strided line does all along). The sign is seen by `math.copysign`, so the result
    is the same NaN only if the line is split where NumPy splits it (numpy_vector_bytes)."""
    loc = cx.loc(node)
    one = Const(1, T.I64)
    lanes = Const(max(numpy_vector_bytes() // (arr.type.dtype.bits // 8), 1), T.I64)
    rest = cx.emit("sub", [n, one], T.I64, None, loc)
    head_end = cx.emit("sub", [rest, cx.emit("mod", [rest, lanes], T.I64, None, loc)], T.I64, None, loc)
    head = fold_range(cx, node, one, cx.emit("add", [head_end, one], T.I64, None, loc), first, step)
    stride = cx.emit("stride", [arr], T.I64, axis, loc)
    contiguous = cx.cmp("eq", stride, Const((arr.type.dtype.bits // 8), T.I64), node)
    vectors = cx.emit("and", [contiguous, cx.cmp("ge", n, Const(2, T.I64), node)], T.BOOL, None, loc)
    nan = cx.emit("cmp", [head, head], T.BOOL, "ne", loc)
    positive = cx.emit("and", [vectors, nan], T.BOOL, None, loc)
    head = cx.emit("select", [positive, Const(math.nan, head.type), head], head.type, None, loc)
    return fold_range(cx, node, cx.emit("add", [head_end, one], T.I64, None, loc), n, head, step)


def fold_range(cx, node, start: Value, stop: Value, init: Value, step) -> Value:
    """`acc = step(acc, i)` for i in range(start, stop), from `init`."""
    name = cx.new_var("fold", init)
    cx.counted_loop(cx.info.synthetic_loop(node), start, stop, Const(1, T.I64),
                    lambda i: cx.write(name, step(cx.read(name, cx.loc(node)), i)))
    return cx.read(name, cx.loc(node))


@functools.cache
def numpy_vector_bytes() -> int:
    """The width of the vectors NumPy's min/max loops use on this machine (its runtime CPU
    dispatch: AVX-512 (SKX), AVX2, else the 16-byte baseline of SSE2 and NEON). Compiled
    code reads it when it is compiled, for the machine that compiles it."""
    try:
        from numpy._core._multiarray_umath import __cpu_features__ as features
    except ImportError:                                  # NumPy 1.x
        from numpy.core._multiarray_umath import __cpu_features__ as features
    if features.get("AVX512_SKX"):
        return 64
    return 32 if features.get("AVX2") else 16


# ---- the operations -------------------------------------------------------------------


def reduce_init(cx, arr: Value, kind: str, rt: T.Type, first_idx: list[Value], node) -> Value:
    """Where a reduction starts: its identity, or the first element (min, max; the
    caller has checked there is one)."""
    if kind in ("min", "max"):
        return cx.emit("load", [arr, *first_idx], arr.type.dtype, None, cx.loc(node))
    value = {"sum": 0, "mean": 0, "prod": 1, "any": False, "all": True}[kind]
    return Const(float(value) if isinstance(rt, T.FloatType) else value, rt)


def reduce_step(cx, kind: str, rt: T.Type, node, first_nan: bool = False, vector: bool = False):
    """`step(acc, x) -> acc` of a reduction with accumulator type `rt` (a float min/max
    keeping the first NaN with its own bits where `first_nan`, else one of them; where
    `vector`, for a contiguous line, IEEE maximum/minimum, which LLVM vectorizes: a NaN,
    which the caller then computes as NumPy's (`float_minmax_line`), or 0.0 over -0.0 for
    max, -0.0 for min; a strided line keeps the selects, faster there than their expansion)."""
    loc = cx.loc(node)
    if kind in ("any", "all"):
        op = "or" if kind == "any" else "and"
        return lambda acc, x: cx.emit(op, [acc, cx.truth(x, node)], T.BOOL, None, loc)
    if kind in ("sum", "mean", "prod"):
        op = "mul" if kind == "prod" else "add"
        return lambda acc, x: cx.emit(op, [acc, cx.coerce(x, rt, node)], rt, None, loc)
    if isinstance(rt, T.BoolType):
        op = "and" if kind == "min" else "or"
        return lambda acc, x: cx.emit(op, [acc, x], rt, None, loc)
    if isinstance(rt, T.ComplexType):
        cx.error(f"numpy {kind} of complex numbers (NumPy's lexicographic order) is not "
                 "supported in compiled code", node)

    if vector and isinstance(rt, T.FloatType):
        return lambda acc, x: cx.emit("math", [acc, x], rt, "f" + kind + "imum", loc)

    def minmax(acc, x):
        r = cx.emit(kind, [acc, x], rt, None, loc)
        if isinstance(rt, T.FloatType):        # a NaN wins, and stays
            r = cx.emit("select", [cx.emit("cmp", [x, x], T.BOOL, "ne", loc), x, r], rt, None, loc)
            if first_nan:                      # ... the first one, with its own bits
                r = cx.emit("select", [cx.emit("cmp", [acc, acc], T.BOOL, "ne", loc), acc, r], rt, None, loc)
        return r
    return minmax


def arg_init(cx, arr: Value, first_idx: list[Value], node) -> list[Value]:
    return [cx.emit("load", [arr, *first_idx], arr.type.dtype, None, cx.loc(node)), Const(0, T.I64)]


def arg_step(cx, kind: str, acc: list[Value], x: Value, i: Value, node) -> list[Value]:
    """(best, index) after seeing element `x` at index `i`: the first extreme wins; with
    floats the first NaN wins over everything."""
    loc = cx.loc(node)
    best, where = acc
    if isinstance(x.type, T.ComplexType):
        cx.error(f"numpy {kind} of complex numbers (NumPy's lexicographic order) is not "
                 "supported in compiled code", node)
    if isinstance(x.type, T.BoolType):
        x, best = cx.coerce(x, T.U8, node), cx.coerce(best, T.U8, node)
    take = cx.emit("cmp", [x, best], T.BOOL, "lt" if kind == "argmin" else "gt", loc)
    if isinstance(x.type, T.FloatType):
        x_nan = cx.emit("cmp", [x, x], T.BOOL, "ne", loc)
        best_num = cx.emit("cmp", [best, best], T.BOOL, "eq", loc)
        take = cx.emit("or", [take, cx.emit("and", [x_nan, best_num], T.BOOL, None, loc)], T.BOOL, None, loc)
    best = cx.emit("select", [take, x, best], x.type, None, loc)
    if isinstance(acc[0].type, T.BoolType):
        best = cx.coerce(best, T.BOOL, node)
    return [best, cx.emit("select", [take, i, where], T.I64, None, loc)]


def check_nonempty(cx, n: Value, kind: str, node) -> None:
    """NumPy's ValueError for min/max/argmin/argmax of nothing (`n` elements)."""
    if kind in ("min", "max"):
        text = f"zero-size array to reduction operation {_UFUNC[kind]} which has no identity"
    elif kind in ("argmin", "argmax"):
        text = f"attempt to get {kind} of an empty sequence"
    else:
        return
    cx.raise_if(cx.cmp("eq", n, Const(0, T.I64), node), "ValueError", text, node)


def mean_of(cx, total: Value, n: Value, node) -> Value:
    """total / n in the float type of `total`: NaN for 0 / 0, as NumPy gives."""
    if isinstance(total.type, T.ComplexType):
        return complex_arrays.np_complex_div(cx, total, cx.coerce(n, total.type, node), node)
    return cx.emit("div", [total, cx.coerce(n, total.type, node)], total.type, None, cx.loc(node))

# ---- cumsum, cumprod ------------------------------------------------------------------


def np_cumulative(cx, node, name, kind: str | None = None):
    """``np.cumsum(a, axis)``, ``np.cumprod``; `kind` the running reduction `cumulative`
    computes where it is not `name`'s (np_ufunc_method)."""
    a_node, axis_node = cx.np_args(node, name, ("a", "axis"), 1)
    arr = array_like(cx, cx.expr(a_node), a_node)
    if isinstance(arr.type, Unknown):
        return Undef(UNKNOWN, cx.loc(node))
    if not isinstance(arr.type, T.ArrayType):
        cx.error(f"numpy.{name}() of a {arr.type} is not supported in compiled code "
                 "(it takes an array)", node)
    return cumulative(cx, arr, kind or name, axis_arg(cx, axis_node, arr.type.ndim, node), node)


def method_cumulative(cx, arr, node):
    name = node.func.attr
    (axis_node,) = cx.np_args(node, name, ("axis",), 0)
    return cumulative(cx, arr, name, axis_arg(cx, axis_node, arr.type.ndim, node), node)


def np_ufunc_method(cx, node, name):
    """``np.<ufunc>.reduce(a, axis=0)`` and ``np.<ufunc>.accumulate(a, axis=0)`` of add,
    multiply, maximum, minimum (and logical_and/or's reduce): the reductions and running
    reductions above, along axis 0 unless told (``axis=None``: the flattened array);
    ``.at`` and ``.outer`` (ufunc_at, ufunc_outer)."""
    ufunc, method = name.split(".")
    if method == "at":
        return ufunc_at(cx, node, ufunc)
    if method == "outer":
        return ufunc_outer(cx, node, ufunc)
    a_node, axis_node = cx.np_args(node, name, ("array", "axis"), 1)
    if axis_node is None:
        axis_node = ast.copy_location(ast.Constant(0), node)
    call = ast.copy_location(ast.Call(func=node.func, args=[a_node, axis_node], keywords=[]), node)
    if method == "reduce":
        kind = _REDUCE_OF[ufunc]
        return CALLS.handler_of(numpy_function(kind))(cx, call, kind)     # reduce_keywords.py
    return np_cumulative(cx, call, name, _ACCUMULATE_OF[ufunc])


def ufunc_outer(cx, node, ufunc: str):
    """``np.<ufunc>.outer(a, b)`` of a binary ufunc: ``ufunc(a[..., None, ...], b)``, the
    result's shape `a`'s then `b`'s (neither flattened: np.outer flattens, this does not);
    lists are made arrays first, two scalars give the ufunc of them."""
    if len(node.args) != 2 or node.keywords:
        cx.error(f"numpy.{ufunc}.outer() takes two positional arguments here: (A, B)", node)
    a, b = (cx.expr(arg) for arg in node.args)
    if isinstance(a.type, T.ListType):
        a = cx.list_to_array(a, None, node.args[0])
    if isinstance(b.type, T.ListType):
        b = cx.list_to_array(b, None, node.args[1])
    if isinstance(a.type, T.ArrayType) and isinstance(b.type, T.ArrayType) and b.type.ndim:
        a = cx.reshape(a, cx.dims_of(a, node) + [Const(1, T.I64)] * b.type.ndim, node)
    e = elementwise.ufunc_expr(cx, ufunc, [a, b], node)
    return as_value(cx, e, node) if e.ndim else elementwise.element(cx, e, [], 0, node)


def ufunc_at(cx, node, ufunc: str):
    """``np.<ufunc>.at(a, indices, b)`` at the user's call: `a` an array, `indices` an int or
    a 1-d int array (a list of ints made one), and NumPy's 'same_kind' rule for the result cast
    back into `a` (a CompileError with NumPy's UFuncTypeError text)."""
    import numpy as np

    from script.frontend import numpy_along
    from script.frontend.numpy_lib_call import call_library
    from script.frontend.typeinfer import numpy_name
    if len(node.args) != 3 or node.keywords:
        cx.error(f"numpy.{ufunc}.at() takes three positional arguments here: (a, indices, b)", node)
    a, idx, b = (cx.expr(arg) for arg in node.args)
    if isinstance(idx.type, T.ListType):
        idx = cx.list_to_array(idx, None, node.args[1])
    for v, arg in ((a, node.args[0]), (b, node.args[2])):
        cx.pre_evaluated[id(arg)] = v
    if not isinstance(a.type, T.ArrayType):
        cx.error(f"numpy.{ufunc}.at() takes an array to modify, not {a.type}", node.args[0])
    cx.pre_evaluated[id(node.args[1])] = idx
    if isinstance(idx.type, T.ArrayType):
        if idx.type.ndim != 1 or not isinstance(idx.type.dtype, T.IntType):
            cx.error(f"numpy.{ufunc}.at() takes a 1-d array of int indices here", node.args[1])
    elif not isinstance(idx.type, T.IntType):
        cx.error(f"numpy.{ufunc}.at() takes an int or a 1-d array of int indices here, not {idx.type}",
                  node.args[1])
    e = elementwise.ufunc_expr(cx, ufunc, [a, b], node, False)
    if not np.can_cast(numpy_name(e.dtype), numpy_name(a.type.dtype), "same_kind"):
        cx.error(f"Cannot cast ufunc '{ufunc}' output from dtype('{numpy_name(e.dtype)}') to "
                  f"dtype('{numpy_name(a.type.dtype)}') with casting rule 'same_kind'", node)
    return call_library(cx, node, f"{ufunc}_at", fn=getattr(numpy_along, f"{ufunc}_at"))


def cumulative(cx, arr: Value, name: str, axis: int | None, node) -> Value:
    """`np.cumsum`/`np.cumprod` (and `maximum`/`minimum`: their accumulate, NaNs carried
    on as np.maximum does): the running sums (products, maxima) in order, of the
    flattened array (C order) when `axis` is None, else along `axis` (same shape as
    `arr`)."""
    t: T.ArrayType = arr.type
    loc = cx.loc(node)
    rt = sum_type(t.dtype) if name in ("cumsum", "cumprod") else t.dtype
    op = {"cumsum": "add", "cumprod": "mul", "maximum": "max", "minimum": "min"}[name]
    dims = cx.dims_of(arr, node)
    n_line = cx.size_of(arr, node) if axis is None else dims[axis]

    def combine(x, y):
        if op == "mul" and isinstance(rt, T.ComplexType):
            # NumPy's accumulate calls its multiply loop once for the line; a line of two
            # takes its SIMD path (with FMA where it has it: np_complex_mul), a longer one,
            # whose operands overlap, the plain scalar loop
            two = cx.cmp("eq", n_line, Const(2, T.I64), node)
            return cx.emit("select", [two, complex_arrays.np_complex_mul(cx, x, y, node),
                                      cx.emit("mul", [x, y], rt, None, loc)], rt, None, loc)
        if op in ("max", "min"):
            return cx.ufunc_special("maximum" if op == "max" else "minimum", [x, y], node)
        return cx.emit(op, [x, y], rt, None, loc)
    load = lambda a, idx: cx.emit("load", [a, *idx], a.type.dtype, None, loc)  # noqa: E731
    if axis is None:
        out = cx.alloc_array(rt, [cx.size_of(arr, node)], node)

        def running(acc, idx):
            x = cx.coerce(load(arr, idx), rt, node)
            first = cx.cmp("eq", acc[1], Const(0, T.I64), node)
            v = cx.emit("select", [first, x, combine(acc[0], x)], rt, None, loc)
            cx.emit("store", [out, v, acc[1]], T.NONE, None, loc)
            return [v, cx.emit("add", [acc[1], Const(1, T.I64)], T.I64, None, loc)]
        fold(cx, node, dims, [Const(0, rt), Const(0, T.I64)], running)
        return out
    out = cx.alloc_array(rt, dims, node)

    def body(idx):
        # out[.., i, ..] = a[.., i, ..] (+ out[.., i - 1, ..] unless i == 0): in C order, so
        # the previous element along the axis is always written first.
        x = cx.coerce(load(arr, idx), rt, node)
        i = idx[axis]
        first = cx.cmp("eq", i, Const(0, T.I64), node)
        prev_i = cx.emit("max", [cx.emit("sub", [i, Const(1, T.I64)], T.I64, None, loc), Const(0, T.I64)],
                         T.I64, None, loc)
        prev = load(out, [*idx[:axis], prev_i, *idx[axis + 1:]])
        v = cx.emit("select", [first, x, combine(prev, x)], rt, None, loc)
        cx.emit("store", [out, v, *idx], T.NONE, None, loc)
    cx.loop_nest(node, dims, body)
    return out

# ---- NaN-ignoring reductions (np.nansum, ...) -----------------------------------------


def np_nan_reduce(cx, node, name):
    """``np.nan<kind>(a, axis)``: NumPy's definitions (numpy/lib/_nanfunctions_impl.py)
    on the reductions above: NaN replaced by the identity (sum, prod, mean) or by the
    infinity that never wins (max, min, argmax, argmin); an all-NaN line gives NaN
    (max, min; NumPy also warns) or ValueError (argmax, argmin); mean, var and std count
    only the numbers. Int and bool arrays have no NaN: the plain reduction."""
    kind = name[3:]
    params = ("a", "axis", "ddof") if kind in ("std", "var") else ("a", "axis")
    a_node, axis_node, *ddof = cx.np_args(node, name, params, 1)
    arr = array_like(cx, cx.expr(a_node), a_node)
    if isinstance(arr.type, Unknown):
        return Undef(UNKNOWN, cx.loc(node))
    if not isinstance(arr.type, T.ArrayType):
        cx.error(f"numpy.{name}() of a {arr.type} is not supported in compiled code (it takes an array)", node)
    axis = axis_arg(cx, axis_node, arr.type.ndim, node)
    n = cx.size_of(arr, node) if axis is None else cx.emit("dim", [arr], T.I64, axis, cx.loc(node))
    if kind in ("max", "min"):
        cx.raise_if(cx.cmp("eq", n, Const(0, T.I64), node), "ValueError",
                    f"zero-size array to reduction operation f{kind} which has no identity", node)
    dtype = arr.type.dtype
    if not isinstance(dtype, T.FloatType):
        if kind in ("std", "var"):
            cx.pre_evaluated[id(a_node)] = arr
            return cx.np_library(node, kind)
        return reduce_value(cx, arr, kind, axis_node, node)
    nan = elementwise.materialize(cx, elementwise.ufunc_expr(cx, "isnan", [arr], node), node)

    def replaced(value: float) -> Value:
        return elementwise.materialize(cx, elementwise.where_expr(cx, nan, Const(value, dtype), arr, node), node)

    if kind in ("sum", "prod"):
        return reduce_value(cx, replaced(0.0 if kind == "sum" else 1.0), kind, axis_node, node)
    if kind in ("max", "min"):
        best = reduce_value(cx, replaced(-math.inf if kind == "max" else math.inf), kind, axis_node, node)
        return where_value(cx, reduce_value(cx, nan, "all", axis_node, node), Const(math.nan, dtype), best, node)
    if kind in ("argmax", "argmin"):
        all_nan = reduce_value(cx, nan, "all", axis_node, node)
        if isinstance(all_nan.type, T.ArrayType):
            all_nan = reduce_all(cx, all_nan, "any", node)
        has_any = cx.cmp("gt", cx.size_of(arr, node), Const(0, T.I64), node)
        cx.raise_if(cx.emit("and", [has_any, all_nan], T.BOOL, None, cx.loc(node)), "ValueError",
                    "All-NaN slice encountered", node)
        return reduce_value(cx, replaced(-math.inf if kind == "argmax" else math.inf), kind, axis_node, node)
    zeroed = replaced(0.0)
    present = elementwise.materialize(cx, elementwise.ufunc_expr(cx, "logical_not", [nan], node), node)
    count = reduce_value(cx, present, "sum", axis_node, node)
    mean = divide_in(cx, reduce_value(cx, zeroed, "sum", axis_node, node), count, dtype, node)
    if kind == "mean":
        return mean
    if axis is not None and arr.type.ndim > 1:
        mean = keep_axis(cx, mean, axis, node)
    deviation = elementwise.ufunc_expr(cx, "subtract", [zeroed, mean], node)
    d = elementwise.where_expr(cx, nan, Const(0.0, dtype), deviation, node)
    sq = elementwise.materialize(cx, elementwise.ufunc_expr(cx, "multiply", [d, d], node), node)
    ddof_v = Const(0, T.I64) if not ddof or ddof[0] is None else cx.coerce(cx.expr(ddof[0]), T.I64, ddof[0])
    dof = as_value(cx, elementwise.ufunc_expr(cx, "subtract", [count, ddof_v], node), node)
    var = divide_in(cx, reduce_value(cx, sq, "sum", axis_node, node), dof, dtype, node)
    bad = as_value(cx, elementwise.ufunc_expr(cx, "less_equal", [dof, Const(0, T.I64)], node), node) \
        if isinstance(dof.type, T.ArrayType) else cx.cmp("le", dof, Const(0, T.I64), node)
    var = where_value(cx, bad, Const(math.nan, dtype), var, node)
    return as_value(cx, elementwise.ufunc_expr(cx, "sqrt", [var], node), node) if kind == "std" else var


def divide_in(cx, total: Value, count: Value, dtype: T.Type, node) -> Value:
    """total / count (a scalar or an array each) in `dtype`, as NumPy's _divide_by_count:
    the quotient of float64 values, cast back to float32 for float32."""
    return as_value(cx, elementwise.ufunc_expr(cx, "true_divide", [total, count], node), node, dtype)


def where_value(cx, cond: Value, x: Value, y: Value, node) -> Value:
    """``np.where(cond, x, y)`` of scalars or arrays, computed."""
    return as_value(cx, elementwise.where_expr(cx, cond, x, y, node), node)


def as_value(cx, e, node, dtype: T.Type | None = None) -> Value:
    """The value of element-wise expression `e` (a new array, or a scalar for a 0-d one),
    cast to `dtype` when given."""
    if e.ndim:
        v = elementwise.materialize(cx, e, node)
        return v if dtype is None or v.type.dtype == dtype else cx.copy_array(v, node, dtype)
    v = elementwise.element(cx, e, [], 0, node)
    return v if dtype is None else cx.cast_element(v, dtype, node)


def keep_axis(cx, m: Value, axis: int, node) -> Value:
    """A view of `m` (a reduction along `axis`) with that axis back, of length 1: the
    shape NumPy's keepdims gives, broadcasting against the reduced array."""
    loc = cx.loc(node)
    operands, axes = [m], ""
    for k in range(m.type.ndim + 1):
        if k == axis:
            axes += "n"
        else:
            operands += [Const(0, T.I64), cx.emit("dim", [m], T.I64, len(axes) - axes.count("n"), loc),
                         Const(1, T.I64)]
            axes += "s"
    return cx.emit("view", operands, T.ArrayType(m.type.dtype, m.type.ndim + 1, "A"), axes, loc)

# ---- building blocks ------------------------------------------------------------------


def fold(cx, node, dims: list[Value], init: list[Value], step) -> list[Value]:
    """Accumulators `init` after `acc = step(acc, idx)` for every index tuple of lengths
    `dims` in C order; `step` keeps each accumulator's type."""
    names = [cx.new_var("fold", v) for v in init]

    def body(idx):
        acc = [cx.read(name, cx.loc(node)) for name in names]
        for name, v in zip(names, step(acc, idx)):
            cx.write(name, v)
    cx.loop_nest(node, dims, body)
    return [cx.read(name, cx.loc(node)) for name in names]


def call_kernel(cx, fn, args: list[Value], node) -> Value:
    """A call of `fn` from numpy_kernels, specialized for the types of `args` and built
    without bounds checks (its indices are in range by construction)."""
    callee = cx.ctx.specialize(cx.ctx.info_for(fn), tuple(a.type for a in args), False)
    return cx.emit("call", args, callee.ret_type, callee, cx.loc(node))


_REDUCE_OF = {"add": "sum", "multiply": "prod", "maximum": "max", "minimum": "min",
              "logical_and": "all", "logical_or": "any"}
_ACCUMULATE_OF = {"add": "cumsum", "multiply": "cumprod", "maximum": "maximum", "minimum": "minimum"}
_AT = ("add", "subtract", "multiply", "maximum", "minimum")      # np.<ufunc>.at (numpy_along)


def ufunc_method(obj) -> str | None:
    """``"maximum.accumulate"`` (``"add.at"``) when `obj` is such a method of a NumPy ufunc (np_ufunc_method),
    else None."""
    ufunc = getattr(obj, "__self__", None)
    if type(ufunc).__name__ != "ufunc" or getattr(ufunc, "__name__", None) is None:
        return None
    if getattr(obj, "__name__", None) == "outer":
        return f"{ufunc.__name__}.outer" if ufunc.nin == 2 and ufunc.nout == 1 else None
    table = {"reduce": _REDUCE_OF, "accumulate": _ACCUMULATE_OF, "at": _AT}.get(getattr(obj, "__name__", None))
    return None if table is None or ufunc.__name__ not in table else f"{ufunc.__name__}.{obj.__name__}"
# (np.sum, a.sum() and the other reductions with keepdims= and dtype= are reduce_keywords.py's)
for _name in ("sum", "prod", "mean", "max", "min", "argmax", "argmin", "std", "var"):
    CALLS.register(numpy_function("nan" + _name), np_nan_reduce)
