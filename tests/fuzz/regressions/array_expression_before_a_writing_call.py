"""An element-wise array expression is computed where its consumer wants it, in one fused
loop: `np.where(a <= 10, a, f(a))` read `a` after `f` stored 100 into it, so the condition
was False where CPython (which computed `a <= 10` first) had True; `(a * 2) + f(a)` likewise.
An array expression followed by an operand that may write an array is computed where CPython
computes it now (script/frontend/ast_order.py, lower_expr `lazy_any`). Found as program
55000:1635."""
import numpy as np


def f1(q0, q1):
    q0[0] = 100 if q1 else -100
    return 1


def main(p0, a0, a1):
    b1 = np.where(a0 <= 10, a0, f1(a0, p0))
    c1 = (a1 * 2) + f1(a1, not p0)
    return (p0, b1, c1, np.where(a0 > 0, a0, np.sqrt(a1 * 1.0 + 200)))


def inputs():
    return [(True, np.array([0, 3], dtype=np.int64)[::2], np.array([1, 2], dtype=np.int64)),
            (False, np.array([5, 1, 0], dtype=np.int64), np.array([7, 8, 9], dtype=np.int64))]
