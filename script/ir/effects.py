"""Whether a compiled call leaves a trace when it fails: `leaves_no_trace`.

A call leaves no trace when everything it changes is an object it made itself: it writes no
array, list, dict, set or instance it was given (or that something it was given holds),
prints nothing and draws no random number. Such a call that raises may be run again by
CPython with the same arguments, and CPython's answer is then the call's: the entry point
does that for an `OverflowError` (an int beyond int64, docs/integers.md), runtime.entry.

The analysis follows where each value that holds objects comes from, its *origins*: `FRESH`
(made during the call), a parameter's index (the object given, or one reachable from it), or
`OTHER` (the random generators' state, a block of shared memory: never the call's own). A
write is harmless only where every origin of its target is FRESH. An object read out of a
fresh container is fresh too, unless the function stores an object of another origin in a
container (a list of the caller's lists): then it is of origin OTHER. A call of another
function of the module is read through that function's summary (what it writes, stores and
returns, in terms of its parameters), computed for all the functions together to a fixpoint
from the optimistic summary down.
"""

from __future__ import annotations

from dataclasses import dataclass

from script.ir import types as T
from script.ir.core import Function

FRESH, OTHER = "fresh", "other"

# op -> the operands whose objects it writes (None: every operand that holds objects)
_WRITES = {"store": (0,), "list_set": (0,), "list_resize": (0,), "str_set": (0,), "atomic": (0,),
           "gemm": (0,), "lapack": None}
# ops whose effect is outside the call's objects: a text printed, a random seed or draw, a file read
_OUTSIDE = {"print", "barrier"}
_OUTSIDE_STR_PY = {"random_seed", "random_gauss", "read_text", "os_path"}   # (files: the state of the disk)
# ops whose result is memory that is not the call's own
_NOT_OWN = {"rng_state", "shared", "const_array"}


def holds_objects(t: T.Type) -> bool:
    """Whether a value of type `t` is or holds a mutable object (array, list, dict, set,
    instance): only such values can carry a write out of the call."""
    if isinstance(t, (T.ArrayType, T.ListType, T.HashType)):
        return True
    return isinstance(t, T.TupleType) and any(holds_objects(e) for e in t.elems)


@dataclass(frozen=True)
class Summary:
    """What a call of a function does to what it is given, by parameter index."""

    clean: bool = True                  # no effect outside its arguments' objects
    written: frozenset = frozenset()    # parameters whose objects it may write
    stored: frozenset = frozenset()     # parameters whose objects it may store in a container
    returns: frozenset = frozenset({FRESH})     # origins of its result (indices, FRESH, OTHER)


def leaves_no_trace(entry: Function, funcs: list[Function]) -> bool:
    """Whether a call of `entry` (`funcs`: it and every function it calls) changes nothing
    but objects it made (the module docstring)."""
    summaries = {id(f): Summary() for f in funcs}
    changed = True
    while changed:              # summaries only lose: a fixpoint within a few rounds
        changed = False
        for f in funcs:
            s = _summarize(f, summaries)
            if s != summaries[id(f)]:
                summaries[id(f)] = s
                changed = True
    s = summaries[id(entry)]
    return s.clean and not s.written


def _summarize(f: Function, summaries: dict) -> Summary:
    holds_fresh = True
    while True:
        origins = _origins(f, summaries, holds_fresh)
        s, still = _effects(f, summaries, origins)
        if still or not holds_fresh:
            return s
        holds_fresh = False


def _origins(f: Function, summaries: dict, holds_fresh: bool) -> dict:
    """id(value) -> frozenset of origins, for the values of `f` that hold objects."""
    out: dict[int, frozenset] = {}
    for k, p in enumerate(f.params):
        out[id(p)] = frozenset({k})
    fresh = frozenset({FRESH})

    def of(v) -> frozenset:
        return out.get(id(v), frozenset()) if holds_objects(v.type) else fresh

    changed = True
    while changed:
        changed = False
        for block in f.blocks:
            for i in block.instrs:
                if i.is_terminator:
                    for s, target in enumerate(i.succs):
                        for p, a in zip(target.params, i.succ_args(s)):
                            new = out.get(id(p), frozenset()) | of(a)
                            if new != out.get(id(p)):
                                out[id(p)] = new
                                changed = True
                    continue
                if not i.has_result or not holds_objects(i.type):
                    continue
                new = _result_origin(i, of, summaries, holds_fresh)
                old = out.get(id(i), frozenset())
                if new | old != old:
                    out[id(i)] = new | old
                    changed = True
    return out


def _result_origin(i, of, summaries: dict, holds_fresh: bool) -> frozenset:
    op = i.op
    name = op.name
    if name in _NOT_OWN:
        return frozenset({OTHER})
    if name == "call":
        s = summaries.get(id(i.attr))
        if s is None:
            return frozenset({OTHER})
        out = set()
        for r in s.returns:
            out |= {r} if r in (FRESH, OTHER) else of(i.operands[r])
        return frozenset(out)
    if name == "extract":           # a part of a tuple, dict or set: the same objects
        return of(i.operands[0])
    if name in ("list_get", "load"):
        base = of(i.operands[0])
        if FRESH in base and not holds_fresh:
            base = (base - {FRESH}) | {OTHER}
        return base
    if name == "select":
        return of(i.operands[1]) | of(i.operands[2])
    if op.view or name == "tuple":
        out = frozenset()
        for v in i.operands:
            if holds_objects(v.type):
                out |= of(v)
        return out or frozenset({FRESH})
    if op.fresh or op.removable or name == "list_null":
        return frozenset({FRESH})
    return frozenset({OTHER})


def _effects(f: Function, summaries: dict, origins: dict) -> tuple[Summary, bool]:
    """`f`'s summary, and whether no container made in the call holds an object of another
    origin (else origins must be recomputed with that known)."""
    clean = True
    written, stored = set(), set()
    holds_fresh = True
    returns = set()

    def of(v) -> frozenset:
        return origins.get(id(v), frozenset()) if holds_objects(v.type) else frozenset({FRESH})

    def write(v) -> None:
        nonlocal clean
        for o in of(v):
            if o == OTHER:
                clean = False
            elif o != FRESH:
                written.add(o)

    def store(value, into) -> None:
        nonlocal holds_fresh
        if not holds_objects(value.type):
            return
        o = of(value)
        stored.update(x for x in o if x not in (FRESH, OTHER))
        if o - {FRESH} and FRESH in of(into):
            holds_fresh = False

    for i in f.instructions():
        name = i.op.name
        if name in _OUTSIDE or name == "str_py" and i.attr in _OUTSIDE_STR_PY:
            clean = False
        elif name in _WRITES:
            which = _WRITES[name]
            for k, v in enumerate(i.operands):
                if (k in which) if which is not None else holds_objects(v.type):
                    write(v)
            if name == "list_set":
                store(i.operands[1], i.operands[0])
        elif name == "call":
            s = summaries.get(id(i.attr))
            if s is None:
                clean = False
                continue
            clean = clean and s.clean
            for k in s.written:
                write(i.operands[k])
            for k in s.stored:
                v = i.operands[k]
                if of(v) - {FRESH}:
                    stored.update(x for x in of(v) if x not in (FRESH, OTHER))
                    holds_fresh = False
        elif name == "ret" and i.operands:
            returns |= of(i.operands[0])
    summary = Summary(clean, frozenset(written), frozenset(stored), frozenset(returns or {FRESH}))
    return summary, holds_fresh
