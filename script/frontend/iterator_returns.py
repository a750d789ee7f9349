"""Iterators returned to Python: refused, since compiled code holds them as lists.

`map(f, xs)`, `filter`, `zip`, `reversed`, `enumerate`, `range(n)` and the iterators of
`itertools` are lists when held as values in compiled code (lists.md): what every consumer
there takes from the iterator, they give. Returned to Python, the list would be a different
object than CPython's (`<map object>`: `next(it)` fails, it can be consumed twice, its repr
differs). So the function called from Python that returns one (`return map(list, zip(*m))`,
or a name every assignment of which makes one) is a CompileError at the `return`; a compiled
caller of the same function takes the list as the iterator, and `return list(map(...))` is
fine.

The returns are recorded while lowering (`note_iterator_return`, on the IR function being
built) and checked for the entry function only (`reject_iterator_return`, from the compile
driver), as a callee's returns are never seen by Python.
"""

from __future__ import annotations

import ast
import itertools

from script.errors import CompileError
from script.ir import types as T
from script.frontend.table_args import MISSING, global_object

_MAKERS = {map, filter, zip, reversed, enumerate, range, iter}


def _maker(low, node) -> str | None:
    """The name of the iterator-making callable `node` (a call) calls, or None."""
    if not isinstance(node, ast.Call):
        return None
    func = node.func
    if isinstance(func, ast.Name) and func.id not in low.locals:
        obj = global_object(low.info, func.id)
    elif isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) and func.value.id not in low.locals:
        module = global_object(low.info, func.value.id)
        obj = getattr(module, func.attr, MISSING) if module is itertools else MISSING
    else:
        return None
    if any(obj is m for m in _MAKERS) or obj is not MISSING and getattr(obj, "__module__", None) == "itertools":
        return getattr(obj, "__name__", "an iterator")
    return None


def _returned_maker(low, value: ast.expr) -> str | None:
    made = _maker(low, value)
    if made is not None or not isinstance(value, ast.Name):
        return made
    # a name every assignment of which (in this function) makes such an iterator
    values = [n.value for n in ast.walk(low.info.node) if isinstance(n, ast.Assign)
              and any(isinstance(t, ast.Name) and t.id == value.id for t in n.targets)]
    makers = {_maker(low, v) for v in values}
    return makers.pop() if values and len(makers) == 1 and None not in makers else None


def note_iterator_return(low, node: ast.Return) -> None:
    """Record on the function being built that this `return` gives an iterator held as a list."""
    if node.value is None or low.gen_active is not None:
        return
    made = _returned_maker(low, node.value)
    if made is not None:
        low.func.__dict__.setdefault("iterator_returns", []).append((made, low.loc(node)))


def reject_iterator_return(func, name: str) -> None:
    """CompileError when `func`, called from Python, returns an iterator it holds as a list."""
    for made, loc in getattr(func, "iterator_returns", ()):
        raise CompileError(f"'{name}' returns {made}(...) to Python: compiled code holds it as a list, where "
                           f"CPython gives a {made} object; return list({made}(...)) instead, or iterate "
                           "it where it is made", loc)
    from script.frontend.function_values import contains_function    # (a leaf's import: no cycle)
    if contains_function(func.ret_type, records=True):
        raise CompileError(f"'{name}' returns a function made in compiled code to Python: not supported "
                           "(call it in compiled code, or return the values it computes)", func.loc)
    if T.holds_iter(func.ret_type):         # (inside a list or tuple: held_iterators.py)
        raise CompileError(f"'{name}' returns a value of type {func.ret_type} to Python: it holds range or "
                           f"iterator objects, which compiled code holds as lists; return list(...) of "
                           f"each instead", func.loc)
