"""`itertools.count`, `cycle`, `repeat`, `islice`, `chain`, `chain.from_iterable`, `pairwise`,
`groupby` and `zip_longest` in compiled code (docs/lists.md).

`count`, `cycle` and `repeat` (without times) are endless: they are iterables of a `for`
loop, `zip`, `enumerate` and `islice` (`iterable_call`: an element is computed from its
index, so nothing is stored), and a CompileError as a value. The others make the list of what
CPython's iterator yields (itertoolslib's routines, taking their iterables as lists first,
as `product` and `map` do): `groupby` gives (key, list of the run) pairs, so the usual
`list(g)`, `len(list(g))`, `sum(1 for _ in g)` and `for x in g` of a group work.
"""

from __future__ import annotations

import ast
import functools
import itertools

from script.frontend import builtins_lowering, generators, lists, numpy_alloc
from script.lib.python import itertoolslib
from script.frontend.registry import CALLS
from script.frontend.pyref import PyRef
from script.ir import types as T
from script.ir.core import Const, Value

_ENDLESS = (itertools.count, itertools.cycle, itertools.repeat)
_ENDLESS_N = 2 ** 63 - 1


def itertools_function(cx, node):
    """The itertools function that `node` calls (`count(...)`, `itertools.cycle(...)`)
    when it is one of _ENDLESS, else None; resolves module names only, evaluates nothing."""
    if not isinstance(node, ast.Call):
        return None
    f = node.func
    if isinstance(f, ast.Name) and f.id not in cx.locals:
        ref = cx.lookup(f)
    elif isinstance(f, ast.Attribute) and isinstance(f.value, ast.Name) and f.value.id not in cx.locals:
        base = cx.lookup(f.value)
        ref = None
        if isinstance(base, PyRef) and base.obj is itertools:
            ref = PyRef(getattr(itertools, f.attr, None), f"itertools.{f.attr}")
    else:
        return None
    obj = getattr(ref, "obj", None)
    return obj if isinstance(ref, PyRef) and any(obj is e for e in _ENDLESS) else None


def iterable_call(cx, node):
    """`iterable` (n, item, type) of a count/cycle/repeat call, or None for other nodes."""
    fn = itertools_function(cx, node)
    if fn is None:
        return None
    loc = cx.loc(node)
    kw = {k.arg: k.value for k in node.keywords}
    if fn is itertools.count:
        if set(kw) - {"start", "step"} or len(node.args) + len(kw) > 2:
            cx.error("count() takes a start and a step", node)
        given = list(node.args) + [kw[k] for k in ("start", "step") if k in kw]
        start, step = ([cx.expr(a) for a in given] + [Const(0, T.I64), Const(1, T.I64)][len(given):])[:2]
        for v, a in ((start, "start"), (step, "step")):
            if not isinstance(v.type, (T.IntType, T.BoolType)):
                cx.error(f"count() with a {a} of type {v.type} is not supported in compiled code "
                         "(CPython adds a float step again and again: write a while loop)", node)
        start, step = cx.coerce(start, T.I64, node), cx.coerce(step, T.I64, node)
        return Const(_ENDLESS_N, T.I64), lambda i: cx.emit(
            "add", [start, cx.emit("mul", [i, step], T.I64, None, loc)], T.I64, None, loc), T.I64
    if fn is itertools.repeat:
        if set(kw) - {"times"} or not 1 <= len(node.args) + len(kw) <= 2 or not node.args:
            cx.error("repeat() takes an object and an optional times", node)
        value = cx.expr(node.args[0])
        times = node.args[1] if len(node.args) > 1 else kw.get("times")
        n = Const(_ENDLESS_N, T.I64)
        if times is not None:
            n = cx.emit("max", [cx.coerce(cx.expr(times), T.I64, node), Const(0, T.I64)], T.I64, None, loc)
        return n, lambda i: value, value.type
    if kw or len(node.args) != 1:
        cx.error("cycle() takes exactly one iterable", node)
    seq = lists.list_of(cx, node.args[0], node)
    size = lists.list_len(cx, seq, node)
    empty = cx.emit("cmp", [size, Const(0, T.I64)], T.BOOL, "eq", loc)
    n = cx.emit("select", [empty, Const(0, T.I64), Const(_ENDLESS_N, T.I64)], T.I64, None, loc)
    return n, lambda i: lists.get_item(cx, seq, cx.emit("mod", [i, size], T.I64, None, loc), node), seq.type.elem


def lower_more_itertools(cx, obj, name: str, node: ast.Call) -> Value:
    if any(obj is e for e in _ENDLESS):
        if obj is itertools.repeat and (len(node.args) == 2 or node.keywords):
            return lists.list_of(cx, node, node)
        cx.error(f"{name}() is endless: compiled code takes it only as what a for loop, zip(), "
                 "enumerate() or islice() walks", node)
    if obj is itertools.islice:
        return lower_islice(cx, node)
    kw = {k.arg: k.value for k in node.keywords}
    leading = tuple(lists.list_of(cx, a, node) for a in node.args)
    none = ast.Call(node.func, [], [])
    if obj == itertools.chain.from_iterable:
        if kw or len(leading) != 1:
            cx.error("chain.from_iterable() takes exactly one iterable", node)
        return builtins_lowering.call_script(cx, cx.ctx.info_for(itertoolslib.chain_rows), none, leading=leading)
    if obj is itertools.chain:
        if kw or not leading:
            cx.error("chain() takes one or more iterables in compiled code", node)
        out = leading[0] if len(leading) > 1 else lists.list_of(cx, node.args[0], node)
        for seq in leading[1:]:
            out = builtins_lowering.call_script(cx, cx.ctx.info_for(itertoolslib.concat), none, leading=(out, seq))
        return out
    if obj is itertools.pairwise:
        if kw or len(leading) != 1:
            cx.error("pairwise() takes exactly one iterable", node)
        return builtins_lowering.call_script(cx, cx.ctx.info_for(itertoolslib.pairwise), none, leading=leading)
    if obj is itertools.groupby:
        key = node.args[1] if len(node.args) > 1 else kw.get("key")
        if set(kw) - {"key"} or not 1 <= len(node.args) + len(kw) <= 2 or not node.args:
            cx.error("groupby() takes an iterable and an optional key", node)
        leading = leading[:1]
        if key is None or isinstance(key, ast.Constant) and key.value is None:
            return builtins_lowering.call_script(cx, cx.ctx.info_for(itertoolslib.groupby_self), none, leading=leading)
        return builtins_lowering.call_script(cx, cx.ctx.info_for(itertoolslib.groupby_key), ast.Call(node.func, [key], []),
                                             leading=leading)
    # zip_longest
    if set(kw) - {"fillvalue"} or not 2 <= len(leading) <= 3:
        cx.error("zip_longest() takes two or three iterables and fillvalue= in compiled code", node)
    if "fillvalue" not in kw:
        cx.error("zip_longest() without fillvalue= is not supported in compiled code (its None "
                 "fill cannot sit in a list of numbers or strs: pass fillvalue=)", node)
    fill = kw["fillvalue"]
    fill_type = lists.pre_evaluate(cx, fill).type
    for seq in leading:
        et = seq.type.elem
        if isinstance(et, T.Type) and et != fill_type and not (
                isinstance(et, T.FloatType) and isinstance(fill_type, (T.IntType, T.BoolType))):
            cx.error(f"zip_longest()'s fillvalue of type {fill_type} among elements of type {et}: "
                     "compiled tuples in a list must all have the same types", fill)
    fn = itertoolslib.zip_longest2 if len(leading) == 2 else itertoolslib.zip_longest3
    return builtins_lowering.call_script(cx, cx.ctx.info_for(fn), ast.Call(node.func, [fill], []), leading=leading)


def lower_islice(cx, node: ast.Call) -> Value:
    """islice(it, stop) / islice(it, start, stop[, step]): the list of the items taken,
    each computed from its index (so an endless count or cycle is walked no further); of a
    generator, walked to its stop (`_walk_islice`)."""
    if _is_generator_islice(cx, node):
        out = lists.list_of_unknown(cx, node)
        done = cx.new_block("islice.end")
        _walk_islice(cx, node, lambda x: lists.append_item(cx, out, x, node), done)
        cx.finish_join(done)
        return out
    n, item, et = cx.iterable(node.args[0])
    count, first, stop, stride = _islice_bounds(cx, node, n)
    if stop is None:
        lists.refuse_endless(cx, n, node.args[0])      # (a list of its items would be endless)
    loc = cx.loc(node)
    out = lists.new_list(cx, lists.element_type(cx, [et], node), count, node)
    lists.for_range(cx, node, count, lambda i: lists.set_item(cx, out, item(cx.emit(
        "add", [first, cx.emit("mul", [i, stride], T.I64, None, loc)], T.I64, None, loc)), i, node))
    return out


def _is_generator_islice(cx, node: ast.Call) -> bool:
    if node.keywords or not 2 <= len(node.args) <= 4:
        cx.error("islice() takes an iterable, then stop or start, stop[, step]", node)
    return generators.walks_generator(cx, node.args[0])


def _islice_bounds(cx, node: ast.Call, n: Value) -> tuple:
    """(count, start, stop or None for none, step) of islice() of an iterable of `n` items,
    with CPython's ValueError for bad bounds."""
    bounds = node.args[1:]
    if len(bounds) == 1:
        bounds = [ast.Constant(None)] + bounds
    start, stop, step = (bounds + [ast.Constant(None)])[:3]

    def bound(expr, default: int) -> Value:
        if isinstance(expr, ast.Constant) and expr.value is None:
            return Const(default, T.I64)
        return cx.coerce(cx.expr(expr), T.I64, node)

    to_end = isinstance(stop, ast.Constant) and stop.value is None
    args = (n, bound(start, 0), bound(stop, 0), bound(step, 1), Const(to_end, T.BOOL))
    count = builtins_lowering.call_script(cx, cx.ctx.info_for(itertoolslib.islice_count), ast.Call(node.func, [], []),
                                          leading=args)
    return count, args[1], None if to_end else args[2], args[3]


def _walk_islice(cx, node: ast.Call, on_item, done) -> None:
    """islice() of a generator (an endless one too), walked where it is iterated
    (generators.WALKERS): its items walked one at a time, those at start, start + step, ...
    before `stop` given to `on_item`, and no item asked for after the one at index
    max(start, stop) - 1 (CPython's islice skips to `start` first, then stops at `stop`),
    none at all when both are 0."""
    _is_generator_islice(cx, node)
    _, start, stop, step = _islice_bounds(cx, node, Const(T.I64.max, T.I64))  # (checked first, as CPython's)
    loc = cx.loc(node)
    k = cx.new_var("islice", Const(0, T.I64))
    if stop is not None:
        stop = cx.emit("max", [stop, start], T.I64, None, loc)
        generators._stop_unless(cx, cx.cmp("gt", stop, Const(0, T.I64), node), done, node)

    def each(x):
        i = cx.read(k, loc)
        off = cx.emit("sub", [i, start], T.I64, None, loc)
        take = cx.emit("and", [cx.cmp("ge", off, Const(0, T.I64), node), cx.cmp(
            "eq", cx.emit("mod", [off, step], T.I64, None, loc), Const(0, T.I64), node)], T.BOOL, None, loc)
        nxt = cx.emit("add", [i, Const(1, T.I64)], T.I64, None, loc)
        cx.write(k, nxt)
        numpy_alloc.when(cx, take, lambda: on_item(x), node)
        if stop is not None and cx.block is not None:
            generators._stop_unless(cx, cx.cmp("lt", nxt, stop, node), done, node)

    generators.walk_items(cx, node.args[0], each, done)


def _more_itertools(obj, low, node: ast.Call, name: str):
    return lower_more_itertools(low, obj, ast.unparse(node.func), node)


for _obj in (*_ENDLESS, itertools.islice, itertools.chain, itertools.pairwise, itertools.groupby,
             itertools.zip_longest):
    CALLS.register(_obj, functools.partial(_more_itertools, _obj), owner=__name__)
# a classmethod of a C type: a new object at each access, found by ==
CALLS.register(itertools.chain.from_iterable, functools.partial(_more_itertools, itertools.chain.from_iterable),
               equal=True, owner=__name__)
generators.WALKERS[itertools.islice] = _walk_islice     # islice(<generator>, ...) walked lazily
