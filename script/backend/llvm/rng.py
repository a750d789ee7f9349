"""Lowering of `rng_state` (script/ir/ops.py): a part of a random generator's state.

Each part of each generator (`RNG_STATES`: ``random_key``, ``numpy_pos``, ...) is its own
memory, one per process, named `symbol(state)`, so that every compiled library, loaded or
compiled, draws from the same stream. Code reaches it by that name, bound when a library is
linked (runtime.symbols, runtime.random_state: for ``random`` and ``numpy``, the
interpreter's own generators' memory): no address is baked into object code. The parts, in
native byte order:

=========  =============================================================================
key        624 uint32: the Mersenne Twister's key words
pos        one uint32: the position in the key (624: twist before the next draw)
has_gauss  one uint32: 1 when a Gaussian is cached, else 0
gauss      one float64: the cached Gaussian (NumPy's legacy polar Box-Muller second value;
           Python's `random` keeps its own in the interpreter)
pcg        six uint64: a PCG64's state, increment and 32-bit buffer (the Generator's only
           part; layout in lib/numpy/pcg64.py)
=========  =============================================================================

``rng_state.S : u32[::1]``, ``u64[::1]`` or ``f64[::1]`` is the part as an array of as many elements of
that type as its bytes hold (none of a type that does not fit); a constant struct with no
owner (memory.py: counting it is a no-op).
"""

from __future__ import annotations

from script.ir import types as T

KEY_WORDS = 624
PART_BYTES = {"key": 4 * KEY_WORDS, "pos": 4, "has_gauss": 4, "gauss": 8, "pcg": 48}
PREFIX = "script.rng."              # of every state's symbol


def symbol(state: str) -> str:
    """The symbol of state part `state` (one of RNG_STATES)."""
    return PREFIX + state


def part_bytes(state: str) -> int:
    """The size in bytes of state part `state`."""
    return PART_BYTES[state.partition("_")[2]]          # generators' names have no "_"


def state_view(m, state: str, t: T.ArrayType):
    """The constant array struct (an llvm.builder Value) of ``rng_state.state : t`` in the
    NativeModule `m` (t is u32[::1], u64[::1] or f64[::1])."""
    # imported here: the load path imports this module for the layout alone
    from script.backend.llvm.abi import llvm_type
    from script.backend.llvm.builder import Value
    nbytes = part_bytes(state)
    base = m.declare_data(symbol(state), f"[{nbytes} x i8]")
    size = 4 if t.dtype == T.U32 else 8
    return Value(llvm_type(t), f"{{ptr null, ptr {base.ref}, [1 x i64] [i64 {nbytes // size}], [1 x i64] [i64 {size}]}}")
