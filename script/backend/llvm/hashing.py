"""The ``hash`` op: hashes of dict keys and set elements (script/frontend/dictlib.py).

A key's bits are mixed with the finalizer of MurmurHash3 (fmix64), so that keys which differ
only in their high bits (multiples of a power of two, floats) still spread over every slot
of a power-of-two table that takes the low bits; the result has its sign bit cleared, as
the tables keep -1 for "deleted". Equal keys hash alike: a float is hashed by its bits after
-0.0 becomes 0.0 (the only two unequal bit patterns of equal floats; a NaN equals nothing);
a tuple combines its elements' hashes in order. A new key type (str) adds a case here.
"""

from __future__ import annotations

from script.ir import types as T
from script.backend.llvm.abi import llvm_type
from script.backend.llvm.builder import Builder, Value, float_const, int_const

_M1, _M2 = 0xFF51AFD7ED558CCD, 0xC4CEB9FE1A85EC53
_SEED, _PRIME = 0x27D4EB2F165667C5, 0x100000001B3


def lower_hash(b: Builder, t: T.Type, x: Value) -> Value:
    """An i64 >= 0 for the key `x` of IR type `t`."""
    return b.and_(_raw(b, t, x), int_const("i64", (1 << 63) - 1))


def _raw(b: Builder, t: T.Type, x: Value) -> Value:
    if isinstance(t, T.TupleType):
        h = int_const("i64", _SEED)
        for k, e in enumerate(t.elems):
            part = _raw(b, e, b.extract_value(x, k, llvm_type(e)))
            h = b.mul(b.xor(h, part), int_const("i64", _PRIME))
        return _mix(b, h)
    if isinstance(t, T.BoolType):
        return _mix(b, b.zext(x, "i64"))
    if isinstance(t, T.IntType):
        wide = x if t.bits == 64 else b.sext(x, "i64") if t.signed else b.zext(x, "i64")
        return _mix(b, wide)
    if isinstance(t, T.FloatType):
        d = x if t.bits == 64 else b.fpext(x, "double")
        zero = float_const("double", 0.0)
        d = b.select(b.fcmp("oeq", d, zero), zero, d)        # -0.0 == 0.0
        return _mix(b, b.bitcast(d, "i64"))
    raise AssertionError(f"no hash for {t}")


def _mix(b: Builder, h: Value) -> Value:
    h = b.xor(h, b.lshr(h, int_const("i64", 33)))
    h = b.mul(h, int_const("i64", _M1))
    h = b.xor(h, b.lshr(h, int_const("i64", 33)))
    h = b.mul(h, int_const("i64", _M2))
    return b.xor(h, b.lshr(h, int_const("i64", 33)))
