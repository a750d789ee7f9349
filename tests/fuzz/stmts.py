"""Statement productions: weighted functions that write a list of statements into the
function being generated, keeping `ctx` (variable types, definite assignment, loop depth)
right. A production is `fn(gen, ctx, nest) -> list[ast.stmt] | None`, None when it does not
apply here (`break` outside a loop, a store without an array)."""

from __future__ import annotations

import ast

from .exprs import bounded, call, const, index, name
from .kinds import BOOL, FLOAT, INT, NUMBERS, SCALARS, ArrayT, Elem, TupleT, elem_kind

STMT: list = []
MAX_NEST = 3            # loops and ifs nest at most this deep


def production(weight: float, compound: bool = False):
    def register(fn):
        STMT.append((weight, fn, compound))
        return fn
    return register


def store(n: str) -> ast.Name:
    return ast.Name(n, ast.Store())


def scalar_or_tuple(rng):
    if rng.random() < 0.12:
        return TupleT(tuple(rng.choice(SCALARS) for _ in range(rng.choice((2, 2, 3)))))
    return rng.choice((INT, INT, FLOAT, FLOAT, BOOL))


# ---- assignments -----------------------------------------------------------------------------

@production(5)
def assign_new(g, ctx, nest):
    t = scalar_or_tuple(g.rng)
    value = g.expr(ctx, t, 0)
    n = ctx.fresh("v", t)
    ctx.defined.add(n)
    return [ast.Assign([store(n)], value)]


@production(3)
def reassign(g, ctx, nest):
    names = sorted(n for n in ctx.defined if ctx.types[n] in SCALARS or isinstance(ctx.types[n], TupleT))
    # loop counters and the recursion bound `n` stay bounded
    names = [n for n in names if not n.startswith(("i", "w")) and n != "n"]
    if not names:
        return None
    n = g.rng.choice(names)
    return [ast.Assign([store(n)], g.expr(ctx, ctx.types[n], 0))]


AUG_INT = (ast.Add, ast.Sub, ast.Mult, ast.FloorDiv, ast.Mod, ast.BitAnd, ast.BitOr, ast.BitXor,
           ast.LShift, ast.RShift)
AUG_FLOAT = (ast.Add, ast.Sub, ast.Mult, ast.Div, ast.FloorDiv, ast.Mod, ast.Pow)


@production(3)
def augmented(g, ctx, nest):
    names = [n for n in sorted(ctx.defined) if ctx.types[n] in NUMBERS and n.startswith("v")]
    if not names:
        return None
    n = g.rng.choice(names)
    from .exprs import divisor
    if ctx.types[n] == INT:
        op = g.rng.choice(AUG_INT)()
        if isinstance(op, (ast.FloorDiv, ast.Mod)):
            value = divisor(g, ctx, INT, 0)
        elif isinstance(op, (ast.LShift, ast.RShift)):
            value = bounded(g, ctx, 0, 12)
        else:
            value = g.expr(ctx, INT, 0)
    else:
        op = g.rng.choice(AUG_FLOAT)()
        t = g.rng.choice(NUMBERS)
        value = divisor(g, ctx, t, 0) if isinstance(op, (ast.Div, ast.FloorDiv, ast.Mod)) \
            else g.expr(ctx, t, 0)
    return [ast.AugAssign(store(n), op, value)]


@production(1)
def unpack(g, ctx, nest):
    t = TupleT(tuple(g.rng.choice(SCALARS) for _ in range(g.rng.choice((2, 3)))))
    value = g.expr(ctx, t, 0)
    targets = [ctx.fresh("v", it) for it in t.items]
    ctx.defined.update(targets)
    return [ast.Assign([ast.Tuple([store(n) for n in targets], ast.Store())], value)]


@production(1)
def view(g, ctx, nest):
    arrays = ctx.arrays()
    if not arrays:
        return None
    src = ctx.types[g.rng.choice(arrays)]
    ndim = src.ndim if src.ndim == 1 or g.rng.random() < 0.5 else src.ndim - 1
    t = ArrayT(src.dtype, ndim)
    value = g.expr(ctx, t, 0)
    if value is None:
        return None
    n = ctx.fresh("u", t)
    ctx.defined.add(n)
    return [ast.Assign([store(n)], value)]


def _stored_value(g, ctx, dtype: str):
    kind = elem_kind(dtype)
    r = g.rng.random()
    if kind == INT and r < 0.05:
        return g.expr(ctx, FLOAT, 0)             # NumPy truncates (NaN, inf raise)
    if kind == FLOAT and r < 0.2:
        return g.expr(ctx, INT, 0)
    value = g.expr(ctx, kind, 0)
    if kind == INT and r < 0.8:
        value = ast.BinOp(value, ast.Mod(), const(100))   # fits every int dtype
    return value


@production(2)
def array_store(g, ctx, nest):
    arrays = ctx.arrays()
    if not arrays:
        return None
    a = g.rng.choice(arrays)
    t = ctx.types[a]
    idx = [g.array_index(ctx, a, axis, 0) for axis in range(t.ndim)]
    target = index(name(a), *idx)
    target.ctx = ast.Store()
    kind = elem_kind(t.dtype)
    if kind != BOOL and g.rng.random() < 0.3:
        # a[i] op= v: NumPy computes in the element's type, so the operand is a literal
        # (which adapts to it in both) unless the array is 64-bit.
        op = g.rng.choice((ast.Add, ast.Sub, ast.Mult))()
        if t.dtype in ("int64", "float64") and g.rng.random() < 0.5:
            value = g.expr(ctx, kind, 1)
        else:
            value = const(g.rng.choice((1, 2, 3)) if kind == INT else g.rng.choice((0.5, 2.0, -1.5)))
        return [ast.AugAssign(target, op, value)]
    return [ast.Assign([target], _stored_value(g, ctx, t.dtype))]


@production(0.7)
def slice_store(g, ctx, nest):
    arrays = ctx.arrays()
    if not arrays:
        return None
    a = g.rng.choice(arrays)
    t = ctx.types[a]
    parts = [g.slice(ctx, 0)] + [ast.Slice() for _ in range(t.ndim - 1)]
    if t.ndim > 1 and g.rng.random() < 0.5:
        axis = g.rng.randrange(t.ndim)
        parts[axis] = g.array_index(ctx, a, axis, 0)
    target = index(name(a), *parts) if len(parts) > 1 else index(name(a), parts[0])
    target.ctx = ast.Store()
    return [ast.Assign([target], _stored_value(g, ctx, t.dtype))]


# ---- control flow --------------------------------------------------------------------------

def _branch(g, ctx, nest, before, maybe_before):
    """One branch of an `if`: it starts from what was assigned before the `if` (a variable
    first assigned in a sibling branch is not even maybe assigned here)."""
    ctx.defined, ctx.maybe = set(before), set(maybe_before)
    body = g.block(ctx, nest + 1)
    return body, (ctx.defined, ctx.maybe)


def _merge(ctx, before, maybe_before, branches):
    defs = [d for d, _ in branches]
    ctx.defined = set.intersection(*defs) | before
    ctx.maybe = set(maybe_before)
    for d, m in branches:
        ctx.maybe |= (d | m) - ctx.defined


@production(3, compound=True)
def if_stmt(g, ctx, nest):
    rng = g.rng
    pre = []
    if rng.random() < 0.1:
        # if (v := e) > c: the walrus assigns before either branch runs
        n = ctx.fresh("v", INT)
        test = ast.Compare(ast.NamedExpr(store(n), g.expr(ctx, INT, 1)), [ast.Gt()], [const(rng.randint(-3, 5))])
        ctx.defined.add(n)
    else:
        test = g.condition(ctx, 0)
    before, maybe_before = set(ctx.defined), set(ctx.maybe)
    body, d = _branch(g, ctx, nest, before, maybe_before)
    defs = [d]
    node = ast.If(test, body, [])
    tail = node
    for _ in range(rng.choice((0, 0, 1, 2))):
        ctx.defined, ctx.maybe = set(before), set(maybe_before)
        cond = g.condition(ctx, 0)
        body, d = _branch(g, ctx, nest, before, maybe_before)
        defs.append(d)
        new = ast.If(cond, body, [])
        tail.orelse = [new]
        tail = new
    if rng.random() < 0.5:
        orelse, d = _branch(g, ctx, nest, before, maybe_before)
        tail.orelse = orelse
        defs.append(d)
    else:
        defs.append((set(before), set(maybe_before)))
    _merge(ctx, before, maybe_before, defs)
    return pre + [node]


def range_call(g, ctx):
    """range() whose length stays below 10: bounds are constants or `e % 9`."""
    rng = g.rng
    form = rng.choice((1, 2, 3, 3))

    def bound():
        return const(rng.randint(-6, 9)) if rng.random() < 0.5 else bounded(g, ctx, 1, 9)
    if form == 1:
        return call("range", bound())
    if form == 2:
        return call("range", bound(), bound())
    r = rng.random()
    if r < 0.6:
        step = const(rng.choice((1, 2, 3, -1, -2, -3)))
    elif r < 0.75:
        step = ast.BinOp(bounded(g, ctx, 1, 3), ast.Add(), const(1))
    elif r < 0.9:
        step = ast.UnaryOp(ast.USub(), ast.BinOp(bounded(g, ctx, 1, 3), ast.Add(), const(1)))
    else:
        # may be 0 (ValueError); never a constant 0, which the compiler rejects when compiling
        names = ctx.readable(rng, INT)
        if not names:
            return call("range", bound(), bound())
        step = ast.BinOp(name(rng.choice(names)), ast.Mod(), const(3))
    return call("range", bound(), bound(), step)


def _loop(g, ctx, nest, target_names, target_node, iterable, else_prob=0.3):
    before = set(ctx.defined)
    ctx.loop_depth += 1
    ctx.loop_nest = max(ctx.loop_nest, ctx.loop_depth)
    ctx.defined = before | set(target_names)
    body = g.block(ctx, nest + 1)
    body_defs = ctx.defined
    ctx.loop_depth -= 1
    orelse = []
    if g.rng.random() < else_prob:
        ctx.defined = set(before)
        orelse = g.block(ctx, nest + 1)
        ctx.maybe |= ctx.defined - before
    ctx.maybe |= body_defs - before
    ctx.defined = before
    return [ast.For(target_node, iterable, body, orelse)]


@production(2.5, compound=True)
def for_range(g, ctx, nest):
    it = range_call(g, ctx)
    i = ctx.fresh("i", INT)
    return _loop(g, ctx, nest, [i], store(i), it)


@production(1.2, compound=True)
def while_loop(g, ctx, nest):
    w = ctx.fresh("w", INT)
    init = ast.Assign([store(w)], const(0))
    ctx.defined.add(w)
    limit = ast.Compare(name(w), [ast.Lt()], [const(g.rng.randint(0, 6))])
    test = limit if g.rng.random() < 0.5 else ast.BoolOp(
        ast.And(), [g.condition(ctx, 1), limit] if g.rng.random() < 0.5 else [limit, g.condition(ctx, 1)])
    before = set(ctx.defined)
    ctx.loop_depth += 1
    ctx.loop_nest = max(ctx.loop_nest, ctx.loop_depth)
    body = [ast.AugAssign(store(w), ast.Add(), const(1))] + g.block(ctx, nest + 1)
    body_defs = ctx.defined
    ctx.loop_depth -= 1
    orelse = []
    if g.rng.random() < 0.3:
        ctx.defined = set(before)
        orelse = g.block(ctx, nest + 1)
        ctx.maybe |= ctx.defined - before
    ctx.maybe |= body_defs - before
    ctx.defined = before
    return [init, ast.While(test, body, orelse)]


@production(1.5, compound=True)
def for_array(g, ctx, nest):
    arrays = ctx.arrays()
    if not arrays:
        return None
    rng = g.rng
    a = rng.choice(arrays)
    t = ctx.types[a]
    elem_t = Elem(t.dtype) if t.ndim == 1 else ArrayT(t.dtype, t.ndim - 1)
    x = ctx.fresh("x", elem_t)
    r = rng.random()
    if r < 0.6:
        return _loop(g, ctx, nest, [x], store(x), name(a))
    if r < 0.8:
        i = ctx.fresh("i", INT)
        target = ast.Tuple([store(i), store(x)], ast.Store())
        args = [name(a)] + ([const(rng.choice((1, -2)))] if rng.random() < 0.3 else [])
        return _loop(g, ctx, nest, [i, x], target, call("enumerate", *args))
    others = [n for n in ctx.arrays(1) if n != a]
    if t.ndim != 1 or not others:
        i = ctx.fresh("i", INT)
        target = ast.Tuple([store(i), store(x)], ast.Store())
        return _loop(g, ctx, nest, [i, x], target, call("zip", range_call(g, ctx), name(a)))
    b = rng.choice(others)
    y = ctx.fresh("x", Elem(ctx.types[b].dtype))
    target = ast.Tuple([store(x), store(y)], ast.Store())
    return _loop(g, ctx, nest, [x, y], target, call("zip", name(a), name(b)))


@production(0.5, compound=True)
def for_tuple(g, ctx, nest):
    t = g.rng.choice(NUMBERS)
    items = [g.expr(ctx, t, 1) for _ in range(g.rng.choice((1, 2, 3)))]
    x = ctx.fresh("x", t)
    return _loop(g, ctx, nest, [x], store(x), ast.Tuple(items, ast.Load()))


@production(1.5)
def jump(g, ctx, nest):
    if ctx.loop_depth == 0:
        return None
    stmt = ast.Break() if g.rng.random() < 0.5 else ast.Continue()
    if g.rng.random() < 0.15:
        return [stmt]
    return [ast.If(g.condition(ctx, 0), [stmt], [])]


@production(0.7)
def early_return(g, ctx, nest):
    value = g.expr(ctx, ctx.ret, 0)
    ctx.early_returns += 1
    if ctx.ret_arrays:
        # main returns its array parameters too (program._summary)
        value = ast.Tuple([g.expr(ctx, t, 1) for t in ctx.ret.items] + [name(a) for a in ctx.ret_arrays], ast.Load())
    ret = ast.Return(value)
    if g.rng.random() < 0.1:
        return [ret]
    return [ast.If(g.condition(ctx, 0), [ret], [])]


@production(0.3)
def raise_or_assert(g, ctx, nest):
    rng = g.rng
    cond = g.condition(ctx, 0)
    if rng.random() < 0.5:
        msg = [ast.Constant(rng.choice(("bad value", "x")))] if rng.random() < 0.5 else []
        return [ast.Assert(cond, msg[0] if msg else None)]
    exc = rng.choice(("ValueError", "RuntimeError", "ArithmeticError"))
    arg = ast.Constant(rng.choice(("generated", "out of range"))) if rng.random() < 0.7 \
        else const(rng.randint(0, 9))
    return [ast.If(cond, [ast.Raise(call(exc, arg), None)], [])]


# Classes a generated `except` names: the ones generated code raises (checks, `assert`,
# `raise_or_assert`) and their bases. Never a bare `except:` or `Exception`'s base: the
# reference's Discard and ComplexResult must pass through every handler.
EXC_CLASSES = ("ZeroDivisionError", "ArithmeticError", "ValueError", "IndexError", "LookupError",
               "Exception", "RuntimeError", "AssertionError", "OverflowError", "TypeError")


@production(1.0, compound=True)
def try_stmt(g, ctx, nest):
    """try / except / else / finally. A handler or a `finally` may start anywhere in the
    body, so it starts from what was assigned before the `try`, the body's assignments only
    maybe assigned; a `finally` runs after whichever ran."""
    rng = g.rng
    before, maybe_before = set(ctx.defined), set(ctx.maybe)
    body = g.block(ctx, nest + 1)
    body_end = (ctx.defined, ctx.maybe)
    anywhere = maybe_before | ((ctx.defined | ctx.maybe) - before)
    handlers, ends = [], []
    for _ in range(rng.choice((0, 1, 1, 1, 2))):
        ctx.defined, ctx.maybe = set(before), set(anywhere)
        classes = rng.sample(EXC_CLASSES, rng.choice((1, 1, 1, 2)))
        kind = name(classes[0]) if len(classes) == 1 else ast.Tuple([name(c) for c in classes], ast.Load())
        hbody = g.block(ctx, nest + 1)
        if rng.random() < 0.15:
            hbody.append(ast.Raise(None, None))            # raise the same exception again
        handlers.append(ast.ExceptHandler(kind, None, hbody))
        ends.append((ctx.defined, ctx.maybe))
        anywhere |= (ctx.defined | ctx.maybe) - before
    orelse = []
    if handlers and rng.random() < 0.3:
        ctx.defined, ctx.maybe = set(body_end[0]), set(body_end[1])
        orelse = g.block(ctx, nest + 1)
        ends.append((ctx.defined, ctx.maybe))
        anywhere |= (ctx.defined | ctx.maybe) - before
    else:
        ends.append(body_end)
    _merge(ctx, before, maybe_before, ends)
    finalbody = []
    if not handlers or rng.random() < 0.3:
        after, after_maybe = ctx.defined, ctx.maybe
        ctx.defined, ctx.maybe = set(before), set(anywhere)
        finalbody = g.block(ctx, nest + 1)
        ctx.maybe = (after_maybe | ctx.maybe | anywhere) - (after | ctx.defined)
        ctx.defined = after | ctx.defined
    return [ast.Try(body, handlers, orelse, finalbody)]


@production(0.1)
def pass_stmt(g, ctx, nest):
    return [ast.Pass()]
