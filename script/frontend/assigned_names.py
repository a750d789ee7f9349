"""The names a function's body stores to: a leaf (it imports only `ast`), so that modules
source.py imports (shared_defaults.py) can use the one walk without closing an import cycle."""

from __future__ import annotations

import ast

_CAPTURES = (ast.MatchAs, ast.MatchStar, ast.MatchMapping)


def assigned_names(fn: ast.FunctionDef) -> set[str]:
    """The names stored to in `fn`'s body, outside nested functions and lambdas (nested
    scopes are rejected elsewhere). A walk with an explicit stack over each node's
    `_fields` (an `ast.NodeVisitor` took a sixth of the time of reading a function,
    `ast.iter_child_nodes`' generators twice the time of this loop)."""
    names: set[str] = set()
    stack: list = list(fn.body)
    skip = (ast.FunctionDef, ast.Lambda)
    while stack:
        node = stack.pop()
        if isinstance(node, ast.Name):
            if isinstance(node.ctx, ast.Store):
                names.add(node.id)
            continue
        if isinstance(node, skip) or not isinstance(node, ast.AST):
            continue                    # a nested scope; a str or None from a field's list
        if isinstance(node, _CAPTURES):
            name = node.rest if isinstance(node, ast.MatchMapping) else node.name
            if name is not None:
                names.add(name)         # a `match` pattern's capture (match.py)
        for field in node._fields:
            value = getattr(node, field, None)
            if isinstance(value, list):
                stack.extend(value)
            elif isinstance(value, ast.AST):
                stack.append(value)
    return names
