"""Statement productions for containers, strs and int|float variables: new variables,
methods that change a list, dict or set (append, extend, insert, pop, remove, sort, reverse,
clear; setdefault, update, pop, del; add, discard, remove, `|=`), item and slice stores,
`+=`, and loops over them (`for x in xs`, `enumerate`, `zip`, `reversed`, `sorted`,
`d.items()`, a set, a str's characters).

A loop over a container freezes its type (`ctx.frozen`) in the body: nothing there changes
the size of a container of that type (see containers.py)."""

from __future__ import annotations

import ast

from .container_reads import seq_index
from .containers import (MAX_LEN, container_type, cut, key_expr, method, needle, sort_keywords)
from .exprs import bounded, const, index, name
from .kinds import FLOAT, INT, NUM, STR, DictT, ListT, SetT, TupleT
from .stmts import _loop, production, store


def _expr_stmt(node) -> list:
    return [ast.Expr(node)]


@production(4)
def assign_container(g, ctx, nest):
    """`v = <list/dict/set/str/int|float expression>` to a new variable, or again to one."""
    rng = g.rng
    r = rng.random()
    t = container_type(rng) if r < 0.6 else (STR if r < 0.85 else NUM)
    olds = [n for n in ctx.readable(rng, t) if n.startswith("v")]
    if olds and rng.random() < 0.3:
        n = rng.choice(olds)
    else:
        n = None
    value = g.expr(ctx, t, 0)
    if isinstance(t, ListT) or t == STR:
        value = cut(ctx, value, MAX_LEN if t != STR else 16)
    if n is None:
        n = ctx.fresh("v", t)
        ctx.defined.add(n)
    out = [ast.Assign([store(n)], value)]
    change = {ListT: list_change, DictT: dict_change, SetT: set_change}.get(type(t))
    # then, often, changed at once (`xs = []` then `xs.append(..)`)
    for _ in range(rng.choice((0, 1, 1, 2, 3)) if change else 0):
        out += change(g, ctx, nest, n) or []
    return out


def _mine(ctx, cls, resizing: bool = True) -> list:
    """Variables of containers of class `cls` that may change (size too with `resizing`)."""
    return [n for n in sorted(ctx.defined) if isinstance(ctx.types[n], cls)
            and (not resizing or ctx.resizable(ctx.types[n]))]


def _items(g, ctx, t):
    """At most three items of list type `t`: what `extend` and `+=` add."""
    return index(g.expr(ctx, t, 1), ast.Slice(None, const(3), None))


@production(6)
def list_change(g, ctx, nest, n=None):
    rng = g.rng
    names = _mine(ctx, ListT, resizing=False)
    if not names:
        return None
    n = n or rng.choice(names)
    t = ctx.types[n]
    xs = name(n)
    kind = rng.choice(("append", "append", "extend", "insert", "pop", "remove", "sort", "reverse",
                       "clear", "setitem", "setitem", "setslice", "del", "iadd", "nested"))
    if not ctx.resizable(t) and kind not in ("sort", "reverse", "setitem"):
        kind = "setitem"
    if kind == "append":
        return _expr_stmt(method(xs, "append", g.expr(ctx, t.elem, 0)))
    if kind == "extend":
        return _expr_stmt(method(xs, "extend", _items(g, ctx, t)))
    if kind == "insert":
        return _expr_stmt(method(xs, "insert", seq_index(g, ctx, xs, 0), g.expr(ctx, t.elem, 0)))
    if kind == "pop":
        return _expr_stmt(method(xs, "pop", *([seq_index(g, ctx, xs, 0)] if rng.random() < 0.5 else [])))
    if kind == "remove":
        return _expr_stmt(method(xs, "remove", needle(g, ctx, 0, t.elem)))
    if kind == "sort":
        node = method(xs, "sort", **sort_keywords(rng, t.elem))
        return _expr_stmt(node)
    if kind in ("reverse", "clear"):
        return _expr_stmt(method(xs, kind))
    if kind == "setslice":
        target = index(xs, ast.Slice(*(const(rng.randint(-3, 4)) if rng.random() < 0.6 else None
                                       for _ in range(2)), None))
        target.ctx = ast.Store()
        return [ast.Assign([target], _items(g, ctx, t))]
    if kind == "del":
        target = index(xs, seq_index(g, ctx, xs, 0) if rng.random() < 0.7 else g.slice(ctx, 0))
        target.ctx = ast.Del()
        return [ast.Delete([target])]
    if kind == "iadd":
        return [ast.AugAssign(store(n), ast.Add(), _items(g, ctx, t))]
    if kind == "nested" and isinstance(t.elem, ListT):
        row = index(xs, seq_index(g, ctx, xs, 0))
        return _expr_stmt(method(row, "append", g.expr(ctx, t.elem.elem, 0)))
    target = index(xs, seq_index(g, ctx, xs, 0))
    target.ctx = ast.Store()
    if t.elem in (INT, FLOAT, NUM) and rng.random() < 0.3:
        value = g.expr(ctx, INT if t.elem == INT else NUM if t.elem == NUM else FLOAT, 0)
        return [ast.AugAssign(target, rng.choice((ast.Add, ast.Sub, ast.Mult))(), value)]
    return [ast.Assign([target], g.expr(ctx, t.elem, 0))]


@production(4)
def dict_change(g, ctx, nest, n=None):
    rng = g.rng
    names = _mine(ctx, DictT, resizing=False)
    if not names:
        return None
    n = n or rng.choice(names)
    t = ctx.types[n]
    d = name(n)
    k = key_expr(g, ctx, 0, t.key)
    kind = rng.choice(("set", "set", "aug", "setdefault", "update", "pop", "del", "clear", "append"))
    if not ctx.resizable(t):
        kind = "aug"
    target = index(d, k)
    if kind == "aug" and t.value in (INT, FLOAT, NUM):
        target.ctx = ast.Store()
        value = g.expr(ctx, {INT: INT, FLOAT: FLOAT, NUM: NUM}[t.value], 0)
        return [ast.AugAssign(target, rng.choice((ast.Add, ast.Sub, ast.Mult))(), value)]
    if kind in ("aug", "append") and isinstance(t.value, ListT):
        if kind == "aug" or rng.random() < 0.5:
            return _expr_stmt(method(target, "append", g.expr(ctx, t.value.elem, 0)))
        default = ast.List([], ast.Load())
        return _expr_stmt(method(method(d, "setdefault", k, default), "append", g.expr(ctx, t.value.elem, 0)))
    if not ctx.resizable(t):
        return None
    if kind == "setdefault":
        return _expr_stmt(method(d, "setdefault", k, g.expr(ctx, t.value, 0)))
    if kind == "update":
        return _expr_stmt(method(d, "update", g.expr(ctx, t, 1)))
    if kind == "pop":
        args = [k] + ([g.expr(ctx, t.value, 0)] if rng.random() < 0.5 else [])
        return _expr_stmt(method(d, "pop", *args))
    if kind == "del":
        target.ctx = ast.Del()
        return [ast.Delete([target])]
    if kind == "clear":
        return _expr_stmt(method(d, "clear"))
    target.ctx = ast.Store()
    return [ast.Assign([target], g.expr(ctx, t.value, 0))]


@production(2.5)
def set_change(g, ctx, nest, n=None):
    rng = g.rng
    names = _mine(ctx, SetT)
    if n is None and not names or n is not None and n not in names:
        return None
    n = n or rng.choice(names)
    t = ctx.types[n]
    kind = rng.choice(("add", "add", "discard", "remove", "ior", "iand", "isub", "update", "clear"))
    if kind in ("add", "discard", "remove"):
        return _expr_stmt(method(name(n), kind, key_expr(g, ctx, 0, t.elem)))
    if kind == "update":
        return _expr_stmt(method(name(n), "update", g.expr(ctx, ListT(t.elem), 0)))
    if kind == "clear":
        return _expr_stmt(method(name(n), "clear"))
    op = {"ior": ast.BitOr, "iand": ast.BitAnd, "isub": ast.Sub}[kind]()
    return [ast.AugAssign(store(n), op, g.expr(ctx, t, 0))]


@production(2)
def grow_value(g, ctx, nest):
    """`s += t` of a str, `v += x` of an int|float (an int or a float added)."""
    rng = g.rng
    names = [n for n in sorted(ctx.defined) if ctx.types[n] in (STR, NUM) and n.startswith("v")]
    if not names:
        return None
    n = rng.choice(names)
    if ctx.types[n] == STR:
        if ctx.loop_depth:
            value = cut(ctx, ast.BinOp(name(n), ast.Add(), g.expr(ctx, STR, 0)), 16)
            return [ast.Assign([store(n)], value)]
        return [ast.AugAssign(store(n), ast.Add(), g.expr(ctx, STR, 0))]
    op = rng.choice((ast.Add, ast.Sub, ast.Mult))()
    return [ast.AugAssign(store(n), op, g.expr(ctx, rng.choice((INT, FLOAT, NUM)), 0))]


def _frozen_loop(g, ctx, nest, frozen, targets, target_node, iterable):
    """A loop whose body may not resize containers of the types in `frozen`."""
    added = set(frozen) - ctx.frozen
    ctx.frozen |= added
    try:
        return _loop(g, ctx, nest, targets, target_node, iterable)
    finally:
        ctx.frozen -= added


def _bounded_iter(ctx, node):
    """Inside another loop, the first five items only (loops nest three deep)."""
    return index(node, ast.Slice(None, const(5), None)) if ctx.loop_depth else node


@production(3, compound=True)
def for_container(g, ctx, nest):
    rng = g.rng
    names = [n for n in sorted(ctx.defined) if isinstance(ctx.types[n], (ListT, DictT, SetT))
             or ctx.types[n] == STR]
    if not names:
        return None
    n = rng.choice(names)
    t = ctx.types[n]
    src = name(n)
    frozen = {t} if t != STR else set()
    if isinstance(t, ListT):
        r = rng.random()
        if r < 0.15:
            src = ast.Call(name("reversed"), [src], [])
        elif r < 0.25:
            src = ast.Call(name("sorted"), [src], [ast.keyword(k, v) for k, v in sort_keywords(rng, t.elem).items()])
        src = _bounded_iter(ctx, src) if r >= 0.15 else (src if not ctx.loop_depth else
                                                          _bounded_iter(ctx, ast.Call(name("list"), [src], [])))
        return _elements(g, ctx, nest, frozen, t.elem, src)
    if t == STR:
        return _elements(g, ctx, nest, frozen, STR, _bounded_iter(ctx, src))
    if isinstance(t, SetT):
        return _elements(g, ctx, nest, frozen, t.elem, src if not ctx.loop_depth else
                         _bounded_iter(ctx, ast.Call(name("sorted"), [src], [])))
    kind = rng.choice(("keys", "items", "values"))
    if kind == "keys":
        return _elements(g, ctx, nest, frozen, t.key, src)
    if kind == "values":
        return _elements(g, ctx, nest, frozen, t.value, method(src, "values"))
    k, v = ctx.fresh("x", t.key), ctx.fresh("x", t.value)
    target = ast.Tuple([store(k), store(v)], ast.Store())
    return _frozen_loop(g, ctx, nest, frozen, [k, v], target, method(src, "items"))


def _elements(g, ctx, nest, frozen, elem, src):
    """`for x in src`, `for i, x in enumerate(src)` or `for x, y in zip(src, other)`."""
    rng = g.rng
    r = rng.random()
    x = ctx.fresh("x", elem)
    if r < 0.6:
        if isinstance(elem, TupleT) and rng.random() < 0.5:
            parts = [ctx.fresh("x", it) for it in elem.items]
            target = ast.Tuple([store(p) for p in parts], ast.Store())
            return _frozen_loop(g, ctx, nest, frozen, parts, target, src)
        return _frozen_loop(g, ctx, nest, frozen, [x], store(x), src)
    i = ctx.fresh("i", INT)
    if r < 0.85:
        args = [src] + ([const(rng.choice((1, -2)))] if rng.random() < 0.3 else [])
        target = ast.Tuple([store(i), store(x)], ast.Store())
        return _frozen_loop(g, ctx, nest, frozen, [i, x], target, ast.Call(name("enumerate"), args, []))
    other_t = ListT(rng.choice((INT, STR, FLOAT)))
    other = g.expr(ctx, other_t, 1)
    y = ctx.fresh("x", other_t.elem)
    target = ast.Tuple([store(x), store(y)], ast.Store())
    return _frozen_loop(g, ctx, nest, frozen | {other_t}, [x, y], target,
                        ast.Call(name("zip"), [src, other], []))


__all__ = ["assign_container", "bounded", "FLOAT"]
