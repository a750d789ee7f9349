"""NumPy's advanced indexing with one array index: a boolean mask (``a[a > 0]``,
``a[m] = 0``) or an integer array (``a[idx]``, ``a[idx] = v``).

Requires the host class to be a `FunctionLowering`. Reading makes a new array (a copy, as
NumPy's advanced indexing does); writing stores through the index. Integer indices wrap when
negative and are checked against the axis (IndexError with NumPy's message) unless bounds
checks are off.
"""

from __future__ import annotations

import ast

from script.frontend.arrays import _OUT_OF_BOUNDS, _is_ellipsis
from script.frontend.elementwise import ArrayExpr, _root, is_array_like
from script.ir import types as T
from script.ir.core import Const, Value
from script.ir.ops import ExcInfo


class FancyIndexLowering:
    """Mixin for FunctionLowering."""

    def array_index_value(self, index_node):
        """The value of a lone index expression when it is an array (or an element-wise
        expression), else None; either way `index_node` is evaluated once (`pre_evaluated`)."""
        if isinstance(index_node, (ast.Tuple, ast.Slice)) or (
                isinstance(index_node, ast.Constant) and index_node.value in (None, Ellipsis)):
            return None
        v = self.lazy(index_node)
        if isinstance(getattr(v, "type", None), T.ListType) and self.read_type(v).is_numeric():
            return self.list_to_array(v, None, index_node)       # a[[0, 2]]: as np.array([0, 2])
        if is_array_like(v):
            return v
        self.pre_evaluated[id(index_node)] = v
        return None

    def mixed_index(self, arr: Value, index_node, node):
        """For `arr[i, idx]`, `arr[:, idx]`, `arr[idx, 1:]` (a tuple index with one integer
        array, the other parts ints and slices): (view, axis, index array, NumPy's axis) such
        that the result is the view gathered along `axis` by the index array; None when the
        index holds no array. Every part is computed once, left to right."""
        if not isinstance(index_node, ast.Tuple):
            return None
        parts = index_node.elts
        found = None
        for k, p in enumerate(parts):
            if _is_ellipsis(p):
                continue
            if isinstance(p, ast.Slice):
                for e in (p.lower, p.upper, p.step):
                    if e is not None:
                        self.pre_evaluated[id(e)] = self.expr(e)
                continue
            v = self.lazy(p)
            if isinstance(getattr(v, "type", None), T.ListType) and self.read_type(v).is_numeric():
                v = self.list_to_array(v, None, p)
            if is_array_like(v):
                if found is not None:
                    self.error("an index with more than one array is not supported in compiled code", p)
                found = (k, v)
                continue
            self.pre_evaluated[id(p)] = v
        if found is None:
            return None
        k, index = found
        e = self.as_expr(index, node)
        if not isinstance(e.dtype, T.IntType):
            self.error("a boolean array is supported only as the whole index in compiled code", parts[k])
        for p in parts:
            if _is_ellipsis(p) or isinstance(p, ast.Constant) and p.value is None:
                self.error("'...' or None next to an array index is not supported in compiled code", p)
        if len(parts) > arr.type.ndim:
            self.error(f"too many indices for array: array is {arr.type.ndim}-dimensional, but "
                       f"{len(parts)} were indexed", index_node)
        ints = [j for j, p in enumerate(parts) if j != k and not isinstance(p, ast.Slice)]
        span = range(min(ints + [k]), max(ints + [k]) + 1)
        front = any(isinstance(parts[j], ast.Slice) for j in span)   # NumPy: the index's axes first
        axis = sum(1 for p in parts[:k] if isinstance(p, ast.Slice))
        rest = [ast.Slice(None, None, None) if j == k else p for j, p in enumerate(parts)]
        view = self.array_view(arr, ast.copy_location(ast.Tuple(rest, ast.Load()), index_node), node)
        index = self.materialize(e, node) if e.kind != "leaf" else e.value
        return self.gather(view, axis, index, k, front, node)

    def gather(self, arr: Value, axis: int, index: Value, shown_axis: int, front: bool, node) -> Value:
        """A new array of `arr`'s elements with the positions along `axis` taken from the
        integer array `index` (NumPy's `arr[..., index, ...]`): its axes replace `axis`, or
        come first when `front`. Every index is checked (IndexError naming `shown_axis`, the
        axis of the array as indexed) before any element is read, as NumPy does."""
        loc = self.loc(node)
        dims = self.dims_of(arr, node)
        idx_dims = self.dims_of(index, node)
        k = len(idx_dims)

        def index_at(pos):
            i = self.coerce(self.emit("load", [index, *pos], index.type.dtype, None, loc), T.I64, node)
            n = dims[axis]
            neg = self.cmp("lt", i, Const(0, T.I64), node)
            return i, self.emit("select", [neg, self.emit("add", [i, n], T.I64, None, loc), i], T.I64, None, loc)

        if self.boundscheck:
            def check(pos):
                i, j = index_at(pos)
                bad = self.emit("or", [self.cmp("lt", j, Const(0, T.I64), node), self.cmp("ge", j, dims[axis], node)],
                                T.BOOL, None, loc)
                self.emit("check", [bad, i, Const(shown_axis, T.I64), dims[axis]], T.NONE,
                          ExcInfo("IndexError", _OUT_OF_BOUNDS), loc)
            self.loop_nest(node, idx_dims, check)
        others = dims[:axis] + dims[axis + 1:]
        out_dims = idx_dims + others if front else dims[:axis] + idx_dims + dims[axis + 1:]
        out = self.alloc_array(arr.type.dtype, out_dims, node)

        def take(pos):
            if front:
                ipos, rest = pos[:k], pos[k:]
                before, after = rest[:axis], rest[axis:]
            else:
                before, ipos, after = pos[:axis], pos[axis:axis + k], pos[axis + k:]
            _, j = index_at(ipos)
            x = self.emit("load", [arr, *before, j, *after], arr.type.dtype, None, loc)
            self.emit("store", [out, x, *pos], T.NONE, None, loc)
        self.loop_nest(node, out_dims, take)
        return out

    def index_expr(self, arr: Value, index, node) -> ArrayExpr:
        e = self.as_expr(index, node)
        if isinstance(e.dtype, T.BoolType):
            if e.ndim != arr.type.ndim:
                self.error(f"a boolean index must have the array's {arr.type.ndim} dimensions, not {e.ndim}", node)
        elif not isinstance(e.dtype, T.IntType):
            self.error(f"arrays used as indices must be of integer (or boolean) type, not {e.dtype}", node)
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
        return self.gather(arr, 0, idx_arr, 0, False, node)

    def fancy_store(self, arr: Value, index, value, node) -> None:
        """``arr[index] = value`` for an array index: a scalar goes to every selected
        element; an array gives one value per selected element, in order."""
        e = self.index_expr(arr, index, node)
        if isinstance(e.dtype, T.IntType) and arr.type.ndim != 1:
            self.error("assignment through an integer array index is supported on 1-d arrays only "
                       "in compiled code", node)
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
