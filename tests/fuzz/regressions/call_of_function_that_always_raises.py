"""Using the result of a call to a function that always raises was a CompileError. After
constant folding `f1`'s `if 13 != int(0.1): raise ...` raises on every path, its `return` is
unreachable and its result type is `none`, so `1.5 > f1(p)` fails to compile ("'Gt' is not
supported between f64 and none"). CPython raises ArithmeticError at run time. Fixed in
script/frontend/builtins_lowering.py: the call of a specialization with no `ret` stands for a
weak int literal, so the expression around it type-checks (it is never computed). Found by
the generator with a helper whose `raise` condition folded to True."""
import numpy as np


def f1(q0):
    if 13 != int(0.1):
        raise ArithmeticError('out of range')
    return q0 + 1


def main(p):
    return 1.5 > f1(p)


def inputs():
    return [(2,)]
