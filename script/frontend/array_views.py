"""Views of arrays that several lowerings take (a leaf: it imports only the IR)."""

from __future__ import annotations

from script.ir import types as T
from script.ir.core import Const, Value


def line_view(cx, arr: Value, axis: int, idx: list[Value], node) -> Value:
    """The 1-d view of `arr` along `axis` at the other axes' indices `idx`; typed
    C-contiguous when it is (the last axis of a C array)."""
    loc = cx.loc(node)
    n = cx.emit("dim", [arr], T.I64, axis, loc)
    operands = [arr, *idx[:axis], Const(0, T.I64), n, Const(1, T.I64), *idx[axis:]]
    axes = "i" * axis + "s" + "i" * (arr.type.ndim - axis - 1)
    view = cx.emit("view", operands, T.ArrayType(arr.type.dtype, 1, "A"), axes, loc)
    if arr.type.layout == "C" and axis == arr.type.ndim - 1:
        return cx.emit("reshape", [view, n], T.ArrayType(arr.type.dtype, 1, "C"), None, loc)
    return view
