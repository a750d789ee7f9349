"""What the compiled LAPACK functions (numpy_lapack) need from the frontend: the `lapack`
intrinsic that emits the IR's `lapack` op, the string options of their NumPy signatures, and
the forms chosen by a constant argument that changes what the function returns
(``np.linalg.svd(a, compute_uv=False)`` gives an array, not a tuple).
"""

from __future__ import annotations

import ast

from script.ir import types as T
from script.ir.core import Const, Value
from script.ir.ops import LAPACK_ROUTINES

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


# String options of the NumPy functions, by NumPy name then parameter: their int codes are
# what the library passes to LAPACK (a CHARACTER's code) or tests.
OPTIONS = {
    "linalg.eigh": {"UPLO": {"L": ord("L"), "U": ord("U"), "l": ord("L"), "u": ord("U")}},
    "linalg.eigvalsh": {"UPLO": {"L": ord("L"), "U": ord("U"), "l": ord("L"), "u": ord("U")}},
    "linalg.qr": {"mode": {"reduced": 0, "complete": 1}},
}

# NumPy name -> (parameter, {constant value: the library function to compile instead}): a
# bool that changes the result's type must be a constant at the call.
CONSTANT_FORMS = {
    "linalg.svd": ("compute_uv", {False: "_svd_values"}),
}


def constant_form(low, name: str, args: dict):
    """The library function `name`'s call compiles instead, by a constant argument of
    `CONSTANT_FORMS`, or None. A non-constant value there is a CompileError."""
    entry = CONSTANT_FORMS.get(name)
    if entry is None:
        return None
    pname, table = entry
    if pname not in args:
        return None
    v, vnode = args[pname]
    if not isinstance(v, Const) or not isinstance(v.value, bool):
        low.error(f"numpy.{name}() takes a constant True or False for '{pname}' here", vnode)
    fn = table.get(v.value)
    if fn is None:
        return None
    from script.frontend import numpy_lapack
    return getattr(numpy_lapack, fn)


def _check_matrix(*params: str, b_ranks: tuple = ()):
    """A check (numpy_lib_call.CHECKS' form): each of `params` is a 2-d array (a stack of
    matrices is not supported yet); `b` is an array of `b_ranks` axes when given."""
    def check(low, vals, nodes, node):
        for p in params:
            v = vals.get(p)
            if v is None or not isinstance(v.type, T.ArrayType):
                continue
            if v.type.ndim != 2:
                what = "a stack of matrices" if v.type.ndim > 2 else f"a {v.type.ndim}-d array"
                low.error(f"numpy.linalg takes a 2-d array here, not {what} "
                          f"({v.type.ndim}-dimensional array given)", nodes[p])
        b = vals.get("b")
        if b_ranks and b is not None and isinstance(b.type, T.ArrayType):
            if b.type.ndim not in b_ranks:
                low.error(f"numpy.linalg.lstsq takes a 1-d or 2-d right-hand side here "
                          f"({b.type.ndim}-dimensional array given)", nodes["b"])
    return check


CHECKS = {
    "linalg.eigh": _check_matrix("a"),
    "linalg.eigvalsh": _check_matrix("a"),
    "linalg.cholesky": _check_matrix("a"),
    "linalg.slogdet": _check_matrix("a"),
    "linalg.svd": _check_matrix("a"),
    "linalg.qr": _check_matrix("a"),
    "linalg.pinv": _check_matrix("a"),
    "linalg.matrix_rank": _check_matrix("A"),
    "linalg.lstsq": _check_matrix("a", b_ranks=(1, 2)),
}
