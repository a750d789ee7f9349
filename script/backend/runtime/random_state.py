"""The states of the compiled random generators: memory of this process that generated code
names by symbol (llvm.rng), bound by runtime.symbols when a library is linked.

One state per generator (`RNG_STATES` of script/ir/ops.py) for the whole process, shared by
every compiled function, compiled or loaded, and separate from the interpreter's own
`random` and `numpy.random` states. Until compiled code seeds it, each starts from fresh
entropy (``os.urandom``; the time where there is none) taken when the first library is
linked: the key words themselves, with the top bit of the first set, as init_by_array
leaves it, so that the key is never all zeros.

This module is on the load path: it imports nothing of LLVM's.
"""

from __future__ import annotations

import ctypes
import functools
import os
import struct
import time

from script.backend.llvm import rng
from script.ir.ops import RNG_STATES

_states: dict[str, ctypes.Array] = {}       # kept for the life of the process


@functools.cache
def addresses() -> dict[str, int]:
    """Each generator's state symbol and its address, the states seeded on first call."""
    table = {}
    for gen in RNG_STATES:
        state = _states[gen] = (ctypes.c_uint64 * (rng.STATE_BYTES // 8))()
        words = list(struct.unpack(f"={rng.KEY_WORDS}I", _entropy(4 * rng.KEY_WORDS)))
        words[0] |= 0x80000000
        struct.pack_into(f"={rng.WORDS}I", state, 0, *words, rng.KEY_WORDS, 0)
        table[rng.symbol(gen)] = ctypes.addressof(state)
    return table


def _entropy(n: int) -> bytes:
    try:
        return os.urandom(n)
    except NotImplementedError:
        seed = time.time_ns() ^ os.getpid()
        return b"".join(struct.pack("=Q", (seed * (2 * k + 1)) & (2**64 - 1)) for k in range(n // 8 + 1))[:n]
