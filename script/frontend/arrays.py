"""NumPy arrays in the frontend: indexing, element assignment, attributes, iteration.

Functions over the lowering `cx`. Arrays are passed by reference: a
compiled function reads and writes the caller's memory. Every index is normalized as NumPy
does (a negative index counts from the end) and checked against the axis length: an index
out of bounds raises IndexError with NumPy's message.
"""

from __future__ import annotations

import ast

import numpy as np

from script.frontend import complex_arrays, elementwise, fancy_index, mixed_numbers, numpy_join
from script.frontend.elementwise import is_array_like
from script.frontend.fancy_index import OUT_OF_BOUNDS, is_ellipsis
from script.ir import types as T
from script.ir.core import Const, Value
from script.ir.ops import ExcInfo

def index_parts(index_node) -> list:
    return index_node.elts if isinstance(index_node, ast.Tuple) else [index_node]


def is_view_index(cx, arr: Value, index_node) -> bool:
    """Whether `arr[index_node]` is a sub-array (a slice, or fewer indices than axes)."""
    parts = index_parts(index_node)
    return any(isinstance(p, ast.Slice) or _is_newaxis(p) or is_ellipsis(p) for p in parts) \
        or len(parts) < arr.type.ndim


def array_view(cx, arr: Value, index_node, node) -> Value:
    """`arr[...]` with slices or missing trailing axes: a view sharing `arr`'s memory."""
    t: T.ArrayType = arr.type
    parts = list(index_parts(index_node))
    real = sum(1 for p in parts if not (_is_newaxis(p) or is_ellipsis(p)))
    if real > t.ndim:
        cx.error(f"too many indices for array: array is {t.ndim}-dimensional, but "
                 f"{real} were indexed", index_node)
    ellipses = [k for k, p in enumerate(parts) if is_ellipsis(p)]
    if len(ellipses) > 1:
        cx.error("an index can only have a single ellipsis ('...')", index_node)
    fill = [ast.Slice(None, None, None)] * (t.ndim - real)
    parts = parts[:ellipses[0]] + fill + parts[ellipses[0] + 1:] if ellipses else parts + fill
    # Python computes the whole index before NumPy checks it, axis by axis.
    values = [slice_values(cx, p) if isinstance(p, ast.Slice) else cx.expr(p) for p in parts]
    axes, operands = "", [arr]
    axis = -1
    for p, v in zip(parts, values):
        if isinstance(getattr(v, "type", None), T.NoneType):      # None, np.newaxis
            axes += "n"
            continue
        axis += 1
        if isinstance(p, ast.Slice):
            axes += "s"
            operands += slice_operands(cx, arr, axis, p, node, v)
        else:
            check_scalar_index(cx, v, p)
            axes += "i"
            operands.append(checked_index(cx, arr, axis, cx.coerce(v, T.I64, p), p))
    if "s" not in axes and "n" not in axes:          # a[..., 0] of a 1-d array: an element
        return cx.emit("load", operands, t.dtype, None, cx.loc(node))
    rt = T.ArrayType(t.dtype, axes.count("s") + axes.count("n"), "A")
    return cx.emit("view", operands, rt, axes, cx.loc(node))


def slice_values(cx, sl: ast.Slice) -> tuple:
    """The values of `sl`'s start, stop and step expressions (None where absent), computed
    in that order, as Python builds a slice."""
    return tuple(None if e is None else cx.expr(e) for e in (sl.lower, sl.upper, sl.step))


def slice_operands(cx, arr: Value, axis: int, sl: ast.Slice, node, values=None,
                   length: Value | None = None) -> list[Value]:
    """(start, length, step) of `sl` on `axis`, as Python's slice.indices computes them;
    `values`: what `slice_values(sl)` gave, when computed already; `length`: the length
    sliced, when `arr` is not an array (a list)."""
    loc = cx.loc(node)
    lower, upper, sv = values if values is not None else slice_values(cx, sl)
    n = cx.emit("dim", [arr], T.I64, axis, loc) if length is None else length
    step = Const(1, T.I64)
    if sl.step is not None:
        if not isinstance(sv.type, (T.IntType, T.BoolType)):
            cx.error(f"slice indices must be integers, not {sv.type}", sl.step)
        step = cx.coerce(sv, T.I64, sl.step)
        if isinstance(step, Const) and step.value == 0:
            cx.error("slice step cannot be zero", sl.step)
        cx.raise_if(cx.cmp("eq", step, Const(0, T.I64), node), "ValueError", "slice step cannot be zero", node)
    plain = _plain_bounds(cx, sl, lower, upper, step, n, loc)
    if plain is not None:
        return plain
    up = Const(step.value > 0, T.BOOL) if isinstance(step, Const) else cx.cmp("gt", step, Const(0, T.I64), node)
    last = cx.emit("sub", [n, Const(1, T.I64)], T.I64, None, loc)
    # Python's slice.indices: bounds clamp into [0, n] going up, [-1, n - 1] going down.
    lo = pick(cx, up, Const(0, T.I64), Const(-1, T.I64), node)
    hi = pick(cx, up, n, last, node)

    def bound(expr_node, v, default):
        if expr_node is None:
            return default
        if not isinstance(v.type, (T.IntType, T.BoolType)):
            cx.error(f"slice indices must be integers, not {v.type}", expr_node)
        v = cx.coerce(v, T.I64, expr_node)
        neg = cx.cmp("lt", v, Const(0, T.I64), node)
        v = cx.emit("select", [neg, cx.emit("add", [v, n], T.I64, None, loc), v], T.I64, None, loc)
        v = cx.emit("max", [v, lo], T.I64, None, loc)       # clamp into [lo, hi]
        return cx.emit("min", [v, hi], T.I64, None, loc)

    start = bound(sl.lower, lower, pick(cx, up, Const(0, T.I64), last, node))
    stop = bound(sl.upper, upper, pick(cx, up, n, Const(-1, T.I64), node))
    # len(range(start, stop, step)), for either sign of step
    span = pick(cx, up, cx.emit("sub", [stop, start], T.I64, None, loc),
                cx.emit("sub", [start, stop], T.I64, None, loc), node)
    astep = pick(cx, up, step, cx.emit("neg", [step], T.I64, None, loc), node) \
        if not isinstance(step, Const) else Const(abs(step.value), T.I64)
    count = cx.emit("floordiv", [cx.emit("add", [span, cx.emit("sub", [astep, Const(1, T.I64)], T.I64, None,
                                                                      loc)], T.I64, None, loc), astep],
                    T.I64, None, loc)
    count = cx.emit("max", [count, Const(0, T.I64)], T.I64, None, loc)
    return [start, count, step]


def _plain_bounds(cx, sl: ast.Slice, lower, upper, step: Value, n: Value, loc) -> list | None:
    """(start, length, step) of a slice ``[c1:c2]`` of a length `n` with step 1, a start
    ``c1 >= 0`` and a stop ``c2 < 0`` that are int constants or absent (``a[1:-1]``,
    ``a[2:]``, ``a[:-2]``): ``min(c1, n)`` and ``max(n + (c2 - c1), 0)``, which is what
    slice.indices gives (``n < c1``: start n, length 0; ``n + c2 < 0``: stop 0, length 0).
    Slices of the same length then have the same length value once `cse` has run, so an
    expression of them (the stencil's ``a[:-2, 1:-1] + a[2:, 1:-1] + ...``) is seen not to
    broadcast and its broadcasting loop nest is deleted before LLVM compiles it. None
    for any other slice."""
    if not (isinstance(step, Const) and step.value == 1):
        return None
    c1 = 0 if sl.lower is None else _int_constant(lower)
    c2 = 0 if sl.upper is None else _int_constant(upper)
    if c1 is None or c2 is None or c1 < 0 or (c2 >= 0 and sl.upper is not None) or c2 - c1 < -2**63:
        return None                     # (n + (c2 - c1) cannot wrap: 0 <= n < 2**63)
    if c1 == 0 and c2 == 0:
        return [Const(0, T.I64), n, step]                 # the whole axis (n >= 0)
    start = Const(0, T.I64) if c1 == 0 else cx.emit("min", [Const(c1, T.I64), n], T.I64, None, loc)
    end = cx.emit("add", [n, Const(c2 - c1, T.I64)], T.I64, None, loc)
    return [start, cx.emit("max", [end, Const(0, T.I64)], T.I64, None, loc), step]


def _int_constant(v) -> int | None:
    """The value of `v` when it is an i64 constant (a literal; a bool, a sized int or a
    float takes the general path, which converts or reports it)."""
    return v.value if isinstance(v, Const) and v.type == T.I64 else None


def pick(cx, cond: Value, a: Value, b: Value, node) -> Value:
    """``a if cond else b`` for i64 values, folded when `cond` is a constant."""
    if isinstance(cond, Const):
        return a if cond.value else b
    return cx.emit("select", [cond, a, b], T.I64, None, cx.loc(node))
def array_indices(cx, arr: Value, index_node, node) -> list[Value]:
    """The checked i64 indices of `arr[index_node]` (one integer per axis)."""
    t: T.ArrayType = arr.type
    parts = index_parts(index_node)
    if len(parts) != t.ndim:
        cx.error(f"too many indices for array: array is {t.ndim}-dimensional, but "
                 f"{len(parts)} were indexed", index_node)
    values = []
    for p in parts:         # every index is computed before any is checked, as in Python
        v = cx.expr(p)
        check_scalar_index(cx, v, p)
        values.append(cx.coerce(v, T.I64, p))
    return [checked_index(cx, arr, axis, v, p) for axis, (v, p) in enumerate(zip(values, parts))]


def check_scalar_index(cx, v: Value, p) -> None:
    """An index on one axis must be an int. (A bool is not the int 0 or 1 to NumPy but a
    0-d boolean mask: `a[True]` adds an axis, `a[False]` selects nothing.)"""
    if isinstance(v.type, T.BoolType):
        cx.error("a bool used as an array index is a 0-d boolean mask in NumPy (it adds an axis), "
                 "which compiled code does not support; use int(...) for the index 0 or 1", p)
    if not isinstance(v.type, T.IntType):
        cx.error(f"array indices must be integers or slices, not {v.type}", p)


def checked_index(cx, arr: Value, axis: int, i: Value, node) -> Value:
    """`i` wrapped if negative and checked against the length of `axis`."""
    loc = cx.loc(node)
    n = cx.emit("dim", [arr], T.I64, axis, loc)
    if isinstance(i, Const) and i.value >= 0:
        j = i
    else:
        neg = cx.cmp("lt", i, Const(0, T.I64), node)
        j = cx.emit("select", [neg, cx.emit("add", [i, n], T.I64, None, loc), i], T.I64, None, loc)
    if not cx.boundscheck:
        return j                   # @script(boundscheck=False): the user vouches for it
    lo = cx.cmp("lt", j, Const(0, T.I64), node)
    hi = cx.emit("cmp", [j, n], T.BOOL, "ge", loc)
    bad = hi if isinstance(lo, Const) and not lo.value else cx.emit("or", [lo, hi], T.BOOL, None, loc)
    cx.emit("check", [bad, i, Const(axis, T.I64), n], T.NONE,
            ExcInfo("IndexError", OUT_OF_BOUNDS), loc)
    return j


def spread_tuple_index(cx, index_node):
    """`index_node`, or, when it is an expression whose value is a tuple (``m[idx]`` for
    ``idx`` from ``np.ndindex``), a tuple node of its items (each given by
    `pre_evaluated`), as ``m[i, j]``. The index is evaluated once, here."""
    if isinstance(index_node, (ast.Tuple, ast.Slice, ast.Constant)):
        return index_node
    v = cx.lazy(index_node)
    if not isinstance(getattr(v, "type", None), T.TupleType) or not v.type.elems:
        cx.pre_evaluated[id(index_node)] = v
        return index_node
    loc = cx.loc(index_node)
    parts = []
    for k, t in enumerate(v.type.elems):
        part = ast.copy_location(ast.Name(f"index{k}", ast.Load()), index_node)
        cx.pre_evaluated[id(part)] = cx.emit("extract", [v], t, k, loc)
        parts.append(part)
    return ast.copy_location(ast.Tuple(parts, ast.Load()), index_node)


def array_load(cx, arr: Value, index_node, node) -> Value:
    index_node = spread_tuple_index(cx, index_node)
    fancy = fancy_index.array_index_value(cx, index_node)
    if fancy is not None:
        return fancy_index.fancy_load(cx, arr, fancy, node)
    plan = fancy_index.index_plan(cx, arr, index_node, node)      # a[:, idx], a[r, c]
    if plan is not None:
        return fancy_index.gather(cx, plan, node)
    if is_view_index(cx, arr, index_node):
        return array_view(cx, arr, index_node, node)
    idx = array_indices(cx, arr, index_node, node)
    return cx.emit("load", [arr, *idx], arr.type.dtype, None, cx.loc(node))


def array_store(cx, arr: Value, index_node, value, node) -> None:
    """``arr[index] = value``; `value` may be an element-wise expression (elementwise)."""
    index_node = spread_tuple_index(cx, index_node)
    fancy = fancy_index.array_index_value(cx, index_node)
    if fancy is not None:
        return fancy_index.fancy_store(cx, arr, fancy, value, node)
    plan = fancy_index.index_plan(cx, arr, index_node, node)
    if plan is not None:
        return fancy_index.scatter(cx, plan, value, node)
    if is_view_index(cx, arr, index_node):
        view = array_view(cx, arr, index_node, node)
        return elementwise.store_expr(cx, view, sequence_as_array(cx, value, arr.type.dtype, node), node)
    if is_array_like(value):
        cx.error("setting an array element with a sequence", node)
    idx = array_indices(cx, arr, index_node, node)
    store_element(cx, arr, idx, value, node)


def sequence_as_array(cx, value, dtype: T.Type, node):
    """A tuple or list of numbers stored into a sub-array (`pts[i] = (x, y)`,
    `a[:] = [1, 2]`): as an array of `dtype`, whose shape NumPy then checks; any other
    value as it is."""
    t = getattr(value, "type", None)
    if isinstance(t, T.TupleType) and t.elems:
        return numpy_join.tuple_to_array(cx, value, dtype, node)
    if isinstance(t, T.ListType) and cx.read_type(value).is_numeric():
        return cx.list_to_array(value, dtype, node)
    return value


def store_element(cx, arr: Value, idx, value: Value, node) -> None:
    cx.emit("store", [arr, item_value(cx, value, arr.type.dtype, node), *idx], T.NONE, None,
            cx.loc(node))


def item_value(cx, value: Value, dtype: T.Type, node) -> Value:
    """Scalar `value` converted for storing into an array of `dtype` as NumPy's item
    assignment does: a float into an int array truncates (2.7 stores 2) and, as int(x)
    does, refuses NaN, infinities and values out of range; an int out of range raises.
    An int|float (`sum(xs)` of floats) is stored as the one it holds."""
    if isinstance(value.type, T.IntFloatType):
        is_float, i, f = mixed_numbers.parts(cx, value, cx.loc(node))
        return cx.choose(is_float, lambda: item_value(cx, f, dtype, node),
                         lambda: item_value(cx, i, dtype, node), node)
    if not value.type.is_numeric():
        cx.error(f"cannot store a {value.type} into an array of {dtype}", node)
    if isinstance(dtype, T.IntType) and isinstance(value.type, T.FloatType):
        return float_item(cx, value, dtype, node)
    check_int_fits(cx, value, dtype, node)
    return cx.coerce(value, dtype, node)


def float_item(cx, value: Value, dtype: T.IntType, node) -> Value:
    """A float stored into an int array, as NumPy does it: NaN and infinities are refused
    as int(x) refuses them; x is truncated to a Python int, which must fit a C long (an
    unsigned long long for uint32 and uint64) and then the array's type; each failure has
    NumPy's own message ("Python integer -1 out of bounds for uint8")."""
    loc = cx.loc(node)
    t = value.type
    cx.check_float_to_int(value, T.I64, node, limits=False)
    wide = not dtype.signed and dtype.bits >= 32           # tried as unsigned long long
    below = cx.emit("cmp", [value, Const(-2.0 ** 63, t)], T.BOOL, "lt", loc)
    above = cx.emit("cmp", [value, Const(2.0 ** 64 if wide else 2.0 ** 63, t)], T.BOOL, "ge", loc)
    cx.raise_if(cx.emit("or", [below, above], T.BOOL, None, loc), "OverflowError",
                "Python int too large to convert to C long", node)
    name = f"{'' if dtype.signed else 'u'}int{dtype.bits}"
    text = f"Python integer %lld out of bounds for {name}"
    if not wide:
        whole = cx.coerce(value, T.I64, node)
        check_int_fits(cx, whole, dtype, node)
        return cx.coerce(whole, dtype, node)
    # Unsigned 32 or 64 bits: -1.0 and below are out of bounds (printed signed); for
    # uint32, so is 2**32 and above (printed unsigned: its first digits, then its last).
    neg = cx.emit("cmp", [value, Const(-1.0, t)], T.BOOL, "le", loc)
    shown = cx.coerce(cx.emit("select", [neg, value, Const(-1.0, t)], t, None, loc), T.I64, node)
    cx.raise_if(neg, "OverflowError", text, node, args=[shown])
    if dtype.bits == 32:
        high = cx.emit("cmp", [value, Const(2.0 ** 32, t)], T.BOOL, "ge", loc)
        big = cx.coerce(cx.emit("select", [high, value, Const(2.0 ** 32, t)], t, None, loc), T.U64, node)
        ten = Const(10, T.U64)
        head = cx.emit("floordiv", [big, ten], T.U64, None, loc)
        tail = cx.emit("mod", [big, ten], T.U64, None, loc)
        cx.raise_if(high, "OverflowError", text.replace("%lld", "%lld%lld"), node,
                    args=[cx.coerce(head, T.I64, node), cx.coerce(tail, T.I64, node)])
    return cx.coerce(value, dtype, node)


def check_int_fits(cx, value: Value, dtype: T.Type, node) -> None:
    """NumPy's item assignment of an integer scalar refuses a value the array's type
    cannot hold (300 into int8 raises OverflowError) where a cast would wrap. Arrays
    copied into arrays cast without this check, as in NumPy. (A u64 value is not
    checked: NumPy words that case differently.)"""
    vt = getattr(value, "type", None)
    if not isinstance(dtype, T.IntType) or not isinstance(vt, T.IntType):
        return
    if not vt.signed and vt.bits == 64:
        return
    loc = cx.loc(node)
    bad = None
    if dtype.min > vt.min:
        bad = cx.cmp("lt", value, Const(dtype.min, vt), node)
    if dtype.max < vt.max:
        hi = cx.cmp("gt", value, Const(dtype.max, vt), node)
        bad = hi if bad is None else cx.emit("or", [bad, hi], T.BOOL, None, loc)
    if bad is None:
        return
    name = f"{'' if dtype.signed else 'u'}int{dtype.bits}"
    cx.raise_if(bad, "OverflowError", f"Python integer %lld out of bounds for {name}", node,
                args=[cx.coerce(value, T.I64, node)])


def array_aug_assign(cx, node: ast.AugAssign) -> None:
    target = node.target
    arr = cx.expr(target.value)
    if not isinstance(arr.type, T.ArrayType):
        cx.error(f"item assignment is not supported on {arr.type}", target)
    index_node = spread_tuple_index(cx, target.slice)
    fancy = fancy_index.array_index_value(cx, index_node)
    plan = fancy_index.index_plan(cx, arr, index_node, target) if fancy is None else None
    if fancy is not None or plan is not None:
        return fancy_aug_assign(cx, arr, fancy, plan, node)
    if is_view_index(cx, arr, index_node):
        view = array_view(cx, arr, index_node, target)
        return elementwise.array_aug_assign_to(cx, view, type(node.op), cx.lazy(node.value), node)
    idx = array_indices(cx, arr, index_node, target)
    old = cx.emit("load", [arr, *idx], arr.type.dtype, None, cx.loc(target))
    new = cx.binop(type(node.op), old, cx.expr(node.value), node)
    store_element(cx, arr, idx, new, node)


def fancy_aug_assign(cx, arr: Value, fancy, plan, node: ast.AugAssign) -> None:
    """``a[mask] += v``, ``a[idx] *= v``, ``m[idx, 1:] -= v``: NumPy's ``t = a[index];
    t += v; a[index] = t``. The index is computed once, before the value; the in-place
    step is a new array's, with its same_kind rule and broadcasting; duplicate indices
    take the last write, as NumPy's."""
    from script.frontend.elementwise import ArrayExpr
    if isinstance(fancy, ArrayExpr):
        fancy = elementwise.materialize(cx, fancy, node)
    temp = fancy_index.fancy_load(cx, arr, fancy, node) if plan is None else fancy_index.gather(cx, plan, node)
    if not isinstance(getattr(temp, "type", None), T.ArrayType):
        cx.error("augmented assignment through this index is not supported in compiled code", node)
    elementwise.array_aug_assign_to(cx, temp, type(node.op), cx.lazy(node.value), node)
    if plan is None:
        fancy_index.fancy_store(cx, arr, fancy, temp, node)
    else:
        fancy_index.scatter(cx, plan, temp, node)


def array_attribute(cx, arr: Value, node: ast.Attribute) -> Value:
    t: T.ArrayType = arr.type
    loc = cx.loc(node)
    attr = node.attr
    if attr == "ndim":
        return Const(t.ndim, T.I64)
    if attr in ("shape", "strides"):
        op = "dim" if attr == "shape" else "stride"
        parts = [cx.emit(op, [arr], T.I64, k, loc) for k in range(t.ndim)]
        return cx.make_tuple(parts, node)
    if attr == "size":
        return cx.size_of(arr, node)
    if attr == "T":
        if t.ndim == 1:
            return arr
        return cx.emit("transpose", [arr], t.with_layout("A"), None, loc)
    if attr == "itemsize":
        return Const(_itemsize(t.dtype), T.I64)
    if attr in ("real", "imag"):
        return complex_arrays.array_part(cx, arr, 0 if attr == "real" else 1, node)
    if attr == "nbytes":
        size = cx.size_of(arr, node)
        return cx.emit("mul", [size, Const(_itemsize(t.dtype), T.I64)], T.I64, None, loc)
    if attr == "dtype":
        cx.error("a.dtype can only be compared (a.dtype == np.float64) or passed as "
                 "dtype= in compiled code", node)
    if attr == "flat":
        cx.error("a.flat is supported only in a `for` loop (for x in a.flat) and in reads "
                 "a.flat[i] in compiled code; writing through it is not: index the array, "
                 "or write to a.reshape(-1) of a contiguous array", node)
    cx.error(f"array attribute '{attr}' is not supported yet", node)


def dtype_compare(cx, node: ast.Compare) -> Value | None:
    """``a.dtype == np.float64`` (or ``!=``, against any dtype spelling, or another
    array's dtype): a constant, as element types are known when compiling; None when
    `node` compares no ``.dtype``."""
    if len(node.ops) != 1 or not isinstance(node.ops[0], (ast.Eq, ast.NotEq)):
        return None
    sides = (node.left, node.comparators[0])
    if not any(isinstance(x, ast.Attribute) and x.attr == "dtype" for x in sides):
        return None
    a, b = (cx.dtype_arg(x, None) for x in sides)
    return Const((a == b) == isinstance(node.ops[0], ast.Eq), T.BOOL)

# ---- a.flat and np.ndenumerate ------------------------------------------------------


def flat_base(cx, node):
    """(array, None) when `node` is ``a.flat`` of an array `a`, which is no value of its
    own in compiled code; (None, value) for any other attribute named flat; None when
    `node` is no such attribute. `a` is computed once either way."""
    if not (isinstance(node, ast.Attribute) and node.attr == "flat"):
        return None
    base = cx.callee_ref(node.value)
    if isinstance(base, Value) and isinstance(base.type, T.ArrayType):
        return base, None
    return None, cx.attribute_of(base, node)


def flat_iterable(cx, node):
    """`iterable` (lower_stmt) for ``a.flat`` and ``np.ndenumerate(a)``: the elements of
    `a` in C order, without a copy, each with its index tuple for ndenumerate; None when
    `node` is neither."""
    flat = flat_base(cx, node)
    if flat is not None:
        arr, other = flat
        if arr is None:
            return cx.iterable_value(other, node)
        return cx.size_of(arr, node), flat_element(cx, arr, node), arr.type.dtype
    if names_numpy(cx, node, "ndindex"):
        return ndindex_iterable(cx, node)
    if not names_numpy(cx, node, "ndenumerate"):
        return None
    if len(node.args) != 1 or node.keywords:
        cx.error("numpy.ndenumerate() takes one array here", node)
    arr = cx.expr(node.args[0])
    if not isinstance(arr.type, T.ArrayType):
        cx.error(f"numpy.ndenumerate() takes an array here, not {arr.type}", node.args[0])
    t = arr.type
    dims = [cx.emit("dim", [arr], T.I64, k, cx.loc(node)) for k in range(t.ndim)]

    def item(i):
        idx = unravel(cx, i, dims, node)
        elem = cx.emit("load", [arr, *idx], t.dtype, None, cx.loc(node))
        return cx.make_tuple([cx.make_tuple(idx, node), elem], node)

    return (cx.size_of(arr, node), item,
            T.TupleType([T.TupleType([T.I64] * t.ndim), t.dtype]))


def names_numpy(cx, node, name: str) -> bool:
    """Whether `node` is a call of ``np.<name>`` (by a name or a module's attribute, whose
    resolution computes nothing, so another callee is left alone)."""
    func = getattr(node, "func", None)
    named = isinstance(func, ast.Name) or (isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name))
    return named and getattr(func, "id", getattr(func, "attr", None)) == name \
        and getattr(cx.callee_ref(func), "obj", None) is getattr(np, name)


def ndindex_iterable(cx, node):
    """``np.ndindex(shape)`` / ``np.ndindex(d0, d1, ...)``: every index tuple of that shape
    in C order; NumPy's ValueError for a negative length."""
    if node.keywords:
        cx.error("numpy.ndindex() takes no keyword arguments", node)
    loc = cx.loc(node)
    values = []
    for a in node.args:         # ndindex(shape), ndindex(d0, d1), ndindex(*shape)
        v = cx.expr(a.value if isinstance(a, ast.Starred) else a)
        if isinstance(v.type, T.TupleType) and (isinstance(a, ast.Starred) or len(node.args) == 1):
            values += [cx.emit("extract", [v], e, k, loc) for k, e in enumerate(v.type.elems)]
        else:
            values.append(v)
    if not values or not all(isinstance(v.type, (T.IntType, T.BoolType)) for v in values):
        cx.error("numpy.ndindex() takes a shape: a tuple of ints, or ints", node)
    dims = [cx.coerce(v, T.I64, node) for v in values]
    size = Const(1, T.I64)
    for d in dims:
        cx.raise_if(cx.cmp("lt", d, Const(0, T.I64), node), "ValueError",
                    "negative dimensions are not allowed", node)
        size = cx.emit("mul", [size, d], T.I64, None, loc)
    return size, lambda i: cx.make_tuple(unravel(cx, i, dims, node), node), T.TupleType([T.I64] * len(dims))


def flat_element(cx, arr: Value, node):
    """i -> element i of `arr` in C order (0 <= i < arr.size): one load from a flat view
    of a C-contiguous array, else from the index the flat position unravels to."""
    t: T.ArrayType = arr.type
    loc = cx.loc(node)
    if t.ndim == 1 or t.layout == "C":
        flat = arr if t.ndim == 1 else cx.reshape(arr, [Const(-1, T.I64)], node)
        return lambda i: cx.emit("load", [flat, i], t.dtype, None, loc)
    dims = [cx.emit("dim", [arr], T.I64, k, loc) for k in range(t.ndim)]
    return lambda i: cx.emit("load", [arr, *unravel(cx, i, dims, node)], t.dtype, None, loc)


def unravel(cx, i: Value, dims: list[Value], node) -> list[Value]:
    """The C-order index of flat position 0 <= i < prod(dims) (np.unravel_index)."""
    loc = cx.loc(node)
    idx = []
    for d in reversed(dims[1:]):
        idx.append(cx.emit("mod", [i, d], T.I64, None, loc))
        i = cx.emit("floordiv", [i, d], T.I64, None, loc)
    return [i] + idx[::-1]


def flat_load(cx, node: ast.Subscript) -> Value | None:
    """``a.flat[i]``: element i of `a` in C order (negative i counts from the end; out of
    range raises NumPy's IndexError); None when `node` indexes no ``a.flat``."""
    flat = flat_base(cx, node.value)
    if flat is None:
        return None
    arr, other = flat
    if arr is None:
        return cx.subscript_of(other, node)
    if isinstance(node.slice, (ast.Slice, ast.Tuple)):
        cx.error("a.flat takes one integer index in compiled code (a.flat[i]); for a slice, "
                 "use a.ravel()[...]", node)
    v = cx.expr(node.slice)
    if not isinstance(v.type, T.IntType):
        cx.error(f"a.flat takes one integer index in compiled code, not {v.type}", node.slice)
    loc = cx.loc(node)
    i = cx.coerce(v, T.I64, node.slice)
    size = cx.size_of(arr, node)
    neg = cx.cmp("lt", i, Const(0, T.I64), node)
    j = cx.emit("select", [neg, cx.emit("add", [i, size], T.I64, None, loc), i], T.I64, None, loc)
    if cx.boundscheck:
        bad = cx.emit("or", [cx.cmp("lt", j, Const(0, T.I64), node),
                             cx.emit("cmp", [j, size], T.BOOL, "ge", loc)], T.BOOL, None, loc)
        cx.raise_if(bad, "IndexError", "index %lld is out of bounds for size %lld", node, [i, size])
    return flat_element(cx, arr, node)(j)


def array_len(cx, arr: Value, node) -> Value:
    return cx.emit("dim", [arr], T.I64, 0, cx.loc(node))


def array_item(cx, arr: Value, i: Value, node) -> Value:
    """`arr[i]` for 0 <= i < len(arr): an element of a 1-d array, else a view of a row."""
    t: T.ArrayType = arr.type
    if t.ndim == 1:
        return cx.emit("load", [arr, i], t.dtype, None, cx.loc(node))
    operands = [arr, i]
    for axis in range(1, t.ndim):
        operands += [Const(0, T.I64), cx.emit("dim", [arr], T.I64, axis, cx.loc(node)), Const(1, T.I64)]
    rt = T.ArrayType(t.dtype, t.ndim - 1, "A")
    return cx.emit("view", operands, rt, "i" + "s" * (t.ndim - 1), cx.loc(node))


def _is_newaxis(p) -> bool:
    return (isinstance(p, ast.Constant) and p.value is None) or (
        isinstance(p, ast.Attribute) and p.attr == "newaxis")


def _itemsize(t: T.Type) -> int:
    return 1 if isinstance(t, T.BoolType) else t.bits // 8
