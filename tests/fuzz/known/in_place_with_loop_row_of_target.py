"""Open: `a0 *= x2` where `x2` is a row of `a0` bound by `for x2 in a0` (or `zip(..., a0)`)
does not see the overlap. NumPy copies an input that shares memory with the output, so every
row is multiplied by the old row; compiled code writes row 0 (x2 itself) first and later rows
read the new values ([[1, 2], [3, 4]]: NumPy [[3, 32], [9, 64]], compiled [[3, 64], [9, 256]]).
Cause: ElementwiseLowering.may_overlap compares the roots of the destination and the operand
while the loop is being built: `a0` read in the loop body is still the unsealed loop header's
incomplete phi (Braun et al.), which is only later found trivial and replaced by the
parameter, while the row is a view of the parameter itself, so the roots differ and no
temporary is made. (The same statement outside a loop, `x2 = a0[1]; a0 *= x2`, is right.) A fix
needs either resolving the phi (the variable may still be reassigned later in the loop) or a
run-time check of the memory ranges (NumPy's way) for roots that are not provably distinct.
The generator avoids writing such rows into arrays (arrays.py, `_source_for`)."""
import numpy as np


def main(a0):
    for x2 in a0:
        a0 *= x2
    return a0


def inputs():
    return [(np.array([[1.0, 2.0], [3.0, 4.0]]),)]
