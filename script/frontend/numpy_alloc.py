"""NumPy array creation in compiled code: `np.empty`, `zeros`, `ones`, `full`, the `*_like`
forms, `arange`, `linspace`, `copy`, `reshape`, `ravel`, `flatten`, `astype`.

Requires the host class to be a `FunctionLowering`. New arrays come from the IR's `alloc`
(C-contiguous, reference counted by the backend); every size is checked as NumPy checks it
(negative lengths, byte sizes beyond the address space) before it is allocated.
"""

from __future__ import annotations

import ast
import math

from script.frontend.registry import ANY, CALLS, METHODS, lowers, numpy_function
from script.frontend.unknown import Unknown
from script.frontend.pyref import PyRef
from script.ir import types as T
from script.ir.core import Const, Value
from script.ir.ops import MAX_MESSAGE_ARGS

_TOO_BIG = "array is too big; `arr.size * arr.dtype.itemsize` is larger than the maximum possible size."


def itemsize(t: T.Type) -> int:
    return 1 if isinstance(t, T.BoolType) else t.bits // 8


class AllocLowering:
    """Mixin for FunctionLowering."""

    # ---- building blocks ------------------------------------------------------------------

    def alloc_array(self, dtype: T.Type, dims: list[Value], node) -> Value:
        """A new C-contiguous array of `dtype` and lengths `dims` (i64 values), its contents
        undefined; ValueError for a negative length, as NumPy raises."""
        loc = self.loc(node)
        dims = [self.coerce(d, T.I64, node) for d in dims]
        if any(not isinstance(d, Const) for d in dims):
            negative = None
            for d in dims:
                c = self.cmp("lt", d, Const(0, T.I64), node)
                negative = c if negative is None else self.emit("or", [negative, c], T.BOOL, None, loc)
            self.raise_if(negative, "ValueError", "negative dimensions are not allowed", node)
            self.check_byte_size(dims, itemsize(dtype), node)
        else:
            if any(d.value < 0 for d in dims):
                self.error("negative dimensions are not allowed", node)
            if math.prod(d.value for d in dims) * itemsize(dtype) > T.I64.max:
                self.error(_TOO_BIG, node)
        return self.emit("alloc", dims, T.ArrayType(dtype, len(dims), "C"), None, loc)

    def check_byte_size(self, dims: list[Value], size: int, node) -> None:
        """ValueError when the lengths (each >= 0) times `size` bytes exceed the i64 range,
        unless one of them is 0.

        The first length d is compared with a constant (``size * d > MAX`` exactly when
        ``d > MAX // size``); a later one divides MAX by ``max(d, 1)``, which the ranges
        pass sees is >= 1 and makes an unsigned division. Dividing by ``select(d != 0, d,
        1)`` (the same value for d >= 0) left LLVM a signed floor division, its sign fix-up
        and the test of a divisor -1 to fold, for each array a function makes."""
        loc = self.loc(node)
        acc: Value = Const(size, T.I64)
        big: Value = Const(False, T.BOOL)
        zero: Value = Const(False, T.BOOL)
        for d in dims:
            nonzero = self.cmp("ne", d, Const(0, T.I64), node)
            safe = self.emit("max", [d, Const(1, T.I64)], T.I64, None, loc)
            if isinstance(acc, Const):
                over = self.cmp("gt", d, Const(T.I64.max // acc.value, T.I64), node)
            else:
                limit = self.emit("floordiv", [Const(T.I64.max, T.I64), safe], T.I64, None, loc)
                over = self.emit("and", [nonzero, self.cmp("gt", acc, limit, node)], T.BOOL, None, loc)
            big = self.emit("or", [big, over], T.BOOL, None, loc)
            zero = self.emit("or", [zero, self.emit("not", [nonzero], T.BOOL, None, loc)], T.BOOL, None, loc)
            acc = self.emit("mul", [acc, safe], T.I64, None, loc)
        bad = self.emit("and", [big, self.emit("not", [zero], T.BOOL, None, loc)], T.BOOL, None, loc)
        self.raise_if(bad, "ValueError", _TOO_BIG, node)

    def loop_nest(self, node, dims: list[Value], body, idx=()) -> None:
        """Run `body(indices)` for every index tuple of an array with lengths `dims`, the last
        axis innermost."""
        if len(idx) == len(dims):
            body(list(idx))
            return
        self.counted_loop(self.info.synthetic_loop(node), Const(0, T.I64), dims[len(idx)], Const(1, T.I64),
                          lambda i: self.loop_nest(node, dims, body, (*idx, i)))

    def dims_of(self, arr: Value, node) -> list[Value]:
        return [self.emit("dim", [arr], T.I64, k, self.loc(node)) for k in range(arr.type.ndim)]

    def shape_values(self, shape_node, node) -> list[Value]:
        """The lengths a shape argument names: an int, or a tuple or list of ints."""
        if isinstance(shape_node, (ast.List, ast.Tuple)):
            parts = [self.expr(e) for e in shape_node.elts]
        else:
            v = self.expr(shape_node)
            if isinstance(v.type, T.TupleType):
                parts = [self.tuple_item(v, Const(k, T.I64), shape_node, shape_node)
                         for k in range(len(v.type.elems))]
            else:
                parts = [v]
        for p in parts:
            if not isinstance(p.type, (T.IntType, T.BoolType, Unknown)):
                self.error(f"'{p.type}' object cannot be interpreted as an integer (array shape)",
                           shape_node)
        return [self.coerce(p, T.I64, shape_node) for p in parts]

    def dtype_arg(self, dtype_node, default: T.Type) -> T.Type:
        """The element type a ``dtype=`` argument names (`float`, `np.int32`, ``"f4"``,
        `script.f32`, ``a.dtype``), or `default` when it is absent or None."""
        if dtype_node is None or (isinstance(dtype_node, ast.Constant) and dtype_node.value is None):
            return default
        if isinstance(dtype_node, ast.Constant) and isinstance(dtype_node.value, str):
            return self.dtype_from_object(dtype_node.value, dtype_node)
        if isinstance(dtype_node, ast.Attribute) and dtype_node.attr == "dtype":
            base = self.callee_ref(dtype_node.value)
            if isinstance(getattr(base, "type", None), T.ArrayType):
                return base.type.dtype
        ref = self.callee_ref(dtype_node)
        if getattr(ref, "opname", None) == "str_const":      # a name bound to a string ("f4")
            return self.dtype_from_object(ref.attr, dtype_node)
        if not isinstance(ref, PyRef):
            self.error("dtype must be a type known when compiling (float, np.int32, 'f8', ...)", dtype_node)
        return self.dtype_from_object(ref.obj, dtype_node)

    def dtype_from_object(self, obj, node) -> T.Type:
        import numpy as np
        from script.frontend.typeinfer import SizedType
        if isinstance(obj, SizedType):
            return obj.ir_type
        try:
            dt = np.dtype(obj)
        except TypeError:
            self.error(f"data type {obj!r} not understood", node)
        from script.frontend.typeinfer import dtype_to_type
        t = dtype_to_type(dt)
        if t is None:
            self.error(f"arrays of {dt} are not supported in compiled code", node)
        return t

    def default_dtype(self, v: Value) -> T.Type:
        """The dtype NumPy gives an array filled from scalar `v` (np.full's default)."""
        if isinstance(v.type, T.BoolType):
            return T.BOOL
        if isinstance(v.type, T.IntType):
            return v.type
        return v.type if isinstance(v.type, (T.FloatType, T.ComplexType)) else T.F64

    def fill(self, arr: Value, value: Value, node) -> None:
        v = self.item_value(value, arr.type.dtype, node)
        self.loop_nest(node, self.dims_of(arr, node),
                       lambda idx: self.emit("store", [arr, v, *idx], T.NONE, None, self.loc(node)))

    def copy_into(self, dst: Value, src: Value, node, convert: bool = False) -> None:
        """Copy `src` into `dst` of the same shape, converting elements as NumPy's casts do
        (`convert`: unchecked, as ``astype``), or as item assignment does."""
        def body(idx):
            v = self.emit("load", [src, *idx], src.type.dtype, None, self.loc(node))
            if convert:
                self.emit("store", [dst, self.cast_element(v, dst.type.dtype, node), *idx], T.NONE, None,
                          self.loc(node))
            else:
                self.store_element(dst, idx, v, node)
        self.loop_nest(node, self.dims_of(src, node), body)

    def cast_element(self, v: Value, t: T.Type, node) -> Value:
        """NumPy's unsafe cast of one element (``astype``): floats to ints truncate, no check."""
        if v.type == t:
            return v
        if isinstance(t, T.BoolType):
            return self.truth(v, node)
        return self.emit("convert", [v], t, None, self.loc(node))

    # ---- the functions --------------------------------------------------------------------

    def np_args(self, node: ast.Call, name: str, names: tuple, required: int) -> list:
        """The argument nodes of a call to numpy.`name` bound to parameter `names` (None where
        absent); the first `required` must be given."""
        bound = list(node.args) + [None] * (len(names) - len(node.args))
        if len(node.args) > len(names):
            self.error(f"numpy.{name}() takes at most {len(names)} arguments here", node)
        for k in node.keywords:
            if k.arg not in names:
                self.error(f"numpy.{name}() got an unsupported keyword argument '{k.arg}'", k.value)
            i = names.index(k.arg)
            if bound[i] is not None:
                self.error(f"numpy.{name}() got multiple values for argument '{k.arg}'", k.value)
            bound[i] = k.value
        for i in range(required):
            if bound[i] is None:
                self.error(f"numpy.{name}() missing required argument '{names[i]}'", node)
        return bound

    def check_order(self, order_node, node) -> None:
        if order_node is not None and not (isinstance(order_node, ast.Constant) and order_node.value in ("C", "K", "A")):
            self.error("only order='C' arrays can be created in compiled code", order_node)

    def np_empty(self, node, name):
        shape, dtype, order = self.np_args(node, name, ("shape", "dtype", "order"), 1)
        self.check_order(order, node)
        arr = self.alloc_array(self.dtype_arg(dtype, T.F64), self.shape_values(shape, node), node)
        if name in ("zeros", "ones"):
            self.fill(arr, Const(0 if name == "zeros" else 1, T.I64), node)
        return arr

    def np_full(self, node, name):
        shape, value, dtype, order = self.np_args(node, name, ("shape", "fill_value", "dtype", "order"), 2)
        self.check_order(order, node)
        dims = self.shape_values(shape, node)       # the arguments in order, as Python
        v = self.expr(value)
        arr = self.alloc_array(self.dtype_arg(dtype, self.default_dtype(v)), dims, node)
        self.fill(arr, v, node)
        return arr

    def np_like(self, node, name):
        names = ("a", "fill_value", "dtype") if name == "full_like" else ("a", "dtype")
        args = self.np_args(node, name, names, len(names) - 1)
        proto = self.array_arg(args[0], name)
        arr = self.alloc_array(self.dtype_arg(args[-1], proto.type.dtype), self.dims_of(proto, node), node)
        if name != "empty_like":
            value = {"zeros_like": Const(0, T.I64), "ones_like": Const(1, T.I64)}.get(name)
            self.fill(arr, value if value is not None else self.expr(args[1]), node)
        return arr

    def array_arg(self, arg_node, name: str) -> Value:
        v = self.expr(arg_node)
        if not isinstance(v.type, T.ArrayType):
            self.error(f"numpy.{name}() expects an array here, not {v.type}", arg_node)
        return v

    def np_copy(self, node, name):
        (a,) = self.np_args(node, name, ("a",), 1)
        return self.copy_array(self.array_arg(a, name), node)

    def copy_array(self, arr: Value, node, dtype: T.Type | None = None) -> Value:
        out = self.alloc_array(dtype or arr.type.dtype, self.dims_of(arr, node), node)
        self.copy_into(out, arr, node, convert=True)
        return out

    def np_arange(self, node, name):
        start, stop, step, dtype = self.np_args(node, name, ("start", "stop", "step", "dtype"), 1)
        loc = self.loc(node)
        values = [self.expr(a) for a in (start, stop, step) if a is not None]
        if stop is None:
            values = [Const(0, T.I64)] + values
        if len(values) == 2:
            values.append(Const(1, T.I64))
        for v, n in zip(values, (start, stop, step)):
            if not v.type.is_numeric():
                self.error(f"numpy.arange() arguments must be numbers, not {v.type}", n or node)
        floats = any(isinstance(v.type, T.FloatType) for v in values)
        t = T.F64 if floats else T.I64
        lo, hi, st = (self.coerce(v, t, node) for v in values)
        # (a step of 0 raises when the call runs, as in NumPy, even where it is a constant)
        self.raise_if(self.cmp("eq", st, Const(0, t), node), "ZeroDivisionError",
                      "float division by zero" if floats else "division by zero", node)
        if floats:
            span = self.emit("div", [self.emit("sub", [hi, lo], t, None, loc), st], t, None, loc)
            count = self.emit("math", [span], t, "ceil", loc)
            ok = self.emit("cmp", [count, Const(0.0, t)], T.BOOL, "gt", loc)   # false for NaN too
            count = self.emit("select", [ok, count, Const(0.0, t)], t, None, loc)
            n = self.convert_checked(count, T.I64, node)
        else:
            span = self.emit("sub", [hi, lo], t, None, loc)
            pos = self.cmp("gt", st, Const(0, t), node)
            adj = self.emit("select", [pos, Const(-1, t), Const(1, t)], t, None, loc)
            n = self.emit("floordiv", [self.emit("add", [span, self.emit("add", [st, adj], t, None, loc)], t, None, loc),
                                       st], t, None, loc)
            n = self.emit("max", [n, Const(0, t)], t, None, loc)
        od = self.dtype_arg(dtype, t)
        out = self.alloc_array(od, [n], node)
        if isinstance(od, T.IntType):
            # NumPy stores the first two elements as Python scalars (item assignment: int()
            # of a float, OverflowError for a value the type cannot hold), the rest wrapped
            def check(value):
                self.item_value(value, od, node)
            for k, value in enumerate((lo, self.emit("add", [lo, st], t, None, loc))):
                self.choose(self.cmp("gt", n, Const(k, T.I64), node), lambda: check(value), lambda: None, node)
        # As NumPy's `fill` functions: the first two elements are start and start + step in
        # the output type, element i > 1 is first + i * (second - first), computed in the
        # output type (ints in int64, then wrapped). So np.arange(1.0, 4.0, 0.1)[5] is
        # 1.0 + 5 * 0.10000000000000009, not 1.0 + 5 * 0.1.
        first = self.cast_element(lo, od, node)
        second = self.cast_element(self.emit("add", [lo, st], t, None, loc), od, node)
        ct = od if isinstance(od, T.FloatType) else T.I64
        base, delta = self.coerce(first, ct, node), self.coerce(second, ct, node)
        delta = self.emit("sub", [delta, base], ct, None, loc)

        def body(idx):
            i = idx[0]
            v = self.emit("add", [base, self.emit("mul", [self.coerce(i, ct, node), delta], ct, None, loc)],
                          ct, None, loc)
            v = self.cast_element(v, od, node)
            v = self.emit("select", [self.cmp("eq", i, Const(1, T.I64), node), second, v], od, None, loc)
            v = self.emit("select", [self.cmp("eq", i, Const(0, T.I64), node), first, v], od, None, loc)
            self.emit("store", [out, v, i], T.NONE, None, loc)
        self.loop_nest(node, [n], body)
        return out

    def np_linspace(self, node, name):
        start, stop, num, endpoint, retstep, dtype = self.np_args(
            node, name, ("start", "stop", "num", "endpoint", "retstep", "dtype"), 2)
        loc = self.loc(node)
        with_step = False
        if retstep is not None:
            r = self.expr(retstep)
            if not isinstance(r, Const):
                self.error("numpy.linspace(retstep=...) must be a constant in compiled code", retstep)
            with_step = bool(r.value)
        lo = self.float_arg(self.expr(start), node)
        hi = self.float_arg(self.expr(stop), node)
        t = T.F64
        lo, hi = self.coerce(lo, t, node), self.coerce(hi, t, node)
        n = Const(50, T.I64) if num is None else self.coerce(self.expr(num), T.I64, num)
        self.raise_if(self.cmp("lt", n, Const(0, T.I64), node), "ValueError",
                      "Number of samples, %lld, must be non-negative.", node, [n])
        end = True
        if endpoint is not None:
            e = self.expr(endpoint)
            if not isinstance(e, Const):
                self.error("numpy.linspace(endpoint=...) must be a constant in compiled code", endpoint)
            end = bool(e.value)
        div = self.emit("sub", [n, Const(1, T.I64)], T.I64, None, loc) if end else n
        fdiv = self.coerce(div, t, node)
        delta = self.emit("sub", [hi, lo], t, None, loc)
        step = self.emit("div", [delta, fdiv], t, None, loc)
        out = self.alloc_array(self.dtype_arg(dtype, t), [n], node)

        # NumPy's arithmetic exactly: i * step, or i / div * delta when the step underflows
        # to 0, or i * delta when there is no step (a single sample).
        positive = self.cmp("gt", div, Const(0, T.I64), node)
        step_zero = self.emit("cmp", [step, Const(0.0, t)], T.BOOL, "eq", loc)

        def body(idx):
            i = self.coerce(idx[0], t, node)
            by_step = self.emit("mul", [i, step], t, None, loc)
            scaled = self.emit("mul", [self.emit("div", [i, fdiv], t, None, loc), delta], t, None, loc)
            v = self.emit("select", [step_zero, scaled, by_step], t, None, loc)
            v = self.emit("select", [positive, v, self.emit("mul", [i, delta], t, None, loc)], t, None, loc)
            v = self.emit("add", [v, lo], t, None, loc)
            self.emit("store", [out, self.cast_element(v, out.type.dtype, node), idx[0]], T.NONE, None, loc)
        self.loop_nest(node, [n], body)
        if end:
            last = self.emit("sub", [n, Const(1, T.I64)], T.I64, None, loc)
            has_two = self.cmp("gt", n, Const(1, T.I64), node)
            self.when(has_two, lambda: self.emit(
                "store", [out, self.cast_element(hi, out.type.dtype, node), last], T.NONE, None, loc), node)
        if with_step:           # (samples, step); the step is NaN where there is none, as NumPy's
            step = self.emit("select", [positive, step, Const(float("nan"), t)], t, None, loc)
            return self.make_tuple([out, step], node)
        return out

    def when(self, cond: Value, then, node) -> None:
        """Run `then()` (which emits code) only where `cond` holds."""
        if isinstance(cond, Const):
            if cond.value:
                then()
            return
        body, done = self.new_block("when"), self.new_block("when.done")
        self.branch(cond, body, done, self.loc(node))
        self.seal(body)
        self.start(body)
        then()
        self.goto(done, self.loc(node))
        self.finish_join(done)

    # ---- reshaping ------------------------------------------------------------------------

    def reshape(self, arr: Value, shape: list[Value], node) -> Value:
        """`arr.reshape(shape)`: a view of a C-contiguous array, else of a C copy; one length
        may be -1 (inferred)."""
        loc = self.loc(node)
        size = self.size_of(arr, node)
        known: Value = Const(1, T.I64)
        unknown = [k for k, d in enumerate(shape) if isinstance(d, Const) and d.value == -1]
        if len(unknown) > 1:
            self.error("can only specify one unknown dimension", node)
        for k, d in enumerate(shape):
            if k not in unknown:
                known = self.emit("mul", [known, d], T.I64, None, loc)
        if unknown:
            nonzero = self.cmp("ne", known, Const(0, T.I64), node)
            safe = self.emit("select", [nonzero, known, Const(1, T.I64)], T.I64, None, loc)
            inferred = self.emit("floordiv", [size, safe], T.I64, None, loc)
            shape = list(shape)
            shape[unknown[0]] = inferred
            known = self.emit("mul", [known, inferred], T.I64, None, loc)
        for d in shape:
            if isinstance(d, Const) and d.value < 0:
                self.error("negative dimensions not allowed in a shape", node)
        bad = self.cmp("ne", known, size, node)
        if unknown:
            # NumPy cannot infer a length next to a zero one, even for an empty array
            bad = self.emit("or", [bad, self.emit("not", [nonzero], T.BOOL, None, loc)], T.BOOL, None, loc)
        for d in shape:
            bad = self.emit("or", [bad, self.cmp("lt", d, Const(0, T.I64), node)], T.BOOL, None, loc)
        # NumPy's message names an inferred length "newaxis", and leaves out a leading one
        # (`a.reshape(-1, 2)`: "into shape (2)").
        parts = ["newaxis" if k in unknown else "%lld" for k in range(len(shape))]
        if unknown == [0]:
            parts = parts[1:]
        dims_text = ",".join(parts) + ("," if len(shape) == 1 and parts else "")
        named = [d for k, d in enumerate(shape) if k not in unknown]
        if 1 + len(named) <= MAX_MESSAGE_ARGS:
            self.raise_if(bad, "ValueError", f"cannot reshape array of size %lld into shape ({dims_text})",
                          node, [size] + named)
        else:
            self.raise_if(bad, "ValueError", "cannot reshape array of size %lld into the given shape", node, [size])
        src = arr if arr.type.layout == "C" else self.contiguous(arr, node)
        return self.emit("reshape", [src, *shape], T.ArrayType(arr.type.dtype, len(shape), "C"), None, loc)

    def contiguous(self, arr: Value, node) -> Value:
        """`arr` as a C-contiguous array: itself when its strides are C's (checked at run
        time), else a copy. The result has layout "C"."""
        c = arr.type.with_layout("C")
        return self.choose(self.is_c_contiguous(arr, node),
                           lambda: self.emit("reshape", [arr, *self.dims_of(arr, node)], c, None, self.loc(node)),
                           lambda: self.copy_array(arr, node), node)

    def is_c_contiguous(self, arr: Value, node) -> Value:
        """Whether `arr`'s strides are C's at run time (NumPy's C_CONTIGUOUS flag: an axis
        of length 1 may have any stride)."""
        loc = self.loc(node)
        ok: Value = Const(True, T.BOOL)
        expect: Value = Const(itemsize(arr.type.dtype), T.I64)
        for k in reversed(range(arr.type.ndim)):
            d = self.emit("dim", [arr], T.I64, k, loc)
            s = self.emit("stride", [arr], T.I64, k, loc)
            good = self.emit("or", [self.cmp("eq", s, expect, node), self.cmp("le", d, Const(1, T.I64), node)],
                             T.BOOL, None, loc)
            ok = self.emit("and", [ok, good], T.BOOL, None, loc)
            expect = self.emit("mul", [expect, d], T.I64, None, loc)
        return ok

    def size_of(self, arr: Value, node) -> Value:
        """The number of elements of `arr` (the product of its lengths)."""
        size, *rest = self.dims_of(arr, node)
        for d in rest:
            size = self.emit("mul", [size, d], T.I64, None, self.loc(node))
        return size

    # ---- array methods --------------------------------------------------------------------

    def array_method(self, arr: Value, name: str, node: ast.Call) -> Value:
        """``arr.<name>(...)``: the registry's ("array", name) entry."""
        return METHODS.lookup("array", name)(self, arr, node)

    def array_method_other(self, arr: Value, name: str, node: ast.Call) -> Value:
        from script.frontend import numpy_lib
        fn = numpy_lib.METHODS.get(name)
        if name == "tolist":
            fn = numpy_lib.TOLIST.get(arr.type.ndim)
            if fn is None:
                self.error(f"a.tolist() of a {arr.type.ndim}-d array is not supported in compiled code "
                           f"(up to {max(numpy_lib.TOLIST)} axes: lists of lists)", node)
        if name in ("std", "var") and self.axis_given(node, 0):
            return self.std_var(node, name, first=arr)
        from script.frontend import numpy_along, numpy_shape
        from script.frontend.numpy_lib_call import call_library
        if fn is not None:
            return call_library(self, node, name, first=arr, fn=fn)
        if name in numpy_shape.METHODS or name in numpy_along.METHODS:
            return call_library(self, node, name, first=arr)
        if name == "nonzero":
            from script.frontend.numpy_lib_call import call_library
            return call_library(self, node, name, first=arr)
        if name == "clip":
            return self.np_clip(node, name, first=arr)
        if name in ("transpose", "swapaxes") and arr.type.ndim == 2 and (
                name == "transpose" and not node.args or name == "swapaxes" and len(node.args) == 2):
            return self.emit("transpose", [arr], arr.type.with_layout("A"), None, self.loc(node))
        self.error(f"array method '{name}' is not supported in compiled code", node.func)

    def np_library(self, node, name):
        """``np.<name>(...)`` written in the subset itself (numpy_lib_call)."""
        from script.frontend.numpy_lib_call import call_library
        if name in ("std", "var") and self.axis_given(node, 1):
            return self.std_var(node, name)
        if name in ("average", "count_nonzero", "ptp") and self.axis_given(node, 1) and not self.axis_is_none(node):
            from script.frontend import axis_stats
            return getattr(axis_stats, name + "_axis")(self, node)
        return call_library(self, node, name)

    def np_where_any(self, node, name):
        """``np.where(condition)`` is ``np.nonzero``; with x and y, element-wise
        (elementwise.np_where)."""
        if len(node.args) + len(node.keywords) == 1:
            return self.np_library(node, "nonzero")
        return self.np_where(node, name)                   # elementwise.py

    @staticmethod
    def axis_is_none(node: ast.Call) -> bool:
        """Whether a call says ``axis=None`` by keyword (the whole-array form)."""
        return any(k.arg == "axis" and isinstance(k.value, ast.Constant) and k.value.value is None
                   for k in node.keywords)

    @staticmethod
    def axis_given(node: ast.Call, position: int) -> bool:
        """Whether a call passes ``axis`` (by keyword, or as positional argument `position`)."""
        return len(node.args) > position or any(k.arg == "axis" for k in node.keywords)

    def std_var(self, node, name, first: Value | None = None) -> Value:
        """``np.std``/``np.var`` along an axis: the mean along it, broadcast back through a
        new axis, the squared differences summed along it over ``n - ddof``."""
        if first is None:
            a_node, axis_node, ddof_node = self.np_args(node, name, ("a", "axis", "ddof"), 1)
            arr = self.expr(a_node)
        else:
            axis_node, ddof_node = self.np_args(node, name, ("axis", "ddof"), 0)
            arr = first
        if not isinstance(arr.type, T.ArrayType):
            self.error(f"numpy.{name}() takes an array", node)
        loc = self.loc(node)
        axis = self.axis_arg(axis_node, arr.type.ndim, node)
        if axis is None or arr.type.ndim == 1:
            self.error(f"numpy.{name}(axis=...) needs an axis of an array of 2 or more dimensions here", node)
        mv = self.keep_axis(self.reduce_value(arr, "mean", axis_node, node), axis, node)
        d = self.ufunc_expr("subtract", [arr, mv], node)
        sq = self.materialize(self.ufunc_expr("multiply", [d, d], node), node)
        total = self.reduce_value(sq, "sum", axis_node, node)
        ddof = Const(0, T.I64) if ddof_node is None else self.coerce(self.expr(ddof_node), T.I64, ddof_node)
        count = self.emit("sub", [self.emit("dim", [arr], T.I64, axis, loc), ddof], T.I64, None, loc)
        v = self.ufunc_expr("true_divide", [total, count], node)
        return self.ufunc_expr("sqrt", [v], node) if name == "std" else v

    def method_copy(self, arr, node):
        self.method_args(node, "copy", 0)
        return self.copy_array(arr, node)

    def method_reshape(self, arr, node):
        if node.keywords:
            self.error("reshape() takes no keyword arguments here", node)
        if len(node.args) == 1:
            shape = self.shape_values(node.args[0], node)
        else:
            shape = [self.coerce(self.expr(a), T.I64, a) for a in node.args]
        return self.reshape(arr, shape, node)

    def method_ravel(self, arr, node):
        self.method_args(node, "ravel", 0)
        return self.reshape(arr, [Const(-1, T.I64)], node)

    def method_flatten(self, arr, node):
        self.method_args(node, "flatten", 0)
        return self.reshape(self.copy_array(arr, node), [Const(-1, T.I64)], node)

    def method_astype(self, arr, node):
        if len(node.args) != 1 or node.keywords:
            self.error("astype() takes one argument (the dtype) here", node)
        return self.copy_array(arr, node, self.dtype_arg(node.args[0], arr.type.dtype))

    def method_fill(self, arr, node):
        (v,) = self.method_args(node, "fill", 1)
        self.fill(arr, v, node)
        return Const(None, T.NONE)

    def method_args(self, node, name: str, n: int) -> list[Value]:
        if node.keywords or len(node.args) != n:
            self.error(f"{name}() takes {n} positional argument{'s' if n != 1 else ''} here", node)
        return [self.expr(a) for a in node.args]


for _name, _handler in (("copy", AllocLowering.method_copy), ("reshape", AllocLowering.method_reshape),
                       ("ravel", AllocLowering.method_ravel), ("flatten", AllocLowering.method_flatten),
                       ("astype", AllocLowering.method_astype), ("fill", AllocLowering.method_fill)):
    METHODS.register(("array", _name), _handler)
METHODS.register(("array", ANY), lambda low, arr, node: low.array_method_other(arr, node.func.attr, node))

for _name, _handler in (
        ("empty", AllocLowering.np_empty), ("zeros", AllocLowering.np_empty), ("ones", AllocLowering.np_empty),
        ("full", AllocLowering.np_full), ("empty_like", AllocLowering.np_like),
        ("zeros_like", AllocLowering.np_like), ("ones_like", AllocLowering.np_like),
        ("full_like", AllocLowering.np_like), ("copy", AllocLowering.np_copy),
        ("arange", AllocLowering.np_arange), ("linspace", AllocLowering.np_linspace),
        ("where", AllocLowering.np_where_any)):
    CALLS.register(numpy_function(_name), _handler)


@lowers(numpy_function("finfo"), numpy_function("iinfo"))
def _limits(lowering, node, name):
    from script.frontend.numpy_limits import lower_limits       # (loaded by the first call)
    return lower_limits(lowering, node, name)


@lowers(numpy_function("pad"))
def _pad(lowering, node, name):
    from script.frontend.numpy_pad import lower_pad             # (loaded by the first call)
    return lower_pad(lowering, node)


@CALLS.family
def _ufunc_method(obj):
    """``np.maximum.accumulate``, ``np.add.at``, ... (a method of a ufunc: made anew at each
    access, so a family rather than keys)."""
    import numpy as np
    if type(getattr(obj, "__self__", None)) is not np.ufunc:
        return None
    from script.frontend.numpy_reduce import ReduceLowering, ufunc_method
    method = ufunc_method(obj)
    return None if method is None else (ReduceLowering.np_ufunc_method, method)


@CALLS.family
def _library_function(obj):
    """NumPy's functions written in the subset (numpy_lib_call)."""
    from script.frontend.numpy_lib_call import library_name
    name = library_name(obj)
    return None if name is None else (AllocLowering.np_library, name)
