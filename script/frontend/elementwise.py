"""Element-wise array expressions: operators, comparisons and NumPy ufuncs on arrays, with
NumPy's broadcasting, result dtypes and scalar semantics, fused into one loop.

An operation with an array operand does not compute anything at once: it returns an
`ArrayExpr`, a tree whose leaves are arrays and scalars. The tree becomes code only where
its value is needed, and then as one loop nest that computes each element of the whole
expression, so ``np.tanh(w @ x + u @ h + b)`` makes one array, not three:

- `materialize`: a new array (an assignment to a name, an argument, a return value);
- `store_expr`: straight into an existing array or view (``out[t, :] = a * b``, ``a += b``),
  with no temporary unless the destination may overlap a leaf it would overwrite first.

Dtypes are NumPy's, asked of NumPy itself (`ufunc.resolve_dtypes`), with Python scalars
weak as NEP 50 says (an ``int``/``float``/``bool`` value of compiled code counts as a Python
scalar; a sized one such as ``script.f32`` as a NumPy scalar). Element semantics are
NumPy's, not Python's: integer division or modulo by zero gives 0 and float division by
zero inf or NaN, never an exception; integers to negative integer powers raise ValueError.
"""

from __future__ import annotations

import ast
import math
from dataclasses import dataclass, replace

from script.frontend import complex_arrays, complex_lowering
from script.frontend.registry import ANY, BINOPS, CALLS, METHODS, numpy_function
from script.ir import types as T
from script.ir.core import Const, Value
from script.ir.ops import MAX_MESSAGE_ARGS

_BINOPS = {ast.Add: "add", ast.Sub: "subtract", ast.Mult: "multiply", ast.Div: "true_divide",
           ast.FloorDiv: "floor_divide", ast.Mod: "remainder", ast.Pow: "power",
           ast.BitAnd: "bitwise_and", ast.BitOr: "bitwise_or", ast.BitXor: "bitwise_xor",
           ast.LShift: "left_shift", ast.RShift: "right_shift"}
_CMPOPS = {ast.Eq: "equal", ast.NotEq: "not_equal", ast.Lt: "less", ast.LtE: "less_equal",
           ast.Gt: "greater", ast.GtE: "greater_equal"}
_UNARY = {ast.USub: "negative", ast.UAdd: "positive", ast.Invert: "invert"}
_CMP_PRED = {"equal": "eq", "not_equal": "ne", "less": "lt", "less_equal": "le",
             "greater": "gt", "greater_equal": "ge"}
_SIMPLE = {"add": "add", "subtract": "sub", "multiply": "mul", "true_divide": "div",
           "bitwise_and": "and", "bitwise_or": "or", "bitwise_xor": "xor",
           "left_shift": "shl", "right_shift": "shr"}
# ufunc name -> math op, for the float functions.
_MATH = {"sqrt": "sqrt", "exp": "exp", "exp2": "exp2", "expm1": "expm1", "log": "log",
         "log2": "log2", "log10": "log10", "log1p": "log1p", "sin": "sin", "cos": "cos",
         "tan": "tan", "arcsin": "asin", "arccos": "acos", "arctan": "atan", "sinh": "sinh",
         "cosh": "cosh", "tanh": "tanh", "arcsinh": "asinh", "arccosh": "acosh",
         "arctanh": "atanh", "floor": "floor", "ceil": "ceil", "trunc": "trunc", "rint": "rint",
         "cbrt": "cbrt", "fabs": "fabs", "arctan2": "atan2", "hypot": "hypot",
         "copysign": "copysign", "fmod": "fmod", "nextafter": "nextafter"}
# Every ufunc (by NumPy name) element-wise expressions support.
UFUNCS = (set(_BINOPS.values()) | set(_CMPOPS.values()) | set(_UNARY.values()) | set(_MATH)
          | {"absolute", "minimum", "maximum", "fmin", "fmax", "isnan", "isinf", "isfinite",
             "square", "reciprocal", "sign", "logical_and", "logical_or", "logical_xor",
             "logical_not", "divide", "mod", "power", "conjugate"})
_ALIASES = {"divide": "true_divide", "mod": "remainder", "abs": "absolute"}


@dataclass(eq=False)
class ArrayExpr:
    """An element-wise expression not yet computed: `kind` is "leaf" (`value` an array),
    "scalar" (`value` a scalar, the same for every element) or "op" (`name` a ufunc or
    "where", applied to `args`); `dtype` the element type, `ndim` the rank, `shape` its
    lengths (i64 values computed where the node is built, so they dominate every use)."""

    kind: str
    dtype: T.Type
    ndim: int
    value: Value | None = None
    name: str = ""
    args: tuple = ()
    loop: tuple = ()        # "op": the loop's input types (NumPy's resolution)
    call: tuple = ()        # "op": the operands of the one NumPy call it computes, where
                            # that is not `args` (np.clip: a, a_min, a_max), for its errors
    shape: tuple = ()

    def leaf_nodes(self) -> list[ArrayExpr]:
        """The leaves, one for each array."""
        if self.kind == "leaf":
            return [self]
        out = []
        for a in self.args:
            for leaf in a.leaf_nodes():
                if all(leaf.value is not w.value for w in out):
                    out.append(leaf)
        return out

    def leaves(self) -> list[Value]:
        return [leaf.value for leaf in self.leaf_nodes()]


def is_array_like(v) -> bool:
    return isinstance(v, ArrayExpr) or isinstance(getattr(v, "type", None), T.ArrayType)


def as_expr(cx, v, node) -> ArrayExpr:
    if isinstance(v, ArrayExpr):
        return v
    if isinstance(v.type, T.ListType) and not isinstance(v.type, (T.ClassType, T.IterType)):
        v = cx.list_to_array(v, None, node)       # NumPy's array of a list operand
    if isinstance(v.type, T.ArrayType):
        return ArrayExpr("leaf", v.type.dtype, v.type.ndim, v, shape=tuple(cx.dims_of(v, node)))
    if not v.type.is_numeric():
        cx.error(f"cannot use a value of type {v.type} in an array expression", node)
    return ArrayExpr("scalar", v.type, 0, v)


def ufunc_expr(cx, name: str, operands: list, node, check: bool = True) -> ArrayExpr:
    """`name` (a ufunc of UFUNCS) applied element-wise to `operands` (arrays, scalars,
    expressions), with NumPy's result dtype. `check`: raise the call's errors here, where
    Python makes the call (`check_call`); else its caller checks it, as part of a bigger
    call (np.clip, ``a op= b``)."""
    name = _ALIASES.get(name, name)
    args = tuple(as_expr(cx, v, node) for v in operands)
    loop = resolve_loop(cx, name, args, node)
    ins = loop[:-1]
    if name in _CMP_PRED and any(_weak_int(a) and _narrow_int(t) for a, t in zip(args, ins)) \
            and all(not (isinstance(t, T.IntType) and not t.signed and t.bits == 64) for t in ins):
        # NumPy compares a Python int with an int array by value (`int8_array <= 255` is
        # all True), where the loop's type would wrap it
        ins = (T.I64,) * len(ins)
    ndim = max(a.ndim for a in args)
    e = ArrayExpr("op", loop[-1], ndim, name=name, args=args, loop=ins,
                  shape=tuple(broadcast_dims(cx, [a.shape for a in args], ndim, node)))
    if check:
        check_call(cx, e, node)
        if ndim and name == "power" and _may_raise(e):
            # NumPy computes the power whole where Python calls it, raising (part way)
            # before the calls around it check their shapes or run
            return as_expr(cx, materialize(cx, e, node), node)
    return e


def resolve_loop(cx, name: str, args, node) -> tuple:
    """The input and output element types of ufunc `name` on `args`, as NumPy resolves
    them (Python scalars weak)."""
    import numpy as np
    from script.frontend.typeinfer import dtype_to_type
    ufunc = getattr(np, name)
    spec = [numpy_operand(a) for a in args]
    try:
        dts = ufunc.resolve_dtypes(tuple(spec) + (None,) * ufunc.nout)
    except Exception as e:      # noqa: BLE001 - NumPy's own refusal, reported as is
        cx.error(f"numpy.{name} is not defined for {', '.join(str(a.dtype) for a in args)}: {e}", node)
    types = tuple(dtype_to_type(d) for d in dts)
    if None in types:
        cx.error(f"numpy.{name} of {', '.join(str(a.dtype) for a in args)} gives "
                 f"{', '.join(map(str, dts))}, which compiled code does not support", node)
    return types


def where_expr(cx, cond, x, y, node, t: T.Type | None = None) -> ArrayExpr:
    """``np.where(cond, x, y)``, in NumPy's dtype of `x` and `y` unless `t` is given."""
    import numpy as np
    from script.frontend.typeinfer import dtype_to_type
    c, a, b = (as_expr(cx, v, node) for v in (cond, x, y))
    if t is None:
        t = dtype_to_type(np.result_type(numpy_operand(a, True), numpy_operand(b, True)))
    ndim = max(c.ndim, a.ndim, b.ndim)
    e = ArrayExpr("op", t, ndim, name="where", args=(c, a, b), loop=(T.BOOL, t, t),
                  shape=tuple(broadcast_dims(cx, [c.shape, a.shape, b.shape], ndim, node)))
    check_call(cx, e, node)
    return e


def array_binop(cx, op: type, a, b, node, check: bool = True) -> ArrayExpr:
    name = _BINOPS.get(op)
    if name is None:
        cx.error(f"operator {op.__name__} is not supported on arrays", node)
    return ufunc_expr(cx, name, [a, b], node, check)


def array_compare(cx, op, a, b, node) -> ArrayExpr:
    name = _CMPOPS.get(type(op))
    if name is None:
        cx.error(f"comparison {type(op).__name__} is not supported on arrays", node)
    return ufunc_expr(cx, name, [a, b], node)


def array_unary(cx, op, v, node) -> ArrayExpr:
    if isinstance(op, ast.Not):
        cx.error("the truth value of an array with more than one element is ambiguous; "
                 "use a.any() or a.all()", node)
    e = as_expr(cx, v, node)
    if isinstance(op, ast.Invert) and isinstance(e.dtype, T.BoolType):
        return ufunc_expr(cx, "logical_not", [e], node)
    return ufunc_expr(cx, _UNARY[type(op)], [e], node)

# ---- computing elements ---------------------------------------------------------------


def element(cx, e: ArrayExpr, idx: list[Value], out_ndim: int, node, stretch: dict | None = None) -> Value:
    """The element of `e` at output index `idx` (broadcast: a leaf of lower rank sees
    the trailing indices; an axis of length 1 the index 0 where `stretch`, the marks of
    `stretch_marks`, says it is stretched)."""
    loc = cx.loc(node)
    if e.kind == "scalar":
        return e.value
    if e.kind == "leaf":
        arr = e.value
        # a leaf of more axes than the output (its extra ones of length 1) reads index 0 there
        mine = idx[out_ndim - e.ndim:] if e.ndim <= out_ndim else \
            [Const(0, T.I64)] * (e.ndim - out_ndim) + list(idx)
        marks = (stretch or {}).get(id(arr))
        if marks is not None:
            mine = [cx.emit("select", [s, Const(0, T.I64), i], T.I64, None, loc) if s is not None else i
                    for s, i in zip(marks, mine)]
        return cx.emit("load", [arr, *mine], arr.type.dtype, None, loc)
    vals = [element(cx, a, idx, out_ndim, node, stretch) for a in e.args]
    vals = [cx.cast_element(v, t, node) for v, t in zip(vals, e.loop)]
    if e.name == "power" and isinstance(e.dtype, T.FloatType) and e.args[1].kind == "scalar":
        # NumPy's float power loop with one exponent for all elements takes 0.5 as sqrt:
        # (-inf) ** 0.5 is nan and (-0.0) ** 0.5 is -0.0 there, inf and 0.0 for pow
        half = cx.cmp("eq", vals[1], Const(0.5, e.dtype), node)
        root = cx.emit("math", [vals[0]], e.dtype, "sqrt", loc)
        if isinstance(half, Const):
            return root if half.value else ufunc_scalar(cx, e.name, vals, e.dtype, node)
        return cx.emit("select", [half, root, ufunc_scalar(cx, e.name, vals, e.dtype, node)], e.dtype,
                       None, loc)
    return ufunc_scalar(cx, e.name, vals, e.dtype, node)


def ufunc_scalar(cx, name: str, vals: list[Value], out: T.Type, node) -> Value:
    """One element of ufunc `name`: `vals` already of the loop's input types."""
    loc = cx.loc(node)
    def emit(op, xs, t=None, attr=None):
        return cx.emit(op, xs, t or xs[1 if op == "select" else 0].type, attr, loc)
    x = vals[0]
    t = x.type
    is_bool = isinstance(t, T.BoolType)
    if name == "where":
        return emit("select", vals, vals[1].type)
    if any(isinstance(v.type, T.ComplexType) for v in vals):
        return complex_arrays.complex_ufunc(cx, name, vals, out, node)
    if name == "conjugate":
        return x
    if name in _CMP_PRED:
        if vals[0].type != vals[1].type:
            return mixed_sign_cmp(cx, _CMP_PRED[name], vals[0], vals[1], node)
        return emit("cmp", vals, T.BOOL, _CMP_PRED[name])
    if is_bool and name in ("add", "multiply", "bitwise_or", "bitwise_and", "bitwise_xor",
                            "maximum", "minimum", "logical_or", "logical_and", "logical_xor"):
        op = {"add": "or", "multiply": "and", "maximum": "or", "minimum": "and", "bitwise_or": "or",
              "bitwise_and": "and", "bitwise_xor": "xor", "logical_or": "or", "logical_and": "and",
              "logical_xor": "xor"}[name]
        return emit(op, vals)
    if name in ("logical_and", "logical_or", "logical_xor"):
        a, b = (cx.truth(v, node) for v in vals)
        return emit({"logical_and": "and", "logical_or": "or", "logical_xor": "xor"}[name], [a, b])
    if name == "logical_not":
        return emit("not", [cx.truth(x, node)])
    if name in _SIMPLE:
        if is_bool:
            cx.error(f"numpy boolean {name} is not supported, use the bitwise or logical "
                     "operators instead", node)
        return emit(_SIMPLE[name], vals)
    if name in ("floor_divide", "remainder"):
        return np_divmod_part(cx, name, vals[0], vals[1], node)
    if name == "power":
        return np_power(cx, vals[0], vals[1], node)
    if name == "negative":
        if is_bool:
            cx.error("the numpy boolean negative, the `-` operator, is not supported, use "
                     "the `~` operator or the logical_not function instead", node)
        return emit("neg", [x])
    if name == "positive":
        return x
    if name == "invert":
        return emit("not" if is_bool else "invert", [x])
    if name == "absolute":
        return x if is_bool or (isinstance(t, T.IntType) and not t.signed) else emit("abs", [x])
    if name == "square":
        return emit("mul", [x, x])
    if name == "reciprocal":
        if isinstance(t, T.FloatType):
            return emit("div", [Const(1.0, t), x])
        return np_divmod_part(cx, "floor_divide", Const(1, t), x, node, truncate=True)
    if name == "sign":
        pos = emit("convert", [cx.cmp("gt", x, Const(0, t), node)], t)
        neg = emit("convert", [cx.cmp("lt", x, Const(0, t), node)], t)
        r = emit("sub", [pos, neg])
        if isinstance(t, T.FloatType):
            r = emit("select", [emit("cmp", [x, x], T.BOOL, "ne"), x, r])
        return r
    if name in ("minimum", "maximum", "fmin", "fmax"):
        a, b = vals
        r = emit("min" if name in ("minimum", "fmin") else "max", [a, b])
        if isinstance(t, T.FloatType):
            a_nan = emit("cmp", [a, a], T.BOOL, "ne")
            b_nan = emit("cmp", [b, b], T.BOOL, "ne")
            if name in ("minimum", "maximum"):      # NaN from either side wins
                r = emit("select", [a_nan, a, emit("select", [b_nan, b, r])])
            else:                                   # fmin/fmax: the other side wins
                r = emit("select", [a_nan, b, emit("select", [b_nan, a, r])])
        return r
    if name in ("isnan", "isinf", "isfinite"):
        return complex_lowering.float_test(cx, name, x, loc)
    if name in ("floor", "ceil", "trunc") and not isinstance(t, T.FloatType):
        return x                                    # NumPy 2's int and bool loops: the value
    if name == "fmod" and not isinstance(t, T.FloatType):
        return int_fmod(cx, vals[0], vals[1], node)
    if name in _MATH:
        return emit("math", vals, None, _MATH[name])
    cx.error(f"numpy.{name} is not supported on arrays in compiled code", node)


def int_fmod(cx, a: Value, b: Value, node) -> Value:
    """NumPy's fmod of ints: C's remainder, the sign of `a` (0 by zero)."""
    loc = cx.loc(node)
    t = a.type
    r = np_divmod_part(cx, "remainder", a, b, node)   # the sign of `b`, 0 by zero
    if not t.signed:
        return r
    differ = cx.emit("xor", [cx.cmp("lt", a, Const(0, t), node), cx.cmp("lt", b, Const(0, t), node)],
                     T.BOOL, None, loc)
    fix = cx.emit("and", [differ, cx.cmp("ne", r, Const(0, t), node)], T.BOOL, None, loc)
    return cx.emit("select", [fix, cx.emit("sub", [r, b], t, None, loc), r], t, None, loc)


def mixed_sign_cmp(cx, pred: str, a: Value, b: Value, node) -> Value:
    """NumPy's exact comparison of an int64 and a uint64 (its ``qQ->?`` loops): a
    negative signed operand is below every unsigned one; else both compare as uint64."""
    loc = cx.loc(node)
    signed, other = (a, b) if a.type.signed else (b, a)
    negative = cx.cmp("lt", signed, Const(0, signed.type), node)
    both = [cx.emit("convert", [v], T.U64, None, loc) if v is signed else v for v in (a, b)]
    # `a pred b` where the signed side is negative: that side is the smaller
    when_negative = pred in (("lt", "le", "ne") if signed is a else ("gt", "ge", "ne"))
    return cx.emit("select", [negative, Const(when_negative, T.BOOL), cx.cmp(pred, *both, node)],
                   T.BOOL, None, loc)


def np_divmod_part(cx, name: str, a: Value, b: Value, node, truncate: bool = False) -> Value:
    """NumPy's floor_divide or remainder of one element: by zero, 0 for ints, and for
    floats ``a / 0`` (floor_divide) or NaN (remainder)."""
    loc = cx.loc(node)
    t = a.type
    zero = cx.cmp("eq", b, Const(0, t), node)
    safe = cx.emit("select", [zero, Const(1, t), b], t, None, loc)
    op = "floordiv" if name == "floor_divide" else "mod"
    if truncate and isinstance(t, T.IntType):       # reciprocal of an int: C division
        q = cx.emit("floordiv", [a, safe], t, None, loc)
        r = cx.emit("mod", [a, safe], t, None, loc)
        fix = cx.emit("and", [cx.cmp("ne", r, Const(0, t), node),
                              cx.cmp("lt", safe, Const(0, t), node)], T.BOOL, None, loc)
        q = cx.emit("select", [fix, cx.emit("add", [q, Const(1, t)], t, None, loc), q], t, None, loc)
        return cx.emit("select", [zero, Const(0, t), q], t, None, loc)
    r = cx.emit(op, [a, safe], t, None, loc)
    if isinstance(t, T.FloatType):
        by_zero = cx.emit("div", [a, b], t, None, loc) if op == "floordiv" else Const(float("nan"), t)
    else:
        by_zero = Const(0, t)
    return cx.emit("select", [zero, by_zero, r], t, None, loc)


def np_power(cx, a: Value, b: Value, node) -> Value:
    loc = cx.loc(node)
    t = a.type
    if isinstance(t, T.FloatType):
        return cx.emit("math", [a, b], t, "pow", loc)
    if isinstance(t, T.BoolType):
        cx.error("numpy.power is not supported on booleans", node)
    if t.signed:
        neg = cx.cmp("lt", b, Const(0, t), node)
        cx.raise_if(neg, "ValueError", "Integers to negative integer powers are not allowed.", node)
    return cx.emit("pow", [a, b], t, None, loc)

# ---- evaluating expressions -----------------------------------------------------------


def check_call(cx, e: ArrayExpr, node, output: tuple = ()) -> None:
    """NumPy's errors of the one call `e` computes (its operands' own calls were checked
    when they were built, as Python makes them, before the operands to their right):
    a Python int that the loop's int type cannot hold (OverflowError, `int8_array + 300`),
    then operands that do not broadcast together, the message naming each operand's
    shape (a scalar's as `()`) and `output`'s, an in-place call's output."""
    operands = e.call or e.args
    if e.name != "where":
        typed = zip(e.args, e.loop) if not e.call else ((a, e.loop[0]) for a in e.call)
        for a, t in typed:
            if _weak_int(a) and _narrow_int(t):
                cx.check_int_fits(a.value, t, node)
    if sum(1 for a in operands if a.kind != "scalar") > 1:
        shapes = [list(a.shape) for a in operands]
        broadcast_error(cx, operands_mismatch(cx, shapes, node),
                        shapes + ([list(output)] if output else []), node)


def broadcast_shape(cx, e: ArrayExpr, node) -> tuple[list[Value], dict]:
    """The output lengths of `e` and the marks of its stretched leaf axes
    (`stretch_marks`)."""
    leaves = e.leaf_nodes()
    out = list(e.shape)
    return out, stretch_marks(cx, [a.value for a in leaves], [a.shape for a in leaves], out, node)


def broadcast_dims(cx, shapes: list[list[Value]], ndim: int, node) -> list[Value]:
    """The broadcast lengths of `shapes` (unchecked: a length that is neither 1 nor the
    others' is `mismatch`'s to find)."""
    loc = cx.loc(node)
    out: list[Value] = []
    for axis in range(ndim):
        acc: Value = Const(1, T.I64)
        for d in shapes:
            k = axis - (ndim - len(d))
            if k >= 0:
                acc = d[k] if isinstance(acc, Const) and acc.value == 1 else cx.emit(
                    "select", [cx.cmp("eq", d[k], Const(1, T.I64), node), acc, d[k]], T.I64, None, loc)
        out.append(acc)
    return out


def mismatch(cx, dims: list[list[Value]], out: list[Value], node) -> Value:
    """Whether some length in `dims` (right-aligned with `out`) is neither 1 nor out's;
    a length on an axis before `out`'s first (an array assigned to a view of fewer axes)
    must be 1."""
    loc = cx.loc(node)
    bad: Value = Const(False, T.BOOL)
    for d in dims:
        for k, dk in enumerate(d):
            j = len(out) - len(d) + k
            o = out[j] if j >= 0 else None
            if o is dk:
                continue
            ok = cx.cmp("eq", dk, Const(1, T.I64), node) if o is None else cx.emit(
                "or", [cx.cmp("eq", dk, Const(1, T.I64), node), cx.cmp("eq", dk, o, node)],
                T.BOOL, None, loc)
            bad = cx.emit("or", [bad, cx.emit("not", [ok], T.BOOL, None, loc)], T.BOOL, None, loc)
    return bad


def operands_mismatch(cx, shapes: list[list[Value]], node) -> Value:
    """Whether `shapes` (right-aligned) do not broadcast together: two lengths on one
    axis that are both not 1 and differ. The same answer as `mismatch` against their
    `broadcast_dims` (on each axis, the last length that is not 1), without comparing
    each length with that select: LLVM's InstCombine spent a sixth of its time on the
    stencil of benchmarks/arrays.py (four operands) folding those compares, in code
    that runs once a call."""
    loc = cx.loc(node)
    ndim = max(len(d) for d in shapes)
    bad: Value = Const(False, T.BOOL)
    for axis in range(ndim):
        dims = [d[axis - (ndim - len(d))] for d in shapes if axis - (ndim - len(d)) >= 0]
        for j, y in enumerate(dims):
            for x in dims[:j]:
                if x is y:
                    continue
                differ = cx.emit("and", [cx.cmp("ne", x, Const(1, T.I64), node),
                                         cx.cmp("ne", y, Const(1, T.I64), node)], T.BOOL, None, loc)
                differ = cx.emit("and", [differ, cx.cmp("ne", x, y, node)], T.BOOL, None, loc)
                bad = cx.emit("or", [bad, differ], T.BOOL, None, loc)
    return bad


def stretch_marks(cx, leaves, dims, out: list[Value], node) -> dict:
    """For each leaf (by id), per axis, a bool that is true where its length 1 is
    stretched to a longer output axis (None where its length is the output's)."""
    loc = cx.loc(node)
    marks = {}
    for a, d in zip(leaves, dims):
        ms = []
        for k, dk in enumerate(d):
            j = len(out) - len(d) + k
            o = out[j] if j >= 0 else dk            # an axis before out's: of length 1, index 0
            ms.append(None if o is dk else cx.emit(
                "and", [cx.cmp("eq", dk, Const(1, T.I64), node), cx.cmp("ne", o, Const(1, T.I64), node)],
                T.BOOL, None, loc))
        marks[id(a)] = ms
    return marks


def broadcast_error(cx, bad: Value, dims, node) -> None:
    flat = [d for ds in dims for d in ds]
    if len(flat) <= MAX_MESSAGE_ARGS:
        text = " ".join(shape_format(len(ds)) for ds in dims)
        cx.raise_if(bad, "ValueError", f"operands could not be broadcast together with shapes {text} ",
                    node, flat)
    else:
        cx.raise_if(bad, "ValueError", "operands could not be broadcast together", node)


def materialize(cx, e: ArrayExpr, node) -> Value:
    """A new array holding the value of `e`."""
    if e.kind == "leaf":
        return e.value
    if e.ndim == 0:
        cx.error("an element-wise expression of scalars only", node)
    dims, stretch = broadcast_shape(cx, e, node)
    out = cx.alloc_array(e.dtype, dims, node)
    expr_loops(cx, e, out, dims, stretch, node, convert=False)
    return out


def expr_loops(cx, e: ArrayExpr, dst: Value, dims, stretch, node, convert: bool) -> None:
    """The loop nest storing each element of `e` into `dst` (of lengths `dims`). With
    stretched leaves, a second nest without the index selects runs when nothing is
    stretched at run time."""
    def body(idx, marks):
        v = element(cx, e, idx, len(dims), node, marks)
        if convert:
            cx.store_element(dst, idx, v, node)
        else:
            cx.emit("store", [dst, cx.cast_element(v, dst.type.dtype, node), *idx], T.NONE, None,
                    cx.loc(node))
    def nest(marks):
        cx.loop_nest(node, dims, lambda idx: body(idx, marks))
    marks = [m for ms in stretch.values() for m in ms if m is not None]
    if not marks:
        nest({})
        return
    loc = cx.loc(node)
    any_stretch = marks[0]
    for m in marks[1:]:
        any_stretch = cx.emit("or", [any_stretch, m], T.BOOL, None, loc)
    cx.choose(any_stretch, lambda: nest(stretch), lambda: nest({}), node)


def store_expr(cx, dst: Value, value, node, in_place: bool = False) -> None:
    """``dst[...] = value`` for an array `dst` (a view or a whole array) and an array,
    expression or scalar `value` broadcast to its shape (NumPy's assignment rules: array
    elements are cast unchecked, a scalar as item assignment checks it). `in_place`:
    `value` is ``dst op v`` of ``dst op= v``, whose shapes NumPy checks as a ufunc call
    with `dst` as its output too."""
    e = as_expr(cx, value, node)
    if in_place and e.kind == "op":
        if not check_in_place(cx, dst, e, node):
            return          # a broadcast shape of more axes than `dst`: it always raises
        if (may_overlap(cx, dst, e) or _may_raise(e.args[-1])) and len(e.args) == 2 \
                and e.args[0].kind == "leaf" and e.args[0].value is dst:
            # As NumPy: the right-hand side is a temporary (or a copy of an input that
            # shares memory with `dst`), and the operation itself writes into `dst`
            # element by element (an error part way, int ** negative, leaves what it wrote)
            v = e.args[1]
            v = as_expr(cx, cx.copy_array(v.value, node) if v.kind == "leaf" else materialize(cx, v, node),
                        node)
            e = replace(e, args=(e.args[0], v))
    elif e.kind == "op" and _may_raise(e):
        # NumPy computes the value whole before it assigns: an error writes nothing
        e = as_expr(cx, materialize(cx, e, node), node)
    if e.kind != "scalar" and may_overlap(cx, dst, e):
        e = as_expr(cx, cx.copy_array(e.value, node) if e.kind == "leaf" else materialize(cx, e, node),
                    node)
    dims = cx.dims_of(dst, node)
    if e.kind == "scalar":
        v = cx.item_value(e.value, dst.type.dtype, node)      # checked once, as NumPy does
        cx.loop_nest(node, dims, lambda idx: cx.emit("store", [dst, v, *idx], T.NONE, None, cx.loc(node)))
        return
    shape = list(e.shape)
    check_assign_shape(cx, mismatch(cx, [shape], dims, node), shape, dims, node)
    e = unshared(cx, dst, e, node)
    leaves = e.leaf_nodes()
    stretch = stretch_marks(cx, [a.value for a in leaves], [a.shape for a in leaves], dims, node)
    expr_loops(cx, e, dst, dims, stretch, node, convert=False)


def check_assign_shape(cx, bad: Value, shape: list[Value], dims: list[Value], node) -> None:
    """NumPy's error for assigning an array of lengths `shape` to one of lengths `dims`
    where `bad` holds. Its message drops the input's leading lengths of 1 while it has
    more axes than the destination (shape (1, 1, 2) into (2, 3) is named (1,2)): one
    check for each number of axes dropped."""
    loc = cx.loc(node)

    def both(a: Value, b: Value) -> Value:
        for x, y in ((a, b), (b, a)):
            if isinstance(x, Const):
                return y if x.value else x
        return cx.emit("and", [a, b], T.BOOL, None, loc)
    extra = max(0, len(shape) - len(dims))
    ones: Value = Const(True, T.BOOL)           # shape[:dropped] all 1
    for dropped in range(extra + 1):
        shown = shape[dropped:]
        stop = Const(True, T.BOOL) if dropped == extra else cx.cmp("ne", shape[dropped], Const(1, T.I64), node)
        cond = both(both(ones, stop), bad)
        if len(shown) + len(dims) <= MAX_MESSAGE_ARGS:
            cx.raise_if(cond, "ValueError", f"could not broadcast input array from shape "
                        f"{shape_format(len(shown))} into shape {shape_format(len(dims))}", node,
                        shown + dims)
        else:
            cx.raise_if(cond, "ValueError", "could not broadcast input array into the destination shape",
                        node)
        if dropped < extra:
            ones = both(ones, cx.cmp("eq", shape[dropped], Const(1, T.I64), node))


def check_in_place(cx, dst: Value, e: ArrayExpr, node, dims: list | None = None) -> bool:
    """NumPy's errors for ``dst op= v`` (`e` is ``dst op v``, unchecked; or any ufunc
    call with output `dst` of lengths `dims`): the inputs must broadcast together (the
    message lists the output's shape too), and to `dst`'s own. False when the broadcast
    shape has more axes than `dst` (``q[1] -= q``): NumPy then raises whatever the
    lengths (even 1), so the statement always raises when it runs."""
    dims = list(e.args[0].shape) if dims is None else dims
    check_call(cx, e, node, output=dims)
    out = list(e.shape)
    fits = len(out) <= len(dims)
    bad = mismatch(cx, [out], dims, node) if fits else Const(True, T.BOOL)
    if len(dims) + len(out) <= MAX_MESSAGE_ARGS:
        cx.raise_if(bad, "ValueError", f"non-broadcastable output operand with shape "
                    f"{shape_format(len(dims))} doesn't match the broadcast shape "
                    f"{shape_format(len(out))}", node, dims + out)
    else:
        cx.raise_if(bad, "ValueError", "non-broadcastable output operand", node)
    return fits


def may_overlap(cx, dst: Value, e: ArrayExpr) -> bool:
    """Whether writing `dst` element by element could change a leaf of `e` before it is
    read: a leaf that is a different view of the same array (the same view is read at
    each element before that element is written). Leaves of other arrays are
    `unshared`'s."""
    root = _root(dst)
    return any(leaf is not dst and _root(leaf) is root for leaf in e.leaves())


def unshared(cx, dst: Value, e: ArrayExpr, node) -> ArrayExpr:
    """`e` with each leaf that is a view of another array than `dst`'s, but not one
    provably apart from it (`_apart`), read from a copy when their memory overlaps at
    run time, as NumPy copies such an input. That array may be `dst`'s own: a variable
    read in a loop is the loop header's parameter while the loop is being built, and
    `for row in a: a *= row` views the array `a` held before the loop."""
    loc = cx.loc(node)
    root = _root(dst)
    fresh = {}
    for leaf in e.leaf_nodes():
        v = leaf.value
        if v is dst or _apart(_root(v), root, cx.func):
            continue
        shared = cx.emit("overlap", [dst, v], T.BOOL, None, loc)
        fresh[id(v)] = cx.choose(shared, lambda: cx.copy_array(v, node), lambda: v, node)
    return _with_leaves(e, fresh) if fresh else e


# ---- calls and in-place forms ---------------------------------------------------------


def call_ufunc_any(cx, name: str, node) -> Value:
    """A call of NumPy ufunc `name`: element-wise on arrays; on scalars, NumPy's
    semantics of one element (NaN or inf, never an exception). ``out=`` (or one more
    positional argument) writes the result into that array, as ``out[...] = ...`` with
    NumPy's 'same_kind' cast, and returns it."""
    import numpy as np
    nin = getattr(np, _ALIASES.get(name, name)).nin
    out_node = node.args[nin] if len(node.args) == nin + 1 else None
    for kw in node.keywords:
        if kw.arg != "out" or out_node is not None:
            cx.error(f"numpy.{name}() keyword argument '{kw.arg}' is not supported in compiled code",
                     kw.value)
        out_node = kw.value
    if isinstance(out_node, ast.Tuple) and len(out_node.elts) == 1:
        out_node = out_node.elts[0]
    nargs = len(node.args) - (out_node is not None and len(node.args) == nin + 1)
    if nargs != nin:
        cx.error(f"numpy.{name}() takes {nin} argument{'s' if nin > 1 else ''} ({len(node.args)} given)",
                 node)
    args = [cx.lazy(a) for a in node.args[:nin]]
    if out_node is not None:
        return ufunc_into(cx, name, args, out_node, node)
    e = ufunc_expr(cx, name, args, node)
    if e.ndim:
        return e
    return element(cx, e, [], 0, node)


def ufunc_into(cx, name: str, args: list, out_node, node) -> Value:
    """``np.<name>(*args, out=dst)``: the result stored into the array `dst`, which is
    returned."""
    import numpy as np
    from script.frontend.typeinfer import numpy_name
    dst = cx.expr(out_node)
    if not isinstance(dst.type, T.ArrayType):
        cx.error(f"numpy.{name}() takes an array for out= here, not {dst.type}", out_node)
    e = ufunc_expr(cx, name, args, node, False)
    if not np.can_cast(numpy_name(e.dtype), numpy_name(dst.type.dtype), "same_kind"):
        cx.error(f"Cannot cast ufunc '{name}' output from dtype('{numpy_name(e.dtype)}') to "
                 f"dtype('{numpy_name(dst.type.dtype)}') with casting rule 'same_kind'", node)
    dims = cx.dims_of(dst, node)
    shapes = [list(a.shape) for a in (e.call or e.args)] + [dims]     # NumPy: with the output's
    full = broadcast_dims(cx, shapes, max(len(d) for d in shapes), node)
    broadcast_error(cx, mismatch(cx, shapes, full, node), shapes, node)
    if check_in_place(cx, dst, e, node, dims):
        store_expr(cx, dst, e, node)
    return dst


def np_where(cx, node, name):
    cond, x, y = cx.np_args(node, name, ("condition", "x", "y"), 1)
    if x is None or y is None:
        cx.error("numpy.where(condition) with one argument is not supported in compiled code; "
                 "pass x and y", node)
    c = cx.lazy(cond)
    if not is_array_like(c):
        c = cx.truth(c, cond)
    elif not isinstance(as_expr(cx, c, node).dtype, T.BoolType):
        c = ufunc_expr(cx, "not_equal", [c, Const(0, T.I64)], node)     # NumPy's cast to bool
    e = where_expr(cx, c, cx.lazy(x), cx.lazy(y), node)
    return e if e.ndim else element(cx, e, [], 0, node)


def np_select(cx, node, name):
    """``np.select(condlist, choicelist, default=0)`` of lists (or tuples) written at the
    call: nested ``np.where``s, the first true condition's choice, in NumPy's
    ``result_type`` of every choice and the default together."""
    import numpy as np
    from script.frontend.typeinfer import dtype_to_type
    conds, choices, default = cx.np_args(node, name, ("condlist", "choicelist", "default"), 2)
    for what, arg in (("condlist", conds), ("choicelist", choices)):
        if not isinstance(arg, (ast.List, ast.Tuple)) or any(isinstance(e, ast.Starred) for e in arg.elts):
            cx.error(f"numpy.select() takes a list written at the call for '{what}' here", arg)
    if len(conds.elts) != len(choices.elts):
        cx.error("list of cases must be same length as list of conditions", node)
    if not conds.elts:
        cx.error("select with an empty condition list is not possible", node)
    cs = [as_expr(cx, cx.lazy(c), c) for c in conds.elts]
    vs = [as_expr(cx, cx.lazy(v), v) for v in choices.elts]
    d = as_expr(cx, Const(0, T.I64) if default is None else cx.lazy(default), default or node)
    for i, (c, c_node) in enumerate(zip(cs, conds.elts)):
        if not isinstance(c.dtype, T.BoolType):
            cx.error(f"invalid entry {i} in condlist: should be boolean ndarray", c_node)
    t = dtype_to_type(np.result_type(*(numpy_operand(v, True) for v in vs + [d])))
    e = d
    for c, v in reversed(list(zip(cs, vs))):
        e = where_expr(cx, c, v, e, node, t)
    return e if e.ndim else element(cx, e, [], 0, node)


def np_clip(cx, node, name, first=None):
    """``np.clip(a, lo, hi)``, or ``a.clip(lo, hi)`` with `first` the array."""
    if first is None:
        a, lo, hi = cx.np_args(node, name, ("a", "a_min", "a_max"), 3)
        a = cx.lazy(a)
    else:
        lo, hi = cx.np_args(node, name, ("min", "max"), 2)
        a = first
    lo, hi = cx.lazy(lo), cx.lazy(hi)
    absent = lambda v: isinstance(getattr(v, "type", None), T.NoneType)    # noqa: E731
    if absent(lo) and absent(hi):           # NumPy 2: a copy of `a`
        return as_expr(cx, cx.copy_array(materialize(cx, a, node) if isinstance(a, ArrayExpr) else a, node), node) \
            if is_array_like(a) else a
    a = as_expr(cx, a, node)
    lo, hi = (None if absent(v) else as_expr(cx, v, node) for v in (lo, hi))

    def clip(lo, hi):
        e = a if lo is None else ufunc_expr(cx, "maximum", [a, lo], node, False)
        return e if hi is None else ufunc_expr(cx, "minimum", [e, hi], node, False)
    # one NumPy call: its errors are checked once, for its operands together
    e = clip(lo, hi)
    t = e.loop[0]
    if _narrow_int(t) and (_weak_int(lo) or _weak_int(hi)):
        # NumPy drops a Python int bound that the type's whole range lies within
        # (np.clip(int8_array, 0, 300) is np.maximum(a, 0)); any other bound beyond the
        # range is an OverflowError (numpy/_core/_methods.py, _clip)
        loc = cx.loc(node)

        def clamp(b, op, end):
            if b is None or not _weak_int(b) or not T.I64.min <= end <= T.I64.max:
                return b            # (uint64's top: an int64 bound never passes it)
            return as_expr(cx, cx.emit(op, [b.value, Const(end, T.I64)], T.I64, None, loc), node)
        lo, hi = clamp(lo, "max", t.min), clamp(hi, "min", t.max)
        e = clip(lo, hi)
    e = replace(e, call=tuple(v for v in (a, lo, hi) if v is not None))
    check_call(cx, e, node)
    return e if e.ndim else element(cx, e, [], 0, node)


def array_aug_assign_to(cx, dst: Value, op: type, value, node) -> None:
    """``dst op= value`` in place, as NumPy does: the result is cast back to `dst`'s
    dtype under 'same_kind' casting."""
    import numpy as np
    from script.frontend.typeinfer import numpy_name
    e = array_binop(cx, op, dst, value, node, check=False)     # check_in_place checks it
    if not np.can_cast(numpy_name(e.dtype), numpy_name(dst.type.dtype), "same_kind"):
        cx.error(f"Cannot cast ufunc '{e.name}' output from dtype('{numpy_name(e.dtype)}') to "
                 f"dtype('{numpy_name(dst.type.dtype)}') with casting rule 'same_kind'", node)
    store_expr(cx, dst, e, node, in_place=True)


def shape_format(n: int) -> str:
    """NumPy's text of a shape of rank `n`, a ``%lld`` for each length: ``(%lld,)`` for one."""
    return "(" + ",".join(["%lld"] * n) + ("," if n == 1 else "") + ")"


def _may_raise(e: ArrayExpr) -> bool:
    """Whether computing `e` may raise part way through its loop (an int ** negative int)."""
    if e.kind != "op":
        return False
    if e.name == "power" and isinstance(e.loop[0], T.IntType) and e.loop[0].signed:
        exp = e.args[1]
        if not (exp.kind == "scalar" and isinstance(exp.value, Const) and exp.value.value >= 0):
            return True
    return any(_may_raise(a) for a in e.args)


def numpy_operand(e: ArrayExpr, as_value: bool = False):
    """How NumPy sees operand `e` when it resolves dtypes (NEP 50): a Python int, float or
    complex (an ``int``/``float``/``complex`` scalar of compiled code) is weak: the type, for
    ``ufunc.resolve_dtypes``, or a value of it (`as_value`), for ``np.result_type``. Anything
    else, a bool scalar and a sized scalar included, is its NumPy dtype."""
    import numpy as np
    from script.frontend.typeinfer import numpy_name
    if e.kind == "scalar" and e.dtype in (T.I64, T.F64, T.C128):
        kind = {T.F64: float, T.I64: int, T.C128: complex}[e.dtype]
        return kind(0) if as_value else kind
    return np.dtype(numpy_name(e.dtype))


def _weak_int(e: ArrayExpr | None) -> bool:
    """Whether `e` is a Python int (an i64 scalar, weak under NEP 50)."""
    return e is not None and e.kind == "scalar" and e.dtype == T.I64


def _narrow_int(t: T.Type) -> bool:
    return isinstance(t, T.IntType) and t != T.I64


def _apart(a: Value, b: Value, func) -> bool:
    """Whether arrays `a` and `b` (roots: `_root`) are known not to share memory: an
    array made in the function and any other, or two of the function's parameters (arrays
    passed as different arguments are assumed not to overlap, see docs/arrays.md). The
    same root is `may_overlap`'s."""
    from script.ir.core import Instr
    if a is b:
        return True
    if any(isinstance(v, Instr) and v.opname == "alloc" for v in (a, b)):
        return True
    return all(any(v is p for p in func.params) for v in (a, b))


def _with_leaves(e: ArrayExpr, fresh: dict) -> ArrayExpr:
    """`e` with each leaf array whose id is in `fresh` replaced by the array it maps to (of
    the same shape)."""
    if e.kind == "leaf":
        return replace(e, value=fresh[id(e.value)]) if id(e.value) in fresh else e
    if e.kind == "scalar":
        return e
    return replace(e, args=tuple(_with_leaves(a, fresh) for a in e.args),
                   call=tuple(_with_leaves(a, fresh) for a in e.call))


def _root(v: Value) -> Value:
    """The array `v` is a view of (following views, transposes and reshapes)."""
    from script.ir.core import Instr
    while isinstance(v, Instr) and v.opname in ("view", "transpose", "reshape", "convert"):
        v = v.operands[0]
    return v


# (np.where is numpy_alloc's: one argument is np.nonzero; it hands the others to np_where)
CALLS.register(numpy_function("clip"), np_clip)
CALLS.register(numpy_function("select"), np_select)


BINOPS.register(("array", ANY), array_binop)


def np_angle(cx, node: ast.Call, name: str) -> Value:
    """np.angle(z, deg=False): arctan2 of the imaginary and real parts (NumPy's own
    definition), in degrees with `deg`."""
    args = list(node.args)
    kw = {k.arg: k.value for k in node.keywords}
    if len(args) > 2 or set(kw) - {"z", "deg"}:
        cx.error("numpy.angle takes z and deg", node)
    z_node = args[0] if args else kw.get("z")
    deg_node = args[1] if len(args) > 1 else kw.get("deg")
    deg = False
    if deg_node is not None:
        d = cx.expr(deg_node)
        if not isinstance(d, Const):
            cx.error("deg must be a constant in compiled code", deg_node)
        deg = bool(d.value)
    z = cx.expr(z_node)
    if isinstance(z.type, T.ArrayType):
        if isinstance(z.type.dtype, T.ComplexType):
            re, im = complex_arrays.array_part(cx, z, 0, node), complex_arrays.array_part(cx, z, 1, node)
        else:
            re, im = z, Const(0.0, T.F64)
        r = ufunc_expr(cx, "arctan2", [im, re], node)
        return ufunc_expr(cx, "multiply", [r, Const(180 / math.pi, T.F64)], node) if deg else r
    if not isinstance(z.type, T.ComplexType):
        z = cx.coerce(z, T.C128, node)
    re, im = complex_lowering.complex_part(cx, z, 0, node), complex_lowering.complex_part(cx, z, 1, node)
    r = cx.emit("math", [im, re], re.type, "atan2", cx.loc(node))
    return cx.emit("mul", [r, Const(180 / math.pi, r.type)], r.type, None, cx.loc(node)) if deg else r


def _conj_method(cx, arr: Value, node: ast.Call):
    """``a.conj()``, ``a.conjugate()``: the element-wise conjugate (the array itself, copied,
    for a real one, as NumPy's ufunc gives)."""
    cx.positional(node, node.func.attr, 0)
    return ufunc_expr(cx, "conjugate", [arr], node)


CALLS.register(numpy_function("angle"), np_angle)
METHODS.register(("array", "conj"), _conj_method)
METHODS.register(("array", "conjugate"), _conj_method)
