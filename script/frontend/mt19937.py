"""The Mersenne Twister (MT19937) of CPython's ``_randommodule.c`` and NumPy's legacy
``RandomState``, written in the compiled subset over a generator's state words.

Library code of pyrandom (Python's `random`) and nprandom (NumPy's legacy global generator)
gets a generator's state with `RANDOM_STATE()`, `NUMPY_STATE()`, ...: intrinsics
that lower to four `rng_state` (script/ir/ops.py), the process-wide memory of that generator
(runtime.random_state), which persists between calls and is shared by every compiled
function. For `random` and `numpy` it is the interpreter's own generator's memory, so that
seeding and drawing in Python and in compiled code continue one stream. A state is a tuple
of four arrays (`KEY`, `POS`, `HAS_GAUSS`, `GAUSS`): the 624 key words, the position (one
word), whether a Gaussian is cached (one word) and the cached Gaussian (one float64). Words
are u32, whose arithmetic wraps as the C code's does.

Code size: LLVM inlines `twist` (vectorized) at each place that calls it, so the draws
reach it through few such places: `next_pair` twists out of line, in `_next_pair_twisting`.

Threads: compiled code runs without the GIL, and the state has no lock. Two threads drawing
at once race: they may draw the same numbers or skip some, but never read or write outside
the state, since every index is reduced to the key's range here (the position is read once
and a value beyond the key means "twist first"), with or without bounds checks.
"""

from __future__ import annotations

import types

import numpy as np

from script.ir import types as T
from script.ir.ops import RNG_PARTS

N = 624                         # key words
KEY, POS, HAS_GAUSS, GAUSS = 0, 1, 2, 3     # the parts of a state tuple (RNG_PARTS' order)


class StateIntrinsic:
    """``NAME()`` in library code: a generator's state, the tuple of its parts' arrays
    (`rng_state`, one per part)."""

    def __init__(self, gen: str):
        self.gen = gen

    def __script_call__(self, low, node):
        if node.args or node.keywords:
            low.error("a random state takes no arguments", node)
        loc = low.loc(node)
        parts = [low.emit("rng_state", [], T.ArrayType(T.F64 if part == "gauss" else T.U32, 1, "C"),
                          f"{self.gen}_{part}", loc) for part in RNG_PARTS]
        return low.make_tuple(parts, node)


def rebound(namespace: dict, **names) -> types.SimpleNamespace:
    """Copies of the functions defined in the module whose globals are `namespace`, each
    global of `names` bound to the value given (another generator's state): library code
    written once for the interpreter's generators serves compiled code's own ones
    (``random.Random(seed)``; ``default_rng(seed)``'s binomial, on PCG64's draws). A copy shares its function's code, so
    its source is the module's; its qualified name says which state it draws from."""
    g = dict(namespace)
    g.update(names)
    copies = {}
    for name, f in namespace.items():
        if isinstance(f, types.FunctionType) and f.__module__ == namespace["__name__"]:
            copy = types.FunctionType(f.__code__, g, name, f.__defaults__, f.__closure__)
            copy.__kwdefaults__, copy.__annotations__, copy.__doc__ = f.__kwdefaults__, f.__annotations__, f.__doc__
            copy.__qualname__ = f"{f.__qualname__}[{','.join(names)}]"
            g[name] = copies[name] = copy
    return types.SimpleNamespace(**copies)


RANDOM_STATE = StateIntrinsic("random")            # the interpreter's `random`
NUMPY_STATE = StateIntrinsic("numpy")              # the interpreter's `numpy.random`
INSTANCE_STATE = StateIntrinsic("instance")        # `random.Random(seed)` in compiled code


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


def next32(st):
    """genrand_uint32: the next word (a u32)."""
    mt = st[KEY]
    at = st[POS]
    pos = at[0]
    if pos >= N:
        twist(mt)
        pos = np.uint32(0)
    at[0] = pos + 1
    return temper(mt[pos])


def next_pair(st):
    """Two next words, as two `next32` give them, with one position check."""
    mt = st[KEY]
    at = st[POS]
    pos = at[0]
    if pos < N - 1:
        at[0] = pos + 2
        return temper(mt[pos]), temper(mt[pos + 1])
    return _next_pair_twisting(mt, at, pos)


def _next_pair_twisting(mt, at, pos):
    """`next_pair` when the key runs out on the way (too large for the IR's inliner, so it
    stays one function holding one copy of `twist`)."""
    last = mt[N - 1]
    twist(mt)
    if pos == N - 1:
        at[0] = 1
        return temper(last), temper(mt[0])
    at[0] = 2
    return temper(mt[0]), temper(mt[1])


def next64(st) -> int:
    """NumPy's mt19937_next64: two words, the first one high (an int64's bits)."""
    hi, lo = next_pair(st)
    return (int(hi) << 32) | int(lo)


def next_double(st) -> float:
    """genrand_res53 (CPython) / mt19937_next_double (NumPy): 53 random bits in [0, 1)."""
    a, b = next_pair(st)
    return (int(a >> 5) * 67108864.0 + int(b >> 6)) * (1.0 / 9007199254740992.0)


def init_genrand(st, s: int) -> None:
    """The key from one 32-bit seed `s` (0 <= s < 2**32); the position says "twist"; no
    Gaussian is cached."""
    mt = st[KEY]
    mt[0] = s
    i = np.uint32(1)
    for k in range(1, N):
        prev = mt[k - 1]
        mt[k] = 1812433253 * (prev ^ (prev >> 30)) + i
        i += 1
    st[POS][0] = N
    st[HAS_GAUSS][0] = 0
    st[GAUSS][0] = 0.0


def init_by_array(st, k0: int, k1: int, length: int) -> None:
    """CPython's init_by_array on the key ``[k0, k1][:length]`` of 32-bit words."""
    init_genrand(st, 19650218)
    mt = st[KEY]
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
