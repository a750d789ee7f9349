"""The Mersenne Twister (MT19937) of CPython's ``_randommodule.c`` and NumPy's legacy
``RandomState``, written in the compiled subset over a generator's state words.

Library code of pyrandom (Python's `random`) and nprandom (NumPy's legacy global generator)
gets a state with `RANDOM_WORDS()` / `NUMPY_WORDS()` (and the cached Gaussian with
`RANDOM_GAUSS()` / `NUMPY_GAUSS()`), intrinsics that lower to `rng_state` (script/ir/ops.py):
the process-wide state of that generator (runtime.random_state), which persists between
calls and is shared by every compiled function. Word layout (script/backend/llvm/rng.py):
``mt[0:624]`` the key, ``mt[POS]`` the position, ``mt[HAS_GAUSS]`` 1 when a Gaussian is
cached. Words are u32, whose arithmetic wraps as the C code's does.

Code size: LLVM inlines `twist` (vectorized) at each place that calls it, so the draws
reach it through few such places: `next_pair` twists out of line, in `_next_pair_twisting`.

Threads: compiled code runs without the GIL, and the state has no lock. Two threads drawing
at once race: they may draw the same numbers or skip some, but never read or write outside
the state, since every index is reduced to the key's range here (the position is read once
and a value beyond the key means "twist first"), with or without bounds checks.
"""

from __future__ import annotations

import numpy as np

from script.ir import types as T

N = 624                         # key words
POS = 624                       # the word holding the position
HAS_GAUSS = 625                 # the word saying whether a Gaussian is cached


class StateIntrinsic:
    """``NAME()`` in library code: a generator's state as an array (`rng_state`)."""

    def __init__(self, gen: str, dtype: T.Type):
        self.gen = gen
        self.type = T.ArrayType(dtype, 1, "C")

    def __script_call__(self, low, node):
        if node.args or node.keywords:
            low.error("a random state takes no arguments", node)
        return low.emit("rng_state", [], self.type, self.gen, low.loc(node))


RANDOM_WORDS = StateIntrinsic("random", T.U32)
RANDOM_GAUSS = StateIntrinsic("random", T.F64)
NUMPY_WORDS = StateIntrinsic("numpy", T.U32)
NUMPY_GAUSS = StateIntrinsic("numpy", T.F64)


def twist(mt) -> None:
    """The next 624 key words from the current ones, in place."""
    for k in range(227):
        y = (mt[k] & 0x80000000) | (mt[k + 1] & 0x7fffffff)
        mt[k] = mt[k + 397] ^ (y >> 1) ^ ((y & 1) * 0x9908b0df)
    for k in range(227, 623):
        y = (mt[k] & 0x80000000) | (mt[k + 1] & 0x7fffffff)
        mt[k] = mt[k - 227] ^ (y >> 1) ^ ((y & 1) * 0x9908b0df)
    y = (mt[623] & 0x80000000) | (mt[0] & 0x7fffffff)
    mt[623] = mt[396] ^ (y >> 1) ^ ((y & 1) * 0x9908b0df)


def temper(y):
    """MT19937's output transformation of a key word (u32)."""
    y ^= y >> 11
    y ^= (y << 7) & 0x9d2c5680
    y ^= (y << 15) & 0xefc60000
    return y ^ (y >> 18)


def next32(mt):
    """genrand_uint32: the next word (a u32)."""
    pos = mt[POS]
    if pos >= N:
        twist(mt)
        pos = np.uint32(0)
    mt[POS] = pos + 1
    return temper(mt[pos])


def next_pair(mt):
    """Two next words, as two `next32` give them, with one position check."""
    pos = mt[POS]
    if pos < N - 1:
        mt[POS] = pos + 2
        return temper(mt[pos]), temper(mt[pos + 1])
    return _next_pair_twisting(mt, pos)


def _next_pair_twisting(mt, pos):
    """`next_pair` when the key runs out on the way (too large for the IR's inliner, so it
    stays one function holding one copy of `twist`)."""
    last = mt[N - 1]
    twist(mt)
    if pos == N - 1:
        mt[POS] = 1
        return temper(last), temper(mt[0])
    mt[POS] = 2
    return temper(mt[0]), temper(mt[1])


def next64(mt) -> int:
    """NumPy's mt19937_next64: two words, the first one high (an int64's bits)."""
    hi, lo = next_pair(mt)
    return (int(hi) << 32) | int(lo)


def next_double(mt) -> float:
    """genrand_res53 (CPython) / mt19937_next_double (NumPy): 53 random bits in [0, 1)."""
    a, b = next_pair(mt)
    return (int(a >> 5) * 67108864.0 + int(b >> 6)) * (1.0 / 9007199254740992.0)


def init_genrand(mt, s: int) -> None:
    """The key from one 32-bit seed `s` (0 <= s < 2**32); the position says "twist"."""
    mt[0] = s
    i = np.uint32(1)
    for k in range(1, N):
        prev = mt[k - 1]
        mt[k] = 1812433253 * (prev ^ (prev >> 30)) + i
        i += 1
    mt[POS] = N
    mt[HAS_GAUSS] = 0


def init_by_array(mt, k0: int, k1: int, length: int) -> None:
    """CPython's init_by_array on the key ``[k0, k1][:length]`` of 32-bit words."""
    init_genrand(mt, 19650218)
    key0 = np.uint32(k0)
    key1 = np.uint32(k1)
    i = np.uint32(1)
    j = np.uint32(0)
    for _ in range(N):                  # max(N, length) with length <= 2
        prev = mt[i - 1]
        mt[i] = (mt[i] ^ ((prev ^ (prev >> 30)) * 1664525)) + (key0 if j == 0 else key1) + j
        i += 1
        j += 1
        if i >= N:
            mt[0] = mt[N - 1]
            i = np.uint32(1)
        if j >= length:
            j = np.uint32(0)
    for _ in range(N - 1):
        prev = mt[i - 1]
        mt[i] = (mt[i] ^ ((prev ^ (prev >> 30)) * 1566083941)) - i
        i += 1
        if i >= N:
            mt[0] = mt[N - 1]
            i = np.uint32(1)
    mt[0] = 0x80000000
