"""Facts about a module that the backend's entry points need.

`written_array_params(func)`: the indices of the array (or tuple-of-array) parameters that
`func` may write through, directly or in a function it calls, following arrays through block
parameters, layout conversions, views and tuple elements. The entry point checks those arguments are writeable NumPy arrays before
the call, so a write to a read-only array is an error instead of a silent write.

`const_array_writes(func)`: the instructions that may write a frozen global array
(`const_array`), which the frontend rejects.

`calls_reach(start, target)`: whether `start` is `target` or calls it, through any chain of
calls (recursion: the CUDA path and script.grad refuse or keep such calls).

Arrays are not followed into lists: storing one in a list (`list_set`) counts as a write
of its memory.
"""

from __future__ import annotations

from script.ir import types as T
from script.ir.core import BlockParam, Function, Instr, Value


def _origins(v: Value, func: Function, seen: set) -> set:
    """What array value `v` may be the memory of: indices of `func`'s parameters, and
    `const_array` instructions."""
    if id(v) in seen:
        return set()
    seen.add(id(v))
    if isinstance(v, Instr) and v.opname == "const_array":
        return {v}
    if isinstance(v, BlockParam):
        if v.block is func.entry:
            return {func.params.index(v)}
        out: set[int] = set()
        for _, arg in v.block.incoming(v.index):
            out |= _origins(arg, func, seen)
        return out
    if isinstance(v, Instr) and v.opname in ("convert", "select"):
        out = set()
        for op in (v.operands if v.opname == "convert" else v.operands[1:]):
            out |= _origins(op, func, seen)
        return out
    if isinstance(v, Instr) and v.opname in ("view", "transpose", "reshape", "extract", "part"):
        return _origins(v.operands[0], func, seen)      # the same memory (an extract: a tuple's)
    return set()


def written_array_params(func: Function, _memo: dict | None = None) -> set[int]:
    memo = _memo if _memo is not None else {}
    if id(func) in memo:
        return memo[id(func)]
    memo[id(func)] = set()               # recursion: assume nothing until computed
    written = {r for _, r in _writes(func, memo) if isinstance(r, int)}
    memo[id(func)] = written
    return written


def const_array_writes(func: Function) -> list[Instr]:
    """The instructions of `func` that may write a `const_array` (directly, or in a callee
    that writes the argument): the frontend rejects them, constant memory is read-only."""
    return [i for i, r in _writes(func, {}) if isinstance(r, Instr)]


def _writes(func: Function, memo: dict):
    """(instruction, origin) for each write of `func` and each origin it may write."""
    for block in func.blocks:
        for i in block.instrs:
            if i.opname in ("store", "atomic"):
                yield from ((i, r) for r in _origins(i.operands[0], func, set()))
            elif i.opname == "list_set" and _holds_array(i.operands[1].type):
                # An array stored in a list is no longer followed: count it as written.
                yield from ((i, r) for r in _stored_origins(i.operands[1], func))
            elif i.opname == "call":
                for k in written_array_params(i.attr, memo):
                    arg = i.operands[k]
                    if isinstance(arg.type, (T.ArrayType, T.TupleType)):
                        yield from ((i, r) for r in _origins(arg, func, set()))


def _holds_array(t: T.Type) -> bool:
    if isinstance(t, T.TupleType):
        return any(_holds_array(e) for e in t.elems)
    return isinstance(t, T.ArrayType)


def _stored_origins(v: Value, func: Function) -> set:
    """The origins of the arrays value `v` holds (itself, or a tuple's elements)."""
    if isinstance(v, Instr) and v.opname == "tuple":
        out: set = set()
        for op in v.operands:
            if _holds_array(op.type):
                out |= _stored_origins(op, func)
        return out
    return _origins(v, func, set())


def calls_reach(start: Function, target: Function) -> bool:
    seen, work = set(), [start]
    while work:
        g = work.pop()
        if g is target:
            return True
        if id(g) not in seen:
            seen.add(id(g))
            work.extend(g.callees())
    return False
