"""A `while` test with a reduction (`min(a0)`, a synthetic loop) and `and`: after the loop the
parameter p0 read as unbound (the back edge passed `0.0, false`). Reading p0 after the loop
made merge parameters around the loop that came back to the first one while its type was still
unknown, and an argument of unknown type was taken for an unassigned one. Fixed in
script/frontend/ssa_builder.py (`_reaching_type`: a merge parameter is typed before its
arguments are read; `_current`: values of trivial parameters removed meanwhile are followed)."""
import numpy as np


def main(p0, a0):
    w1 = 0
    while int(min(a0)) and w1 < 2:
        w1 += 1
    return (5 ** p0,)


def inputs():
    return [(5.0, np.array([-3, 1], dtype=np.int8))]
