"""Lowering of `rng_state` (script/ir/ops.py): the state of a compiled random generator.

Each generator (`RNG_STATES`: ``random`` for Python's module, ``numpy`` for NumPy's legacy
global RandomState) has one state per process (runtime.random_state), named `symbol(gen)`,
so that every compiled library, loaded or compiled, draws from the same stream. Code
reaches it by that name, bound when a library is linked (runtime.symbols): no address is
baked into object code. Its layout, in native byte order:

=========  =============================================================================
words      `WORDS` uint32: the Mersenne Twister's 624 key words, then the position (624:
           the key must be twisted before the next draw), then 1 when a cached Gaussian
           is pending, else 0
gauss      a float64 at byte `GAUSS_OFFSET`: the cached Gaussian (Python's gauss_next,
           NumPy's legacy polar Box-Muller second value)
=========  =============================================================================

``rng_state.G : u32[::1]`` is the words as an array, ``rng_state.G : f64[::1]`` the cached
Gaussian as an array of one element; both are constant structs with no owner (memory.py:
counting them is a no-op).
"""

from __future__ import annotations

from script.ir import types as T

KEY_WORDS = 624
WORDS = KEY_WORDS + 2               # the key, the position, the has-Gaussian flag
GAUSS_OFFSET = 4 * WORDS            # 2504: a multiple of 8, so the float64 is aligned
STATE_TYPE = f"<{{[{WORDS} x i32], double}}>"
STATE_BYTES = GAUSS_OFFSET + 8
PREFIX = "script.rng."              # of every state's symbol


def symbol(gen: str) -> str:
    """The symbol of generator `gen`'s state."""
    return PREFIX + gen


def state_view(m, gen: str, t: T.ArrayType):
    """The constant array struct (an llvm.builder Value) of ``rng_state.gen : t`` in the
    NativeModule `m` (t is u32[::1] or f64[::1])."""
    # imported here: the load path imports this module for the layout alone
    from script.backend.llvm.abi import llvm_type
    from script.backend.llvm.builder import Value
    base = m.declare_data(symbol(gen), STATE_TYPE)
    if t.dtype == T.U32:
        data, length, size = f"ptr {base.ref}", WORDS, 4
    else:
        data, length, size = f"ptr getelementptr (i8, ptr {base.ref}, i64 {GAUSS_OFFSET})", 1, 8
    return Value(llvm_type(t), f"{{ptr null, {data}, [1 x i64] [i64 {length}], [1 x i64] [i64 {size}]}}")
