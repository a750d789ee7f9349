"""A tuple unpacking in dead code after `break` and a maybe-unbound read in the `else` of the
middle loop: KeyError from inside the compiler (a loop-header parameter of unknown type used by
emitted code, later replaced by an undefined value). Fixed in script/frontend/ssa_builder.py
(`raise_unbound`, `drop_unknown_params`) and lower_stmt.py (`read_local`)."""
import numpy as np


def main(p0, p1, a0):
    for x1 in a0:
        for x2 in a0:
            for i3 in range(0):
                break
                v4, v5 = (i3, x1)
        else:
            v6 = v5 if p0 else p1
    return (p1,)


def inputs():
    return [(1.0, 1, np.arange(3.0))]
