"""Values that are an int on some paths and a float on others: CPython's answer, not a float.

``x = 0`` then ``x = 0.5`` in a branch, or a function that returns ``1`` on one path and
``1 / n`` on another: CPython keeps the two apart (``print(x)`` shows ``0`` or ``0.5``; the
result is an `int` or a `float`). Where such values meet (a merge of a variable, a return,
a conditional expression: `types.merge`), the value is typed ``num`` (`types.INT_FLOAT`),
the tuple ``(is_float, int, float)``. Unifying them to float, as Numba does, gave a
different answer without an error (``power(4, 6)`` returned ``4096.0``).

No operation sees a ``num``: it is taken apart first. Two ways:

- **Operators split their operands** (`split`): ``x + 1`` branches on whether `x` is a
  float and lowers the operator once with the int and once with the float, the two results
  merging again (to a ``num`` when they differ: ``x + 1``; to one type when they agree:
  ``x + 0.5``, ``x < y``). Truth is a select of the two payloads' (`truth`).
- **A statement splits on its names** (`split_statement`): where a ``num`` local is read by
  anything else (a call argument, an index, an f-string, a store into a list), the whole
  statement is lowered once per type, the name holding the int in one copy and the float in
  the other (an `if` statement's branches are copied with it). Which functions split is
  learnt as they are built: a statement that fails to compile and reads such a name builds
  the function again with every statement's names checked (`SPLIT_HINT`; lower_stmt `stmt`).

- **A statement splits on a value** it computes (``max(best, prices[i] + f(n - i))`` of an `f`
  returning a ``num``): the value is computed first (`HOIST`; `pre_evaluated` hands it to
  its reader), then the statement is lowered once per type, as for a name. Only where that
  keeps CPython's order: nothing the statement evaluates before it can have an effect (a
  call, an index, an attribute), and it is not evaluated conditionally or repeatedly (an
  `and`/`or` operand after the first, a conditional expression's branch, a comprehension,
  a lambda, a `while` test). Elsewhere it is a CompileError that says to assign it to a
  variable first.

A list made here of ints and floats holds ``num`` elements (lists.py: `element_type` merges,
`widen_to_num`), a dict or set ``num`` keys and values (dicts.py `_meet`); a ``num`` stored
into a class field or a list of one type from elsewhere is a CompileError
(docs/differences.md). Code whose ints and floats never meet pays nothing: no ``num``
is made, and no statement is checked.
"""

from __future__ import annotations

import ast
import math

from script.errors import MIXED_NUMBERS, CompileError
from script.frontend import ast_order, union_values
from script.ir import types as T
from script.ir.core import Const, Value

SPLIT_HINT = ("$num", "split")      # the build round's hints: statements split on their names
HOIST = ("$num", "hoist")           # ... and the expressions (ast nodes) statements split on
AROUND = ("$num", "around")         # ... and the (expression, read) pairs split where they are
_MAX_SPLIT = 3                     # names one statement may split on (2**3 copies)
_MAX_COPIES = 16                   # ... and copies of it, for names holding unions


def is_num(v) -> bool:
    return isinstance(getattr(v, "type", None), T.IntFloatType)


def splits(v) -> bool:
    """Whether `v` is taken apart before an operation: an int|float, or a union of other
    types (union_values.py), which shares this machinery."""
    return isinstance(getattr(v, "type", None), (T.IntFloatType, T.UnionType))


def parts(cx, v: Value, loc) -> tuple[Value, Value, Value]:
    """(is_float, int value, float value) of `v` (the operands of a ``num`` built here)."""
    if getattr(v, "opname", None) == "tuple":
        return tuple(v.operands)
    if isinstance(v, Const) and isinstance(v.value, tuple):
        return tuple(Const(x, t, loc) for x, t in zip(v.value, v.type.elems))
    return tuple(cx.emit("extract", [v], t, k, loc) for k, t in enumerate(v.type.elems))


def build(emit, v: Value, loc) -> Value:
    """`v` (a bool, a signed int or an f64) as a ``num``; `emit(op, operands, type)` makes
    an instruction where the value is wanted."""
    if is_num(v):
        return v
    if v.type == T.F64:
        elems = [Const(True, T.BOOL), Const(0, T.I64), v]
    else:
        i = v if v.type == T.I64 else Const(int(v.value), T.I64, loc) if isinstance(v, Const) \
            else emit("convert", [v], T.I64)
        elems = [Const(False, T.BOOL), i, Const(0.0, T.F64)]
    return emit("tuple", elems, T.INT_FLOAT)


def as_float(cx, v: Value, loc) -> Value:
    """`float(v)` of a ``num``, where a float is wanted (a float parameter, `float()`, a
    store into a float array)."""
    is_float, i, f = parts(cx, v, loc)
    return cx.emit("select", [is_float, f, cx.emit("convert", [i], T.F64, None, loc)], T.F64, None, loc)


_SWAPPED = {"lt": "gt", "le": "ge", "gt": "lt", "ge": "le", "eq": "eq", "ne": "ne"}


def exact_compare(cx, pred: str, a: Value, b: Value, node) -> Value:
    """`a <pred> b` of an int and a float compared exactly, as CPython does (``2**53 + 1 ==
    2.0**53`` is False; converting the int to a float first said True): where the int
    converts to exactly the float, the float is an integer and the two compare as ints
    (the float 2**63, beyond every int64, is above them all); otherwise the rounded int is
    on the same side of the float as the int itself."""
    loc = cx.loc(node)
    i, f = (a, b) if a.type == T.I64 else (b, a)
    pred = pred if i is a else _SWAPPED[pred]
    g = cx.emit("convert", [i], T.F64, None, loc)
    same = cx.emit("cmp", [g, f], T.BOOL, "eq", loc)
    big = cx.emit("cmp", [f, Const(2.0 ** 63, T.F64)], T.BOOL, "eq", loc)
    exact = cx.emit("and", [same, cx.emit("not", [big], T.BOOL, None, loc)], T.BOOL, None, loc)
    fi = cx.emit("convert", [cx.emit("select", [exact, f, Const(0.0, T.F64)], T.F64, None, loc)],
                 T.I64, None, loc)
    as_ints = cx.emit("cmp", [i, fi], T.BOOL, pred, loc)
    as_floats = cx.emit("cmp", [g, f], T.BOOL, pred, loc)
    when_same = cx.emit("select", [big, Const(pred in ("lt", "le", "ne"), T.BOOL), as_ints], T.BOOL, None, loc)
    return cx.emit("select", [same, when_same, as_floats], T.BOOL, None, loc)


def split(cx, values: list, fn, node):
    """`fn(*values)` with each ``num`` among `values` taken apart: lowered once where it
    holds a float and once where it holds an int, the results merged (None when `fn` only
    emits code)."""
    k = next((j for j, v in enumerate(values) if splits(v)), None)
    if k is None:
        return fn(*values)

    def side(w):
        return lambda: split(cx, values[:k] + [w] + values[k + 1:], fn, node)
    if union_values.is_union(values[k]):
        return union_values.each(cx, values[k], lambda w: side(w)(), node)
    is_float, i, f = parts(cx, values[k], cx.loc(node))
    if isinstance(is_float, Const):
        return side(f if is_float.value else i)()
    return cx.choose(is_float, side(f), side(i), node)


def truth(cx, v: Value, node) -> Value:
    """`bool(v)` of a ``num``: its float's where it holds one, else its int's."""
    loc = cx.loc(node)
    is_float, i, f = parts(cx, v, loc)
    nonzero_f = cx.emit("cmp", [f, Const(0.0, T.F64)], T.BOOL, "ne", loc)
    nonzero_i = cx.emit("cmp", [i, Const(0, T.I64)], T.BOOL, "ne", loc)
    return cx.emit("select", [is_float, nonzero_f, nonzero_i], T.BOOL, None, loc)


class NumRead(CompileError):
    """A ``num`` reached a read that cannot take one (`expr`): the statement that reads it
    may be split on it (`retry`), else this is the error."""

    def __init__(self, node, loc, t: T.Type = T.INT_FLOAT):
        what = f"'{node.id}'" if isinstance(node, ast.Name) else f"'{ast.unparse(node)}'"
        kinds = ["an int", "a float"] if isinstance(t, T.IntFloatType) else [str(a) for a in t.alternatives]
        paths = f"{kinds[0]} on some paths and {kinds[1]} on others" if len(kinds) == 2 else \
            f"one of {', '.join(kinds)} on different paths"
        super().__init__(f"{what} is {paths}, and compiled code cannot "
                         f"use such a value here" + ("" if isinstance(node, ast.Name) else
                                                     ": assign it to a variable first"), loc,
                         reason=MIXED_NUMBERS)
        self.node = node


def retry(cx, stmt: ast.stmt, node) -> bool:
    """Whether the function is to be built again with statement `stmt` split on `node`, the
    read that raised `NumRead`, or else the expression around that read split on it
    (`AROUND`; the hints say so when this returns True)."""
    if isinstance(node, ast.Name):
        if cx.hints.get(SPLIT_HINT):
            return _retry_around(cx, stmt, node)
    else:
        hoisted = cx.hints.get(HOIST, frozenset())
        if node in hoisted or not _hoistable(stmt, node):
            return _retry_around(cx, stmt, node)
        cx.hints[HOIST] = hoisted | {node}
    cx.hints[SPLIT_HINT] = True
    cx.hints_changed = True
    return True


def _retry_around(cx, stmt: ast.stmt, node) -> bool:
    """`retry` where the statement cannot split: the expression around read `node` is
    lowered once per type of its value instead (`split_around`), where that keeps CPython's
    order: `node` has no effect (a name: a comprehension's variable), so reading it before
    its siblings changes nothing."""
    pairs = cx.hints.get(AROUND, frozenset())
    made = [gen for gen, _ in cx.info.__dict__.get("_lazy_makers", {}).values() if gen is not None]
    root = next((r for r in [stmt] + made if _path(r, node) is not None), stmt)    # (`map(str, xs)`'s)
    around = next((e for e in _around(root, node) if (e, node) not in pairs and _first(e, node)), None)
    if around is None:
        return False
    cx.hints[AROUND] = pairs | {(around, node)}
    cx.hints_changed = True
    return True


def _first(around, node) -> bool:
    """Whether `node` may be computed once before the rest of expression `around`: nothing
    `around` evaluates before it has an effect (`str(kv[0])`), or it has none itself (a name)."""
    path = _path(around, node)
    return _quiet(node) or all(_evaluated_first(parent, child) for parent, child in zip(path, path[1:]))


def _evaluated_first(parent, child) -> bool:
    """Whether `child` is evaluated each time `parent` is, after nothing that has an effect
    (not an `and`/`or` operand after the first, nor a conditional expression's branch)."""
    if isinstance(parent, ast.BoolOp) and child is not parent.values[0] \
            or isinstance(parent, ast.IfExp) and child is not parent.test:
        return False
    before = ast_order.evaluation_order(parent)
    return all(_quiet(n) for n in before[:before.index(child)])


_COMPREHENSIONS = (ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)


def _around(stmt: ast.stmt, node) -> list:
    """The expressions of `stmt` that read `node` and may be lowered as a whole once per
    type of it, innermost first (an outer one where an inner one's lowering reads `node`
    itself: `type(x).__name__`): not a method's attribute (its call), not a target, and
    not outside the comprehension or lambda that binds the names `node` reads (only a first
    iterable is evaluated outside its comprehension)."""
    path = _path(stmt, node) or []
    out = []
    for k in range(len(path) - 2, 0, -1):
        p, child = path[k], path[k + 1]
        if isinstance(p, ast.Lambda) or isinstance(p, _COMPREHENSIONS) and not (
                child is p.generators[0] and _path(child.iter, node) is not None):
            break
        if isinstance(getattr(p, "ctx", None), (ast.Store, ast.Del)) or isinstance(p, ast.NamedExpr):
            break
        if not isinstance(p, ast.expr) or isinstance(p, (ast.Starred, ast.FormattedValue, ast.Slice)) \
                or isinstance(p, ast.Attribute) and isinstance(path[k - 1], ast.Call) and path[k - 1].func is p:
            continue
        out.append(p)
    return out


def _path(root, node) -> list | None:
    """The nodes from `root` down to `node`, both included; None when `node` is not in it."""
    if root is node:
        return [root]
    for c in ast.iter_child_nodes(root):
        p = _path(c, node)
        if p is not None:
            return [root] + p
    return None


def split_around(cx, node: ast.expr, reads: list, lower):
    """`lower()` (expression `node`) once per type of the value of each of `reads` (an
    int|float or a union), which `pre_evaluated` hands to its reader in each copy; the
    copies' results meet (`retry`)."""
    cx.splitting.add(id(node))
    try:
        values = [(r, cx.lazy_any(r)) for r in reads]

        def with_reads(k: int):
            if k == len(values):
                return lower()
            r, v = values[k]

            def one(w):
                cx.pre_evaluated[id(r)] = w
                try:
                    return with_reads(k + 1)
                finally:
                    cx.pre_evaluated.pop(id(r), None)
            return split(cx, [v], one, node)
        return with_reads(0)
    finally:
        cx.splitting.discard(id(node))


# Expressions that have no effect before a hoisted one is computed: evaluating the hoisted
# one first changes nothing CPython could show.
_QUIET = (ast.Name, ast.Constant, ast.expr_context, ast.operator, ast.unaryop, ast.cmpop, ast.boolop,
          ast.BinOp, ast.UnaryOp, ast.Compare, ast.BoolOp, ast.IfExp, ast.Tuple)


def _quiet(node) -> bool:
    """Whether evaluating `node` has no effect CPython could show: names, constants,
    operators, and attributes of names (`math.sqrt`, `np.pi`: a module's or a local's)."""
    return all(isinstance(n, _QUIET) or isinstance(n, ast.Attribute) and isinstance(n.value, ast.Name)
               for n in ast.walk(node))


def _hoistable(stmt: ast.stmt, target) -> bool:
    """Whether `target`, an expression of `stmt`'s head, may be computed before the rest of
    `stmt` (the module docstring)."""
    if isinstance(stmt, ast.While):
        return False
    for root in _head(stmt):
        p = _path(root, target)
        if p is not None:
            return all(not isinstance(parent, (ast.Lambda,) + _COMPREHENSIONS) and _evaluated_first(parent, child)
                       for parent, child in zip(p, p[1:]))
    return False


# ---- statements ------------------------------------------------------------------------

# Where a name's value may be a `num` without splitting its statement: an operand of an
# operator (which splits), a value assigned to a name or returned (it stays one), a test
# (`truth`).
_KEEPS = (ast.BinOp, ast.UnaryOp, ast.Compare, ast.BoolOp, ast.IfExp, ast.NamedExpr)


def _head(node: ast.stmt) -> list:
    """The expressions statement `node` evaluates itself (a compound statement's test or
    iterable, not its body)."""
    if isinstance(node, (ast.If, ast.While)):
        return [node.test]
    if isinstance(node, (ast.For, ast.AsyncFor)):
        return [node.iter]
    if isinstance(node, ast.With):
        return [i.context_expr for i in node.items]
    if isinstance(node, ast.Match):
        return [node.subject]
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Try)):
        return []
    return [node]


def split_names(node: ast.stmt) -> list[str]:
    """The names statement `node` reads where a `num` could not stay one, in order."""
    found: dict[str, None] = {}

    def visit(n, keeps: bool) -> None:
        if isinstance(n, ast.Name):
            if isinstance(n.ctx, ast.Load) and not keeps:
                found[n.id] = None
            return
        if isinstance(n, (ast.Assign, ast.AnnAssign, ast.Return)):
            simple = isinstance(n, ast.Return) or all(isinstance(t, ast.Name) for t in
                                                      (n.targets if isinstance(n, ast.Assign) else [n.target]))
            for c in ast.iter_child_nodes(n):
                visit(c, simple and c is n.value)
            return
        if isinstance(n, ast.AugAssign):
            visit(n.target, isinstance(n.target, ast.Name))
            visit(n.value, True)
            return
        for c in ast.iter_child_nodes(n):
            visit(c, isinstance(n, _KEEPS))

    for e in _head(node):
        visit(e, isinstance(node, (ast.If, ast.While)))
    return list(found)


def _num_locals(cx, node: ast.stmt, loc) -> list:
    """(name, value) of the `num` locals statement `node` reads where one cannot stay one."""
    names = [n for n in split_names(node) if n in cx.locals and not cx.comp_scopes]
    values = [(n, cx.read(n, loc)) for n in names]
    return [(n, v) for n, v in values if splits(v)]


def reads_num(cx, node: ast.stmt) -> bool:
    """Whether statement `node`, which failed to compile, reads a `num` local where one
    cannot stay one (from where it began: its block may be half built)."""
    if cx.block is None:
        return False
    try:
        return bool(_num_locals(cx, node, cx.loc(node)))
    except Exception:   # noqa: BLE001 - a half-built statement: its own error stands
        return False


def split_statement(cx, node: ast.stmt, lower) -> bool:
    """Lower statement `node` (`lower()`) once per type of each `num` local it reads where one
    cannot stay one, and of each value it computes that `HOIST` names; False when there is
    neither (the caller lowers it as it is)."""
    if cx.block is None or cx.is_dead():
        return False
    loc = cx.loc(node)
    values = _num_locals(cx, node, loc)
    hoisted = cx.hints.get(HOIST)
    exprs = [n for root in _head(node) for n in ast.walk(root) if n in hoisted] if hoisted else []
    if not values and not exprs:
        return False
    copies = math.prod(len(v.type.alternatives) if union_values.is_union(v) else 2 for _, v in values)
    if len(values) + len(exprs) > _MAX_SPLIT or copies > _MAX_COPIES:
        cx.error(f"{len(values) + len(exprs)} values of this statement are each of several types (an int "
                 f"on some paths and a float on others, or a union): compiled code builds a statement once "
                 f"per combination of their types, for at most {_MAX_SPLIT} values and {_MAX_COPIES} "
                 "combinations (assign parts of it to variables in separate statements)", node)

    def each(v: Value, take, go) -> None:
        """`go()` after `take(w)` for `v`'s float and its int (or `v` itself)."""
        if not splits(v):
            take(v)
            go()
            return

        def side(w):
            return lambda: take(w) or go()
        if union_values.is_union(v):
            union_values.each(cx, v, lambda w: side(w)(), node)
            return
        is_float, i, f = parts(cx, v, loc)
        if isinstance(is_float, Const):
            side(f if is_float.value else i)()
        else:
            cx.choose(is_float, side(f), side(i), node)

    def with_names(k: int) -> None:
        if k == len(values):
            return with_exprs(0)
        name, v = values[k]

        def go():
            w = cx.read(name, loc)
            with_names(k + 1)
            if cx.block is not None and not cx.is_dead() and cx.read(name, loc) is w:
                cx.write(name, v)       # unchanged: the merge after finds one value again
        each(v, lambda w: cx.write(name, w), go)

    chosen: dict = {}       # id(expr): the value of each hoisted expression in this copy

    def with_exprs(k: int) -> None:
        if k == len(exprs):
            cx.pre_evaluated.update(chosen)         # (each copy reads them: `lazy` pops them)
            try:
                lower()
            finally:
                for e in exprs:
                    cx.pre_evaluated.pop(id(e), None)
            return
        e = exprs[k]
        v = cx.expr_opt(e, num=True, union=True)
        each(v, lambda w: chosen.__setitem__(id(e), w), lambda: with_exprs(k + 1))

    with_names(0)
    return True
