"""The functions of the `operator` module: `operator.add(a, b)` is `a + b`, `operator.lt(a,
b)` is `a < b`, `operator.not_(a)` is `not a`, `operator.getitem(a, i)` is `a[i]` ...

Each call is lowered as the expression it stands for, built from the call's own argument
nodes (so each is evaluated once, in order, with the expression's meaning and errors); the
functions reach compiled code called by name, held in a local (held_functions.py), in a
dispatch table, or passed as an argument (`functools.reduce(operator.mul, xs, 1)`).
"""

from __future__ import annotations

import ast
import operator

from script.frontend.pyref import PyRef
from script.frontend.registry import CALLS

_BINARY = {operator.add: ast.Add, operator.concat: ast.Add, operator.sub: ast.Sub, operator.mul: ast.Mult,
           operator.truediv: ast.Div, operator.floordiv: ast.FloorDiv, operator.mod: ast.Mod,
           operator.pow: ast.Pow, operator.lshift: ast.LShift, operator.rshift: ast.RShift,
           operator.and_: ast.BitAnd, operator.or_: ast.BitOr, operator.xor: ast.BitXor,
           operator.matmul: ast.MatMult}
_COMPARE = {operator.lt: ast.Lt, operator.le: ast.LtE, operator.eq: ast.Eq, operator.ne: ast.NotEq,
            operator.ge: ast.GtE, operator.gt: ast.Gt, operator.is_: ast.Is, operator.is_not: ast.IsNot}
_UNARY = {operator.neg: ast.USub, operator.pos: ast.UAdd, operator.invert: ast.Invert,
          operator.inv: ast.Invert, operator.not_: ast.Not}
_BUILTIN = {operator.abs: abs, operator.truth: bool, operator.index: int}


def _expression(fn, args: list) -> ast.expr:
    if fn in _BINARY:
        return ast.BinOp(args[0], _BINARY[fn](), args[1])
    if fn in _COMPARE:
        return ast.Compare(args[0], [_COMPARE[fn]()], [args[1]])
    if fn is operator.contains:
        return ast.Compare(args[1], [ast.In()], [args[0]])
    if fn in _UNARY:
        return ast.UnaryOp(_UNARY[fn](), args[0])
    if fn is operator.getitem:
        return ast.Subscript(args[0], args[1], ast.Load())
    return ast.Call(ast.Name(f"operator.{fn.__name__}", ast.Load()), args, [])


def _arity(fn) -> int:
    return 2 if fn in _BINARY or fn in _COMPARE or fn in (operator.contains, operator.getitem) else 1


def _lower(fn, low, node: ast.Call, name: str):
    n = _arity(fn)
    if node.keywords or len(node.args) != n or any(isinstance(a, ast.Starred) for a in node.args):
        low.error(f"operator.{fn.__name__}() takes {n} positional argument{'s' if n > 1 else ''} "
                  f"in compiled code", node)
    made = low.info.__dict__.setdefault("_operator_calls", {})
    expr = made.get(id(node))
    if expr is None:
        expr = made[id(node)] = ast.fix_missing_locations(ast.copy_location(_expression(fn, list(node.args)), node))
        made[("node", id(node))] = node         # (kept alive: the cache is keyed by its id)
    if fn in _BUILTIN:
        low.pre_evaluated[id(expr.func)] = PyRef(_BUILTIN[fn], _BUILTIN[fn].__name__)
    return low.expr(expr)


for _fn in (*_BINARY, *_COMPARE, *_UNARY, *_BUILTIN, operator.contains, operator.getitem):
    CALLS.register(_fn, lambda low, node, name, fn=_fn: _lower(fn, low, node, name), owner=__name__)
