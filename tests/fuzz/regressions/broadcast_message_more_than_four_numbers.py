"""A broadcasting error whose NumPy message has more than 4 numbers: `operands could not be
broadcast together with shapes (2,2,2) (3,2,2) `, `non-broadcastable output operand with
shape (1,2,2) doesn't match the broadcast shape (3,2,2)`, `could not broadcast input array from
shape (2,3) into shape (3,3)`, np.where's three 3-d shapes, `np.dot`'s `shapes (2,3) and (4,5)
not aligned: 3 (dim 1) != 4 (dim 0)`. A compiled exception message carried at most 4 integers
(the Env record's `[4 x i64]`), so compiled code raised the text without the shapes. Fixed by
raising the limit to 12 (script/ir/ops.py MAX_MESSAGE_ARGS, used by backend/llvm/abi.py's Env,
runtime/entry.py's raise, the NVPTX error record) and the frontend's messages that check it
(frontend/elementwise.py, numpy_linalg.py, numpy_alloc.py)."""
import numpy as np


def main(k, a, b, c, d):
    if k == 0:
        return (a + b).sum()
    if k == 1:
        a += b
        return a.sum()
    if k == 2:
        a[...] = b
        return a.sum()
    if k == 3:
        return np.where(a > 0, a, b[:1] * 2.0).sum()
    if k == 4:
        return np.clip(a, b, b[:2]).sum()
    return np.dot(c, d).sum()


def inputs():
    m, v = np.zeros((2, 3)), np.zeros(3)
    return [(0, np.zeros((2, 2, 2)), np.zeros((3, 2, 2)), m, m), (1, np.zeros((1, 2, 2)), np.zeros((3, 2, 2)), m, m),
            (1, np.zeros((2, 2, 2)), np.zeros((3, 2, 2)), m, m), (2, np.zeros((3, 3)), np.zeros((2, 3)), m, m),
            (3, np.zeros((2, 2, 2)), np.ones((3, 2, 2)), m, m), (4, np.zeros((2, 2, 3)), np.ones((3, 2, 3)), m, m),
            (5, v, v, np.zeros((2, 3)), np.zeros((4, 5))), (5, v, v, np.zeros(3), np.zeros((4, 5)))]
