"""Open: a broadcasting error whose NumPy message has more than 4 numbers. NumPy raises
`ValueError: operands could not be broadcast together with shapes (2,2,2) (3,2,2) ` (and
`non-broadcastable output operand with shape (1,2,2) doesn't match the broadcast shape
(3,2,2)`, `could not broadcast input array from shape (2,3) into shape (3,3)`); a compiled
exception message carries at most 4 integers (backend/llvm/abi.py MAX_MESSAGE_ARGS: the Env
struct holds `[4 x i64]`), so compiled code raises the same type with the text only
(`operands could not be broadcast together`). Raising the limit changes the Env layout shared
by entry.py, lower.py, grid.py and the PTX backend (and saved archives). runner.py KNOWN
counts these as "known"."""
import numpy as np


def main(a, b):
    return a + b


def inputs():
    return [(np.zeros((2, 2, 2)), np.zeros((3, 2, 2)))]
