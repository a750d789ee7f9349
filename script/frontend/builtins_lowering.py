"""Calls: other `@script` functions, Python builtins, the `math` module and type conversions.

`lower_call` evaluates the callee, asks the registry (registry.py: the entries at the end of
this module and those of the feature modules), then tries the user's functions and classes.

Functions over the lowering `cx` (names, emission, operators). Every
builtin raises what CPython raises for the same arguments (messages are read from CPython).
"""

from __future__ import annotations

import ast
import bisect
import collections
import heapq
import functools
import itertools
import inspect
import builtins as py_builtins
import cmath
import math
import operator
import sys
import types

from script.frontend.held_functions import held_function_call
from script.frontend import (arrays, bool_ints, bounded_deques, bytes_values, class_members, class_methods,
                             class_types, closures, complex_arrays, complex_lowering, default_tables, dicts,
                             elementwise, enum_values, generator_args, generators, held_generators, held_iterators, keyed,
                             lists, messages, mixed_numbers, named_tuples, optional, records, seq_iterators,
                             static_args, strings, strmethods, varargs)
from script.lib.python import heapqlib, itertoolslib, pylib, relib, textio
from script.frontend.callee_hints import pass_pending, pending_parts
from script.frontend.generators import USE_ERROR, is_generator
from script.frontend.closures import NestedFunction
from script.frontend.shared_defaults import check_passed, default_argument
from script.frontend import function_values
from script.frontend.complex_lowering import CMATH_CONSTANTS
from script.frontend.strings import STR_INTRINSICS
from script.frontend.instance_test import lower_callable, lower_getattr, lower_hasattr, lower_isinstance
from script.pyhooks.named_instance import is_named_tuple_class, is_record_class
from script.frontend.int_consts import is_library, takes_u64
from script.frontend.lower_expr import (NOT_CONTAINERS, WeakConst, const_of, kind_sample, missing_attribute,
                                       operand_type_error, python_sample, sample_type_error)
from script.frontend.optional import is_optional, python_name
from script.frontend.random_calls import is_default_rng, make_generator
from script.frontend.registry import ANY, CALLS, METHODS, lowers, method_kind
from script.frontend.bound_methods import bound_method_call
from script.frontend.dispatch_tables import dispatch_call
from script.frontend.memo import cached_function
from script.frontend.numba_compat import numba_python_function
from script.frontend.elementwise import UFUNCS, is_array_like
from script.frontend.pymessages import message
from script.frontend.python_classes import note_call, reject_deque_arguments
from script.frontend.table_args import argument_defaults, returned_default, with_defaults
from script.frontend.unknown import UNKNOWN, Undef, Unknown
from script.errors import MIXED_NUMBERS, CompileError
from script.frontend.typeinfer import SizedType, type_from_annotation
from script.frontend.pyref import PyRef, Undefined, global_callee, is_type_call
from script.ir import types as T
from script.ir.core import Const, Value, closure_of
from script.ir.ops import MATH_FUNCS

_MATH_CONSTANTS = {"pi": math.pi, "e": math.e, "tau": math.tau, "inf": math.inf, "nan": math.nan}
_GAMMA_POLES = ("gamma", "lgamma")
_NEVER_RAISE = ("fabs", "copysign", "atan2", "floor", "ceil", "trunc", "rint", "nextafter", "erf",
                "erfc", "tanh", "atan", "cbrt", "hypot", "norm2")
_PYLIB = {math.gcd: pylib.gcd2, math.lcm: pylib.lcm2, math.isqrt: pylib.isqrt,
          math.factorial: pylib.factorial, math.comb: pylib.comb, math.perm: pylib.perm,
          math.frexp: pylib.frexp, math.ldexp: pylib.ldexp,
          heapq.heappush: heapqlib.heappush, heapq.heappop: heapqlib.heappop,
          heapq.heapreplace: heapqlib.heapreplace, heapq.heappushpop: heapqlib.heappushpop,
          heapq.heapify: heapqlib.heapify, heapq.nsmallest: heapqlib.nsmallest,
          heapq.nlargest: heapqlib.nlargest, bisect.bisect_left: heapqlib.bisect_left,
          bisect.bisect_right: heapqlib.bisect_right, bisect.insort_left: heapqlib.insort_left,
          bisect.insort_right: heapqlib.insort_right}

_INT64_ARGS = (pylib.lcm2, pylib.isqrt, pylib.factorial, pylib.comb, pylib.perm, pylib.gcd, pylib.lcm)  # (int64 code)
_ANY_ARITY = {pylib.gcd2: pylib.gcd, pylib.lcm2: pylib.lcm}     # math.gcd(a, b, c), math.lcm()
_EINSUM = __import__("numpy").einsum
_STORES_ITEM = (heapq.heappush, heapq.heapreplace, heapq.heappushpop, bisect.insort_left,
                bisect.insort_right)


def resolve_attribute(cx, node: ast.Attribute) -> Value:
    ref = attribute_ref(cx, node)
    if isinstance(ref, PyRef) and isinstance(ref.obj, Undefined):
        return cx.name_error(ref.obj, node)       # `undefined.x`: NameError where it is read
    if isinstance(ref, PyRef) and function_values.is_global_function(ref.obj):
        return function_values.global_value(cx, ref.obj, ast.unparse(node), node)     # fs = [math.sqrt, f]
    if isinstance(ref, PyRef):
        cx.error(f"'{ast.unparse(node)}' cannot be used as a value here", node)
    return ref


def attribute_ref(cx, node: ast.Attribute):
    """A Value, or a PyRef for module attributes that are functions/classes/modules."""
    if class_members.is_super_call(cx, node.value):
        return class_members.super_attribute(cx, node)
    if node.attr in ("__name__", "__qualname__") and is_type_call(cx, node.value):
        named = class_members.optional_type_name(cx, node.value, node)     # type(v).__name__ of a v or None
        if named is not None:
            return named
    return attribute_of(cx, callee_ref(cx, node.value), node)


def attribute_of(cx, base, node: ast.Attribute):
    """`attribute_ref` of `node` whose base (`node.value`) is already resolved."""
    if not isinstance(base, PyRef):
        return value_attribute(cx, base, node)
    obj = base.obj
    if isinstance(obj, Undefined):
        return base                     # `undefined.x.y`: the NameError of `undefined`
    if obj is math and node.attr in _MATH_CONSTANTS:
        return Const(_MATH_CONSTANTS[node.attr], T.F64, cx.loc(node))
    if obj is cmath and node.attr in CMATH_CONSTANTS:
        value = CMATH_CONSTANTS[node.attr]
        return Const(value, T.C128 if isinstance(value, complex) else T.F64, cx.loc(node))
    if not hasattr(obj, node.attr):
        cx.error(f"'{base.name}' has no attribute '{node.attr}'", node)
    return cx.python_object(getattr(obj, node.attr), f"{base.name}.{node.attr}", node)


def value_attribute(cx, base: Value, node: ast.Attribute) -> Value:
    base = class_types.instance_base(cx, base, node.attr, node)     # an instance or None: class_types.py
    t = base.type
    if isinstance(t, Unknown):          # (an element of a list not typed yet: a round to be rebuilt)
        return Undef(UNKNOWN, cx.loc(node))
    if isinstance(t, T.ArrayType):
        return arrays.array_attribute(cx, base, node)
    if isinstance(t, T.ComplexType):
        return complex_lowering.complex_attribute(cx, base, node)
    if isinstance(t, T.EnumType):
        return class_members.enum_attribute(cx, base, node)
    if T.is_instance_type(t):
        return records.record_field(cx, base, node)
    if isinstance(t, T.NamedTupleType):
        return named_tuples.named_field(cx, base, node)
    if isinstance(t, T.FloatType) and node.attr in ("real", "imag"):
        return base if node.attr == "real" else Const(0.0, t)
    if isinstance(t, (T.IntType, T.BoolType)) and node.attr in ("real", "numerator"):
        return base
    if isinstance(t, (T.IntType, T.BoolType)) and node.attr == "imag":
        return Const(0, T.I64 if isinstance(t, T.BoolType) else t)
    missing = missing_attribute(t, node.attr)
    if missing is not None:         # `n.size` of an int: CPython's error, where it raises it
        return cx.raise_always("AttributeError", missing, node)
    kind = {T.ListType: list, T.StrType: str, T.BytesType: bytes}.get(type(t)) or (
        (dict if isinstance(t, T.DictType) else set) if isinstance(t, T.HashType) else None)
    if kind is not None and callable(getattr(kind, node.attr, None)):
        cx.error(f"the bound method '{kind.__name__}.{node.attr}' is not a value in compiled code: "
                 "call it, or hold it in a local that is assigned once and only called "
                 f"(`f = xs.{node.attr}`, then `f(...)`)", node)
    cx.error(f"a value of type {t} has no attribute '{node.attr}' in compiled code", node)


def callee_ref(cx, node):
    if isinstance(node, ast.Name):
        return cx.lookup(node)
    if isinstance(node, ast.Attribute):
        return attribute_ref(cx, node)
    if isinstance(node, ast.Call) and is_default_rng(cx, node.func):
        return make_generator(cx, node)       # np.random.default_rng(s).random(): random_calls.py
    if is_type_call(cx, node):
        return class_members.class_ref(cx, node)             # type(obj).__name__, type(obj)(...): class_members.py
    return cx.expr(node)

# ---- calls -------------------------------------------------------------------------


def lower_call(cx, node: ast.Call) -> Value:
    for k in node.keywords:
        if k.arg is None:
            cx.error(f"**{ast.unparse(k.value)} in a call is not supported in compiled code "
                     "(name the keyword arguments)", k.value)
    held = cx.builtin_call(node)
    if held in (zip, enumerate):            # as a value: a list of its tuples (star_zip.py)
        return held_iterators.hold(cx, lists.list_of(cx, node, node), held.__name__, node)
    node = bound_method_call(cx, node)    # ins(0, x) after ins = xs.insert: bound_methods.py
    dispatched = dispatch_call(cx, node)  # ops[t](a, b) of ops = {"+": f}: dispatch_tables.py
    if dispatched is None:
        dispatched = held_function_call(cx, node)     # op(a, b) of op = operator.lt: held_functions.py
    if dispatched is not None:
        return dispatched
    spread = varargs.spread_iterable(cx, node)     # max(*xs), math.gcd(*xs) of a list
    if spread is not None:
        return spread
    node = varargs.spread_starred(cx, node)        # f(*t)
    if default_tables.fromkeys_call(cx, node):
        return default_tables.lower_fromkeys(cx, node)
    if isinstance(node.func, ast.Attribute) and class_members.is_super_call(cx, node.func.value):
        return class_members.super_call(cx, node)
    if isinstance(node.func, ast.Attribute):
        base = class_types.instance_base(cx, callee_ref(cx, node.func.value), node.func.attr, node)
        if isinstance(base, PyRef) and isinstance(base.obj, Undefined):
            return cx.name_error(base.obj, node)        # `undefined.f(x)`: before the arguments
        if isinstance(getattr(base, "type", None), T.OptionalType):    # (an element of `[None] * n`)
            base = optional.unwrap(cx, base, node.func, f"'NoneType' object has no attribute '{node.func.attr}'",
                                   "AttributeError")
        missing = missing_attribute(getattr(base, "type", None), node.func.attr)
        if missing is not None:     # `n.append(x)` of an int: CPython's error, where it raises it
            return cx.raise_always("AttributeError", missing, node)
        if isinstance(getattr(base, "type", None), Unknown):
            return Undef(UNKNOWN, cx.loc(node))   # a round to be rebuilt (lists.get_item)
        method = METHODS.lookup(method_kind(getattr(base, "type", None)), node.func.attr)
        if method is not None:                      # registry.py
            return method(cx, base, node)
        ref = attribute_of(cx, base, node.func)
    else:
        ref = callee_ref(cx, node.func)
    if T.is_instance_type(getattr(ref, "type", None)):
        return class_methods.instance_call(cx, ref, node)
    if function_values.is_record(getattr(ref, "type", None)):
        return function_values.call_record(cx, ref, node)     # add5(3) of add5 = make_adder(5)
    if isinstance(getattr(ref, "type", None), T.FuncType):
        return function_values.call(cx, ref, node)      # f(n) of f = add, fs[0](n): function_values.py
    if not isinstance(ref, PyRef):
        refused = sample_type_error(lambda x: x(), kind_sample(getattr(ref, "type", None)))
        if refused is not None:                 # `f(x)` of an int: CPython's TypeError
            for a in node.args:                 # (CPython evaluates the arguments first)
                cx.expr(a.value if isinstance(a, ast.Starred) else a)
            for k in node.keywords:
                cx.expr(k.value)
            return cx.raise_always("TypeError", refused, node)
        cx.error(f"a value of type {ref.type} is not callable", node.func)
    obj = ref.obj
    if isinstance(obj, Undefined):
        return cx.name_error(obj, node)                 # `undefined(x)`: before the arguments
    if isinstance(obj, NestedFunction):
        return closures.call_nested(cx, obj, node)
    if enum_values.is_plain_enum_class(obj):
        return enum_values.call(cx, obj, node)         # Color(value)
    found = CALLS.lookup(obj)          # the library's calls: registry.py
    if found is not None:
        result = found[0](cx, node, found[1])
        if result is not NotImplemented:
            kind = held_iterators.maker_kind(obj)
            return result if kind is None else held_iterators.hold(cx, result, kind, node)
    return call_user(cx, ref, node)


def call_user(cx, ref, node: ast.Call) -> Value:
    """A call of `ref.obj` that no lowering in the registry takes: a user's function,
    method or class, else the error CPython's name for it deserves."""
    obj = ref.obj
    info = cx.ctx.script_info(obj)
    if info is not None:
        return call_script(cx, info, node)
    if isinstance(obj, types.MethodType):
        bound = class_members.class_method_call(cx, obj, node)               # class_members.py: C.m(...)
        if bound is not None:
            return bound
    # an @njit function (numba_compat.py), a module-level functools.cache (memo.py)
    wrapped = numba_python_function(obj) or cached_function(obj)
    if wrapped is not None:
        return call_script(cx, cx.ctx.info_for(wrapped), node)
    if isinstance(obj, types.FunctionType):
        # A plain Python function called from compiled code is compiled too, as
        # TorchScript does: callees need no decorator of their own.
        return call_script(cx, cx.ctx.info_for(obj), node)
    if is_named_tuple_class(obj):
        return named_tuples.make_named_tuple(cx, obj, node)
    if is_record_class(obj) or obj in relib.RECORDS + textio.RECORDS:    # (Match, Pattern: re_calls.py; TextFile)
        return records.make_record(cx, obj, node)
    if isinstance(obj, type) and issubclass(obj, BaseException):
        return cx.exception_value(node)              # lower_stmt.py: `err = E(...)`
    if callable(obj):
        cx.error(f"call to '{ref.name}' is not supported in compiled code (it is not an @script "
                 "function or a supported builtin)", node)
    cx.error(f"'{ref.name}' is not callable", node)


def positional_count(cx, node: ast.Call, name: str, lo: int, hi: int | None = None) -> None:
    """A CompileError unless `node` passes from lo to hi positional arguments and no keyword."""
    hi = lo if hi is None else hi
    if node.keywords:
        cx.error(f"{name}() takes no keyword arguments here", node)
    if not lo <= len(node.args) <= hi:
        want = str(lo) if lo == hi else f"{lo} to {hi}"
        cx.error(f"{name}() takes {want} arguments ({len(node.args)} given)", node)


def positional(cx, node: ast.Call, name: str, lo: int, hi: int | None = None) -> list[Value]:
    positional_count(cx, node, name, lo, hi)
    values = unwrap_none_args(cx, getattr(py_builtins, name, None),
                              [optional.expr_opt(cx, a) for a in node.args], node.args, node)
    for v, a in zip(values, node.args):
        if mixed_numbers.is_num(v):             # (an opt[num] unwrapped: the statement splits on it)
            raise mixed_numbers.NumRead(a, cx.loc(a))
    return values


def unwrap_none_args(cx, fn, values: list, arg_nodes, node) -> list:
    """`values`, the arguments of a call of builtin `fn`, each optional one unwrapped: None
    raises the TypeError `fn` itself raises for None there (CPython's text, from samples of
    the other arguments' types: `divmod(None, 2)`, `min(v, 2.5)`; of two that are both None,
    its text for both); the generic text where `fn` is no builtin."""
    if not any(is_optional(v) for v in values):
        return values
    samples = [kind_sample(v.type.value if is_optional(v) else v.type) for v in values]

    def text(*args):
        return sample_type_error(fn, *args) if callable(fn) else None
    if len(values) == 2 and all(is_optional(v) for v in values):
        none = cx.emit("and", [optional.absent(cx, v, node) for v in values], T.BOOL, None, cx.loc(node))
        cx.raise_if(none, "TypeError", text(None, None) or optional.GENERIC_MESSAGE.format(
            optional.python_name(values[0].type.value)), node)
    return [optional.unwrap(cx, v, a, text(*samples[:k], None, *samples[k + 1:])) if is_optional(v) else v
            for k, (v, a) in enumerate(zip(values, arg_nodes))]


def lower_itertools(cx, node: ast.Call, name: str) -> Value:
    """`itertools.<name>(...)` as the list of the tuples it yields (itertoolslib): the
    tuples' length must be a constant, at most 4."""
    def constant(expr, what: str) -> int:
        v = cx.expr(expr)
        if not (isinstance(v, Const) and isinstance(v.value, int) and not isinstance(v.value, bool)):
            cx.error(f"{name}()'s {what} must be a constant int in compiled code (a tuple's "
                     "length is part of its type)", expr)
        if v.value < 0:
            cx.error(f"{what} must be non-negative", expr)
        return v.value

    kw = {k.arg: k.value for k in node.keywords}
    if name == "product":
        if set(kw) - {"repeat"}:
            cx.error("product() takes only the keyword argument 'repeat'", node)
        repeat = kw.get("repeat")
        if repeat is not None and not _small_constant(cx, repeat, len(node.args)):
            if len(node.args) != 1:
                constant(repeat, "repeat")      # (one element type: a single iterable)
            return _itertools_n(cx, node, name, node.args[0], repeat)
        args = list(node.args) * (constant(repeat, "repeat") if repeat is not None else 1)
    else:
        if set(kw) - {"r"} or len(node.args) + len(kw) > 2 or not node.args:
            cx.error(f"{name}() takes an iterable and a length r", node)
        r_node = node.args[1] if len(node.args) == 2 else kw.get("r")
        if r_node is None and name != "permutations":
            cx.error(f"{name}() missing required argument 'r' (pos 2)", node)
        if r_node is None or not _small_constant(cx, r_node, 1):
            return _itertools_n(cx, node, name, node.args[0], r_node)
        args = node.args[:1]
        r = constant(r_node, "r")
    count = len(args) if name == "product" else r
    # each iterable as a list (ranges, zips, generator expressions, arrays...): what
    # CPython's itertools take in as well before yielding anything
    seqs = tuple(lists.list_of(cx, a, node) for a in args)
    none = ast.Call(node.func, [], [])
    if count == 0:
        return call_script(cx, cx.ctx.info_for(itertoolslib.empty_product), none)
    return call_script(cx, cx.ctx.info_for(itertoolslib.ROUTINES[name][count - 1]), none, leading=seqs)


def _small_constant(cx, expr, times: int) -> bool:
    """Whether `expr` is a constant int (a literal or a global) of at most 4 (with `times`
    iterables: their count times it): tuples of that fixed length; else the length is a
    run-time value (`_itertools_n`). Nothing is evaluated: the iterable comes first."""
    if isinstance(expr, ast.UnaryOp) and isinstance(expr.op, ast.USub) and isinstance(expr.operand, ast.Constant):
        return True         # (negative: the fixed-length path's error)
    value = expr.value if isinstance(expr, ast.Constant) else None
    if isinstance(expr, ast.Name) and expr.id not in cx.locals:
        found, obj = cx.info.global_value(expr.id)
        value = obj if found else None
    return type(value) is int and value * times <= 4


def _itertools_n(cx, node: ast.Call, name: str, iterable, length) -> Value:
    """`permutations(s)`, `combinations(xs, k)`, `product(xs, repeat=n)` of a length known
    at run time (or over 4): tuples of one element type and that length (itertoolslib
    `*_n`)."""
    seq = lists.list_of(cx, iterable, node)
    if isinstance(seq.type, T.TupleType):
        cx.error(f"{name}() of a tuple of several types, with a length known only at run time, is "
                 "not supported in compiled code (make it a list of one type)", iterable)
    n = cx.expr(length) if length is not None else Const(0, T.I64)
    if not isinstance(n.type, (T.IntType, T.BoolType)):
        cx.error(f"{name}()'s {'repeat' if name == 'product' else 'r'} must be an int, not {n.type}", length)
    args = [n] if name != "permutations" else [n, Const(length is None, T.BOOL)]
    fn = itertoolslib.VARIABLE[name]
    return call_script(cx, cx.ctx.info_for(fn), ast.Call(node.func, [], []), leading=(seq, *args))


def lower_map_filter(cx, node: ast.Call, name: str) -> Value:
    """`map(f, xs, ...)` / `filter(f, xs)` as the list of what they yield (itertoolslib;
    `f` is bound when compiled, as any function passed to a compiled callee)."""
    if node.keywords:
        cx.error(f"{name}() takes no keyword arguments", node)
    if name == "map" and not 2 <= len(node.args) <= 4:
        cx.error("map() takes a function and one to three iterables in compiled code", node)
    if name == "filter" and len(node.args) != 2:
        cx.error(f"filter expected 2 arguments, got {len(node.args)}", node)
    f, iterables = node.args[0], node.args[1:]
    seqs = tuple(lists.list_of(cx, a, node) for a in iterables)
    if name == "filter" and isinstance(f, ast.Constant) and f.value is None:
        return call_script(cx, cx.ctx.info_for(itertoolslib.filter_true), ast.Call(node.func, [], []),
                           leading=seqs)
    fn = itertoolslib.filter_by if name == "filter" else \
        (itertoolslib.map1, itertoolslib.map2, itertoolslib.map3)[len(seqs) - 1]
    if len(seqs) == 1:
        f = keyed.method_key(cx, f)     # `str.upper`, `"".join`: the lambda calling the method
    return call_script(cx, cx.ctx.info_for(fn), ast.Call(node.func, [f], []), leading=seqs)


def lower_fold(cx, node: ast.Call, name: str) -> Value:
    """`functools.reduce(f, xs[, initial])` and `itertools.accumulate(xs[, f], initial=)`
    (the list of what it yields), through itertoolslib; `f` is bound when compiled."""
    kw = {k.arg: k.value for k in node.keywords}
    if name == "reduce":
        if kw or not 2 <= len(node.args) <= 3:
            cx.error("reduce() takes a function, an iterable and an optional initial value", node)
        f, xs, initial = node.args[0], node.args[1], node.args[2:]
    else:
        if set(kw) - {"func", "initial"} or not 1 <= len(node.args) + ("func" in kw) <= 2:
            cx.error("accumulate() takes an iterable, an optional function and initial=", node)
        xs = node.args[0]
        f = node.args[1] if len(node.args) > 1 else kw.get("func")
        initial = [kw["initial"]] if "initial" in kw and not (
            isinstance(kw["initial"], ast.Constant) and kw["initial"].value is None) else []
        if isinstance(f, ast.Constant) and f.value is None:
            f = None
    seq = lists.list_of(cx, xs, node)
    if name == "reduce":
        fn = itertoolslib.reduce_from if initial else itertoolslib.reduce_first
    elif f is None:
        fn = itertoolslib.accumulate_sum_from if initial else itertoolslib.accumulate_sum
    else:
        fn = itertoolslib.accumulate_by_from if initial else itertoolslib.accumulate_by
    args = ([f] if f is not None else []) + initial
    return call_script(cx, cx.ctx.info_for(fn), ast.Call(node.func, args, []), leading=(seq,))


def call_script(cx, info, node: ast.Call, first: Value | None = None, leading=()) -> Value:
    """A call to another compiled function: bind arguments, specialize, emit `call`.
    `first`: an argument before the call's own (the array of a method call); `leading`:
    arguments before those (a nested function's free variables, closures.py)."""
    if is_generator(info):
        cx.error(f"'{info.name}' is a generator function: a call to it {USE_ERROR}", node)
    if not leading:
        inlined = generator_args.inline_call(cx, info, node, first)     # f(gen(...)): f inlined here
        if inlined is not None:
            return inlined
    values = list(leading) + ([first] if first is not None else []) + [static_args.call_argument(cx, a)
                                                                        for a in node.args]
    kw = {k.arg: (static_args.call_argument(cx, k.value), k.value) for k in node.keywords}
    if not is_library(getattr(info, "py_func", None)):     # (the library never calls one: sorted, dict.get)
        how = f"passed to '{info.name}'"
        values[len(leading):] = [function_values.escape(cx, v, node, how) for v in values[len(leading):]]
        kw = {k: (function_values.escape(cx, v, vnode, how), vnode) for k, (v, vnode) in kw.items()}
        for v in values[len(leading):] + [v for v, _ in kw.values()]:
            function_values.refuse_escape(cx, getattr(v, "type", None), node, how)
    names = info.param_names
    if getattr(info, "shared_defaults", ()):
        check_passed(cx, info, node)            # shared_defaults.py
    n_positional = getattr(info, "n_positional", len(names))
    vararg = getattr(info, "vararg", None)
    if len(values) > n_positional and vararg is None:
        text = _too_many_positional(info, n_positional, len(values))
        if text is not None:            # CPython's TypeError, where it raises it
            return cx.raise_always("TypeError", text, node)
        if is_library(getattr(info, "py_func", None)):    # a method written in the subset: its own
            own = len(values) - len(node.args)            # arguments, not the helper's
            cx.error(f"{info.name}() given {len(node.args)} argument{'s' if len(node.args) != 1 else ''}, "
                     f"more than the {n_positional - own} compiled code takes", node)
        cx.error(f"{info.name}() takes {n_positional} positional arguments but {len(values)} were given", node)
    bound: list[Value | None] = values[:n_positional] + [None] * (len(names) - min(len(values), n_positional))
    if vararg is not None:
        varargs.pack_varargs(cx, info, bound, values, node)
        if vararg in kw:
            cx.error(f"{info.name}() got an unexpected keyword argument '{vararg}'", kw[vararg][1])
    kwarg = getattr(info, "kwarg", None)
    if kwarg is not None:
        kw = varargs.pack_kwargs(cx, info, bound, kw, node)
    for key, (v, vnode) in kw.items():
        if key not in names:
            cx.error(f"{info.name}() got an unexpected keyword argument '{key}'", vnode)
        i = names.index(key)
        if bound[i] is not None:
            cx.error(f"{info.name}() got multiple values for argument '{key}'", vnode)
        bound[i] = v
    hidden = getattr(info, "hidden_globals", ())
    for i, v in enumerate(bound):
        if v is None and names[i] in hidden:     # the caller's own (global_writes.py)
            bound[i] = v = hidden_argument(cx, info, names[i], node)
        if v is None:
            if names[i] not in info.defaults:
                text = _missing_arguments(info, [n for n, b in zip(names, bound) if b is None
                                                 and n not in info.defaults])
                if text is not None:            # CPython's TypeError, where it raises it
                    return cx.raise_always("TypeError", text, node)
                cx.error(f"{info.name}() missing required argument '{names[i]}'", node)
            if isinstance(info.defaults[names[i]], closures.DefTimeDefault):     # `lambda x, i=i: ...`
                bound[i] = closures.default_value(cx, info, names[i], node)
                continue
            shared = default_argument(cx, info, names[i], node)      # a list, dict or set: shared_defaults.py
            bound[i] = shared if shared is not None else \
                static_args.static_default(cx, cx.python_object(info.defaults[names[i]], names[i], node))
    bounded_deques.reject_bounded_deque_arguments(cx, info, node)
    reject_deque_arguments(cx, info, node)
    defaults = argument_defaults(cx, info, node, len(leading) + (first is not None))
    info, bound = static_args.bind_statics(cx, info, bound, node)
    info = with_defaults(cx, info, defaults, node)         # table_args.py
    names = info.param_names
    if any(isinstance(v.type, Unknown) for v in bound):
        return Undef(UNKNOWN, cx.loc(node))
    types = []
    args = []
    hints = getattr(info, "param_hints", info.param_types)
    for v, ann, hint, pname in zip(bound, info.param_types, hints, names):
        if ann is None and hint is not None and pending_parts(v.type):
            ann = hint          # `f([])` of `xs: list[float]`: the hint types the empty list
        pass_pending(cx, v.type, ann)        # callee_hints.py
        want = ann if ann is not None else v.type
        if ann is not None and not T.is_convertible(v.type, ann):
            cx.error(f"argument '{pname}' of {info.name}() must be {ann}, not {v.type}", node)
        if ann is not None and T.unify(ann, v.type) != ann and not isinstance(v, Const):
            cx.error(f"argument '{pname}' of {info.name}() is {v.type}; it would lose information "
                     f"when converted to {ann}", node)
        args.append(cx.coerce(Const(v.value, v.type) if isinstance(v, Const) else v, want, node))
        types.append(want)
    try:
        callee = cx.ctx.callee(cx, info, tuple(types), node)
    except CompileError as e:
        if e.reason == MIXED_NUMBERS:       # a float stored into a list of ints passed (or the reverse)
            lists.widen_arguments(cx, args)
        raise
    if isinstance(callee.ret_type, Unknown):
        return Undef(UNKNOWN, cx.loc(node))
    reject_frozen_arguments(cx, bound, callee, info, node)
    result = cx.emit("call", args, callee.ret_type, callee, cx.loc(node))
    returned_default(cx, info, callee, node)               # table_args.py
    note_call(cx, callee, node)                            # python_classes.py
    if isinstance(callee.ret_type, T.NoneType) and cx.ctx.never_returns(callee):
        # Every path of the callee raises: its result is never seen, but the expression
        # around the call must still type-check, as it does in Python.
        return WeakConst(0, T.I64, cx.loc(node))
    return result


def reject_frozen_arguments(cx, bound: list, callee, info, node) -> None:
    """A global list, dict or set compiled code copied (`global_lists`) passed to a function
    that writes it: a CompileError, since the write would change the copy (`helper(table,
    k)` storing into `table`); one the module writes by name is live (global_writes.py)."""
    frozen = {k: cx.global_lists[id(v)] for k, v in enumerate(bound) if id(v) in cx.global_lists}
    if not frozen or any(getattr(b, "func", None) is callee for b in cx.ctx.in_progress.values()):
        return                      # (a callee still being built: its writes are not all known)
    from script.ir.list_flow import param_list_effects
    writes, _ = param_list_effects(closure_of(callee))
    for (k, _level) in writes:
        if k in frozen:
            cx.error(f"global '{frozen[k]}' is read-only in compiled code (it is copied when the "
                     f"function is compiled), and {info.name}() writes its argument "
                     f"'{info.param_names[k]}': the write would be lost (copy it first, or write "
                     f"the global by name in a function of its module)", node)


def hidden_argument(cx, info, name: str, node) -> Value:
    """The caller's `name` for the hidden parameter `name` of `info`'s function: its own
    parameter, or its outer function's (global_writes.py); a function of another module
    calling it (the library's sort calling a key) has none."""
    caller = getattr(cx.info.py_func, "__globals__", None)
    if caller is not info.py_func.__globals__:
        cx.error(f"'{info.name}' uses the module global '{name}', which its module's functions "
                 "write, so it is called with the module's object, which only a function of "
                 f"its module has (module {info.py_func.__module__!r}; passed as a value to "
                 f"another module's code: pass lambda x: {info.name}(x))", node)
    if name not in cx.info.local_names:
        cx.error(f"'{info.name}' uses the module global '{name}', which its module's functions "
                 f"write; '{cx.info.name}' calling it is not a module-level function, which "
                 "would pass the module's object on (call it from one)", node)
    return cx.expr(ast.copy_location(ast.Name(name, ast.Load()), node))

# ---- numeric builtins ----------------------------------------------------------------


def call_conversion(cx, t: T.Type, node) -> Value:
    name = str(t)
    (v,) = positional(cx, node, name, 1)
    return convert_checked(cx, v, t, node)


def convert_checked(cx, v: Value, t: T.Type, node) -> Value:
    """Python's int(x)/float(x)/bool(x) (and sized casts): float->int checks NaN and range."""
    if isinstance(v.type, Unknown):
        return v
    if mixed_numbers.is_num(v):
        return mixed_numbers.split(cx, [v], lambda w: convert_checked(cx, w, t, node), node)
    if isinstance(t, T.BoolType) and isinstance(v.type, (T.ListType, T.HashType)):
        return cx.truth(v, node)
    if not v.type.is_numeric():
        cx.error(f"cannot convert {v.type} to {t}", node)
    if isinstance(t, T.BoolType):
        return cx.truth(v, node)
    if isinstance(v.type, T.ComplexType) and not isinstance(t, T.ComplexType):
        cx.error(_COMPLEX_CONVERSION.get(t, f"cannot convert complex to {t}"), node)
    if isinstance(t, T.IntType) and isinstance(v.type, T.FloatType):
        check_float_to_int(cx, v, t, node)
    return cx.coerce(v, t, node)


def check_float_to_int(cx, v: Value, t: T.IntType, node, limits: bool = True) -> None:
    """int(v) for a float `v`: NaN and infinities raise as in Python; with `limits`, so does
    a value `t` cannot hold (the caller checks the range itself when not)."""
    loc = cx.loc(node)
    isnan = cx.emit("cmp", [v, v], T.BOOL, "ne", loc)
    cx.raise_if(isnan, "ValueError", message("nan_to_int"), node)
    ax = cx.emit("abs", [v], v.type, None, loc)
    isinf = cx.emit("cmp", [ax, Const(math.inf, v.type)], T.BOOL, "eq", loc)
    cx.raise_if(isinf, "OverflowError", message("inf_to_int"), node)
    if not limits:
        return
    lo = cx.emit("cmp", [v, Const(float(t.min) - 1.0 if t.bits < 64 else float(t.min), v.type)], T.BOOL,
                 "le" if t.bits < 64 else "lt", loc)
    hi = cx.emit("cmp", [v, Const(float(t.max) + 1.0, v.type)], T.BOOL, "ge", loc)
    out = cx.emit("or", [lo, hi], T.BOOL, None, loc)
    cx.raise_if(out, "OverflowError", f"float value out of range for {t}", node)


def float_arg(cx, v: Value, node) -> Value:
    if isinstance(v.type, T.FloatType) or isinstance(v.type, Unknown):
        return v
    if isinstance(v.type, T.ComplexType):
        cx.error("must be real number, not complex", node)
    if not v.type.is_numeric():
        text = sample_type_error(math.fabs, kind_sample(v.type))    # CPython's, at run time
        if text is not None:
            return cx.raise_always("TypeError", text, node)
        cx.error(f"must be a real number, not {v.type}", node)
    return cx.coerce(v, T.F64, node)


def call_math(cx, name: str, node) -> Value:
    if name in ("floor", "ceil", "trunc"):
        (v,) = positional(cx, node, name, 1)
        if isinstance(v.type, Unknown):     # a value of code that never runs, or not typed yet
            return Undef(UNKNOWN, cx.loc(node))
        if isinstance(v.type, (T.IntType, T.BoolType)):
            return cx.coerce(v, T.I64, node)
        if T.is_instance_type(v.type):      # __floor__, __ceil__, __trunc__
            return class_methods.instance_conversion(cx, v, name, [], node)
        v = float_arg(cx, v, node)
        r = cx.emit("math", [v], v.type, name, cx.loc(node))
        check_float_to_int(cx, r, T.I64, node)
        return cx.coerce(r, T.I64, node)
    if name in ("isnan", "isinf", "isfinite"):
        (v,) = positional(cx, node, name, 1)
        if isinstance(v.type, Unknown):
            return Undef(UNKNOWN, cx.loc(node))
        v = float_arg(cx, v, node)
        loc = cx.loc(node)
        if name == "isnan":
            return cx.emit("cmp", [v, v], T.BOOL, "ne", loc)
        ax = cx.emit("abs", [v], v.type, None, loc)
        return cx.emit("cmp", [ax, Const(math.inf, v.type)], T.BOOL, "eq" if name == "isinf" else "lt", loc)
    if name in ("degrees", "radians"):
        (v,) = positional(cx, node, name, 1)
        if isinstance(v.type, Unknown):     # (not typed yet: a round to be rebuilt)
            return Undef(UNKNOWN, cx.loc(node))
        v = float_arg(cx, v, node)
        k = 180.0 / math.pi if name == "degrees" else math.pi / 180.0
        return cx.emit("mul", [v, Const(k, v.type)], v.type, None, cx.loc(node))
    if name == "log":
        args = positional(cx, node, name, 1, 2)
        r = math_fn(cx, "log", [float_arg(cx, args[0], node)], node)
        if len(args) == 2:
            base = math_fn(cx, "log", [float_arg(cx, args[1], node)], node)
            r = cx.true_div(r, base, r.type, node)
        return r
    if name == "hypot":
        if not node.args:
            return Const(0.0, T.F64)
        args = [float_arg(cx, a, node) for a in positional(cx, node, name, 1, 64)]
        t = T.F64       # (math.hypot computes in doubles)
        mags = [cx.emit("abs", [cx.coerce(a, t, node)], t, None, cx.loc(node)) for a in args]
        if len(mags) == 1:
            return mags[0]
        # CPython's vector_norm, not libm's hypot (1 ulp apart in ~0.5% of cases)
        if len(mags) == 2:
            return math_fn(cx, "norm2", mags, node)        # llvm/mathlib.py
        return call_script(cx, cx.ctx.info_for(pylib.vector_norm), ast.Call(node.func, [], []),
                           leading=(cx.make_tuple(mags, node),))
    if name == "prod":
        return math_prod(cx, node)
    if name == "fsum":
        if len(node.args) != 1 or node.keywords:
            cx.error("fsum() takes exactly one argument", node)
        return call_script(cx, cx.ctx.info_for(pylib.fsum), node)
    if name == "ulp":
        (x,) = positional(cx, node, name, 1)
        if isinstance(x.type, Unknown):
            return Undef(UNKNOWN, cx.loc(node))
        x = float_arg(cx, x, node)
        ax = cx.emit("abs", [x], x.type, None, cx.loc(node))
        up = cx.emit("math", [ax, Const(math.inf, x.type)], x.type, "nextafter", cx.loc(node))
        d = cx.emit("sub", [up, ax], x.type, None, cx.loc(node))
        fin = cx.is_finite(x, cx.loc(node))
        return cx.emit("select", [fin, d, ax], x.type, None, cx.loc(node))
    if name == "modf":
        (x,) = positional(cx, node, name, 1)
        if isinstance(x.type, Unknown):
            return Undef(UNKNOWN, cx.loc(node))
        x = float_arg(cx, x, node)
        loc = cx.loc(node)
        i = cx.emit("math", [x], x.type, "trunc", loc)
        frac = cx.emit("math", [cx.emit("sub", [x, i], x.type, None, loc), x], x.type, "copysign", loc)
        ax = cx.emit("abs", [x], x.type, None, loc)
        isinf = cx.emit("cmp", [ax, Const(math.inf, x.type)], T.BOOL, "eq", loc)
        zero = cx.emit("math", [Const(0.0, x.type), x], x.type, "copysign", loc)
        frac = cx.emit("select", [isinf, zero, frac], x.type, None, loc)
        return cx.make_tuple([frac, i], node)
    if name == "isclose":
        if len(node.args) != 2:
            cx.error("isclose() takes 2 positional arguments", node)
        kw = {k.arg: k.value for k in node.keywords}
        for key in kw:
            if key not in ("rel_tol", "abs_tol"):
                cx.error(f"isclose() got an unexpected keyword argument '{key}'", node)
        a, b = (cx.coerce(float_arg(cx, cx.expr(x), node), T.F64, node) for x in node.args)
        rel = cx.coerce(float_arg(cx, cx.expr(kw["rel_tol"]), node), T.F64, node) if "rel_tol" in kw else Const(1e-9, T.F64)
        abs_ = cx.coerce(float_arg(cx, cx.expr(kw["abs_tol"]), node), T.F64, node) if "abs_tol" in kw else Const(0.0, T.F64)
        callee = cx.ctx.callee(cx, cx.ctx.info_for(pylib.isclose), (T.F64,) * 4, node)
        return cx.emit("call", [a, b, rel, abs_], T.BOOL, callee, cx.loc(node))
    if name in MATH_FUNCS:
        arity = MATH_FUNCS[name][0]
        args = [float_arg(cx, a, node) for a in positional(cx, node, name, arity)]
        if arity == 2:
            t = cx.common_type(args[0], args[1], node)
            args = [cx.coerce(a, t, node) for a in args]
        return math_fn(cx, name, args, node)
    cx.error(f"math.{name} is not supported in compiled code", node)


def math_fn(cx, name: str, args: list[Value], node) -> Value:
    """`math.name(*args)` with CPython's errors: NaN from non-NaN input is a domain error;
    infinity from finite input a range error (OverflowError) or a domain error."""
    if any(isinstance(a.type, Unknown) for a in args):
        return Undef(UNKNOWN, cx.loc(node))
    t = args[0].type
    loc = cx.loc(node)
    r = cx.emit("math", args, t, name, loc)
    if name in _NEVER_RAISE:
        return r
    can_overflow = MATH_FUNCS[name][1]
    if name in _GAMMA_POLES:
        x = args[0]
        fl = cx.emit("math", [x], t, "floor", loc)
        is_int = cx.emit("cmp", [fl, x], T.BOOL, "eq", loc)
        nonpos = cx.emit("cmp", [x, Const(0.0, t)], T.BOOL, "le", loc)
        pole = cx.emit("and", [is_int, nonpos], T.BOOL, None, loc)
        neginf = cx.emit("cmp", [x, Const(-math.inf, t)], T.BOOL, "eq", loc)
        bad = cx.emit("or", [pole, neginf], T.BOOL, None, loc) if name == "gamma" else pole
        cx.raise_if(bad, "ValueError", message("math_domain"), node)
    if name == "pow":
        x, y = args
        xz = cx.emit("cmp", [x, Const(0.0, t)], T.BOOL, "eq", loc)
        yn = cx.emit("cmp", [y, Const(0.0, t)], T.BOOL, "lt", loc)
        fin_y = cx.is_finite(y, loc)
        bad = cx.emit("and", [cx.emit("and", [xz, yn], T.BOOL, None, loc), fin_y], T.BOOL, None, loc)
        cx.raise_if(bad, "ValueError", message("math_domain"), node)
    return checked_math_result(cx, r, args, can_overflow, node)


def checked_math_result(cx, r: Value, args, can_overflow: bool, node) -> Value:
    loc = cx.loc(node)
    t = r.type
    rnan = cx.emit("cmp", [r, r], T.BOOL, "ne", loc)
    no_nan_in = None
    fin_in = None
    for a in args:
        ok = cx.emit("cmp", [a, a], T.BOOL, "eq", loc) if not isinstance(a, Const) else Const(a.value == a.value, T.BOOL)
        no_nan_in = ok if no_nan_in is None else cx.emit("and", [no_nan_in, ok], T.BOOL, None, loc)
        fin = cx.is_finite(a, loc)
        fin_in = fin if fin_in is None else cx.emit("and", [fin_in, fin], T.BOOL, None, loc)
    domain = cx.emit("and", [rnan, no_nan_in], T.BOOL, None, loc) if not isinstance(no_nan_in, Const) or no_nan_in.value else Const(False, T.BOOL)
    cx.raise_if(domain, "ValueError", message("math_domain"), node)
    ar = cx.emit("abs", [r], t, None, loc)
    rinf = cx.emit("cmp", [ar, Const(math.inf, t)], T.BOOL, "eq", loc)
    rng = cx.emit("and", [rinf, fin_in], T.BOOL, None, loc) if not isinstance(fin_in, Const) or fin_in.value else Const(False, T.BOOL)
    if can_overflow:
        cx.raise_if(rng, "OverflowError", message("math_range"), node)
    else:
        cx.raise_if(rng, "ValueError", message("math_domain"), node)
    return r


def call_ufunc(cx, name: str, node) -> Value:
    """A NumPy ufunc on scalars: NumPy's semantics (NaN or inf, never an exception)."""
    if name not in _NUMPY_UFUNCS or node.keywords:
        return elementwise.call_ufunc_any(cx, name, node)
    fn, arity = _NUMPY_UFUNCS[name]
    if len(node.args) == arity + 1:
        return elementwise.call_ufunc_any(cx, name, node)          # the output array, positional
    if len(node.args) != arity:
        positional(cx, node, f"numpy.{name}", arity)
    args = [cx.lazy(a) for a in node.args]
    # A list given to a ufunc is NumPy's array of it (`np.exp([1, 2])`)
    args = [lists.list_to_array(cx, a, None, node) if isinstance(getattr(a, "type", None), T.ListType)
            and not isinstance(a.type, (T.ClassType, T.IterType)) else a for a in args]
    if any(is_array_like(a) for a in args):
        e = elementwise.ufunc_expr(cx, name, args, node)
        return e
    if name in ("floor", "ceil", "trunc", "fmod") and all(
            isinstance(getattr(a, "type", None), (T.IntType, T.BoolType)) for a in args):
        e = elementwise.ufunc_expr(cx, name, args, node)
        return elementwise.element(cx, e, [], 0, node)     # NumPy 2: ints stay ints
    if any(isinstance(getattr(a, "type", None), T.ComplexType) for a in args):
        return complex_scalar_ufunc(cx, name, args, node)
    loc = cx.loc(node)
    if fn in ("abs", "isnan", "isinf", "isfinite", "minimum", "maximum"):
        return ufunc_special(cx, fn, args, node)
    args = [float_arg(cx, a, node) for a in args]
    if arity == 2:
        t = cx.common_type(args[0], args[1], node)
        args = [cx.coerce(a, t, node) for a in args]
    return cx.emit("math", args, args[0].type, fn, loc)


def complex_scalar_ufunc(cx, name: str, args, node) -> Value:
    """NumPy ufunc `name` of scalars one of which is complex: one element of NumPy's
    complex loop (complex_arrays `complex_ufunc`), in c64 when every complex is."""
    complex_types = {a.type for a in args if isinstance(a.type, T.ComplexType)}
    t = T.C64 if complex_types == {T.C64} and all(
        isinstance(a.type, T.ComplexType) or a.type == T.F32 or isinstance(a, Const)
        for a in args) else T.C128
    vals = [cx.coerce(a, t, node) for a in args]
    out = T.BOOL if name in ("isnan", "isinf", "isfinite") else t
    return complex_arrays.complex_ufunc(cx, name, vals, out, node)


def ufunc_special(cx, fn: str, args, node) -> Value:
    loc = cx.loc(node)
    if fn == "abs":
        return builtin_abs_value(cx, args[0], node)
    if fn in ("minimum", "maximum"):
        a, b = args
        t = cx.common_type(a, b, node)
        a, b = cx.coerce(a, t, node), cx.coerce(b, t, node)
        r = cx.emit("min" if fn == "minimum" else "max", [a, b], t, None, loc)
        if isinstance(t, T.FloatType):          # NumPy propagates a NaN from either side
            # (the IR's min(a, b) is `b < a ? b : a`: it gives a for a NaN b)
            b_nan = cx.emit("cmp", [b, b], T.BOOL, "ne", loc)
            r = cx.emit("select", [b_nan, b, r], t, None, loc)
            a_nan = cx.emit("cmp", [a, a], T.BOOL, "ne", loc)
            r = cx.emit("select", [a_nan, a, r], t, None, loc)
        return r
    x = float_arg(cx, args[0], node)
    if fn == "isnan":
        return cx.emit("cmp", [x, x], T.BOOL, "ne", loc)
    ax = cx.emit("abs", [x], x.type, None, loc)
    return cx.emit("cmp", [ax, Const(math.inf, x.type)], T.BOOL, "eq" if fn == "isinf" else "lt", loc)

# ---- builtin functions ---------------------------------------------------------------


def builtin_abs(cx, node, name) -> Value:
    if len(node.args) == 1 and not node.keywords:
        bool_ints.permit(cx, bool_ints.AS_INT, node.args[0])      # (abs(True) is 1, an int)
        v = cx.lazy_opt(node.args[0])
        if not is_array_like(v):            # (abs(None): CPython's TypeError)
            (v,) = unwrap_none_args(cx, abs, [v], node.args, node)
        if is_array_like(v):
            return elementwise.ufunc_expr(cx, "absolute", [v], node)
        return mixed_numbers.split(cx, [v], lambda w: builtin_abs_value(cx, w, node), node)
    (v,) = positional(cx, node, name, 1)
    return builtin_abs_value(cx, v, node)


def builtin_abs_value(cx, v: Value, node) -> Value:
    if isinstance(v.type, Unknown):
        return Undef(UNKNOWN, cx.loc(node))
    if T.is_instance_type(v.type):
        return class_methods.instance_abs(cx, v, node)
    refused = sample_type_error(abs, kind_sample(v.type))
    if refused is not None:                 # `abs(s)`: CPython's TypeError, where it raises it
        return cx.raise_always("TypeError", refused, node)
    if not v.type.is_numeric():
        cx.error(f"bad operand type for abs(): {v.type}", node)
    if isinstance(v.type, T.BoolType):
        v = cx.coerce(v, T.I64, node)
    if isinstance(v.type, T.ComplexType):
        return complex_lowering.complex_abs(cx, v, node)
    return cx.checked("abs", [v], cx.emit("abs", [v], v.type, None, cx.loc(node)), node)


def builtin_minmax(cx, node, name) -> Value:
    if any(k.arg == "key" for k in node.keywords):
        return keyed.minmax_key(cx, node, name)
    if len(node.args) == 1 and generators.walks_generator(cx, node.args[0]) or \
            node.keywords and [k.arg for k in node.keywords] == ["default"] and len(node.args) == 1:
        default = cx.expr(node.keywords[0].value) if node.keywords else None
        return lists.minmax_each(cx, node.args[0], name, default, node)
    if node.keywords:
        cx.error(f"{name}() keyword arguments are not supported in compiled code", node)
    if len(node.args) == 1 and cx.builtin_call(node.args[0]) is not None:
        return minmax_of(cx, cx.iterable(node.args[0]), name, node)
    # (of two or more, an int|float one stays whole: better_of compares and keeps it)
    values = [optional.expr_opt(cx, a, num=True) if len(node.args) > 1 else cx.expr(a) for a in node.args]
    values = unwrap_none_args(cx, min if name == "min" else max, values, node.args, node)
    if len(values) == 1 and isinstance(values[0].type, T.TupleType):
        tup = values[0]
        values = [cx.emit("extract", [tup], t, k, cx.loc(node)) for k, t in enumerate(tup.type.elems)]
    elif len(values) == 1:
        return minmax_of_iterable(cx, values[0], name, node)
    if not values:
        cx.error(f"{name} expected at least 1 argument, got 0", node)
    if any(isinstance(v.type, (T.TupleType, T.BytesType, T.ListType)) for v in values) \
            or {T.I64, T.F64} <= {v.type for v in values} \
            or any(T.bool_and_number(values[0].type, v.type) for v in values) \
            or T.is_instance_type(values[0].type) and all(v.type == values[0].type for v in values):
        # (tuples, lists; or ints and floats, of which the first best is returned as it is:
        # `max(-inf, 2)` is the int 2, a value typed int|float: mixed_numbers.py; a bool
        # and a number do not meet, as `max(True, 0)` is True; instances of one class, such
        # as Fractions, compared by their __lt__/__gt__ and returned as they are)
        result = values[0]
        for v in values[1:]:
            result = better_of(cx, result, v, name, node)
        return result
    result = values[0]
    for v in values[1:]:
        if isinstance(result.type, T.StrType) and isinstance(v.type, T.StrType):
            result = strings.str_minmax(cx, name, result, v, node)
            continue
        refused = sample_type_error(operator.gt if name == "max" else operator.lt,
                                    python_sample(v.type), python_sample(result.type))
        if refused is not None:         # `max(1, None)`: CPython's TypeError when (if) it runs
            return cx.raise_always("TypeError", refused, node)
        t = cx.common_type(result, v, node)
        if isinstance(t, Unknown):
            return Undef(UNKNOWN, cx.loc(node))
        if isinstance(t, T.ComplexType):
            complex_lowering.complex_compare_error(cx, ast.Gt() if name == "max" else ast.Lt(), v, result, node)
        result = cx.emit(name, [cx.coerce(result, t, node), cx.coerce(v, t, node)], t, None, cx.loc(node))
    return result


def minmax_of_iterable(cx, v: Value, name: str, node) -> Value:
    if not isinstance(v.type, (T.ArrayType, T.ListType, T.HashType, T.BytesType)) and v.type not in NOT_CONTAINERS:
        cx.error(f"{name}() of a single {v.type} is not supported", node)
    return minmax_of(cx, cx.iterable_value(v, node), name, node)


def minmax_of(cx, iterable, name: str, node) -> Value:
    """min/max over an iterable: ValueError when empty, else Python's pairwise rule."""
    n, item, et = iterable
    if not (et.is_numeric() or isinstance(et, (T.TupleType, T.TextType, T.ListType))):
        cx.error(f"{name}() of elements of type {et} is not supported", node)
    cx.raise_if(cx.cmp("eq", n, Const(0, T.I64), node), "ValueError",
                message(f"{name}_empty"), node)
    first = item(Const(0, T.I64))
    if isinstance(et, (T.TupleType, T.ListType, T.BytesType)):
        return cx.reduce_loop(node, n, item, first, lambda acc, x: better_of(cx, acc, x, name, node))
    if isinstance(et, T.StrType):
        return cx.reduce_loop(node, n, item, first, lambda acc, x: strings.str_minmax(cx, name, acc, x, node))
    return cx.reduce_loop(node, n, item, first, lambda acc, x: cx.emit(
        name, [acc, cx.coerce(x, acc.type, node)], acc.type, None, cx.loc(node)))


def better_of(cx, best: Value, v: Value, name: str, node) -> Value:
    """Python's min/max step for values compared with < (tuples): `v` replaces `best`
    only when strictly better, so the first of equal values wins."""
    take = cx.compare(ast.Gt() if name == "max" else ast.Lt(), v, best, node)
    return cx.choose(take, lambda: v, lambda: best, node)


def builtin_round(cx, node, name) -> Value:
    if node.keywords:       # round(number, ndigits=None): both may be keywords
        given = [k.arg for k in node.keywords]
        order = ["number", "ndigits"][len(node.args):]
        if any(k not in order for k in given) or len(set(given)) != len(given):
            cx.error(f"round() got an unexpected keyword argument '{given[0]}'", node)
        kw = {k.arg: k.value for k in node.keywords}
        node = ast.copy_location(ast.Call(node.func, [*node.args, *(kw[k] for k in order if k in kw)], []), node)
    args = positional(cx, node, name, 1, 2)
    x = args[0]
    if T.is_instance_type(x.type):
        return class_methods.instance_conversion(cx, x, "round", args[1:], node)
    loc = cx.loc(node)
    if isinstance(x.type, T.ComplexType):
        cx.error("type complex doesn't define __round__ method", node)
    refused = None if x.type.is_numeric() else sample_type_error(round, kind_sample(x.type))
    if refused is not None:                 # `round(s)`: CPython's TypeError, where it raises it
        return cx.raise_always("TypeError", refused, node)
    if len(args) == 1 or isinstance(args[1].type, T.NoneType):
        if isinstance(x.type, (T.IntType, T.BoolType)):
            return cx.coerce(x, T.I64 if isinstance(x.type, T.BoolType) else x.type, node)
        r = cx.emit("math", [x], x.type, "rint", loc)
        check_float_to_int(cx, r, T.I64, node)
        return cx.coerce(r, T.I64, node)
    nd = cx.coerce(args[1], T.I64, node)
    if isinstance(x.type, (T.IntType, T.BoolType)):
        callee = cx.ctx.callee(cx, cx.ctx.info_for(pylib.round_int), (T.I64, T.I64), node)
        return cx.emit("call", [cx.coerce(x, T.I64, node), nd], T.I64, callee, loc)
    t = x.type
    nd = cx.emit("min", [nd, Const(400, T.I64)], T.I64, None, loc)      # (CPython: beyond 323 /
    nd = cx.emit("max", [nd, Const(-400, T.I64)], T.I64, None, loc)     # -308 alike)
    if t.bits != 64:
        return _round_float32(cx, x, nd, loc)   # NumPy's answer: nan where 10**|n| is inf
    z = cx.emit("math", [x, cx.coerce(nd, t, node)], t, "round_digits", loc)
    xfin = cx.is_finite(x, loc)
    over = cx.emit("and", [xfin, cx.emit("not", [cx.is_finite(z, loc)], T.BOOL, None, loc)], T.BOOL, None, loc)
    cx.raise_if(over, "OverflowError", "rounded value too large to represent", node)
    return z


def _round_float32(cx, x: Value, nd: Value, loc) -> Value:
    """round(x, nd) of a NumPy float32 as NumPy's ``np.round``: scale by 10**|nd| in float32,
    round half to even, unscale."""
    t = x.type
    neg = cx.emit("cmp", [nd, Const(0, T.I64)], T.BOOL, "lt", loc)
    mag = cx.emit("abs", [nd], T.I64, None, loc)
    p = cx.emit("pow", [Const(10.0, t), cx.coerce(mag, t, None)], t, None, loc)
    y = cx.emit("select", [neg, cx.emit("div", [x, p], t, None, loc), cx.emit("mul", [x, p], t, None, loc)], t, None, loc)
    z = cx.emit("math", [y], t, "rint", loc)
    return cx.emit("select", [neg, cx.emit("mul", [z, p], t, None, loc), cx.emit("div", [z, p], t, None, loc)], t, None, loc)


def builtin_divmod(cx, node, name) -> Value:
    a, b = positional(cx, node, name, 2)
    if T.is_instance_type(a.type) or T.is_instance_type(b.type):      # __divmod__, __rdivmod__
        return class_methods.instance_binop(cx, divmod, a, b, node)
    t = cx.common_type(a, b, node)
    if isinstance(t, Unknown):          # an operand of code that never runs
        return Undef(UNKNOWN, cx.loc(node))
    if isinstance(t, T.ComplexType):
        from script.frontend.complex_lowering import type_name
        cx.error(f"unsupported operand type(s) for divmod(): '{type_name(a.type)}' and "
                 f"'{type_name(b.type)}'", node)
    if isinstance(t, T.BoolType):
        t = T.I64
    if takes_u64(a, b):
        t = T.U64                   # as binop's // and % (int_consts.py)
    a, b = cx.coerce(a, t, node), cx.coerce(b, t, node)
    zero = cx.emit("cmp", [b, Const(0, t)], T.BOOL, "eq", cx.loc(node))
    kind = "float_divmod" if isinstance(t, T.FloatType) else "int_divmod"
    cx.raise_if(zero, "ZeroDivisionError", message(kind), node)
    q = cx.checked("floordiv", [a, b], cx.emit("floordiv", [a, b], t, None, cx.loc(node)), node)
    r = cx.emit("mod", [a, b], t, None, cx.loc(node))
    return cx.make_tuple([q, r], node)


def builtin_pow(cx, node, name) -> Value:
    args = positional(cx, node, name, 2, 3)
    if len(args) == 2 or isinstance(args[2].type, T.NoneType):
        return cx.binop(ast.Pow, args[0], args[1], node)
    if any(isinstance(a.type, Unknown) for a in args):
        return Undef(UNKNOWN, cx.loc(node))
    return mixed_numbers.split(cx, args, lambda *v: _powmod(cx, list(v), node), node)


def _powmod(cx, args: list, node) -> Value:
    """pow(a, b, m) of three numbers (no int|float among them)."""
    if not all(isinstance(a.type, (T.IntType, T.BoolType)) for a in args):
        text = "pow() 3rd argument not allowed unless all arguments are integers"
        if all(a.type.is_numeric() for a in args):     # CPython's TypeError, at run time
            return cx.raise_always("TypeError", text, node)
        cx.error(text, node)
    if any(a.type == T.U64 for a in args):
        cx.error("pow() with three arguments is not supported on u64 values (ints from 2**63 "
                 "up) in compiled code: its modular product is int64's", node)
    args = [cx.coerce(a, T.I64, node) for a in args]
    callee = cx.ctx.callee(cx, cx.ctx.info_for(pylib.powmod), (T.I64,) * 3, node)
    return cx.emit("call", args, T.I64, callee, cx.loc(node))


def _sum_args(node: ast.Call) -> ast.Call:
    """sum(iterable, /, start=0) as a call of positional arguments only: `start=` becomes
    the second. Any other keyword, or a start given twice, is CPython's TypeError at the
    call, left to `positional`'s CompileError (was: a keyword start silently ignored where
    the iterable is a builtin's, `sum(range(n), start=10)`)."""
    if not node.keywords or len(node.args) != 1 or [k.arg for k in node.keywords] != ["start"]:
        return node
    return ast.copy_location(ast.Call(node.func, node.args + [node.keywords[0].value], []), node)


def builtin_sum(cx, node, name) -> Value:
    node = _sum_args(node)
    if node.args and generators.walks_generator(cx, node.args[0]):
        start = positional(cx, ast.copy_location(ast.Call(node.func, node.args[1:], node.keywords), node), name, 0, 1)
        return lists.sum_each(cx, node.args[0], start[0] if start else None, node)
    if node.args and (cx.builtin_call(node.args[0]) is not None or dicts.table_view(cx, node.args[0]) is not None):
        positional_count(cx, node, name, 1, 2)
        start = [cx.expr(a) for a in node.args[1:2]]
        return sum_of(cx, cx.iterable(node.args[0]), start, node)
    args = positional(cx, node, name, 1, 2)
    seq = args[0]
    if isinstance(seq.type, (T.ArrayType, T.ListType, T.HashType, T.BytesType)) or seq.type in NOT_CONTAINERS:
        return sum_of(cx, cx.iterable_value(seq, node), args[1:], node)     # (None: TypeError)
    if not isinstance(seq.type, T.TupleType):
        cx.error(f"sum() of a {seq.type} is not supported", node)
    return fold_tuple(cx, seq, args[1] if len(args) == 2 else Const(0, T.I64), ast.Add, node)


def fold_tuple(cx, seq, total, op, node) -> Value:
    """sum() or math.prod() of a tuple, unrolled: each element meets the running total in
    its own type, so (1, 2.5, 3) multiplies as CPython does, int then float."""
    for k, et in enumerate(seq.type.elems):
        total = cx.binop(op, total, cx.emit("extract", [seq], et, k, cx.loc(node)), node)
    return total


def math_prod(cx, node) -> Value:
    """math.prod(iterable, *, start=1): sum()'s loop with `*`."""
    if not node.args or len(node.args) > 1 or any(k.arg != "start" for k in node.keywords):
        cx.error("prod() takes an iterable and an optional start= keyword", node)
    start = [cx.expr(k.value) for k in node.keywords]
    if generators.walks_generator(cx, node.args[0]):
        return lists.sum_each(cx, node.args[0], start[0] if start else None, node, ast.Mult)
    if cx.builtin_call(node.args[0]) is not None or dicts.table_view(cx, node.args[0]) is not None:
        return sum_of(cx, cx.iterable(node.args[0]), start, node, ast.Mult)
    seq = cx.expr(node.args[0])
    if isinstance(seq.type, T.TupleType) and not T.is_instance_union(seq.type):
        return fold_tuple(cx, seq, start[0] if start else Const(1, T.I64), ast.Mult, node)
    if not isinstance(seq.type, (T.ArrayType, T.ListType, T.HashType)) and seq.type not in NOT_CONTAINERS:
        cx.error(f"prod() of a {seq.type} is not supported", node)
    return sum_of(cx, cx.iterable_value(seq, node), start, node, ast.Mult)


def sum_of(cx, iterable, start, node, op=ast.Add) -> Value:
    """sum(iterable, start=0), accumulated in the type start and the elements meet at
    (a literal start adapts to the elements, as NumPy's weak scalars do); with `op`
    ast.Mult, math.prod's product from start=1. Of floats without a start, the total is an
    int|float: CPython's int start when there are none, the float total otherwise."""
    n, item, et = iterable
    if T.is_instance_type(et) or start and T.is_instance_type(start[0].type):
        return class_methods.instance_sum(cx, iterable, start, op, node)
    init = start[0] if start else Const(0 if op is ast.Add else 1, T.I64)
    if isinstance(et, T.IntFloatType):
        # of a list holding ints and floats: an int while every element so far was one
        t = T.F64 if init.type == T.F64 else T.INT_FLOAT
    elif isinstance(et, T.UnionType) and init.type in (T.I64, T.F64):
        # of a list of a union (`[1, "a"]`): each element added as it is, CPython's
        # TypeError at a str; the total an int or a float as CPython's
        kinds = {T.I64 if a == T.BOOL else a for a in et.alternatives if a.is_numeric()} | {init.type}
        if not kinds <= {T.I64, T.F64}:
            cx.error(f"{'sum' if op is ast.Add else 'prod'}() of elements of type {et} is not supported", node)
        t = T.INT_FLOAT if len(kinds) == 2 else init.type
    else:
        refused = operand_type_error(op, init.type, et) if op is ast.Add and not start else None
        if refused is not None:         # `sum(words)`: CPython's TypeError at the first element
            cx.raise_if(cx.cmp("gt", n, Const(0, T.I64), node), "TypeError", refused, node)
            return Const(0, T.I64)
        if op is ast.Add and start and isinstance(start[0].type, T.StrType):
            return cx.raise_always("TypeError", "sum() can't sum strings [use ''.join(seq) instead]", node)
        if not et.is_numeric():
            cx.error(f"{'sum' if op is ast.Add else 'prod'}() of elements of type {et} is not supported", node)
        init = WeakConst(init.value, init.type) if isinstance(init, Const) and not start else init
        t = cx.common_type(init, Const(0, T.I64 if isinstance(et, T.BoolType) else et), node)
        t = T.I64 if isinstance(t, T.BoolType) else t
    total = cx.reduce_loop(node, n, item, cx.coerce(init, t, node), lambda acc, x: cx.coerce(
        cx.binop(op, acc, x, node), t, node))
    if start or t != T.F64 or not isinstance(et, T.FloatType):
        return total
    loc = cx.loc(node)
    some = cx.cmp("gt", n, Const(0, T.I64), node)
    return cx.emit("tuple", [some, Const(init.value, T.I64, loc), total], T.INT_FLOAT, None, loc)


def builtin_len(cx, node, name) -> Value:
    if node.keywords:
        cx.error(f"{name}() takes no keyword arguments here", node)
    if len(node.args) != 1:
        cx.error(f"len() takes exactly one argument ({len(node.args)} given)", node)
    cls = enum_values.class_ref(cx, node.args[0])
    if cls is not None:
        return Const(len(cls), T.I64, cx.loc(node))         # len(Color): its members, no aliases
    v = optional.expr_opt(cx, node.args[0])
    if is_optional(v):
        v = optional.unwrap(cx, v, node, "object of type 'NoneType' has no len()")
    if isinstance(v.type, T.TupleType) and not T.is_instance_union(v.type):
        return Const(len(v.type.elems), T.I64)
    return len_of(cx, v, node)


def len_of(cx, v: Value, node) -> Value:
    if T.is_instance_type(v.type):
        return class_methods.instance_len(cx, v, node)
    if isinstance(v.type, T.ArrayType):
        return arrays.array_len(cx, v, node)
    if isinstance(v.type, T.ListType):
        held_iterators.no_items(cx, v, node)
        return lists.list_len(cx, v, node)
    if isinstance(v.type, Unknown):
        return Undef(UNKNOWN, cx.loc(node))
    if isinstance(v.type, T.HashType):
        return dicts.table_len(cx, v, node)
    if isinstance(v.type, T.StrType):
        return strings.str_len(cx, v, node)
    if isinstance(v.type, T.BytesType):
        return bytes_values.bytes_len(cx, v, node)
    if v.type in NOT_CONTAINERS:
        # CPython's TypeError where CPython raises it (after what runs before it)
        cx.raise_if(Const(True, T.BOOL), "TypeError", f"object of type '{python_name(v.type)}' has no len()", node)
        return Const(0, T.I64)
    cx.error(f"object of type {v.type} has no len()", node)


def builtin_conversion(cx, node, name) -> Value:
    t = {"int": T.I64, "float": T.F64, "bool": T.BOOL}[name]
    bool_ints.permit(cx, bool_ints.AS_INT, *node.args)         # (int(True) is int(1))
    if not node.args and not node.keywords:
        return Const({"int": 0, "float": 0.0, "bool": False}[name], t)
    if len(node.args) == 1 and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str):
        # float("inf"), int("12"): folded, or the error CPython raises when it runs.
        try:
            return const_of(getattr(py_builtins, name)(node.args[0].value), cx.loc(node))
        except OverflowError:
            cx.error(f"integer constant {node.args[0].value} does not fit in int64", node.args[0])
        except ValueError as e:
            cx.raise_if(Const(True, T.BOOL), "ValueError", str(e), node)
            return Const(0, t)
    if name == "int" and (len(node.args) == 2 or [k.arg for k in node.keywords] == ["base"]):
        return strings.str_to_int_base(cx, node)            # strings.py: int(s, base)
    if name == "bool" and len(node.args) == 1 and not node.keywords and isinstance(node.args[0], ast.BoolOp):
        return cx.condition(node.args[0])        # only its truth matters (`bool(r and r > 1.0)`)
    if len(node.args) == 1 and not node.keywords and not isinstance(node.args[0], ast.Starred):
        v = optional.expr_opt(cx, node.args[0], num=True)
        if is_optional(v):      # bool(None) is False; int(None) and float(None) raise
            if name == "bool":
                return cx.truth(v, node)
            v = optional.unwrap(cx, v, node, _NONE_CONVERSION[name])
    else:
        (v,) = positional(cx, node, name, 1)
    if T.is_instance_type(v.type):          # __float__, __int__ (docs/records.md); bool: truth
        return cx.truth(v, node) if name == "bool" else class_methods.instance_conversion(cx, v, name, [], node)
    if isinstance(v.type, T.StrType):
        return strings.str_truth(cx, v, node) if name == "bool" else strings.str_to_number(cx, v, t, node)
    if isinstance(v.type, T.BytesType):     # bool(b), int(b) and float(b) (CPython's parsing)
        return bytes_values.bytes_to_number(cx, v, name, node)
    refused = sample_type_error(getattr(py_builtins, name), kind_sample(v.type)) if name != "bool" else None
    if refused is not None:                 # `int([1])`: CPython's TypeError, where it raises it
        return cx.raise_always("TypeError", refused, node)
    if name == "int" and v.type == T.U64:
        return u64_as_int(cx, v, "int()", node)
    return convert_checked(cx, v, t, node)


def u64_as_int(cx, v: Value, what: str, node) -> Value:
    """A u64 (frontend/int_consts.py) where an int64 is wanted (`int(h)`, `math.isqrt(h)`):
    its value, or OverflowError from 2**63 up, where CPython's int would be larger than any
    int64 (its two's complement would be negative)."""
    big = cx.cmp("gt", v, Const(T.I64.max, T.U64), node)
    cx.raise_if(big, "OverflowError", f"{what} of the 64-bit unsigned value %llu: compiled ints are "
                "int64, and CPython's int of it would be larger (keep it unsigned, or subtract "
                "2**64 where it is from 2**63 up)", node, args=(v,))
    return cx.coerce(v, T.I64, node)


# CPython's TypeError for int(None) and float(None).
_NONE_CONVERSION = {
    "int": "int() argument must be a string, a bytes-like object or a real number, not 'NoneType'",
    "float": "float() argument must be a string or a real number, not 'NoneType'",
}


# CPython's TypeError for int(z) and float(z) of a complex z.
_COMPLEX_CONVERSION = {
    T.I64: "int() argument must be a string, a bytes-like object or a real number, not 'complex'",
    T.F64: "float() argument must be a string or a real number, not 'complex'",
}


# NumPy ufunc name -> (the `math` op or special case, arity), for scalar arguments.
_NUMPY_UFUNCS = {
    "sqrt": ("sqrt", 1), "exp": ("exp", 1), "exp2": ("exp2", 1), "expm1": ("expm1", 1),
    "log": ("log", 1), "log2": ("log2", 1), "log10": ("log10", 1), "log1p": ("log1p", 1),
    "sin": ("sin", 1), "cos": ("cos", 1), "tan": ("tan", 1), "arcsin": ("asin", 1),
    "arccos": ("acos", 1), "arctan": ("atan", 1), "sinh": ("sinh", 1), "cosh": ("cosh", 1),
    "tanh": ("tanh", 1), "arcsinh": ("asinh", 1), "arccosh": ("acosh", 1),
    "arctanh": ("atanh", 1), "floor": ("floor", 1), "ceil": ("ceil", 1), "trunc": ("trunc", 1),
    "rint": ("rint", 1), "cbrt": ("cbrt", 1), "fabs": ("fabs", 1), "absolute": ("abs", 1),
    "arctan2": ("atan2", 2), "hypot": ("hypot", 2), "copysign": ("copysign", 2),
    "fmod": ("fmod", 2), "power": ("pow", 2), "nextafter": ("nextafter", 2),
    "isnan": ("isnan", 1), "isinf": ("isinf", 1), "isfinite": ("isfinite", 1),
    "minimum": ("minimum", 2), "maximum": ("maximum", 2),
}


def _conversion_target(obj) -> T.Type | None:
    if isinstance(obj, SizedType):
        return obj.ir_type
    if isinstance(obj, type) and getattr(obj, "__module__", "") == "numpy":
        return type_from_annotation(obj)
    return None


# ---- the registry's methods (registry.py) of receivers whose lowering is elsewhere ----------

def _call_pylib_method(fn):
    """A method of a scalar written in pylib, the receiver its first argument."""
    return lambda low, base, node: call_script(low, low.ctx.info_for(fn), node, first=base)


def _item(low, base: Value, node: ast.Call) -> Value:
    positional(low, node, "item", 0)
    return base                     # a NumPy scalar's .item(): the Python value


for _kind in ("int", "u64", "float", "bool"):
    METHODS.register((_kind, "item"), _item)
for _kind, _name, _fn in (("int", "bit_length", pylib.bit_length), ("u64", "bit_length", pylib.bit_length_u64),
                          ("int", "bit_count", pylib.bit_count), ("u64", "bit_count", pylib.bit_count),
                          ("float", "is_integer", pylib.is_integer)):
    METHODS.register((_kind, _name), _call_pylib_method(_fn))
METHODS.register(("instance", ANY), lambda low, base, node: records.record_method(low, base, node.func.attr, node),
                 owner=__name__)
METHODS.register(("complex", ANY),
                 lambda low, base, node: complex_lowering.complex_method(low, base, node.func.attr, node),
                 owner=__name__)
METHODS.register(("tuple", ANY), lambda low, base, node: low.tuple_method(base, node.func.attr, node),
                 owner=__name__)
METHODS.register(("named_tuple", ANY),
                 lambda low, base, node: named_tuples.named_method(low, base, node.func.attr, node), owner=__name__)
for _name in ("count", "index"):          # a named tuple's are a tuple's
    METHODS.register(("named_tuple", _name), lambda low, base, node: low.tuple_method(base, node.func.attr, node))


def _missing_arguments(info, missing: list[str]) -> str | None:
    """CPython's TypeError for a call of `info`'s Python function without the parameters
    `missing` (positional ones; None for a keyword-only one, no Python function, or one of
    the compiled library, whose arity is not the method's that CPython would name)."""
    fn = getattr(info, "py_func", None)
    code = getattr(fn, "__code__", None)
    if code is None or is_library(fn) or any(name not in code.co_varnames[:code.co_argcount] for name in missing):
        return None
    quoted = [f"'{name}'" for name in missing]
    listed = quoted[0] if len(quoted) == 1 else " and ".join(quoted) if len(quoted) == 2 else \
        ", ".join(quoted[:-1]) + ", and " + quoted[-1]
    s = "" if len(missing) == 1 else "s"
    return f"{fn.__qualname__}() missing {len(missing)} required positional argument{s}: {listed}"


def _too_many_positional(info, n: int, given: int) -> str | None:
    """CPython's TypeError for a call of `info`'s Python function with `given` positional
    arguments where it takes `n`; None where the message would need more than that (keyword-
    only parameters, no Python function, one of the compiled library)."""
    fn = getattr(info, "py_func", None)
    code = getattr(fn, "__code__", None)
    if code is None or is_library(fn) or code.co_kwonlyargcount or code.co_argcount != n:
        return None
    defaults = len(fn.__defaults__ or ())
    were = "was" if given == 1 else "were"
    if defaults:
        return f"{fn.__qualname__}() takes from {n - defaults} to {n} positional arguments but {given} {were} given"
    return f"{fn.__qualname__}() takes {n} positional argument{'' if n == 1 else 's'} but {given} {were} given"


# ---- the registry's entries (registry.py): builtins, math, the standard library ---------------

for _obj, _handler in (
        (abs, builtin_abs), (min, builtin_minmax), (max, builtin_minmax),
        (round, builtin_round), (divmod, builtin_divmod),
        (pow, builtin_pow), (len, builtin_len), (sum, builtin_sum),
        (int, builtin_conversion), (float, builtin_conversion),
        (bool, builtin_conversion),
        (complex, lambda self, node, name: complex_lowering.builtin_complex(self, node, name)),
        (print, lambda self, node, name: messages.builtin_print(self, node, name)),
        (any, lists.builtin_any), (all, lists.builtin_any),
        (list, lists.builtin_list), (sorted, lists.builtin_sorted),
        (dict, dicts.builtin_dict), (set, dicts.builtin_set),
        (frozenset, dicts.builtin_set),        # (a set: compiled code has no frozenset type)
        (isinstance, lower_isinstance), (hasattr, lower_hasattr), (callable, lower_callable), (getattr, lower_getattr),
        (str, strings.builtin_str), (repr, strings.builtin_str), (ord, strings.builtin_ord),
        (chr, strings.builtin_chr), (hash, strings.builtin_hash),
        (reversed, lambda self, node, name: lists.list_of(self, node, node)),   # as a value: a list
        (bin, strings.builtin_radix), (oct, strings.builtin_radix),
        (hex, strings.builtin_radix), (format, strings.builtin_format)):
    CALLS.register(_obj, _handler, owner=__name__)


@lowers(map, filter)
def _map_filter(low, node: ast.Call, name: str) -> Value:
    return lower_map_filter(low, node, name)


@lowers(range)
def _range_value(low, node: ast.Call, name: str):
    """A range held as a value (`cols = range(n)`, an argument): the list of its ints, which
    iterates, indexes, slices, tests `in` and measures as the range does; `for`, zip,
    enumerate, sum... over `range(...)` itself never make it."""
    if low.builtin_call(node) is not range:
        return NotImplemented
    call = ast.copy_location(ast.Call(func=node.func, args=[node], keywords=[]), node)
    return lists.builtin_list(low, call, "list")


_ITERATOR_MAKERS = (iter, map, filter, zip, enumerate, reversed, itertools.islice, itertools.takewhile,
                    itertools.dropwhile, itertools.chain, itertools.count, itertools.cycle, itertools.repeat,
                    itertools.product, itertools.permutations, itertools.combinations, itertools.pairwise,
                    itertools.accumulate, itertools.zip_longest, itertools.filterfalse)


def _iterator_maker(low, node):
    """The builtin or itertools function a call `node` makes a new iterator with (`iter(x)`
    of one iterable, `islice(...)`, `map(...)`...), else None: next() of it is its first item."""
    if not (isinstance(node, ast.Call) and not node.keywords and node.args):
        return None
    obj = global_callee(low, node.func)
    if obj is iter:
        return iter if len(node.args) == 1 else None
    return obj if any(obj is m for m in _ITERATOR_MAKERS) else None


@lowers(next)
def _next(low, node: ast.Call, name: str):
    """`next(g)` of a generator expression written in the call (generators.py); `next(iter(x))`
    (`next(iter(x), default)`): the first element of any iterable `x`, a dict's first key,
    a set's first element, or the default / StopIteration when it is empty."""
    first = node.args[0] if node.args else None
    g = held_generators.held(low, first)
    if g is not None and not node.keywords and len(node.args) <= 2:     # `g = gen()`: next(g)
        return held_generators.next_item(low, g, node.args[1] if len(node.args) > 1 else None, node)
    maker = _iterator_maker(low, first)
    if maker is not None and not node.keywords and len(node.args) <= 2:
        source = first.args[0] if maker is iter else first         # next(islice(gen(), k, k + 1))
        return generators.first_item(low, source, node.args[1] if len(node.args) > 1 else None, node)
    if isinstance(first, ast.Name) and not node.keywords and len(node.args) <= 2 \
            and not generators.walks_generator(low, first):
        it = lists.pre_evaluate(low, first)
        if it is not None and seq_iterators.is_seq_iterator(it.type):     # `it = iter(xs)`: next(it)
            low.pre_evaluated.pop(id(first), None)
            return seq_iterators.next_item(low, it, node.args[1] if len(node.args) > 1 else None, node)
    if not (node.args and generators.walks_generator(low, node.args[0])):
        return NotImplemented
    if isinstance(node.args[0], ast.Name) or node.keywords or len(node.args) > 2:
        low.error(f"next() of a generator held in a variable is not supported in compiled code: "
                  f"a generator {USE_ERROR}", node)
    return generators.first_item(low, node.args[0], node.args[1] if len(node.args) > 1 else None, node)


@lowers(tuple)
def _tuple(low, node: ast.Call, name: str):
    if node.keywords or len(node.args) > 1:
        return NotImplemented
    if not node.args:
        return low.make_tuple([], node)
    seq = lists.pre_evaluate(low, node.args[0]) if not generators.walks_generator(low, node.args[0]) else None
    if seq is not None and isinstance(seq.type, (T.TupleType, T.VarTupleType)):
        return low.expr(node.args[0])   # tuple(t) of a tuple: the same tuple
    return lists.var_tuple_of(low, node.args[0], node)    # a tuple of run-time length (lists.py)


@lowers(itertools.product, itertools.combinations, itertools.combinations_with_replacement,
        itertools.permutations)
def _itertools(low, node: ast.Call, name: str) -> Value:
    return lower_itertools(low, node, name)


@lowers(functools.reduce, itertools.accumulate)
def _fold(low, node: ast.Call, name: str) -> Value:
    return lower_fold(low, node, name)


@lowers(collections.defaultdict, collections.Counter)
def _default_table(low, node: ast.Call, name: str) -> Value:
    kind = default_tables.default_kind(low, getattr(collections, name))
    return default_tables.make_default_table(low, kind, node)


@lowers(str.maketrans, equal=True)
def _maketrans(low, node: ast.Call, name: str) -> Value:
    return strmethods.str_maketrans(low, node)


@lowers(collections.OrderedDict)
def _ordered_dict(low, node: ast.Call, name: str) -> Value:
    return dicts.builtin_dict(low, node, "OrderedDict")           # a dict in compiled code (docs/dicts.md)


@lowers(collections.deque)
def _deque(low, node: ast.Call, name: str) -> Value:
    return bounded_deques.make_deque(low, node)       # a list in compiled code (docs/lists.md)


def _pylib_call(fn, stores_item: bool, low, node: ast.Call, name: str) -> Value:
    """A builtin written in the subset (pylib, heapqlib). A call that the routine's parameters
    do not bind is a CompileError: the TypeError a call would raise names the routine, whose
    name and parameters are not the builtin's."""
    starred = any(isinstance(a, ast.Starred) for a in node.args)
    if fn in (heapqlib.nsmallest, heapqlib.nlargest) and node.keywords and not starred:
        return _n_sorted(low, fn is heapqlib.nlargest, node, name)
    if fn in _ANY_ARITY and (len(node.args) != 2 or starred):
        fn = _ANY_ARITY[fn]
    if not starred:
        try:
            inspect.signature(fn).bind(*node.args, **{k.arg: k.value for k in node.keywords if k.arg})
        except TypeError as e:
            low.error(f"{name}() with these arguments is not supported in compiled code ({e})", node)
    if fn in _INT64_ARGS and not any(isinstance(a, ast.Starred) for a in node.args):
        for a in node.args:             # (evaluated in order; the call takes them as they are)
            v = lists.pre_evaluate(low, a)
            if v.type == T.U64:         # computed in int64 (gcd2 is exact for a u64 too)
                low.pre_evaluated[id(a)] = u64_as_int(low, v, f"{name}()", a)
    if stores_item and len(node.args) >= 2:
        # heappush(h, x) with `h = []`: x gives h its element type, as lst.insert's does
        lst, item = lists.pre_evaluate(low, node.args[0]), lists.pre_evaluate(low, node.args[1])
        if isinstance(lst.type, T.ListType):
            lists.stored_type(low, lst, item.type, node)
    return call_script(low, low.ctx.info_for(fn), node)


def _n_sorted(low, largest: bool, node: ast.Call, name: str) -> Value:
    """`heapq.nsmallest(n, xs, key=f)` (and nlargest): what the docs say it equals,
    `sorted(xs, key=f)[:n]` (with reverse=True), its operands evaluated in the call's order."""
    if len(node.args) != 2 or [k.arg for k in node.keywords] != ["key"]:
        low.error(f"{name}() takes n, an iterable and key= in compiled code", node)
    n = node.args[0]
    lists.pre_evaluate(low, n)
    made = low.info.__dict__.setdefault("_n_sorted", {})    # (one tree per call: nodes are keys by identity)
    if id(node) not in made:
        names = ast.Name("sorted", ast.Load()), ast.Name("max", ast.Load())
        ordered = ast.Call(names[0], [node.args[1]], list(node.keywords) + (
            [ast.keyword("reverse", ast.Constant(True))] if largest else []))
        top = ast.Subscript(ordered, ast.Slice(None, ast.Call(names[1], [n, ast.Constant(0)], []), None), ast.Load())
        made[id(node)] = ast.fix_missing_locations(ast.copy_location(top, node)), names
    top, names = made[id(node)]
    for name, obj in zip(names, (sorted, max)):     # the builtins, whatever the module binds to their names
        low.pre_evaluated[id(name)] = PyRef(obj, name.id)
    return low.expr(top)


for _obj, _fn in _PYLIB.items():
    CALLS.register(_obj, functools.partial(_pylib_call, _fn, _obj in _STORES_ITEM), owner=__name__)

for _obj in STR_INTRINSICS:
    CALLS.register(_obj, functools.partial(lambda obj, low, node, name: strings.lower_str_intrinsic(low, obj, node), _obj),
                   owner=__name__)


@lowers(_EINSUM)
def _einsum(low, node: ast.Call, name: str) -> Value:
    from script.frontend.numpy_einsum import lower_einsum     # (loaded by the first einsum)
    return lower_einsum(low, node)


@CALLS.family
def _self_lowering(obj):
    """An object of the frontend that lowers its own calls (script.cuda's markers, a
    generator's methods, LAPACK and library entries): its type's ``__script_call__``."""
    intrinsic = getattr(type(obj), "__script_call__", None)
    if intrinsic is None:
        return None
    return (lambda low, node, name: intrinsic(obj, low, node)), ""


@CALLS.family
def _statistics(obj):
    """statslib's routine for a function of the `statistics` module (imported only where
    user code imported it); a CompileError for the module's other functions."""
    module = sys.modules.get("statistics")
    if module is None or getattr(obj, "__module__", None) != "statistics" or \
            getattr(module, getattr(obj, "__name__", ""), None) is not obj:
        return None

    def call(low, node: ast.Call, name: str) -> Value:
        from script.lib.python import statslib
        if name not in statslib.ROUTINES:
            low.error(f"'{ast.unparse(node.func)}' is not supported in compiled code (of the statistics "
                      f"module, compiled code has {', '.join(statslib.ROUTINES)})", node)
        return call_script(low, low.ctx.info_for(getattr(statslib, name)), node)
    return call, obj.__name__


@CALLS.family
def _conversion(obj):
    """`script.i32(x)`, `np.float32(x)`: a conversion to a sized scalar type."""
    t = _conversion_target(obj)
    return None if t is None else ((lambda low, node, name: call_conversion(low, t, node)), "")


@CALLS.family
def _scalar_ufunc(obj):
    """A NumPy ufunc (`np.sqrt`) called as a function (call_ufunc)."""
    if type(obj).__name__ == "ufunc" and getattr(obj, "__name__", None) in _NUMPY_UFUNCS.keys() | UFUNCS:
        return (lambda low, node, name: call_ufunc(low, name, node)), obj.__name__
    return None


@CALLS.family
def _cmath(obj):
    if getattr(obj, "__module__", None) == "cmath" and obj is getattr(cmath, obj.__name__, None):
        return (lambda low, node, name: complex_lowering.cmath_call(low, name, node)), obj.__name__
    return None


@CALLS.family
def _math(obj):
    """The functions of `math` that are not entries of their own (call_math)."""
    name = getattr(obj, "__name__", None)
    if name is not None and (getattr(obj, "__module__", None) == "math" or obj is getattr(math, name, None)):
        return (lambda low, node, name: call_math(low, name, node)), name
    return None
