"""The interval arithmetic of the `ranges` pass (script/ir/passes/_intervals.py), against
brute force: every value an op gives on operands of the intervals lies in the interval the
transfer function gives (with int64's wrapping where the exact result leaves int64), and
the comparisons it decides hold for every pair."""

from __future__ import annotations

import operator

from hypothesis import given, settings, strategies as st

from script.ir import types as T
from script.ir.passes import _intervals as iv

MIN, MAX = T.I64.min, T.I64.max
_EDGES = [MIN, MIN + 1, -(1 << 62), -(1 << 32), -1000, -7, -1, 0, 1, 2, 7, 1000, 1 << 32, 1 << 62, MAX - 1, MAX]


def _wrap(v: int) -> int:
    return T.I64.wrap(v)


@st.composite
def intervals(draw):
    lo = draw(st.one_of(st.sampled_from(_EDGES), st.integers(MIN, MAX), st.integers(-50, 50)))
    width = draw(st.one_of(st.integers(0, 6), st.integers(0, 1 << 40), st.integers(0, MAX)))
    return lo, min(MAX, lo + width)


def _samples(r):
    lo, hi = r
    picks = {lo, hi, (lo + hi) // 2, min(hi, lo + 1), max(lo, hi - 1)}
    picks |= {x for x in (0, 1, -1) if lo <= x <= hi}
    return picks


_OPS = {
    "add": operator.add, "sub": operator.sub, "mul": operator.mul, "min": min, "max": max,
    "and": operator.and_, "or": operator.or_, "xor": operator.xor,
    "mod": lambda a, b: a % b if b else None, "floordiv": lambda a, b: a // b if b else None,
}


@settings(max_examples=100, deadline=None)
@given(st.sampled_from(sorted(_OPS)), intervals(), intervals())
def test_binary_transfer_contains_every_result(name, a, b):
    r = iv.transfer(name, None, T.I64, [a, b])
    for x in _samples(a):
        for y in _samples(b):
            v = _OPS[name](x, y)
            if v is None:
                continue
            assert r[0] <= _wrap(v) <= r[1], (name, a, b, x, y, r)


@settings(max_examples=80, deadline=None)
@given(st.sampled_from(["neg", "abs"]), intervals())
def test_unary_transfer_contains_every_result(name, a):
    r = iv.transfer(name, None, T.I64, [a])
    for x in _samples(a):
        v = -x if name == "neg" else abs(x)
        assert r[0] <= _wrap(v) <= r[1]


@settings(max_examples=80, deadline=None)
@given(st.sampled_from(["shl", "shr", "pow"]), intervals(), st.integers(0, 70), st.integers(0, 70))
def test_shift_and_power_transfer(name, a, k0, k1):
    b = (min(k0, k1), max(k0, k1))
    r = iv.transfer(name, None, T.I64, [a, b])
    for x in _samples(a):
        for y in {b[0], b[1]}:
            v = x << y if name == "shl" else x >> y if name == "shr" else (x ** y if abs(x) < 4 or y < 8 else None)
            if v is not None:
                assert r[0] <= _wrap(v) <= r[1]


@settings(max_examples=100, deadline=None)
@given(st.sampled_from(["lt", "le", "gt", "ge", "eq", "ne"]), intervals(), intervals(), st.booleans())
def test_decide_and_constrain(pred, a, b, holds):
    fn = {"lt": operator.lt, "le": operator.le, "gt": operator.gt, "ge": operator.ge,
          "eq": operator.eq, "ne": operator.ne}[pred]
    known = iv.decide(pred, a, b)
    narrowed = iv.constrain(a, pred, b, holds)
    for x in _samples(a):
        for y in _samples(b):
            if known is not None:
                assert fn(x, y) == known
            if fn(x, y) == holds:           # x is possible under the fact: kept
                assert narrowed is not None and narrowed[0] <= x <= narrowed[1]


def test_zero_to_the_zero_is_one():
    assert iv.transfer("pow", None, T.I64, [(0, 0), (0, 5)]) == (0, 1)


def test_exact_fits_decide_overflow():
    assert iv.exact("add", (0, MAX - 1), (0, 1)) == (0, MAX)
    assert iv.exact("mul", (-(1 << 31), 1 << 31), (-(1 << 31), 1 << 31))[1] == 1 << 62
    assert iv.transfer("add", None, T.I64, [(0, MAX), (1, 1)]) == (MIN, MAX)     # may wrap
