"""NumPy arrays in the frontend: indexing, element assignment, attributes, iteration.

Requires the host class to be a `FunctionLowering`. Arrays are passed by reference: a
compiled function reads and writes the caller's memory. Every index is normalized as NumPy
does (a negative index counts from the end) and checked against the axis length: an index
out of bounds raises IndexError with NumPy's message.
"""

from __future__ import annotations

import ast

import numpy as np

from script.frontend import mixed_numbers
from script.frontend.elementwise import is_array_like
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
        return any(isinstance(p, ast.Slice) or _is_newaxis(p) or _is_ellipsis(p) for p in parts) \
            or len(parts) < arr.type.ndim

    def array_view(self, arr: Value, index_node, node) -> Value:
        """`arr[...]` with slices or missing trailing axes: a view sharing `arr`'s memory."""
        t: T.ArrayType = arr.type
        parts = list(self.index_parts(index_node))
        real = sum(1 for p in parts if not (_is_newaxis(p) or _is_ellipsis(p)))
        if real > t.ndim:
            self.error(f"too many indices for array: array is {t.ndim}-dimensional, but "
                       f"{real} were indexed", index_node)
        ellipses = [k for k, p in enumerate(parts) if _is_ellipsis(p)]
        if len(ellipses) > 1:
            self.error("an index can only have a single ellipsis ('...')", index_node)
        fill = [ast.Slice(None, None, None)] * (t.ndim - real)
        parts = parts[:ellipses[0]] + fill + parts[ellipses[0] + 1:] if ellipses else parts + fill
        # Python computes the whole index before NumPy checks it, axis by axis.
        values = [self.slice_values(p) if isinstance(p, ast.Slice) else self.expr(p) for p in parts]
        axes, operands = "", [arr]
        axis = -1
        for p, v in zip(parts, values):
            if isinstance(getattr(v, "type", None), T.NoneType):      # None, np.newaxis
                axes += "n"
                continue
            axis += 1
            if isinstance(p, ast.Slice):
                axes += "s"
                operands += self.slice_operands(arr, axis, p, node, v)
            else:
                self.check_scalar_index(v, p)
                axes += "i"
                operands.append(self.checked_index(arr, axis, self.coerce(v, T.I64, p), p))
        if "s" not in axes and "n" not in axes:          # a[..., 0] of a 1-d array: an element
            return self.emit("load", operands, t.dtype, None, self.loc(node))
        rt = T.ArrayType(t.dtype, axes.count("s") + axes.count("n"), "A")
        return self.emit("view", operands, rt, axes, self.loc(node))

    def slice_values(self, sl: ast.Slice) -> tuple:
        """The values of `sl`'s start, stop and step expressions (None where absent), computed
        in that order, as Python builds a slice."""
        return tuple(None if e is None else self.expr(e) for e in (sl.lower, sl.upper, sl.step))

    def slice_operands(self, arr: Value, axis: int, sl: ast.Slice, node, values=None,
                       length: Value | None = None) -> list[Value]:
        """(start, length, step) of `sl` on `axis`, as Python's slice.indices computes them;
        `values`: what `slice_values(sl)` gave, when computed already; `length`: the length
        sliced, when `arr` is not an array (a list)."""
        loc = self.loc(node)
        lower, upper, sv = values if values is not None else self.slice_values(sl)
        n = self.emit("dim", [arr], T.I64, axis, loc) if length is None else length
        step = Const(1, T.I64)
        if sl.step is not None:
            if not isinstance(sv.type, (T.IntType, T.BoolType)):
                self.error(f"slice indices must be integers, not {sv.type}", sl.step)
            step = self.coerce(sv, T.I64, sl.step)
            if isinstance(step, Const) and step.value == 0:
                self.error("slice step cannot be zero", sl.step)
            self.raise_if(self.cmp("eq", step, Const(0, T.I64), node), "ValueError", "slice step cannot be zero", node)
        up = Const(step.value > 0, T.BOOL) if isinstance(step, Const) else self.cmp("gt", step, Const(0, T.I64), node)
        last = self.emit("sub", [n, Const(1, T.I64)], T.I64, None, loc)
        # Python's slice.indices: bounds clamp into [0, n] going up, [-1, n - 1] going down.
        lo = self.pick(up, Const(0, T.I64), Const(-1, T.I64), node)
        hi = self.pick(up, n, last, node)

        def bound(expr_node, v, default):
            if expr_node is None:
                return default
            if not isinstance(v.type, (T.IntType, T.BoolType)):
                self.error(f"slice indices must be integers, not {v.type}", expr_node)
            v = self.coerce(v, T.I64, expr_node)
            neg = self.cmp("lt", v, Const(0, T.I64), node)
            v = self.emit("select", [neg, self.emit("add", [v, n], T.I64, None, loc), v], T.I64, None, loc)
            v = self.emit("max", [v, lo], T.I64, None, loc)       # clamp into [lo, hi]
            return self.emit("min", [v, hi], T.I64, None, loc)

        start = bound(sl.lower, lower, self.pick(up, Const(0, T.I64), last, node))
        stop = bound(sl.upper, upper, self.pick(up, n, Const(-1, T.I64), node))
        # len(range(start, stop, step)), for either sign of step
        span = self.pick(up, self.emit("sub", [stop, start], T.I64, None, loc),
                         self.emit("sub", [start, stop], T.I64, None, loc), node)
        astep = self.pick(up, step, self.emit("neg", [step], T.I64, None, loc), node) \
            if not isinstance(step, Const) else Const(abs(step.value), T.I64)
        count = self.emit("floordiv", [self.emit("add", [span, self.emit("sub", [astep, Const(1, T.I64)], T.I64, None,
                                                                          loc)], T.I64, None, loc), astep],
                          T.I64, None, loc)
        count = self.emit("max", [count, Const(0, T.I64)], T.I64, None, loc)
        return [start, count, step]

    def pick(self, cond: Value, a: Value, b: Value, node) -> Value:
        """``a if cond else b`` for i64 values, folded when `cond` is a constant."""
        if isinstance(cond, Const):
            return a if cond.value else b
        return self.emit("select", [cond, a, b], T.I64, None, self.loc(node))
    def array_indices(self, arr: Value, index_node, node) -> list[Value]:
        """The checked i64 indices of `arr[index_node]` (one integer per axis)."""
        t: T.ArrayType = arr.type
        parts = self.index_parts(index_node)
        if len(parts) != t.ndim:
            self.error(f"too many indices for array: array is {t.ndim}-dimensional, but "
                       f"{len(parts)} were indexed", index_node)
        values = []
        for p in parts:         # every index is computed before any is checked, as in Python
            v = self.expr(p)
            self.check_scalar_index(v, p)
            values.append(self.coerce(v, T.I64, p))
        return [self.checked_index(arr, axis, v, p) for axis, (v, p) in enumerate(zip(values, parts))]

    def check_scalar_index(self, v: Value, p) -> None:
        """An index on one axis must be an int. (A bool is not the int 0 or 1 to NumPy but a
        0-d boolean mask: `a[True]` adds an axis, `a[False]` selects nothing.)"""
        if isinstance(v.type, T.BoolType):
            self.error("a bool used as an array index is a 0-d boolean mask in NumPy (it adds an axis), "
                       "which compiled code does not support; use int(...) for the index 0 or 1", p)
        if not isinstance(v.type, T.IntType):
            self.error(f"array indices must be integers or slices, not {v.type}", p)

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

    def spread_tuple_index(self, index_node):
        """`index_node`, or, when it is an expression whose value is a tuple (``m[idx]`` for
        ``idx`` from ``np.ndindex``), a tuple node of its items (each given by
        `pre_evaluated`), as ``m[i, j]``. The index is evaluated once, here."""
        if isinstance(index_node, (ast.Tuple, ast.Slice, ast.Constant)):
            return index_node
        v = self.lazy(index_node)
        if not isinstance(getattr(v, "type", None), T.TupleType) or not v.type.elems:
            self.pre_evaluated[id(index_node)] = v
            return index_node
        loc = self.loc(index_node)
        parts = []
        for k, t in enumerate(v.type.elems):
            part = ast.copy_location(ast.Name(f"index{k}", ast.Load()), index_node)
            self.pre_evaluated[id(part)] = self.emit("extract", [v], t, k, loc)
            parts.append(part)
        return ast.copy_location(ast.Tuple(parts, ast.Load()), index_node)

    def array_load(self, arr: Value, index_node, node) -> Value:
        index_node = self.spread_tuple_index(index_node)
        fancy = self.array_index_value(index_node)
        if fancy is not None:
            return self.fancy_load(arr, fancy, node)
        plan = self.index_plan(arr, index_node, node)      # fancy_index.py: a[:, idx], a[r, c]
        if plan is not None:
            return self.gather(plan, node)
        if self.is_view_index(arr, index_node):
            return self.array_view(arr, index_node, node)
        idx = self.array_indices(arr, index_node, node)
        return self.emit("load", [arr, *idx], arr.type.dtype, None, self.loc(node))

    def array_store(self, arr: Value, index_node, value, node) -> None:
        """``arr[index] = value``; `value` may be an element-wise expression (elementwise)."""
        index_node = self.spread_tuple_index(index_node)
        fancy = self.array_index_value(index_node)
        if fancy is not None:
            return self.fancy_store(arr, fancy, value, node)
        plan = self.index_plan(arr, index_node, node)
        if plan is not None:
            return self.scatter(plan, value, node)
        if self.is_view_index(arr, index_node):
            view = self.array_view(arr, index_node, node)
            return self.store_expr(view, self.sequence_as_array(value, arr.type.dtype, node), node)
        if is_array_like(value):
            self.error("setting an array element with a sequence", node)
        idx = self.array_indices(arr, index_node, node)
        self.store_element(arr, idx, value, node)

    def sequence_as_array(self, value, dtype: T.Type, node):
        """A tuple or list of numbers stored into a sub-array (`pts[i] = (x, y)`,
        `a[:] = [1, 2]`): as an array of `dtype`, whose shape NumPy then checks; any other
        value as it is."""
        t = getattr(value, "type", None)
        if isinstance(t, T.TupleType) and t.elems:
            return self.tuple_to_array(value, dtype, node)
        if isinstance(t, T.ListType) and self.read_type(value).is_numeric():
            return self.list_to_array(value, dtype, node)
        return value

    def store_element(self, arr: Value, idx, value: Value, node) -> None:
        self.emit("store", [arr, self.item_value(value, arr.type.dtype, node), *idx], T.NONE, None,
                  self.loc(node))

    def item_value(self, value: Value, dtype: T.Type, node) -> Value:
        """Scalar `value` converted for storing into an array of `dtype` as NumPy's item
        assignment does: a float into an int array truncates (2.7 stores 2) and, as int(x)
        does, refuses NaN, infinities and values out of range; an int out of range raises.
        An int|float (`sum(xs)` of floats) is stored as the one it holds."""
        if isinstance(value.type, T.IntFloatType):
            is_float, i, f = mixed_numbers.parts(self, value, self.loc(node))
            return self.choose(is_float, lambda: self.item_value(f, dtype, node),
                               lambda: self.item_value(i, dtype, node), node)
        if not value.type.is_numeric():
            self.error(f"cannot store a {value.type} into an array of {dtype}", node)
        if isinstance(dtype, T.IntType) and isinstance(value.type, T.FloatType):
            return self.float_item(value, dtype, node)
        self.check_int_fits(value, dtype, node)
        return self.coerce(value, dtype, node)

    def float_item(self, value: Value, dtype: T.IntType, node) -> Value:
        """A float stored into an int array, as NumPy does it: NaN and infinities are refused
        as int(x) refuses them; x is truncated to a Python int, which must fit a C long (an
        unsigned long long for uint32 and uint64) and then the array's type; each failure has
        NumPy's own message ("Python integer -1 out of bounds for uint8")."""
        loc = self.loc(node)
        t = value.type
        self.check_float_to_int(value, T.I64, node, limits=False)
        wide = not dtype.signed and dtype.bits >= 32           # tried as unsigned long long
        below = self.emit("cmp", [value, Const(-2.0 ** 63, t)], T.BOOL, "lt", loc)
        above = self.emit("cmp", [value, Const(2.0 ** 64 if wide else 2.0 ** 63, t)], T.BOOL, "ge", loc)
        self.raise_if(self.emit("or", [below, above], T.BOOL, None, loc), "OverflowError",
                      "Python int too large to convert to C long", node)
        name = f"{'' if dtype.signed else 'u'}int{dtype.bits}"
        text = f"Python integer %lld out of bounds for {name}"
        if not wide:
            whole = self.coerce(value, T.I64, node)
            self.check_int_fits(whole, dtype, node)
            return self.coerce(whole, dtype, node)
        # Unsigned 32 or 64 bits: -1.0 and below are out of bounds (printed signed); for
        # uint32, so is 2**32 and above (printed unsigned: its first digits, then its last).
        neg = self.emit("cmp", [value, Const(-1.0, t)], T.BOOL, "le", loc)
        shown = self.coerce(self.emit("select", [neg, value, Const(-1.0, t)], t, None, loc), T.I64, node)
        self.raise_if(neg, "OverflowError", text, node, args=[shown])
        if dtype.bits == 32:
            high = self.emit("cmp", [value, Const(2.0 ** 32, t)], T.BOOL, "ge", loc)
            big = self.coerce(self.emit("select", [high, value, Const(2.0 ** 32, t)], t, None, loc), T.U64, node)
            ten = Const(10, T.U64)
            head = self.emit("floordiv", [big, ten], T.U64, None, loc)
            tail = self.emit("mod", [big, ten], T.U64, None, loc)
            self.raise_if(high, "OverflowError", text.replace("%lld", "%lld%lld"), node,
                          args=[self.coerce(head, T.I64, node), self.coerce(tail, T.I64, node)])
        return self.coerce(value, dtype, node)

    def check_int_fits(self, value: Value, dtype: T.Type, node) -> None:
        """NumPy's item assignment of an integer scalar refuses a value the array's type
        cannot hold (300 into int8 raises OverflowError) where a cast would wrap. Arrays
        copied into arrays cast without this check, as in NumPy. (A u64 value is not
        checked: NumPy words that case differently.)"""
        vt = getattr(value, "type", None)
        if not isinstance(dtype, T.IntType) or not isinstance(vt, T.IntType):
            return
        if not vt.signed and vt.bits == 64:
            return
        loc = self.loc(node)
        bad = None
        if dtype.min > vt.min:
            bad = self.cmp("lt", value, Const(dtype.min, vt), node)
        if dtype.max < vt.max:
            hi = self.cmp("gt", value, Const(dtype.max, vt), node)
            bad = hi if bad is None else self.emit("or", [bad, hi], T.BOOL, None, loc)
        if bad is None:
            return
        name = f"{'' if dtype.signed else 'u'}int{dtype.bits}"
        self.raise_if(bad, "OverflowError", f"Python integer %lld out of bounds for {name}", node,
                      args=[self.coerce(value, T.I64, node)])

    def array_aug_assign(self, node: ast.AugAssign) -> None:
        target = node.target
        arr = self.expr(target.value)
        if not isinstance(arr.type, T.ArrayType):
            self.error(f"item assignment is not supported on {arr.type}", target)
        index_node = self.spread_tuple_index(target.slice)
        fancy = self.array_index_value(index_node)
        plan = self.index_plan(arr, index_node, target) if fancy is None else None
        if fancy is not None or plan is not None:
            return self.fancy_aug_assign(arr, fancy, plan, node)
        if self.is_view_index(arr, index_node):
            view = self.array_view(arr, index_node, target)
            return self.array_aug_assign_to(view, type(node.op), self.lazy(node.value), node)
        idx = self.array_indices(arr, index_node, target)
        old = self.emit("load", [arr, *idx], arr.type.dtype, None, self.loc(target))
        new = self.binop(type(node.op), old, self.expr(node.value), node)
        self.store_element(arr, idx, new, node)

    def fancy_aug_assign(self, arr: Value, fancy, plan, node: ast.AugAssign) -> None:
        """``a[mask] += v``, ``a[idx] *= v``, ``m[idx, 1:] -= v``: NumPy's ``t = a[index];
        t += v; a[index] = t``. The index is computed once, before the value; the in-place
        step is a new array's, with its same_kind rule and broadcasting; duplicate indices
        take the last write, as NumPy's."""
        from script.frontend.elementwise import ArrayExpr
        if isinstance(fancy, ArrayExpr):
            fancy = self.materialize(fancy, node)
        temp = self.fancy_load(arr, fancy, node) if plan is None else self.gather(plan, node)
        if not isinstance(getattr(temp, "type", None), T.ArrayType):
            self.error("augmented assignment through this index is not supported in compiled code", node)
        self.array_aug_assign_to(temp, type(node.op), self.lazy(node.value), node)
        if plan is None:
            self.fancy_store(arr, fancy, temp, node)
        else:
            self.scatter(plan, temp, node)

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
            return self.size_of(arr, node)
        if attr == "T":
            if t.ndim == 1:
                return arr
            return self.emit("transpose", [arr], t.with_layout("A"), None, loc)
        if attr == "itemsize":
            return Const(_itemsize(t.dtype), T.I64)
        if attr in ("real", "imag"):
            return self.array_part(arr, 0 if attr == "real" else 1, node)
        if attr == "nbytes":
            size = self.size_of(arr, node)
            return self.emit("mul", [size, Const(_itemsize(t.dtype), T.I64)], T.I64, None, loc)
        if attr == "dtype":
            self.error("a.dtype can only be compared (a.dtype == np.float64) or passed as "
                       "dtype= in compiled code", node)
        if attr == "flat":
            self.error("a.flat is supported only in a `for` loop (for x in a.flat) and in reads "
                       "a.flat[i] in compiled code; writing through it is not: index the array, "
                       "or write to a.reshape(-1) of a contiguous array", node)
        self.error(f"array attribute '{attr}' is not supported yet", node)

    def dtype_compare(self, node: ast.Compare) -> Value | None:
        """``a.dtype == np.float64`` (or ``!=``, against any dtype spelling, or another
        array's dtype): a constant, as element types are known when compiling; None when
        `node` compares no ``.dtype``."""
        if len(node.ops) != 1 or not isinstance(node.ops[0], (ast.Eq, ast.NotEq)):
            return None
        sides = (node.left, node.comparators[0])
        if not any(isinstance(x, ast.Attribute) and x.attr == "dtype" for x in sides):
            return None
        a, b = (self.dtype_arg(x, None) for x in sides)
        return Const((a == b) == isinstance(node.ops[0], ast.Eq), T.BOOL)

    # ---- a.flat and np.ndenumerate ------------------------------------------------------

    def flat_base(self, node):
        """(array, None) when `node` is ``a.flat`` of an array `a`, which is no value of its
        own in compiled code; (None, value) for any other attribute named flat; None when
        `node` is no such attribute. `a` is computed once either way."""
        if not (isinstance(node, ast.Attribute) and node.attr == "flat"):
            return None
        base = self.callee_ref(node.value)
        if isinstance(base, Value) and isinstance(base.type, T.ArrayType):
            return base, None
        return None, self.attribute_of(base, node)

    def flat_iterable(self, node):
        """`iterable` (lower_stmt) for ``a.flat`` and ``np.ndenumerate(a)``: the elements of
        `a` in C order, without a copy, each with its index tuple for ndenumerate; None when
        `node` is neither."""
        flat = self.flat_base(node)
        if flat is not None:
            arr, other = flat
            if arr is None:
                return self.iterable_value(other, node)
            return self.size_of(arr, node), self.flat_element(arr, node), arr.type.dtype
        if self.names_numpy(node, "ndindex"):
            return self.ndindex_iterable(node)
        if not self.names_numpy(node, "ndenumerate"):
            return None
        if len(node.args) != 1 or node.keywords:
            self.error("numpy.ndenumerate() takes one array here", node)
        arr = self.expr(node.args[0])
        if not isinstance(arr.type, T.ArrayType):
            self.error(f"numpy.ndenumerate() takes an array here, not {arr.type}", node.args[0])
        t = arr.type
        dims = [self.emit("dim", [arr], T.I64, k, self.loc(node)) for k in range(t.ndim)]

        def item(i):
            idx = self.unravel(i, dims, node)
            elem = self.emit("load", [arr, *idx], t.dtype, None, self.loc(node))
            return self.make_tuple([self.make_tuple(idx, node), elem], node)

        return (self.size_of(arr, node), item,
                T.TupleType([T.TupleType([T.I64] * t.ndim), t.dtype]))

    def names_numpy(self, node, name: str) -> bool:
        """Whether `node` is a call of ``np.<name>`` (by a name or a module's attribute, whose
        resolution computes nothing, so another callee is left alone)."""
        func = getattr(node, "func", None)
        named = isinstance(func, ast.Name) or (isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name))
        return named and getattr(func, "id", getattr(func, "attr", None)) == name \
            and getattr(self.callee_ref(func), "obj", None) is getattr(np, name)

    def ndindex_iterable(self, node):
        """``np.ndindex(shape)`` / ``np.ndindex(d0, d1, ...)``: every index tuple of that shape
        in C order; NumPy's ValueError for a negative length."""
        if node.keywords:
            self.error("numpy.ndindex() takes no keyword arguments", node)
        loc = self.loc(node)
        values = []
        for a in node.args:         # ndindex(shape), ndindex(d0, d1), ndindex(*shape)
            v = self.expr(a.value if isinstance(a, ast.Starred) else a)
            if isinstance(v.type, T.TupleType) and (isinstance(a, ast.Starred) or len(node.args) == 1):
                values += [self.emit("extract", [v], e, k, loc) for k, e in enumerate(v.type.elems)]
            else:
                values.append(v)
        if not values or not all(isinstance(v.type, (T.IntType, T.BoolType)) for v in values):
            self.error("numpy.ndindex() takes a shape: a tuple of ints, or ints", node)
        dims = [self.coerce(v, T.I64, node) for v in values]
        size = Const(1, T.I64)
        for d in dims:
            self.raise_if(self.cmp("lt", d, Const(0, T.I64), node), "ValueError",
                          "negative dimensions are not allowed", node)
            size = self.emit("mul", [size, d], T.I64, None, loc)
        return size, lambda i: self.make_tuple(self.unravel(i, dims, node), node), T.TupleType([T.I64] * len(dims))

    def flat_element(self, arr: Value, node):
        """i -> element i of `arr` in C order (0 <= i < arr.size): one load from a flat view
        of a C-contiguous array, else from the index the flat position unravels to."""
        t: T.ArrayType = arr.type
        loc = self.loc(node)
        if t.ndim == 1 or t.layout == "C":
            flat = arr if t.ndim == 1 else self.reshape(arr, [Const(-1, T.I64)], node)
            return lambda i: self.emit("load", [flat, i], t.dtype, None, loc)
        dims = [self.emit("dim", [arr], T.I64, k, loc) for k in range(t.ndim)]
        return lambda i: self.emit("load", [arr, *self.unravel(i, dims, node)], t.dtype, None, loc)

    def unravel(self, i: Value, dims: list[Value], node) -> list[Value]:
        """The C-order index of flat position 0 <= i < prod(dims) (np.unravel_index)."""
        loc = self.loc(node)
        idx = []
        for d in reversed(dims[1:]):
            idx.append(self.emit("mod", [i, d], T.I64, None, loc))
            i = self.emit("floordiv", [i, d], T.I64, None, loc)
        return [i] + idx[::-1]

    def flat_load(self, node: ast.Subscript) -> Value | None:
        """``a.flat[i]``: element i of `a` in C order (negative i counts from the end; out of
        range raises NumPy's IndexError); None when `node` indexes no ``a.flat``."""
        flat = self.flat_base(node.value)
        if flat is None:
            return None
        arr, other = flat
        if arr is None:
            return self.subscript_of(other, node)
        if isinstance(node.slice, (ast.Slice, ast.Tuple)):
            self.error("a.flat takes one integer index in compiled code (a.flat[i]); for a slice, "
                       "use a.ravel()[...]", node)
        v = self.expr(node.slice)
        if not isinstance(v.type, T.IntType):
            self.error(f"a.flat takes one integer index in compiled code, not {v.type}", node.slice)
        loc = self.loc(node)
        i = self.coerce(v, T.I64, node.slice)
        size = self.size_of(arr, node)
        neg = self.cmp("lt", i, Const(0, T.I64), node)
        j = self.emit("select", [neg, self.emit("add", [i, size], T.I64, None, loc), i], T.I64, None, loc)
        if self.boundscheck:
            bad = self.emit("or", [self.cmp("lt", j, Const(0, T.I64), node),
                                   self.emit("cmp", [j, size], T.BOOL, "ge", loc)], T.BOOL, None, loc)
            self.raise_if(bad, "IndexError", "index %lld is out of bounds for size %lld", node, [i, size])
        return self.flat_element(arr, node)(j)

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


def _is_newaxis(p) -> bool:
    return (isinstance(p, ast.Constant) and p.value is None) or (
        isinstance(p, ast.Attribute) and p.attr == "newaxis")


def _is_ellipsis(p) -> bool:
    return isinstance(p, ast.Constant) and p.value is Ellipsis


def _itemsize(t: T.Type) -> int:
    return 1 if isinstance(t, T.BoolType) else t.bits // 8
