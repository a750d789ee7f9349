"""`functools.cache` and `functools.lru_cache` on nested functions: memoized in compiled code.

A decorated nested `def` is rewritten, before anything reads the outer function, into a dict
that belongs to the outer function's call (as CPython's cache does: the decorator runs each
time the `def` does), and the function, which looks its arguments up first and records what
it returns::

    $memo:f = {}
    def f(a, b):
        $key = (a, b)                      # one parameter: the argument itself is the key
        if $key in $memo:f:
            return $memo:f[$key]
        <the body, each `return x` now:  $result = x; $memo:f[$key] = $result; return $result>

`maxsize` is not honoured (nothing is evicted; results are the same for the pure functions
a cache is meant for). Keyword-only, default and `*args` parameters are refused, as are
other decorators (closures.py).

A module-level cached function (called from compiled code, or given to `@script`: its
wrapper's `__wrapped__`, `cached_function`) is compiled from its own source rewritten by
`memoize_self` into an entry that defines the memoized function nested under its own name
and calls it, so its recursive calls find the memo; the memo belongs to the entry's call, as
a nested function's does (so results are CPython's; only the cache's lifetime differs).
"""

from __future__ import annotations

import ast
import copy
import functools


def is_cache_decorator(dec: ast.expr, resolve) -> bool:
    """Whether `dec` is ``functools.cache``, ``functools.lru_cache`` or a call of
    ``lru_cache(...)``; `resolve(name)` gives (found, value) of a free name."""
    target = dec.func if isinstance(dec, ast.Call) else dec
    parts = []
    while isinstance(target, ast.Attribute):
        parts.append(target.attr)
        target = target.value
    if not isinstance(target, ast.Name):
        return False
    found, obj = resolve(target.id)
    for attr in reversed(parts):
        if not found:
            break
        obj = getattr(obj, attr, None)
    if not found:
        return False
    if isinstance(dec, ast.Call):
        return obj is functools.lru_cache
    return obj is functools.cache or obj is functools.lru_cache


def cached_function(obj):
    """The plain function a `functools.cache`/`lru_cache` wrapper `obj` wraps, else None."""
    import types
    wrapped = getattr(obj, "__wrapped__", None)
    if type(obj).__name__ == "_lru_cache_wrapper" and isinstance(wrapped, types.FunctionType):
        return wrapped
    return None


def memoize_self(fn: ast.FunctionDef, resolve) -> None:
    """When `fn`'s own decorators include a cache: rewrite it in place into
    ``def fn(a, b): <fn memoized, nested, without its defaults>; return fn(a, b)``."""
    caches = [d for d in fn.decorator_list if is_cache_decorator(d, resolve)]
    args = fn.args
    if not caches or args.vararg or args.kwarg or args.kwonlyargs:
        return
    import copy
    inner = copy.deepcopy(fn)
    inner.decorator_list = caches[:1]
    inner.args.defaults = []
    names = [a.arg for a in args.posonlyargs + args.args]
    call = ast.Return(ast.Call(ast.Name(fn.name, ast.Load()), [ast.Name(n, ast.Load()) for n in names], []))
    fn.body = [inner] + _located([call], fn)
    fn.decorator_list = [d for d in fn.decorator_list if d not in caches]


def memoize_nested(fn: ast.FunctionDef, resolve) -> None:
    """Rewrite in place every nested def of `fn` (at any depth) decorated only with a cache."""
    for node in ast.walk(fn):
        for field in ("body", "orelse", "finalbody"):
            stmts = getattr(node, field, None)
            if not isinstance(stmts, list):
                continue
            out = []
            for stmt in stmts:
                if isinstance(stmt, ast.FunctionDef) and stmt is not fn and len(stmt.decorator_list) == 1 \
                        and is_cache_decorator(stmt.decorator_list[0], resolve):
                    out.extend(_memoized(stmt))
                else:
                    out.append(stmt)
            setattr(node, field, out)


def _memoized(fn: ast.FunctionDef) -> list[ast.stmt]:
    args = fn.args
    if args.vararg or args.kwarg or args.kwonlyargs or args.defaults or args.kw_defaults:
        return [fn]                     # left decorated: closures.py refuses it with its line
    names = [a.arg for a in args.posonlyargs + args.args]
    memo = f"$memo:{fn.name}"

    def name(n, store=False):
        return ast.Name(n, ast.Store() if store else ast.Load())

    def remember(value: ast.expr, at: ast.AST) -> list[ast.stmt]:
        result = ast.Assign([name("$result", True)], value)
        if fn.returns is not None and empty_container(value):
            # `return set()` under `-> set[int]`: the annotation types the empty set, as it
            # types one returned directly (the result is stored in the memo first)
            result = ast.AnnAssign(name("$result", True), copy.deepcopy(fn.returns), value, 1)
        return _located([result,
                         ast.Assign([ast.Subscript(name(memo), name("$key"), ast.Store())], name("$result")),
                         ast.Return(name("$result"))], at)

    class Returns(ast.NodeTransformer):
        def visit_FunctionDef(self, n):
            return n                    # a nested scope's returns are its own

        visit_Lambda = visit_FunctionDef

        def visit_Return(self, n):
            return remember(n.value if n.value is not None else ast.Constant(None), n)

    key = name(names[0]) if len(names) == 1 else ast.Tuple([name(n) for n in names], ast.Load())
    body = [Returns().visit(stmt) for stmt in fn.body]
    body = [s for stmt in body for s in (stmt if isinstance(stmt, list) else [stmt])]
    if not (body and isinstance(body[-1], ast.Return)):
        body += remember(ast.Constant(None), fn.body[-1])
    head = _located([ast.Assign([name("$key", True)], key),
                     ast.If(ast.Compare(name("$key"), [ast.In()], [name(memo)]),
                            [ast.Return(ast.Subscript(name(memo), name("$key"), ast.Load()))], [])], fn)
    new = ast.FunctionDef(fn.name, fn.args, head + body, [], fn.returns, None)
    table = ast.Assign([name(memo, True)], ast.Dict([], []))
    for stmt in (new, table):
        ast.copy_location(stmt, fn)
        ast.fix_missing_locations(stmt)
    return [table, new]


def empty_container(node: ast.expr, calls=("set", "list", "dict")) -> bool:
    """Whether `node` is ``[]``, ``{}``, or a call without arguments of one of `calls`
    (``set()``, ``list()``, ``dict()``)."""
    if isinstance(node, (ast.List, ast.Dict, ast.Set)):
        return not (node.keys if isinstance(node, ast.Dict) else node.elts)
    return isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and not node.args \
        and not node.keywords and node.func.id in calls


def _located(stmts: list[ast.stmt], at: ast.AST) -> list[ast.stmt]:
    """`stmts`, every node of them at `at`'s place in the source."""
    for stmt in stmts:
        for n in ast.walk(stmt):
            ast.copy_location(n, at)
    return stmts
