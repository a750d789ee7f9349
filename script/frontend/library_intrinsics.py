"""The intrinsics of the library written in the compiled subset (numpy_lib, numpy_stats,
numpy_lapack, deepcopylib, ...): ``raise_if``, a raise with a message formatted from ints,
``lapack``, the IR's `lapack` op, and ``identity``, a list's, dict's or set's address (the
`list_id` op). Each lowers its own call (`__script_call__`).

A leaf, so that the library modules need not import the modules that call them
(numpy_lib_call, numpy_lapack_call): that closed import cycles (tests/test_import_graph.py).
"""

from __future__ import annotations

import ast

from script.ir import types as T
from script.ir.core import Const, Value
from script.ir.ops import LAPACK_ROUTINES


class _RaiseIf:
    """``raise_if(cond, ValueError, "text %d ...", n, ...)`` in library code: raise with
    NumPy's message formatted from ints (a `raise` takes a constant message only)."""

    def __script_call__(self, low, node: ast.Call) -> Value:
        cond_node, exc_node, text_node, *arg_nodes = node.args
        if not (isinstance(text_node, ast.Constant) and isinstance(text_node.value, str)):
            low.error("raise_if() takes a constant message", text_node)
        cond = low.truth(low.expr(cond_node), cond_node)
        args = [low.coerce(low.expr(a), T.I64, a) for a in arg_nodes]
        text = text_node.value.replace("%d", "%lld") if args else text_node.value
        low.raise_if(cond, low.exception_class(exc_node), text, node, args)
        return Const(None, T.NONE)


raise_if = _RaiseIf()


class _Identity:
    """``identity(x)`` in library code: the address of list, dict or set `x` (of a dict or
    set, of its first table part), an i64 that names it while it lives: CPython's `id(x)`
    for a memo (deepcopylib.py)."""

    def __script_call__(self, low, node: ast.Call) -> Value:
        v = low.expr(node.args[0])
        if isinstance(v.type, T.HashType):
            v = low.table_parts(v, node)[0]
        if not isinstance(v.type, T.ListType):
            low.error(f"identity() takes a list, dict or set, not {v.type}", node)
        return low.emit("list_id", [v], T.I64, None, low.loc(node))


identity = _Identity()


_OPERAND = {"c": T.I64, "i": T.I64, "f": T.F64, "r": T.F32}


class _Lapack:
    """``lapack("dsyevd", "V", "L", n, a, lda, ...)`` in library code: the `lapack` op, giving
    INFO (or LAPACK_MISSING); ``lapack("?gemm", ...)`` picks the routine of the arrays'
    precision. A CHARACTER argument is a one-letter string constant or an int
    code; arrays must be C-contiguous float64 (``d``), float32 (``s``) or int64 (``n``) arrays, which the
    routine reads and writes in place."""

    def __script_call__(self, low, node: ast.Call) -> Value:
        name_node, *arg_nodes = node.args
        routine = name_node.value if isinstance(name_node, ast.Constant) else None
        values = {}
        if isinstance(routine, str) and routine.startswith("?"):
            routine = self.precision(low, routine, arg_nodes, values)
        if routine not in LAPACK_ROUTINES:
            low.error(f"lapack() takes a routine of {', '.join(LAPACK_ROUTINES)}", name_node)
        sig = LAPACK_ROUTINES[routine]
        if len(arg_nodes) != len(sig):
            low.error(f"lapack({routine!r}) takes {len(sig)} arguments ({sig}), not {len(arg_nodes)}", node)
        operands = []
        for k, (letter, arg) in enumerate(zip(sig, arg_nodes)):
            if letter == "c" and isinstance(arg, ast.Constant) and isinstance(arg.value, str):
                operands.append(Const(ord(arg.value), T.I64))
                continue
            v = values[k] if k in values else low.expr(arg)
            if letter in _OPERAND:
                operands.append(low.coerce(v, _OPERAND[letter], arg))
                continue
            want = {"d": T.F64, "s": T.F32}.get(letter, T.I64)
            if not (isinstance(v.type, T.ArrayType) and v.type.dtype == want and v.type.layout == "C"):
                low.error(f"lapack({routine!r}) takes a C-contiguous {want} array here, not {v.type}", arg)
            operands.append(v)
        return low.emit("lapack", operands, T.I64, routine, low.loc(node))

    @staticmethod
    def precision(low, routine: str, arg_nodes, values: dict) -> str:
        """``?gemm``: ``dgemm`` or ``sgemm`` by the dtype of the first array argument (the
        arguments before it evaluated into `values`, by position)."""
        for k, arg in enumerate(arg_nodes):
            if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
                continue                    # a CHARACTER
            v = values[k] = low.expr(arg)
            if isinstance(v.type, T.ArrayType):
                return ("s" if v.type.dtype == T.F32 else "d") + routine[1:]
        low.error(f"lapack({routine!r}) needs an array argument", arg_nodes[0] if arg_nodes else None)


lapack = _Lapack()
