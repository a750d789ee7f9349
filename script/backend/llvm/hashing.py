"""The ``hash`` op: hashes of dict keys and set elements (script/frontend/dictlib.py).

A key's bits are mixed with the finalizer of MurmurHash3 (fmix64), so that keys which differ
only in their high bits (multiples of a power of two, floats) still spread over every slot
of a power-of-two table that takes the low bits; the result has its sign bit cleared, as
the tables keep -1 for "deleted". Equal keys hash alike: a float is hashed by its bits after
-0.0 becomes 0.0 (the only two unequal bit patterns of equal floats; a NaN equals nothing);
a tuple combines its elements' hashes in order; a str folds its code points FNV-1a style
(one multiply per code point, in a helper out of line) and mixes the length and the result
(not CPython's salted hash: only equal keys must hash alike).
"""

from __future__ import annotations

from script.ir import types as T
from script.backend.llvm.abi import llvm_type
from script.backend.llvm import strings
from script.backend.llvm.builder import Builder, NativeModule, Value, float_const, int_const

_M1, _M2 = 0xFF51AFD7ED558CCD, 0xC4CEB9FE1A85EC53
_SEED, _PRIME = 0x27D4EB2F165667C5, 0x100000001B3


def lower_hash(m: NativeModule, b: Builder, t: T.Type, x: Value) -> Value:
    """An i64 >= 0 for the key `x` of IR type `t`."""
    return b.and_(_raw(m, b, t, x), int_const("i64", (1 << 63) - 1))


def _raw(m: NativeModule, b: Builder, t: T.Type, x: Value) -> Value:
    if isinstance(t, T.TupleType):
        h = int_const("i64", _SEED)
        for k, e in enumerate(t.elems):
            part = _raw(m, b, e, b.extract_value(x, k, llvm_type(e)))
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
    if isinstance(t, T.StrType):
        return b.call(_str_hash_helper(m), [x])
    raise AssertionError(f"no hash for {t}")


STR_HASH = "script.str.hash"


def _str_hash_helper(m: NativeModule):
    """``i64 script.str.hash(ptr s)``: the code points folded FNV-1a style, then mixed with
    the length (so that "" and "\0" differ) by fmix64."""
    fn = m.helpers.get(STR_HASH)
    if fn is not None:
        return fn
    fn = m.helpers[STR_HASH] = m.new_function(STR_HASH, "i64", ["ptr"], attrs=("nounwind",))
    s, = fn.args
    b = Builder(fn, fn.append_block("entry"))
    head, body, done = fn.append_block("head"), fn.append_block("body"), fn.append_block("done")
    n = strings.length(b, s)
    entry = b.block
    b.branch(head)
    b.position_at_end(head)
    k, h = b.phi("i64"), b.phi("i64")
    k.add_incoming(int_const("i64", 0), entry)
    h.add_incoming(int_const("i64", _SEED), entry)
    b.cbranch(b.icmp("slt", k, n), body, done)
    b.position_at_end(body)
    h2 = b.mul(b.xor(h, strings.get(b, s, k)), int_const("i64", _PRIME))
    k.add_incoming(b.index_arith("add", k, int_const("i64", 1), "nuw nsw"), b.block)
    h.add_incoming(h2, b.block)
    b.branch(head)
    b.position_at_end(done)
    b.ret(_mix(b, b.xor(h, n)))
    return fn


def _mix(b: Builder, h: Value) -> Value:
    h = b.xor(h, b.lshr(h, int_const("i64", 33)))
    h = b.mul(h, int_const("i64", _M1))
    h = b.xor(h, b.lshr(h, int_const("i64", 33)))
    h = b.mul(h, int_const("i64", _M2))
    return b.xor(h, b.lshr(h, int_const("i64", 33)))
