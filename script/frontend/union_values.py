"""Values that hold one of several types CPython keeps apart: an int on one path and a str on
another, a float or a tuple, a function's result that is a bool or a str.

``y = 1`` then ``y = "a"`` in a branch, ``x = parse(tok)`` of a `parse` that returns a float
or the token itself: CPython holds either object. Where such values meet (a variable's
merge, a conditional expression, an operator's results: `meet`), the value is a
`types.UnionType`, the tuple ``(tag, a, b, ...)`` holding the value of alternative `tag` and
a placeholder of each other one (zero, NULL, an immortal str), as the union results of
union_returns.py, which the entry point boxes as the tagged alternative.

No operation sees a union: it is taken apart first, as an int|float (mixed_numbers.py, whose
machinery this shares): an operator is lowered once per alternative on a branch on the tag
(`each`), the results meeting again; a statement that reads a union name anywhere else (a
call's argument, a method's object, an f-string, an `if isinstance(y, str):` test) is
lowered once per alternative, the name holding that alternative's value in each copy, so the
copy of an `if isinstance(...)` statement knows the test's answer. A value kept whole: one
assigned to a name, returned, tested for truth, or given to `isinstance`. Anything else that
meets a union (a container's element, a class field, a comprehension) reads it through
`lazy` and gets the CompileError of an int|float read.

What an alternative does that CPython refuses (``y + 1`` of the str) raises CPython's
TypeError in that branch when it runs, as for any operand of that type. None beside one
other type stays an optional; beside several, one alternative is an optional that holds it
(`meet`). A bool beside a number, a float beside a complex stay the CompileErrors they
were (docs/differences.md).
"""

from __future__ import annotations

from script.ir import types as T
from script.ir.core import Const, Value

MAX_ALTERNATIVES = 4         # a union of more types is a CompileError where it would form


def is_union(v) -> bool:
    return isinstance(getattr(v, "type", None), T.UnionType)


def _alternatives(t: T.Type) -> list:
    """The alternatives `t` stands for in a union: its own (a union), an int and a float (an
    int|float), or itself."""
    if isinstance(t, T.UnionType):
        return list(t.alternatives)
    if isinstance(t, T.IntFloatType):
        return [T.I64, T.F64]
    return [t]


def meet(a: T.Type, b: T.Type) -> T.UnionType | None:
    """The union a value holding an `a` or a `b` gets where paths meet that `types.merge`
    found no type for, or None where no union holds both (an array, a bool beside a number,
    more than `MAX_ALTERNATIVES` types). None, beside other types, is held by one alternative
    made an optional (``union[opt[i64], f64]``): the one that held it already, else the
    first that has an optional (optional.py)."""
    if not (isinstance(a, T.UnionType) or isinstance(b, T.UnionType)) and (
            T.bool_and_number(a, b) or T.real_and_complex(a, b)):
        return None
    alts: list = []
    none, holder = False, None
    for t in _alternatives(a) + _alternatives(b):
        if isinstance(t, (T.NoneType, T.OptionalType)):
            none = True
            if isinstance(t, T.NoneType):
                continue
            inner = _alternatives(t.value)          # (an opt[num]: its int and its float)
            holder, t = holder or inner[0], inner
        for u in t if isinstance(t, list) else [t]:
            if not T.is_union_alternative(u) or isinstance(u, (T.BoolIntType, T.IntFloatType, T.UnionType)):
                return None
            if u not in alts:
                alts.append(u)
    if len(alts) < 2 or len(alts) > MAX_ALTERNATIVES:
        return None
    if any(T.bool_and_number(x, y) or T.real_and_complex(x, y) for x in alts for y in alts):
        return None
    if none:
        holder = holder if holder is not None else next((t for t in alts if T.is_optional_value(t)), None)
        if holder is None:
            return None
        alts[alts.index(holder)] = T.OptionalType(holder)
    return T.UnionType(alts)


def tuples_meet(a: T.Type, b: T.Type) -> T.VarTupleType | None:
    """Where plain tuples of other lengths meet (`[(1,), (1, 2)]`, `dp[j].append((*prev, x))`;
    one may be of run-time length already), a tuple of run-time length of the type their
    items meet at (`types.merge`, else a union); None for other types."""
    if not all(type(t) in (T.TupleType, T.VarTupleType) for t in (a, b)) or \
            type(a) is type(b) is T.TupleType and len(a.elems) == len(b.elems):
        return None
    items = [e for t in (a, b) for e in ((t.elem,) if type(t) is T.VarTupleType else t.elems)]
    if not items:
        return None
    elem = items[0]
    for e in items[1:]:
        elem = T.merge(elem, e) or meet(elem, e)
        if elem is None:
            return None
    return T.VarTupleType(elem) if T.is_list_element(elem) else None


def build(emit, v: Value, t: T.UnionType, placeholder, loc) -> Value:
    """`v` (a value of an alternative of `t`, None or an int|float, or a union whose
    alternatives `t` holds) as the union `t`. `emit(op, operands, type, attr=None)` makes
    an instruction where the value is wanted; `placeholder(type)` a value standing for
    nothing there."""
    alts = list(t.alternatives)
    if v.type == t:
        return v
    num_opt = isinstance(v.type, T.OptionalType) and isinstance(v.type.value, T.IntFloatType)
    if isinstance(v.type, (T.IntFloatType, T.UnionType)) or num_opt:
        old = [T.I64, T.F64] if isinstance(v.type, T.IntFloatType) else [T.NONE, T.I64, T.F64] if num_opt \
            else list(v.type.alternatives)
        if num_opt:             # an opt[num] (None, an int or a float): tags 0, 1, 2
            there, num = parts(emit, v, loc)
            is_float, i, f = parts(emit, num, loc)
            old_tag = emit("select", [there, emit("select", [is_float, Const(2, T.I64), Const(1, T.I64)], T.I64),
                                      Const(0, T.I64)], T.I64)
            payloads = [Const(None, T.NONE), i, f]
        else:
            old_tag, *payloads = parts(emit, v, loc)
        if isinstance(v.type, T.IntFloatType):      # (is_float, i, f): tag 1 is the float
            old_tag = emit("select", [old_tag, Const(1, T.I64), Const(0, T.I64)], T.I64)
        placed = [_place(emit, alts, o, p, placeholder) for o, p in zip(old, payloads)]
        tag = placed[-1][0]
        for k in range(len(old) - 2, -1, -1):
            same = emit("cmp", [old_tag, Const(k, T.I64)], T.BOOL, "eq")
            tag = emit("select", [same, placed[k][0], tag], T.I64)
        held = {}
        for j in range(len(alts)):
            found = [(k, at[j]) for k, (_, at) in enumerate(placed) if j in at]
            value = found[-1][1] if found else None
            for k, w in reversed(found[:-1]):
                same = emit("cmp", [old_tag, Const(k, T.I64)], T.BOOL, "eq")
                value = emit("select", [same, w, value], alts[j])
            held[j] = value
    else:
        tag, held = _place(emit, alts, v.type, v, placeholder)
    return emit("tuple", [tag] + [held[j] if held.get(j) is not None else placeholder(alt)
                                  for j, alt in enumerate(alts)], t)


def _place(emit, alts: list, t: T.Type, v: Value, placeholder) -> tuple:
    """(tag, {alternative's index: payload}) of `v`, of type `t` (no union), among `alts`:
    its own alternative, or the optional one that holds None and values of its type."""
    if t in alts:
        return Const(alts.index(t), T.I64), {alts.index(t): v}
    k = next((k for k, a in enumerate(alts) if isinstance(a, T.OptionalType)), None)
    if k is None:
        raise ValueError(f"no alternative of {T.UnionType(alts)} holds a {t}")
    opt = alts[k]

    def absent():
        return emit("tuple", [Const(False, T.BOOL), placeholder(opt.value)], opt)
    if isinstance(t, T.NoneType):
        return Const(k, T.I64), {k: absent()}
    if t == opt.value:
        return Const(k, T.I64), {k: emit("tuple", [Const(True, T.BOOL), v], opt)}
    if isinstance(t, T.OptionalType) and t.value in alts:      # None moves to `opt`
        j = alts.index(t.value)
        there = emit("extract", [v], T.BOOL, 0)
        tag = emit("select", [there, Const(j, T.I64), Const(k, T.I64)], T.I64)
        return tag, {j: emit("extract", [v], t.value, 1), k: absent()}
    raise ValueError(f"no alternative of {T.UnionType(alts)} holds a {t}")


def parts(emit, v: Value, loc) -> list:
    """The elements of the tuple `v` (a union: its tag, then each alternative's payload)."""
    if getattr(v, "opname", None) == "tuple":
        return list(v.operands)
    if isinstance(v, Const) and isinstance(v.value, tuple):
        return [Const(x, e, loc) for x, e in zip(v.value, v.type.elems)]
    return [emit("extract", [v], e, k) for k, e in enumerate(v.type.elems)]


def emitter(cx, loc):
    """`parts`' `emit` for the lowering `cx`: in its current block."""
    return lambda op, args, rt, attr=None: cx.emit(op, args, rt, attr, loc)


def each(cx, v: Value, fn, node):
    """`fn(w)` of the value `w` union `v` holds: built once per alternative on a branch on
    its tag, the results met (None when `fn` only emits code)."""
    loc = cx.loc(node)
    tag, *values = parts(emitter(cx, loc), v, loc)
    if isinstance(tag, Const):
        return fn(values[tag.value])

    def from_(k: int):
        if k == len(values) - 1:
            return fn(values[k])
        same = cx.emit("cmp", [tag, Const(k, T.I64)], T.BOOL, "eq", loc)
        return cx.choose(same, lambda: fn(values[k]), lambda: from_(k + 1), node)
    return from_(0)
