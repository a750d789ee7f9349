"""Integer intervals and what each IR op does to them (for the `ranges` pass).

An interval is a pair ``(lo, hi)`` of Python ints, both inclusive, or None for no value at
all (code not reached yet). Results are computed exactly, as Python's ints would be, and
then compared with the result type's range: an exact interval that leaves it means the op
may wrap (or raise, for a checked int op), so the result is the whole type. That keeps every
transfer sound for wrapping ops, whatever the checks do.
"""

from __future__ import annotations

from script.ir import types as T

Interval = tuple[int, int]


def full(t: T.Type) -> Interval | None:
    """Every value of type `t` (bools as 0..1), or None for a type without int values."""
    if isinstance(t, T.BoolType):
        return (0, 1)
    if isinstance(t, T.IntType):
        return (t.min, t.max)
    return None


def fit(t: T.Type, lo: int, hi: int) -> Interval:
    """The exact interval `lo..hi` if type `t` holds it, else the whole type (it wraps)."""
    whole = full(t)
    return (lo, hi) if whole[0] <= lo and hi <= whole[1] else whole


def join(a: Interval | None, b: Interval | None) -> Interval | None:
    if a is None:
        return b
    if b is None:
        return a
    return (min(a[0], b[0]), max(a[1], b[1]))


def meet(a: Interval, b: Interval) -> Interval | None:
    lo, hi = max(a[0], b[0]), min(a[1], b[1])
    return (lo, hi) if lo <= hi else None


def exact(kind: str, a: Interval, b: Interval | None = None) -> Interval | None:
    """The exact interval of Python's int `kind` (an `OVF_OPS` name, `min`, `max`) over
    operands in `a` and `b`; None where it is not computed here (the caller assumes any)."""
    if kind == "add":
        return (a[0] + b[0], a[1] + b[1])
    if kind == "sub":
        return (a[0] - b[1], a[1] - b[0])
    if kind == "mul":
        corners = [x * y for x in a for y in b]
        return (min(corners), max(corners))
    if kind == "neg":
        return (-a[1], -a[0])
    if kind == "abs":
        if a[0] >= 0:
            return a
        if a[1] <= 0:
            return (-a[1], -a[0])
        return (0, max(-a[0], a[1]))
    if kind == "min":
        return (min(a[0], b[0]), min(a[1], b[1]))
    if kind == "max":
        return (max(a[0], b[0]), max(a[1], b[1]))
    if kind == "shl":
        if b[0] < 0 or b[1] > 64:
            return None
        corners = [a[0] << b[0], a[0] << b[1], a[1] << b[0], a[1] << b[1]]
        return (min(corners), max(corners))
    if kind == "pow":
        if b[0] < 0 or b[1] > 64:
            return None
        m = max(abs(a[0]), abs(a[1]), 1) ** b[1]          # (0 ** 0 is 1)
        return (0, m) if a[0] >= 0 else (-m, m)
    if kind == "floordiv":
        if b[0] <= 0 <= b[1]:
            return None                         # the divisor's sign may change
        corners = [x // y for x in a for y in b]
        return (min(corners), max(corners))
    return None


def transfer(name: str, attr, t: T.Type, ops: list[Interval]) -> Interval | None:
    """The interval of an instruction `name.attr` of result type `t` over operand intervals
    `ops` (all known), or the whole type where nothing better is known."""
    whole = full(t)
    if name in ("add", "sub", "mul", "neg", "abs", "min", "max", "shl", "floordiv", "pow"):
        r = exact(name, *ops)
        return whole if r is None else fit(t, *r)
    if name == "mod":
        a, b = ops
        if b[0] > 0:                            # Python: 0 <= a % b < b
            hi = b[1] - 1
            return fit(t, 0, a[1] if a[0] >= 0 and a[1] < hi else hi)
        return whole
    if name == "shr":
        a, b = ops
        if b[0] >= 0:                           # monotone in each operand
            corners = [x >> min(y, 64) for x in a for y in b]
            return fit(t, min(corners), max(corners))
        return whole
    if name == "and":
        a, b = ops
        if a[0] >= 0 and b[0] >= 0:
            return (0, min(a[1], b[1]))
        if a[0] >= 0 or b[0] >= 0:
            return (0, a[1] if a[0] >= 0 else b[1])
        return whole
    if name in ("or", "xor"):
        a, b = ops
        if a[0] >= 0 and b[0] >= 0:
            return (0, (1 << max(a[1], b[1]).bit_length()) - 1)
        return whole
    if name == "select":
        return join(ops[1], ops[2])
    if name == "convert":
        src = ops[0]
        return src if whole[0] <= src[0] and src[1] <= whole[1] else whole
    return whole


def decide(pred: str, a: Interval, b: Interval) -> bool | None:
    """Whether ``a pred b`` holds for every pair of values of the intervals (True), for none
    (False), or either (None)."""
    if pred == "lt":
        return True if a[1] < b[0] else False if a[0] >= b[1] else None
    if pred == "le":
        return True if a[1] <= b[0] else False if a[0] > b[1] else None
    if pred == "gt":
        return decide("lt", b, a)
    if pred == "ge":
        return decide("le", b, a)
    if pred == "eq":
        return True if a[0] == a[1] == b[0] == b[1] else False if a[1] < b[0] or b[1] < a[0] else None
    if pred == "ne":
        r = decide("eq", a, b)
        return None if r is None else not r
    return None


_NEGATE = {"lt": "ge", "le": "gt", "gt": "le", "ge": "lt", "eq": "ne", "ne": "eq"}
_SWAP = {"lt": "gt", "le": "ge", "gt": "lt", "ge": "le", "eq": "eq", "ne": "ne"}


def constrain(a: Interval, pred: str, b: Interval, holds: bool = True) -> Interval | None:
    """`a` narrowed by knowing that ``a pred b`` is `holds` for some value of `b`'s interval
    (None: no value of `a` can satisfy it)."""
    if not holds:
        pred = _NEGATE[pred]
    if pred == "lt":
        return meet(a, (a[0], b[1] - 1))
    if pred == "le":
        return meet(a, (a[0], b[1]))
    if pred == "gt":
        return meet(a, (b[0] + 1, a[1]))
    if pred == "ge":
        return meet(a, (b[0], a[1]))
    if pred == "eq":
        return meet(a, b)
    if pred == "ne" and b[0] == b[1]:
        if a[0] == b[0]:
            return (a[0] + 1, a[1]) if a[0] < a[1] else None
        if a[1] == b[0]:
            return (a[0], a[1] - 1) if a[0] < a[1] else None
    return a


def swapped(pred: str) -> str:
    """The predicate with its operands exchanged (``a < b`` is ``b > a``)."""
    return _SWAP[pred]
