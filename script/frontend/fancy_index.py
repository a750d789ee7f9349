"""NumPy's advanced indexing: a boolean mask (``a[a > 0]``, ``a[m] = 0``), integer arrays
(``a[idx]``, ``m[:, idx] = v``, ``m[r, c]``) and a 1-d mask selecting along one axis
(``m[rows]``, ``m[rows, 1:] = 0``, taken as the integer array of its true positions).

Requires the host class to be a `FunctionLowering`. Reading makes a new array (a copy, as
NumPy's advanced indexing does); writing stores through the index, in C order of the
indexing result, so that where an index repeats the last write wins, as in NumPy. Integer
indices wrap when negative and are checked against the axis (IndexError with NumPy's
message) before any element is read or written, unless bounds checks are off.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass

from script.frontend.arrays import _OUT_OF_BOUNDS, _is_ellipsis
from script.frontend.elementwise import ArrayExpr, _may_raise, _root, is_array_like, shape_format
from script.ir import types as T
from script.ir.core import Const, Value
from script.ir.ops import MAX_MESSAGE_ARGS, ExcInfo


@dataclass
class IndexPlan:
    """`arr[index]` for an index holding integer arrays. `view` is `arr` with the index's ints
    and slices applied and a full slice for each array; `index[n]` (an integer array) indexes
    the view's axis `axes[n]` and is named as axis `shown[n]` of `arr` in errors. The index
    arrays broadcast together; the result has their broadcast axes first when `front`
    (NumPy: the advanced indices are apart), else in place of the view's axes `axes`, which
    are then consecutive."""

    view: Value
    axes: list[int]
    index: list[Value]
    shown: list[int]
    front: bool


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

    # ---- plans ------------------------------------------------------------------------------

    def index_plan(self, arr: Value, index_node, node) -> IndexPlan | None:
        """The plan of `arr[i, idx]`, `arr[:, idx]`, `arr[r, c]`, `arr[mask, 1:]` (a tuple
        index with integer arrays or 1-d masks, the other parts ints and slices); None when
        the index holds no array. Every part is computed once, left to right."""
        if not isinstance(index_node, ast.Tuple):
            return None
        parts = index_node.elts
        found = {}
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
                found[k] = v
                continue
            self.pre_evaluated[id(p)] = v
        if not found:
            return None
        for p in parts:
            if _is_ellipsis(p) or isinstance(p, ast.Constant) and p.value is None:
                self.error("'...' or None next to an array index is not supported in compiled code", p)
        if len(parts) > arr.type.ndim:
            self.error(f"too many indices for array: array is {arr.type.ndim}-dimensional, but "
                       f"{len(parts)} were indexed", index_node)
        index = {}
        for k, v in found.items():
            e = self.as_expr(v, node)
            if isinstance(e.dtype, T.BoolType):
                if e.ndim != 1:
                    self.error("a boolean array of more than one dimension is supported only as the whole "
                               "index in compiled code", parts[k])
                index[k] = self.mask_positions(arr, k, e, node)
            elif isinstance(e.dtype, T.IntType):
                index[k] = self.materialize(e, node)
            else:
                self.error(f"arrays used as indices must be of integer (or boolean) type, not {e.dtype}", parts[k])
        advanced = [j for j, p in enumerate(parts) if not isinstance(p, ast.Slice)]
        span = range(min(advanced), max(advanced) + 1)
        front = any(isinstance(parts[j], ast.Slice) for j in span)   # NumPy: the index's axes first
        kept = [j for j, p in enumerate(parts) if isinstance(p, ast.Slice) or j in index]
        rest = [ast.Slice(None, None, None) if j in index else p for j, p in enumerate(parts)]
        view = self.array_view(arr, ast.copy_location(ast.Tuple(rest, ast.Load()), index_node), node)
        ks = sorted(index)
        return IndexPlan(view, [kept.index(k) for k in ks], [index[k] for k in ks], ks, front)

    def lone_plan(self, arr: Value, e: ArrayExpr, node) -> IndexPlan:
        """The plan of `arr[idx]` (an integer array) or `arr[mask]` (a 1-d mask of an array
        of more axes)."""
        if isinstance(e.dtype, T.BoolType):
            return IndexPlan(arr, [0], [self.mask_positions(arr, 0, e, node)], [0], False)
        return IndexPlan(arr, [0], [self.materialize(e, node)], [0], False)

    def mask_positions(self, arr: Value, axis: int, mask: ArrayExpr, node) -> Value:
        """A new i64 array of the positions where the 1-d `mask` is true, its length checked
        against `arr`'s `axis` as NumPy checks it (an empty mask selects nothing, whatever
        the length)."""
        loc = self.loc(node)
        (m,), stretch = self.broadcast_shape(mask, node)
        d = self.emit("dim", [arr], T.I64, axis, loc)
        bad = self.emit("and", [self.cmp("ne", d, m, node), self.cmp("ne", m, Const(0, T.I64), node)],
                        T.BOOL, None, loc)
        self.raise_if(bad, "IndexError", f"boolean index did not match indexed array along axis {axis}; size of "
                      "axis is %lld but size of corresponding boolean axis is %lld", node, [d, m])
        count = self.new_var("count", Const(0, T.I64))

        def counting(idx):
            self.when(self.element(mask, idx, 1, node, stretch), lambda: self.write(
                count, self.emit("add", [self.read(count, loc), Const(1, T.I64)], T.I64, None, loc)), node)
        self.loop_nest(node, [m], counting)
        out = self.alloc_array(T.I64, [self.read(count, loc)], node)
        k = self.new_var("k", Const(0, T.I64))

        def put(idx):
            def store():
                at = self.read(k, loc)
                self.emit("store", [out, idx[0], at], T.NONE, None, loc)
                self.write(k, self.emit("add", [at, Const(1, T.I64)], T.I64, None, loc))
            self.when(self.element(mask, idx, 1, node, stretch), store, node)
        self.loop_nest(node, [m], put)
        return out

    def plan_shape(self, plan: IndexPlan, node) -> tuple[list[Value], dict, list[Value]]:
        """The broadcast lengths of the index arrays (checked, NumPy's IndexError), the marks
        of their stretched axes, and the lengths of the result."""
        shapes = [self.dims_of(i, node) for i in plan.index]
        stretch = {}
        if len(shapes) == 1:
            idx_dims = shapes[0]
        else:
            idx_dims = self.broadcast_dims(shapes, max(len(s) for s in shapes), node)
            bad = self.mismatch(shapes, idx_dims, node)
            flat = [d for s in shapes for d in s]
            if len(flat) <= MAX_MESSAGE_ARGS:
                text = " ".join(shape_format(len(s)) for s in shapes)
                self.raise_if(bad, "IndexError", "shape mismatch: indexing arrays could not be broadcast "
                              f"together with shapes {text} ", node, flat)
            else:
                self.raise_if(bad, "IndexError", "shape mismatch: indexing arrays could not be broadcast together",
                              node)
            stretch = self.stretch_marks(plan.index, shapes, idx_dims, node)
        dims = self.dims_of(plan.view, node)
        others = [d for a, d in enumerate(dims) if a not in plan.axes]
        if plan.front:
            return idx_dims, stretch, idx_dims + others
        first = plan.axes[0]
        return idx_dims, stretch, others[:first] + idx_dims + others[first:]

    def check_plan(self, plan: IndexPlan, idx_dims: list[Value], node, memory_order: bool = False) -> None:
        """NumPy's bounds check of every index, array by array, each in C order for a read and
        in memory order for a store (`memory_order`: a 1-d index of negative stride walked
        backwards), as NumPy 2.4 walks them, so the bad index named is NumPy's; none where the
        index arrays broadcast to nothing (`idx_dims` holds a 0), as in NumPy."""
        if not self.boundscheck:
            return
        loc = self.loc(node)
        if len(plan.index) > 1:
            empty: Value = Const(False, T.BOOL)
            for d in idx_dims:
                empty = self.emit("or", [empty, self.cmp("eq", d, Const(0, T.I64), node)], T.BOOL, None, loc)
            self.when(self.emit("not", [empty], T.BOOL, None, loc),
                      lambda: self.check_indices(plan, node, memory_order), node)
            return
        self.check_indices(plan, node, memory_order)

    def check_indices(self, plan: IndexPlan, node, memory_order: bool = False) -> None:
        loc = self.loc(node)
        for index, axis, shown in zip(plan.index, plan.axes, plan.shown):
            n = self.emit("dim", [plan.view], T.I64, axis, loc)
            dims = self.dims_of(index, node)
            if memory_order and len(dims) == 1:
                backwards = self.cmp("lt", self.emit("stride", [index], T.I64, 0, loc), Const(0, T.I64), node)
                last = self.emit("sub", [dims[0], Const(1, T.I64)], T.I64, None, loc)

                def at(pos, backwards=backwards, last=last):
                    return [self.emit("select", [backwards, self.emit("sub", [last, pos[0]], T.I64, None, loc),
                                                 pos[0]], T.I64, None, loc)]
            else:
                def at(pos):
                    return pos

            def check(pos, index=index, n=n, shown=shown, at=at):
                i = self.coerce(self.emit("load", [index, *at(pos)], index.type.dtype, None, loc), T.I64, node)
                j = self.wrap_index(i, n, node)
                bad = self.emit("or", [self.cmp("lt", j, Const(0, T.I64), node), self.cmp("ge", j, n, node)],
                                T.BOOL, None, loc)
                self.emit("check", [bad, i, Const(shown, T.I64), n], T.NONE, ExcInfo("IndexError", _OUT_OF_BOUNDS),
                          loc)
            self.loop_nest(node, dims, check)

    def wrap_index(self, i: Value, n: Value, node) -> Value:
        loc = self.loc(node)
        neg = self.cmp("lt", i, Const(0, T.I64), node)
        return self.emit("select", [neg, self.emit("add", [i, n], T.I64, None, loc), i], T.I64, None, loc)

    def view_position(self, plan: IndexPlan, pos: list[Value], k: int, stretch: dict, node) -> list[Value]:
        """The position in `plan.view` of the result's position `pos` (`k`: the number of
        broadcast index axes)."""
        loc = self.loc(node)
        if plan.front:
            ipos, rest = pos[:k], list(pos[k:])
        else:
            first = plan.axes[0]
            ipos, rest = pos[first:first + k], list(pos[:first]) + list(pos[first + k:])
        js = []
        for index, axis in zip(plan.index, plan.axes):
            e = ArrayExpr("leaf", index.type.dtype, index.type.ndim, index)
            i = self.coerce(self.element(e, ipos, k, node, stretch), T.I64, node)
            js.append(self.wrap_index(i, self.emit("dim", [plan.view], T.I64, axis, loc), node))
        out, r = [], iter(rest)
        for axis in range(plan.view.type.ndim):
            out.append(js[plan.axes.index(axis)] if axis in plan.axes else next(r))
        return out

    def gather(self, plan: IndexPlan, node) -> Value:
        """A new array of the elements `plan` selects (NumPy's ``arr[index]``)."""
        loc = self.loc(node)
        idx_dims, stretch, out_dims = self.plan_shape(plan, node)
        self.check_plan(plan, idx_dims, node)
        view = plan.view
        out = self.alloc_array(view.type.dtype, out_dims, node)

        def take(pos):
            x = self.emit("load", [view, *self.view_position(plan, pos, len(idx_dims), stretch, node)],
                          view.type.dtype, None, loc)
            self.emit("store", [out, x, *pos], T.NONE, None, loc)
        self.loop_nest(node, out_dims, take)
        return out

    def scatter(self, plan: IndexPlan, value, node) -> None:
        """``arr[index] = value`` through `plan`: `value` (a scalar, array or expression)
        broadcast to the indexing result, written in its C order. As NumPy, the value's
        shape is checked before the indices, and the index and value are read whole before
        anything is written (copied where they may be the array's own memory)."""
        loc = self.loc(node)
        view = plan.view
        root = _root(view)
        plan.index = [self.copy_array(i, node) if _root(i) is root else i for i in plan.index]
        idx_dims, stretch, out_dims = self.plan_shape(plan, node)
        value = self.sequence_as_array(value, view.type.dtype, node)
        if is_array_like(value):
            e = self.as_expr(value, node)
            if e.kind == "op" and _may_raise(e):
                e = self.as_expr(self.materialize(e, node), node)   # an error writes nothing
            if any(_root(leaf) is root for leaf in e.leaves()):
                e = self.as_expr(self.copy_array(e.value, node) if e.kind == "leaf" else self.materialize(e, node),
                                 node)
            shape = list(e.shape)
            bad = self.mismatch([shape], out_dims, node)
            if len(shape) + len(out_dims) <= MAX_MESSAGE_ARGS:
                self.raise_if(bad, "ValueError", f"shape mismatch: value array of shape {shape_format(len(shape))} "
                              f"could not be broadcast to indexing result of shape {shape_format(len(out_dims))}",
                              node, shape + out_dims)
            else:
                self.raise_if(bad, "ValueError", "shape mismatch: value array could not be broadcast to indexing "
                              "result", node)
            e = self.unshared(view, e, node)
            leaves = e.leaf_nodes()
            marks = self.stretch_marks([a.value for a in leaves], [a.shape for a in leaves], out_dims, node)

            def element(pos):
                return self.cast_element(self.element(e, pos, len(out_dims), node, marks), view.type.dtype, node)
        else:
            v = self.item_value(value, view.type.dtype, node)      # checked once, as NumPy does

            def element(pos):
                return v
        self.check_plan(plan, idx_dims, node, memory_order=True)

        def put(pos):
            x = element(pos)
            self.emit("store", [view, x, *self.view_position(plan, pos, len(idx_dims), stretch, node)], T.NONE,
                      None, loc)
        self.loop_nest(node, out_dims, put)

    # ---- a lone array index -------------------------------------------------------------------

    def index_expr(self, arr: Value, index, node) -> ArrayExpr:
        e = self.as_expr(index, node)
        if isinstance(e.dtype, T.BoolType):
            if e.ndim != arr.type.ndim and e.ndim != 1:
                self.error(f"a boolean index must have the array's {arr.type.ndim} dimensions or one, "
                           f"not {e.ndim}", node)
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
        if isinstance(e.dtype, T.BoolType) and e.ndim == arr.type.ndim:
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
        return self.gather(self.lone_plan(arr, e, node), node)

    def fancy_store(self, arr: Value, index, value, node) -> None:
        """``arr[index] = value`` for an array index: a scalar goes to every selected
        element; an array gives one value per selected element, in order (a mask of all of
        `arr`'s axes), or is broadcast to the indexing result (an integer array, a 1-d mask
        of an array of more axes)."""
        e = self.index_expr(arr, index, node)
        if not (isinstance(e.dtype, T.BoolType) and e.ndim == arr.type.ndim):
            return self.scatter(self.lone_plan(arr, e, node), value, node)
        loc = self.loc(node)
        scalar = not is_array_like(value)
        v = self.item_value(value, arr.type.dtype, node) if scalar else None
        src = None if scalar else (self.materialize(value, node) if isinstance(value, ArrayExpr) else value)
        if src is not None and src.type.ndim != 1:
            self.error("the values assigned through a boolean mask must be a scalar or a 1-d array here", node)
        # NumPy reads the index and the values whole before it writes: where they may be
        # `arr`'s own memory (`b[b] = 4`, `a[m] = a[:2]`), they are copied first.
        if src is not None and _root(src) is _root(arr):
            src = self.copy_array(src, node)
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
