"""Open: a broadcasting error is raised only when the fused element-wise expression is
computed, after the scalar operands to its right. In `(a - b) != int(x)` Python computes
`a - b` first, so NumPy raises `ValueError: operands could not be broadcast together with
shapes (4,) (0,)`; compiled code builds `a - b` as an unevaluated ArrayExpr
(script/frontend/elementwise.py), evaluates `int(x)` (ValueError: cannot convert float NaN to
integer) and checks the shapes when the whole tree is materialized. A fix: check each
operation's shapes (and its Python-int OverflowError) when the ArrayExpr node is built
(`checked_shape` at `ufunc_expr`/`where_expr`, deferred inside `np.clip` and in-place forms,
whose messages name more operands) instead of at materialization."""
import math
import numpy as np


def main(x):
    return np.arange(1.0, 2.0, 0.25) - np.ones(0, dtype=np.bool_) != int(x)


def inputs():
    return [(math.nan,)]
