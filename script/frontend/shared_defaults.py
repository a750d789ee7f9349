"""Mutable default arguments: the one object in ``f.__defaults__``, shared by every call.

CPython evaluates a default once, when the ``def`` runs; a list, dict or set default is one
object that every call omitting the argument gets, and changes to it are seen by the next
call and by Python::

    def fib(n, memo={}):
        if n in memo: return memo[n]
        r = n if n < 2 else fib(n - 1) + fib(n - 2)   # the same `memo`, not a new one
        memo[n] = r
        return r

A call from Python that omits it passes the default object (the dispatcher's fallback binds
the call with ``inspect.Signature.apply_defaults``), written back after the call like any
list or dict argument (backend.runtime.list_reflect, table_reflect). A compiled call of a
function from its own body that omits it (`shared_defaults` lists those parameters) passes
the caller's own parameter, which is the default object as long as no call from Python gave
another one: the dispatcher checks that (`check_given`) and raises TypeError for a call that
passes its own object, where CPython would use two (the caller's and the default).

Elsewhere a default is a constant of compiled code (copied when the callee is compiled,
dicts.global_table, lists.global_list), which is CPython's answer only where the callee
never changes the object or lets it out: `default_argument` refuses the rest.
"""

from __future__ import annotations

import ast

from script.errors import CompileError
from script.frontend.assigned_names import assigned_names

MUTABLE = (list, dict, set)
_READERS = frozenset({"len", "sum", "min", "max", "sorted", "list", "tuple", "set", "dict", "any", "all",
                      "enumerate", "zip", "reversed", "str", "repr", "print", "frozenset"})
_READ_METHODS = frozenset({"get", "keys", "values", "items", "count", "index", "copy", "issubset",
                           "issuperset", "isdisjoint", "union", "intersection", "difference"})


def shared_defaults(py_func, node: ast.FunctionDef, defaults: dict) -> tuple[str, ...]:
    """The parameters of `node` whose default is a list, dict or set and which a call of the
    function by its own name in its body omits."""
    mutable = [n for n, v in defaults.items() if type(v) in MUTABLE]
    if not mutable or py_func.__name__ == "<lambda>":
        return ()
    positional = [a.arg for a in node.args.posonlyargs + node.args.args]
    out = []
    for call in ast.walk(node):
        if not (isinstance(call, ast.Call) and isinstance(call.func, ast.Name) and call.func.id == node.name):
            continue
        if any(isinstance(a, ast.Starred) for a in call.args) or any(k.arg is None for k in call.keywords):
            continue        # (`f(*xs)`: which are given is not syntax; the call is checked when lowered)
        given = set(positional[:len(call.args)]) | {k.arg for k in call.keywords}
        out += [n for n in mutable if n not in given and n not in out]
    return tuple(n for n in defaults if n in out)


def default_argument(cx, info, name: str, node):
    """The value a compiled call of `info`'s function omitting `name` passes, where its
    default is a list, dict or set; None for any other default (a constant)."""
    obj = info.defaults[name]
    if type(obj) not in MUTABLE:
        return None
    own = _is_own(cx, info)
    if own and name in getattr(info, "shared_defaults", ()) and name in cx.info.param_names \
            and not _rebinds(cx.info, name):
        return cx.expr(ast.copy_location(ast.Name(name, ast.Load()), node))
    if obj and _only_read(info, name):
        return None         # a constant copy gives CPython's answer
    kind = type(obj).__name__
    why = "rebinds it" if own and name in cx.info.param_names else \
        "is not the function itself, so it has no way to the object" if not own else "changes or keeps it"
    raise CompileError(f"'{info.name}' is called without '{name}', whose default is a {kind} shared by "
                       f"every call in CPython; compiled code passes that object only in the function's "
                       f"own calls of itself, and this caller {why}: pass '{name}' explicitly",
                       cx.loc(node))


def check_given(info, arguments: dict) -> None:
    """TypeError for a call from Python that gives its own object for a parameter whose
    default the function's own calls pass on (`shared_defaults`): CPython would use the
    given object in this call and the default in the inner ones; compiled code has one."""
    for name in getattr(info, "shared_defaults", ()):
        if arguments.get(name, info.defaults[name]) is not info.defaults[name]:
            raise TypeError(f"{info.name}() was given its own '{name}', but it calls itself without "
                            f"'{name}', which CPython then gives the default object: compiled code passes "
                            f"one object to both (call it without '{name}', or pass '{name}' on in its "
                            "own calls)")


def check_passed(cx, info, node) -> None:
    """CompileError for a compiled call giving a shared default's parameter of `info` an
    object, other than the function's own call passing its own parameter on: its calls of
    itself would pass that object where CPython gives the default."""
    positional = info.param_names[:getattr(info, "n_positional", len(info.param_names))]
    for name in getattr(info, "shared_defaults", ()):
        k = positional.index(name) if name in positional else None
        if any(isinstance(a, ast.Starred) for a in node.args):
            arg = node
        elif k is not None and k < len(node.args):
            arg = node.args[k]
        else:
            arg = next((kw.value for kw in node.keywords if kw.arg == name), None)
        if arg is None:
            continue
        if _is_own(cx, info) and isinstance(arg, ast.Name) and arg.id == name and not _rebinds(cx.info, name):
            continue
        cx.error(f"'{info.name}' is given '{name}' here, but it calls itself without '{name}', which "
                 "CPython then gives the default object: compiled code passes one object to both "
                 f"(pass '{name}' on in its own calls, or give it none here)", node)


def _is_own(cx, info) -> bool:
    """Whether the function being built is `info`'s function itself (not a nested one)."""
    return getattr(cx.info, "outer", None) is None and \
        getattr(cx.info, "py_func", None) is getattr(info, "py_func", False)


def not_kept_text(names) -> str:
    """Why a function with shared defaults is neither saved nor pickled."""
    listed = ", ".join(f"'{n}'" for n in names)
    return (f"it calls itself without {listed}, whose default is one object shared by its calls, "
            "which a saved or pickled function does not keep (pass it in its own calls)")


def _rebinds(info, name: str) -> bool:
    return name in assigned_names(getattr(info, "base", info).node)


def _only_read(info, name: str) -> bool:
    """Whether every use of parameter `name` in `info`'s body only reads items of it: `p[k]`,
    `k in p`, `len(p)`, `for x in p` (so a copy of its default gives CPython's answer)."""
    node = getattr(info, "base", info).node
    if _rebinds(info, name):
        return False
    parents = {}
    for parent in ast.walk(node):
        for child in ast.iter_child_nodes(parent):
            parents[id(child)] = parent
    for use in ast.walk(node):
        if not (isinstance(use, ast.Name) and use.id == name):
            continue
        up = parents.get(id(use))
        if isinstance(up, ast.Subscript) and up.value is use and isinstance(up.ctx, ast.Load):
            continue
        if isinstance(up, ast.Compare) and use in up.comparators and \
                isinstance(up.ops[up.comparators.index(use)], (ast.In, ast.NotIn)):
            continue
        if isinstance(up, ast.Call) and isinstance(up.func, ast.Name) and up.func.id in _READERS and use in up.args:
            continue
        if isinstance(up, ast.Attribute) and up.attr in _READ_METHODS and isinstance(parents.get(id(up)), ast.Call):
            continue
        if isinstance(up, (ast.For, ast.comprehension)) and up.iter is use:
            continue
        return False
    return True
