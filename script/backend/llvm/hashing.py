"""The ``hash`` op: hashes of dict keys (script/lib/python/dictlib.py); and the ``pyhash`` op,
CPython's own hash() of set elements (script/lib/python/setlib.py) and of `hash(x)`, below.

A key's bits are mixed with the finalizer of MurmurHash3 (fmix64), so that keys which differ
only in their high bits (multiples of a power of two, floats) still spread over every slot
of a power-of-two table that takes the low bits; the result has its sign bit cleared, as
the tables keep -1 for "deleted". Equal keys hash alike: a float is hashed by its bits after
-0.0 becomes 0.0 (the only two unequal bit patterns of equal floats; a NaN equals nothing);
a ``num`` (an int or a float) hashes an integral float as its int, so `1` and `1.0` meet;
a tuple combines its elements' hashes in order; a str folds its code points FNV-1a style
(one multiply per code point, in a helper out of line) and mixes the length and the result
(not CPython's salted hash: only equal keys must hash alike).
"""

from __future__ import annotations

from script.ir import types as T
from script.backend.llvm.abi import llvm_type
from script.backend.llvm import arith, lists, strings
from script.backend.llvm.builder import Builder, NativeModule, Value, float_const, int_const, undef

_M1, _M2 = 0xFF51AFD7ED558CCD, 0xC4CEB9FE1A85EC53
_SEED, _PRIME = 0x27D4EB2F165667C5, 0x100000001B3


def lower_hash(m: NativeModule, b: Builder, t: T.Type, x: Value) -> Value:
    """An i64 >= 0 for the key `x` of IR type `t`."""
    return b.and_(_raw(m, b, t, x), int_const("i64", (1 << 63) - 1))


def _raw(m: NativeModule, b: Builder, t: T.Type, x: Value) -> Value:
    if isinstance(t, T.IntFloatType):       # an int or a float: an integral float hashes as its int
        is_float, i, f = (b.extract_value(x, k, llvm_type(e)) for k, e in enumerate(t.elems))
        fabs = b.call(arith._float_intrinsic(m, "fabs", T.F64, 1), [f])
        fits = b.fcmp("olt", fabs, float_const("double", 2.0 ** 63))
        fi = b.fptosi(b.select(fits, f, float_const("double", 0.0)), "i64")
        integral = b.and_(fits, b.fcmp("oeq", b.sitofp(fi, "double"), f))
        as_int = _mix(b, b.select(is_float, fi, i))
        return b.select(b.and_(is_float, b.not_(integral)), _raw(m, b, T.F64, f), as_int)
    if isinstance(t, T.UnionType):      # the held alternative's; a float beside an int as a num's
        numbers = T.I64 in t.alternatives and T.F64 in t.alternatives
        return _by_tag(b, t, x, lambda e, v: _raw(m, b, T.INT_FLOAT, _as_num(b, v)) if numbers and e == T.F64
                       else _raw(m, b, e, v))
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
    if isinstance(t, T.TextType):       # (bytes hash as the str of their code points, as CPython's)
        return b.call(_str_hash_helper(m), [x])
    if isinstance(t, T.ClassType):      # an instance without __eq__/__hash__: its identity
        return _mix(b, b.ptrtoint(x, "i64"))
    if isinstance(t, T.EnumType):       # a member: its index (a set's pyhash is its name's, frontend)
        return _mix(b, x)
    if isinstance(t, T.VarTupleType):
        return b.call(_var_tuple_helper(m, t, False), [x])
    raise AssertionError(f"no hash for {t}")


def _var_tuple_helper(m: NativeModule, t: T.VarTupleType, py: bool):
    """``i64 script.vartuple.[py]hash.<elem>(ptr t)``: a tuple of a run-time length hashed as a
    tuple of fixed length is, element by element: the `hash` op's fold (`_raw`, mixed by the
    caller's `_mix`-free path: the result is mixed here), or CPython's xxHash-based tuple hash
    (`py`), so a set of them iterates in CPython's order."""
    name = f"script.vartuple.{'pyhash' if py else 'hash'}.{t.elem}"
    fn = m.helpers.get(name)
    if fn is not None:
        return fn
    fn = m.helpers[name] = m.new_function(name, "i64", ["ptr"], attrs=("nounwind",))
    x, = fn.args
    b = Builder(fn, fn.append_block("entry"))
    head, body, done = fn.append_block("head"), fn.append_block("body"), fn.append_block("done")
    n = lists.length(b, x)
    entry = b.block
    b.branch(head)
    b.position_at_end(head)
    k, acc = b.phi("i64"), b.phi("i64")
    k.add_incoming(int_const("i64", 0), entry)
    acc.add_incoming(int_const("i64", _XXPRIME_5 if py else _SEED), entry)
    b.cbranch(b.icmp("slt", k, n), body, done)
    b.position_at_end(body)
    item = lists.get(b, t, x, k)
    if py:
        lane = lower_pyhash(m, b, t.elem, item)
        nxt = b.add(acc, b.mul(lane, int_const("i64", _XXPRIME_2)))
        nxt = b.or_(b.shl(nxt, int_const("i64", 31)), b.lshr(nxt, int_const("i64", 33)))
        nxt = b.mul(nxt, int_const("i64", _XXPRIME_1))
    else:
        nxt = b.mul(b.xor(acc, _raw(m, b, t.elem, item)), int_const("i64", _PRIME))
    k.add_incoming(b.index_arith("add", k, int_const("i64", 1), "nuw nsw"), b.block)
    acc.add_incoming(nxt, b.block)
    b.branch(head)
    b.position_at_end(done)
    if py:
        r = b.add(acc, b.xor(n, int_const("i64", _XXPRIME_5 ^ 3527539)))
        b.ret(_not_minus_one(b, r, 1546275796))
    else:
        b.ret(_mix(b, acc))
    return fn


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


# --- CPython's own hash(): the `pyhash` op ---------------------------------------------------
#
# Sets order their elements by their hash table (lib/python/setlib.py, as CPython's
# Objects/setobject.c), so a compiled set iterates in CPython's order only with CPython's
# hashes: an int modulo 2**61 - 1 with its sign (-1 is -2), a float by `_Py_HashDouble`
# (called: it is pure; a NaN gives 0, where CPython hashes the object's address), a str by
# SipHash-1-3 of its code points in CPython's narrowest representation (1, 2 or 4 bytes each)
# keyed by the running interpreter's `_Py_HashSecret`, a tuple by CPython's xxHash-based
# combination of its elements' hashes. hash() of such a value in compiled code is this too.

_MODULUS = (1 << 61) - 1
_XXPRIME_1, _XXPRIME_2, _XXPRIME_5 = 11400714785074694791, 14029467366897019727, 2870177450012600261
PY_STR_HASH = "script.str.pyhash"
HASH_SECRET = "_Py_HashSecret"
HASH_DOUBLE = "_Py_HashDouble"


def _by_tag(b: Builder, t: T.UnionType, x: Value, hash_of) -> Value:
    """`hash_of(alternative, payload)` of the alternative union `x` holds (its tag)."""
    tag = b.extract_value(x, 0, "i64")
    out = None
    for k, e in reversed(list(enumerate(t.alternatives))):
        h = hash_of(e, b.extract_value(x, k + 1, llvm_type(e)))
        out = h if out is None else b.select(b.icmp("eq", tag, int_const("i64", k)), h, out)
    return out


def _as_num(b: Builder, f: Value) -> Value:
    """Float `f` as a ``num`` holding it."""
    num = b.insert_value(undef(llvm_type(T.INT_FLOAT)), int_const("i1", 1), 0)
    return b.insert_value(b.insert_value(num, int_const("i64", 0), 1), f, 2)


def lower_pyhash(m: NativeModule, b: Builder, t: T.Type, x: Value) -> Value:
    """CPython's hash(x) (an i64, never -1) of the key `x` of IR type `t`."""
    if isinstance(t, T.IntFloatType):       # (CPython's hash(1.0) is hash(1))
        is_float, i, f = (b.extract_value(x, k, llvm_type(e)) for k, e in enumerate(t.elems))
        return b.select(is_float, lower_pyhash(m, b, T.F64, f), lower_pyhash(m, b, T.I64, i))
    if isinstance(t, T.UnionType):          # the held alternative's (a set's order is CPython's)
        return _by_tag(b, t, x, lambda e, v: lower_pyhash(m, b, e, v))
    if isinstance(t, T.TupleType):
        acc = int_const("i64", _XXPRIME_5)
        for k, e in enumerate(t.elems):
            lane = lower_pyhash(m, b, e, b.extract_value(x, k, llvm_type(e)))
            acc = b.add(acc, b.mul(lane, int_const("i64", _XXPRIME_2)))
            acc = b.or_(b.shl(acc, int_const("i64", 31)), b.lshr(acc, int_const("i64", 33)))
            acc = b.mul(acc, int_const("i64", _XXPRIME_1))
        acc = b.add(acc, int_const("i64", len(t.elems) ^ (_XXPRIME_5 ^ 3527539)))
        return _not_minus_one(b, acc, 1546275796)
    if isinstance(t, T.BoolType):
        return b.zext(x, "i64")
    if isinstance(t, T.IntType):
        if t.bits < 64:
            return _not_minus_one(b, b.sext(x, "i64") if t.signed else b.zext(x, "i64"), -2) \
                if t.signed else b.zext(x, "i64")
        if not t.signed:
            r = b.urem(x, int_const("i64", _MODULUS))
            return r
        negative = b.icmp("slt", x, int_const("i64", 0))
        magnitude = b.select(negative, b.sub(int_const("i64", 0), x), x)     # (2**63 as unsigned too)
        r = b.urem(magnitude, int_const("i64", _MODULUS))
        return _not_minus_one(b, b.select(negative, b.sub(int_const("i64", 0), r), r), -2)
    if isinstance(t, T.FloatType):
        d = x if t.bits == 64 else b.fpext(x, "double")
        fn = m.declare(HASH_DOUBLE, "i64", ["ptr", "double"], attrs=("nounwind",))
        return b.call(fn, [NULL_PTR, d])
    if isinstance(t, T.TextType):
        return b.call(_py_str_hash_helper(m), [x])
    if isinstance(t, T.ClassType):      # not CPython's (its object's address): a set of
        return _not_minus_one(b, b.lshr(b.ptrtoint(x, "i64"), int_const("i64", 4)), -2)   # them is not iterated
    if isinstance(t, T.VarTupleType):
        return b.call(_var_tuple_helper(m, t, True), [x])
    raise AssertionError(f"no hash for {t}")


NULL_PTR = Value("ptr", "null")


def _not_minus_one(b: Builder, h: Value, instead: int) -> Value:
    return b.select(b.icmp("eq", h, int_const("i64", -1)), int_const("i64", instead), h)


def _rotl(b: Builder, x: Value, s: int) -> Value:
    return b.or_(b.shl(x, int_const("i64", s)), b.lshr(x, int_const("i64", 64 - s)))


def _sip_round(b: Builder, v):
    v0, v1, v2, v3 = v
    # HALF_ROUND(v0, v1, v2, v3, 13, 16)
    v0 = b.add(v0, v1)
    v2 = b.add(v2, v3)
    v1 = b.xor(_rotl(b, v1, 13), v0)
    v3 = b.xor(_rotl(b, v3, 16), v2)
    v0 = _rotl(b, v0, 32)
    # HALF_ROUND(v2, v1, v0, v3, 17, 21)
    v2 = b.add(v2, v1)
    v0 = b.add(v0, v3)
    v1 = b.xor(_rotl(b, v1, 17), v2)
    v3 = b.xor(_rotl(b, v3, 21), v0)
    v2 = _rotl(b, v2, 32)
    return v0, v1, v2, v3


def _py_str_hash_helper(m: NativeModule):
    """``i64 script.str.pyhash(ptr s)``: CPython's hash of the str (Python/pyhash.c
    siphash13 over PyUnicode_DATA, whose width is 1, 2 or 4 bytes by the largest code
    point). The code points are fed as they come: a code point never straddles two 8-byte
    words, as the width divides 8."""
    fn = m.helpers.get(PY_STR_HASH)
    if fn is not None:
        return fn
    fn = m.helpers[PY_STR_HASH] = m.new_function(PY_STR_HASH, "i64", ["ptr"], attrs=("nounwind",))
    s, = fn.args
    b = Builder(fn, fn.append_block("entry"))
    n = strings.length(b, s)
    empty, scan = fn.append_block("empty"), fn.append_block("scan")
    b.cbranch(b.icmp("eq", n, int_const("i64", 0)), empty, scan)
    b.position_at_end(empty)
    b.ret(int_const("i64", 0))
    # The largest code point gives the width in bits (8, 16 or 32).
    b.position_at_end(scan)
    mhead, mbody, mdone = fn.append_block("max_head"), fn.append_block("max_body"), fn.append_block("max_done")
    b.branch(mhead)
    b.position_at_end(mhead)
    k, top = b.phi("i64"), b.phi("i64")
    k.add_incoming(int_const("i64", 0), scan)
    top.add_incoming(int_const("i64", 0), scan)
    b.cbranch(b.icmp("slt", k, n), mbody, mdone)
    b.position_at_end(mbody)
    c = strings.get(b, s, k)
    k.add_incoming(b.index_arith("add", k, int_const("i64", 1), "nuw nsw"), mbody)
    top.add_incoming(b.select(b.icmp("ugt", c, top), c, top), mbody)
    b.branch(mhead)
    b.position_at_end(mdone)
    bits = b.select(b.icmp("ult", top, int_const("i64", 256)), int_const("i64", 8),
                    b.select(b.icmp("ult", top, int_const("i64", 65536)), int_const("i64", 16), int_const("i64", 32)))
    nbytes = b.mul(n, b.lshr(bits, int_const("i64", 3)))
    secret = m.declare_data(HASH_SECRET)
    k0, k1 = b.load("i64", secret), b.load_at("i64", secret, 8)
    v = (b.xor(k0, int_const("i64", 0x736f6d6570736575)), b.xor(k1, int_const("i64", 0x646f72616e646f6d)),
         b.xor(k0, int_const("i64", 0x6c7967656e657261)), b.xor(k1, int_const("i64", 0x7465646279746573)))
    # Words: each code point is or-ed in at bit `fill`; a full word is compressed.
    head, body, full, tail = (fn.append_block("head"), fn.append_block("body"), fn.append_block("full"),
                              fn.append_block("tail"))
    entry = b.block
    b.branch(head)
    b.position_at_end(head)
    i, word, fill = b.phi("i64"), b.phi("i64"), b.phi("i64")
    vs = [b.phi("i64") for _ in range(4)]
    i.add_incoming(int_const("i64", 0), entry)
    word.add_incoming(int_const("i64", 0), entry)
    fill.add_incoming(int_const("i64", 0), entry)
    for phi, init in zip(vs, v):
        phi.add_incoming(init, entry)
    b.cbranch(b.icmp("slt", i, n), body, tail)
    b.position_at_end(body)
    w = b.or_(word, b.shl(strings.get(b, s, i), fill))
    f = b.add(fill, bits)
    i2 = b.index_arith("add", i, int_const("i64", 1), "nuw nsw")
    nxt = fn.append_block("next")
    b.cbranch(b.icmp("eq", f, int_const("i64", 64)), full, nxt)
    b.position_at_end(nxt)
    i.add_incoming(i2, nxt)
    word.add_incoming(w, nxt)
    fill.add_incoming(f, nxt)
    for phi in vs:
        phi.add_incoming(phi, nxt)
    b.branch(head)
    b.position_at_end(full)
    v0, v1, v2, v3 = vs
    v3 = b.xor(v3, w)
    v0, v1, v2, v3 = _sip_round(b, (v0, v1, v2, v3))
    v0 = b.xor(v0, w)
    i.add_incoming(i2, full)
    word.add_incoming(int_const("i64", 0), full)
    fill.add_incoming(int_const("i64", 0), full)
    for phi, val in zip(vs, (v0, v1, v2, v3)):
        phi.add_incoming(val, full)
    b.branch(head)
    b.position_at_end(tail)
    last = b.or_(word, b.shl(nbytes, int_const("i64", 56)))
    v0, v1, v2, v3 = vs
    v3 = b.xor(v3, last)
    v0, v1, v2, v3 = _sip_round(b, (v0, v1, v2, v3))
    v0 = b.xor(v0, last)
    v2 = b.xor(v2, int_const("i64", 0xff))
    for _ in range(3):
        v0, v1, v2, v3 = _sip_round(b, (v0, v1, v2, v3))
    h = b.xor(b.xor(v0, v1), b.xor(v2, v3))
    b.ret(_not_minus_one(b, h, -2))
    return fn
