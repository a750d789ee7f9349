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


def has_star(elts) -> bool:
    return any(isinstance(e, ast.Starred) for e in elts)


class StarDisplays:
    """Mixin for `FunctionLowering`."""

    def starred_list(self, node: ast.List) -> Value:
        lst = self.list_of_unknown(node)
        for e in node.elts:
            if isinstance(e, ast.Starred):
                self.extend_list(lst, e.value, e)
            else:
                self.append_item(lst, self.expr(e), e)
        return lst

    def starred_set(self, node: ast.Set) -> Value:
        s = self.new_table(self.table_type(node, True), node)
        for e in node.elts:
            if isinstance(e, ast.Starred):
                self.update_from(s, e.value, e)
            else:
                self.table_store(s, self.expr(e), None, e)
        return s

    def starred_tuple(self, node: ast.Tuple) -> Value:
        elems = []
        for e in node.elts:
            if not isinstance(e, ast.Starred):
                elems.append(self.expr_opt(e))
                continue
            t = self.expr(e.value)
            if not isinstance(t.type, T.TupleType):
                self.error(f"*{ast.unparse(e.value)} in a tuple display must be a tuple in compiled code (the "
                           f"tuple's length is part of its type), not {t.type}; use a list", e)
            elems += [self.emit("extract", [t], et, k, self.loc(e)) for k, et in enumerate(t.type.elems)]
        return self.make_tuple(elems, node)

    def starred_dict(self, node: ast.Dict) -> Value:
        d = self.new_table(self.table_type(node, False), node)
        for k, v in zip(node.keys, node.values):
            if k is not None:
                self.table_store(d, self.expr(k), self.expr(v), v)
                continue
            src = self.expr(v)
            if not isinstance(src.type, T.DictType):
                self.error(f"'{ast.unparse(v)}' in a dict display must be a dict ('**' of a value of type "
                           f"{src.type}: CPython raises TypeError, it is not a mapping)", v)
            n, item, _ = self.table_iterable(src, "items", v)
            loc = self.loc(v)

            def put(i):
                pair = item(i)
                self.table_store(d, self.emit("extract", [pair], pair.type.elems[0], 0, loc),
                                 self.emit("extract", [pair], pair.type.elems[1], 1, loc), v)

            self.for_range(v, n, put)
        return d
