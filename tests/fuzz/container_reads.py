"""Scalar productions that read containers: an item (`xs[i]`, `m[i][j]`, `ps[i][1]`, `d[k]`,
`d.get(k, v)`, a `pop` inside an expression), `len`, `sum`/`min`/`max` (empty: CPython's
ValueError), `index`/`count`, membership, comparisons of lists, strs and sets.

An index is usually in range, sometimes negative, sometimes out of range (IndexError), as
for arrays (program.Gen.array_index)."""

from __future__ import annotations

import ast

from .containers import key_expr, method, needle, sort_keywords
from .exprs import EXPR, call, const, index, name, production
from .kinds import BOOL, FLOAT, INT, NUM, STR, DictT, ListT, SetT, TupleT


def seq_index(g, ctx, seq, depth: int):
    """An index into the list or str `seq` (a node)."""
    rng = g.rng
    r = rng.random()
    loop_vars = [n for n in ctx.readable(rng, INT) if n.startswith("i")]
    if r < 0.3 and loop_vars:
        return name(rng.choice(loop_vars))
    if r < 0.6:
        return const(rng.choice((0, 0, 1, -1, -2)))
    if r < 0.9:
        return ast.BinOp(g.expr(ctx, INT, depth + 1), ast.Mod(), call("len", seq))
    if r < 0.95:
        return call("len", seq) if rng.random() < 0.5 else const(rng.choice((5, -6, 9)))
    return g.expr(ctx, INT, depth + 1)


def _lists(ctx, pred) -> list:
    return [n for n in sorted(ctx.defined) if isinstance(ctx.types[n], ListT) and pred(ctx.types[n].elem)]


def _dicts(ctx, value) -> list:
    return [n for n in sorted(ctx.defined) if isinstance(ctx.types[n], DictT) and ctx.types[n].value == value]


def item_of(want):
    """An item of type `want` read from a list, a list of lists, a list of tuples or a dict."""
    def fn(g, ctx, depth):
        rng = g.rng
        options = [("elem", n) for n in _lists(ctx, lambda e: e == want)]
        options += [("nested", n) for n in _lists(ctx, lambda e: e == ListT(want))]
        options += [("tuple", n) for n in _lists(ctx, lambda e: isinstance(e, TupleT) and want in e.items)]
        options += [("dict", n) for n in _dicts(ctx, want)]
        if not options:
            return None
        kind, n = rng.choice(options)
        t = ctx.types[n]
        if kind == "dict":
            k = key_expr(g, ctx, depth, t.key)
            r = rng.random()
            if r < 0.5:
                return index(name(n), k)
            default = g.expr(ctx, want, depth + 1)
            if r < 0.85 or not ctx.resizable(t):
                return method(name(n), "get", k, default)
            return method(name(n), "pop", k, default) if rng.random() < 0.5 else method(name(n), "pop", k)
        if kind == "elem" and ctx.resizable(t) and rng.random() < 0.1:
            args = [] if rng.random() < 0.5 else [seq_index(g, ctx, name(n), depth)]
            return method(name(n), "pop", *args)
        node = index(name(n), seq_index(g, ctx, name(n), depth))
        if kind == "nested":
            return index(node, seq_index(g, ctx, node, depth))
        if kind == "tuple":
            return index(node, const(rng.choice([k for k, it in enumerate(t.elem.items) if it == want])))
        return node
    return fn


for _t, _w in ((INT, 2), (FLOAT, 1.5), (BOOL, 0.7), (STR, 2), (NUM, 2)):
    production(_t, _w)(item_of(_t))


def reduction(want, elems):
    """sum/min/max of a list of `elems` giving `want`."""
    def fn(g, ctx, depth):
        names = _lists(ctx, lambda e: e in elems)
        if not names:
            return None
        n = g.rng.choice(names)
        elem = ctx.types[n].elem
        fns = ("min", "max") if elem == STR else ("sum", "min", "max")
        if elem == BOOL:
            fns = ("sum",)
        f = g.rng.choice(fns)
        if f == "sum" and elem == FLOAT:
            if g.rng.random() < 0.5:                    # sum([]) of floats is the int 0
                return call("sum", name(n), const(0.0))
            return call("float", call("sum", name(n)))
        node = call(f, name(n))
        if f != "sum" and g.rng.random() < 0.3:
            node.keywords = [ast.keyword(k, v) for k, v in sort_keywords(g.rng, elem).items()
                             if k == "key"]
        return node
    return fn


production(INT, 1)(reduction(INT, (INT, BOOL)))
production(FLOAT, 1)(reduction(FLOAT, (FLOAT,)))
production(NUM, 1)(reduction(NUM, (NUM,)))
production(STR, 0.5)(reduction(STR, (STR,)))


@production(INT, 2)
def length(g, ctx, depth):
    names = [n for n in sorted(ctx.defined) if isinstance(ctx.types[n], (ListT, DictT, SetT))
             or ctx.types[n] == STR]
    if not names:
        return None
    return call("len", name(g.rng.choice(names)))


@production(INT, 1)
def search(g, ctx, depth):
    """`xs.index(v)` (ValueError when missing), `xs.count(v)`, `s.find(t)`, `s.count(t)`,
    `s.index(t)`."""
    rng = g.rng
    names = _lists(ctx, lambda e: True)
    if names and rng.random() < 0.6:
        n = rng.choice(names)
        elem = ctx.types[n].elem
        # index() of a missing list or tuple says `list.index(x): x not in list`, CPython 3.11
        # `[1] is not in list` (docs/lists.md)
        fn = rng.choice(("index", "count")) if elem in (INT, FLOAT, NUM, BOOL, STR) else "count"
        return method(name(n), fn, needle(g, ctx, depth, elem))
    s = g.expr(ctx, STR, depth + 1)
    return method(s, rng.choice(("find", "rfind", "count", "index")), g.expr(ctx, STR, depth + 1))


def number_text(g, ctx, depth, t):
    """A str that is mostly the text of a number of type `t`, sometimes any str (ValueError
    of CPython's text)."""
    r = g.rng.random()
    if r < 0.5:
        return call("str", g.expr(ctx, t, depth + 1))
    if r < 0.85:
        return const(g.rng.choice((" 42", "-7", "0", "3.5", "1e3", "-0.0", "inf", "nan", "1_000")
                                  if t == FLOAT else ("42", "-7", " 13 ", "0", "+5", "1_000")))
    return g.expr(ctx, STR, depth + 1)


@production(INT, 0.5)
def int_of_str(g, ctx, depth):
    """`int(s)`, `ord(s[i])`."""
    if g.rng.random() < 0.5:
        return call("int", number_text(g, ctx, depth, INT))
    s = g.expr(ctx, STR, depth + 1)
    return call("ord", index(s, seq_index(g, ctx, s, depth)))


@production(FLOAT, 0.4)
def float_of_str(g, ctx, depth):
    return call("float", number_text(g, ctx, depth, g.rng.choice((INT, FLOAT, FLOAT))))


@production(BOOL, 2)
def contains(g, ctx, depth):
    """`x in xs`, `k in d`, `x not in st`, `t in s`."""
    rng = g.rng
    names = [n for n in sorted(ctx.defined) if isinstance(ctx.types[n], (ListT, DictT, SetT))]
    op = ast.In() if rng.random() < 0.75 else ast.NotIn()
    if not names or rng.random() < 0.25:
        return ast.Compare(g.expr(ctx, STR, depth + 1), [op], [g.expr(ctx, STR, depth + 1)])
    n = rng.choice(names)
    t = ctx.types[n]
    if isinstance(t, ListT):
        x = needle(g, ctx, depth, t.elem)
    else:
        x = key_expr(g, ctx, depth, t.key if isinstance(t, DictT) else t.elem)
    target = name(n)
    if isinstance(t, DictT) and rng.random() < 0.3:
        target = method(name(n), "keys")
    return ast.Compare(x, [op], [target])


CMP = (ast.Lt, ast.LtE, ast.Gt, ast.GtE, ast.Eq, ast.NotEq)


@production(BOOL, 1.5)
def compare_values(g, ctx, depth):
    """Strs by code points, lists item by item, sets by inclusion, dicts by ==."""
    rng = g.rng
    names = [n for n in sorted(ctx.defined) if isinstance(ctx.types[n], (ListT, DictT, SetT))
             and ctx.types[n] not in (ListT(BOOL),)]
    if not names or rng.random() < 0.4:
        return ast.Compare(g.expr(ctx, STR, depth + 1), [rng.choice(CMP)()], [g.expr(ctx, STR, depth + 1)])
    n = rng.choice(names)
    t = ctx.types[n]
    ops = (ast.Eq, ast.NotEq) if isinstance(t, DictT) else CMP
    # a NaN in two containers is one object in CPython (found equal by identity), two equal
    # values compiled (docs/differences.md): containers of floats meet only themselves
    other = name(n) if _holds_floats(t) else g.expr(ctx, t, depth + 1)
    return ast.Compare(name(n), [rng.choice(ops)()], [other])


def _holds_floats(t) -> bool:
    if t in (FLOAT, NUM):
        return True
    if isinstance(t, (ListT, SetT)):
        return _holds_floats(t.elem)
    if isinstance(t, DictT):
        return _holds_floats(t.value)
    return isinstance(t, TupleT) and any(map(_holds_floats, t.items))


@production(BOOL, 0.8)
def str_predicate(g, ctx, depth):
    s = g.expr(ctx, STR, depth + 1)
    kind = g.rng.choice(("startswith", "endswith", "isdigit", "isalpha", "isspace", "isupper",
                         "islower"))
    if kind in ("startswith", "endswith"):
        return method(s, kind, g.expr(ctx, STR, depth + 1))
    return method(s, kind)


@production(BOOL, 0.8)
def truth_of_container(g, ctx, depth):
    """`bool(xs)`, `not d`, `any(flags)`, `all(flags)`, `st.isdisjoint(other)`."""
    rng = g.rng
    names = [n for n in sorted(ctx.defined) if isinstance(ctx.types[n], (ListT, DictT, SetT))
             or ctx.types[n] == STR]
    if not names:
        return None
    n = rng.choice(names)
    t = ctx.types[n]
    if t == ListT(BOOL) and rng.random() < 0.6:
        return call(rng.choice(("any", "all")), name(n))
    if isinstance(t, SetT) and rng.random() < 0.4:
        return method(name(n), rng.choice(("isdisjoint", "issubset")), g.expr(ctx, t, depth + 1))
    return call("bool", name(n)) if rng.random() < 0.5 else ast.UnaryOp(ast.Not(), name(n))


# ---- int|float values --------------------------------------------------------------------

@production(NUM, 3)
def num_from_number(g, ctx, depth):
    return g.expr(ctx, g.rng.choice((INT, FLOAT)), depth + 1)


@production(NUM, 2)
def num_variable(g, ctx, depth):
    names = ctx.readable(g.rng, NUM)
    return name(g.rng.choice(names)) if names else None


@production(NUM, 1.5)
def num_binop(g, ctx, depth):
    if depth > 1:
        return None                 # see num_choice
    op = g.rng.choice((ast.Add, ast.Sub, ast.Mult))()
    a = g.expr(ctx, NUM, depth + 1)
    b = g.expr(ctx, g.rng.choice((NUM, INT, FLOAT)), depth + 1)
    return ast.BinOp(a, op, b) if g.rng.random() < 0.5 else ast.BinOp(b, op, a)


@production(NUM, 1.5)
def num_choice(g, ctx, depth):
    """An int on one path, a float on the other: a conditional, `max`/`min` of both. Only as
    (most of) a statement's value: deep inside one, after a call, compiled code refuses it
    (docs/differences.md: "assign it to a variable first")."""
    if depth > 1:
        return None
    a, b = g.expr(ctx, INT, depth + 1), g.expr(ctx, FLOAT, depth + 1)
    if g.rng.random() < 0.5:
        a, b = b, a
    if g.rng.random() < 0.5:
        return ast.IfExp(g.condition(ctx, depth + 1), a, b)
    return call(g.rng.choice(("max", "min")), a, b)


@production(INT, 0.7)
def int_of_num(g, ctx, depth):
    return call("int", g.expr(ctx, NUM, depth + 1))


@production(FLOAT, 0.7)
def float_of_num(g, ctx, depth):
    return call("float", g.expr(ctx, NUM, depth + 1))


@production(BOOL, 0.7)
def compare_num(g, ctx, depth):
    other = g.expr(ctx, g.rng.choice((NUM, INT, FLOAT)), depth + 1)
    return ast.Compare(g.expr(ctx, NUM, depth + 1), [g.rng.choice(CMP)()], [other])


__all__ = ["seq_index", "item_of", "reduction", "CMP", "SetT"]
