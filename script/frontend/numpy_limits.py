"""`np.finfo(dtype)` and `np.iinfo(dtype)`: the limits of a type, constants when compiling.

    eps = np.finfo(np.float64).eps        # 2.220446049250313e-16, an f64 constant
    big = np.iinfo(a.dtype).max           # the element type's largest value

The call gives no value of its own (a `PyRef` to a `NumericLimits`); reading an attribute
of it gives a constant of the type NumPy gives it (`np.finfo(np.float32).eps` is an f32;
`iinfo`'s `min`/`max`/`bits` are Python ints, int64 here: `np.iinfo(np.uint64).max`, which
int64 cannot hold, is a CompileError).
"""

from __future__ import annotations

from script.frontend.lower_expr import const_of
from script.frontend.pyref import PyRef
from script.ir import types as T
from script.ir.core import Const

_FINFO = ("eps", "max", "min", "tiny", "smallest_normal", "resolution", "epsneg", "bits", "precision")
_IINFO = ("min", "max", "bits")


class LimitConst:
    """One attribute's value: lowered to a constant of `type` (None: a Python int)."""

    def __init__(self, value, type_: T.Type | None):
        self.value = value
        self.type = type_

    @staticmethod
    def __script_value__(obj, lowering, node):
        if obj.type is None:
            try:
                return const_of(int(obj.value), lowering.loc(node))
            except OverflowError:
                lowering.error(f"{obj.value} does not fit in int64 in compiled code", node)
        return Const(float(obj.value), obj.type, lowering.loc(node))


class NumericLimits:
    """What `np.finfo(t)` / `np.iinfo(t)` names in compiled code."""

    def __init__(self, info, names: tuple, float_type: T.Type | None):
        for name in names:
            value = getattr(info, name)
            is_int = isinstance(value, int) or float_type is None
            setattr(self, name, LimitConst(value, None if is_int else float_type))


def lower_limits(lowering, node, name):
    import numpy as np
    (dtype_node,) = lowering.np_args(node, name, ("dtype",), 1)
    t = lowering.dtype_arg(dtype_node, None)
    from script.frontend.typeinfer import numpy_name
    dt = np.dtype(numpy_name(t))
    if name == "finfo":
        if not isinstance(t, T.FloatType):
            lowering.error(f"data type {dt} not inexact", node)
        return PyRef(NumericLimits(np.finfo(dt), _FINFO, t), "finfo")
    if not isinstance(t, T.IntType):
        lowering.error(f"Invalid integer data type '{dt.kind}'.", node)
    return PyRef(NumericLimits(np.iinfo(dt), _IINFO, None), "iinfo")
