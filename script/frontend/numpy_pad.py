"""``np.pad(array, pad_width, mode='constant', constant_values=0)`` of 1-, 2- and 3-d arrays.

The frontend (`lower_pad`) turns `pad_width` — an int, a ``(before, after)`` pair, a 1-tuple
of a pair, or one pair per axis — into an int64 array of shape (ndim, 2), and `mode` into an
int; `_pad`, in the compiled subset, fills each element of the new array from the element of
`array` that NumPy's mode maps it to: 'constant' (`constant_values`, one scalar), 'edge',
'wrap', 'reflect' and 'symmetric' (NumPy's default 'even' reflection, periodic beyond one
length of the array). NumPy's errors: negative widths (``index can't contain negative
values``) and extending an empty axis with a mode other than 'constant'.
Not supported (CompileError at the call): other modes ('linear_ramp', 'maximum', 'mean',
'median', 'minimum', 'empty', a function), `constant_values` pairs, `stat_length`,
`reflect_type`, arrays of more than three axes.
"""

from __future__ import annotations

import ast

import numpy as np

from script.frontend.library_intrinsics import raise_if
from script.ir import types as T
from script.ir.core import Const

MODES = {"constant": 0, "edge": 1, "wrap": 2, "reflect": 3, "symmetric": 4}
_CONSTANT, _EDGE, _WRAP, _REFLECT, _SYMMETRIC = 0, 1, 2, 3, 4


def lower_pad(low, node: ast.Call):
    names = ("array", "pad_width", "mode", "constant_values")
    given = dict(zip(names, node.args))
    for k in node.keywords:
        if k.arg not in names:
            low.error(f"numpy.pad({k.arg}=...) is not supported in compiled code", k.value)
        given[k.arg] = k.value
    if len(node.args) > len(names) or "array" not in given or "pad_width" not in given:
        low.error("numpy.pad() takes an array, pad_width, and optionally mode and constant_values", node)
    mode_node = given.get("mode")
    mode = 0
    if mode_node is not None:
        if not (isinstance(mode_node, ast.Constant) and mode_node.value in MODES):
            low.error(f"numpy.pad()'s mode must be one of {', '.join(map(repr, MODES))} in compiled code", mode_node)
        mode = MODES[mode_node.value]
    arr = low.expr(given["array"])
    if not isinstance(arr.type, T.ArrayType) or not 1 <= arr.type.ndim <= 3:
        low.error(f"numpy.pad() takes an array of 1 to 3 axes here, not {arr.type}", given["array"])
    widths = _widths(low, low.expr(given["pad_width"]), arr.type.ndim, given["pad_width"])
    cval_node = given.get("constant_values")
    cval = low.expr(cval_node) if cval_node is not None else Const(0, T.I64)
    if not (cval.type.is_numeric() or isinstance(cval.type, T.BoolType)):
        low.error(f"numpy.pad()'s constant_values must be a number here, not {cval.type}", cval_node or node)
    parts = [(arr, given["array"]), (widths, None), (Const(mode, T.I64), None), (cval, cval_node)]
    args = []
    for value, where in parts:
        arg = ast.copy_location(ast.Name(f"pad_arg{len(args)}", ast.Load()), node) if where is None else where
        low.pre_evaluated[id(arg)] = value
        args.append(arg)
    call = ast.copy_location(ast.Call(ast.Name("_pad", ast.Load()), args, []), node)
    return low.call_script(low.ctx.info_for(_pad), call)


def _widths(low, pw, ndim: int, where):
    """pad_width as an (ndim, 2) int64 array."""
    loc = low.loc(where)

    def ints(v):
        if isinstance(v.type, (T.IntType, T.BoolType)):
            return [low.coerce(v, T.I64, where)]
        if isinstance(v.type, T.TupleType) and v.type.elems:
            return [x for k, t in enumerate(v.type.elems) for x in ints(low.emit("extract", [v], t, k, loc))]
        low.error(f"numpy.pad()'s pad_width must be ints or tuples of ints here, not {v.type}", where)

    shape = _shape_of(pw.type)
    flat = ints(pw)
    if shape in ((), (1,), (1, 1)):
        pairs = [(flat[0], flat[0])] * ndim
    elif shape in ((2,), (1, 2)):
        pairs = [(flat[0], flat[1])] * ndim
    elif shape == (ndim, 2):
        pairs = [(flat[2 * k], flat[2 * k + 1]) for k in range(ndim)]
    elif shape == (ndim, 1):
        pairs = [(flat[k], flat[k]) for k in range(ndim)]
    else:
        low.error(f"numpy.pad()'s pad_width does not fit an array of {ndim} axes: operands could not be "
                  f"broadcast together with remapped shapes [original->remapped]: {shape}", where)
    out = low.alloc_array(T.I64, [Const(ndim, T.I64), Const(2, T.I64)], where)
    for k, pair in enumerate(pairs):
        for side, v in enumerate(pair):
            low.emit("store", [out, v, Const(k, T.I64), Const(side, T.I64)], T.NONE, None, loc)
    return out


def _shape_of(t) -> tuple | None:
    if isinstance(t, (T.IntType, T.BoolType)):
        return ()
    if not isinstance(t, T.TupleType) or not t.elems:
        return None
    inner = {_shape_of(e) for e in t.elems}
    if len(inner) != 1 or None in inner:
        return None
    return (len(t.elems),) + inner.pop()


# ---- library code (the compiled subset) -------------------------------------------------------

def _source(k: int, n: int, mode: int) -> int:
    """The index of `array` along an axis of length `n` that position `k` (relative to the
    array's first element) takes its value from; -1 for the constant."""
    if 0 <= k < n:
        return k
    if mode == _CONSTANT:
        return -1
    if mode == _EDGE:
        return 0 if k < 0 else n - 1
    if mode == _WRAP:
        return k % n
    if mode == _REFLECT:
        if n == 1:
            return 0
        m = k % (2 * n - 2)
        return m if m < n else 2 * n - 2 - m
    m = k % (2 * n)
    return m if m < n else 2 * n - 1 - m


def _check(widths, shape, mode: int) -> None:
    for k in range(widths.shape[0]):
        if widths[k, 0] < 0 or widths[k, 1] < 0:
            raise ValueError("index can't contain negative values")
        if mode != _CONSTANT and shape[k] == 0 and (widths[k, 0] > 0 or widths[k, 1] > 0):
            raise_if(True, ValueError, "can't extend empty axis %d using modes other than 'constant' or 'empty'", k)


def _pad(array, widths, mode: int, cval):
    _check(widths, array.shape, mode)
    if array.ndim == 1:
        n0 = array.shape[0]
        out = np.empty(n0 + widths[0, 0] + widths[0, 1], dtype=array.dtype)
        for i in range(out.shape[0]):
            si = _source(i - widths[0, 0], n0, mode)
            if si < 0:
                out[i] = cval
            else:
                out[i] = array[si]
        return out
    if array.ndim == 2:
        n0 = array.shape[0]
        n1 = array.shape[1]
        out = np.empty((n0 + widths[0, 0] + widths[0, 1], n1 + widths[1, 0] + widths[1, 1]), dtype=array.dtype)
        for i in range(out.shape[0]):
            si = _source(i - widths[0, 0], n0, mode)
            for j in range(out.shape[1]):
                sj = _source(j - widths[1, 0], n1, mode)
                if si < 0 or sj < 0:
                    out[i, j] = cval
                else:
                    out[i, j] = array[si, sj]
        return out
    n0 = array.shape[0]
    n1 = array.shape[1]
    n2 = array.shape[2]
    out = np.empty((n0 + widths[0, 0] + widths[0, 1], n1 + widths[1, 0] + widths[1, 1],
                    n2 + widths[2, 0] + widths[2, 1]), dtype=array.dtype)
    for i in range(out.shape[0]):
        si = _source(i - widths[0, 0], n0, mode)
        for j in range(out.shape[1]):
            sj = _source(j - widths[1, 0], n1, mode)
            for k in range(out.shape[2]):
                sk = _source(k - widths[2, 0], n2, mode)
                if si < 0 or sj < 0 or sk < 0:
                    out[i, j, k] = cval
                else:
                    out[i, j, k] = array[si, sj, sk]
    return out
