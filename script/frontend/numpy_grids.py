"""``np.mgrid[...]`` and ``np.ogrid[...]`` (index tricks, subscripted rather than called):
one to two slices, each ``start:stop:step`` with a real step (NumPy's length
``ceil((stop - start) / step)``) or a complex one (``0:1:5j``: that many points, the stop
included). The grid's dtype is NumPy's ``result_type`` of the bounds and steps: int64 when
all are ints, float64 otherwise. The frontend hook (`lower_index_grid`) reads the slices and
finds each axis's length and spacing; the compiled-subset functions below fill the grids
with NumPy's ``index * spacing + start``.
"""

from __future__ import annotations

import ast
import math

import numpy as np

from script.ir import types as T
from script.ir.core import Const
from script.frontend.pyref import PyRef


def _axis_steps(start, stop, step):
    """(length, spacing) of an axis ``start:stop:step`` with a real step."""
    return math.ceil((stop - start) / step), step


def _axis_points(start, stop, step):
    """(length, spacing) of an axis ``start:stop:nj``: n points, the stop included."""
    num = int(abs(step))
    if num != 1:
        return num, (stop - start) / float(num - 1)
    return num, 1.0


def _fill_1d(out, start, d):
    for i in range(out.shape[0]):
        out[i] = i * d + start
    return out


def _grid_1d_int(a0, d0, n0):
    """An arange: empty for a negative length (``np.indices``, for 2-d mgrids, raises)."""
    return _fill_1d(np.empty(max(n0, 0), dtype=np.int64), a0, d0)


def _grid_1d_float(a0, d0, n0):
    return _fill_1d(np.empty(max(n0, 0), dtype=np.float64), a0, d0)


def _fill_2d(out, a0, d0, a1, d1):
    for i in range(out.shape[1]):
        out[0, i, :] = i * d0 + a0
    for j in range(out.shape[2]):
        out[1, :, j] = j * d1 + a1
    return out


def _mgrid_2d_int(a0, d0, n0, a1, d1, n1):
    return _fill_2d(np.empty((2, n0, n1), dtype=np.int64), a0, d0, a1, d1)


def _mgrid_2d_float(a0, d0, n0, a1, d1, n1):
    return _fill_2d(np.empty((2, n0, n1), dtype=np.float64), a0, d0, a1, d1)


def _ogrid_2d_int(a0, d0, n0, a1, d1, n1):
    x = _grid_1d_int(a0, d0, n0)
    y = _grid_1d_int(a1, d1, n1)
    return x.reshape(x.shape[0], 1), y.reshape(1, y.shape[0])


def _ogrid_2d_float(a0, d0, n0, a1, d1, n1):
    x = _grid_1d_float(a0, d0, n0)
    y = _grid_1d_float(a1, d1, n1)
    return x.reshape(x.shape[0], 1), y.reshape(1, y.shape[0])


_BUILDERS = {("mgrid", 1, False): _grid_1d_int, ("mgrid", 1, True): _grid_1d_float,
             ("ogrid", 1, False): _grid_1d_int, ("ogrid", 1, True): _grid_1d_float,
             ("mgrid", 2, False): _mgrid_2d_int, ("mgrid", 2, True): _mgrid_2d_float,
             ("ogrid", 2, False): _ogrid_2d_int, ("ogrid", 2, True): _ogrid_2d_float}


def index_grid_name(low, node: ast.Subscript) -> str | None:
    """"mgrid" or "ogrid" when `node` subscripts NumPy's (``np.mgrid[...]``), else None."""
    base = node.value
    if not (isinstance(base, ast.Attribute) and base.attr in ("mgrid", "ogrid")):
        return None
    ref = low.attribute_ref(base)
    if not isinstance(ref, PyRef):
        return None
    obj = ref.obj
    return base.attr if type(obj).__name__ in ("MGridClass", "OGridClass") else None


def lower_index_grid(low, node: ast.Subscript, name: str):
    """``np.mgrid[a:b:c, d:e:f]`` / ``np.ogrid[...]`` in `low`, a FunctionLowering."""
    parts = node.slice.elts if isinstance(node.slice, ast.Tuple) else [node.slice]
    if not 1 <= len(parts) <= 2 or not all(isinstance(p, ast.Slice) for p in parts):
        low.error(f"np.{name}[...] takes one or two slices (start:stop:step) in compiled code", node)
    call = ast.copy_location(ast.Call(func=ast.Name(id=name, ctx=ast.Load()), args=[], keywords=[]), node)
    values = []
    as_float = False
    for p in parts:
        if p.upper is None:
            low.error(f"np.{name}[...] needs a stop in each slice", p)
        start = Const(0, T.I64) if p.lower is None else low.expr(p.lower)
        stop = low.expr(p.upper)
        step = Const(1, T.I64) if p.step is None else low.expr(p.step)
        for v, sub in ((start, p.lower), (stop, p.upper)):
            if not isinstance(v.type, (T.IntType, T.BoolType, T.FloatType)):
                low.error(f"np.{name}[...] takes int or float bounds here, not {v.type}", sub or p)
        if not isinstance(step.type, (T.IntType, T.BoolType, T.FloatType, T.ComplexType)):
            low.error(f"np.{name}[...] takes an int, float or complex step here, not {step.type}", p.step)
        kind = _axis_points if isinstance(step.type, T.ComplexType) else _axis_steps
        pair = low.call_script(low.ctx.info_for(kind), call, leading=(start, stop, step))
        n, d = (low.emit("extract", [pair], t, k, low.loc(node)) for k, t in enumerate(pair.type.elems))
        values += [start, d, n]
        as_float = as_float or any(not isinstance(v.type, (T.IntType, T.BoolType)) for v in (start, stop, step))
    fn = _BUILDERS[(name, len(parts), as_float)]
    return low.call_script(low.ctx.info_for(fn), call, leading=tuple(values))
