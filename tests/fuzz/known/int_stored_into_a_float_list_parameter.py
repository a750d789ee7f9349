"""A list of floats made by `[math.inf].copy()` and given to a compiled callee that stores an
int into it: CPython keeps the int (the list holds 0 and nothing else is read), compiled code
refuses with a CompileError ("cannot store an int in this list[f64], which is not made by a
display, list(), sorted() or a slice in this function"): the callee's parameter is a
list[f64], and only a list the function itself makes from a display (or list(), sorted(), a
slice) is widened to hold ints and floats; `.copy()` and parameters are not yet (issue 20,
"floats into an int list argument" and its mirror). A clear refusal, not a wrong answer;
found by the varying-seed fuzzer (seed 51992031, program 0), shrunk."""
import math
import numpy as np


def f2(n, q0: list, q1):
    q0[0] = q1


def main(p0, p1):
    if f2(6, [math.inf].copy(), 0):
        pass


def inputs():
    return [(0, 13)]
