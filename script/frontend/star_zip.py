"""`zip(*rows)`: the transpose idiom (`[list(c) for c in zip(*matrix)]`, `for chars in
zip(*words)`), and `zip(*[iter(xs)] * n)`, the idiom that cuts xs into tuples of n items.

Functions over the lowering `cx`. A tuple of iterables is spread into
`zip(a, b, ...)` as written. A list of rows (lists, strs, tuples, 1-d arrays) gives as
many columns as its shortest row has elements (none without rows), each a new tuple of the
rows' elements at that position, as CPython's: the number of rows is known only when the
code runs, so a column is a `VarTupleType`, a tuple of run-time length (a list inside,
returned to Python as a tuple). Whatever takes a column (`list(c)`, `sum(c)`, `set(c)`,
`"".join(c)`, `c[0]`, `len(c)`, a loop, unpacking into names) sees the same elements.
"""

from __future__ import annotations

import ast

from script.frontend.loop import Growing
from script.frontend.unknown import UNKNOWN, Undef, Unknown
from script.ir import types as T
from script.ir.core import Const, Value
from script.frontend import arrays, lists

_INT64_MAX = 2 ** 63 - 1


def row_element_type(t: T.Type) -> T.Type | None:
    """The type of the elements `for x in row` gives for a row of type `t`, or None."""
    if isinstance(t, T.ListType):
        return t.elem
    if isinstance(t, T.StrType):
        return T.STR
    if isinstance(t, T.TupleType) and t.elems:
        et = t.elems[0]
        for e in t.elems[1:]:
            et = T.merge(et, e)         # ints and floats: a num, as CPython keeps them
            if et is None:
                return None
        return et
    if isinstance(t, T.ArrayType) and t.ndim == 1:
        return t.dtype
    return None


def zip_parts(cx, parts, node):
    """`iterable` of zip() over the (n, item, type) iterables `parts`."""
    loc = cx.loc(node)
    if sum(bool(getattr(p, "held_iterator", False)) for p in parts) > 1:
        cx.error("zip() of two iterators held in variables (zip(it, it) pairs items) is not supported "
                 "in compiled code: CPython stops at the first that is exhausted, mid-step (pair them "
                 "with zip(xs[::2], xs[1::2]))", node)

    def shortest(lengths):
        n = lengths[0]
        for m in lengths[1:]:
            n = cx.emit("min", [n, m], T.I64, None, loc)
        return n

    out = (shortest([p[0] for p in parts]), lambda i: cx.make_tuple([item(i) for _, item, _ in parts], node),
           T.TupleType([et for _, _, et in parts]))
    if not any(isinstance(p, Growing) for p in parts):
        return out
    return Growing(*out, lambda: shortest([p.length() if isinstance(p, Growing) else p[0] for p in parts]))


def zip_unpacked(cx, node: ast.Call):
    """`iterable` of `zip(*rows)` (see the module's docstring)."""
    if len(node.args) != 1:
        cx.error("zip() with a *-unpacked argument among others is not supported in compiled code "
                 "(zip(*rows) alone is)", node)
    grouped = _grouper(cx, node.args[0].value)
    if grouped is not None:
        return _chunks(cx, *grouped, node)
    rows = cx.expr(node.args[0].value)
    if isinstance(rows.type, Unknown):
        return Const(0, T.I64), lambda i: Undef(UNKNOWN, cx.loc(node)), UNKNOWN
    if isinstance(rows.type, T.TupleType):
        if not rows.type.elems:
            return Const(0, T.I64), lambda i: cx.make_tuple([], node), T.TupleType([])
        loc = cx.loc(node)
        return zip_parts(cx, [cx.iterable_value(cx.emit("extract", [rows], t, k, loc), node)
                              for k, t in enumerate(rows.type.elems)], node)
    if not isinstance(rows.type, T.ListType):
        cx.error(f"zip(*x) of a {rows.type} is not supported in compiled code (a list or tuple of "
                 "iterables is)", node.args[0])
    row_type = lists.read_type(cx, rows)
    et = row_element_type(row_type)
    if et is None:
        cx.error(f"zip(*x) of a list of {row_type} is not supported in compiled code (rows must be "
                 "lists, strs, tuples of one element type or 1-d arrays)", node.args[0])
    return _columns(cx, rows, et, node)


def _columns(cx, rows: Value, et: T.Type, node):
    loc = cx.loc(node)
    m = lists.list_len(cx, rows, node)
    shortest = cx.reduce_loop(node, m, lambda j: lists.get_item(cx, rows, j, node), Const(_INT64_MAX, T.I64),
                              lambda acc, row: cx.emit(
                                    "min", [acc, cx.iterable_value(row, node)[0]], T.I64, None, loc))
    n = arrays.pick(cx, cx.cmp("eq", m, Const(0, T.I64), node), Const(0, T.I64), shortest, node)

    def column(i: Value) -> Value:
        out = lists.new_list(cx, et, m, node, T.VarTupleType)
        lists.for_range(cx, node.args[0], m, lambda j: lists.set_item(cx, 
            out, cx.iterable_value(lists.checked_item(cx, rows, j, node), node)[1](i), j, node))
        return out
    return n, column, T.VarTupleType(et)


def _grouper(cx, node) -> tuple[ast.expr, int] | None:
    """(xs, n) when `node` is ``[iter(xs)] * n`` (or ``n * [iter(xs)]``) with `n` a constant
    int: `zip(*[iter(xs)] * n)`, the idiom that cuts `xs` into tuples of `n` items."""
    if not (isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mult)):
        return None
    for seq, count in ((node.left, node.right), (node.right, node.left)):
        if (isinstance(seq, ast.List) and len(seq.elts) == 1 and isinstance(seq.elts[0], ast.Call)
                and isinstance(seq.elts[0].func, ast.Name) and seq.elts[0].func.id == "iter"
                and seq.elts[0].func.id not in cx.locals and len(seq.elts[0].args) == 1
                and not seq.elts[0].keywords and isinstance(count, ast.Constant)
                and type(count.value) is int and getattr(cx.lookup(seq.elts[0].func), "obj", None) is iter):
            return seq.elts[0].args[0], count.value
    return None


def _chunks(cx, items_node: ast.expr, n: int, node):
    """`iterable` of ``zip(*[iter(xs)] * n)``: the tuples of items ``k*n .. k*n + n - 1`` of xs,
    for as many whole tuples as xs holds (zip stops at the first item missing)."""
    length, item, et = cx.iterable_value(cx.expr(items_node), node)
    loc = cx.loc(node)
    if n <= 0:                  # zip() of no iterables: nothing
        return Const(0, T.I64), lambda k: cx.make_tuple([], node), T.TupleType([])
    count = cx.emit("floordiv", [length, Const(n, T.I64)], T.I64, None, loc)

    def chunk(k: Value) -> Value:
        base = cx.emit("mul", [k, Const(n, T.I64)], T.I64, None, loc)
        return cx.make_tuple([item(cx.emit("add", [base, Const(j, T.I64)], T.I64, None, loc))
                              for j in range(n)], node)
    return count, chunk, T.TupleType([et] * n)
