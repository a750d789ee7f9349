"""Recursive generators (`yield from` of the generator itself: a tree's ``__iter__`` with
``yield from self.left``), where every item is taken at once with nothing else done per item.

A generator is inlined where it is iterated (generators.py), so one that iterates itself
would be inlined forever. Where its consumer takes every item and does nothing CPython
could show between two of them (list(), sorted(), set(), str.join(), sum(), min(), max() of
the generator itself, or of a generator expression whose parts only read names and
constants: `sum(1 for _ in self)`), running the recursive part to its end at the `yield
from` gives CPython's answer: its items, its side effects in their order, and an exception
it raises (the consumer has done nothing visible before it). There the recursive part's
items are the list a compiled function returns: the generator's body with each `yield v`
appending `v` to that list and each `yield from xs` extending it by list(xs) (`ItemsInfo`), and that
function calls itself where the generator recursed. Elsewhere (a `for` loop, next(),
any(), `x in gen`, a held generator) compiled code would have to suspend a recursion
between two items: a CompileError at the line.

`total` (generators.walk_items) says whether the walk being built is one of those; a `yield
from` inherits its generator's, and every other walk sets its own.
"""

from __future__ import annotations

import ast
import copy

from script.frontend.source import FunctionInfo, _assigned_names

_ITEMS = "$items"


def refuse(cx, info, call) -> None:
    cx.error(f"recursive generator '{info.name}' (it iterates itself) is supported in compiled code "
             "only where all its items are taken at once with nothing else done per item (list(), "
             "sorted(), set(), str.join(), sum(), min(), max() of it, or of a generator expression "
             "reading only names and constants: sum(1 for _ in self)); here they are taken one at a "
             "time (a for loop, next(), any(), in, a comprehension doing more), which would need the "
             "recursion suspended between two items", call)


def items(cx, info, call, params: dict, given_function: bool):
    """The list of the items the generator `info` gives with parameters `params` (values
    by name, its parameters' order; `given_function`: one is a function, generators.FunctionArg),
    from a call of its `ItemsInfo` function."""
    if getattr(info, "outer", None) is not None:        # (its twin would be built from the outer function)
        cx.error(f"recursive generator '{info.name}' defined inside a function is not supported in compiled "
                 "code (define it at module level)", call)
    if getattr(info, "free", None) or given_function:
        cx.error(f"recursive generator '{info.name}' reading the variables of its enclosing function, or "
                 "given a function, is not supported in compiled code", call)
    twin = info.__dict__.get("_items_info")
    if twin is None:
        twin = info.__dict__["_items_info"] = ItemsInfo(info)
    fake = ast.copy_location(ast.Call(func=ast.Name("$items", ast.Load()), args=[], keywords=[]), call)
    return cx.call_script(twin, fake, leading=[params[p] for p in info.param_names])


class ItemsInfo(FunctionInfo):
    """Generator function `info` as the function returning the list of its items."""

    def __init__(self, info):
        super().__init__(info.py_func)
        node = copy.deepcopy(self.node)
        body = _ToList().visit(ast.Module(node.body, [])).body
        start = ast.Assign([ast.Name(_ITEMS, ast.Store())], ast.List([], ast.Load()))
        node.body = [start] + body + [ast.Return(ast.Name(_ITEMS, ast.Load()))]
        for n in ast.walk(node):
            if not hasattr(n, "lineno") and not isinstance(n, (ast.expr_context, ast.operator, ast.Module)):
                ast.copy_location(n, node)
        node.returns = None
        self.node = node
        self.local_names = frozenset(_assigned_names(node)) | frozenset(self.param_names)
        self.name = f"{self.name} (items)"


class _ToList(ast.NodeTransformer):
    """`yield v` -> `$items.append(v)`, `yield from xs` -> `$items.extend(list(xs))`, `return v`
    -> `v; return $items` (outside nested functions and lambdas)."""

    def visit_FunctionDef(self, node):
        return node

    def visit_Lambda(self, node):
        return node

    def visit_Expr(self, node):
        v = node.value
        if isinstance(v, (ast.Yield, ast.YieldFrom)):
            what = "append" if isinstance(v, ast.Yield) else "extend"
            arg = v.value if v.value is not None else ast.Constant(None)
            if what == "extend":         # (list() takes all at once: the recursion is run so)
                arg = ast.copy_location(ast.Call(ast.Name("list", ast.Load()), [arg], []), arg)
            call = ast.Call(ast.Attribute(ast.Name(_ITEMS, ast.Load()), what, ast.Load()), [arg], [])
            return ast.copy_location(ast.Expr(ast.copy_location(call, v)), node)
        return node

    def visit_Return(self, node):
        out = ast.copy_location(ast.Return(ast.Name(_ITEMS, ast.Load())), node)
        return out if node.value is None else [ast.copy_location(ast.Expr(node.value), node), out]
