"""NumPy's default bit generator, PCG64 seeded through SeedSequence, written in the compiled
subset over a state of six u64 words (the `rng_state` part ``generator_pcg``):

=====  ==================================================================================
0, 1   the 128-bit LCG state, high and low word
2, 3   the 128-bit increment (odd), high and low word
4      1 when a 32-bit half of the last 64-bit draw waits (NumPy's ``has_uint32``), else 0
5      that half (``uinteger``)
=====  ==================================================================================

The IR has no 128-bit ints, so the LCG step ``state = state * M + inc`` is done in u64
halves (u64 arithmetic wraps as C's does): the low word's product, and the high word's from
the cross products plus the high half of the low product (`mulhi`, from 32-bit pieces).
The output is XSL-RR: the two halves xored, rotated right by the state's top six bits.
`next32` hands out the low half of a 64-bit draw and keeps the high half for the next
call, as NumPy's pcg64_next32 does: the buffer is part of the state.

Seeding (`seed`) is SeedSequence(seed) for an int seed: the seed's 32-bit words hashed into
a pool of four words (hashmix and mix over u32, as NumPy's ``mix_entropy``), four u64 words
drawn from the pool (``generate_state(4, np.uint64)``), then ``pcg64_set_seed``: the
increment is ``(words[2:4] << 1) | 1``, the state ``words[0:2]`` added after one step.
Written from the algorithms' descriptions; tests/test_generator.py compares every stream
with NumPy's.
"""

from __future__ import annotations

import numpy as np

from script.ir import types as T

_MUL_HI = 2549297995355413924       # PCG's default 128-bit multiplier, high and low word
_MUL_LO = 4865540595714422341
_M32 = 0xffffffff

# SeedSequence's constants (32-bit)
_INIT_A, _MULT_A = 0x43b0d7e5, 0x931e8875
_INIT_B, _MULT_B = 0x8b51f9dd, 0x58f38ded
_MIX_MULT_L, _MIX_MULT_R = 0xca01f9dd, 0x4973f715
_POOL = 4


class PcgStateIntrinsic:
    """``GENERATOR_STATE()`` in library code: the Generator's six words (`rng_state`)."""

    def __script_call__(self, low, node):
        if node.args or node.keywords:
            low.error("a random state takes no arguments", node)
        return low.emit("rng_state", [], T.ArrayType(T.U64, 1, "C"), "generator_pcg", low.loc(node))


GENERATOR_STATE = PcgStateIntrinsic()


def mulhi(a, b):
    """The high word of the 128-bit product of u64 `a` and `b`."""
    a0 = a & _M32
    a1 = a >> 32
    b0 = b & _M32
    b1 = b >> 32
    w0 = a0 * b0
    t = a1 * b0 + (w0 >> 32)
    w1 = (t & _M32) + a0 * b1
    return a1 * b1 + (t >> 32) + (w1 >> 32)


def _step(g) -> None:
    """state = state * M + inc (mod 2**128)."""
    sh = g[0]
    sl = g[1]
    lo = sl * np.uint64(_MUL_LO)
    hi = sh * np.uint64(_MUL_LO) + sl * np.uint64(_MUL_HI) + mulhi(sl, np.uint64(_MUL_LO))
    new_lo = lo + g[3]
    carry = np.uint64(1) if new_lo < lo else np.uint64(0)
    g[0] = hi + g[2] + carry
    g[1] = new_lo


def next64(g):
    """pcg64_next64: step, then XSL-RR of the new state (a u64)."""
    _step(g)
    hi = g[0]
    v = hi ^ g[1]
    rot = hi >> 58
    return (v >> rot) | (v << ((np.uint64(64) - rot) & 63))


def next32(g):
    """pcg64_next32: the buffered high half of the last draw, else the low half of a new one
    (a u32)."""
    if g[4] != 0:
        g[4] = 0
        return np.uint32(g[5])
    v = next64(g)
    g[4] = 1
    g[5] = v >> 32
    return np.uint32(v & _M32)


def next_double(g) -> float:
    """53 random bits in [0, 1): ``(next64 >> 11) * 2**-53``."""
    return float(next64(g) >> 11) * (1.0 / 9007199254740992.0)


def _hashmix(value, hash_const):
    """SeedSequence's hashmix over u32: the mixed value and the next hash constant."""
    value ^= hash_const
    hash_const *= np.uint32(_MULT_A)
    value *= hash_const
    return value ^ (value >> 16), hash_const


def _mix(x, y):
    result = np.uint32(_MIX_MULT_L) * x - np.uint32(_MIX_MULT_R) * y
    return result ^ (result >> 16)


def seed(g, seed: int) -> None:
    """The state of ``PCG64(SeedSequence(seed))`` for an int `seed` (0 <= seed < 2**63)."""
    if seed < 0:
        raise ValueError("expected non-negative integer")
    pool = np.zeros(_POOL, dtype=np.uint32)
    pool[0] = seed & _M32
    pool[1] = (seed >> 32) & _M32           # a second word only when the seed has one
    hash_const = np.uint32(_INIT_A)
    for i in range(_POOL):
        pool[i], hash_const = _hashmix(pool[i], hash_const)
    for src in range(_POOL):
        for dst in range(_POOL):
            if src != dst:
                h, hash_const = _hashmix(pool[src], hash_const)
                pool[dst] = _mix(pool[dst], h)
    words = np.zeros(4, dtype=np.uint64)
    hash_const = np.uint32(_INIT_B)
    for i in range(8):                      # generate_state(4, np.uint64): 8 u32, low first
        d = pool[i % _POOL] ^ hash_const
        hash_const *= np.uint32(_MULT_B)
        d *= hash_const
        d ^= d >> 16
        words[i // 2] |= np.uint64(d) << np.uint64(32 * (i % 2))
    g[0] = 0
    g[1] = 0
    g[2] = (words[2] << 1) | (words[3] >> 63)
    g[3] = (words[3] << 1) | 1
    _step(g)
    lo = g[1] + words[1]
    g[0] = g[0] + words[0] + (np.uint64(1) if lo < words[1] else np.uint64(0))
    g[1] = lo
    _step(g)
    g[4] = 0
    g[5] = 0
