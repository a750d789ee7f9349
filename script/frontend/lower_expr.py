"""Expressions: Python operators with Python's semantics, lowered to typed IR.

Requires the host class to be an `SSABuilder` with `loc(node)`, `error(msg, node)`,
`resolve_name(node)` and `lower_call(node)` (see lower_stmt.FunctionLowering).

Literal constants are *weak* (`WeakConst`): combined with a sized value they take its type,
as NumPy 2 does for Python scalars (`x * 2` stays `i32` when `x` is `i32`).
"""

from __future__ import annotations

import ast
import collections
import operator

from script.frontend import function_values
from script.frontend import (arrays, ast_order, bool_ints, class_members, class_methods, class_types,
                             class_unions, complex_lowering, elementwise, enum_values, exceptions, held_iterators,
                             mixed_numbers, optional, records, set_ops, star_displays, static_args, union_values)
from script.lib.python import pylib
from script.frontend.int_consts import (RANGE_TEXT, TWO_64, exact_int, exact_int_beyond, fits_64, int_constant,
                                        is_checked, is_int_u64_mix, is_library, overflow_text, takes_u64)
from script.frontend.pymessages import args_text, message, printf_escape
from script.frontend.dispatch_tables import table_keys_compare
from script.frontend.elementwise import ArrayExpr, is_array_like
from script.frontend.registry import BINOPS
from script.frontend.table_args import counter_operands, is_counter
from script.frontend.optional import is_optional, python_name, test_facts
from script.frontend.ssa_builder import fold_convert
from script.frontend.unknown import UNKNOWN, Undef, Unknown
from script.frontend.class_methods import mixed_classes
from script.frontend.star_displays import has_star
from script.ir import types as T
from script.ir.core import Const, Value
from script.ir.ops import OVF_OPS, ExcInfo


# Python values that are not containers: `x[i]`, `x in y` and `for v in x` of one raise
# CPython's TypeError at run time, where CPython raises it.
NOT_CONTAINERS = (T.NONE, T.I64, T.F64, T.BOOL, T.C128)


class WeakConst(Const):
    """A constant written as a literal in the source; it adapts to the other operand's width."""

    __slots__ = ()


_ARITH_OPS = {ast.Add: "add", ast.Sub: "sub", ast.Mult: "mul", ast.Div: "div",
              ast.FloorDiv: "floordiv", ast.Mod: "mod", ast.Pow: "pow",
              ast.BitAnd: "and", ast.BitOr: "or", ast.BitXor: "xor",
              ast.LShift: "shl", ast.RShift: "shr"}
_CMP_OPS = {ast.Eq: "eq", ast.NotEq: "ne", ast.Lt: "lt", ast.LtE: "le", ast.Gt: "gt", ast.GtE: "ge"}
_SYMBOL = {ast.Add: "+", ast.Sub: "-", ast.Mult: "*", ast.Div: "/", ast.FloorDiv: "//",
           ast.Mod: "%", ast.Pow: "**", ast.BitAnd: "&", ast.BitOr: "|", ast.BitXor: "^",
           ast.LShift: "<<", ast.RShift: ">>", ast.MatMult: "@"}


_NUMPY_ARITH = frozenset(("add", "sub", "mul", "neg", "abs", "shl", "floordiv", "mod", "pow"))


# Types of values CPython never takes as a sequence index (its TypeError when the line runs)
NOT_INDICES = (T.FloatType, T.StrType, T.NoneType, T.ComplexType, T.TupleType, T.ListType, T.HashType)


def is_numpy_int(v, python_ints: set, depth: int = 0) -> bool:
    """Whether int value `v` is a NumPy scalar in CPython: an array's element (`load`) or
    computed from one (`s += a[i]` makes `s` a NumPy int64 under NEP 50), whose arithmetic
    wraps as NumPy's does (NumPy also warns) instead of raising OverflowError. Not what a
    call gives (`int(a[i])`, `math.floor(a[i])`, `a[i].item()` are Python ints, and a call
    may hand back its argument's value unchanged: ids in `python_ints`, expr_Call), nor a
    conversion (`int(x[i])` of a float element): those stay checked."""
    if depth > 8 or getattr(v, "opname", None) is None or id(v) in python_ints:
        return False
    if v.opname == "load":
        return True
    return v.opname in _NUMPY_ARITH and any(is_numpy_int(o, python_ints, depth + 1) for o in v.operands)


# op -> the operands that make its result >= 0: when all of them are (ALL) or one is (ANY)
_NONNEG_ALL = {"add": slice(None), "mul": slice(None), "floordiv": slice(None), "min": slice(None),
               "select": slice(1, None), "mod": slice(1, None), "shr": slice(0, 1)}
_NONNEG_ANY = {"max": slice(None), "and": slice(None)}


def never_negative(v, depth: int = 0) -> bool:
    """Whether int value `v` is >= 0 wherever it exists, seen from how it was computed here
    (a constant, a length, sums and products of such: checked arithmetic raises rather than
    wrapping). The exponent of `int ** int` that this proves keeps an int result without
    waiting for the passes (`10 ** (len(s) // 2)`)."""
    if isinstance(v, Const):
        return isinstance(v.value, (int, bool)) and v.value >= 0
    op = getattr(v, "opname", None)
    if op is None or depth > 8:
        return False
    if op in ("list_len", "str_len", "dim"):
        return True
    if op == "convert":
        t = v.operands[0].type
        return isinstance(t, T.BoolType) or isinstance(t, T.IntType) and not t.signed
    if op in _NONNEG_ALL:
        return all(never_negative(a, depth + 1) for a in v.operands[_NONNEG_ALL[op]])
    return op in _NONNEG_ANY and any(never_negative(a, depth + 1) for a in v.operands[_NONNEG_ANY[op]])


def operand_type_error(op: type, a: T.Type | None, b: T.Type | None, inplace: bool = False) -> str | None:
    """CPython's TypeError message for `x op y` (`x op= y` where `inplace`) with values of
    types `a` and `b`, when every such pair raises it (`str + int`, `list - list`, `None * 2`);
    None when some may not. The message is CPython's own: the operator is applied to sample
    values of the two types, since its TypeError depends only on the types (`str % x` is
    left out: it formats)."""
    import operator
    name = _OPERATOR.get(op, "")
    fn = getattr(operator, ("i" + name.rstrip("_")) if inplace and name else name, None)
    if fn is None or op is ast.Mod and isinstance(a, T.StrType):
        return None
    return sample_type_error(fn, python_sample(a), python_sample(b))


def sample_type_error(act, *samples) -> str | None:
    """The message of the TypeError `act(*samples)` raises, samples of types whose values all
    raise it (`python_sample`, `kind_sample`): CPython's own text; None when it raises none,
    or a sample is missing."""
    if any(x is _NO_SAMPLE for x in samples):
        return None
    try:
        act(*samples)
    except TypeError as e:
        return str(e)
    except Exception:  # noqa: BLE001 - another error depends on the values, not the types
        return None
    return None


def kind_sample(t: T.Type | None):
    """A value of type `t` for what depends on the kind of object only (calling it, `-x`,
    `abs`, `int()`, item assignment, `x in "s"`): `python_sample`'s, an empty list, tuple,
    dict or set where the elements have no sample, a NumPy scalar for a sized number."""
    x = python_sample(t)
    if x is not _NO_SAMPLE:
        return x
    if type(t) in (T.ListType, T.TupleType, T.DictType, T.SetType):
        return {T.ListType: [], T.TupleType: (), T.DictType: {}, T.SetType: set()}[type(t)]
    if isinstance(t, (T.IntType, T.FloatType, T.ComplexType)):
        import numpy as np
        from script.frontend.typeinfer import numpy_name
        return getattr(np, numpy_name(t))(0)
    return _NO_SAMPLE


_OPERATOR = {ast.Add: "add", ast.Sub: "sub", ast.Mult: "mul", ast.Div: "truediv",
             ast.FloorDiv: "floordiv", ast.Mod: "mod", ast.Pow: "pow", ast.BitAnd: "and_",
             ast.BitOr: "or_", ast.BitXor: "xor", ast.LShift: "lshift", ast.RShift: "rshift",
             ast.MatMult: "matmul", ast.Lt: "lt", ast.LtE: "le", ast.Gt: "gt", ast.GtE: "ge"}
_NO_SAMPLE = object()
_SAME_TYPE = {list: (collections.deque,), dict: (collections.Counter, collections.OrderedDict)}


_SET_OPS = (ast.BitAnd, ast.BitOr, ast.Sub, ast.BitXor)


def _set_view(low, node) -> bool:
    """Whether `node` is `d.keys()` or `d.items()` of a dict: set-like views, whose `&`, `|`,
    `-` and `^` with any iterable make a set."""
    if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in ("keys", "items")):
        return False
    return low.table_view(node) is not None


def missing_attribute(t: T.Type | None, name: str) -> str | None:
    """CPython's AttributeError message when no value of type `t` has attribute `name`
    (`n.append` of an int), else None. A number may be a NumPy scalar (an array's element),
    whose attributes count too."""
    sample = python_sample(t)
    if sample is _NO_SAMPLE or hasattr(sample, name) or name.startswith("_"):
        return None         # (`_get`, `_set`: the library's own methods, lists.library_method)
    if isinstance(sample, (bool, int, float, complex)):
        import numpy as np
        if hasattr(np.asarray(sample)[()], name):
            return None
    if any(hasattr(kind, name) for kind in _SAME_TYPE.get(type(sample), ())):
        return None             # (a deque is a list here; a Counter, an OrderedDict a dict)
    try:
        getattr(sample, name)
    except AttributeError as e:
        return str(e)
    return None


def python_sample(t: T.Type | None):
    """A Python value of type `t` whose type alone decides how operators treat it: scalars,
    None, and lists, tuples, dicts and sets of them; `_NO_SAMPLE` for any other type (an
    array, a narrow NumPy scalar: NumPy's rules; an instance: its own methods)."""
    if isinstance(t, T.BoolType):
        return True
    if t == T.I64:
        return 3
    if t == T.F64:
        return 1.5
    if t == T.C128:
        return 1j
    if isinstance(t, T.StrType):
        return "s"
    if isinstance(t, T.BytesType):
        return b"s"
    if isinstance(t, T.NoneType):
        return None
    if type(t) is T.TupleType:
        parts = tuple(python_sample(e) for e in t.elems)
        return _NO_SAMPLE if _NO_SAMPLE in parts else parts
    if type(t) is T.ListType:
        e = python_sample(t.elem)
        if e is _NO_SAMPLE and isinstance(t.elem, (T.UnionType, T.IntFloatType)):
            return []       # (elements of several types: what holds of every list, `xs - 1.5`)
        return _NO_SAMPLE if e is _NO_SAMPLE else [e]
    if isinstance(t, T.DictType):
        k, v = python_sample(t.key), python_sample(t.value)
        return _NO_SAMPLE if _NO_SAMPLE in (k, v) or isinstance(k, list) else {k: v}
    if isinstance(t, T.SetType):
        k = python_sample(t.key)
        return _NO_SAMPLE if k is _NO_SAMPLE or isinstance(k, list) else {k}
    return _NO_SAMPLE


def const_of(value, loc=None) -> Const:
    """A literal Python scalar as a weak constant; an int from 2**63 to 2**64 - 1 is a (strong)
    u64 constant, and one beyond that an OverflowError (int_consts.py)."""
    if value is None:
        return Const(None, T.NONE, loc)
    if isinstance(value, bool):
        return WeakConst(value, T.BOOL, loc)
    if isinstance(value, int):
        if not fits_64(value):
            raise OverflowError(value)
        if value > T.I64.max:
            return Const(value, T.U64, loc)
        return WeakConst(value, T.I64, loc)
    if isinstance(value, float):
        return WeakConst(value, T.F64, loc)
    if isinstance(value, complex):
        return WeakConst(value, T.C128, loc)
    raise TypeError(type(value))



def operand_kind(a: Value, b: Value) -> str | None:
    """The family whose BINOPS entry takes `a <op> b` (neither operand an instance nor
    optional): an array (or array expression) on either side, else a list, else a dict or set,
    else a str; None for numbers and tuples, which binop lowers itself. A str on the left
    takes a list, dict or set on the right: `"%s" % xs` formats it (str.__mod__ runs first)."""
    if is_array_like(a) or is_array_like(b):
        return "array"
    if isinstance(a.type, T.StrType) and isinstance(b.type, (T.ListType, T.HashType)):
        return "str"
    if isinstance(a.type, T.ListType) or isinstance(b.type, T.ListType):
        return "list"
    for v in (a, b):
        if isinstance(v.type, T.HashType):
            return "dict" if isinstance(v.type, T.DictType) else "set"
    if isinstance(a.type, T.BytesType) or isinstance(b.type, T.BytesType):
        return "bytes"
    if isinstance(a.type, T.StrType) or isinstance(b.type, T.StrType):
        return "str"
    return None

_ORDERS = (ast.Eq, ast.NotEq, ast.Lt, ast.LtE, ast.Gt, ast.GtE)


def _compared_with_itself(op: ast.cmpop, a: Value, b: Value) -> Value | None:
    """`xs == xs`, `t <= t`, `d != d` of one container (the same value: one object): CPython
    compares its items by identity first, so each item equals itself, a NaN too, and the
    answer is that of equal containers. None where that is not the case here."""
    if a is not b or isinstance(a, Const) or not isinstance(op, _ORDERS):
        return None
    if not isinstance(a.type, (T.ListType, T.TupleType, T.HashType)) or T.is_instance_type(a.type):
        return None                     # (an instance compares by its class's methods)
    if isinstance(a.type, T.DictType) and not isinstance(op, (ast.Eq, ast.NotEq)):
        return None                     # (CPython's TypeError, raised where it raises it)
    return Const(isinstance(op, (ast.Eq, ast.LtE, ast.GtE)), T.BOOL)


class _BigInt:
    """An int constant expression beyond 64 bits as an operand of a comparison, which
    `compare_beyond` answers without holding it."""

    __slots__ = ("value", "node")

    def __init__(self, value: int, node):
        self.value, self.node = value, node

    @staticmethod
    def of(node) -> _BigInt | None:
        v = exact_int(node)
        return _BigInt(v, node) if v is not None and not fits_64(v) else None


_PY_COMPARE = {ast.Lt: operator.lt, ast.LtE: operator.le, ast.Gt: operator.gt, ast.GtE: operator.ge,
               ast.Eq: operator.eq, ast.NotEq: operator.ne}


class ExprLowering:
    """Mixin: `expr(node) -> Value` and the operator helpers statements share. A value that
    may be None (optional.py) is unwrapped by `expr` and `lazy`, kept whole by `expr_opt`."""

    # ---- entry ---------------------------------------------------------------------------

    def expr(self, node: ast.expr) -> Value:
        v = self.lazy(node)
        return elementwise.materialize(self, v, node) if isinstance(v, ArrayExpr) else v

    def lazy(self, node: ast.expr):
        """`expr`, except that an element-wise array expression stays an `ArrayExpr`
        (elementwise.py) for a consumer that computes it in its own loop. A node already
        evaluated by a look-ahead (`pre_evaluated`) gives that value, once."""
        v = self.lazy_num(node)
        if mixed_numbers.is_num(v):
            raise mixed_numbers.NumRead(node, self.loc(node))    # (the statement splits on it: lower_stmt `stmt`)
        return v

    def expr_each(self, node: ast.expr, fn):
        """`fn(expr_num(node))`, once per alternative where `node` gives a union (built on a
        branch on its tag, union_values.each)."""
        v = self.lazy_any(node)
        if union_values.is_union(v):
            return union_values.each(self, v, fn, node)
        if is_optional(v) and not isinstance(v, ArrayExpr):
            v = optional.unwrap(self, v, node)
        return fn(self._whole(v, node))

    def expr_num(self, node: ast.expr) -> Value:
        """`expr`, except that an int|float value stays one (stored whole: a dict value)."""
        v = self.lazy_num(node)
        return elementwise.materialize(self, v, node) if isinstance(v, ArrayExpr) else v

    def lazy_num(self, node: ast.expr):
        """`lazy`, except that an int|float value stays one (mixed_numbers.py: the caller
        takes it apart)."""
        v = self.lazy_opt(node)
        if is_optional(v) and not isinstance(v, ArrayExpr):
            return optional.unwrap(self, v, node)
        return v

    def lazy_opt(self, node: ast.expr):
        """`lazy`, except that an optional stays one."""
        v = self.lazy_any(node)
        if union_values.is_union(v):
            raise mixed_numbers.NumRead(node, self.loc(node), v.type)    # (the statement splits on it)
        return v

    def lazy_any(self, node: ast.expr):
        """`lazy_opt`, except that a union stays one (union_values.py: for an operator, which
        takes it apart, and the places that keep it whole)."""
        done = self.pre_evaluated.pop(id(node), None)
        if done is None and self.hints.get(mixed_numbers.AROUND) and id(node) not in self.splitting:
            reads = [r for e, r in self.hints[mixed_numbers.AROUND] if e is node]
            if reads:
                return mixed_numbers.split_around(self, node, reads, lambda: self._whole(self.lazy_any(node), node))
        if done is None:
            method = getattr(self, "expr_" + type(node).__name__, None)
            if method is None:
                self.unsupported(node)
            done = method(node)
            if isinstance(done, ArrayExpr) and ast_order.effects_after(self, node):
                done = elementwise.materialize(self, done, node)    # (read before a later operand writes)
            elif isinstance(done, Value):
                self.note_read(node, done)      # (the expression a dict or list came from: python_classes)
        return bool_ints.read(self, done, node) if bool_ints.is_bool_int(done) else done

    def unsupported(self, node):
        what = {
            "Lambda": "lambda", "ListComp": "list comprehensions", "SetComp": "set comprehensions",
            "DictComp": "dict comprehensions", "GeneratorExp": "generator expressions",
            "Dict": "dicts", "Set": "sets", "List": "lists", "JoinedStr": "f-strings",
            "Yield": "generators (yield)", "YieldFrom": "generators (yield from)",
            "Await": "await", "Starred": "*args unpacking", "Slice": "slices",
        }.get(type(node).__name__, type(node).__name__)
        self.error(f"{what} are not supported in compiled code" if what.endswith("s") and not what.endswith("ss")
                   else f"'{what}' is not supported in compiled code", node)

    def expr_Constant(self, node: ast.Constant) -> Value:
        v = node.value
        if isinstance(v, (bool, int, float, complex)) or v is None:
            try:
                return const_of(v, self.loc(node))
            except OverflowError:
                self.error(f"integer constant {v} does not fit in 64 bits ({RANGE_TEXT})", node)
        if isinstance(v, str):
            return self.str_constant(v, node)
        if isinstance(v, bytes):
            return self.bytes_constant(v, node)
        self.error(f"constants of type {type(v).__name__} are not supported", node)

    def expr_Name(self, node: ast.Name) -> Value:
        value = self.resolve_name(node)
        held_iterators.read(self, node, value)      # (an iterator is read at one place)
        return value

    def expr_Tuple(self, node: ast.Tuple) -> Value:
        if has_star(node.elts):
            return star_displays.starred_tuple(self, node)
        return self.make_tuple([optional.expr_opt(self, e, num=True, union=True) for e in node.elts], node)

    def tuple_repeat(self, a: Value, b: Value, node) -> Value:
        """`t * k` and `k * t` with `k` a constant int: a tuple's length is part of its type."""
        t, k = (a, b) if isinstance(a.type, T.TupleType) else (b, a)
        if not isinstance(k.type, (T.IntType, T.BoolType)):
            self.error(f"can't multiply sequence by non-int of type '{k.type}'", node)
        if not isinstance(k, Const):
            self.error("a tuple can only be repeated a constant number of times in compiled code "
                       "(its length is part of its type)", node)
        elems = [self.emit("extract", [t], et, j, self.loc(node)) for j, et in enumerate(t.type.elems)]
        return self.make_tuple(elems * max(int(k.value), 0), node)

    def tuple_method(self, t: Value, name: str, node) -> Value:
        """`t.count(x)` and `t.index(x)` (unrolled over the tuple's elements, `==` as `in`'s)."""
        if name not in ("count", "index"):
            self.error(f"'tuple' object has no attribute '{name}' in compiled code", node)
        (x,) = self.positional(node, f"tuple.{name}", 1)
        loc = self.loc(node)
        hits = [self.compare(ast.Eq(), x, self.emit("extract", [t], et, k, loc), node)
                for k, et in enumerate(t.type.elems)]
        if name == "count":
            n: Value = Const(0, T.I64)
            for hit in hits:
                one = self.emit("select", [hit, Const(1, T.I64), Const(0, T.I64)], T.I64, None, loc)
                n = self.emit("add", [n, one], T.I64, None, loc)
            return n
        at: Value = Const(-1, T.I64)
        for k in reversed(range(len(hits))):
            at = self.emit("select", [hits[k], Const(k, T.I64), at], T.I64, None, loc)
        self.raise_if(self.cmp("lt", at, Const(0, T.I64), node), "ValueError",
                      "tuple.index(x): x not in tuple", node)
        return at

    def make_tuple(self, elems, node) -> Value:
        elems = [Const(e.value, e.type, e.loc) if isinstance(e, WeakConst) else e for e in elems]
        return self.emit("tuple", elems, T.TupleType([e.type for e in elems]), None, self.loc(node))

    def expr_NamedExpr(self, node: ast.NamedExpr) -> Value:
        value = optional.expr_opt(self, node.value, num=True)
        self.assign_name(node.target.id, value, node)
        return value

    def expr_Call(self, node: ast.Call) -> Value:
        r = self.lower_call(node)
        if getattr(r, "type", None) == T.I64:
            self.python_ints.add(id(r))     # int(a[i]), math.floor(a[i]), a[i].item(): Python ints
        return r

    def expr_Lambda(self, node: ast.Lambda) -> Value:
        return function_values.make(self, node, node)      # a lambda as a value: function_values.py

    def expr_Attribute(self, node: ast.Attribute) -> Value:
        if isinstance(node.value, ast.Name) and node.value.id in self.exc_names:
            caught = exceptions.caught_attribute(self, node)     # `e.amount` of `except C as e`
            if caught is not None:
                return caught
        return self.resolve_attribute(node)

    def expr_Subscript(self, node: ast.Subscript) -> Value:
        index = node.slice
        bool_ints.permit(self, bool_ints.AS_INT, *((index.lower, index.upper, index.step)
                                                   if isinstance(index, ast.Slice) else (index,)))
        flat = arrays.flat_load(self, node)         # arrays.py: a.flat[i]
        if flat is not None:
            return flat
        frozen = self.frozen_item(node)          # lists.py: `G[i]` of a global table of numbers
        if frozen is not None:
            return frozen
        if isinstance(node.value, ast.Attribute) and node.value.attr in ("mgrid", "ogrid"):
            from script.frontend.numpy_grids import index_grid_name, lower_index_grid
            grid = index_grid_name(self, node)
            if grid is not None:
                return lower_index_grid(self, node, grid)
        cls = enum_values.class_ref(self, node.value)
        if cls is not None:
            return enum_values.subscript(self, cls, node)         # Color[name]
        base = self.lazy_opt(node.value)
        if mixed_numbers.is_num(base):
            raise mixed_numbers.NumRead(node.value, self.loc(node.value))
        if is_optional(base):
            base = optional.unwrap(self, base, node, "'NoneType' object is not subscriptable")
            if mixed_numbers.is_num(base):      # (an opt[num]: the int or the float it holds, never its parts)
                return mixed_numbers.split(self, [base], lambda w: self.subscript_of(w, node), node)
        return self.subscript_of(elementwise.materialize(self, base, node) if isinstance(base, ArrayExpr) else base, node)

    def subscript_of(self, base: Value, node: ast.Subscript) -> Value:
        if T.is_instance_type(base.type):
            return class_methods.instance_getitem(self, base, node)
        if isinstance(base.type, T.TupleType):
            return self.tuple_index(base, node.slice, node)
        if isinstance(base.type, T.ArrayType):
            return arrays.array_load(self, base, node.slice, node)
        if isinstance(base.type, T.ListType):
            return self.list_subscript(base, node.slice, node)
        if isinstance(base.type, Unknown):
            return Undef(UNKNOWN, self.loc(node))       # a round to be rebuilt (lists.get_item)
        if isinstance(base.type, T.HashType):
            return self.table_subscript(base, node.slice, node)
        if isinstance(base.type, T.StrType):
            return self.str_subscript(base, node.slice, node)
        if isinstance(base.type, T.BytesType):
            return self.bytes_subscript(base, node.slice, node)
        if base.type in NOT_CONTAINERS:        # `grid[0]` of None: CPython's TypeError, where it raises it
            if not isinstance(node.slice, ast.Slice):
                self.expr(node.slice)
            return self.raise_always("TypeError", f"'{python_name(base.type)}' object is not subscriptable", node)
        self.error(f"cannot index a value of type {base.type}", node)

    def tuple_index(self, base: Value, index_node, node) -> Value:
        n = len(base.type.elems)
        if isinstance(index_node, ast.Slice):
            bounds = []
            for part in (index_node.lower, index_node.upper, index_node.step):
                v = None if part is None else self.expr(part)
                if v is not None and not (isinstance(v, Const) and isinstance(v.type, (T.IntType, T.BoolType))
                                          or isinstance(v.type, T.NoneType)):
                    self.error("a tuple slice's bounds must be constants in compiled code (the "
                               "result's length is part of its type)", index_node)
                bounds.append(None if v is None or isinstance(v.type, T.NoneType) else int(v.value))
            if bounds[2] == 0:
                self.error("slice step cannot be zero", index_node)
            loc = self.loc(node)
            return self.make_tuple([self.emit("extract", [base], base.type.elems[k], k, loc)
                                    for k in range(n)[slice(*bounds)]], node)
        return self.tuple_item(base, self.expr(index_node), index_node, node)

    def tuple_item(self, base: Value, index: Value, index_node, node) -> Value:
        n = len(base.type.elems)
        if isinstance(index, Const) and isinstance(index.type, (T.IntType, T.BoolType)):
            i = int(index.value)    # (a bool is an int: `("no", "yes")[flag]`)
            if not -n <= i < n:     # CPython raises when (if) the line runs
                return self.raise_always("IndexError", "tuple index out of range", node)
            return self.emit("extract", [base], base.type.elems[i % n], i % n, self.loc(node))
        if not isinstance(index.type, (T.IntType, T.BoolType)):
            self.error(f"tuple indices must be integers, not {index.type}", index_node)
        if n == 0:          # `*args` of a call without extras: every index is out of range
            self.emit("check", [Const(True, T.BOOL)], T.NONE, ExcInfo("IndexError", "tuple index out of range"),
                      self.loc(node))
            return Const(0, T.I64)
        et = base.type.elems[0] if base.type.elems else None
        for e in base.type.elems[1:]:       # ints and floats: a num; an int and a str: a union
            et = (T.merge(et, e) or union_values.meet(et, e)) if et is not None else None
        if et is None:
            self.error("a tuple of incompatible types can only be indexed by a constant", index_node)
        # A homogeneous tuple indexed at run time: a chain of selects, after a range check.
        loc = self.loc(node)
        index = self.coerce(index, T.I64, node)
        neg = self.emit("cmp", [index, Const(0, T.I64)], T.BOOL, "lt", loc)
        wrapped = self.emit("add", [index, Const(n, T.I64)], T.I64, None, loc)
        index = self.emit("select", [neg, wrapped, index], T.I64, None, loc)
        lo = self.emit("cmp", [index, Const(0, T.I64)], T.BOOL, "lt", loc)
        hi = self.emit("cmp", [index, Const(n, T.I64)], T.BOOL, "ge", loc)
        bad = self.emit("or", [lo, hi], T.BOOL, None, loc)
        self.emit("check", [bad], T.NONE, ExcInfo("IndexError", "tuple index out of range"), loc)
        # Elements of mixed numeric types meet at their merged type (as variables do).
        result = self.coerce(self.emit("extract", [base], base.type.elems[0], 0, loc), et, node)
        for i in range(1, n):
            hit = self.emit("cmp", [index, Const(i, T.I64)], T.BOOL, "eq", loc)
            elem = self.coerce(self.emit("extract", [base], base.type.elems[i], i, loc), et, node)
            result = self.emit("select", [hit, elem, result], et, None, loc)
        return result

    # ---- conversions ---------------------------------------------------------------------

    def coerce(self, v: Value, t: T.Type, node=None) -> Value:
        """`v` converted to `t` (numeric conversion, element-wise for tuples)."""
        if v.type == t or isinstance(v.type, Unknown) or isinstance(t, Unknown):
            return v
        if isinstance(t, T.UnionType):      # an alternative (or a num, a union) tagged as `t`'s
            loc = self.loc(node) if node is not None else v.loc
            met = union_values.meet(v.type, t)
            if met is None or set(met.alternatives) != set(t.alternatives):
                self.error(f"cannot convert {v.type} to {t}", node)
            return union_values.build(union_values.emitter(self, loc), v, t,
                                      lambda alt: optional.placeholder(self, alt, loc), loc)
        if T.is_instance_union(t):
            return class_unions.to_union(self, v, t, node)
        if isinstance(t, T.IntFloatType) or mixed_numbers.is_num(v):
            loc = self.loc(node) if node is not None else v.loc
            if mixed_numbers.is_num(v) and t == T.F64:      # where a float is wanted: float(v)
                return mixed_numbers.as_float(self, v, loc)
            if T.merge(v.type, t) != t:
                self.error(f"an int|float value cannot be used as {t} here" if mixed_numbers.is_num(v)
                           else f"cannot convert {v.type} to {t}", node)
            return mixed_numbers.build(lambda op, args, rt: self.emit(op, args, rt, None, loc), v, loc)
        if isinstance(t, T.IterType) and type(v.type) is T.ListType:
            return held_iterators.retype(self, v, t, node)
        if type(t) is T.VarTupleType and type(v.type) is T.TupleType:     # (T.unify: both tuples)
            loc = self.loc(node) if node is not None else v.loc
            out = self.new_list(t.elem, Const(len(v.type.elems), T.I64), node, T.VarTupleType)
            for k, et in enumerate(v.type.elems):
                self.set_item(out, self.coerce(self.emit("extract", [v], et, k, loc), t.elem, node), Const(k, T.I64), node)
            return out
        if isinstance(t, T.OptionalType):
            if not (isinstance(v.type, T.NoneType) or T.unify(v.type, t) == t):
                self.error(f"cannot convert {v.type} to {t}", node)
            return optional.make_optional(self, v, t, node)
        if not T.is_convertible(v.type, t) and T.unify(v.type, t) != t:     # (i64, none) to (i64, opt[i64])
            self.error(f"cannot convert {v.type} to {t}", node)
        folded = fold_convert(v, t)
        if folded is not None:
            return folded
        if isinstance(t, T.TupleType):
            elems = [self.coerce(self.emit("extract", [v], v.type.elems[k], k, v.loc), et, node)
                     for k, et in enumerate(t.elems)]
            return self.emit("tuple", elems, t, None, v.loc)
        return self.emit("convert", [v], t, None, self.loc(node) if node is not None else v.loc)

    def truth(self, v: Value, node=None) -> Value:
        """Python truthiness as a bool value."""
        t = v.type
        if isinstance(t, T.BoolType) or isinstance(t, Unknown):
            return v
        if isinstance(t, T.NoneType):
            return Const(False, T.BOOL)
        if isinstance(t, T.OptionalType):
            return optional.optional_truth(self, v, node)
        if isinstance(t, T.IntFloatType):
            return mixed_numbers.truth(self, v, node)
        if isinstance(t, T.UnionType):          # the truth of the alternative it holds
            return union_values.each(self, v, lambda w: self.truth(w, node), node)
        if T.is_instance_type(t):
            return class_methods.instance_truth(self, v, node)
        if isinstance(t, T.EnumType):
            return enum_values.truth(self, v, node)
        if isinstance(t, T.TupleType):
            return Const(len(t.elems) > 0, T.BOOL)
        if isinstance(t, T.ClassType):
            return Const(True, T.BOOL)          # an instance (docs/records.md)
        if isinstance(t, T.ListType):
            return self.cmp("ne", self.list_len(v, node), Const(0, T.I64), node)
        if isinstance(t, T.HashType):
            return self.cmp("ne", self.table_len(v, node), Const(0, T.I64), node)
        if isinstance(t, T.StrType):
            return self.str_truth(v, node)
        if isinstance(t, T.BytesType):
            return self.bytes_truth(v, node)
        if t.is_numeric():
            if isinstance(v, Const):
                return Const(bool(v.value), T.BOOL)
            return self.emit("cmp", [v, Const(0, t)], T.BOOL, "ne", self.loc(node) if node else v.loc)
        self.error(f"a value of type {t} has no truth value", node)

    def common_type(self, a: Value, b: Value, node) -> T.Type:
        """The type two operands meet at, weak literals adapting to sized operands."""
        ta, tb = a.type, b.type
        if isinstance(ta, Unknown) or isinstance(tb, Unknown):
            return UNKNOWN
        if not (ta.is_numeric() and tb.is_numeric()):
            self.error(f"unsupported operand types {ta} and {tb}", node)
        wa, wb = isinstance(a, WeakConst), isinstance(b, WeakConst)
        if wa != wb:
            weak, strong = (ta, tb) if wa else (tb, ta)
            if isinstance(strong, T.ComplexType):
                return strong
            if isinstance(weak, T.ComplexType):      # 1j * x: x's float width (NumPy 2)
                return T.complex_of(strong) if isinstance(strong, T.FloatType) else T.C128
            if isinstance(strong, T.FloatType):
                return strong
            if isinstance(strong, T.IntType) and isinstance(weak, (T.IntType, T.BoolType)):
                return strong
            if isinstance(strong, T.BoolType) and isinstance(weak, T.BoolType):
                return strong
        return T.promote(ta, tb)

    # ---- operators -----------------------------------------------------------------------

    def expr_BinOp(self, node: ast.BinOp) -> Value:
        folded = self.exact_constant(node)
        if folded is not None:
            return folded
        if isinstance(node.op, (ast.Mod, ast.Add, ast.Sub)) and exact_int(node.right) == TWO_64:
            return self.modulo_2_64(node)
        with_float = self.big_int_with_float(node)
        if with_float is not None:
            return with_float
        bool_ints.permit_operands(self, node.op, node.left, node.right)
        if isinstance(node.op, _SET_OPS) and (_set_view(self, node.left) or _set_view(self, node.right)):
            return set_ops.binop(self, type(node.op), set_ops.as_set(self, node.left, node),
                                 set_ops.as_set(self, node.right, node), node)      # `d.keys() & e.keys()`
        left = self.lazy_any(node.left)
        right = self.lazy_any(node.right)
        return self.binop(type(node.op), left, right, node)

    def exact_constant(self, node) -> Const | None:
        """An int constant expression computed as Python does (int_consts.py), or None."""
        v, beyond = exact_int_beyond(node)
        if v is None or not beyond:
            return None
        if not fits_64(v):
            shown = v if v.bit_length() <= 256 else f"a {v.bit_length()}-bit int"
            what = f"integer constant {shown}" if isinstance(node, ast.Constant) else \
                f"integer constant expression '{ast.unparse(node)}' = {shown}"
            self.error(f"{what} does not fit in 64 bits ({RANGE_TEXT})", node)
        return int_constant(v, self.loc(node))

    def big_int_with_float(self, node: ast.BinOp) -> Value | None:
        """`x * 10**20` of a float x, `n / 2**70`: an int constant beyond 64 bits meeting a
        float, or in a true division, is the float Python converts it to; or None when no
        operand is such a constant. (The constant has no effects: evaluating only the other
        operand keeps Python's order of effects.)"""
        values = [exact_int(node.left), exact_int(node.right)]
        big = [v is not None and not fits_64(v) for v in values]
        if not any(big) or all(big):
            return None
        k = big.index(True)
        const_node, other_node = (node.left, node.right) if k == 0 else (node.right, node.left)
        other = self.expr(other_node)
        numeric = other.type.is_numeric() and not isinstance(other.type, T.ComplexType)
        if not (isinstance(other.type, T.FloatType) or isinstance(node.op, ast.Div) and numeric):
            self.exact_constant(const_node)         # the CompileError naming the constant
        try:
            c = WeakConst(float(values[k]), T.F64, self.loc(const_node))
        except OverflowError:
            self.error(f"integer constant expression '{ast.unparse(const_node)}' is too large to "
                       f"convert to float", const_node)
        return self.binop(type(node.op), *((c, other) if k == 0 else (other, c)), node)

    def modulo_2_64(self, node: ast.BinOp) -> Value:
        """`x % 2**64` and `x + 2**64` of an int `x`: its two's complement as u64; `x - 2**64`:
        x as i64. Python's value whenever the result fits 64 bits (always for `%`)."""
        x = self.expr(node.left)
        if not isinstance(x.type, (T.IntType, T.BoolType)):
            self.error(f"'{_SYMBOL[type(node.op)]} {ast.unparse(node.right)}' (2**64) is only supported "
                       f"on ints in compiled code, not {x.type}", node)
        return self.coerce(x, T.I64 if isinstance(node.op, ast.Sub) else T.U64, node)

    def _whole(self, v, node):
        """`v`, an element-wise array expression computed (the sides of a split merge values)."""
        return elementwise.materialize(self, v, node) if isinstance(v, ArrayExpr) else v

    def binop(self, op: type, a: Value, b: Value, node) -> Value:
        if isinstance(getattr(a, "type", None), Unknown) or isinstance(getattr(b, "type", None), Unknown):
            return Undef(UNKNOWN, self.loc(node))   # a round rebuilt once that type is known
        if mixed_numbers.splits(a) or mixed_numbers.splits(b):
            return mixed_numbers.split(self, [a, b], lambda x, y: self._whole(self.binop(op, x, y, node), node), node)
        if T.is_instance_type(getattr(a, "type", None)) or T.is_instance_type(getattr(b, "type", None)):
            return class_methods.instance_binop(self, op, a, b, node)
        if counter_operands(self, op, a, b, node):         # table_args.py: Counter's + - | &
            return self.counter_binop(op, a, b, node)
        refused = operand_type_error(op, getattr(a, "type", None), getattr(b, "type", None),
                                     inplace=isinstance(node, ast.AugAssign))
        if refused is not None:     # `"a" + 1`: CPython's TypeError, raised where it raises it
            return self.raise_always("TypeError", refused, node)
        if is_optional(a) or is_optional(b):
            symbol = _SYMBOL.get(op, op.__name__) + ("=" if isinstance(node, ast.AugAssign) else
                                                     " or pow()" if op is ast.Pow else "")
            inplace = isinstance(node, ast.AugAssign)

            def describe(x, y):     # CPython's own text where samples give it ('str + None': "can only concatenate")
                held = [T.NONE if n == optional.NONE_NAME else {"int": T.I64, "float": T.F64}.get(n) or
                        (v.type.value if is_optional(v) else v.type) for n, v in ((x, a), (y, b))]
                return operand_type_error(op, *held, inplace=inplace) or \
                    f"unsupported operand type(s) for {symbol}: '{x}' and '{y}'"
            a, b = optional.unwrap_operands(self, a, b, describe, node)
            return self.binop(op, a, b, node)      # (as the values the optionals hold: an instance's)
        handler = BINOPS.lookup(operand_kind(a, b), op)
        if handler is not None:                 # arrays, lists, dicts and sets, strs: registry.py
            return handler(self, op, a, b, node)
        if op is ast.MatMult or op not in _ARITH_OPS:
            self.error(f"operator {_SYMBOL.get(op, op.__name__)} is not supported on {a.type} and {b.type}", node)
        if isinstance(a.type, T.TupleType) and isinstance(b.type, T.TupleType) and op is ast.Add:
            elems = [self.emit("extract", [a], t, k, self.loc(node)) for k, t in enumerate(a.type.elems)]
            elems += [self.emit("extract", [b], t, k, self.loc(node)) for k, t in enumerate(b.type.elems)]
            return self.make_tuple(elems, node)
        if op is ast.Mult and (isinstance(a.type, T.TupleType) or isinstance(b.type, T.TupleType)):
            return self.tuple_repeat(a, b, node)
        t = self.common_type(a, b, node)
        if isinstance(t, Unknown):
            return Undef(UNKNOWN, self.loc(node))
        name = _ARITH_OPS[op]
        if name != "div" and takes_u64(a, b):
            t = a.type if name in ("shl", "shr") else T.U64     # int_consts.py
        weak = isinstance(a, WeakConst) and isinstance(b, WeakConst)
        if isinstance(t, T.ComplexType):
            r = complex_lowering.complex_binop(self, name, a, b, t, node)
            return _weaken(r) if weak else r
        if name in ("and", "or", "xor"):
            if isinstance(t, T.FloatType):
                self.error(f"operator {_SYMBOL[op]} is not defined on floats", node)
            r = self.emit(name, [self.coerce(a, t, node), self.coerce(b, t, node)], t, None, self.loc(node))
            return _weaken(r) if weak else r
        if isinstance(t, T.BoolType):
            t = T.I64
        if name == "div":
            r = self.true_div(a, b, t, node)
        elif name == "pow":
            r = self.power(a, b, t, node)
        else:
            a, b = self.coerce(a, t, node), self.coerce(b, t, node)
            if name in ("floordiv", "mod"):
                self.check_nonzero(b, name, node)
            elif name in ("shl", "shr"):
                if isinstance(t, T.FloatType):
                    self.error(f"operator {_SYMBOL[op]} is not defined on floats", node)
                if t.signed:
                    neg = self.cmp("lt", b, Const(0, t), node)
                    self.raise_if(neg, "ValueError", message("negative_shift"), node)
            r = self.checked(name, [a, b], self.emit(name, [a, b], t, None, self.loc(node)), node)
        return _weaken(r) if weak else r

    def checked(self, kind: str, operands, r: Value, node) -> Value:
        """`r`, the wrapping result of int op `kind` on `operands`, after a check raising
        OverflowError where Python's int would not fit in int64 (`ovf`, ops.py). Only `int`
        (i64) is checked: sized NumPy ints and u64 wrap, as NumPy's do; kernels wrap too
        (script/cuda/compile.py), and so does most of the compiled library (`is_checked`). The `masked` and `ranges` passes drop the checks that
        cannot fail or whose high bits a mask removes (docs/integers.md)."""
        if r.type != T.I64 or kind not in OVF_OPS or isinstance(r, (Const, Undef)) \
                or not is_checked(self.info.py_func) or any(is_numpy_int(o, self.python_ints) for o in operands):
            return r
        loc = self.loc(node)
        bad = self.emit("ovf", [*operands, r], T.BOOL, kind, loc)
        self.raise_if(bad, "OverflowError", overflow_text(node, loc.line if loc else None), node)
        return r

    def raise_always(self, exc: str, text: str, node) -> Value:
        """End the block with `raise exc(text)` (`text` plain, not a format), as CPython raises
        at `node` for every value of the operands' types; the rest of the statement is built
        in a dead block (`raise_unbound`)."""
        return self.raise_unbound(ExcInfo(exc, printf_escape(text)), self.loc(node))

    def raise_if(self, cond: Value, exc: str, text: str, node, args=()) -> None:
        """Emit a `check`: raise `exc(text)` when `cond` holds (`text` is plain, not a format)."""
        if isinstance(cond, Const) and not cond.value:
            return
        if isinstance(cond, Const) and not args:
            self.raise_always(exc, text, node)      # (what follows is built in a dead block)
            return
        fmt = printf_escape(text) if not args else text
        self.emit("check", [cond, *args], T.NONE, ExcInfo(exc, fmt), self.loc(node))

    def check_nonzero(self, b: Value, kind: str, node) -> None:
        float_ = isinstance(b.type, T.FloatType)
        text = message(("float_" if float_ else "int_") + kind)
        zero = self.cmp("eq", b, Const(0, b.type), node)
        self.raise_if(zero, "ZeroDivisionError", text, node)

    def cmp(self, pred: str, a: Value, b: Value, node) -> Value:
        """`cmp` of two values of one type, folded when both are constants."""
        if isinstance(a, Const) and isinstance(b, Const):
            import operator
            fn = {"eq": operator.eq, "ne": operator.ne, "lt": operator.lt, "le": operator.le,
                  "gt": operator.gt, "ge": operator.ge}[pred]
            return Const(fn(a.value, b.value), T.BOOL)
        return self.emit("cmp", [a, b], T.BOOL, pred, self.loc(node))

    def true_div(self, a: Value, b: Value, t: T.Type, node) -> Value:
        ints = not isinstance(a.type, T.FloatType) and not isinstance(b.type, T.FloatType)
        ft = t if isinstance(t, T.FloatType) else T.F64
        if ints and ft == T.F64 and self._python_int_pair(a, b):
            # CPython's exact quotient, correctly rounded (float(a) / float(b) rounds twice
            # beyond 2**53); NumPy's ints convert to float64 first, as below
            a, b = self.coerce(a, T.I64, node), self.coerce(b, T.I64, node)
            zero = self.cmp("eq", b, Const(0, T.I64), node)
            self.raise_if(zero, "ZeroDivisionError", message("int_truediv"), node)
            callee = self.ctx.callee(self, self.ctx.info_for(pylib.int_truediv), (T.I64, T.I64), node)
            return self.emit("call", [a, b], T.F64, callee, self.loc(node))
        a, b = self.coerce(a, ft, node), self.coerce(b, ft, node)
        zero = self.cmp("eq", b, Const(0.0, ft), node)
        self.raise_if(zero, "ZeroDivisionError", message("int_truediv" if ints else "float_truediv"), node)
        return self.emit("div", [a, b], ft, None, self.loc(node))

    def _python_int_pair(self, a: Value, b: Value) -> bool:
        """Whether `a` and `b` are Python ints (or bools) of user code, not NumPy's, whose
        quotient may need more than a float division: not both constants within 2**53."""
        if not is_checked(self.info.py_func):
            return False
        for v in (a, b):
            if v.type not in (T.I64, T.BOOL) or is_numpy_int(v, self.python_ints):
                return False
        small = [isinstance(v, Const) and abs(int(v.value)) <= 2**53 for v in (a, b)]
        return not all(small)

    def power(self, a: Value, b: Value, t: T.Type, node) -> Value:
        loc = self.loc(node)
        if isinstance(t, T.IntType):
            if isinstance(b, Const) and b.value < 0:
                t = T.F64            # Python: int ** negative int is a float
            else:
                a, b = self.coerce(a, t, node), self.coerce(b, t, node)

                def int_power() -> Value:
                    return self.checked("pow", [a, b], self.emit("pow", [a, b], t, None, loc), node)
                if not t.signed or never_negative(b):
                    return int_power()
                neg = self.emit("cmp", [b, Const(0, t)], T.BOOL, "lt", loc)
                if t != T.I64 or is_library(self.info.py_func) or \
                        any(is_numpy_int(o, self.python_ints) for o in (a, b)):
                    # NumPy's ints refuse; the library's exponents are never negative
                    self.raise_if(neg, "ValueError", "Integers to negative integer powers are not allowed.", node)
                    return int_power()
                # CPython: an int ** a negative int is float(base) ** float(exponent), so the
                # result is an int|float (`num`, mixed_numbers.py) unless the passes fold `neg`
                return self.choose(neg, lambda: self.power(self.coerce(a, T.F64, node),
                                                           self.coerce(b, T.F64, node), T.F64, node),
                                   int_power, node)
        a, b = self.coerce(a, t, node), self.coerce(b, t, node)
        zero = Const(0.0, t)
        if not (isinstance(b, Const) and b.value >= 0):
            az = self.emit("cmp", [a, zero], T.BOOL, "eq", loc)
            # (0.0 ** -inf is inf in CPython: its infinite exponents are handled first)
            bn = self.emit("and", [self.emit("cmp", [b, zero], T.BOOL, "lt", loc), self.is_finite(b, loc)],
                           T.BOOL, None, loc)
            self.raise_if(self.emit("and", [az, bn], T.BOOL, None, loc), "ZeroDivisionError",
                          message("zero_neg_pow"), node)
        if not (isinstance(b, Const) and float(b.value).is_integer()) and not (isinstance(a, Const) and a.value >= 0):
            # -inf ** 0.5 is inf in CPython, not complex: only a finite negative base is refused
            an = self.emit("and", [self.emit("cmp", [a, zero], T.BOOL, "lt", loc), self.is_finite(a, loc)],
                           T.BOOL, None, loc)
            fl = self.emit("math", [b], t, "floor", loc)
            frac = self.emit("cmp", [fl, b], T.BOOL, "ne", loc)
            fin = self.is_finite(b, loc)
            bad = self.emit("and", [self.emit("and", [an, frac], T.BOOL, None, loc), fin], T.BOOL, None, loc)
            self.raise_if(bad, "ValueError",
                          "negative number raised to a fractional power: CPython gives a complex "
                          "number, which compiled code does not support", node)
        r = self.emit("pow", [a, b], t, None, loc)
        inf = self.emit("cmp", [self.emit("abs", [r], t, None, loc), Const(float("inf"), t)], T.BOOL, "eq", loc)
        fin = self.emit("and", [self.is_finite(a, loc), self.is_finite(b, loc)], T.BOOL, None, loc)
        self.raise_if(self.emit("and", [inf, fin], T.BOOL, None, loc), "OverflowError",
                      args_text("float_pow_overflow"), node)
        return r

    def is_finite(self, x: Value, loc) -> Value:
        if isinstance(x, Const):
            import math
            return Const(math.isfinite(x.value), T.BOOL)
        ax = self.emit("abs", [x], x.type, None, loc)
        return self.emit("cmp", [ax, Const(float("inf"), x.type)], T.BOOL, "lt", loc)

    def expr_UnaryOp(self, node: ast.UnaryOp) -> Value:
        bool_ints.permit(self, bool_ints.AS_INT, node.operand)      # -True is -1, as -1 is
        if isinstance(node.op, ast.Not) and isinstance(node.operand, ast.BoolOp):
            c = self.condition(node.operand)            # only its truth matters
            return Const(not c.value, T.BOOL) if isinstance(c, Const) else \
                self.emit("not", [c], T.BOOL, None, self.loc(node))
        if not (isinstance(node.operand, ast.Constant) and const_fits_i64(node.operand.value)):
            folded = self.exact_constant(node)      # -(2**63), -0x8000000000000000, ~(1 << 63)
            if folded is not None:
                return WeakConst(folded.value, T.I64, folded.loc) \
                    if isinstance(node.operand, ast.Constant) and folded.type == T.I64 else folded
        v = self.lazy_any(node.operand)
        return self.unary(node, v)

    def unary(self, node: ast.UnaryOp, v) -> Value:
        """`node`'s operator on its operand's value `v`."""
        if isinstance(node.op, (ast.UAdd, ast.USub)) and isinstance(getattr(v, "type", None), T.DictType) \
                and is_counter(self, node.operand):
            return self.counter_unary(type(node.op), v, node)      # `+c`, `-c` (default_tables.py)
        if mixed_numbers.splits(v):
            return mixed_numbers.split(self, [v], lambda w: self._whole(self.unary(node, w), node), node)
        if is_optional(v):
            if isinstance(node.op, ast.Not):
                return optional._not(self, self.truth(v, node), self.loc(node))
            symbol = {ast.USub: "-", ast.UAdd: "+", ast.Invert: "~"}[type(node.op)]
            v = optional.unwrap(self, v, node, f"bad operand type for unary {symbol}: 'NoneType'")
        if is_array_like(v):
            return elementwise.array_unary(self, node.op, v, node)
        loc = self.loc(node)
        if isinstance(v.type, Unknown):
            return Undef(UNKNOWN, loc)
        if isinstance(node.op, ast.Not):
            return self.emit("not", [self.truth(v, node)], T.BOOL, None, loc) if not isinstance(v, Const) \
                else Const(not v.value, T.BOOL)
        if T.is_instance_type(v.type):
            return class_methods.instance_unary(self, node.op, v, node)
        import operator
        refused = sample_type_error({ast.USub: operator.neg, ast.UAdd: operator.pos, ast.Invert: operator.invert}[
            type(node.op)], kind_sample(v.type))
        if refused is not None:                 # `-s`, `~1.5`: CPython's TypeError, where it raises it
            return self.raise_always("TypeError", refused, node)
        if not v.type.is_numeric():
            self.error(f"bad operand type for unary {type(node.op).__name__}: {v.type}", node)
        t = T.I64 if isinstance(v.type, T.BoolType) else v.type
        weak = isinstance(v, WeakConst)
        v = self.coerce(v, t, node)
        if isinstance(node.op, ast.UAdd):
            return v
        if isinstance(node.op, ast.USub):
            if isinstance(v, Const):
                c = Const(-v.value, t, loc)
                return WeakConst(c.value, t, loc) if weak else c
            return self.checked("neg", [v], self.emit("neg", [v], t, None, loc), node)
        r = self.emit("invert", [v], t, None, loc)
        return _weaken(r) if weak else r

    def expr_Compare(self, node: ast.Compare) -> Value:
        # a < b < c is (a < b) and (b < c) with b evaluated once, short-circuiting.
        if not any(isinstance(op, (ast.Is, ast.IsNot)) for op in node.ops):
            bool_ints.permit(self, bool_ints.AS_INT, node.left, *node.comparators)
        node = table_keys_compare(self, node)               # dispatch_tables.py: k in ops
        known = arrays.dtype_compare(self, node)
        if known is None:
            known = self.generator_contains(node)
        if known is None:
            known = static_args.static_str_compare(self, node)
        if known is None:
            known = class_members.static_class_compare(self, node)    # class_members.py: type(a) == type(b)
        if known is None:
            known = enum_values.class_contains(self, node)          # m in Color
        if known is not None:
            return known
        left = _BigInt.of(node.left) or self.lazy_any(node.left)
        if len(node.ops) == 1:
            right = _BigInt.of(node.comparators[0]) or self.lazy_any(node.comparators[0])
            if (is_array_like(left) or is_array_like(right)) and not isinstance(node.ops[0], (ast.Is, ast.IsNot)):
                return elementwise.array_compare(self, node.ops[0], left, right, node)
            viewed = self.view_compare(node.ops[0], left, right, node)     # `d.keys() == {...}`
            return viewed if viewed is not None else self.compare_beyond(node.ops[0], left, right, node)
        if isinstance(left, ArrayExpr):
            left = elementwise.materialize(self, left, node)
        done = self.new_block("cmp.done")
        result = done.add_param(T.BOOL, self.loc(node))
        for k, (op, right_node) in enumerate(zip(node.ops, node.comparators)):
            right = _BigInt.of(right_node) or optional.expr_opt(self, right_node, num=True, union=True)
            c = self.compare_beyond(op, left, right, node)
            if k == len(node.ops) - 1:
                self.jump_with(done, [c], node)
                break
            nxt = self.new_block("cmp.next")
            self.branch_with(c, nxt, [], done, [Const(False, T.BOOL)], node)
            self.seal(nxt)
            self.start(nxt)
            left = right
        self.seal(done)
        self.start(done)
        return result

    def compare_beyond(self, op: ast.cmpop, a, b, node) -> Value:
        """`compare`, where an operand may be an int constant beyond 64 bits (`n < 10**20`,
        `x <= 2**64` of a float): against an int its answer is known from the int type's
        range, as CPython's exact comparison gives it; against a float that holds the
        constant exactly it is the float comparison; elsewhere the constant's CompileError."""
        if not isinstance(a, _BigInt) and not isinstance(b, _BigInt):
            return self.compare(op, a, b, node)
        big, other = (a, b) if isinstance(a, _BigInt) else (b, a)
        pyop = _PY_COMPARE.get(type(op))
        t = getattr(other, "type", None)
        if pyop is not None and isinstance(other, _BigInt):
            return Const(pyop(a.value, b.value), T.BOOL, self.loc(node))
        if pyop is not None and isinstance(t, (T.IntType, T.BoolType)):
            sample = 0 if isinstance(t, T.BoolType) else t.min     # (every value of t answers alike)
            return Const(pyop(big.value, sample) if big is a else pyop(sample, big.value), T.BOOL, self.loc(node))
        if pyop is not None and isinstance(t, T.FloatType):
            try:
                exact = float(big.value) == big.value
            except OverflowError:
                exact = False
            if exact:
                c = WeakConst(float(big.value), T.F64, self.loc(big.node))
                return self.compare(op, c, b, node) if big is a else self.compare(op, a, c, node)
        self.exact_constant(big.node)           # the CompileError naming the constant
        raise AssertionError("unreachable")

    def value_identity(self, op: ast.cmpop, a: Value, b: Value, node) -> Value:
        """`a is b` of values neither of which is None (nor an instance: records.py): bools
        are the two singletons; a bool is never the same object as a value of another type.
        Ints, floats and strs are refused (which of them CPython shares, small ints, interned
        strs, is an accident of its implementation), and so are lists: a list argument is
        unboxed into a copy of its own, so two arguments that are one list are two here."""
        negate = isinstance(op, ast.IsNot)
        kinds = (isinstance(a.type, T.BoolType), isinstance(b.type, T.BoolType))
        if all(kinds):
            return self.compare(ast.NotEq() if negate else ast.Eq(), a, b, node)
        if any(kinds) and all(isinstance(v.type, (T.BoolType, T.IntType, T.FloatType, T.TextType,
                                                  T.ComplexType, T.ListType, T.TupleType)) for v in (a, b)):
            return Const(negate, T.BOOL)        # `n is True` of an int: never the same object
        self.error(f"'is' between values of types {a.type} and {b.type} is not supported: CPython's "
                   "answer depends on which objects it happens to share (use '==')", node)

    def compare(self, op: ast.cmpop, a: Value, b: Value, node) -> Value:
        if mixed_numbers.splits(a) or mixed_numbers.splits(b):
            return mixed_numbers.split(self, [a, b], lambda x, y: self.compare(op, x, y, node), node)
        loc = self.loc(node)
        known = optional.optional_compare(self, op, a, b, node)
        if known is not None:
            return known
        if (enum_values.is_enum(a) or enum_values.is_enum(b)) and not isinstance(op, (ast.In, ast.NotIn)):
            return enum_values.compare(self, op, a, b, node)
        itself = _compared_with_itself(op, a, b)
        if itself is not None:
            return itself
        same_kind = type(getattr(a, "type", None)) is type(getattr(b, "type", None)) and \
            isinstance(a.type, (T.TupleType, T.ListType))       # (element by element: the values decide)
        refused = None if same_kind else operand_type_error(type(op), getattr(a, "type", None),
                                                             getattr(b, "type", None))
        if refused is not None:     # `"a" < 1`: CPython's TypeError, raised where it raises it
            return self.raise_always("TypeError", refused, node)
        if isinstance(a.type, Unknown) or isinstance(b.type, Unknown):
            return Undef(UNKNOWN, loc)          # a value typed later in the round (min(key=))
        if isinstance(op, (ast.In, ast.NotIn)) and T.is_instance_type(b.type):
            hit = class_methods.instance_contains(self, a, b, node)
            return hit if isinstance(op, ast.In) else optional._not(self, hit, loc)
        if not isinstance(op, (ast.In, ast.NotIn)) and (T.is_instance_type(a.type)
                                                        or T.is_instance_type(b.type)):
            return records.record_compare(self, op, a, b, node)
        if isinstance(op, (ast.Is, ast.IsNot)):
            a, b = (elementwise.materialize(self, v, node) if isinstance(v, ArrayExpr) else v for v in (a, b))
            if not (isinstance(a.type, T.NoneType) or isinstance(b.type, T.NoneType)):
                return self.value_identity(op, a, b, node)
            same = isinstance(a.type, T.NoneType) and isinstance(b.type, T.NoneType)
            return Const(same if isinstance(op, ast.Is) else not same, T.BOOL)
        if isinstance(a.type, Unknown) or isinstance(b.type, Unknown):
            return Undef(UNKNOWN, loc)          # a round rebuilt once the type is known
        membership = isinstance(op, (ast.In, ast.NotIn))
        if isinstance(b.type, T.BytesType) or not membership and isinstance(a.type, T.BytesType):
            return self.bytes_compare(op, a, b, node)
        if isinstance(b.type, T.StrType) or not membership and isinstance(a.type, T.StrType):
            return self.str_compare(op, a, b, node)
        if isinstance(op, (ast.In, ast.NotIn)) and isinstance(b.type, (T.ListType, T.HashType)):
            hit = self.list_contains(a, b, node) if isinstance(b.type, T.ListType) else self.table_contains(a, b, node)
            return hit if isinstance(op, ast.In) else self.emit("not", [hit], T.BOOL, None, loc)
        if isinstance(op, (ast.In, ast.NotIn)):
            if b.type in NOT_CONTAINERS:       # CPython's TypeError, where it raises it
                return self.raise_always("TypeError", f"argument of type '{python_name(b.type)}' is not "
                                         "iterable", node)
            if not isinstance(b.type, T.TupleType):
                self.error(f"'in' is only supported on tuples and lists, not {b.type}", node)
            hit: Value = Const(False, T.BOOL)
            # CPython's `in` tests identity before ==: `x in (y, x)` holds even for a NaN. A
            # tuple element that is the very value of `a` (the same variable) is that object.
            parts = b.operands if getattr(b, "opname", None) == "tuple" else None
            for k, et in enumerate(b.type.elems):
                if parts is not None and parts[k] is a and not isinstance(a, Const):
                    hit = Const(True, T.BOOL)
                    break
                e = self.emit("extract", [b], et, k, loc)
                eq = self.compare(ast.Eq(), a, e, node)
                if isinstance(eq, Const):
                    if eq.value:
                        hit = eq
                        break
                    continue
                hit = eq if isinstance(hit, Const) else self.emit("or", [hit, eq], T.BOOL, None, loc)
            if isinstance(op, ast.NotIn):
                hit = self.emit("not", [hit], T.BOOL, None, loc) if not isinstance(hit, Const) \
                    else Const(not hit.value, T.BOOL)
            return hit
        pred = _CMP_OPS[type(op)]
        if isinstance(a.type, T.ListType) or isinstance(b.type, T.ListType):
            return self.compare_lists(pred, a, b, node)
        if isinstance(a.type, T.HashType) or isinstance(b.type, T.HashType):
            return self.table_compare(pred, a, b, node)
        if isinstance(a.type, T.TupleType) or isinstance(b.type, T.TupleType):
            return self.compare_tuples(pred, a, b, node)
        if isinstance(a.type, T.NoneType) or isinstance(b.type, T.NoneType):
            if pred in ("eq", "ne"):
                same = a.type == b.type
                return Const(same == (pred == "eq"), T.BOOL)
            self.error(f"'{type(op).__name__}' is not supported between {a.type} and {b.type}", node)
        known = self.int_value_compare(pred, a, b, node)
        if known is not None:
            return known
        if {a.type, b.type} == {T.I64, T.F64} and not any(isinstance(v, Const) and abs(v.value) < 2 ** 53 or
                                                          is_numpy_int(v, self.python_ints) for v in (a, b)):
            # (an array's element meets an int as NumPy has it: converted to a float)
            return mixed_numbers.exact_compare(self, pred, a, b, node)
        t = self.common_type(a, b, node)
        if isinstance(t, Unknown):
            return Undef(UNKNOWN, loc)
        if isinstance(t, T.ComplexType) and pred not in ("eq", "ne"):
            complex_lowering.complex_compare_error(self, op, a, b, node)
        a, b = self.coerce(a, t, node), self.coerce(b, t, node)
        return self.cmp(pred, a, b, node)

    def int_value_compare(self, pred: str, a: Value, b: Value, node) -> Value | None:
        """Ints whose types disagree, compared by value as Python does, or None: a literal
        outside the other int's range decides alone (`u < -1` is False, as in NumPy 2, where
        converting -1 to u64 would wrap), and an `int` meets a u64 as a Python int (a negative
        int is below every u64; otherwise the two compare as u64)."""
        if not (isinstance(a.type, T.IntType) and isinstance(b.type, T.IntType)):
            return None
        for lit, other, lit_left in ((a, b, True), (b, a, False)):
            if isinstance(lit, WeakConst) and not isinstance(other, WeakConst) \
                    and not other.type.min <= lit.value <= other.type.max:
                return Const(_ordered(pred, (lit.value < other.type.min) == lit_left), T.BOOL)
        if not is_int_u64_mix(a.type, b.type):
            return None
        i = a if a.type == T.I64 else b
        neg = self.cmp("lt", i, Const(0, T.I64), node)
        as_u64 = self.cmp(pred, self.coerce(a, T.U64, node), self.coerce(b, T.U64, node), node)
        when_neg = Const(_ordered(pred, i is a), T.BOOL)
        if isinstance(neg, Const):
            return when_neg if neg.value else as_u64
        return self.emit("select", [neg, when_neg, as_u64], T.BOOL, None, self.loc(node))

    def compare_tuples(self, pred: str, a: Value, b: Value, node) -> Value:
        if not (isinstance(a.type, T.TupleType) and isinstance(b.type, T.TupleType)):
            if pred in ("eq", "ne"):
                return Const(pred == "ne", T.BOOL)
            self.error(f"comparison of {a.type} and {b.type} is not supported", node)
        loc = self.loc(node)
        if pred not in ("eq", "ne"):
            return self.order_tuples(pred, a, b, node)
        if len(a.type.elems) != len(b.type.elems):
            return Const(pred == "ne", T.BOOL)
        result: Value = Const(True, T.BOOL)
        for k in range(len(a.type.elems)):
            x = self.emit("extract", [a], a.type.elems[k], k, loc)
            y = self.emit("extract", [b], b.type.elems[k], k, loc)
            eq = self.compare(ast.Eq(), x, y, node)
            result = eq if isinstance(result, Const) else self.emit("and", [result, eq], T.BOOL, None, loc)
        if pred == "ne":
            return self.emit("not", [result], T.BOOL, None, loc) if not isinstance(result, Const) \
                else Const(not result.value, T.BOOL)
        return result

    def order_tuples(self, pred: str, a: Value, b: Value, node) -> Value:
        """`a < b` (`<=`, `>`, `>=`) of tuples, as Python orders them: at the first position
        whose elements differ (`==` false), those elements decide; when one tuple is a prefix
        of the other, the lengths do."""
        loc = self.loc(node)
        na, nb = len(a.type.elems), len(b.type.elems)
        result: Value = Const({"lt": na < nb, "le": na <= nb, "gt": na > nb, "ge": na >= nb}[pred], T.BOOL)
        op = {"lt": ast.Lt, "le": ast.Lt, "gt": ast.Gt, "ge": ast.Gt}[pred]()
        for k, (ta, tb) in enumerate(zip(a.type.elems, b.type.elems)):
            refused = None if type(ta) is type(tb) else operand_type_error(type(op), ta, tb)
            if refused is None:
                continue
            # `(1, "a") < (2, 3)` is True: CPython reaches the str and the int only when every
            # element before them is equal, and then raises; an earlier difference decides.
            equal: Value = Const(True, T.BOOL)
            for j in range(k):
                xj, yj = (self.emit("extract", [v], v.type.elems[j], j, loc) for v in (a, b))
                equal = optional._and(self, equal, self.compare(ast.Eq(), xj, yj, node), loc)
            self.raise_if(equal, "TypeError", refused, node)
            na = nb = k
            result = Const(False, T.BOOL)       # (all equal before k: raised above)
            break
        # CPython compares elements by identity first: the same variable in both is equal,
        # even a NaN (as for `in`, `compare`).
        parts_a, parts_b = (v.operands if getattr(v, "opname", None) == "tuple" else None for v in (a, b))
        for k in reversed(range(min(na, nb))):
            if parts_a is not None and parts_b is not None and parts_a[k] is parts_b[k] \
                    and not isinstance(parts_a[k], Const):
                continue
            x = self.emit("extract", [a], a.type.elems[k], k, loc)
            y = self.emit("extract", [b], b.type.elems[k], k, loc)
            same = self.compare(ast.Eq(), x, y, node)
            decided = self.compare(op, x, y, node)
            if isinstance(same, Const):
                result = result if same.value else decided
                continue
            result = self.emit("select", [same, result, decided], T.BOOL, None, loc)
        return result

    def condition(self, node) -> Value:
        """The truth of `node` where only its truth is used (an `if`, `while`, `assert` or
        conditional-expression test): `and`/`or` there need not merge their operands'
        values, which may be of types that do not unify (`lst and lst[-1] == x`)."""
        if isinstance(node, ast.BoolOp):
            return self.expr_BoolOp(node, truth_only=True)
        bool_ints.permit(self, bool_ints.AS_INT, node)
        return self.truth(optional.expr_opt(self, node, num=True, union=True), node)

    def expr_BoolOp(self, node: ast.BoolOp, truth_only: bool = False) -> Value:
        # `a or b` is a if a is true else b; b is evaluated only when needed.
        is_and = isinstance(node.op, ast.And)
        done = self.new_block("boolop.done")
        pending = []           # (block, value) reaching `done`
        last = len(node.values) - 1
        for k, sub in enumerate(node.values):
            if k > 0:       # only reached when the operands before were true (and) or false (or)
                optional.narrow(self, test_facts(node.values[k - 1])[0 if is_and else 1])
            if not truth_only:
                bool_ints.permit(self, bool_ints.KEEP, sub)       # (merged: read where it is used)
            v = self.condition(sub) if truth_only else optional.expr_opt(self, sub, num=True, union=True)
            c = (v if truth_only else self.truth(v, sub)) if k < last else None
            if c is None or isinstance(c, Const) and c.value != is_and:
                pending.append((self.block, v))
                self.goto(done, self.loc(node))
                break
            if isinstance(c, Const):
                continue           # decided: go on with the next operand in this block
            nxt = self.new_block("boolop.next")
            pending.append((self.block, v))
            if is_and:
                self.branch(c, nxt, done, self.loc(node))
            else:
                self.branch(c, done, nxt, self.loc(node))
            self.seal(nxt)
            self.start(nxt)
        return self.merge_values(done, pending, node)

    def expr_IfExp(self, node: ast.IfExp) -> Value:
        cond = self.condition(node.test)
        bool_ints.permit(self, bool_ints.KEEP, node.body, node.orelse)      # (merged: read where used)
        if isinstance(cond, Const):
            return optional.expr_opt(self, node.body if cond.value else node.orelse, num=True, union=True)
        yes, no = test_facts(node.test)
        return self.choose(cond, lambda: optional.narrow(self, yes) or optional.expr_opt(self, node.body, num=True, union=True),
                           lambda: optional.narrow(self, no) or optional.expr_opt(self, node.orelse, num=True, union=True), node)

    def choose(self, cond: Value, then, other, node):
        """Emit `then()` where `cond` holds and `other()` where not, and go on after both:
        with the value each returned merged into one, or None when they emit code only."""
        loc = self.loc(node)
        yes, no, done = self.new_block("choose"), self.new_block("choose.else"), self.new_block("choose.done")
        self.branch(cond, yes, no, loc)
        self.seal(yes)
        self.seal(no)
        self.start(yes)
        a = then()
        pa = self.block
        self.goto(done, loc)
        self.start(no)
        b = other()
        pb = self.block
        self.goto(done, loc)
        if a is None and b is None:
            self.finish_join(done)
            return None
        return self.merge_values(done, [(pa, a), (pb, b)], node)

    def merge_values(self, done, pending, node) -> Value:
        """Seal `done` and give it one parameter taking each (block, value) that jumps to it."""
        built = [v.type for blk, v in pending if not isinstance(v.type, Unknown)]
        pending = [(blk, v) for blk, v in pending if blk is not None and done in blk.succs]
        self.seal(done)
        self.start(done)
        if not pending:
            # code that never runs (`0 > 7 < round(1.0 or x)`): a placeholder of the type the
            # value would have, so the rest of it builds as it would where it ran
            self.block = done
            t = built[0] if built else UNKNOWN
            for u in built[1:]:
                t = T.merge(t, u, bool_int=True) or UNKNOWN if not isinstance(t, Unknown) else t
            return Undef(t, self.loc(node))
        t = pending[0][1].type
        for _, v in pending[1:]:
            u = T.merge(t, v.type, bool_int=True) if not isinstance(v.type, Unknown) and not isinstance(t, Unknown) else (
                t if isinstance(v.type, Unknown) else v.type)
            if u is None:
                self.merge_pending_list(t, v.type)          # lists.py: `x if c else []`
                for _, w in pending:
                    self.widen_list_at_merge(w, v)          # lists.py: `[1] if c else [0.5]`
                class_types.widen_number_fields(self, t, v.type)         # instances' fields
                u = union_values.meet(t, v.type)            # `1 if c else "a"`: either
            if u is None:
                self.error(f"the two sides have incompatible types {t} and {v.type}" + mixed_classes(t, v.type), node)
            t = u
        if len({id(v) for _, v in pending}) == 1:
            return pending[0][1]
        if all(isinstance(v, Const) for _, v in pending) and len({v.key() for _, v in pending}) == 1 \
                and pending[0][1].type == t:
            return pending[0][1]
        param = done.add_param(t, self.loc(node))
        for blk, v in pending:
            term = blk.terminator
            for k, s in enumerate(term.succs):
                if s is done:
                    term.add_succ_arg(k, self.convert_in(blk, v, t))
        return param

    def jump_with(self, target, args, node) -> None:
        blk = self.block
        self.goto(target, self.loc(node))
        if blk is not None:
            for a in args:
                blk.terminator.add_succ_arg(0, a)

    def branch_with(self, cond, then, then_args, other, other_args, node) -> None:
        blk = self.block
        if isinstance(cond, Const):
            target, args = (then, then_args) if cond.value else (other, other_args)
            self.jump_with(target, args, node)
            return
        self.branch(cond, then, other, self.loc(node))
        for a in then_args:
            blk.terminator.add_succ_arg(0, a)
        for a in other_args:
            blk.terminator.add_succ_arg(1, a)


def _ordered(pred: str, less: bool) -> bool:
    """`pred(a, b)` for two unequal values, `less` telling whether a < b."""
    return {"lt": less, "le": less, "gt": not less, "ge": not less, "eq": False, "ne": True}[pred]


def const_fits_i64(value) -> bool:
    """Whether a literal is lowered as it always was (not an int, or an int int64 holds)."""
    return not isinstance(value, int) or T.I64.min <= value <= T.I64.max


def _weaken(v: Value) -> Value:
    return WeakConst(v.value, v.type, v.loc) if isinstance(v, Const) and not isinstance(v, WeakConst) else v
