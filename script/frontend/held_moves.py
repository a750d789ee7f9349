"""A generator or iterator held in a local and read once, just after: made where it is read.

    chunks = map("".join, zip(*[iter(bits)] * 5))       g = (x * x for x in xs)
    out = "-".join(chunks)                              total = sum(g)

CPython makes the iterator at the assignment and runs it where it is read. Compiled code
runs a maker call or generator expression lazily only where it is consumed in place
(`sum(x * x for x in xs)`, `for c in map(f, xs)`); held in a local it is a list made at the
assignment (held_iterators.py), which calls `f` early and on every item. So before lowering,
`FunctionInfo` moves the expression to its read (a rewrite of the function's AST) when that
changes nothing CPython would show:

- the local is bound by that one assignment and read at one place, in the statement list
  that holds the assignment, after only *quiet* statements (assignments of constants, names
  and literals of them to other names the expression does not read);
- in the reading statement, the read is evaluated once (not in a loop body, a while test, a
  lambda, or a comprehension's part other than its first iterable), and everything that
  statement evaluates before it is quiet too.

Nothing observable then happens between the two places, so making the iterator at the read
(its first iterable evaluated, `iter()` taken) gives CPython's answer, exceptions included.
Anything else stays held: a list where no one could tell (held_iterators.hold decides, and
refuses the rest), and a held generator expression is refused.
"""

from __future__ import annotations

import ast

from script.frontend.held_iterators import maker_kind
from script.frontend.pyref import bound_names, named_object

_SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)
_COMPREHENSIONS = (ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)


# Builtins that take every item of their first argument at once, running nothing else
# between: a maker call given to one may be made a list at once (held_iterators.hold).
_WHOLE_CONSUMERS = (sum, min, max, list, tuple, set, frozenset, sorted, dict)


def move_held_iterators(fn: ast.FunctionDef, resolve) -> None:
    """Rewrite `fn` in place (see the module's doc). `resolve(name)` is `(found, value)` for a
    free name (FunctionInfo.global_value). Marks, for held_iterators.hold, the expressions
    given whole to a builtin that takes all their items at once (`sum(map(f, xs))`,
    `"".join(g)`: `iterator_place` "whole") and those returned ("returned"), on the nodes
    themselves (a copy of the tree keeps them)."""
    names = _name_counts(fn)
    bound = bound_names(fn)
    for stmts in _statement_lists(fn):
        for i in range(len(stmts) - 1):
            stmt = stmts[i]
            if not (isinstance(stmt, ast.Assign) and len(stmt.targets) == 1
                    and isinstance(stmt.targets[0], ast.Name)):
                continue
            name, value = stmt.targets[0].id, stmt.value
            if names.get(name) != (1, 1) or not _is_lazy(value, bound, resolve):
                continue
            path = _moved_read(stmts, i, name, value)
            if path is not None:
                _replace(*path[-1], value)
                stmts[i] = ast.copy_location(ast.Pass(), stmt)
    for node in ast.walk(fn):
        if isinstance(node, ast.Return) and node.value is not None:
            node.value.iterator_place = "returned"
        elif isinstance(node, ast.Call) and node.args and _consumes_whole(node.func, bound, resolve):
            node.args[0].iterator_place = "whole"


def _consumes_whole(func, bound, resolve) -> bool:
    if isinstance(func, ast.Attribute) and func.attr == "join" and isinstance(func.value, ast.Constant):
        return isinstance(func.value.value, str)
    obj = named_object(func, bound, resolve)
    return any(obj is c for c in _WHOLE_CONSUMERS)


def _name_counts(fn) -> dict[str, tuple[int, int]]:
    """name -> (stores, loads) over all of `fn`, nested scopes included; a name declared
    global or nonlocal anywhere, or bound by anything but a plain Name, is left out."""
    counts: dict[str, list[int]] = {}
    excluded: set[str] = set()
    for node in ast.walk(fn):
        if isinstance(node, ast.Name):
            c = counts.setdefault(node.id, [0, 0])
            c[isinstance(node.ctx, ast.Load)] += 1
            if isinstance(node.ctx, ast.Del):
                excluded.add(node.id)
        elif isinstance(node, (ast.Global, ast.Nonlocal)):
            excluded.update(node.names)
        elif isinstance(node, (ast.MatchAs, ast.MatchStar)) and node.name:
            excluded.add(node.name)
        elif isinstance(node, ast.MatchMapping) and node.rest:
            excluded.add(node.rest)
        elif isinstance(node, ast.ExceptHandler) and node.name:
            excluded.add(node.name)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            excluded.update((a.asname or a.name).split(".")[0] for a in node.names)
        elif isinstance(node, _SCOPES) and not isinstance(node, ast.Lambda):
            excluded.add(node.name)
        elif isinstance(node, ast.arg):
            excluded.add(node.arg)
    return {k: (v[0], v[1]) for k, v in counts.items() if k not in excluded}


def _statement_lists(fn):
    """Every statement list of `fn`'s own body (not of nested scopes)."""
    stack = [fn.body]
    while stack:
        stmts = stack.pop()
        yield stmts
        for stmt in stmts:
            if isinstance(stmt, _SCOPES):
                continue
            for field in ("body", "orelse", "finalbody"):
                inner = getattr(stmt, field, None)
                if isinstance(inner, list) and inner and isinstance(inner[0], ast.stmt):
                    stack.append(inner)
            for h in getattr(stmt, "handlers", ()):
                stack.append(h.body)
            for c in getattr(stmt, "cases", ()):
                stack.append(c.body)


def _is_lazy(value, bound, resolve) -> bool:
    """A generator expression, or a call of a maker CPython holds as an iterator (map,
    filter, zip, enumerate, reversed, itertools'), not a range."""
    if isinstance(value, ast.GeneratorExp):
        return True
    if not isinstance(value, ast.Call):
        return False
    obj = named_object(value.func, bound, resolve)
    kind = maker_kind(obj) if obj is not None else None
    return kind is not None and kind != "range"


def _moved_read(stmts, i, name, value):
    """The path (`_path_to_read`) to the one read of `name` that `value`, assigned by
    `stmts[i]`, may move to; None where it may not."""
    reads = _names_read(value)
    if name in reads:
        return None
    for stmt in stmts[i + 1:]:
        path = _path_to_read(stmt, name)
        if path is not None:
            return path if _evaluated_once_after_quiet(stmt, path, reads) else None
        if not _quiet_statement(stmt, reads):
            return None
    return None


def _names_read(node) -> set[str]:
    return {n.id for n in ast.walk(node) if isinstance(n, ast.Name)}


def _quiet(node) -> bool:
    """Evaluating `node` runs no code and changes nothing (it may raise only where a name
    is unbound, which CPython reports the same way on either side of the moved value)."""
    if isinstance(node, (ast.Constant, ast.Name)):
        return True
    if isinstance(node, (ast.Tuple, ast.List)):
        return all(_quiet(e) for e in node.elts)
    return False


def _quiet_statement(stmt, reads: set[str]) -> bool:
    return (isinstance(stmt, ast.Assign) and _quiet(stmt.value)
            and all(isinstance(t, ast.Name) and t.id not in reads for t in stmt.targets)) \
        or isinstance(stmt, ast.Pass)


def _path_to_read(stmt, name):
    """The chain [(parent, field, index), ...] from `stmt` down to the load of `name`, or None."""
    def find(node, path):
        for field in node._fields:
            value = getattr(node, field, None)
            items = value if isinstance(value, list) else [value]
            for k, child in enumerate(items):
                if not isinstance(child, ast.AST):
                    continue
                step = path + [(node, field, k if isinstance(value, list) else None)]
                if isinstance(child, ast.Name) and child.id == name and isinstance(child.ctx, ast.Load):
                    return step
                found = find(child, step)
                if found is not None:
                    return found
        return None
    return find(stmt, [])


# The fields of a statement that are evaluated once, first (before any other part of it).
_FIRST = {ast.Expr: "value", ast.Return: "value", ast.Assign: "value", ast.AnnAssign: "value",
          ast.For: "iter", ast.If: "test", ast.Raise: "exc", ast.Assert: "test"}


def _evaluated_once_after_quiet(stmt, path, reads: set[str]) -> bool:
    """Whether the read at the end of `path` is evaluated at most once per run of `stmt`,
    with only quiet expressions evaluated before it (and nothing rebinding `reads`)."""
    _, field, _ = path[0]
    if _FIRST.get(type(stmt)) != field:
        if not (isinstance(stmt, ast.AugAssign) and field == "value" and isinstance(stmt.target, ast.Name)):
            return False
    for (parent, field, index), nxt in zip(path[1:], path[2:] + [None]):
        if isinstance(parent, (ast.Lambda, ast.NamedExpr, ast.Await, ast.Yield, ast.YieldFrom)):
            return False
        if isinstance(parent, _COMPREHENSIONS):
            # only the first iterable is evaluated where the comprehension is
            if not (field == "generators" and index == 0 and nxt is not None and nxt[1] == "iter"):
                return False
            continue
        if isinstance(parent, ast.comprehension):
            continue                    # (its iter: checked at the comprehension)
        if not _earlier_quiet(parent, field, index):
            return False
    return True


def _earlier_quiet(parent, field, index) -> bool:
    """The parts of `parent` evaluated before its `field[index]` are quiet (a method looked
    up on a quiet value counts as quiet: `"".join(g)`)."""
    if isinstance(parent, ast.Call):
        if field == "func":
            return True
        before = parent.args[:index] if field == "args" else list(parent.args)
        if field == "keywords":
            before += [k.value for k in parent.keywords[:index]]
        return _quiet_callee(parent.func) and all(_quiet(b) for b in before)
    if isinstance(parent, ast.keyword) or isinstance(parent, ast.Starred):
        return True
    if isinstance(parent, (ast.Tuple, ast.List, ast.Set)):
        return all(_quiet(e) for e in parent.elts[:index])
    if isinstance(parent, ast.BinOp):
        return field == "left" or _quiet(parent.left)
    if isinstance(parent, ast.BoolOp):
        return all(_quiet(v) for v in parent.values[:index])
    if isinstance(parent, ast.Compare):
        return field == "left" or _quiet(parent.left) and all(_quiet(c) for c in parent.comparators[:index])
    if isinstance(parent, ast.UnaryOp):
        return True
    if isinstance(parent, ast.IfExp):
        return field == "test" or _quiet(parent.test)
    return False


def _quiet_callee(func) -> bool:
    if isinstance(func, ast.Attribute):
        return _quiet(func.value)
    return _quiet(func)


def _replace(parent, field, index, value) -> None:
    if index is None:
        setattr(parent, field, value)
    else:
        getattr(parent, field)[index] = value
