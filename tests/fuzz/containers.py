"""Container productions: lists, dicts and sets made, combined, read and measured.

Types (kinds.py): `ListT(elem)` of ints, floats, `NUM` (ints and floats together, each
keeping its type as in CPython), bools, strs, `(int, str)` / `(str, int)` tuples and lists
of ints; `DictT(key, value)` with str or int keys and int, float, `NUM` or list-of-int
values; `SetT(elem)` of ints or strs. A container-valued production is
`fn(gen, ctx, depth, t) -> ast.expr | None` in `EXPR["list"]`, `EXPR["dict"]`, `EXPR["set"]`;
reads that give a scalar (`len`, `xs[i]`, `d[k]`, `x in s`, `sum`, `min`, `index`, `count`,
`get`, a `pop` inside an expression) are productions of the scalar types.

What keeps every program a CPython program whose answer compiled code must give
(docs/differences.md lists what is left out):

- no NaN as a set element or dict key (CPython finds a NaN by identity), and a float or
  `NUM` list is searched (`in`, `index`, `count`, `remove`) for an int, never a float that
  may be NaN;
- no container changes size inside a loop over one of its type (`ctx.frozen`): CPython's
  iterator would see it (an append loops for ever);
- a float list's `sum` is a float: with a start of `0.0`, or its int|float total
  (`sum([])` of floats is CPython's int `0`) taken by `float()`; a `NUM` list is never a repeated display (`[0] * n`);
- sizes stay small: a list or str assigned inside a loop is cut to eight items, `extend`
  and `+=` take at most three, so nothing doubles nine times over.
"""

from __future__ import annotations

import ast

from .exprs import EXPR, bounded, call, const, index, int_const, name, production
from .kinds import BOOL, FLOAT, INT, NUM, STR, DictT, ListT, SetT, TupleT

for _k in ("list", "dict", "set", STR, NUM):
    EXPR.setdefault(_k, [])

STRS = ("", "a", "b", "ab", "ba", "abc", "Hello", "x y", " pad ", "a,b,,c", "3.5", "42", "-7",
        "é", "aé€", "A-b-C", "hello world", "  ", ",")
KEYS_STR = ("a", "b", "c", "ab", "x", "")
KEYS_INT = (0, 1, 2, 3, -1, 7)
LIST_ELEMS = (INT, INT, FLOAT, NUM, NUM, BOOL, STR, STR, TupleT((INT, STR)), TupleT((STR, INT)),
              ListT(INT))
DICT_VALUES = (INT, INT, FLOAT, NUM, ListT(INT))
SET_ELEMS = (INT, STR)
MAX_LEN = 8


def container_type(rng):
    r = rng.random()
    if r < 0.55:
        return ListT(rng.choice(LIST_ELEMS))
    if r < 0.8:
        return DictT(rng.choice((STR, STR, INT)), rng.choice(DICT_VALUES))
    return SetT(rng.choice(SET_ELEMS))


def table(t) -> str:
    return {ListT: "list", DictT: "dict", SetT: "set"}[type(t)]


def method(obj, meth: str, *args, **keywords) -> ast.Call:
    return ast.Call(ast.Attribute(obj, meth, ast.Load()), list(args),
                    [ast.keyword(k, v) for k, v in keywords.items()])


def cut(ctx, node, n: int = MAX_LEN):
    """`node[:n]` inside a loop (where it could grow each time round), else `node`."""
    return index(node, ast.Slice(None, const(n), None)) if ctx.loop_depth else node


def key_const(rng, kt):
    return const(rng.choice(KEYS_STR if kt == STR else KEYS_INT))


def key_expr(g, ctx, depth, kt):
    """A dict key or set element: often one of a few constants, so that lookups hit."""
    if g.rng.random() < 0.6:
        return key_const(g.rng, kt)
    if kt == INT:
        return bounded(g, ctx, depth, 8)
    return g.expr(ctx, STR, depth + 1)


def needle(g, ctx, depth, elem):
    """A value to search a list of `elem` for: an int for floats (never a NaN, see above)."""
    if elem in (FLOAT, NUM):
        return g.expr(ctx, INT, depth + 1)
    return g.expr(ctx, elem, depth + 1)


def display(g, ctx, depth, t):
    """A display of `t`: the fallback every container type has. Empty only where it is
    assigned (`xs = []`): an empty display inside an expression (`sorted([])`, `set() | s`)
    is a known CompileError (runner.KNOWN)."""
    rng = g.rng
    n = rng.choice((0, 1, 2, 3, 3, 4) if depth == 0 else (1, 2, 3, 3, 4))
    if isinstance(t, ListT):
        return ast.List([g.expr(ctx, t.elem, depth + 1) for _ in range(n)], ast.Load())
    if isinstance(t, DictT):
        keys = [key_expr(g, ctx, depth, t.key) for _ in range(n)]
        return ast.Dict(keys, [g.expr(ctx, t.value, depth + 1) for _ in range(n)])
    if n == 0:
        return call("set")
    return ast.Set([key_expr(g, ctx, depth, t.elem) for _ in range(n)])


def source_list(g, ctx, depth, elem=None):
    """(node, element type) of a list to iterate or read: a variable, or a range."""
    names = [n for n in sorted(ctx.defined) if isinstance(ctx.types[n], ListT)
             and (elem is None or ctx.types[n].elem == elem)]
    if names and g.rng.random() < 0.8:
        n = g.rng.choice(names)
        return name(n), ctx.types[n].elem
    if elem in (None, INT):
        return call("range", bounded(g, ctx, depth, 6)), INT
    return None


def comprehension_var(g, ctx, depth, elem_t, body):
    """`body(x)` with `x` a fresh comprehension variable of `elem_t` (out of scope after)."""
    x = ctx.fresh("c", elem_t)
    ctx.defined.add(x)
    try:
        return x, body(x)
    finally:
        ctx.defined.discard(x)


# ---- lists -------------------------------------------------------------------------------

@production("list", 2)
def list_display(g, ctx, depth, t):
    return display(g, ctx, depth, t)


@production("list", 2.5)
def list_variable(g, ctx, depth, t):
    names = ctx.readable(g.rng, t)
    return name(g.rng.choice(names)) if names else None


@production("list", 1.5)
def list_comprehension(g, ctx, depth, t):
    src = source_list(g, ctx, depth)
    if src is None:
        return None
    node, elem = src
    ifs = []

    def body(x):
        if g.rng.random() < 0.3:
            ifs.append(g.condition(ctx, depth + 1))
        if elem == t.elem and g.rng.random() < 0.3:
            return name(x)
        return g.expr(ctx, t.elem, depth + 1)
    x, value = comprehension_var(g, ctx, depth, elem, body)
    return ast.ListComp(value, [ast.comprehension(ast.Name(x, ast.Store()), node, ifs, 0)])


def sort_key(rng, elem):
    """A `key=` for sorted()/sort() of `elem`s, or None."""
    if elem == STR:
        return rng.choice((name("len"), ast.Attribute(name("str"), "lower", ast.Load())))
    if elem in (INT, FLOAT, NUM):
        if rng.random() < 0.5:
            return name("abs")
        return ast.Lambda(_lambda_args("x"), ast.UnaryOp(ast.USub(), name("x")))
    if isinstance(elem, TupleT):
        return ast.Lambda(_lambda_args("t"), index(name("t"), const(rng.randrange(2))))
    if isinstance(elem, ListT):
        return name("len")
    return None


def _lambda_args(*names):
    return ast.arguments([], [ast.arg(n) for n in names], None, [], [], None, [])


def sort_keywords(rng, elem) -> dict:
    kw = {}
    if rng.random() < 0.4:
        key = sort_key(rng, elem)
        if key is not None:
            kw["key"] = key
    if rng.random() < 0.3:
        kw["reverse"] = const(True)
    return kw


@production("list", 2)
def list_copy_like(g, ctx, depth, t):
    """`list(xs)`, `sorted(xs, key=, reverse=)`, `xs[a:b:c]`, `xs.copy()`,
    `list(reversed(xs))` of a list of the same type."""
    rng = g.rng
    names = ctx.readable(g.rng, t)
    src = name(rng.choice(names)) if names and rng.random() < 0.7 else g.expr(ctx, t, depth + 1)
    kind = rng.choice(("list", "sorted", "sorted", "slice", "slice", "copy", "reversed"))
    if kind == "list":
        return call("list", src)
    if kind == "sorted":
        if t.elem == BOOL:
            return call("sorted", src)
        node = call("sorted", src)
        node.keywords = [ast.keyword(k, v) for k, v in sort_keywords(rng, t.elem).items()]
        return node
    if kind == "slice":
        return index(src, g.slice(ctx, depth))
    if kind == "copy":
        return method(src, "copy")
    return call("list", call("reversed", src))


@production("list", 5)
def num_list_from(g, ctx, depth, t):
    """A list of ints and floats made from a list of ints or of floats (`list(fs)`,
    `sorted(fs)`, `fs[1:]`, `fs + ns`), which then takes the other type too (an int
    appended to a copy of a float list stays an int in CPython)."""
    if t.elem != NUM:
        return None
    rng = g.rng
    src = g.expr(ctx, ListT(rng.choice((INT, FLOAT, FLOAT))), depth + 1)
    kind = rng.choice(("list", "sorted", "slice", "copy", "concat"))
    if kind == "list":
        return call("list", src)
    if kind == "sorted":
        return call("sorted", src)
    if kind == "slice":
        return index(src, g.slice(ctx, depth))
    if kind == "copy":
        return method(src, "copy")
    other = g.expr(ctx, ListT(rng.choice((INT, FLOAT, NUM))), depth + 1)
    return cut(ctx, ast.BinOp(src, ast.Add(), other))


@production("list", 1.5)
def list_concat(g, ctx, depth, t):
    rng = g.rng
    a = g.expr(ctx, t, depth + 1)
    if rng.random() < 0.6 or t.elem == NUM:
        return cut(ctx, ast.BinOp(a, ast.Add(), g.expr(ctx, t, depth + 1)))
    return cut(ctx, ast.BinOp(a, ast.Mult(), const(rng.choice((0, 1, 2, 3, -1)))))


@production("list", 1)
def list_converted(g, ctx, depth, t):
    """Lists made from other values: `list(range(..))`, `s.split()`, `list(s)`,
    `list(d)`, `sorted(st)`, `list(d.values())`, `list(zip(..))`, `list(enumerate(..))`."""
    rng = g.rng
    if t.elem == INT and rng.random() < 0.4:
        return call("list", call("range", bounded(g, ctx, depth, 5), bounded(g, ctx, depth, 9)))
    if t.elem == STR:
        s = g.expr(ctx, STR, depth + 1)
        r = rng.random()
        if r < 0.4:
            return method(s, "split")
        if r < 0.7:
            return method(s, "split", const(rng.choice((",", " ", "a", "-"))))
        if r < 0.85:
            return call("list", s)
    if t.elem == TupleT((INT, STR)) and rng.random() < 0.5:
        src = g.expr(ctx, ListT(STR), depth + 1)
        return call("list", call("enumerate", src))
    if isinstance(t.elem, TupleT) and rng.random() < 0.5:
        a, b = t.elem.items
        return call("list", call("zip", g.expr(ctx, ListT(a), depth + 1), g.expr(ctx, ListT(b), depth + 1)))
    dicts = [n for n in sorted(ctx.defined) if isinstance(ctx.types[n], DictT)]
    keyed = [n for n in dicts if ctx.types[n].key == t.elem]
    valued = [n for n in dicts if ctx.types[n].value == t.elem]
    sets = [n for n in sorted(ctx.defined) if ctx.types[n] == SetT(t.elem)]
    options = [("keys", n) for n in keyed] + [("values", n) for n in valued] + [("set", n) for n in sets]
    if not options:
        return None
    kind, n = rng.choice(options)
    if kind == "keys":
        return call("list", name(n)) if rng.random() < 0.5 else call("sorted", name(n))
    if kind == "values":
        return call("list", method(name(n), "values"))
    return call("sorted", name(n)) if rng.random() < 0.7 else call("list", name(n))


# ---- dicts -------------------------------------------------------------------------------

@production("dict", 2)
def dict_display(g, ctx, depth, t):
    return display(g, ctx, depth, t)


@production("dict", 2.5)
def dict_variable(g, ctx, depth, t):
    names = ctx.readable(g.rng, t)
    return name(g.rng.choice(names)) if names else None


@production("dict", 1)
def dict_comprehension(g, ctx, depth, t):
    src = source_list(g, ctx, depth, t.key if g.rng.random() < 0.5 else None)
    if src is None:
        return None
    node, elem = src

    def body(x):
        k = name(x) if elem == t.key else key_expr(g, ctx, depth, t.key)
        return k, g.expr(ctx, t.value, depth + 1)
    x, (k, v) = comprehension_var(g, ctx, depth, elem, body)
    return ast.DictComp(k, v, [ast.comprehension(ast.Name(x, ast.Store()), node, [], 0)])


@production("dict", 1)
def dict_from(g, ctx, depth, t):
    """`dict(zip(keys, values))`, `d.copy()`, `dict(d)`."""
    if g.rng.random() < 0.5:
        keys = g.expr(ctx, ListT(t.key), depth + 1)
        return call("dict", call("zip", keys, g.expr(ctx, ListT(t.value), depth + 1)))
    src = g.expr(ctx, t, depth + 1)
    return method(src, "copy") if g.rng.random() < 0.5 else call("dict", src)


# ---- sets --------------------------------------------------------------------------------

@production("set", 2)
def set_display(g, ctx, depth, t):
    return display(g, ctx, depth, t)


@production("set", 2.5)
def set_variable(g, ctx, depth, t):
    names = ctx.readable(g.rng, t)
    return name(g.rng.choice(names)) if names else None


@production("set", 1.5)
def set_from(g, ctx, depth, t):
    """`set(xs)`, `set(s)` of a str's characters, a set comprehension."""
    rng = g.rng
    r = rng.random()
    if r < 0.5:
        return call("set", g.expr(ctx, ListT(t.elem), depth + 1))
    if r < 0.7 and t.elem == STR:
        return call("set", g.expr(ctx, STR, depth + 1))
    src = source_list(g, ctx, depth)
    if src is None:
        return None
    node, elem = src

    def body(x):
        return name(x) if elem == t.elem else key_expr(g, ctx, depth, t.elem)
    x, value = comprehension_var(g, ctx, depth, elem, body)
    return ast.SetComp(value, [ast.comprehension(ast.Name(x, ast.Store()), node, [], 0)])


@production("set", 1.5)
def set_operator(g, ctx, depth, t):
    op = g.rng.choice((ast.BitOr, ast.BitAnd, ast.Sub, ast.BitXor))()
    return ast.BinOp(g.expr(ctx, t, depth + 1), op, g.expr(ctx, t, depth + 1))


__all__ = ["container_type", "display", "table", "method", "cut", "needle", "key_expr",
           "sort_keywords", "source_list", "comprehension_var", "int_const", "FLOAT"]
