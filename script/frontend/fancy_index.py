"""NumPy's advanced indexing: a boolean mask (``a[a > 0]``, ``a[m] = 0``), integer arrays
(``a[idx]``, ``m[:, idx] = v``, ``m[r, c]``) and a 1-d mask selecting along one axis
(``m[rows]``, ``m[rows, 1:] = 0``, taken as the integer array of its true positions).

Functions over the lowering `cx`. Reading makes a new array (a copy, as
NumPy's advanced indexing does); writing stores through the index, in C order of the
indexing result, so that where an index repeats the last write wins, as in NumPy. Integer
indices wrap when negative and are checked against the axis (IndexError with NumPy's
message) before any element is read or written, unless bounds checks are off.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass

from script.frontend.elementwise import ArrayExpr, _may_raise, _root, is_array_like, shape_format
from script.ir import types as T
from script.ir.core import Const, Value
from script.ir.ops import MAX_MESSAGE_ARGS, ExcInfo
from script.frontend import elementwise

OUT_OF_BOUNDS = "index %lld is out of bounds for axis %lld with size %lld"


def is_ellipsis(p) -> bool:
    return isinstance(p, ast.Constant) and p.value is Ellipsis


@dataclass
class IndexPlan:
    """`arr[index]` for an index holding integer arrays. `view` is `arr` with the index's ints
    and slices applied and a full slice for each array; `index[n]` (an integer array) indexes
    the view's axis `axes[n]` and is named as axis `shown[n]` of `arr` in errors. The index
    arrays broadcast together; the result has their broadcast axes first when `front`
    (NumPy: the advanced indices are apart), else in place of the view's axes `axes`, which
    are then consecutive."""

    view: Value
    axes: list[int]
    index: list[Value]
    shown: list[int]
    front: bool


def array_index_value(cx, index_node):
    """The value of a lone index expression when it is an array (or an element-wise
    expression), else None; either way `index_node` is evaluated once (`pre_evaluated`)."""
    if isinstance(index_node, (ast.Tuple, ast.Slice)) or (
            isinstance(index_node, ast.Constant) and index_node.value in (None, Ellipsis)):
        return None
    v = cx.lazy(index_node)
    if isinstance(getattr(v, "type", None), T.ListType) and cx.read_type(v).is_numeric():
        return cx.list_to_array(v, None, index_node)       # a[[0, 2]]: as np.array([0, 2])
    if is_array_like(v):
        return v
    cx.pre_evaluated[id(index_node)] = v
    return None

# ---- plans ------------------------------------------------------------------------------


def index_plan(cx, arr: Value, index_node, node) -> IndexPlan | None:
    """The plan of `arr[i, idx]`, `arr[:, idx]`, `arr[r, c]`, `arr[mask, 1:]` (a tuple
    index with integer arrays or 1-d masks, the other parts ints and slices); None when
    the index holds no array. Every part is computed once, left to right."""
    if not isinstance(index_node, ast.Tuple):
        return None
    parts = index_node.elts
    found = {}
    for k, p in enumerate(parts):
        if is_ellipsis(p):
            continue
        if isinstance(p, ast.Slice):
            for e in (p.lower, p.upper, p.step):
                if e is not None:
                    cx.pre_evaluated[id(e)] = cx.expr(e)
            continue
        v = cx.lazy(p)
        if isinstance(getattr(v, "type", None), T.ListType) and cx.read_type(v).is_numeric():
            v = cx.list_to_array(v, None, p)
        if is_array_like(v):
            found[k] = v
            continue
        cx.pre_evaluated[id(p)] = v
    if not found:
        return None
    for p in parts:
        if is_ellipsis(p) or isinstance(p, ast.Constant) and p.value is None:
            cx.error("'...' or None next to an array index is not supported in compiled code", p)
    if len(parts) > arr.type.ndim:
        cx.error(f"too many indices for array: array is {arr.type.ndim}-dimensional, but "
                 f"{len(parts)} were indexed", index_node)
    index = {}
    for k, v in found.items():
        e = elementwise.as_expr(cx, v, node)
        if isinstance(e.dtype, T.BoolType):
            if e.ndim != 1:
                cx.error("a boolean array of more than one dimension is supported only as the whole "
                         "index in compiled code", parts[k])
            index[k] = mask_positions(cx, arr, k, e, node)
        elif isinstance(e.dtype, T.IntType):
            index[k] = elementwise.materialize(cx, e, node)
        else:
            cx.error(f"arrays used as indices must be of integer (or boolean) type, not {e.dtype}", parts[k])
    advanced = [j for j, p in enumerate(parts) if not isinstance(p, ast.Slice)]
    span = range(min(advanced), max(advanced) + 1)
    front = any(isinstance(parts[j], ast.Slice) for j in span)   # NumPy: the index's axes first
    kept = [j for j, p in enumerate(parts) if isinstance(p, ast.Slice) or j in index]
    rest = [ast.Slice(None, None, None) if j in index else p for j, p in enumerate(parts)]
    view = cx.array_view(arr, ast.copy_location(ast.Tuple(rest, ast.Load()), index_node), node)
    ks = sorted(index)
    return IndexPlan(view, [kept.index(k) for k in ks], [index[k] for k in ks], ks, front)


def lone_plan(cx, arr: Value, e: ArrayExpr, node) -> IndexPlan:
    """The plan of `arr[idx]` (an integer array) or `arr[mask]` (a 1-d mask of an array
    of more axes)."""
    if isinstance(e.dtype, T.BoolType):
        return IndexPlan(arr, [0], [mask_positions(cx, arr, 0, e, node)], [0], False)
    return IndexPlan(arr, [0], [elementwise.materialize(cx, e, node)], [0], False)


def mask_positions(cx, arr: Value, axis: int, mask: ArrayExpr, node) -> Value:
    """A new i64 array of the positions where the 1-d `mask` is true, its length checked
    against `arr`'s `axis` as NumPy checks it (an empty mask selects nothing, whatever
    the length)."""
    loc = cx.loc(node)
    (m,), stretch = elementwise.broadcast_shape(cx, mask, node)
    d = cx.emit("dim", [arr], T.I64, axis, loc)
    bad = cx.emit("and", [cx.cmp("ne", d, m, node), cx.cmp("ne", m, Const(0, T.I64), node)],
                  T.BOOL, None, loc)
    cx.raise_if(bad, "IndexError", f"boolean index did not match indexed array along axis {axis}; size of "
                "axis is %lld but size of corresponding boolean axis is %lld", node, [d, m])
    count = cx.new_var("count", Const(0, T.I64))

    def counting(idx):
        cx.when(elementwise.element(cx, mask, idx, 1, node, stretch), lambda: cx.write(
            count, cx.emit("add", [cx.read(count, loc), Const(1, T.I64)], T.I64, None, loc)), node)
    cx.loop_nest(node, [m], counting)
    out = cx.alloc_array(T.I64, [cx.read(count, loc)], node)
    k = cx.new_var("k", Const(0, T.I64))

    def put(idx):
        def store():
            at = cx.read(k, loc)
            cx.emit("store", [out, idx[0], at], T.NONE, None, loc)
            cx.write(k, cx.emit("add", [at, Const(1, T.I64)], T.I64, None, loc))
        cx.when(elementwise.element(cx, mask, idx, 1, node, stretch), store, node)
    cx.loop_nest(node, [m], put)
    return out


def plan_shape(cx, plan: IndexPlan, node) -> tuple[list[Value], dict, list[Value]]:
    """The broadcast lengths of the index arrays (checked, NumPy's IndexError), the marks
    of their stretched axes, and the lengths of the result."""
    shapes = [cx.dims_of(i, node) for i in plan.index]
    stretch = {}
    if len(shapes) == 1:
        idx_dims = shapes[0]
    else:
        idx_dims = elementwise.broadcast_dims(cx, shapes, max(len(s) for s in shapes), node)
        bad = elementwise.mismatch(cx, shapes, idx_dims, node)
        flat = [d for s in shapes for d in s]
        if len(flat) <= MAX_MESSAGE_ARGS:
            text = " ".join(shape_format(len(s)) for s in shapes)
            cx.raise_if(bad, "IndexError", "shape mismatch: indexing arrays could not be broadcast "
                        f"together with shapes {text} ", node, flat)
        else:
            cx.raise_if(bad, "IndexError", "shape mismatch: indexing arrays could not be broadcast together",
                        node)
        stretch = elementwise.stretch_marks(cx, plan.index, shapes, idx_dims, node)
    dims = cx.dims_of(plan.view, node)
    others = [d for a, d in enumerate(dims) if a not in plan.axes]
    if plan.front:
        return idx_dims, stretch, idx_dims + others
    first = plan.axes[0]
    return idx_dims, stretch, others[:first] + idx_dims + others[first:]


def check_plan(cx, plan: IndexPlan, idx_dims: list[Value], node, memory_order: bool = False) -> None:
    """NumPy's bounds check of every index, array by array, each in C order for a read and
    for a store through intp (int64) indices, and in memory order for a store through
    indices of another dtype, which NumPy casts to intp first (`memory_order`: a 1-d index of
    negative stride walked backwards), as NumPy 2.4 walks them, so the bad index named is
    NumPy's; none where the index arrays broadcast to nothing (`idx_dims` holds a 0), as in
    NumPy."""
    if not cx.boundscheck:
        return
    loc = cx.loc(node)
    if len(plan.index) > 1:
        empty: Value = Const(False, T.BOOL)
        for d in idx_dims:
            empty = cx.emit("or", [empty, cx.cmp("eq", d, Const(0, T.I64), node)], T.BOOL, None, loc)
        cx.when(cx.emit("not", [empty], T.BOOL, None, loc),
                         lambda: check_indices(cx, plan, node, memory_order), node)
        return
    check_indices(cx, plan, node, memory_order)


def check_indices(cx, plan: IndexPlan, node, memory_order: bool = False) -> None:
    loc = cx.loc(node)
    for index, axis, shown in zip(plan.index, plan.axes, plan.shown):
        n = cx.emit("dim", [plan.view], T.I64, axis, loc)
        dims = cx.dims_of(index, node)
        if memory_order and len(dims) == 1 and index.type.dtype != T.I64:
            backwards = cx.cmp("lt", cx.emit("stride", [index], T.I64, 0, loc), Const(0, T.I64), node)
            last = cx.emit("sub", [dims[0], Const(1, T.I64)], T.I64, None, loc)

            def at(pos, backwards=backwards, last=last):
                return [cx.emit("select", [backwards, cx.emit("sub", [last, pos[0]], T.I64, None, loc),
                                           pos[0]], T.I64, None, loc)]
        else:
            def at(pos):
                return pos

        def check(pos, index=index, n=n, shown=shown, at=at):
            i = cx.coerce(cx.emit("load", [index, *at(pos)], index.type.dtype, None, loc), T.I64, node)
            j = wrap_index(cx, i, n, node)
            bad = cx.emit("or", [cx.cmp("lt", j, Const(0, T.I64), node), cx.cmp("ge", j, n, node)],
                          T.BOOL, None, loc)
            cx.emit("check", [bad, i, Const(shown, T.I64), n], T.NONE, ExcInfo("IndexError", OUT_OF_BOUNDS),
                    loc)
        cx.loop_nest(node, dims, check)


def wrap_index(cx, i: Value, n: Value, node) -> Value:
    loc = cx.loc(node)
    neg = cx.cmp("lt", i, Const(0, T.I64), node)
    return cx.emit("select", [neg, cx.emit("add", [i, n], T.I64, None, loc), i], T.I64, None, loc)


def view_position(cx, plan: IndexPlan, pos: list[Value], k: int, stretch: dict, node) -> list[Value]:
    """The position in `plan.view` of the result's position `pos` (`k`: the number of
    broadcast index axes)."""
    loc = cx.loc(node)
    if plan.front:
        ipos, rest = pos[:k], list(pos[k:])
    else:
        first = plan.axes[0]
        ipos, rest = pos[first:first + k], list(pos[:first]) + list(pos[first + k:])
    js = []
    for index, axis in zip(plan.index, plan.axes):
        e = ArrayExpr("leaf", index.type.dtype, index.type.ndim, index)
        i = cx.coerce(elementwise.element(cx, e, ipos, k, node, stretch), T.I64, node)
        js.append(wrap_index(cx, i, cx.emit("dim", [plan.view], T.I64, axis, loc), node))
    out, r = [], iter(rest)
    for axis in range(plan.view.type.ndim):
        out.append(js[plan.axes.index(axis)] if axis in plan.axes else next(r))
    return out


def gather(cx, plan: IndexPlan, node) -> Value:
    """A new array of the elements `plan` selects (NumPy's ``arr[index]``)."""
    loc = cx.loc(node)
    idx_dims, stretch, out_dims = plan_shape(cx, plan, node)
    check_plan(cx, plan, idx_dims, node)
    view = plan.view
    out = cx.alloc_array(view.type.dtype, out_dims, node)

    def take(pos):
        x = cx.emit("load", [view, *view_position(cx, plan, pos, len(idx_dims), stretch, node)],
                    view.type.dtype, None, loc)
        cx.emit("store", [out, x, *pos], T.NONE, None, loc)
    cx.loop_nest(node, out_dims, take)
    return out


def scatter(cx, plan: IndexPlan, value, node) -> None:
    """``arr[index] = value`` through `plan`: `value` (a scalar, array or expression)
    broadcast to the indexing result, written in its C order. As NumPy, the value's
    shape is checked before the indices, and the index and value are read whole before
    anything is written (copied where they may be the array's own memory)."""
    loc = cx.loc(node)
    view = plan.view
    root = _root(view)
    plan.index = [cx.copy_array(i, node) if _root(i) is root else i for i in plan.index]
    idx_dims, stretch, out_dims = plan_shape(cx, plan, node)
    value = cx.sequence_as_array(value, view.type.dtype, node)
    if is_array_like(value):
        e = elementwise.as_expr(cx, value, node)
        if e.kind == "op" and _may_raise(e):
            e = elementwise.as_expr(cx, elementwise.materialize(cx, e, node), node)   # an error writes nothing
        if any(_root(leaf) is root for leaf in e.leaves()):
            copy = cx.copy_array(e.value, node) if e.kind == "leaf" else elementwise.materialize(cx, e, node)
            e = elementwise.as_expr(cx, copy, node)
        shape = list(e.shape)
        bad = elementwise.mismatch(cx, [shape], out_dims, node)
        if len(shape) + len(out_dims) <= MAX_MESSAGE_ARGS:
            cx.raise_if(bad, "ValueError", f"shape mismatch: value array of shape {shape_format(len(shape))} "
                        f"could not be broadcast to indexing result of shape {shape_format(len(out_dims))}",
                        node, shape + out_dims)
        else:
            cx.raise_if(bad, "ValueError", "shape mismatch: value array could not be broadcast to indexing "
                        "result", node)
        e = elementwise.unshared(cx, view, e, node)
        leaves = e.leaf_nodes()
        marks = elementwise.stretch_marks(cx, [a.value for a in leaves], [a.shape for a in leaves], out_dims, node)

        def element(pos):
            return cx.cast_element(elementwise.element(cx, e, pos, len(out_dims), node, marks), view.type.dtype, node)
    else:
        v = cx.item_value(value, view.type.dtype, node)      # checked once, as NumPy does

        def element(pos):
            return v
    check_plan(cx, plan, idx_dims, node, memory_order=True)

    def put(pos):
        x = element(pos)
        cx.emit("store", [view, x, *view_position(cx, plan, pos, len(idx_dims), stretch, node)], T.NONE,
                None, loc)
    cx.loop_nest(node, out_dims, put)

# ---- a lone array index -------------------------------------------------------------------


def index_expr(cx, arr: Value, index, node) -> ArrayExpr:
    e = elementwise.as_expr(cx, index, node)
    if isinstance(e.dtype, T.BoolType):
        if e.ndim != arr.type.ndim and e.ndim != 1:
            cx.error(f"a boolean index must have the array's {arr.type.ndim} dimensions or one, "
                     f"not {e.ndim}", node)
    elif not isinstance(e.dtype, T.IntType):
        cx.error(f"arrays used as indices must be of integer (or boolean) type, not {e.dtype}", node)
    return e


def mask_dims(cx, arr: Value, mask: ArrayExpr, node) -> tuple[list[Value], dict]:
    """The lengths of `arr`, checked against the mask's as NumPy checks them, and the
    marks of the mask's stretched axes (elementwise.stretch_marks)."""
    loc = cx.loc(node)
    dims = cx.dims_of(arr, node)
    shape, stretch = elementwise.broadcast_shape(cx, mask, node)
    # NumPy takes an empty boolean index as an empty integer index: it selects nothing
    # whatever the array's shape (a[np.zeros(0, bool)] is empty, no IndexError)
    empty: Value = Const(False, T.BOOL)
    for m in shape:
        empty = cx.emit("or", [empty, cx.cmp("eq", m, Const(0, T.I64), node)], T.BOOL, None, loc)
    for axis, (d, m) in enumerate(zip(dims, shape)):
        bad = cx.emit("and", [cx.cmp("ne", d, m, node), cx.emit("not", [empty], T.BOOL, None, loc)],
                      T.BOOL, None, loc)
        cx.raise_if(bad, "IndexError",
                    f"boolean index did not match indexed array along axis {axis}; size of axis is "
                    "%lld but size of corresponding boolean axis is %lld", node, [d, m])
    return [cx.emit("select", [empty, Const(0, T.I64), d], T.I64, None, loc) for d in dims], stretch


def for_masked(cx, arr: Value, mask: ArrayExpr, node, body) -> None:
    """`body(idx)` for each index (C order) where the mask is true."""
    dims, stretch = mask_dims(cx, arr, mask, node)

    def visit(idx):
        cx.when(elementwise.element(cx, mask, idx, len(dims), node, stretch), lambda: body(idx), node)
    cx.loop_nest(node, dims, visit)


def count_true(cx, arr: Value, mask: ArrayExpr, node) -> Value:
    var = cx.new_var("count", Const(0, T.I64))
    for_masked(cx, arr, mask, node, lambda idx: cx.write(
        var, cx.emit("add", [cx.read(var, cx.loc(node)), Const(1, T.I64)], T.I64, None, cx.loc(node))))
    return cx.read(var, cx.loc(node))


def fancy_load(cx, arr: Value, index, node) -> Value:
    """``arr[index]`` for an array index: a new 1-d array of the elements a mask selects,
    or of those an integer array names (shaped as the index)."""
    e = index_expr(cx, arr, index, node)
    loc = cx.loc(node)
    if isinstance(e.dtype, T.BoolType) and e.ndim == arr.type.ndim:
        n = count_true(cx, arr, e, node)
        out = cx.alloc_array(arr.type.dtype, [n], node)
        var = cx.new_var("k", Const(0, T.I64))

        def take(idx):
            k = cx.read(var, loc)
            cx.emit("store", [out, cx.emit("load", [arr, *idx], arr.type.dtype, None, loc), k], T.NONE,
                    None, loc)
            cx.write(var, cx.emit("add", [k, Const(1, T.I64)], T.I64, None, loc))
        for_masked(cx, arr, e, node, take)
        return out
    return gather(cx, lone_plan(cx, arr, e, node), node)


def fancy_store(cx, arr: Value, index, value, node) -> None:
    """``arr[index] = value`` for an array index: a scalar goes to every selected
    element; an array gives one value per selected element, in order (a mask of all of
    `arr`'s axes), or is broadcast to the indexing result (an integer array, a 1-d mask
    of an array of more axes)."""
    e = index_expr(cx, arr, index, node)
    if not (isinstance(e.dtype, T.BoolType) and e.ndim == arr.type.ndim):
        return scatter(cx, lone_plan(cx, arr, e, node), value, node)
    loc = cx.loc(node)
    scalar = not is_array_like(value)
    v = cx.item_value(value, arr.type.dtype, node) if scalar else None
    src = None if scalar else (elementwise.materialize(cx, value, node) if isinstance(value, ArrayExpr) else value)
    if src is not None and src.type.ndim != 1:
        cx.error("the values assigned through a boolean mask must be a scalar or a 1-d array here", node)
    # NumPy reads the index and the values whole before it writes: where they may be
    # `arr`'s own memory (`b[b] = 4`, `a[m] = a[:2]`), they are copied first.
    if src is not None and _root(src) is _root(arr):
        src = cx.copy_array(src, node)
    if elementwise.may_overlap(cx, arr, e):
        e = elementwise.as_expr(cx, elementwise.materialize(cx, e, node), node)
    if src is not None:
        n = count_true(cx, arr, e, node)
        have = cx.emit("dim", [src], T.I64, 0, loc)
        one = cx.cmp("eq", have, Const(1, T.I64), node)      # one value goes everywhere
        bad = cx.emit("and", [cx.cmp("ne", have, n, node), cx.emit("not", [one], T.BOOL, None, loc)],
                      T.BOOL, None, loc)
        cx.raise_if(bad, "ValueError",
                    "NumPy boolean array indexing assignment cannot assign %lld input values to the "
                    "%lld output values where the mask is true", node, [have, n])
    var = cx.new_var("k", Const(0, T.I64))

    def put(idx):
        if src is None:
            cx.emit("store", [arr, v, *idx], T.NONE, None, loc)
            return
        k = cx.read(var, loc)
        x = cx.emit("load", [src, cx.emit("select", [one, Const(0, T.I64), k], T.I64, None, loc)],
                    src.type.dtype, None, loc)
        cx.emit("store", [arr, cx.cast_element(x, arr.type.dtype, node), *idx], T.NONE, None, loc)
        cx.write(var, cx.emit("add", [k, Const(1, T.I64)], T.I64, None, loc))
    for_masked(cx, arr, e, node, put)
