"""What the calls of the compiled LAPACK functions (numpy_lapack) need from the frontend: the
string options of their NumPy signatures, the forms chosen by a constant argument that
changes what the function returns (``np.linalg.svd(a, compute_uv=False)`` gives an array,
not a tuple), and the checks of their arguments. Their `lapack` intrinsic is in
library_intrinsics.
"""

from __future__ import annotations


from script.ir import types as T
from script.ir.core import Const

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
    from script.lib.numpy import numpy_lapack
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
