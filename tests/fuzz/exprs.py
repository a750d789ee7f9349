"""Expression productions: for each type, weighted functions that write a random expression
of that type as a Python `ast` node.

A production is `fn(gen, ctx, depth) -> ast.expr | None`; None means "not possible here"
(no variable of that type, no array in scope) and the generator draws another. New kinds of
expression (array allocation, element-wise array arithmetic, reductions with an axis) are
added as productions of `ArrayT` / scalar types with `production(...)`, nothing else changes.

Ints stay small on purpose: divisors are often forced non-zero, shift counts and exponents
bounded, so that few programs overflow int64 (the reference run discards those that do,
see reference.py).
"""

from __future__ import annotations

import ast
import math

from .kinds import BOOL, DTYPES, FLOAT, INT, NUMBERS, ArrayT, Elem, TupleT, elem_kind

EXPR: dict = {INT: [], FLOAT: [], BOOL: [], "tuple": [], "array": []}


def production(kind, weight: float):
    def register(fn):
        EXPR[kind].append((weight, fn))
        return fn
    return register


# ---- ast helpers -----------------------------------------------------------------------

def name(n: str) -> ast.Name:
    return ast.Name(n, ast.Load())


def const(v) -> ast.expr:
    """A literal; negative numbers as unary minus (so `(-3) ** 2` prints with parentheses),
    infinities and NaN as `math.inf` / `math.nan`."""
    if isinstance(v, (bool, str)):
        return ast.Constant(v)
    if isinstance(v, float) and math.isnan(v):
        return ast.Attribute(name("math"), "nan", ast.Load())
    if isinstance(v, float) and math.isinf(v):
        node = ast.Attribute(name("math"), "inf", ast.Load())
        return node if v > 0 else ast.UnaryOp(ast.USub(), node)
    if v < 0 or (isinstance(v, float) and math.copysign(1.0, v) < 0):
        return ast.UnaryOp(ast.USub(), ast.Constant(-v))
    return ast.Constant(v)


def call(fn: str, *args) -> ast.Call:
    if "." in fn:
        mod, attr = fn.split(".")
        func = ast.Attribute(name(mod), attr, ast.Load())
    else:
        func = name(fn)
    return ast.Call(func, list(args), [])


def binop(a, op, b) -> ast.BinOp:
    return ast.BinOp(a, op, b)


def index(base, *idx) -> ast.Subscript:
    sl = idx[0] if len(idx) == 1 else ast.Tuple(list(idx), ast.Load())
    return ast.Subscript(base, sl, ast.Load())


def read_elem(node, dtype: str):
    """An array element as the Python scalar it converts to."""
    return call({INT: "int", FLOAT: "float", BOOL: "bool"}[elem_kind(dtype)], node)


INT_CONSTS = (0, 1, -1, 2, 3, 5, 7, -8, 10, 13, 100, -100, 255)
RARE_INTS = (2**31 - 1, -2**31, 2**40, -2**53, 2**62, 12345678901)
FLOAT_CONSTS = (0.0, -0.0, 0.5, 1.0, -1.0, 2.0, -2.5, 3.25, 0.1, 10.0, 1e-300, 1e300, 1e308,
                math.inf, -math.inf, math.nan)


def int_const(rng) -> int:
    r = rng.random()
    if r < 0.6:
        return rng.choice(INT_CONSTS)
    if r < 0.97:
        return rng.randint(-20, 20)
    return rng.choice(RARE_INTS)


def float_const(rng) -> float:
    if rng.random() < 0.7:
        return rng.choice(FLOAT_CONSTS)
    return round(rng.uniform(-50, 50), rng.choice((0, 1, 3, 17)))


# ---- leaves --------------------------------------------------------------------------------

@production(INT, 3)
def int_literal(g, ctx, depth):
    return const(int_const(g.rng))


@production(FLOAT, 2)
def float_literal(g, ctx, depth):
    return const(float_const(g.rng))


@production(BOOL, 1)
def bool_literal(g, ctx, depth):
    return const(g.rng.random() < 0.5)


def _variable(t):
    def fn(g, ctx, depth):
        names = ctx.readable(g.rng, t)
        return name(g.rng.choice(names)) if names else None
    return fn


for _t, _w in ((INT, 6), (FLOAT, 5), (BOOL, 2)):
    production(_t, _w)(_variable(_t))


def _element_var(t):
    def fn(g, ctx, depth):
        names = [n for n in ctx.elems() if elem_kind(ctx.types[n].dtype) == t]
        if not names:
            return None
        n = g.rng.choice(names)
        return read_elem(name(n), ctx.types[n].dtype)
    return fn


for _t in (INT, FLOAT, BOOL):
    production(_t, 2)(_element_var(_t))


# ---- int ---------------------------------------------------------------------------------

INT_OPS = (ast.Add, ast.Sub, ast.Mult, ast.FloorDiv, ast.Mod, ast.BitAnd, ast.BitOr, ast.BitXor,
           ast.LShift, ast.RShift, ast.Pow)


def divisor(g, ctx, t, depth):
    """Often non-zero by construction, sometimes any value (division by zero is tested)."""
    rng = g.rng
    r = rng.random()
    e = g.expr(ctx, t, depth + 1)
    if r < 0.35:
        return e
    if t == INT:
        if r < 0.6:
            return binop(e, ast.BitOr(), const(1))
        if r < 0.8:
            return call("max", e, const(rng.choice((1, 2, 3))))
        return const(rng.choice((1, 2, 3, 7, -1, -2, -3, -7, 10)))
    if r < 0.7:
        return binop(call("abs", e), ast.Add(), const(0.5))
    return const(rng.choice((0.5, 2.0, -1.5, 3.0, -0.25, math.inf)))


def bounded(g, ctx, depth, modulus: int):
    """An int in [0, modulus): `e % modulus`, or a constant."""
    if g.rng.random() < 0.4:
        return const(g.rng.randrange(modulus))
    return binop(g.expr(ctx, INT, depth + 1), ast.Mod(), const(modulus))


@production(INT, 8)
def int_binop(g, ctx, depth):
    op = g.rng.choice(INT_OPS)()
    a = g.expr(ctx, INT, depth + 1)
    if isinstance(op, (ast.FloorDiv, ast.Mod)):
        b = divisor(g, ctx, INT, depth)
    elif isinstance(op, (ast.LShift, ast.RShift)):
        b = bounded(g, ctx, depth, 20) if g.rng.random() < 0.9 else g.expr(ctx, INT, depth + 1)
    elif isinstance(op, ast.Pow):
        b = bounded(g, ctx, depth, 5)
    else:
        b = g.expr(ctx, INT, depth + 1)
    return binop(a, op, b)


@production(INT, 2)
def int_unary(g, ctx, depth):
    kind = g.rng.choice(("neg", "invert", "abs", "pos"))
    e = g.expr(ctx, INT, depth + 1)
    if kind == "abs":
        return call("abs", e)
    return ast.UnaryOp({"neg": ast.USub, "invert": ast.Invert, "pos": ast.UAdd}[kind](), e)


@production(INT, 2)
def int_from_float(g, ctx, depth):
    fn = g.rng.choice(("int", "round", "math.floor", "math.ceil", "math.trunc"))
    return call(fn, g.expr(ctx, FLOAT, depth + 1))


@production(INT, 0.5)
def int_from_bool(g, ctx, depth):
    return call("int", g.expr(ctx, BOOL, depth + 1))


def _min_max(t):
    def fn(g, ctx, depth):
        args = [g.expr(ctx, t, depth + 1) for _ in range(g.rng.choice((2, 2, 3)))]
        return call(g.rng.choice(("min", "max")), *args)
    return fn


production(INT, 1.5)(_min_max(INT))
production(FLOAT, 1.5)(_min_max(FLOAT))


def _ifexp(t):
    def fn(g, ctx, depth):
        return ast.IfExp(g.condition(ctx, depth + 1), g.expr(ctx, t, depth + 1),
                         g.expr(ctx, t, depth + 1))
    return fn


def _and_or(t):
    def fn(g, ctx, depth):
        op = g.rng.choice((ast.And, ast.Or))()
        return ast.BoolOp(op, [g.expr(ctx, t, depth + 1), g.expr(ctx, t, depth + 1)])
    return fn


for _t in (INT, FLOAT, BOOL):
    production(_t, 1)(_ifexp(_t))
    production(_t, 0.7)(_and_or(_t))


@production(INT, 1)
def int_divmod_part(g, ctx, depth):
    return index(call("divmod", g.expr(ctx, INT, depth + 1), divisor(g, ctx, INT, depth)),
                 const(g.rng.randrange(2)))


@production(INT, 0.6)
def int_math(g, ctx, depth):
    kind = g.rng.choice(("gcd", "isqrt", "pow", "factorial"))
    if kind == "gcd":
        return call("math.gcd", g.expr(ctx, INT, depth + 1), g.expr(ctx, INT, depth + 1))
    if kind == "isqrt":
        return call("math.isqrt", g.expr(ctx, INT, depth + 1))
    if kind == "factorial":
        return call("math.factorial", bounded(g, ctx, depth, 15))
    return call("pow", g.expr(ctx, INT, depth + 1), bounded(g, ctx, depth, 4))


@production(INT, 1)
def int_from_array(g, ctx, depth):
    arrays = ctx.arrays()
    if not arrays:
        return None
    a = g.rng.choice(arrays)
    t = ctx.types[a]
    kind = g.rng.choice(("len", "shape", "size", "ndim"))
    if kind == "len":
        return call("len", name(a))
    if kind == "shape":
        return index(ast.Attribute(name(a), "shape", ast.Load()), const(g.rng.randrange(t.ndim)))
    return ast.Attribute(name(a), kind, ast.Load())


def _array_read(t):
    """`a[i]` / `m[i, j]` / `m[i][j]` of an array whose elements convert to `t`."""
    def fn(g, ctx, depth):
        arrays = [n for n in ctx.arrays() if elem_kind(ctx.types[n].dtype) == t]
        if not arrays:
            return None
        a = g.rng.choice(arrays)
        at = ctx.types[a]
        idx = [g.array_index(ctx, a, axis, depth) for axis in range(at.ndim)]
        if at.ndim > 1 and g.rng.random() < 0.2:
            node = name(a)
            for i in idx:
                node = index(node, i)
        else:
            node = index(name(a), *idx)
        return read_elem(node, at.dtype)
    return fn


def _reduction(t):
    """sum/min/max over a 1-d array (empty: min and max raise ValueError), or over a range."""
    def fn(g, ctx, depth):
        arrays = [n for n in ctx.arrays(1) if elem_kind(ctx.types[n].dtype) == t
                  or (t == INT and ctx.types[n].dtype == "bool")]
        if not arrays:
            if t != INT:
                return None
            r = call("range", bounded(g, ctx, depth, 9), bounded(g, ctx, depth, 9))
            return call(g.rng.choice(("sum", "min", "max")), r)
        a = g.rng.choice(arrays)
        fn_name = "sum" if ctx.types[a].dtype == "bool" else g.rng.choice(("sum", "min", "max"))
        return call("int" if t == INT else "float", call(fn_name, name(a)))
    return fn


for _t, _w in ((INT, 2), (FLOAT, 2), (BOOL, 1)):
    production(_t, _w)(_array_read(_t))
production(INT, 1)(_reduction(INT))
production(FLOAT, 1)(_reduction(FLOAT))


def _tuple_item(t):
    def fn(g, ctx, depth):
        choices = [(n, k) for n in ctx.tuples() for k, it in enumerate(ctx.types[n].items) if it == t]
        if not choices:
            return None
        n, k = g.rng.choice(choices)
        if g.rng.random() < 0.2:
            k -= len(ctx.types[n].items)
        return index(name(n), const(k))
    return fn


def _call(t):
    def fn(g, ctx, depth):
        return g.call_expr(ctx, t, depth)
    return fn


for _t in (INT, FLOAT, BOOL):
    production(_t, 1.5)(_tuple_item(_t))
    production(_t, 2 if _t != BOOL else 0.5)(_call(_t))


# ---- float -------------------------------------------------------------------------------

FLOAT_OPS = (ast.Add, ast.Sub, ast.Mult, ast.Div, ast.FloorDiv, ast.Mod, ast.Pow)
MATH_1 = ("sqrt", "exp", "log", "log2", "log10", "log1p", "expm1", "sin", "cos", "tan", "atan",
          "asin", "acos", "tanh", "sinh", "cosh", "fabs", "atanh", "asinh")
MATH_2 = ("atan2", "copysign", "fmod", "pow", "log")


@production(FLOAT, 8)
def float_binop(g, ctx, depth):
    rng = g.rng
    op = rng.choice(FLOAT_OPS)()
    if isinstance(op, ast.Pow) and rng.random() < 0.3:
        # int ** negative literal is a float in both.
        return binop(g.expr(ctx, INT, depth + 1), op, const(rng.choice((-1, -2, -3))))
    ta, tb = rng.choice(((FLOAT, FLOAT), (FLOAT, INT), (INT, FLOAT), (FLOAT, FLOAT)))
    if isinstance(op, ast.Div) and rng.random() < 0.3:
        ta, tb = INT, INT
    a = g.expr(ctx, ta, depth + 1)
    b = divisor(g, ctx, tb, depth) if isinstance(op, (ast.Div, ast.FloorDiv, ast.Mod)) \
        else g.expr(ctx, tb, depth + 1)
    return binop(a, op, b)


@production(FLOAT, 1.5)
def float_unary(g, ctx, depth):
    e = g.expr(ctx, FLOAT, depth + 1)
    kind = g.rng.choice(("neg", "abs", "pos"))
    if kind == "abs":
        return call("abs", e)
    return ast.UnaryOp(ast.USub() if kind == "neg" else ast.UAdd(), e)


@production(FLOAT, 1.5)
def float_from_int(g, ctx, depth):
    return call("float", g.expr(ctx, INT, depth + 1))


@production(FLOAT, 3)
def float_math(g, ctx, depth):
    rng = g.rng
    if rng.random() < 0.7:
        return call("math." + rng.choice(MATH_1), g.expr(ctx, FLOAT, depth + 1))
    fn = rng.choice(MATH_2)
    return call("math." + fn, g.expr(ctx, FLOAT, depth + 1), g.expr(ctx, FLOAT, depth + 1))


@production(FLOAT, 0.5)
def float_constant_name(g, ctx, depth):
    return ast.Attribute(name("math"), g.rng.choice(("pi", "e", "tau", "inf", "nan")), ast.Load())


@production(FLOAT, 1)
def float_divmod_part(g, ctx, depth):
    return index(call("divmod", g.expr(ctx, FLOAT, depth + 1), divisor(g, ctx, FLOAT, depth)),
                 const(g.rng.randrange(2)))


# ---- bool --------------------------------------------------------------------------------

CMP_OPS = (ast.Lt, ast.LtE, ast.Gt, ast.GtE, ast.Eq, ast.NotEq)


@production(BOOL, 6)
def comparison(g, ctx, depth):
    n = g.rng.choice((1, 1, 1, 2))
    types = [g.rng.choice(NUMBERS) for _ in range(n + 1)]
    operands = [g.expr(ctx, t, depth + 1) for t in types]
    return ast.Compare(operands[0], [g.rng.choice(CMP_OPS)() for _ in range(n)], operands[1:])


@production(BOOL, 1.5)
def negation(g, ctx, depth):
    return ast.UnaryOp(ast.Not(), g.condition(ctx, depth + 1))


@production(BOOL, 1)
def float_predicate(g, ctx, depth):
    return call("math." + g.rng.choice(("isnan", "isinf", "isfinite")), g.expr(ctx, FLOAT, depth + 1))


@production(BOOL, 0.7)
def truth(g, ctx, depth):
    return call("bool", g.expr(ctx, g.rng.choice(NUMBERS), depth + 1))


@production(BOOL, 0.7)
def membership(g, ctx, depth):
    """`x in (a, b)`. The needle is an int: `in` tests identity before ==, and a NaN found
    only by identity through another expression (`nan in (max(nan, 1.0),)`, where `max`
    returns its argument object) is something compiled code cannot see
    (regressions/in_tuple_identity_nan.py tests the case it can: the same variable)."""
    t = g.rng.choice(NUMBERS)
    items = [g.expr(ctx, t, depth + 2) for _ in range(g.rng.choice((2, 3)))]
    op = ast.In() if g.rng.random() < 0.7 else ast.NotIn()
    return ast.Compare(g.expr(ctx, INT, depth + 1), [op], [ast.Tuple(items, ast.Load())])


# ---- tuples ------------------------------------------------------------------------------

@production("tuple", 3)
def tuple_display(g, ctx, depth, t: TupleT):
    return ast.Tuple([g.expr(ctx, it, depth + 1) for it in t.items], ast.Load())


@production("tuple", 1)
def tuple_variable(g, ctx, depth, t: TupleT):
    names = ctx.readable(g.rng, t)
    return name(g.rng.choice(names)) if names else None


@production("tuple", 1)
def tuple_divmod(g, ctx, depth, t: TupleT):
    if t.items not in ((INT, INT), (FLOAT, FLOAT)):
        return None
    it = t.items[0]
    return call("divmod", g.expr(ctx, it, depth + 1), divisor(g, ctx, it, depth))


@production("tuple", 1.5)
def tuple_call(g, ctx, depth, t: TupleT):
    return g.call_expr(ctx, t, depth)


# ---- arrays (views of the arguments) -------------------------------------------------------

@production("array", 1)
def array_variable(g, ctx, depth, t: ArrayT):
    names = [n for n in ctx.arrays() if ctx.types[n] == t]
    return name(g.rng.choice(names)) if names else None


@production("array", 2)
def array_view(g, ctx, depth, t: ArrayT):
    """A view of type `t` made from an array in scope: a slice, a row, a column, `.T`."""
    rng = g.rng
    sources = [n for n in ctx.arrays() if ctx.types[n].dtype == t.dtype
               and ctx.types[n].ndim in (t.ndim, t.ndim + 1)]
    if not sources:
        return None
    a = rng.choice(sources)
    at = ctx.types[a]
    if at.ndim == t.ndim:
        if t.ndim >= 2 and rng.random() < 0.3:
            return ast.Attribute(name(a), "T", ast.Load())
        parts = [g.slice(ctx, depth)] + [ast.Slice() for _ in range(at.ndim - 1)]
        rng.shuffle(parts)
        return index(name(a), *parts) if at.ndim > 1 else index(name(a), parts[0])
    # one axis fewer: an integer index on one axis
    axis = rng.randrange(at.ndim)
    parts = [ast.Slice() for _ in range(at.ndim)]
    parts[axis] = g.array_index(ctx, a, axis, depth)
    if axis == 0 and rng.random() < 0.5:
        return index(name(a), parts[0])
    return index(name(a), *parts)


def dtype_for(rng) -> str:
    return rng.choice(DTYPES)


__all__ = ["EXPR", "production", "name", "const", "call", "binop", "index", "read_elem",
           "int_const", "float_const", "bounded", "divisor", "Elem", "dtype_for"]
