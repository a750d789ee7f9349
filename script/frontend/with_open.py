"""``with open(p) as f: body`` in compiled code: for a file it is ``f = open(p)`` then ``try:
body`` ``finally: f.close()`` (a file's ``__enter__`` returns the file; its ``__exit__``
closes it and lets any exception go on), which `with_open` writes in the function's AST
before lowering (FunctionInfo); file_calls.py lowers the `open` call. Any other context
manager stays a `with`, which lowering refuses (np.errstate excepted).
"""

from __future__ import annotations

import ast
import builtins
import io

from script.frontend.pyref import bound_names, named_object


def with_open(fn: ast.FunctionDef, resolve) -> None:
    """Rewrite in place each ``with open(...) as NAME, ...:`` of `fn` whose items are all
    calls of the builtin `open` bound to names the body does not rebind (see the module's
    doc); `resolve(name)` is FunctionInfo.global_value."""
    bound = bound_names(fn)
    for node in ast.walk(fn):
        for field in ("body", "orelse", "finalbody"):
            stmts = getattr(node, field, None)
            if isinstance(stmts, list):
                stmts[:] = [_rewritten(s, bound, resolve) for s in stmts]
        for h in getattr(node, "handlers", ()):
            h.body[:] = [_rewritten(s, bound, resolve) for s in h.body]
        for c in getattr(node, "cases", ()):
            c.body[:] = [_rewritten(s, bound, resolve) for s in c.body]


def _rewritten(stmt, bound, resolve):
    if not isinstance(stmt, ast.With) or not all(_is_open(item, bound, resolve) for item in stmt.items):
        return stmt
    names = {item.optional_vars.id for item in stmt.items}
    stored = {n.id for s in stmt.body for n in ast.walk(s) if isinstance(n, ast.Name) and not isinstance(n.ctx, ast.Load)}
    if names & stored or len(names) < len(stmt.items):
        return stmt
    body = stmt.body
    for item in reversed(stmt.items):
        name = item.optional_vars.id
        close = ast.Expr(ast.Call(ast.Attribute(ast.Name(name, ast.Load()), "close", ast.Load()), [], []))
        body = [ast.Assign([ast.Name(name, ast.Store())], item.context_expr),
                ast.Try(body, [], [], [close])]
    out = ast.If(ast.Constant(True), body, [])      # (one statement in the place of one)
    for n in ast.walk(out):
        if not hasattr(n, "lineno"):
            ast.copy_location(n, stmt)
    return out


def _is_open(item: ast.withitem, bound, resolve) -> bool:
    call = item.context_expr
    if not (isinstance(item.optional_vars, ast.Name) and isinstance(call, ast.Call)
            and isinstance(call.func, ast.Name)):
        return False
    obj = named_object(call.func, bound, resolve)
    return obj is builtins.open or obj is io.open
