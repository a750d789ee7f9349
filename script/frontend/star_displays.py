"""Unpacking in displays: `[*a, *b, x]`, `{*xs, *ys}`, `(*t, 1)` and `{**a, **b, k: v}`.

A list or set display with `*x` is built element by element, in CPython's order: each
`*x` adds what iterating `x` gives (anything a `for` takes: a list, tuple, str, range, dict's
keys, a generator), each other element its value. A tuple's length is part of its type, so
`*t` in a tuple display must be a tuple. `**d` in a dict display must be a dict (CPython's
TypeError "'list' object is not a mapping" otherwise, here when compiling) and adds its
items in order, later keys replacing earlier ones' values (in the first key's place).
"""

from __future__ import annotations

import ast

from script.ir import types as T
from script.ir.core import Value
from script.frontend import optional


def has_star(elts) -> bool:
    return any(isinstance(e, ast.Starred) for e in elts)


def starred_list(cx, node: ast.List) -> Value:
    lst = cx.list_of_unknown(node)
    for e in node.elts:
        if isinstance(e, ast.Starred):
            cx.extend_list(lst, e.value, e)
        else:
            cx.append_item(lst, cx.expr_num(e), e)       # (a list holds an int|float whole)
    return lst


def starred_set(cx, node: ast.Set) -> Value:
    s = cx.new_table(cx.table_type(node, True), node)
    for e in node.elts:
        if isinstance(e, ast.Starred):
            cx.update_from(s, e.value, e)
        else:
            cx.table_store(s, cx.expr(e), None, e)
    return s


def starred_tuple(cx, node: ast.Tuple) -> Value:
    elems = []
    for e in node.elts:
        if not isinstance(e, ast.Starred):
            elems.append(optional.expr_opt(cx, e, num=True))
            continue
        t = cx.expr(e.value)
        if not isinstance(t.type, T.TupleType):
            cx.error(f"*{ast.unparse(e.value)} in a tuple display must be a tuple in compiled code (the "
                     f"tuple's length is part of its type), not {t.type}; use a list", e)
        elems += [cx.emit("extract", [t], et, k, cx.loc(e)) for k, et in enumerate(t.type.elems)]
    return cx.make_tuple(elems, node)


def starred_dict(cx, node: ast.Dict) -> Value:
    d = cx.new_table(cx.table_type(node, False), node)
    for k, v in zip(node.keys, node.values):
        if k is not None:
            cx.table_store(d, cx.expr(k), cx.expr(v), v)
            continue
        src = cx.expr(v)
        if not isinstance(src.type, T.DictType):
            cx.error(f"'{ast.unparse(v)}' in a dict display must be a dict ('**' of a value of type "
                     f"{src.type}: CPython raises TypeError, it is not a mapping)", v)
        n, item, _ = cx.table_iterable(src, "items", v)
        loc = cx.loc(v)

        def put(i):
            pair = item(i)
            cx.table_store(d, cx.emit("extract", [pair], pair.type.elems[0], 0, loc),
                              cx.emit("extract", [pair], pair.type.elems[1], 1, loc), v)

        cx.for_range(v, n, put)
    return d
