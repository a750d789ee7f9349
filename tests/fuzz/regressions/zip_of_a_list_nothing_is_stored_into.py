"""`list(zip(xs, ys))` where `xs` is a comprehension whose condition is always false: its
items have no type, and the list of pairs was "lists of (?, i64) are not supported". Such a
list is always empty (lists.list_of: an empty list typed by its own stores)."""
import math
import numpy as np


def main(p0, p1):
    v3 = list(zip(['é' + 'ba' for c1 in range(3) if 'x y' in ' pad '], [p1 for c2 in range(2)]))
    return (v3, p0)


def inputs():
    return [(1, 2), (0, -5)]
