"""The memory of the random generators compiled code draws from (`RNG_STATES` of
script/ir/ops.py; layout: script/backend/llvm/rng.py), bound by runtime.symbols when a
library is linked, one for the whole process, shared by every compiled function:

- ``random``: the interpreter's `random` module's generator (``random._inst``, whose C
  struct holds ``int index; uint32_t state[624]`` right after the object's header), so that
  seeding or drawing in Python and in compiled code continue one stream;
- ``numpy``: NumPy's global ``RandomState``: its MT19937's state (``ctypes.state_address``:
  the key, then the position) and its cached Gaussian (found in the object by a probe of a
  private RandomState, since NumPy gives no address for it);
- ``instance`` (``random.Random(seed)``) and ``generator`` (``default_rng(seed)``'s PCG64),
  and any part of the two above whose layout is not the expected one: memory of this
  module, each key from fresh entropy (``os.urandom``; the time where there is none), a
  Mersenne Twister's with the top bit of its first word set, as init_by_array leaves it, so
  that it is never all zeros, a PCG64's with an odd increment.

Each binding to the interpreter's memory is checked against the state the interpreter
reports (``getstate()``, ``get_state()``) before it is used: memory is read only inside the
objects' own sizes, and a layout that does not match leaves that part compiled code's own.

This module is on the load path: it imports nothing of LLVM's.
"""

from __future__ import annotations

import ctypes
import functools
import os
import struct
import sys
import time

from script.backend.llvm import rng
from script.ir.ops import RNG_STATES

_own: list = []             # memory of this module's parts, kept for the life of the process
_HEADER = object.__basicsize__
_KEY_BYTES = rng.PART_BYTES["key"]


@functools.cache
def addresses() -> dict[str, int]:
    """Each state part's symbol and its address."""
    bound = {**_python_random(), **_numpy_random()}
    table = {}
    for state in RNG_STATES:
        address = bound.get(state)
        part = state.partition("_")[2]
        table[rng.symbol(state)] = address if address is not None else _fresh(part, rng.PART_BYTES[part])
    return table


def _fresh(part: str, nbytes: int) -> int:
    memory = ctypes.create_string_buffer(nbytes)        # zeroed: no Gaussian cached
    if part == "key":
        words = list(struct.unpack(f"={rng.KEY_WORDS}I", _entropy(_KEY_BYTES)))
        words[0] |= 0x80000000
        struct.pack_into(f"={rng.KEY_WORDS}I", memory, 0, *words)
    elif part == "pos":
        struct.pack_into("=I", memory, 0, rng.KEY_WORDS)     # twist before the first draw
    elif part == "pcg":                                      # state, odd increment, no buffer
        words = list(struct.unpack("=4Q", _entropy(32)))
        words[3] |= 1
        struct.pack_into("=6Q", memory, 0, *words, 0, 0)
    _own.append(memory)
    return ctypes.addressof(memory)


@functools.cache
def _python_random() -> dict[str, int]:
    """The interpreter's `random` generator's key and position, if its layout is CPython's."""
    import random
    import _random
    inst = getattr(random, "_inst", None)
    if not isinstance(inst, _random.Random) or type(inst).__basicsize__ < _HEADER + 4 + _KEY_BYTES:
        return {}
    _, words, _ = inst.getstate()
    index = id(inst) + _HEADER
    key = struct.unpack(f"={rng.KEY_WORDS}I", ctypes.string_at(index + 4, _KEY_BYTES))
    if (ctypes.c_int.from_address(index).value,) + key != words[-1:] + words[:-1]:
        return {}
    return {"random_key": index + 4, "random_pos": index}


@functools.cache
def _numpy_random() -> dict[str, int]:
    """NumPy's global RandomState's key, position and cached Gaussian, where found."""
    mtrand = sys.modules.get("numpy.random.mtrand")
    if mtrand is None:
        import numpy.random.mtrand as mtrand
    import numpy.random
    state = getattr(mtrand, "_rand", None)
    bitgen = getattr(state, "_bit_generator", None)
    if type(bitgen) is not numpy.random.MT19937:
        return {}
    _, key, pos, has_gauss, gauss = state.get_state(legacy=True)
    base = bitgen.ctypes.state_address
    if ctypes.string_at(base, _KEY_BYTES) != key.astype("=u4").tobytes() \
            or ctypes.c_int.from_address(base + _KEY_BYTES).value != pos:
        return {}
    found = {"numpy_key": base, "numpy_pos": base + _KEY_BYTES}
    offset = _gauss_offset(type(state))
    if offset is not None and ctypes.c_int.from_address(id(state) + offset - 8).value == has_gauss \
            and ctypes.c_double.from_address(id(state) + offset).value == gauss:
        found.update(numpy_has_gauss=id(state) + offset - 8, numpy_gauss=id(state) + offset)
    return found


def _gauss_offset(cls) -> int | None:
    """Where in a RandomState object of class `cls` its cached Gaussian lies (its
    has-Gaussian flag an int 8 bytes before, as NumPy's aug_bitgen_t has them): the one
    offset where a private RandomState shows two states set in turn, else None."""
    import numpy.random
    probe = cls(numpy.random.MT19937(0))
    _, key, pos, _, _ = probe.get_state(legacy=True)
    seen = None
    for flag, value in ((1, 0.6180339887498949), (0, -2.718281828459045), (1, 1.4142135623730951e-300)):
        probe.set_state(("MT19937", key, pos, flag, value))
        memory = ctypes.string_at(id(probe), cls.__basicsize__)
        here = {k for k in range(8, cls.__basicsize__ - 7, 8)
                if struct.unpack_from("=d", memory, k)[0] == value and struct.unpack_from("=i", memory, k - 8)[0] == flag}
        seen = here if seen is None else seen & here
    return next(iter(seen)) if seen and len(seen) == 1 else None


def _entropy(n: int) -> bytes:
    try:
        return os.urandom(n)
    except NotImplementedError:
        seed = time.time_ns() ^ os.getpid()
        return b"".join(struct.pack("=Q", (seed * (2 * k + 1)) & (2**64 - 1)) for k in range(n // 8 + 1))[:n]
