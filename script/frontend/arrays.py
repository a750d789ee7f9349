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

    @staticmethod
    def index_parts(index_node) -> list:
        return index_node.elts if isinstance(index_node, ast.Tuple) else [index_node]

    def is_view_index(self, arr: Value, index_node) -> bool:
        """Whether `arr[index_node]` is a sub-array (a slice, or fewer indices than axes)."""
        parts = self.index_parts(index_node)
        return any(isinstance(p, ast.Slice) for p in parts) or len(parts) < arr.type.ndim

    def array_view(self, arr: Value, index_node, node) -> Value:
        """`arr[...]` with slices or missing trailing axes: a view sharing `arr`'s memory."""
        t: T.ArrayType = arr.type
        parts = list(self.index_parts(index_node))
        if len(parts) > t.ndim:
            self.error(f"too many indices for array: array is {t.ndim}-dimensional, but "
                       f"{len(parts)} were indexed", index_node)
        parts += [ast.Slice(None, None, None)] * (t.ndim - len(parts))
        axes, operands = "", [arr]
        for axis, p in enumerate(parts):
            if isinstance(p, ast.Slice):
                axes += "s"
                operands += self.slice_operands(arr, axis, p, node)
            else:
                v = self.expr(p)
                if not isinstance(v.type, (T.IntType, T.BoolType)):
                    self.error(f"array indices must be integers or slices, not {v.type}", p)
                axes += "i"
                operands.append(self.checked_index(arr, axis, self.coerce(v, T.I64, p), p))
        if "s" not in axes:
            self.error("indexing every axis gives an element, not a view", node)
        rt = T.ArrayType(t.dtype, axes.count("s"), "A")
        return self.emit("view", operands, rt, axes, self.loc(node))

    def slice_operands(self, arr: Value, axis: int, sl: ast.Slice, node) -> list[Value]:
        """(start, length, step) of `sl` on `axis`, as Python's slice.indices computes them."""
        loc = self.loc(node)
        n = self.emit("dim", [arr], T.I64, axis, loc)
        step = 1
        if sl.step is not None:
            sv = self.expr(sl.step)
            if not (isinstance(sv, Const) and isinstance(sv.type, (T.IntType, T.BoolType))):
                self.error("slice steps must be integer constants in compiled code", sl.step)
            step = int(sv.value)
            if step == 0:
                self.error("slice step cannot be zero", sl.step)
        lo, hi = (Const(0, T.I64), n) if step > 0 else (Const(-1, T.I64), self.emit(
            "sub", [n, Const(1, T.I64)], T.I64, None, loc))

        def bound(expr_node, default):
            if expr_node is None:
                return default
            v = self.expr(expr_node)
            if not isinstance(v.type, (T.IntType, T.BoolType)):
                self.error(f"slice indices must be integers, not {v.type}", expr_node)
            v = self.coerce(v, T.I64, expr_node)
            neg = self.cmp("lt", v, Const(0, T.I64), node)
            v = self.emit("select", [neg, self.emit("add", [v, n], T.I64, None, loc), v], T.I64, None, loc)
            v = self.emit("max", [v, lo], T.I64, None, loc)       # clamp into [lo, hi]
            return self.emit("min", [v, hi], T.I64, None, loc)

        start = bound(sl.lower, Const(0, T.I64) if step > 0 else hi)
        stop = bound(sl.upper, n if step > 0 else Const(-1, T.I64))
        if step > 0:
            span = self.emit("sub", [stop, start], T.I64, None, loc)
            count = self.emit("floordiv", [self.emit("add", [span, Const(step - 1, T.I64)], T.I64, None, loc),
                                           Const(step, T.I64)], T.I64, None, loc)
        else:
            span = self.emit("sub", [start, stop], T.I64, None, loc)
            count = self.emit("floordiv", [self.emit("add", [span, Const(-step - 1, T.I64)], T.I64, None, loc),
                                           Const(-step, T.I64)], T.I64, None, loc)
        count = self.emit("max", [count, Const(0, T.I64)], T.I64, None, loc)
        return [start, count, Const(step, T.I64)]

    def array_indices(self, arr: Value, index_node, node) -> list[Value]:
        """The checked i64 indices of `arr[index_node]` (one integer per axis)."""
        t: T.ArrayType = arr.type
        parts = self.index_parts(index_node)
        if len(parts) != t.ndim:
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
        if not self.boundscheck:
            return j                   # @script(boundscheck=False): the user vouches for it
        lo = self.cmp("lt", j, Const(0, T.I64), node)
        hi = self.emit("cmp", [j, n], T.BOOL, "ge", loc)
        bad = hi if isinstance(lo, Const) and not lo.value else self.emit("or", [lo, hi], T.BOOL, None, loc)
        self.emit("check", [bad, i, Const(axis, T.I64), n], T.NONE,
                  ExcInfo("IndexError", _OUT_OF_BOUNDS), loc)
        return j

    def array_load(self, arr: Value, index_node, node) -> Value:
        if self.is_view_index(arr, index_node):
            return self.array_view(arr, index_node, node)
        idx = self.array_indices(arr, index_node, node)
        return self.emit("load", [arr, *idx], arr.type.dtype, None, self.loc(node))

    def array_store(self, arr: Value, index_node, value: Value, node) -> None:
        if self.is_view_index(arr, index_node):
            return self.store_into_view(self.array_view(arr, index_node, node), value, node)
        idx = self.array_indices(arr, index_node, node)
        self.store_element(arr, idx, value, node)

    def store_element(self, arr: Value, idx, value: Value, node) -> None:
        dtype = arr.type.dtype
        if not value.type.is_numeric():
            self.error(f"cannot store a {value.type} into an array of {dtype}", node)
        # NumPy's item assignment truncates a float into an int array (2.7 stores 2) and, as
        # int(x) does, refuses NaN, infinities and values out of the int's range.
        if isinstance(dtype, T.IntType) and isinstance(value.type, T.FloatType):
            value = self.convert_checked(value, dtype, node)
        self.emit("store", [arr, self.coerce(value, dtype, node), *idx], T.NONE, None, self.loc(node))

    def store_into_view(self, view: Value, value: Value, node) -> None:
        """`a[slices] = value`: a scalar fills the view; an array of the same shape (or one
        NumPy broadcasts along leading axes) is copied element by element."""
        vt: T.ArrayType = view.type
        loc = self.loc(node)
        if isinstance(value.type, T.ArrayType):
            st: T.ArrayType = value.type
            if st.ndim > vt.ndim:
                self.error(f"cannot assign a {st.ndim}-d array to a {vt.ndim}-d slice", node)
            for k in range(st.ndim):
                want = self.emit("dim", [view], T.I64, vt.ndim - st.ndim + k, loc)
                have = self.emit("dim", [value], T.I64, k, loc)
                one = self.cmp("eq", have, Const(1, T.I64), node)
                bad = self.emit("and", [self.emit("cmp", [have, want], T.BOOL, "ne", loc),
                                        self.emit("not", [one], T.BOOL, None, loc)], T.BOOL, None, loc)
                self.emit("check", [bad, have, want], T.NONE, ExcInfo(
                    "ValueError", "could not broadcast input array of length %lld into a slice of "
                    "length %lld"), loc)
        elif not value.type.is_numeric():
            self.error(f"cannot assign a {value.type} to an array slice", node)
        self.fill_loops(view, value, node, [])

    def fill_loops(self, view: Value, value: Value, node, idx: list) -> None:
        vt: T.ArrayType = view.type
        if len(idx) == vt.ndim:
            if isinstance(value.type, T.ArrayType):
                st = value.type
                src = []
                for k in range(st.ndim):
                    i = idx[vt.ndim - st.ndim + k]
                    one = self.cmp("eq", self.emit("dim", [value], T.I64, k, self.loc(node)), Const(1, T.I64), node)
                    src.append(self.emit("select", [one, Const(0, T.I64), i], T.I64, None, self.loc(node)))
                elem = self.emit("load", [value, *src], st.dtype, None, self.loc(node))
            else:
                elem = value
            self.store_element(view, idx, elem, node)
            return
        n = self.emit("dim", [view], T.I64, len(idx), self.loc(node))
        # A loop with no statements of its own: the element work happens in `bind`. (The
        # nested levels share the node's loop key: they carry no variables to widen.)
        self.counted_loop(self.info.synthetic_loop(node), Const(0, T.I64), n, Const(1, T.I64),
                          lambda i: self.fill_loops(view, value, node, idx + [i]))

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
        if attr == "T":
            if t.ndim == 1:
                return arr
            return self.emit("transpose", [arr], t.with_layout("A"), None, loc)
        if attr == "itemsize":
            return Const(_itemsize(t.dtype), T.I64)
        self.error(f"array attribute '{attr}' is not supported yet", node)

    def array_len(self, arr: Value, node) -> Value:
        return self.emit("dim", [arr], T.I64, 0, self.loc(node))

    def array_item(self, arr: Value, i: Value, node) -> Value:
        """`arr[i]` for 0 <= i < len(arr): an element of a 1-d array, else a view of a row."""
        t: T.ArrayType = arr.type
        if t.ndim == 1:
            return self.emit("load", [arr, i], t.dtype, None, self.loc(node))
        operands = [arr, i]
        for axis in range(1, t.ndim):
            operands += [Const(0, T.I64), self.emit("dim", [arr], T.I64, axis, self.loc(node)), Const(1, T.I64)]
        rt = T.ArrayType(t.dtype, t.ndim - 1, "A")
        return self.emit("view", operands, rt, "i" + "s" * (t.ndim - 1), self.loc(node))


def _itemsize(t: T.Type) -> int:
    return 1 if isinstance(t, T.BoolType) else t.bits // 8
