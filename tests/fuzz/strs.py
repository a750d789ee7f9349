"""Str productions: literals (with non-ASCII characters), `+`, `*`, slices and items,
methods (split/join, strip, replace, upper, ...), `str(x)`/`repr(x)` of numbers and
containers, f-strings with format specs, `str.format` and `%` formatting.

Every spec is one CPython accepts for the value's type (`:d` and `:x` only for ints, `%d`
of ints and floats): a spec it refuses raises a ValueError or TypeError in CPython that
compiled code refuses when compiling (docs/strings.md)."""

from __future__ import annotations

import ast

from .container_reads import seq_index
from .containers import STRS, cut, method
from .exprs import call, const, index, name, production
from .kinds import BOOL, FLOAT, INT, NUM, STR, DictT, ListT, SetT, TupleT


@production(STR, 3)
def str_literal(g, ctx, depth):
    return const(g.rng.choice(STRS))


@production(STR, 4)
def str_variable(g, ctx, depth):
    names = ctx.readable(g.rng, STR)
    return name(g.rng.choice(names)) if names else None


@production(STR, 2)
def str_concat(g, ctx, depth):
    rng = g.rng
    a = g.expr(ctx, STR, depth + 1)
    if rng.random() < 0.7:
        return cut(ctx, ast.BinOp(a, ast.Add(), g.expr(ctx, STR, depth + 1)), 16)
    return cut(ctx, ast.BinOp(a, ast.Mult(), const(rng.choice((0, 1, 2, 3, -1)))), 16)


@production(STR, 2)
def str_part(g, ctx, depth):
    """`s[i]` (IndexError: string index out of range) or `s[a:b:c]`."""
    s = g.expr(ctx, STR, depth + 1)
    if g.rng.random() < 0.4:
        return index(s, seq_index(g, ctx, s, depth))
    return index(s, g.slice(ctx, depth))


@production(STR, 3)
def str_method(g, ctx, depth):
    rng = g.rng
    s = g.expr(ctx, STR, depth + 1)
    kind = rng.choice(("upper", "lower", "strip", "lstrip", "rstrip", "strip_chars", "replace",
                       "title", "capitalize", "swapcase", "zfill", "center", "ljust", "rjust",
                       "join", "join", "split_item"))
    if kind == "strip_chars":
        return method(s, rng.choice(("strip", "lstrip", "rstrip")), const(rng.choice(("a", " ,", "é"))))
    if kind == "replace":
        return cut(ctx, method(s, "replace", g.expr(ctx, STR, depth + 1), g.expr(ctx, STR, depth + 1)), 16)
    if kind in ("zfill", "center", "ljust", "rjust"):
        args = [const(rng.choice((0, 3, 6)))]
        if kind != "zfill" and rng.random() < 0.4:
            args.append(const(rng.choice(("*", "é"))))
        return method(s, kind, *args)
    if kind == "join":
        return cut(ctx, method(s, "join", g.expr(ctx, ListT(STR), depth + 1)), 16)
    if kind == "split_item":
        parts = method(s, "split", *([const(rng.choice((",", " ", "a")))] if rng.random() < 0.6 else []))
        return index(parts, const(rng.choice((0, 1, -1))))
    return method(s, kind)


SHOWN = (INT, FLOAT, BOOL, NUM, STR, ListT(INT), ListT(FLOAT), ListT(STR), ListT(NUM),
         TupleT((INT, FLOAT)), DictT(STR, INT), DictT(INT, FLOAT), SetT(INT), SetT(STR))


def _shown_value(g, ctx, depth):
    """(node, type) of a value to write as text: a container in scope now and then."""
    rng = g.rng
    names = [n for n in sorted(ctx.defined) if isinstance(ctx.types[n], (ListT, DictT, SetT))]
    if names and rng.random() < 0.3:
        n = rng.choice(names)
        return name(n), ctx.types[n]
    t = rng.choice(SHOWN)
    return g.expr(ctx, t, depth + 1), t


@production(STR, 2)
def str_of(g, ctx, depth):
    node, _ = _shown_value(g, ctx, depth)
    return call(g.rng.choice(("str", "repr")), node)


def spec_for(rng, t) -> str:
    """A format spec CPython accepts for a value of `t`."""
    common = ("", ">6", "<5", "^7", "*^9")
    if t == INT:
        return rng.choice(common + ("d", "05d", "+d", "x", "#x", ",", "_", ".2f", "e", ".3g", "%"))
    if t in (FLOAT, NUM):
        return rng.choice(common + (".3f", ".0f", "e", ".2e", "g", ".4g", ",", ".1%", "+.2f", "08.3f", "r"))
    if t == STR:
        return rng.choice(common + (".2", "s", ">4.1"))
    if t == BOOL:                   # int's format, but for the empty spec
        return rng.choice(common + ("d", "05", "+", ".1f"))
    return ""


@production(STR, 2.5)
def fstring(g, ctx, depth):
    """f"..{x:spec}..{y!r}.." of numbers and strs (containers with `!r` or no spec)."""
    rng = g.rng
    parts = []
    for _ in range(rng.choice((1, 2, 3))):
        if rng.random() < 0.4:
            parts.append(ast.Constant(rng.choice(("x=", " ", ", ", "é:", "[", "]"))))
        node, t = _shown_value(g, ctx, depth)
        spec = spec_for(rng, t)
        conversion = -1
        if spec == "r" or (not spec and rng.random() < 0.2):
            spec, conversion = "", ord("r")
        fmt = ast.JoinedStr([ast.Constant(spec)]) if spec else None
        parts.append(ast.FormattedValue(node, conversion, fmt))
    return ast.JoinedStr(parts)


@production(STR, 1)
def str_format(g, ctx, depth):
    """`"{} and {:.2f}".format(a, b)` of a constant template."""
    rng = g.rng
    fields, args = [], []
    for _ in range(rng.choice((1, 2, 3))):
        t = rng.choice((INT, FLOAT, NUM, STR, BOOL))
        spec = spec_for(rng, t)
        spec = "" if spec == "r" else spec
        fields.append("{" + (":" + spec if spec else "") + "}")
        args.append(g.expr(ctx, t, depth + 1))
    template = rng.choice(("", "-", " | ")).join(fields)
    return method(const(template), "format", *args)


# (no `%d` of a float: of one beyond int64 CPython writes the int, compiled code refuses it
# with an OverflowError where the call wrote an argument, docs/differences.md)
PRINTF = {INT: ("%d", "%5d", "%-4d|", "%x", "%s", "%r", "%05d", "%+d", "%.2f", "%e"),
          FLOAT: ("%f", "%.2f", "%8.3f", "%e", "%g", "%.3g", "%s", "%r", "%-9.1f|"),
          STR: ("%s", "%r", "%5s", "%-6s|", "%.2s"),
          BOOL: ("%s", "%d", "%r")}


@production(STR, 1)
def printf(g, ctx, depth):
    """`"%d: %.2f" % (n, x)` of a constant template, one value or a tuple of them."""
    rng = g.rng
    if rng.random() < 0.15:     # one container, formatted whole
        node, t = _shown_value(g, ctx, depth)
        if isinstance(t, TupleT):       # (a tuple is the values themselves: `(t,)` is one)
            node = ast.Tuple([node], ast.Load())
        return ast.BinOp(const(rng.choice(("%s", "%r", "[%s]", "%12s|"))), ast.Mod(), node)
    types = [rng.choice((INT, FLOAT, STR, BOOL)) for _ in range(rng.choice((1, 1, 2, 3)))]
    template = " ".join(rng.choice(PRINTF[t]) for t in types) + rng.choice(("", " %%", "!"))
    values = [g.expr(ctx, t, depth + 1) for t in types]
    if len(values) == 1 and types[0] != STR and rng.random() < 0.5:
        operand = values[0]
    else:
        operand = ast.Tuple(values, ast.Load())
    return ast.BinOp(const(template), ast.Mod(), operand)


@production(STR, 0.5)
def str_of_char(g, ctx, depth):
    return call("chr", ast.BinOp(const(g.rng.choice((65, 97, 233, 8364))), ast.Add(),
                                 ast.BinOp(g.expr(ctx, INT, depth + 1), ast.Mod(), const(26))))


__all__ = ["spec_for", "SHOWN"]
