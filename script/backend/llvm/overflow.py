"""`ovf.K`: whether Python's exact result of an int64 op lies outside int64 (ops.py).

add, sub and mul use LLVM's ``llvm.s{add,sub,mul}.with.overflow``: LLVM folds the wrapping
op the check guards into the same instruction (x86's ``imul`` + ``jo``), so a check costs a
branch that is never taken. The others are comparisons: ``-x`` and ``abs(x)`` overflow only
for INT64_MIN, ``x // y`` only for INT64_MIN // -1, ``x << n`` when shifting back loses bits
(any nonzero x when n >= 64), ``x ** n`` when a step of exponentiation by squaring that the
result needs overflows (`_pow_helper`).

None of them produces poison: the shift count is clamped before the shift.
"""

from __future__ import annotations

from script.backend.llvm.builder import FALSE, Builder, Callee, NativeModule, Value, int_const

_WITH_OVERFLOW = {"add": "sadd", "sub": "ssub", "mul": "smul"}
_MIN = -(1 << 63)


def lower_overflow(m: NativeModule, b: Builder, kind: str, args: list[Value]) -> Value:
    """The i1 `ovf.kind` of `args` (the operands, without the result operand)."""
    lt = args[0].type
    if kind in _WITH_OVERFLOW:
        name = f"llvm.{_WITH_OVERFLOW[kind]}.with.overflow.{lt}"
        pair = f"{{ {lt}, i1 }}"
        fn = m.intrinsic(name, pair, [lt, lt])
        return b.extract_value(b.call(fn, args), 1, "i1")
    if kind in ("neg", "abs"):
        return b.icmp("eq", args[0], int_const(lt, _MIN))
    if kind == "floordiv":
        x, y = args
        return b.and_(b.icmp("eq", x, int_const(lt, _MIN)), b.icmp("eq", y, int_const(lt, -1)))
    if kind == "shl":
        x, n = args
        big = b.icmp("uge", n, int_const(lt, 64))
        count = b.select(big, int_const(lt, 0), n)
        lost = b.icmp("ne", b.ashr(b.shl(x, count), count), x)
        return b.select(big, b.icmp("ne", x, int_const(lt, 0)), lost)
    if kind == "pow":
        return b.call(_pow_helper(m, lt), args)
    raise AssertionError(f"no overflow test for {kind}")


def _pow_helper(m: NativeModule, lt: str) -> Callee:
    """``script.ipow_ovf.iN(base, exp) -> i1``, `exp` >= 0: whether base ** exp overflows.
    Exponentiation by squaring that squares the base only while exponent bits remain: then
    |result| >= |base squared| (the base is not 0 or +-1 when squaring overflows), so an
    overflowing step is an overflowing result. Internal, so LLVM inlines it and folds
    constant exponents."""
    name = f"script.ipow_ovf.{lt}"
    fn = m.helpers.get(name)
    if fn is not None:
        return fn
    fn = m.new_function(name, "i1", [lt, lt])
    m.helpers[name] = fn
    base, exp = fn.args
    mul = m.intrinsic(f"llvm.smul.with.overflow.{lt}", f"{{ {lt}, i1 }}", [lt, lt])
    entry, loop, square, done = (fn.append_block(n) for n in ("entry", "loop", "square", "done"))
    b = Builder(fn, entry)
    zero, one = int_const(lt, 0), int_const(lt, 1)
    b.branch(loop)
    b.position_at_end(loop)
    acc, bb, e, bad = b.phi(lt), b.phi(lt), b.phi(lt), b.phi("i1")
    odd = b.trunc(e, "i1")
    prod = b.call(mul, [acc, bb])
    acc2 = b.select(odd, b.extract_value(prod, 0, lt), acc)
    bad2 = b.or_(bad, b.and_(odd, b.extract_value(prod, 1, "i1")))
    e2 = b.lshr(e, one)
    b.cbranch(b.icmp("eq", e2, zero), done, square)
    b.position_at_end(square)
    sq = b.call(mul, [bb, bb])
    sq_value = b.extract_value(sq, 0, lt)
    bad3 = b.or_(bad2, b.extract_value(sq, 1, "i1"))
    b.branch(loop)
    acc.add_incoming(one, entry)
    acc.add_incoming(acc2, square)
    bb.add_incoming(base, entry)
    bb.add_incoming(sq_value, square)
    e.add_incoming(exp, entry)
    e.add_incoming(e2, square)
    bad.add_incoming(FALSE, entry)
    bad.add_incoming(bad3, square)
    b.position_at_end(done)
    b.ret(bad2)
    return fn
