"""A list of floats made by `[math.inf].copy()` and given to a compiled callee that stores an
int into it: CPython keeps the int. Compiled code refused it with a CompileError (the callee's
parameter was a list[f64]); now the callee's MIXED_NUMBERS error makes the caller's list, made
here, a list of ints and floats (lists.widen_arguments) and the callee is built for that.
Found by the varying-seed fuzzer (seed 51992031, program 0), shrunk."""
import math
import numpy as np


def f2(n, q0: list, q1):
    q0[0] = q1


def main(p0, p1):
    if f2(6, [math.inf].copy(), 0):
        pass


def inputs():
    return [(0, 13)]
