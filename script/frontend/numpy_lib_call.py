"""Calls of the NumPy functions written in the compiled subset (numpy_lib, numpy_stats,
numpy_signal, numpy_linalg_lib): which function a ``np.<name>`` names, the argument checks
that must fail at the user's line rather than inside the library's code, and the results
the frontend assembles itself (``np.nonzero``'s tuple, one array per axis).

A library function is an ordinary Python function compiled like any callee; a parameter
annotated ``np.ndarray`` must receive an array (a scalar there is a CompileError at the
argument). `CHECKS` adds the dtype and rank rules NumPy enforces before computing, and
a module's `SCALAR_FORMS` names the function that takes a scalar where NumPy also takes one
(``np.digitize(2.0, bins)``), its `ARRAY_FORMS` the one for an optional array that was
given (``weights=w``): compiled code can ask neither whether a value is an array nor
whether an array is None. String options (``mode="same"``) arrive as ints (`OPTIONS`).
Arguments are evaluated once, in the call's order, before any of this (``pre_evaluated``).
"""

from __future__ import annotations

import ast
import functools

from script.frontend.array_views import line_view
from script.frontend.unknown import Unknown
from script.ir import types as T
from script.ir.core import Const, Value


@functools.cache
def library() -> dict:
    """NumPy name -> function: every public function of the library modules; a function
    named ``linalg_<x>`` is ``np.linalg.<x>``."""
    from script.frontend import numpy_along, numpy_select, numpy_shape, numpy_split
    from script.lib.numpy import (numpy_lapack, numpy_lib, numpy_linalg_lib, numpy_more, numpy_signal,
                                  numpy_stats)
    table = {}
    for module in (numpy_lib, numpy_stats, numpy_signal, numpy_linalg_lib, numpy_lapack, numpy_shape,
                   numpy_more, numpy_select, numpy_along, numpy_split):
        for name, fn in vars(module).items():
            if callable(fn) and not name.startswith("_") and getattr(fn, "__module__", None) == module.__name__:
                table[name.replace("linalg_", "linalg.", 1)] = fn
    return table


@functools.cache
def forms() -> tuple[dict, dict]:
    """The library modules' ``SCALAR_FORMS`` and ``ARRAY_FORMS``: NumPy name -> (parameter,
    the function to call instead when that parameter holds a scalar / an array)."""
    from script.lib.numpy import numpy_signal, numpy_stats
    modules = (numpy_stats, numpy_signal)
    return ({k: v for m in modules for k, v in m.SCALAR_FORMS.items()},
            {k: v for m in modules for k, v in getattr(m, "ARRAY_FORMS", {}).items()})


def library_name(obj) -> str | None:
    """The library's name for NumPy function `obj` (``"linalg.solve"``), or None."""
    import numpy as np
    name = getattr(obj, "__name__", None)
    if name is None or any(obj is t for t in (str, bytes, object)):    # np.str &c. warn
        return None
    if getattr(np, name, None) is obj and (name in library() or name == "nonzero"):
        return name
    if getattr(np.linalg, name, None) is obj and "linalg." + name in library():
        return "linalg." + name
    if name == "sliding_window_view" and obj is np.lib.stride_tricks.sliding_window_view:
        return name
    return None


def call_library(low, node: ast.Call, name: str, first: Value | None = None, fn=None) -> Value:
    """``np.<name>(...)`` (or a method, `first` its array): checked, then compiled. `fn`: the
    library function to call where it is not ``np.<name>``'s (``a.sort()`` sorts in place)."""
    if name == "nonzero":
        return nonzero_tuple(low, node, first)
    from script.frontend import numpy_lapack_call
    name, node = flag_form(name, node)
    info = low.ctx.info_for(library()[name] if fn is None else fn)
    args = bind(low, info, node, first, name)
    form = numpy_lapack_call.constant_form(low, name, args)
    if form is not None:
        info = low.ctx.info_for(form)
    if any(isinstance(v.type, Unknown) for v, _ in args.values()):
        return low.call_script(info, node, first=first)
    scalar_forms, array_forms = forms()
    if name in array_forms:
        pname, fn = array_forms[name]
        if pname in args and isinstance(args[pname][0].type, T.ArrayType):
            info = low.ctx.info_for(fn)
    if name in scalar_forms:
        pname, fn = scalar_forms[name]
        if pname in args and not isinstance(args[pname][0].type, T.ArrayType):
            return low.call_script(low.ctx.info_for(fn), node, first=first)
    for pname in info.any_array_params:
        if pname in args and not isinstance(args[pname][0].type, T.ArrayType):
            v, vnode = args[pname]
            low.error(f"numpy.{name}() takes an array for '{pname}' here, not {v.type}", vnode)
    check = CHECKS.get(name) or numpy_lapack_call.CHECKS.get(name)
    if check is not None:
        check(low, {k: v for k, (v, _) in args.items()}, {k: n for k, (_, n) in args.items()}, node)
    return low.call_script(info, node, first=first)


def _is_static(low, arg: ast.AST) -> bool:
    """Whether `arg` names no value (``np.int64``, ``float``), which call_script binds
    statically (static_args.py)."""
    from script.frontend.static_args import Static, call_argument
    if not isinstance(arg, ast.Name) and not (isinstance(arg, ast.Attribute) and isinstance(arg.value, ast.Name)):
        return False
    try:
        return isinstance(call_argument(low, arg), Static)
    except Exception:                   # noqa: BLE001 - not a name the call can bind statically
        return False


# NumPy function -> {flag: the library function to call when only that flag is a constant
# True}: flags that change the type of the result (a tuple instead of an array).
FLAG_FORMS = {"unique": {"return_index": "unique_index", "return_counts": "unique_counts",
                         "return_inverse": "unique_inverse"},
              "histogram": {"density": "histogram_density"},
              "linalg.norm": {"keepdims": "linalg.norm_keepdims"}}


def flag_form(name: str, node: ast.Call) -> tuple[str, ast.Call]:
    """`name` and `node`, or the library function a constant flag selects (FLAG_FORMS) and
    the call without the flags (a constant False flag is dropped too)."""
    flags = FLAG_FORMS.get(name)
    if not flags:
        return name, node
    const = [kw for kw in node.keywords if kw.arg in flags and isinstance(kw.value, ast.Constant)
             and isinstance(kw.value.value, bool)]
    on = [kw for kw in const if kw.value.value]
    if not const or len(on) > 1 and name != "unique":
        return name, node
    call = ast.copy_location(ast.Call(func=node.func, args=node.args,
                                      keywords=[kw for kw in node.keywords if kw not in const]), node)
    if len(on) > 1:         # unique's flags together: the results in NumPy's order
        given = {kw.arg for kw in on}
        return "unique_" + "_".join(f[7:] for f in ("return_index", "return_inverse", "return_counts")
                                     if f in given), call
    return (flags[on[0].arg] if on else name), call


# Parameters that take a sequence of ints, not an array_like of values.
_LIST_PARAMS = frozenset({"shape", "axes", "reps", "newshape", "dims", "pad_width"})


def bind(low, info, node: ast.Call, first: Value | None,
         name: str | None = None) -> dict[str, tuple[Value, ast.AST]]:
    """The call's arguments by parameter name, each evaluated now, in the call's order, and
    left in `pre_evaluated` for `call_script` to take (unknown names are its to report).
    A list where NumPy takes an array_like is made an array (``np.asarray``).
    String options are those of NumPy function `name` (numpy_lapack_call.OPTIONS) or the
    shared `OPTIONS`."""
    from script.frontend.numpy_lapack_call import OPTIONS as FUNCTION_OPTIONS
    own = FUNCTION_OPTIONS.get(name, {})
    names = info.param_names[1:] if first is not None else info.param_names
    out = {}
    if first is not None:
        out[info.param_names[0]] = (first, node)
    pairs = list(zip(list(names) + [None] * len(node.args), node.args))
    for pname, arg in pairs + [(kw.arg, kw.value) for kw in node.keywords]:
        choices = own.get(pname, OPTIONS.get(pname))
        if choices is not None and isinstance(arg, ast.Constant) and isinstance(arg.value, str):
            if arg.value not in choices:
                low.error(f"{pname} must be one of {', '.join(map(repr, choices))} here, not {arg.value!r}", arg)
            v = Const(choices[arg.value], T.I64)
        elif isinstance(arg, ast.Lambda) or _is_static(low, arg):
            continue                    # a dtype, a function or a lambda: bound when the callee is compiled
        else:
            v = low.expr(arg)
            if isinstance(v.type, T.ListType) and pname not in _LIST_PARAMS:
                v = low.list_to_array(v, None, arg)     # array_like: np.percentile(a, [10, 90])
        low.pre_evaluated[id(arg)] = v
        if pname is not None:
            out[pname] = (v, arg)
    return out


# np.linalg.norm's string orders, as ints no numeric order takes.
ORD_FRO = 1 << 62
ORD_NUC = (1 << 62) + 1

# String options, passed to the library as ints (its defaults are these ints). NumPy's own
# codes for the modes of convolve and correlate.
OPTIONS = {"mode": {"valid": 0, "same": 1, "full": 2}, "indexing": {"xy": 0, "ij": 1},
           "side": {"left": 0, "right": 1},
           "kind": {"quicksort": 0, "mergesort": 1, "heapsort": 2, "stable": 3},
           "ord": {"fro": ORD_FRO, "nuc": ORD_NUC}}


def nonzero_tuple(low, node: ast.Call, first: Value | None) -> Value:
    """``np.nonzero(a)`` / ``a.nonzero()`` / ``np.where(a)``: the columns of
    ``np.argwhere(a)``, one index array per axis of `a`."""
    info = low.ctx.info_for(library()["argwhere"])
    args = bind(low, info, node, first)
    a, a_node = args.get("a", (None, node))
    if a is not None and not isinstance(a.type, (T.ArrayType, Unknown)):
        low.error(f"numpy.nonzero() takes an array here, not {a.type}", a_node)
    coords = low.call_script(info, node, first=first)
    if a is None or isinstance(coords.type, Unknown):
        return coords
    ndim = a.type.ndim
    cols = [line_view(low, coords, 0, [Const(k, T.I64)], node) for k in range(ndim)]
    return low.emit("tuple", cols, T.TupleType([c.type for c in cols]), None, low.loc(node))


# ---- argument checks ------------------------------------------------------------------------

def _dtype_kind(t: T.Type) -> str:
    if isinstance(t, T.BoolType):
        return "b"
    if isinstance(t, T.IntType):
        return "i" if t.signed else "u"
    return "f"


def _numpy_dtype(t: T.Type) -> str:
    from script.frontend.typeinfer import numpy_name
    return numpy_name(t)


def _check_bincount(low, vals, nodes, node) -> None:
    x = vals["x"]
    if x.type.ndim != 1:
        low.error("object too deep for desired array (numpy.bincount() takes a 1-d array)", nodes["x"])
    if _dtype_kind(x.type.dtype) == "f":
        low.error(f"Cannot cast array data from dtype('{_numpy_dtype(x.type.dtype)}') to dtype('int64') "
                  "according to the rule 'safe'", nodes["x"])
    w = vals.get("weights")
    if w is not None and not isinstance(w.type, (T.ArrayType, T.NoneType)):
        low.error(f"numpy.bincount() takes an array of weights here, not {w.type}", nodes["weights"])
    if w is not None and isinstance(w.type, T.ArrayType) and w.type.ndim != 1:
        low.error("object too deep for desired array (the weights must be 1-d)", nodes["weights"])


def _check_rank(param: str, ranks: tuple, what: str):
    def check(low, vals, nodes, node):
        v = vals.get(param)
        if v is not None and isinstance(v.type, T.ArrayType) and v.type.ndim not in ranks:
            low.error(f"{what} (a {v.type.ndim}-d array given)", nodes[param])
    return check


def _check_all(*checks):
    def check(low, vals, nodes, node):
        for c in checks:
            c(low, vals, nodes, node)
    return check


def _check_int_arg(param: str, what: str):
    def check(low, vals, nodes, node):
        v = vals.get(param)
        if v is not None and not isinstance(v.type, (T.IntType, T.BoolType)):
            low.error(f"{what}, not {v.type}", nodes[param])
    return check


def _check_bins(low, vals, nodes, node) -> None:
    bins = vals.get("bins")
    if bins is not None and isinstance(bins.type, T.ArrayType):
        if bins.type.ndim != 1:
            low.error("`bins` must be 1d, when an array", nodes["bins"])
        return
    _check_int_arg("bins", "numpy.histogram() takes an int number of bins or an array of edges here")(
        low, vals, nodes, node)


def _check_squeeze(low, vals, nodes, node) -> None:
    axis = vals.get("axis")
    if axis is None or isinstance(axis.type, T.NoneType):
        low.error("numpy.squeeze() without axis= is not supported in compiled code: the rank of its "
                  "result depends on the shape at run time (pass axis=)", node)
    if not isinstance(axis.type, (T.IntType, T.BoolType)):
        low.error(f"numpy.squeeze() takes one int axis here, not {axis.type}", nodes["axis"])


def _check_lexsort(low, vals, nodes, node) -> None:
    keys = vals["keys"]
    if isinstance(keys.type, T.TupleType) and not 1 <= len(keys.type.elems) <= 4:
        low.error("numpy.lexsort() takes a tuple of one to four keys (or a 2-d array) here", nodes["keys"])
    if not isinstance(keys.type, (T.TupleType, T.ArrayType)):
        low.error(f"numpy.lexsort() takes a tuple of arrays or a 2-d array here, not {keys.type}", nodes["keys"])


_SQUARE = _check_rank("a", (2,), "numpy.linalg takes a 2-d array here")

CHECKS = {
    "bincount": _check_bincount,
    "squeeze": _check_squeeze,
    "lexsort": _check_lexsort,
    "histogram": _check_bins,
    "histogram_density": _check_bins,
    "digitize": _check_rank("bins", (1,), "object too deep for desired array (the bins must be 1-d)"),
    "linalg.solve": _check_all(_SQUARE, _check_rank("b", (1, 2), "numpy.linalg.solve() takes a 1-d or "
                                                                 "2-d right-hand side here")),
    "linalg.inv": _SQUARE,
    "linalg.det": _SQUARE,
    "convolve": _check_all(_check_rank("a", (1,), "numpy.convolve() takes 1-d arrays"),
                           _check_rank("v", (1,), "numpy.convolve() takes 1-d arrays")),
    "correlate": _check_all(_check_rank("a", (1,), "numpy.correlate() takes 1-d arrays"),
                            _check_rank("v", (1,), "numpy.correlate() takes 1-d arrays")),
    "polyval": _check_rank("p", (1,), "numpy.polyval() takes a 1-d array of coefficients"),
    "searchsorted": _check_rank("a", (1,), "object too deep for desired array (numpy.searchsorted() "
                                           "takes a 1-d sorted array)"),
    "triu": _check_rank("m", (2,), "numpy.triu() takes a 2-d array here"),
    "tril": _check_rank("m", (2,), "numpy.tril() takes a 2-d array here"),
    "meshgrid": _check_all(_check_rank("x", (1,), "numpy.meshgrid() takes 1-d arrays here"),
                           _check_rank("y", (1,), "numpy.meshgrid() takes 1-d arrays here")),
}
