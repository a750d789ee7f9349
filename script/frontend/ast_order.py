"""Where an expression sits among what its statement evaluates, in CPython's order: its
parents (`parents`), the order of a node's children (`evaluation_order`), and whether
anything evaluated after it may write an array (`effects_after`).

An element-wise array expression (elementwise.py `ArrayExpr`) is computed where its consumer
wants it, in the consumer's loop: its arrays are read then, not where CPython evaluated it.
Where an operand evaluated after it may write one of them (`(a * 2) + f(a)` of an `f` that
stores into `a`, `np.where(a <= 10, a, f(a))`), it is computed where CPython computes it
(lower_expr `lazy_any`). Calls of NumPy's and math's functions, of pure builtins and of an
array's methods that read it write no array; any other call may.
"""

from __future__ import annotations

import ast
import functools

from script.errors import CompileError


@functools.lru_cache(maxsize=32)
def parent_map(function: ast.AST) -> dict:
    """id(child) -> parent over the function's tree."""
    return {id(c): p for p in ast.walk(function) for c in ast.iter_child_nodes(p)}


def parents(cx) -> dict:
    """`parent_map` of the function being lowered."""
    return parent_map(cx.info.node)


def evaluation_order(node) -> list:
    """`node`'s children in the order CPython evaluates them (an assignment's value first; an
    augmented assignment's target first: `d[k] += v` reads `d[k]`, maybe raising KeyError,
    before it computes `v`)."""
    children = list(ast.iter_child_nodes(node))
    if isinstance(node, (ast.Assign, ast.AnnAssign)) and node.value is not None:
        children.remove(node.value)
        children.insert(0, node.value)
    return children


def effects_after(cx, node) -> bool:
    """Whether its statement evaluates, after expression `node`, something that may write an
    array (the module docstring)."""
    up = parents(cx)
    child, parent = node, up.get(id(node))
    while parent is not None and not isinstance(parent, (ast.FunctionDef, ast.Lambda) + _SCOPES):
        order = evaluation_order(parent)
        if child in order and any(_may_write(cx, n) for n in order[order.index(child) + 1:]):
            return True
        if isinstance(parent, ast.stmt):
            return False
        child, parent = parent, up.get(id(parent))
    return False


_SCOPES = (ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)

# Builtins, NumPy and math functions, and array methods that write no array.
_PURE_BUILTINS = frozenset(("len", "abs", "min", "max", "float", "int", "bool", "round", "range", "sum", "str",
                            "repr", "isinstance", "tuple", "list", "sorted", "zip", "enumerate", "any", "all",
                            "divmod", "pow", "complex", "reversed", "type", "print"))
_PURE_MODULES = ("numpy", "math", "cmath")
_WRITING = frozenset(("copyto", "put", "place", "putmask", "fill_diagonal", "at", "shuffle"))
_READING_METHODS = frozenset(("sum", "mean", "max", "min", "copy", "reshape", "astype", "dot", "any", "all",
                              "std", "var", "argmax", "argmin", "cumsum", "cumprod", "ravel", "flatten",
                              "transpose", "prod", "item", "tolist", "conj", "nonzero", "round", "clip"))


def _may_write(cx, node) -> bool:
    for n in ast.walk(node):
        if isinstance(n, (ast.NamedExpr, ast.Yield, ast.YieldFrom, ast.Await)):
            return True
        if isinstance(n, ast.Call) and not _pure_call(cx, n):
            return True
    return False


def _pure_call(cx, call: ast.Call) -> bool:
    if any(k.arg == "out" for k in call.keywords):
        return False
    func = call.func
    if isinstance(func, ast.Name):
        return func.id not in cx.locals and func.id in _PURE_BUILTINS and _module_of(cx, func) == "builtins"
    if isinstance(func, ast.Attribute) and func.attr not in _WRITING:
        base = func.value
        while isinstance(base, ast.Attribute):      # np.linalg.norm
            base = base.value
        if isinstance(base, ast.Name) and base.id not in cx.locals:
            module = _module_of(cx, base)
            if module is not None and module.split(".")[0] in _PURE_MODULES:
                return True
        return func.attr in _READING_METHODS        # `x.sum()`: an array's (or a list's) read
    return False


def _module_of(cx, name: ast.Name) -> str | None:
    """The module a global name's object belongs to (`np` itself: "numpy"), else None."""
    try:
        obj = getattr(cx.lookup(name), "obj", None)
    except CompileError:
        return None
    if obj is None:
        return None
    import types
    if isinstance(obj, types.ModuleType):
        return obj.__name__
    return getattr(obj, "__module__", None) or ("builtins" if getattr(obj, "__self__", None) is not None else None)
