"""``atomic.F`` (script/ir/ops.py) as LLVM atomics, the same code for the GPU and the CPU.

``add`` on ints and floats and ``max``/``min`` on ints are one ``atomicrmw``. Float ``max``
and ``min`` are a compare-and-swap loop around the IR's own `max`/`min` (Python's rule,
``v if v > old else old``), so NaNs behave the same on both targets. ``cas`` is one
``cmpxchg``. Every atomic is ``monotonic`` (CUDA's relaxed atomics); on the CPU path the
threads of a kernel run one after another, so that is more than enough.
"""

from __future__ import annotations

from script.ir import types as T
from script.backend.llvm import arith
from script.backend.llvm.builder import Builder, NativeModule, Value


def lower_atomic(m: NativeModule, b: Builder, fn: str, dtype: T.Type, ptr: Value,
                 values: list[Value]) -> Value:
    """The old element at `ptr` after updating it with `values` (two for ``cas``)."""
    lt = values[0].type
    if fn == "cas":
        pair = b._emit(f"{{{lt}, i1}}", f"cmpxchg ptr {ptr.ref}, {lt} {values[0].ref}, "
                                        f"{lt} {values[1].ref} monotonic monotonic")
        return b.extract_value(pair, 0, lt)
    v = values[0]
    if isinstance(dtype, T.FloatType) and fn != "add":
        return _float_minmax(m, b, fn, dtype, ptr, v)
    if fn == "add":
        op = "fadd" if isinstance(dtype, T.FloatType) else "add"
    else:
        op = ("" if dtype.signed else "u") + fn
    return b._emit(lt, f"atomicrmw {op} ptr {ptr.ref}, {lt} {v.ref} monotonic")


def _float_minmax(m: NativeModule, b: Builder, fn: str, dtype: T.FloatType, ptr: Value,
                  v: Value) -> Value:
    it = f"i{dtype.bits}"
    first = b.load(v.type, ptr, dtype.bits // 8)
    before = b.block
    loop = b.fn.append_block("atomic.loop")
    done = b.fn.append_block("atomic.done")
    b.branch(loop)
    b.position_at_end(loop)
    old = b.phi(v.type)
    old.add_incoming(first, before)
    new = arith.lower_binary(m, b, fn, dtype, old, v)
    old_bits = b._emit(it, f"bitcast {v.type} {old.ref} to {it}")
    new_bits = b._emit(it, f"bitcast {v.type} {new.ref} to {it}")
    pair = b._emit(f"{{{it}, i1}}", f"cmpxchg ptr {ptr.ref}, {it} {old_bits.ref}, {it} "
                                    f"{new_bits.ref} monotonic monotonic")
    seen = b._emit(v.type, f"bitcast {it} {b.extract_value(pair, 0, it).ref} to {v.type}")
    ok = b.extract_value(pair, 1, "i1")
    old.add_incoming(seen, b.block)
    b.cbranch(ok, done, loop)
    b.position_at_end(done)
    return old
