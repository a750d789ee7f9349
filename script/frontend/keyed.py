"""`key=` and `reverse=`: `sorted(x, key=f, reverse=True)`, `lst.sort(key=f)`,
`min(x, key=f)`, `max(a, b, key=f)`.

The key is a function compiled code can call — a lambda, a nested function, a global or
`@script` function, a builtin — bound when the caller is compiled (static_args.py), and is
called once per element, in order, as CPython calls it. Sorting is stable, also in reverse
(listlib.sort_keyed: reverse, stable sort, reverse, which is CPython's order). min/max
keep the first element whose key is smallest/largest, as CPython does. Keys are numbers or
tuples of them (tuples compare as Python orders them, lower_expr.order_tuples).
"""

from __future__ import annotations

import ast
import functools
import operator

from script.frontend import closures, mixed_numbers, numpy_alloc
from script.lib.python import listlib
from script.frontend.closures import NestedFunction, NestedFunctionInfo
from script.frontend.pymessages import message
from script.frontend.pyref import PyRef
from script.ir import types as T
from script.ir.core import Const, Value


def is_sortable(t: T.Type) -> bool:
    """Whether values of `t` have Python's ordering in compiled code."""
    if isinstance(t, T.TupleType):
        return all(is_sortable(e) for e in t.elems)
    if T.is_instance_type(t):       # by its __lt__ (class_methods.py)
        return True
    if isinstance(t, T.ListType):        # lists order as tuples do (lists.compare_lists)
        return is_sortable(t.elem)
    return (t.is_numeric() and not isinstance(t, T.ComplexType)) or isinstance(t, T.TextType)    # complex: unordered


def call_function_node(cx, fn_node, args: list[Value], node) -> Value:
    """`fn_node(*args)` for the function an expression names (a lambda too), with
    argument values already computed (a union or an int|float taken apart: the call is
    built once per type, mixed_numbers.split)."""
    if any(mixed_numbers.splits(v) for v in args):
        return mixed_numbers.split(cx, args, lambda *ws: call_function_node(cx, fn_node, list(ws), node), node)
    placeholders = []
    for v in args:
        p = ast.copy_location(ast.Name(id="$arg", ctx=ast.Load()), node)
        cx.pre_evaluated[id(p)] = v
        placeholders.append(p)
    call = ast.copy_location(ast.Call(func=fn_node, args=placeholders, keywords=[]), node)
    if isinstance(fn_node, ast.Lambda):
        info = cx.ctx.nested_infos.get((cx.info, id(fn_node)))
        if info is None:
            info = cx.ctx.nested_infos[(cx.info, id(fn_node))] = \
                NestedFunctionInfo(cx.info, closures.lambda_def(cx, "<lambda>", fn_node), cx.nested_functions)
        closures.refuse_def_time_defaults(cx, info, fn_node, "a key or callback function here")
        return closures.call_nested(cx, NestedFunction(info), call)
    return cx.lower_call(call)


def sort_options(cx, keywords, name: str) -> tuple:
    """(key node or None, reverse node or None) of sort()/sorted()'s keywords."""
    opts = {}
    for k in keywords:
        if k.arg not in ("key", "reverse"):
            cx.error(f"{name}() got an unexpected keyword argument '{k.arg}'", k.value)
        opts[k.arg] = k.value
    key = opts.get("key")
    if isinstance(key, ast.Constant) and key.value is None:
        key = None
    return method_key(cx, key), opts.get("reverse")


def _getter_key(cx, key):
    """`key=itemgetter(1)`, `itemgetter(0, 2)`, `attrgetter("ratio")`, `attrgetter("a.b",
    "c")` with constant operands: the lambda that gets the same (`lambda x: x[1]`, a tuple
    of several); None for any other key."""
    if not (isinstance(key, ast.Call) and key.args and not key.keywords
            and isinstance(key.func, (ast.Name, ast.Attribute))):
        return None
    ref = cx.callee_ref(key.func) if isinstance(key.func, ast.Name) and key.func.id not in cx.info.local_names \
        or isinstance(key.func, ast.Attribute) else None
    obj = getattr(ref, "obj", None) if isinstance(ref, PyRef) else None
    if obj not in (operator.itemgetter, operator.attrgetter):
        return None
    try:
        operands = [ast.literal_eval(a) for a in key.args]
    except ValueError:
        cx.error(f"{obj.__name__}() with operands that are not constants is not supported as a key "
                 f"in compiled code (write a lambda)", key)
    made = cx.info.__dict__.setdefault("_method_keys", {})
    fn = made.get(id(key))
    if fn is not None:
        return fn
    x = ast.Name(id="$x", ctx=ast.Load())

    def get(a):
        if obj is operator.itemgetter:
            return ast.Subscript(value=x, slice=ast.Constant(a), ctx=ast.Load())
        if not isinstance(a, str):
            cx.error(f"attribute name must be a string, not '{type(a).__name__}'", key)
        out = x
        for part in a.split("."):
            out = ast.Attribute(value=out, attr=part, ctx=ast.Load())
        return out

    parts = [get(a) for a in operands]
    body = parts[0] if len(parts) == 1 else ast.Tuple(elts=parts, ctx=ast.Load())
    arg = ast.arguments(posonlyargs=[], args=[ast.arg(arg="$x")], vararg=None, kwonlyargs=[],
                        kw_defaults=[], kwarg=None, defaults=[])
    fn = made[id(key)] = ast.Lambda(args=arg, body=body)
    for n in ast.walk(fn):
        ast.copy_location(n, key)
    made[("node", id(key))] = key           # (kept alive: the cache is keyed by its id)
    return fn


def method_key(cx, key):
    """`key=str.lower` (an unbound method of str): the lambda `lambda s: s.lower()`;
    `key=d.get` (a bound method of a local, or of a global str, list, tuple, dict or set:
    `key=ETAOIN.find`): `lambda s: d.get(s)`; the same node in every build round. Any other
    key as it is."""
    getter = _getter_key(cx, key)
    if getter is not None:
        return getter
    if not (isinstance(key, ast.Attribute) and isinstance(key.value, ast.Name)):
        return key
    ref = cx.callee_ref(key.value)
    unbound = isinstance(ref, PyRef) and ref.obj is str and callable(getattr(str, key.attr, None))
    held = isinstance(ref, Value) or isinstance(ref, PyRef) and isinstance(ref.obj, (str, list, tuple, dict, set))
    if not unbound and not held and key.value.id not in cx.info.local_names:
        return key
    made = cx.info.__dict__.setdefault("_method_keys", {})
    fn = made.get(id(key))
    if fn is None:
        arg = ast.arguments(posonlyargs=[], args=[ast.arg(arg="$s")], vararg=None, kwonlyargs=[],
                            kw_defaults=[], kwarg=None, defaults=[])
        s = ast.Name(id="$s", ctx=ast.Load())
        call = ast.Call(func=ast.Attribute(value=s, attr=key.attr, ctx=ast.Load()), args=[], keywords=[]) \
            if unbound else ast.Call(func=key, args=[s], keywords=[])
        fn = made[id(key)] = ast.fix_missing_locations(ast.copy_location(ast.Lambda(args=arg, body=call), key))
        for n in ast.walk(fn):
            ast.copy_location(n, key)
        made[("node", id(key))] = key           # (kept alive: the cache is keyed by its id)
    return fn


def _cmp_to_key(cx, key):
    """The comparison function node of `key=cmp_to_key(f)` (functools'), else None."""
    if not (isinstance(key, ast.Call) and len(key.args) == 1 and not key.keywords
            and isinstance(key.func, (ast.Name, ast.Attribute))):
        return None
    if isinstance(key.func, ast.Name) and key.func.id in cx.info.local_names:
        return None
    ref = cx.callee_ref(key.func)
    return key.args[0] if isinstance(ref, PyRef) and ref.obj is functools.cmp_to_key else None


def sort_list(cx, lst: Value, keywords, name: str, node) -> None:
    """Sort `lst` in place, with sort()'s `key=` and `reverse=`."""
    key, rev = sort_options(cx, keywords, name)
    descending = Const(False, T.BOOL) if rev is None else cx.truth(cx.expr(rev), rev)
    compare = _cmp_to_key(cx, key)
    if compare is not None:         # key=functools.cmp_to_key(f): f compares two elements
        p = ast.copy_location(ast.Name(id="$reverse", ctx=ast.Load()), node)
        cx.pre_evaluated[id(p)] = descending
        call = ast.copy_location(ast.Call(func=ast.Name(id="sort"), args=[compare, p], keywords=[]), node)
        cx.call_script(cx.ctx.info_for(listlib.sort_cmp), call, first=lst)
        return
    if key is not None and _held_function_key(cx, key):
        _sort_by_held(cx, lst, key, descending, node)
        return
    if key is not None:
        p = ast.copy_location(ast.Name(id="$reverse", ctx=ast.Load()), node)
        cx.pre_evaluated[id(p)] = descending
        call = ast.copy_location(ast.Call(func=ast.Name(id="sort"), args=[key, p], keywords=[]), node)
        cx.call_script(cx.ctx.info_for(listlib.sort_keyed), call, first=lst)
        return
    if isinstance(cx.read_type(lst), T.ComplexType):
        cx.error("'<' not supported between instances of 'complex' and 'complex'", node)
    if not is_sortable(cx.read_type(lst)):
        cx.error(f"sorting a {lst.type} is not supported in compiled code (numbers, strs and tuples "
                 "or lists of them only)", node)

    def run(fn):
        f = cx.ctx.callee(cx, cx.ctx.info_for(fn), (lst.type,), node)
        cx.emit("call", [lst], T.NONE, f, cx.loc(node))
    ascending, reversed_ = (listlib.sort_exact, listlib.sort_exact_reversed) if _holds_union(cx.read_type(lst)) \
        else (listlib.sort, listlib.sort_reversed)       # (elements that may not compare: CPython's order)
    if isinstance(descending, Const):
        run(reversed_ if descending.value else ascending)
    else:
        cx.choose(descending, lambda: run(reversed_), lambda: run(ascending), node)


def _held_function_key(cx, key) -> bool:
    """Whether `key` names a local holding a function value (function_values.py), which only
    its owner's frame may call."""
    return isinstance(key, ast.Name) and key.id in cx.locals and key.id not in cx.nested_functions \
        and isinstance(getattr(cx.expr(key), "type", None), T.FuncType)


def _sort_by_held(cx, lst: Value, key: ast.Name, descending: Value, node) -> None:
    """`lst.sort(key=f)` of a function value `f`: its keys computed here, in its owner's
    frame, once per element in order as CPython does (``[f(x) for x in lst]``), then the
    list sorted by them (listlib.sort_with_keys)."""
    made = cx.info.__dict__.setdefault("_held_sort_keys", {})
    comp = made.get(id(node))
    if comp is None:            # (the same node each build round)
        x = ast.Name(id="$x", ctx=ast.Load())
        source = ast.Name(id="$lst", ctx=ast.Load())
        comp = made[id(node)] = ast.ListComp(elt=ast.Call(func=key, args=[x], keywords=[]), generators=[
            ast.comprehension(target=ast.Name(id="$x", ctx=ast.Store()), iter=source, ifs=[], is_async=0)])
        for n in ast.walk(comp):
            if n is not key:
                ast.copy_location(n, node)
        made[("node", id(node))] = node
    cx.pre_evaluated[id(comp.generators[0].iter)] = lst
    keys = cx.expr(comp)
    r = ast.copy_location(ast.Name(id="$reverse", ctx=ast.Load()), node)
    cx.pre_evaluated[id(r)] = descending
    k = ast.copy_location(ast.Name(id="$keys", ctx=ast.Load()), node)
    cx.pre_evaluated[id(k)] = keys
    call = ast.copy_location(ast.Call(func=ast.Name(id="sort"), args=[k, r], keywords=[]), node)
    cx.call_script(cx.ctx.info_for(listlib.sort_with_keys), call, first=lst)


def _holds_union(t: T.Type) -> bool:
    """Whether values of type `t` may hold a union (union_values.py), whose alternatives may
    not compare."""
    if isinstance(t, T.UnionType):
        return True
    if isinstance(t, T.TupleType):
        return any(_holds_union(e) for e in t.elems)
    return isinstance(t, T.ListType) and _holds_union(t.elem)


def minmax_key(cx, node, name: str) -> Value:
    """min()/max() with `key=` (and `default=` for one iterable)."""
    opts = {k.arg: k.value for k in node.keywords}
    for k in opts:
        if k not in ("key", "default"):
            cx.error(f"{name}() got an unexpected keyword argument '{k}'", opts[k])
    key = method_key(cx, opts["key"])
    if "default" in opts and len(node.args) != 1:
        cx.error(f"Cannot specify a default for {name}() with multiple positional arguments", node)
    loc = cx.loc(node)
    cx.counter += 1
    best, best_key = f"$best{cx.counter}", f"$bestkey{cx.counter}"
    seen = cx.new_var("seen", Const(False, T.BOOL))
    better = ast.Gt() if name == "max" else ast.Lt()

    def step(x):
        k = x if isinstance(key, ast.Constant) and key.value is None else call_function_node(cx, key, [x], node)
        take = cx.choose(cx.read(seen, loc), lambda: cx.compare(better, k, cx.read(best_key, loc), node),
                         lambda: Const(True, T.BOOL), node)

        def keep():
            cx.write(best, x)
            cx.write(best_key, k)
            cx.write(seen, Const(True, T.BOOL))
        numpy_alloc.when(cx, take, keep, node)

    if len(node.args) == 1:
        cx.each(node.args[0], step)
    elif not node.args:
        cx.error(f"{name} expected at least 1 argument, got 0", node)
    else:
        for v in [cx.expr(a) for a in node.args]:
            step(v)
    found = cx.read(seen, loc)
    if "default" not in opts:
        cx.raise_if(cx.emit("not", [found], T.BOOL, None, loc), "ValueError",
                    message(f"{name}_empty"), node)
        return cx.read(best, loc)
    default = cx.expr(opts["default"])
    return cx.choose(found, lambda: cx.read(best, loc), lambda: default, node)
