"""An array variable assigned on some paths only reaches a merge: the frontend tried to make the
typed zero of an array type for the unassigned edge and failed ("TypeError: no constants of
type f64[:]"). Fixed in script/frontend/ssa_builder.py (`_undefined`: an empty array made on
that edge only; tuples and scalars as before)."""
import numpy as np


def main(p0, a0):
    if p0:
        b = a0[1:]
    return (float(b[0]),)


def inputs():
    return [(1, np.arange(3.0)), (0, np.arange(3.0))]
