"""Arrays built from several values: ``np.array([...])`` of a list literal, ``np.asarray``,
``np.concatenate``, ``np.stack``, ``np.vstack``, ``np.hstack``; and ``np.transpose``.

Functions over the lowering `cx`. The sequences these take are tuple or
list literals (or tuple values) written at the call: their length is known when compiling.
"""

from __future__ import annotations

import ast

from script.frontend.elementwise import ArrayExpr, numpy_operand
from script.frontend.registry import CALLS, numpy_function
from script.ir import types as T
from script.ir.core import Const, Value
from script.frontend import elementwise


def sequence_values(cx, seq_node, name: str) -> list[Value]:
    """The values of a tuple/list literal or a tuple value given to numpy.`name`."""
    if isinstance(seq_node, (ast.Tuple, ast.List)):
        return [cx.expr(e) for e in seq_node.elts]
    v = cx.expr(seq_node)
    if isinstance(v.type, T.TupleType):
        return [cx.tuple_item(v, Const(k, T.I64), seq_node, seq_node) for k in range(len(v.type.elems))]
    if isinstance(v.type, T.ArrayType):
        return [v]
    cx.error(f"numpy.{name}() takes a tuple or list of arrays here, not {v.type}", seq_node)


def result_dtype(cx, values: list[Value], node) -> T.Type:
    import numpy as np
    from script.frontend.typeinfer import dtype_to_type
    spec = []
    for v in values:
        if not isinstance(v.type, T.ArrayType) and not v.type.is_numeric():
            cx.error(f"cannot make an array of {v.type}", node)
        spec.append(numpy_operand(elementwise.as_expr(cx, v, node), as_value=True))
    if all(not isinstance(s, np.dtype) for s in spec):      # only Python scalars: NumPy's defaults
        if any(isinstance(s, complex) for s in spec):
            return T.C128
        return T.F64 if any(isinstance(s, float) for s in spec) else T.I64
    return dtype_to_type(np.result_type(*spec))

# ---- np.array -----------------------------------------------------------------------


def np_array(cx, node, name):
    obj, dtype = cx.np_args(node, name, ("object", "dtype"), 1)
    if isinstance(obj, (ast.List, ast.Tuple)) and obj.elts and all(isinstance(e, (ast.List, ast.Tuple))
                                                                     for e in obj.elts):
        rows = [[cx.expr(x) for x in e.elts] for e in obj.elts]
        width = len(rows[0])
        if any(len(r) != width for r in rows):
            cx.error("setting an array element with a sequence: the nested lists have different "
                     "lengths", obj)
        flat = [x for r in rows for x in r]
        shape = [len(rows), width]
    elif isinstance(obj, (ast.List, ast.Tuple)):
        flat = [cx.expr(e) for e in obj.elts]
        shape = [len(flat)]
        if any(isinstance(v.type, T.ArrayType) for v in flat):
            return np_stack_values(cx, flat, 0, node, cx.dtype_arg(dtype, None))
    else:
        v = cx.expr(obj)
        if isinstance(v.type, T.ArrayType):
            return v if name == "asarray" and dtype is None else cx.copy_array(
                v, node, cx.dtype_arg(dtype, v.type.dtype))
        if isinstance(v.type, T.ListType) and isinstance(cx.read_type(v), T.ArrayType):
            cx.pre_evaluated[id(obj)] = v
            rows = list_join(cx, obj, name, node, "array_of_rows")
            return rows if dtype is None else cx.copy_array(rows, node, cx.dtype_arg(dtype, None))
        if isinstance(v.type, T.ListType):
            return cx.list_to_array(v, cx.dtype_arg(dtype, None), node)
        if isinstance(v.type, T.TupleType) and v.type.elems:
            return tuple_to_array(cx, v, cx.dtype_arg(dtype, None), node)
        cx.error(f"numpy.{name}() of a {v.type} is not supported in compiled code (give a list "
                 "literal or an array)", obj)
    if not flat:
        t = cx.dtype_arg(dtype, T.F64)
    else:
        t = cx.dtype_arg(dtype, None) or result_dtype(cx, flat, node)
    out = cx.alloc_array(t, [Const(d, T.I64) for d in shape], node)
    for k, v in enumerate(flat):
        idx = [Const(k // shape[1], T.I64), Const(k % shape[1], T.I64)] if len(shape) == 2 else [Const(k, T.I64)]
        cx.emit("store", [out, cx.item_value(v, t, node), *idx], T.NONE, None, cx.loc(node))
    return out


def tuple_to_array(cx, v: Value, dtype: T.Type | None, node) -> Value:
    """`np.array(t)` of a tuple of numbers: a new 1-d array of its elements, of `dtype`
    or the type NumPy gives them."""
    loc = cx.loc(node)
    if not all(e.is_numeric() for e in v.type.elems):
        cx.error(f"an array of a {v.type} is not supported in compiled code (numbers only)", node)
    flat = [cx.emit("extract", [v], e, k, loc) for k, e in enumerate(v.type.elems)]
    t = dtype or result_dtype(cx, flat, node)
    out = cx.alloc_array(t, [Const(len(flat), T.I64)], node)
    for k, x in enumerate(flat):
        cx.emit("store", [out, cx.item_value(x, t, node), Const(k, T.I64)], T.NONE, None, loc)
    return out

# ---- joining arrays -----------------------------------------------------------------


def list_join(cx, seq_node, name: str, node, fn_name: str, axis_node=None):
    """`numpy.name` of a list value of arrays (numpy_lists.py), or None when `seq_node`
    is a literal or holds no such list; only the default axis."""
    if isinstance(seq_node, (ast.Tuple, ast.List)):
        return None
    v = cx.lazy(seq_node)
    if not (isinstance(getattr(v, "type", None), T.ListType) and isinstance(cx.read_type(v), T.ArrayType)):
        cx.pre_evaluated[id(seq_node)] = v
        return None
    if axis_node is not None and not (isinstance(axis_node, ast.Constant) and axis_node.value == 0):
        cx.error(f"numpy.{name}() of a list built at run time takes axis 0 only in compiled code", axis_node)
    from script.lib.numpy import numpy_lists
    cx.pre_evaluated[id(seq_node)] = v
    call = ast.copy_location(ast.Call(ast.Name(fn_name, ast.Load()), [seq_node], []), node)
    return cx.call_script(cx.ctx.info_for(getattr(numpy_lists, fn_name)), call)


def np_concatenate(cx, node, name):
    seq, axis = cx.np_args(node, name, ("arrays", "axis"), 1)
    joined = list_join(cx, seq, name, node, "concatenate_rows", axis)
    if joined is not None:
        return joined
    parts = sequence_values(cx, seq, name)
    return concatenate_values(cx, parts, const_axis(cx, axis, parts, 0, node), node)


def np_stack(cx, node, name):
    seq, axis = cx.np_args(node, name, ("arrays", "axis"), 1)
    joined = list_join(cx, seq, name, node, "stack_rows", axis)
    if joined is not None:
        return joined
    parts = sequence_values(cx, seq, name)
    return np_stack_values(cx, parts, const_axis(cx, axis, parts, 0, node, extra=1), node)


def np_vstack(cx, node, name):
    (seq,) = cx.np_args(node, name, ("tup",), 1)
    v = cx.lazy(seq) if not isinstance(seq, (ast.Tuple, ast.List)) else None
    if v is not None:
        cx.pre_evaluated[id(seq)] = v
        if isinstance(getattr(v, "type", None), T.ListType) and isinstance(cx.read_type(v), T.ArrayType):
            rows = "stack_rows" if cx.read_type(v).ndim == 1 else "concatenate_rows"
            return list_join(cx, seq, name, node, rows)
    parts = sequence_values(cx, seq, name)
    if all(p.type.ndim == 1 for p in arrays_of(cx, parts, name, node)):
        return np_stack_values(cx, parts, 0, node)
    return concatenate_values(cx, parts, 0, node)


def np_hstack(cx, node, name):
    (seq,) = cx.np_args(node, name, ("tup",), 1)
    v = cx.lazy(seq) if not isinstance(seq, (ast.Tuple, ast.List)) else None
    if v is not None:
        cx.pre_evaluated[id(seq)] = v
        if isinstance(getattr(v, "type", None), T.ListType) and isinstance(cx.read_type(v), T.ArrayType):
            if cx.read_type(v).ndim != 1:
                cx.error("numpy.hstack() of a list built at run time takes 1-d arrays in compiled code", seq)
            return list_join(cx, seq, name, node, "concatenate_rows")
    parts = arrays_of(cx, sequence_values(cx, seq, name), name, node)
    return concatenate_values(cx, parts, 0 if parts[0].type.ndim == 1 else 1, node)


def np_column_stack(cx, node, name):
    """1-d arrays as columns, 2-d ones as they are, joined along axis 1."""
    (seq,) = cx.np_args(node, name, ("tup",), 1)
    parts = arrays_of(cx, sequence_values(cx, seq, name), name, node)
    loc = cx.loc(node)
    columns = [p if p.type.ndim != 1 else cx.emit(
        "view", [p, Const(0, T.I64), cx.emit("dim", [p], T.I64, 0, loc), Const(1, T.I64)],
        T.ArrayType(p.type.dtype, 2, "A"), "sn", loc) for p in parts]       # p[:, None]
    return concatenate_values(cx, columns, 1, node)


def arrays_of(cx, parts, name, node) -> list[Value]:
    if not parts:
        cx.error("need at least one array to concatenate", node)
    for p in parts:
        if not isinstance(p.type, T.ArrayType):
            cx.error(f"numpy.{name}() joins arrays; got a {p.type}", node)
    return parts


def const_axis(cx, axis_node, parts, default: int, node, extra: int = 0) -> int:
    ndim = parts[0].type.ndim + extra if parts and isinstance(parts[0].type, T.ArrayType) else 1
    if axis_node is None:
        return default
    v = cx.expr(axis_node)
    if not (isinstance(v, Const) and isinstance(v.type, T.IntType)):
        cx.error("axis must be an int constant in compiled code", axis_node)
    if not -ndim <= v.value < ndim:
        cx.error(f"axis {v.value} is out of bounds for array of dimension {ndim}", axis_node)
    return v.value % ndim


def concatenate_values(cx, parts: list[Value], axis: int, node, dtype=None) -> Value:
    """The arrays of `parts` (one rank) joined along `axis`."""
    parts = arrays_of(cx, parts, "concatenate", node)
    ndim = parts[0].type.ndim
    if any(p.type.ndim != ndim for p in parts):
        cx.error("all the input arrays must have same number of dimensions", node)
    loc = cx.loc(node)
    dims = cx.dims_of(parts[0], node)
    total: Value = dims[axis]
    for p in parts[1:]:
        pd = cx.dims_of(p, node)
        for k in range(ndim):
            if k != axis:
                cx.raise_if(cx.cmp("ne", pd[k], dims[k], node), "ValueError",
                            "all the input array dimensions except for the concatenation axis must "
                            f"match exactly, but along dimension {k}, the array at index 0 has size "
                            "%lld and the array at index 1 has size %lld", node, [dims[k], pd[k]])
        total = cx.emit("add", [total, pd[axis]], T.I64, None, loc)
    out = cx.alloc_array(dtype or result_dtype(cx, parts, node), dims[:axis] + [total] + dims[axis + 1:],
                                  node)
    offset: Value = Const(0, T.I64)
    for p in parts:
        copy_shifted(cx, out, p, axis, offset, node)
        offset = cx.emit("add", [offset, cx.emit("dim", [p], T.I64, axis, loc)], T.I64, None, loc)
    return out


def copy_shifted(cx, out: Value, part: Value, axis: int, offset: Value, node) -> None:
    loc = cx.loc(node)

    def body(idx):
        v = cx.emit("load", [part, *idx], part.type.dtype, None, loc)
        at = list(idx)
        at[axis] = cx.emit("add", [idx[axis], offset], T.I64, None, loc)
        cx.emit("store", [out, cx.cast_element(v, out.type.dtype, node), *at], T.NONE, None, loc)
    cx.loop_nest(node, cx.dims_of(part, node), body)


def np_stack_values(cx, parts: list[Value], axis: int, node, dtype=None) -> Value:
    """The arrays of `parts` (one shape) stacked along a new `axis`."""
    parts = arrays_of(cx, parts, "stack", node)
    loc = cx.loc(node)
    dims = cx.dims_of(parts[0], node)
    for p in parts[1:]:
        if p.type.ndim != parts[0].type.ndim:
            cx.error("all input arrays must have the same shape", node)
        bad: Value = Const(False, T.BOOL)
        for a, b in zip(dims, cx.dims_of(p, node)):
            bad = cx.emit("or", [bad, cx.cmp("ne", a, b, node)], T.BOOL, None, loc)
        cx.raise_if(bad, "ValueError", "all input arrays must have the same shape", node)
    out_dims = dims[:axis] + [Const(len(parts), T.I64)] + dims[axis:]
    out = cx.alloc_array(dtype or result_dtype(cx, parts, node), out_dims, node)
    for k, p in enumerate(parts):
        def body(idx, p=p, k=k):
            v = cx.emit("load", [p, *idx], p.type.dtype, None, loc)
            at = idx[:axis] + [Const(k, T.I64)] + idx[axis:]
            cx.emit("store", [out, cx.cast_element(v, out.type.dtype, node), *at], T.NONE, None, loc)
        cx.loop_nest(node, dims, body)
    return out


def np_transpose(cx, node, name):
    (a,) = cx.np_args(node, name, ("a",), 1)
    v = cx.expr(a)
    if isinstance(v, ArrayExpr) or not isinstance(v.type, T.ArrayType):
        cx.error("numpy.transpose() takes an array", a)
    return v if v.type.ndim == 1 else cx.emit("transpose", [v], v.type.with_layout("A"), None, cx.loc(node))


def np_swapaxes(cx, node, name):
    """``np.swapaxes(a, i, j)`` and ``np.moveaxis(a, source, destination)`` of a 1-d or 2-d
    array with constant axes: `a` itself, or its transposed view."""
    params = ("a", "axis1", "axis2") if name == "swapaxes" else ("a", "source", "destination")
    a, i, j = cx.np_args(node, name, params, 3)
    v = cx.expr(a)
    if isinstance(v, ArrayExpr) or not isinstance(v.type, T.ArrayType) or v.type.ndim > 2:
        cx.error(f"numpy.{name}() takes a 1-d or 2-d array in compiled code", a)
    axes = []
    for n in (i, j):
        negative = isinstance(n, ast.UnaryOp) and isinstance(n.op, ast.USub)
        c = n.operand if negative else n
        if not (isinstance(c, ast.Constant) and type(c.value) is int):
            cx.error(f"numpy.{name}() takes constant int axes in compiled code", n)
        k = -c.value if negative else c.value
        if not -v.type.ndim <= k < v.type.ndim:
            cx.error(f"axis {k} is out of bounds for array of dimension {v.type.ndim}", n)
        axes.append(k % v.type.ndim)
    if axes[0] == axes[1]:
        return v
    return cx.emit("transpose", [v], v.type.with_layout("A"), None, cx.loc(node))


for _name, _handler in (
        ("column_stack", np_column_stack),
        ("array", np_array), ("asarray", np_array),
        ("concatenate", np_concatenate), ("stack", np_stack),
        ("vstack", np_vstack), ("hstack", np_hstack),
        ("transpose", np_transpose), ("swapaxes", np_swapaxes),
        ("moveaxis", np_swapaxes)):
    CALLS.register(numpy_function(_name), _handler)
