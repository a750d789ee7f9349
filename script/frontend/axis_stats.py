"""The ``axis=`` forms of NumPy functions the library (numpy_lib, numpy_stats) writes for the
whole array only, built in the frontend from its element-wise expressions and reductions,
where the axis is a constant (numpy_alloc.np_library routes them here):

- ``np.count_nonzero(a, axis)``: ``(a != 0).sum(axis)``, int64;
- ``np.ptp(a, axis)``: ``a.max(axis) - a.min(axis)`` in `a`'s dtype;
- ``np.average(a, axis, weights=None)``: ``a.mean(axis)`` without weights; with them
  NumPy's ``(a * w).sum(axis) / w.sum(axis)`` in ``result_type(a, w)`` (float64 at least for
  int and bool `a`), a 1-d `w` laid along `axis`; a zero weight sum raises NumPy's
  ``ZeroDivisionError``.
"""

from __future__ import annotations

from script.frontend import elementwise, numpy_reduce
from script.frontend.unknown import UNKNOWN, Undef, Unknown
from script.ir import types as T
from script.ir.core import Const, Value


def _array(low, a_node, name: str) -> Value:
    """The array argument of ``numpy.<name>(axis=...)`` (an Undef while it is not typed)."""
    arr = low.expr(a_node)
    if not isinstance(arr.type, (T.ArrayType, Unknown)):
        low.error(f"numpy.{name}(axis=...) takes an array here, not {arr.type}", a_node)
    return arr


def count_nonzero_axis(low, node) -> Value:
    a_node, axis_node = low.np_args(node, "count_nonzero", ("a", "axis"), 1)
    arr = _array(low, a_node, "count_nonzero")
    if isinstance(arr.type, Unknown):
        return Undef(UNKNOWN, low.loc(node))
    nonzero = elementwise.materialize(low, elementwise.ufunc_expr(low, "not_equal", [arr, Const(0, T.I64)], node), node)
    return numpy_reduce.reduce_value(low, nonzero, "sum", axis_node, node)


def ptp_axis(low, node) -> Value:
    a_node, axis_node = low.np_args(node, "ptp", ("a", "axis"), 1)
    arr = _array(low, a_node, "ptp")
    if isinstance(arr.type, Unknown):
        return Undef(UNKNOWN, low.loc(node))
    hi = numpy_reduce.reduce_value(low, arr, "max", axis_node, node)
    lo = numpy_reduce.reduce_value(low, arr, "min", axis_node, node)
    return numpy_reduce.as_value(low, elementwise.ufunc_expr(low, "subtract", [hi, lo], node), node)


def average_axis(low, node) -> Value:
    a_node, axis_node, w_node, returned = low.np_args(node, "average", ("a", "axis", "weights", "returned"), 1)
    if returned is not None:
        low.error("numpy.average(returned=...) is not supported in compiled code", returned)
    arr = _array(low, a_node, "average")
    w = low.expr(w_node) if w_node is not None else Const(None, T.NONE)
    if isinstance(arr.type, Unknown) or isinstance(w.type, Unknown):
        return Undef(UNKNOWN, low.loc(node))
    if isinstance(w.type, T.NoneType):
        return numpy_reduce.reduce_value(low, arr, "mean", axis_node, node)
    if not isinstance(w.type, T.ArrayType):
        low.error(f"numpy.average() takes an array of weights here, not {w.type}", w_node)
    axis = numpy_reduce.axis_arg(low, axis_node, arr.type.ndim, node)
    if axis is None:
        low.error("numpy.average(axis=None, weights=...) is the whole-array form: leave axis out", axis_node)
    loc = low.loc(node)
    text = "Shape of weights must be consistent with shape of a along specified axis."
    if w.type.ndim != arr.type.ndim:
        if w.type.ndim != 1:
            low.error(text, w_node)
        length = low.emit("dim", [w], T.I64, 0, loc)
        low.raise_if(low.cmp("ne", length, low.emit("dim", [arr], T.I64, axis, loc), node), "ValueError", text, node)
        w = _along(low, w, axis, arr.type.ndim, node)
    else:       # the same shape; else (1-d and 1-d) the length along the axis
        for k in range(arr.type.ndim):
            differ = low.cmp("ne", low.emit("dim", [w], T.I64, k, loc), low.emit("dim", [arr], T.I64, k, loc), node)
            low.raise_if(differ, "ValueError", text, node)
    base = arr if isinstance(arr.type.dtype, (T.FloatType, T.ComplexType)) else \
        elementwise.ufunc_expr(low, "multiply", [arr, Const(1.0, T.F64)], node)
    products = elementwise.materialize(low, elementwise.ufunc_expr(low, "multiply", [base, w], node), node)
    rt = products.type.dtype
    weights = w if w.type.dtype == rt else low.copy_array(w, node, rt)
    total = numpy_reduce.reduce_value(low, products, "sum", axis_node, node)
    scale = numpy_reduce.reduce_value(low, weights, "sum", axis_node, node)
    zero = elementwise.ufunc_expr(low, "equal", [scale, Const(0.0, T.F64)], node)
    hit = numpy_reduce.reduce_value(low, elementwise.materialize(low, zero, node), "any", None, node) if zero.ndim else \
        numpy_reduce.as_value(low, zero, node)
    low.raise_if(hit, "ZeroDivisionError", "Weights sum to zero, can't be normalized", node)
    return numpy_reduce.as_value(low, elementwise.ufunc_expr(low, "true_divide", [total, scale], node), node)


def _along(low, w: Value, axis: int, ndim: int, node) -> Value:
    """A view of 1-d `w` with length-1 axes around it, its own at `axis` of `ndim`."""
    loc = low.loc(node)
    operands, letters = [w], ""
    for k in range(ndim):
        if k == axis:
            operands += [Const(0, T.I64), low.emit("dim", [w], T.I64, 0, loc), Const(1, T.I64)]
            letters += "s"
        else:
            letters += "n"
    return low.emit("view", operands, T.ArrayType(w.type.dtype, ndim, "A"), letters, loc)
