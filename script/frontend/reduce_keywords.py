"""The ``keepdims=`` and ``dtype=`` keywords of NumPy's reductions (numpy_reduce.py).

Each wraps the reduction's own handler: the keywords are taken off the call (a copy of the
`ast.Call` without them, the same object in every build round), the array argument is
evaluated once and handed to the handler through `pre_evaluated`, and the result adjusted:

- ``keepdims=True`` (``sum``, ``prod``, ``min``, ``max``, ``mean``, ``std``, ``var``,
  ``any``, ``all``, ``argmin``, ``argmax``; `np.` and method forms): the reduced axis comes
  back with length 1 — a view of the reduction along an axis with a new axis in its place, or
  a new array of shape ``(1,) * ndim`` holding the whole reduction — so the result broadcasts
  against the array (``a - a.mean(axis=1, keepdims=True)``). A constant, True or False.
- ``dtype=`` (``sum``, ``prod``, ``cumsum``, ``cumprod``; ``mean`` with a float dtype): the
  elements are cast to the dtype (NumPy's unsafe cast, ``astype``) and reduced in it; the
  result has that dtype. Sums and products of integers wrap as NumPy's do (the int64 sum of
  int32 values cast back to int32 is the int32 sum). Difference: NumPy casts in buffers of
  8192 elements and adds the buffers' float sums in order; compiled code sums the cast array
  pairwise as a whole, so float sums of longer arrays differ by rounding.

``out=``, ``initial=`` and ``where=`` stay unsupported (the handler's CompileError names them).
"""

from __future__ import annotations

import ast

from script.frontend.elementwise import ArrayExpr
from script.frontend import elementwise, numpy_alloc, numpy_reduce
from script.frontend.numpy_reduce import sum_type
from script.frontend.registry import CALLS, METHODS, numpy_function
from script.frontend.unknown import UNKNOWN, Undef, Unknown
from script.ir import types as T
from script.ir.core import Const, Value

_KEEPDIMS = ("sum", "prod", "min", "max", "amin", "amax", "mean", "std", "var", "any", "all",
             "argmin", "argmax")
_DTYPE = ("sum", "prod", "mean", "cumsum", "cumprod")


def _stripped(self, node: ast.Call) -> ast.Call:
    """`node` without its keepdims/dtype keywords: one object per call site across rounds
    (loop hints are keyed by node identity, source.synthetic_loop)."""
    calls = self.info.__dict__.setdefault("_reduce_stripped_calls", {})
    found = calls.get(id(node))
    if found is None or found[0] is not node:
        kept = [k for k in node.keywords if k.arg not in ("keepdims", "dtype")]
        call = ast.copy_location(ast.Call(func=node.func, args=node.args, keywords=kept), node)
        call.end_lineno, call.end_col_offset = node.end_lineno, node.end_col_offset
        found = calls[id(node)] = (node, call)
    return found[1]


def _keywords(self, node: ast.Call, name: str):
    """(keepdims, dtype node) of the call; a CompileError for one the reduction lacks."""
    keep, dtype = False, None
    for k in node.keywords:
        if k.arg == "keepdims":
            if name not in _KEEPDIMS:
                self.error(f"numpy.{name}() got an unsupported keyword argument 'keepdims'", k.value)
            v = self.expr(k.value)
            if not (isinstance(v, Const) and isinstance(v.type, (T.BoolType, T.IntType))):
                self.error("keepdims must be a constant (True or False) in compiled code", k.value)
            keep = bool(v.value)
        elif k.arg == "dtype":
            if name not in _DTYPE:
                self.error(f"numpy.{name}() got an unsupported keyword argument 'dtype'", k.value)
            dtype = k.value
    return keep, dtype


def _array_node(node: ast.Call):
    if node.args:
        return node.args[0]
    return next((k.value for k in node.keywords if k.arg == "a"), None)


def _axis_node(node: ast.Call, position: int):
    if len(node.args) > position:
        return node.args[position]
    return next((k.value for k in node.keywords if k.arg == "axis"), None)


def _lower(self, node: ast.Call, name: str, arr: Value | None, handler, method: bool) -> Value:
    if not any(k.arg in ("keepdims", "dtype") for k in node.keywords):
        return handler(self, arr, node) if method else handler(self, node, name)
    keep, dtype_node = _keywords(self, node, name)
    call = _stripped(self, node)
    if not keep and dtype_node is None:
        return handler(self, arr, call) if method else handler(self, call, name)
    a_node = None
    if not method:
        a_node = _array_node(node)
        if a_node is None:
            return handler(self, call, name)        # the handler reports the missing argument
        arr = self.expr(a_node)
    if isinstance(arr.type, Unknown):
        return Undef(UNKNOWN, self.loc(node))
    if not isinstance(arr.type, T.ArrayType):
        self.error(f"numpy.{name}() of a {arr.type} is not supported in compiled code (it takes an array)", node)
    dtype = None
    if dtype_node is not None:
        dtype = numpy_alloc.dtype_arg(self, dtype_node, None)
        if name == "mean" and dtype is not None and not isinstance(dtype, T.FloatType):
            self.error("numpy.mean(dtype=...) takes a float dtype in compiled code", dtype_node)
        if dtype is not None and dtype != arr.type.dtype:
            arr = numpy_alloc.copy_array(self, arr, node, dtype)
    ndim = arr.type.ndim
    if method:
        result = handler(self, arr, call)
    else:
        self.pre_evaluated[id(a_node)] = arr
        result = handler(self, call, name)
    if isinstance(result, ArrayExpr):
        result = elementwise.materialize(self, result, node)
    if isinstance(getattr(result, "type", None), Unknown):
        return result
    if dtype is not None and sum_type(dtype) != dtype:
        if isinstance(result.type, T.ArrayType):
            result = numpy_alloc.copy_array(self, result, node, dtype)
        else:
            result = numpy_alloc.cast_element(self, result, dtype, node)
    if keep:
        result = _keep_dims(self, result, ndim, _axis_node(node, 0 if method else 1), node)
    return result


def _keep_dims(self, result: Value, ndim: int, axis_node, node) -> Value:
    """The reduction `result` with its reduced axes back, of length 1."""
    axis = numpy_reduce.axis_arg(self, axis_node, ndim, node)
    if isinstance(result.type, T.ArrayType):
        return numpy_reduce.keep_axis(self, result, axis, node)
    out = numpy_alloc.alloc_array(self, result.type, [Const(1, T.I64)] * ndim, node)
    self.emit("store", [out, result, *[Const(0, T.I64)] * ndim], T.NONE, None, self.loc(node))
    return out


def _np_form(handler):
    return lambda self, node, name: _lower(self, node, name, None, handler, method=False)


def _method_form(name, handler):
    return lambda self, arr, node: _lower(self, node, name, arr, handler, method=True)


# The one owner of np.sum, a.sum() and the other reductions that take these keywords.
for _name in ("sum", "prod", "min", "max", "amin", "amax", "mean", "any", "all", "argmin", "argmax"):
    CALLS.register(numpy_function(_name), _np_form(numpy_reduce.np_reduce))
for _name in ("cumsum", "cumprod"):
    CALLS.register(numpy_function(_name), _np_form(numpy_reduce.np_cumulative))
    METHODS.register(("array", _name), _method_form(_name, numpy_reduce.method_cumulative))
for _name in ("sum", "prod", "min", "max", "mean", "any", "all", "argmin", "argmax"):
    METHODS.register(("array", _name), _method_form(_name, numpy_reduce.method_reduce))
for _name in ("std", "var"):
    CALLS.register(numpy_function(_name), _np_form(numpy_alloc.np_library))
    METHODS.register(("array", _name), _method_form(
        _name, lambda self, arr, node, _n=_name: numpy_alloc.array_method_other(self, arr, _n, node)))
