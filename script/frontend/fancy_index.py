"""NumPy's advanced indexing with one array index: a boolean mask (``a[a > 0]``,
``a[m] = 0``) or an integer array (``a[idx]``, ``a[idx] = v``).

Requires the host class to be a `FunctionLowering`. Reading makes a new array (a copy, as
NumPy's advanced indexing does); writing stores through the index. Integer indices wrap when
negative and are checked against the axis (IndexError with NumPy's message) unless bounds
checks are off.
"""

from __future__ import annotations

import ast

from script.frontend.elementwise import ArrayExpr, _root, is_array_like
from script.ir import types as T
from script.ir.core import Const, Value


class FancyIndexLowering:
    """Mixin for FunctionLowering."""

    def array_index_value(self, index_node):
        """The value of a lone index expression when it is an array (or an element-wise
        expression), else None; either way `index_node` is evaluated once (`pre_evaluated`)."""
        if isinstance(index_node, (ast.Tuple, ast.Slice)) or (
                isinstance(index_node, ast.Constant) and index_node.value in (None, Ellipsis)):
            return None
        v = self.lazy(index_node)
        if is_array_like(v):
            return v
        self.pre_evaluated[id(index_node)] = v
        return None

    def index_expr(self, arr: Value, index, node) -> ArrayExpr:
        e = self.as_expr(index, node)
        if isinstance(e.dtype, T.BoolType):
            if e.ndim != arr.type.ndim:
                self.error(f"a boolean index must have the array's {arr.type.ndim} dimensions, not {e.ndim}", node)
        elif not isinstance(e.dtype, T.IntType):
            self.error(f"arrays used as indices must be of integer (or boolean) type, not {e.dtype}", node)
        elif arr.type.ndim != 1:
            self.error("an integer array index is supported on 1-d arrays only in compiled code", node)
        return e

    def mask_dims(self, arr: Value, mask: ArrayExpr, node) -> tuple[list[Value], dict]:
        """The lengths of `arr`, checked against the mask's as NumPy checks them, and the
        marks of the mask's stretched axes (elementwise.stretch_marks)."""
        loc = self.loc(node)
        dims = self.dims_of(arr, node)
        shape, stretch = self.broadcast_shape(mask, node)
        # NumPy takes an empty boolean index as an empty integer index: it selects nothing
        # whatever the array's shape (a[np.zeros(0, bool)] is empty, no IndexError)
        empty: Value = Const(False, T.BOOL)
        for m in shape:
            empty = self.emit("or", [empty, self.cmp("eq", m, Const(0, T.I64), node)], T.BOOL, None, loc)
        for axis, (d, m) in enumerate(zip(dims, shape)):
            bad = self.emit("and", [self.cmp("ne", d, m, node), self.emit("not", [empty], T.BOOL, None, loc)],
                            T.BOOL, None, loc)
            self.raise_if(bad, "IndexError",
                          f"boolean index did not match indexed array along axis {axis}; size of axis is "
                          "%lld but size of corresponding boolean axis is %lld", node, [d, m])
        return [self.emit("select", [empty, Const(0, T.I64), d], T.I64, None, loc) for d in dims], stretch

    def for_masked(self, arr: Value, mask: ArrayExpr, node, body) -> None:
        """`body(idx)` for each index (C order) where the mask is true."""
        dims, stretch = self.mask_dims(arr, mask, node)

        def visit(idx):
            self.when(self.element(mask, idx, len(dims), node, stretch), lambda: body(idx), node)
        self.loop_nest(node, dims, visit)

    def count_true(self, arr: Value, mask: ArrayExpr, node) -> Value:
        var = self.new_var("count", Const(0, T.I64))
        self.for_masked(arr, mask, node, lambda idx: self.write(
            var, self.emit("add", [self.read(var, self.loc(node)), Const(1, T.I64)], T.I64, None, self.loc(node))))
        return self.read(var, self.loc(node))

    def fancy_load(self, arr: Value, index, node) -> Value:
        """``arr[index]`` for an array index: a new 1-d array of the elements a mask selects,
        or of those an integer array names (shaped as the index)."""
        e = self.index_expr(arr, index, node)
        loc = self.loc(node)
        if isinstance(e.dtype, T.BoolType):
            n = self.count_true(arr, e, node)
            out = self.alloc_array(arr.type.dtype, [n], node)
            var = self.new_var("k", Const(0, T.I64))

            def take(idx):
                k = self.read(var, loc)
                self.emit("store", [out, self.emit("load", [arr, *idx], arr.type.dtype, None, loc), k], T.NONE,
                          None, loc)
                self.write(var, self.emit("add", [k, Const(1, T.I64)], T.I64, None, loc))
            self.for_masked(arr, e, node, take)
            return out
        idx_arr = self.materialize(e, node) if e.kind != "leaf" else e.value
        dims = self.dims_of(idx_arr, node)
        out = self.alloc_array(arr.type.dtype, dims, node)

        def gather(idx):
            i = self.coerce(self.emit("load", [idx_arr, *idx], idx_arr.type.dtype, None, loc), T.I64, node)
            j = self.checked_index(arr, 0, i, node)
            self.emit("store", [out, self.emit("load", [arr, j], arr.type.dtype, None, loc), *idx], T.NONE, None, loc)
        self.loop_nest(node, dims, gather)
        return out

    def fancy_store(self, arr: Value, index, value, node) -> None:
        """``arr[index] = value`` for an array index: a scalar goes to every selected
        element; an array gives one value per selected element, in order."""
        e = self.index_expr(arr, index, node)
        loc = self.loc(node)
        scalar = not is_array_like(value)
        v = self.item_value(value, arr.type.dtype, node) if scalar else None
        src = None if scalar else (self.materialize(value, node) if isinstance(value, ArrayExpr) else value)
        if src is not None and src.type.ndim != 1:
            self.error("the values assigned through an array index must be a scalar or a 1-d array here", node)
        # NumPy reads the index and the values whole before it writes: where they may be
        # `arr`'s own memory (`b[b] = 4`, `a[m] = a[:2]`), they are copied first.
        if src is not None and _root(src) is _root(arr):
            src = self.copy_array(src, node)
        if isinstance(e.dtype, T.BoolType):
            if self.may_overlap(arr, e):
                e = self.as_expr(self.materialize(e, node), node)
            if src is not None:
                n = self.count_true(arr, e, node)
                have = self.emit("dim", [src], T.I64, 0, loc)
                one = self.cmp("eq", have, Const(1, T.I64), node)      # one value goes everywhere
                bad = self.emit("and", [self.cmp("ne", have, n, node), self.emit("not", [one], T.BOOL, None, loc)],
                                T.BOOL, None, loc)
                self.raise_if(bad, "ValueError",
                              "NumPy boolean array indexing assignment cannot assign %lld input values to the "
                              "%lld output values where the mask is true", node, [have, n])
            var = self.new_var("k", Const(0, T.I64))

            def put(idx):
                if src is None:
                    self.emit("store", [arr, v, *idx], T.NONE, None, loc)
                    return
                k = self.read(var, loc)
                x = self.emit("load", [src, self.emit("select", [one, Const(0, T.I64), k], T.I64, None, loc)],
                              src.type.dtype, None, loc)
                self.emit("store", [arr, self.cast_element(x, arr.type.dtype, node), *idx], T.NONE, None, loc)
                self.write(var, self.emit("add", [k, Const(1, T.I64)], T.I64, None, loc))
            self.for_masked(arr, e, node, put)
            return
        idx_arr = self.materialize(e, node) if e.kind != "leaf" else e.value
        if idx_arr.type.ndim != 1:
            self.error("an integer array index must be 1-d for assignment here", node)
        if e.kind == "leaf" and _root(idx_arr) is _root(arr):
            idx_arr = self.copy_array(idx_arr, node)
        n = self.emit("dim", [idx_arr], T.I64, 0, loc)
        if src is not None:
            have = self.emit("dim", [src], T.I64, 0, loc)
            bad = self.emit("and", [self.cmp("ne", have, n, node), self.cmp("ne", have, Const(1, T.I64), node)],
                            T.BOOL, None, loc)
            self.raise_if(bad, "ValueError", "shape mismatch: value array of shape (%lld,) could not be "
                          "broadcast to indexing result of shape (%lld,)", node, [have, n])

        def index_at(k):
            return self.coerce(self.emit("load", [idx_arr, k], idx_arr.type.dtype, None, loc), T.I64, node)
        if self.boundscheck:        # NumPy checks every index before it writes any,
            # walking the index array in memory order (a negative stride flipped), so the bad
            # index it names is the first there
            backwards = self.cmp("lt", self.emit("stride", [idx_arr], T.I64, 0, loc), Const(0, T.I64), node)
            last = self.emit("sub", [n, Const(1, T.I64)], T.I64, None, loc)

            def in_memory_order(k):
                back = self.emit("sub", [last, k], T.I64, None, loc)
                return self.emit("select", [backwards, back, k], T.I64, None, loc)
            self.loop_nest(node, [n], lambda idx: self.checked_index(arr, 0, index_at(in_memory_order(idx[0])), node))

        def scatter(idx):
            i = index_at(idx[0])
            j = self.checked_index(arr, 0, i, node)
            if src is None:
                x = v
            else:
                one = self.cmp("eq", self.emit("dim", [src], T.I64, 0, loc), Const(1, T.I64), node)
                k = self.emit("select", [one, Const(0, T.I64), idx[0]], T.I64, None, loc)
                x = self.cast_element(self.emit("load", [src, k], src.type.dtype, None, loc), arr.type.dtype, node)
            self.emit("store", [arr, x, j], T.NONE, None, loc)
        self.loop_nest(node, [n], scatter)
