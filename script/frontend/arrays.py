"""NumPy arrays in the frontend: indexing, element assignment, attributes, iteration.

Requires the host class to be a `FunctionLowering`. Arrays are passed by reference: a
compiled function reads and writes the caller's memory. Every index is normalized as NumPy
does (a negative index counts from the end) and checked against the axis length: an index
out of bounds raises IndexError with NumPy's message.
"""

from __future__ import annotations

import ast

from script.ir import types as T
from script.ir.core import Const, Value
from script.ir.ops import ExcInfo

_OUT_OF_BOUNDS = "index %lld is out of bounds for axis %lld with size %lld"


class ArrayLowering:
    """Mixin for FunctionLowering."""

    def array_indices(self, arr: Value, index_node, node) -> list[Value]:
        """The checked i64 indices of `arr[index_node]` (one integer per axis)."""
        t: T.ArrayType = arr.type
        parts = index_node.elts if isinstance(index_node, ast.Tuple) else [index_node]
        if any(isinstance(p, ast.Slice) for p in parts):
            self.error("array slices are not supported yet", index_node)
        if len(parts) != t.ndim:
            if len(parts) < t.ndim:
                self.error(f"indexing a {t.ndim}-d array with {len(parts)} index (views of "
                           "sub-arrays are not supported yet): give one index per axis", index_node)
            self.error(f"too many indices for array: array is {t.ndim}-dimensional, but "
                       f"{len(parts)} were indexed", index_node)
        out = []
        for axis, p in enumerate(parts):
            v = self.expr(p)
            if not isinstance(v.type, (T.IntType, T.BoolType)):
                self.error(f"array indices must be integers, not {v.type}", p)
            out.append(self.checked_index(arr, axis, self.coerce(v, T.I64, p), p))
        return out

    def checked_index(self, arr: Value, axis: int, i: Value, node) -> Value:
        """`i` wrapped if negative and checked against the length of `axis`."""
        loc = self.loc(node)
        n = self.emit("dim", [arr], T.I64, axis, loc)
        if isinstance(i, Const) and i.value >= 0:
            j = i
        else:
            neg = self.cmp("lt", i, Const(0, T.I64), node)
            j = self.emit("select", [neg, self.emit("add", [i, n], T.I64, None, loc), i], T.I64, None, loc)
        lo = self.cmp("lt", j, Const(0, T.I64), node)
        hi = self.emit("cmp", [j, n], T.BOOL, "ge", loc)
        bad = hi if isinstance(lo, Const) and not lo.value else self.emit("or", [lo, hi], T.BOOL, None, loc)
        self.emit("check", [bad, i, Const(axis, T.I64), n], T.NONE,
                  ExcInfo("IndexError", _OUT_OF_BOUNDS), loc)
        return j

    def array_load(self, arr: Value, index_node, node) -> Value:
        idx = self.array_indices(arr, index_node, node)
        return self.emit("load", [arr, *idx], arr.type.dtype, None, self.loc(node))

    def array_store(self, arr: Value, index_node, value: Value, node) -> None:
        idx = self.array_indices(arr, index_node, node)
        self.store_element(arr, idx, value, node)

    def store_element(self, arr: Value, idx, value: Value, node) -> None:
        dtype = arr.type.dtype
        if not value.type.is_numeric():
            self.error(f"cannot store a {value.type} into an array of {dtype}", node)
        # NumPy's item assignment casts unsafely (2.7 into an int array stores 2).
        self.emit("store", [arr, self.coerce(value, dtype, node), *idx], T.NONE, None, self.loc(node))

    def array_aug_assign(self, node: ast.AugAssign) -> None:
        target = node.target
        arr = self.expr(target.value)
        if not isinstance(arr.type, T.ArrayType):
            self.error(f"item assignment is not supported on {arr.type}", target)
        idx = self.array_indices(arr, target.slice, target)
        old = self.emit("load", [arr, *idx], arr.type.dtype, None, self.loc(target))
        new = self.binop(type(node.op), old, self.expr(node.value), node)
        self.store_element(arr, idx, new, node)

    def array_attribute(self, arr: Value, node: ast.Attribute) -> Value:
        t: T.ArrayType = arr.type
        loc = self.loc(node)
        attr = node.attr
        if attr == "ndim":
            return Const(t.ndim, T.I64)
        if attr in ("shape", "strides"):
            op = "dim" if attr == "shape" else "stride"
            parts = [self.emit(op, [arr], T.I64, k, loc) for k in range(t.ndim)]
            return self.make_tuple(parts, node)
        if attr == "size":
            size: Value = self.emit("dim", [arr], T.I64, 0, loc)
            for k in range(1, t.ndim):
                size = self.emit("mul", [size, self.emit("dim", [arr], T.I64, k, loc)], T.I64, None, loc)
            return size
        if attr == "itemsize":
            return Const(_itemsize(t.dtype), T.I64)
        self.error(f"array attribute '{attr}' is not supported yet", node)

    def array_len(self, arr: Value, node) -> Value:
        return self.emit("dim", [arr], T.I64, 0, self.loc(node))

    def iterate_array(self, node: ast.For, arr: Value) -> None:
        if arr.type.ndim != 1:
            self.error("iterating over a multi-dimensional array is not supported yet "
                       "(index it: for i in range(a.shape[0]))", node.iter)
        n = self.array_len(arr, node)

        def bind(i):
            self.assign(node.target, self.emit("load", [arr, i], arr.type.dtype, None, self.loc(node)), node)

        self.counted_loop(node, Const(0, T.I64), n, Const(1, T.I64), bind)


def _itemsize(t: T.Type) -> int:
    return 1 if isinstance(t, T.BoolType) else t.bits // 8
