"""CPython's private name mangling, applied to a method's AST as the bytecode compiler does.

Inside a class body, an identifier ``__x`` (two leading underscores, not ending in two) is
``_Class__x``: ``self.__p = p`` in ``class C`` stores the attribute ``_C__p`` (what `vars()`
shows and `getattr(obj, "_C__p")` reads), and ``self.__helper()`` calls the method stored as
``_C__helper``. Compiled code reads the same names: attributes, variables, parameters,
nested functions' names, `except ... as __e` and `global`/`nonlocal` names; keyword names in
calls and strings are left as CPython leaves them.
"""

from __future__ import annotations

import ast


def mangling_class(qualname: str) -> str | None:
    """The class whose body encloses the function of `qualname`, innermost first: a name of
    the qualified name that is neither the function itself nor followed by ``<locals>``
    ("C.m", "C.m.<locals>.inner" and "Outer.C.m" give "C")."""
    parts = qualname.split(".")
    for i in range(len(parts) - 2, -1, -1):
        if parts[i] != "<locals>" and parts[i + 1] != "<locals>":
            return parts[i]
    return None


def mangle(name: str, cls: str) -> str:
    if not name.startswith("__") or name.endswith("__") or "." in name:
        return name
    stripped = cls.lstrip("_")
    return f"_{stripped}{name}" if stripped else name


class _Mangler(ast.NodeVisitor):
    def __init__(self, cls: str):
        self.cls = cls

    def visit_Name(self, node: ast.Name):
        node.id = mangle(node.id, self.cls)

    def visit_Attribute(self, node: ast.Attribute):
        node.attr = mangle(node.attr, self.cls)
        self.generic_visit(node)

    def visit_arg(self, node: ast.arg):
        node.arg = mangle(node.arg, self.cls)
        self.generic_visit(node)

    def visit_FunctionDef(self, node: ast.FunctionDef):
        node.name = mangle(node.name, self.cls)
        self.generic_visit(node)

    def visit_ExceptHandler(self, node: ast.ExceptHandler):
        if node.name is not None:
            node.name = mangle(node.name, self.cls)
        self.generic_visit(node)

    def visit_Global(self, node):
        node.names = [mangle(n, self.cls) for n in node.names]

    visit_Nonlocal = visit_Global

    def visit_ClassDef(self, node):
        pass        # a class inside a method mangles by its own name (and is refused later)


def mangle_private_names(node: ast.FunctionDef, qualname: str) -> None:
    """Mangle `node` (the def of the function of `qualname`) in place; its own name stays,
    as its `__name__` does."""
    cls = mangling_class(qualname)
    if cls is None:
        return
    own = node.name
    _Mangler(cls).visit(node)
    node.name = own
