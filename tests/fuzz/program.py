"""A whole generated program: helper functions, a `main`, and the inputs to call it with.

`generate(seed)` returns the program's source text, a self-contained module:

    import math
    import numpy as np

    def f1(n, p1, p2): ...          # helpers; a recursive one takes its depth bound first
    def main(p1, p2, a1): ...       # calls helpers, returns a tuple of its variables

    def inputs():                   # fresh arguments for each call (arrays are written to)
        return [(3, 0.5, np.array(...)), ...]

Helpers only call helpers defined before them (and themselves, with a decreasing depth), so
every program terminates; loops run at most nine times and nest three deep.
"""

from __future__ import annotations

import ast
import math
import random

from . import arrays as array_productions  # noqa: F401 - registers its productions
from . import container_stmts, strs  # noqa: F401 - register their productions
from . import exprs, stmts
from .containers import STRS, display, table
from .context import Callee, FuncCtx
from .exprs import EXPR, call, const, index, int_const, name
from .kinds import (BOOL, CONTAINERS, DTYPES, FLOAT, INT, NUM, NUMBERS, SCALARS, STR, ArrayT, DictT,
                    ListT, TupleT)
from .stmts import MAX_NEST, STMT

MAX_DEPTH = 3           # expression nesting


class Gen:
    """Draws from the production tables with one `random.Random`."""

    def __init__(self, rng: random.Random, unbound_reads: bool = False):
        self.rng = rng
        self.unbound_reads = unbound_reads
        self.approx = False         # an inexact array operation was written (see arrays.py)

    # expressions

    def expr(self, ctx: FuncCtx, t, depth: int):
        if isinstance(t, TupleT):
            return self._draw(EXPR["tuple"], ctx, depth, t) or ast.Tuple(
                [self.expr(ctx, it, depth + 1) for it in t.items], ast.Load())
        if isinstance(t, ArrayT):
            return self._draw(EXPR["array"], ctx, depth, t)
        if isinstance(t, CONTAINERS):
            if depth >= MAX_DEPTH:
                names = ctx.readable(self.rng, t)
                return name(self.rng.choice(names)) if names else display(self, ctx, depth, t)
            return self._draw(EXPR[table(t)], ctx, depth, t) or display(self, ctx, depth, t)
        if depth >= MAX_DEPTH:
            return self.leaf(ctx, t)
        return self._draw(EXPR[t], ctx, depth) or self.leaf(ctx, t)

    def _draw(self, table, ctx, depth, *extra):
        for _ in range(8):
            fn = self._pick(table)
            node = fn(self, ctx, depth, *extra)
            if node is not None:
                return node
        return None

    def _pick(self, table):
        total = sum(w for w, *_ in table)
        r = self.rng.random() * total
        for w, fn, *_ in table:
            r -= w
            if r <= 0:
                return fn
        return table[-1][1]

    def leaf(self, ctx, t):
        names = ctx.readable(self.rng, t)
        if names and self.rng.random() < 0.6:
            return name(self.rng.choice(names))
        if t == INT:
            return const(int_const(self.rng))
        if t == FLOAT:
            return const(exprs.float_const(self.rng))
        if t == STR:
            return const(self.rng.choice(STRS))
        if t == NUM:
            return self.leaf(ctx, self.rng.choice(NUMBERS))
        return const(self.rng.random() < 0.5)

    def condition(self, ctx, depth: int):
        """A test: mostly a bool, sometimes a number's truth value."""
        if self.rng.random() < 0.85:
            return self.expr(ctx, BOOL, depth)
        return self.expr(ctx, self.rng.choice(NUMBERS), depth)

    def array_index(self, ctx, a: str, axis: int, depth: int):
        """An index on `axis` of `a`: usually in bounds, sometimes negative, sometimes out."""
        rng = self.rng
        length = index(ast.Attribute(name(a), "shape", ast.Load()), const(axis)) \
            if axis or rng.random() < 0.5 else call("len", name(a))
        r = rng.random()
        loop_vars = [n for n in ctx.readable(rng, INT) if n.startswith("i")]
        if r < 0.3 and loop_vars:
            return name(rng.choice(loop_vars))
        if r < 0.55:
            return const(rng.choice((0, 0, 1, -1, -2)))
        if r < 0.8:
            # e % len: in bounds unless the axis is empty (ZeroDivisionError)
            return ast.BinOp(self.expr(ctx, INT, depth + 1), ast.Mod(), ast.BinOp(length, ast.BitOr(), const(0))
                             if rng.random() < 0.1 else length)
        if r < 0.9:
            return length if rng.random() < 0.5 else ast.UnaryOp(ast.USub(), ast.BinOp(length, ast.Add(), const(1)))
        return self.expr(ctx, INT, depth + 1)

    def slice(self, ctx, depth: int) -> ast.Slice:
        rng = self.rng

        def end():
            r = rng.random()
            if r < 0.35:
                return None
            if r < 0.75:
                return const(rng.randint(-4, 5))
            return self.expr(ctx, INT, depth + 1)
        step = const(rng.choice((1, 2, 3, -1, -2))) if rng.random() < 0.5 else None
        return ast.Slice(end(), end(), step)

    def call_expr(self, ctx: FuncCtx, t, depth: int):
        rng = self.rng
        options = [c for c in ctx.callees if c.ret == t and ctx.loop_depth + c.loop_nest <= 3]
        if ctx.recursive and ctx.ret == t and ctx.loop_depth == 0 and ctx.self_calls < 2:
            options.append("self")
        if not options:
            return None
        c = rng.choice(options)
        if c == "self":
            ctx.self_calls += 1
            args = [ast.BinOp(name(ctx.params[0][0]), ast.Sub(), const(rng.choice((1, 1, 2))))]
            params, fname = ctx.params[1:], ctx.name
        else:
            args = [exprs.bounded(self, ctx, depth, 5)] if c.recursive else []
            params, fname = (c.params[1:] if c.recursive else c.params), c.name
        for _, pt in params:
            arg = self.expr(ctx, pt, depth + 1)
            if arg is None:
                return None
            args.append(arg)
        return call(fname, *args)

    # statements

    def block(self, ctx: FuncCtx, nest: int) -> list:
        out = []
        for _ in range(self.rng.choice((1, 1, 2, 2, 3, 4) if nest < 2 else (1, 1, 2))):
            if ctx.budget <= 0:
                break
            out += self.statement(ctx, nest)
        return out or [ast.Pass()]

    def statement(self, ctx: FuncCtx, nest: int) -> list:
        table = [p for p in STMT if not p[2] or nest < MAX_NEST]
        for _ in range(8):
            fn = self._pick(table)
            ctx.budget -= 1
            out = fn(self, ctx, nest)
            if out is not None:
                return out
        return [ast.Pass()]


# ---- functions -------------------------------------------------------------------------------

PARAM_CONTAINERS = (ListT(INT), ListT(FLOAT), ListT(NUM), ListT(STR), DictT(STR, INT), STR)


def _param_type(rng, arrays):
    if arrays and rng.random() < 0.25:
        return rng.choice(arrays)
    if rng.random() < 0.25:
        return rng.choice(PARAM_CONTAINERS)
    return rng.choice((INT, INT, FLOAT, FLOAT, BOOL))


def _ret_type(rng):
    r = rng.random()
    if r < 0.25:
        return TupleT(tuple(rng.choice((INT, FLOAT)) for _ in range(2)))
    if r < 0.45:
        return rng.choice((STR, NUM, ListT(INT), ListT(NUM), ListT(STR)))
    return rng.choice((INT, FLOAT, FLOAT, INT, BOOL))


def _function(g: Gen, name_: str, params, ret, callees, recursive: bool, budget: int,
              summary: bool = False):
    ctx = FuncCtx(name_, params, ret, callees, recursive=recursive, budget=budget,
                  unbound_reads=g.unbound_reads)
    ctx.self_calls = 0
    ctx.used = set()
    # a helper never resizes the containers it is given: a caller may be iterating over one
    ctx.frozen = {t for _, t in params if isinstance(t, CONTAINERS)}
    arrays = [p for p, t in params if isinstance(t, ArrayT)]
    ctx.ret_arrays = g.rng.sample(arrays, g.rng.randint(0, len(arrays))) if summary else []
    body = []
    if recursive:
        n = params[0][0]
        ctx.self_calls = 2                  # the base case never recurses
        base = g.expr(ctx, ret, 1)
        ctx.self_calls = 0
        body.append(ast.If(ast.Compare(name(n), [ast.LtE()], [const(0)]), [ast.Return(base)], []))
    body += g.block(ctx, 0)
    while ctx.budget > 0 and g.rng.random() < 0.7:
        body += g.statement(ctx, 0)
    if summary:
        body.append(ast.Return(_summary(g, ctx)))
    else:
        body.append(ast.Return(g.expr(ctx, ret, 0)))
    args = ast.arguments([], [ast.arg(p, _annotation(t)) for p, t in params], None, [], [], None, [])
    node = ast.FunctionDef(name_, args, body, [], None)
    return node, Callee(name_, params, ret, recursive, ctx.loop_nest)


def _annotation(t):
    """A container parameter's annotation (the element type of an empty list argument, which
    compiled code cannot tell otherwise); none for the others."""
    if not isinstance(t, CONTAINERS):
        return None
    if isinstance(t, DictT):
        return ast.parse(f"dict[{t.key}, {'float' if t.value == NUM else t.value}]", mode="eval").body
    return ast.parse(f"list[{'float' if t.elem == NUM else t.elem}]", mode="eval").body


def _summary(g, ctx):
    """main's result, of its return type (a tuple of scalars): its variables where it has
    them, so that what they hold at the end is compared."""
    items = []
    for t in ctx.ret.items:
        names = [n for n in sorted(ctx.defined) if ctx.types[n] == t and n not in ctx.used]
        if names:
            n = g.rng.choice(names)
            ctx.used.add(n)
            items.append(name(n))
        else:
            items.append(g.expr(ctx, t, 1))
    # arrays made or changed here are compared too (dtype, shape, values): any array when
    # main has no other return, else main's own array parameters (the same types everywhere)
    if ctx.early_returns:
        items += [name(a) for a in ctx.ret_arrays]
    else:
        arrays = ctx.arrays()
        for _ in range(g.rng.choice((0, 1, 1, 2)) if arrays else 0):
            items.append(name(g.rng.choice(arrays)))
        # and so are its containers, strs and int|float variables (containers.py)
        values = [n for n in sorted(ctx.defined) if isinstance(ctx.types[n], CONTAINERS)
                  or ctx.types[n] in (STR, NUM) and n not in ctx.used]
        items += [name(n) for n in g.rng.sample(values, min(len(values), g.rng.choice((1, 2, 3))))]
    return ast.Tuple(items, ast.Load())


def _array_spec(rng):
    dtype = rng.choice(DTYPES)
    ndim = rng.choice((1, 1, 1, 2, 2, 3))
    layouts = ["C", "C", "strided", "reversed"] + (["F", "T"] if ndim > 1 else [])
    return dtype, ndim, rng.choice(layouts)


def _array_value(rng, dtype: str, ndim: int, layout: str):
    shape = [rng.choice((0, 1, 2, 3, 3, 4, 5)) if rng.random() < 0.1 else rng.choice((1, 2, 3, 4, 5))
             for _ in range(ndim)]
    base_shape = list(shape)
    if layout == "strided":
        base_shape[0] *= 2
    elif layout == "T":
        base_shape.reverse()
    n = math.prod(base_shape)
    if dtype == "bool":
        values = [rng.random() < 0.5 for _ in range(n)]
    elif dtype.startswith("float"):
        values = [rng.choice((0.0, -0.0, 1.5, -2.25, 3.0, 0.1, 7.0, math.nan, math.inf, -math.inf))
                  if rng.random() < 0.2 else float(rng.randint(-9, 9)) / rng.choice((1, 2, 4))
                  for _ in range(n)]
    else:
        lo = 0 if dtype.startswith("u") else -9
        values = [rng.randint(lo, 9) for _ in range(n)]
    node = call("np.array", ast.List([const(v) for v in values], ast.Load()))
    node.keywords = [ast.keyword("dtype", ast.Attribute(name("np"), dtype if dtype != "bool" else "bool_", ast.Load()))]
    node = ast.Call(ast.Attribute(node, "reshape", ast.Load()),
                    [ast.Tuple([const(d) for d in base_shape], ast.Load())], [])
    if layout == "F":
        return call("np.asfortranarray", node)
    if layout == "strided":
        return index(node, ast.Slice(None, None, const(2)))
    if layout == "reversed":
        return index(node, ast.Slice(None, None, const(-1)))
    if layout == "T":
        return ast.Attribute(node, "T", ast.Load())
    return node


def _scalar_value(rng, t):
    if t == INT:
        return const(rng.choice((0, 1, -1, 2, 3, 5, -7, 10, 100, -100, 2**31, -2**40))
                     if rng.random() < 0.7 else rng.randint(-20, 20))
    if t == FLOAT:
        return const(rng.choice(exprs.FLOAT_CONSTS) if rng.random() < 0.5
                     else round(rng.uniform(-20, 20), rng.choice((0, 2, 17))))
    return const(rng.random() < 0.5)


def _container_value(rng, t):
    """An argument of a container type (or a str): lists, strs and dicts from Python, which
    compiled code writes back to the caller."""
    if t == STR:
        return const(rng.choice(STRS))
    n = rng.choice((0, 1, 2, 3, 4, 5))
    if isinstance(t, DictT):
        keys = rng.sample(("a", "b", "c", "ab", "x", ""), n)
        return ast.Dict([const(k) for k in keys], [_scalar_value(rng, INT) for _ in keys])
    elem = t.elem
    if elem == STR:
        return ast.List([const(rng.choice(STRS)) for _ in range(n)], ast.Load())
    if elem == NUM:
        return ast.List([_scalar_value(rng, rng.choice(NUMBERS)) for _ in range(n)], ast.Load())
    return ast.List([_scalar_value(rng, elem) for _ in range(n)], ast.Load())


def generate(seed, n_inputs: int = 3, unbound_reads: bool = False) -> str:
    """The source of the program drawn from `seed` (any hashable; the same seed gives the
    same program). With `unbound_reads`, a few reads are of variables assigned on some paths
    only (UnboundLocalError at run time): off by default while the frontend's open bugs on
    such reads (tests/fuzz/known/) are not fixed."""
    rng = random.Random(str(seed))
    g = Gen(rng, unbound_reads)
    array_specs = [_array_spec(rng) for _ in range(rng.choice((0, 0, 1, 1, 2)))]
    arrays = [ArrayT(d, n) for d, n, _ in array_specs]
    main_params = [(f"p{k}", rng.choice((INT, INT, FLOAT, FLOAT, BOOL)))
                   for k in range(rng.choice((1, 2, 2, 3, 3)))]
    main_params += [(f"a{k}", t) for k, t in enumerate(arrays)]
    main_params += [(f"s{k}", rng.choice(PARAM_CONTAINERS)) for k in range(rng.choice((0, 0, 1, 2)))]
    functions, callees = [], []
    for k in range(rng.choice((0, 1, 1, 2, 3))):
        recursive = rng.random() < 0.3
        params = [(f"q{j}", _param_type(rng, arrays)) for j in range(rng.choice((1, 2, 3)))]
        if recursive:
            params = [("n", INT)] + params
        node, callee = _function(g, f"f{k + 1}", params, _ret_type(rng), list(callees),
                                 recursive, budget=rng.randint(3, 10))
        functions.append(node)
        callees.append(callee)
    ret = TupleT(tuple(rng.choice(SCALARS + (STR, NUM)) for _ in range(rng.randint(2, 6))))
    node, _ = _function(g, "main", main_params, ret, callees, False, budget=rng.randint(8, 26),
                        summary=True)
    functions.append(node)
    rows = []
    for _ in range(n_inputs):
        args = []
        for (pname, t) in main_params:
            if isinstance(t, ArrayT):
                spec = array_specs[int(pname[1:])]
                args.append(_array_value(rng, *spec))
            elif isinstance(t, CONTAINERS) or t == STR:
                args.append(_container_value(rng, t))
            else:
                args.append(_scalar_value(rng, t))
        rows.append(ast.Tuple(args, ast.Load()))
    inputs = ast.FunctionDef("inputs", ast.arguments([], [], None, [], [], None, []),
                             [ast.Return(ast.List(rows, ast.Load()))], [], None)
    header = [ast.Import([ast.alias("math")]), ast.Import([ast.alias("numpy", "np")])]
    if g.approx:
        # floats from exp/log/tanh, BLAS products and sums in another order: compared
        # within a few ulps (runner.py)
        header.append(ast.Assign([ast.Name("APPROX", ast.Store())], ast.Constant(True)))
    module = ast.Module([*header, *functions, inputs], [])
    ast.fix_missing_locations(module)
    return ast.unparse(module) + "\n"
