"""`*args` parameters and `f(*t)` calls (docs/calls.md).

A `*rest` parameter is one more parameter of the compiled function: a tuple whose type is
the number and types of the extra positional arguments of the call, so each arity (and each
set of element types) is its own specialization, as every other argument type is. A compiled
caller packs the extras into a `tuple` here; a call from Python is packed by Python's own
binding in the dispatcher's fallback (script.dispatcher), which then calls the
specializations on a second object, so that `f(1, (2, 3))` from Python never reaches a
specialization taking `(int, tuple[int, int])` as `rest = (2, 3)`.

`f(*t)` with `t` a tuple spreads its statically known elements into the call; a list (whose
length is known only at run time) into a function of fixed arity after a check of its
length, into a compiled function's `*args` as a tuple of run-time length (`_into_varargs`),
and into `max`, `min`, `math.gcd`, `math.lcm` as the fold over its items
(`spread_iterable`); `**mapping` and other calls of lists are CompileErrors.
"""

from __future__ import annotations

import ast
import math

from script.frontend.pyref import global_callee
from script.frontend.static_args import Static
from script.frontend.pyref import PyRef
from script.ir import types as T
from script.ir.core import Const, Value
from script.frontend import dicts, lists, star_displays, strings
from script.frontend.optional import python_name
from script.lib.python import pylib


def pack_varargs(cx, info, bound: list, values: list, node: ast.Call) -> None:
    """Put the positional arguments beyond `info`'s named ones into its `*args` tuple,
    at that parameter's place in `bound` (one slot per parameter)."""
    n = info.n_positional
    if node.args and isinstance(node.args[-1], SpreadArgs):
        bound[n] = values[-1]           # `f(*xs)`: the tuple of run-time length made by `spread_starred`
        return
    bound[n] = cx.make_tuple([packed_value(cx, v, "*" + info.vararg, node) for v in values[n:]], node)


class SpreadArgs(ast.expr):
    """The last argument of a call whose `*xs` (a list) fills a compiled function's `*args`:
    the tuple of run-time length of the extra arguments, in `pre_evaluated`."""
    _fields = ()


def packed_value(cx, v, where: str, node):
    """Argument `v` as a value to put in a `*args` tuple or `**kwargs` dict: a string
    constant (bound statically, static_args.py) as a str."""
    if not isinstance(v, Static):
        return v
    if not isinstance(v.obj, str):
        cx.error(f"a {type(v.obj).__name__} cannot be passed through {where} in compiled code (only "
                 "values: numbers, strs, lists, arrays, tuples)", node)
    return strings.str_constant(cx, v.obj, node)


def pack_kwargs(cx, info, bound: list, kw: dict, node: ast.Call) -> dict:
    """Put the keyword arguments that name no parameter of `info` into its `**kwargs`
    dict (str keys, values of one type, in the call's order) at that parameter's place in
    `bound`; return the others."""
    names = info.param_names
    extra = {k: v for k, v in kw.items() if k not in names or k == info.kwarg}
    d = dicts.new_table(cx, dicts.table_type(cx, node, False, (T.STR, None)), node)
    for key, (v, vnode) in extra.items():
        dicts.table_store(cx, d, strings.str_constant(cx, key, vnode), packed_value(cx, v, "**" + info.kwarg, vnode), vnode)
    bound[names.index(info.kwarg)] = d
    return {k: v for k, v in kw.items() if k not in extra}


def spread_starred(cx, node: ast.Call) -> ast.Call:
    """`node` with each `*t` argument (a tuple) replaced by one argument per element, and a
    last `*xs` of anything else into a compiled function's `*args` (`_into_varargs`).
    The arguments before a `*t` are evaluated first, in order; each element's value is
    handed to whoever lowers the call through `pre_evaluated`."""
    if not any(isinstance(a, ast.Starred) for a in node.args) or _is_print(cx, node.func):
        return node         # (print(*xs) joins what it is given: messages.print_unpacked)
    info = _varargs_callee(cx, node)
    args = []
    for a in node.args:
        if not isinstance(a, ast.Starred):
            if not isinstance(a, (ast.Constant, ast.Name, ast.Lambda, ast.Attribute)):
                cx.pre_evaluated[id(a)] = cx.expr(a)      # keeps Python's order
            args.append(a)
            continue
        if info is not None and (cx.walks_generator(a.value) or cx.builtin_call(a.value) is not None):
            return _into_varargs(cx, info, args, lists.list_of(cx, a.value, node), a, node)
        t = cx.expr(a.value)
        if info is not None and not isinstance(t.type, (T.TupleType, T.ClassType)):
            return _into_varargs(cx, info, args, t, a, node)
        if isinstance(t.type, T.ListType) and not isinstance(t.type, T.ClassType):
            t = list_as_arguments(cx, t, a, node)
        if not isinstance(t.type, T.TupleType):
            what = "a list" if isinstance(t.type, T.ListType) else f"a value of type {t.type}"
            cx.error(f"*{ast.unparse(a.value)} in a call must be a tuple in compiled code (its "
                     f"length fixes the call's arity), not {what}; index it or pass it whole", a)
        for k, et in enumerate(t.type.elems):
            item = _element_node(cx, a, k)
            cx.pre_evaluated[id(item)] = cx.emit("extract", [t], et, k, cx.loc(a))
            args.append(item)
    call = ast.Call(func=node.func, args=args, keywords=node.keywords)
    return ast.copy_location(call, node)


def _varargs_callee(cx, node: ast.Call):
    """The FunctionInfo of the compiled function with `*args` (and no `**kwargs`) that
    `node` calls with one `*xs` as its last argument and no keywords, else None."""
    if node.keywords or not isinstance(node.args[-1], ast.Starred) \
            or sum(isinstance(a, ast.Starred) for a in node.args) != 1:
        return None
    info = _callee_info(cx, node)
    return info if info is not None and getattr(info, "vararg", None) is not None \
        and getattr(info, "kwarg", None) is None else None


def _into_varargs(cx, info, args: list, seq: Value, starred: ast.Starred, node: ast.Call) -> ast.Call:
    """`f(a, *xs)` of a compiled `f(p, *rest)`, `xs` (`seq`) a list or anything else a `for`
    takes but a tuple: its items fill the named parameters the arguments before it leave
    (CPython's TypeError when there are too few) and the rest are `rest`, a tuple of
    run-time length that holds the arguments before it beyond the named ones too."""
    loc = cx.loc(node)
    if not isinstance(seq.type, T.ListType):
        seq = star_displays.items_of(cx, seq, node, T.ListType)
    free = len(getattr(info, "free", ()))
    k = info.n_positional - free
    needed = k - len(args)
    names = info.param_names[free:info.n_positional]
    if any(p in info.defaults for p in names[len(args):]):
        cx.error(f"*{ast.unparse(starred.value)} fills parameters with defaults of {info.name}(): not "
                 "supported in compiled code (pass them by position before it)", starred)
    n = lists.list_len(cx, seq, node)
    for missing in range(1, needed + 1):
        cx.raise_if(cx.cmp("eq", n, Const(needed - missing, T.I64), node), "TypeError",
                    f"{_python_qualname(info)}() missing {missing} required positional argument"
                    f"{'' if missing == 1 else 's'}: {_listed(names[k - missing:])}", node)
    for j in range(max(needed, 0)):
        item = _element_node(cx, starred, j)
        cx.pre_evaluated[id(item)] = lists.get_item(cx, seq, Const(j, T.I64), node)
        args.append(item)
    first = Const(max(needed, 0), T.I64)
    count = cx.emit("sub", [n, first], T.I64, None, loc)
    rest = lists.new_list(cx, lists.read_type(cx, seq), count, node, T.VarTupleType)
    cx.for_range(node, count, lambda i: lists.set_item(
        cx, rest, lists.get_item(cx, seq, cx.emit("add", [i, first], T.I64, None, loc), node), i, node))
    extra = [(False, cx.pre_evaluated.pop(id(a)) if id(a) in cx.pre_evaluated else cx.expr(a)) for a in args[k:]]
    spread = ast.copy_location(SpreadArgs(), starred)
    cx.pre_evaluated[id(spread)] = star_displays.var_tuple(cx, extra + [(True, rest)], node) if extra else rest
    return ast.copy_location(ast.Call(func=node.func, args=args[:k] + [spread], keywords=[]), node)


def spread_iterable(cx, node: ast.Call) -> Value | None:
    """`max(*xs)`, `min(*xs)`, `math.gcd(*xs)`, `math.lcm(*xs)` of one starred iterable of a
    run-time length (a list, a range, a generator, ...; not a tuple, which spread_starred
    spreads): the function's fold over its items, made a list first as CPython binds them
    (library `pylib.extreme_of`, `gcd_of`, ...: CPython's TypeError for no argument, and for one
    number, which max() would iterate). None for any other call."""
    if node.keywords or len(node.args) != 1 or not isinstance(node.args[0], ast.Starred):
        return None
    obj = global_callee(cx, node.func)
    fn = next((f for called, f in _SPREAD if called is obj), None)     # (by identity: any object)
    if fn is None:
        return None
    source = node.args[0].value
    if not (isinstance(source, ast.GeneratorExp) or cx.walks_generator(source)):
        first = cx.expr(source)
        cx.pre_evaluated[id(source)] = first
        if isinstance(first.type, T.TupleType):
            return None                 # (spread_starred spreads a tuple's items)
    lst = lists.list_of(cx, source, node)
    et = lists.read_type(cx, lst)
    extreme = fn is pylib.extreme_of
    if et not in ((T.I64, T.BOOL, T.F64) if extreme else (T.I64, T.BOOL)):
        cx.error(f"{ast.unparse(node.func)}(*{ast.unparse(source)}) of elements of type {et} is not "
                 "supported in compiled code (of ints, or for max/min of floats)", node)
    args = [ast.Constant(python_name(et)), ast.Constant(obj.__name__)] if extreme else []
    return cx.call_script(cx.ctx.info_for(fn), ast.copy_location(ast.Call(node.func, args, []), node), first=lst)


_SPREAD = ((max, pylib.extreme_of), (min, pylib.extreme_of), (math.gcd, pylib.gcd_of), (math.lcm, pylib.lcm_of))


def list_as_arguments(cx, lst: Value, starred: ast.Starred, node: ast.Call) -> Value:
    """`f(a, *lst)` of a function with a fixed number of positional parameters (no
    defaults, no `*args`, no keyword arguments in the call, one `*`): the tuple of the
    list's elements, after a check of its length that raises CPython's TypeError. `lst`
    itself when the call is not of that form (the caller reports it)."""
    info = _fixed_arity(cx, node)
    if info is None:
        return lst
    k = info.n_positional - len(getattr(info, "free", ()))
    names = info.param_names[len(getattr(info, "free", ())):k]
    count = k - (len(node.args) - 1)
    if count < 0:
        return lst
    name = _python_qualname(info)
    n = lists.list_len(cx, lst, node)
    given = cx.emit("add", [n, Const(len(node.args) - 1, T.I64)], T.I64, None, cx.loc(node))
    takes = f"{name}() takes {k} positional argument{'' if k == 1 else 's'} but"
    if len(node.args) == 1 and k == 0:
        cx.raise_if(cx.cmp("eq", n, Const(1, T.I64), node), "TypeError", f"{takes} 1 was given", node)
    cx.raise_if(cx.cmp("gt", n, Const(count, T.I64), node), "TypeError", f"{takes} %lld were given",
                node, [given])
    for missing in range(1, count + 1):
        cx.raise_if(cx.cmp("eq", n, Const(count - missing, T.I64), node), "TypeError",
                    f"{name}() missing {missing} required positional argument{'' if missing == 1 else 's'}: "
                    f"{_listed(names[k - missing:])}", node)
    return cx.make_tuple([lists.get_item(cx, lst, Const(j, T.I64), node) for j in range(count)], node)


def _callee_info(cx, node: ast.Call):
    """The FunctionInfo of the compiled function (a global's or a nested one) that `node`
    calls by name, else None."""
    import types
    from script.frontend.closures import NestedFunction
    if not isinstance(node.func, ast.Name):
        return None
    ref = cx.lookup(node.func)
    obj = ref.obj if isinstance(ref, PyRef) else None
    if isinstance(obj, NestedFunction):
        return obj.info
    info = cx.ctx.script_info(obj)
    if info is None and isinstance(obj, types.FunctionType):
        info = cx.ctx.info_for(obj)
    return info


def _fixed_arity(cx, node: ast.Call):
    """The FunctionInfo of the compiled function `node` calls when `list_as_arguments`
    handles the call, else None."""
    if node.keywords or sum(isinstance(a, ast.Starred) for a in node.args) != 1:
        return None
    info = _callee_info(cx, node)
    if info is None or getattr(info, "vararg", None) is not None or getattr(info, "kwarg", None) is not None:
        return None
    k = getattr(info, "n_positional", len(info.param_names))
    if any(name in info.defaults for name in info.param_names[:k]):
        return None
    return info


def _is_print(cx, func: ast.expr) -> bool:
    import builtins
    return isinstance(func, ast.Name) and func.id == "print" and getattr(cx.lookup(func), "obj", None) is builtins.print


def _element_node(cx, starred: ast.Starred, k: int) -> ast.expr:
    """The stand-in node of element `k` of `*t`: the same object in every build round
    (hints and `pre_evaluated` are keyed by node identity)."""
    nodes = cx.info.__dict__.setdefault("_starred_items", {})
    item = nodes.get((id(starred), k))
    if item is None:
        item = nodes[(id(starred), k)] = ast.copy_location(
            ast.Subscript(value=starred.value, slice=ast.Constant(k), ctx=ast.Load()), starred)
    return item


def _python_qualname(info) -> str:
    """The name CPython's TypeError gives the function of `info`: its __qualname__."""
    outer = getattr(info, "outer", None)
    if outer is not None:
        return f"{_python_qualname(outer)}.<locals>.{info.name}"
    return getattr(info.py_func, "__qualname__", info.name)


def _listed(names) -> str:
    """'a', 'a' and 'b', 'a', 'b', and 'c': as CPython lists missing arguments."""
    quoted = [f"'{n}'" for n in names]
    if len(quoted) < 3:
        return " and ".join(quoted)
    return ", ".join(quoted[:-1]) + ", and " + quoted[-1]
