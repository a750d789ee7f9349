"""Functions whose returns have types CPython keeps apart: a union result for Python.

Real code returns a str on one path and a list on another (a sort given a str returns it
when it is short, a list of its characters otherwise), a bool or a str (``return False``
beside a merged text), a number or a tuple. No compiled value is either, but the caller
from Python needs none: it receives an object. So a function without a return annotation
whose `return`s meet in no compiled type returns a `T.UnionType`: the first `return` that
has no alternative of its type asks for one (a hint, then `Restart`), and each `return`
then wraps its value with its alternative's tag (`into_union`); the entry point boxes the
tagged alternative (backend/runtime/boxing.py).

A call from compiled code of a function returning one receives the union, which is taken
apart where it is read, as any union value (union_values.py). None beside
a value stays an optional (`opt[T]`); arrays, exceptions and iterators are no alternatives
(their returns stay the CompileError they were).
"""

from __future__ import annotations

from script.frontend.list_args import changes_python_type
from script.ir import types as T
from script.ir.core import Const, Value
from script.frontend import int_consts, optional, union_values


def widen(cx, want: T.Type, got: T.Type) -> None:
    """At a `return` of a `got` where the function returns `want` and the two meet in no
    compiled type: make the result a union of both (a hint, then Restart) when both can be
    alternatives and the result is not annotated; else return, and the caller's CompileError
    stands."""
    alts = list(dict.fromkeys(a for t in (want, got) for a in (t.alternatives if isinstance(t, T.UnionType) else (t,))))
    if cx.ret_annotated or not all(T.is_union_alternative(a) for a in alts):
        return
    _restart_with(cx, T.UnionType(alts))


def into_union(cx, value: Value, want: T.UnionType, node) -> Value:
    """`value` as the union `want`: tagged with the alternative of its type (one that holds
    it as the same Python class), or the union widened to hold it (Restart)."""
    if isinstance(value.type, T.UnionType):      # each alternative it holds, tagged as `want`'s
        if value.type == want:
            return value
        return union_values.each(cx, value, lambda w: into_union(cx, w, want, node), node)
    alts = list(want.alternatives)
    k = next((k for k, alt in enumerate(alts) if alt == value.type), None)
    if k is None:
        for j, alt in enumerate(alts):
            met = T.merge(alt, value.type) or T.returns_meet(alt, value.type)
            if met is None or T.bool_and_number(alt, value.type) or changes_python_type(value.type, met):
                continue
            if met == alt:
                k = j
                break
            if T.is_union_alternative(met):           # an int alternative meeting a float: an int|float
                alts[j] = met
                _restart_with(cx, T.UnionType(alts))
        if k is None:
            if not T.is_union_alternative(value.type):
                cx.error(f"function '{cx.info.name}' returns {', '.join(map(str, alts))} and "
                         f"{value.type} on different paths; compiled code has no value that is "
                         f"{value.type} or another of them", node)
            _restart_with(cx, T.UnionType(alts + [value.type]))
    loc = cx.loc(node)
    parts = [Const(k, T.I64, loc)]
    for j, alt in enumerate(alts):
        if j == k and alt == T.U64:
            int_consts.check_int_as_u64(cx, value, node)
        parts.append(cx.coerce(value, alt, node) if j == k else optional.placeholder(cx, alt, loc))
    return cx.emit("tuple", parts, want, None, loc)


def _restart_with(cx, ret: T.UnionType) -> None:
    from script.frontend.ssa_builder import Restart
    cx.hints[("ret", None)] = ret
    cx.hints_changed = True
    raise Restart()
