"""masked: drops the overflow checks of int results whose high bits a mask removes.

Python code that wants 64-bit (or 32-bit) arithmetic masks: ``h = (h * P) & MASK64``,
``x % 2**32``, ``(a + b) & 0xFFFFFFFF``, FNV, xorshift, splitmix, PCG. Python computes the
product exactly and the mask keeps its low bits; int64's wrapping product has the same low
64 bits, because the low bits of ``+ - * << & | ^ ~`` and unary ``-`` depend only on the low
bits of their operands. So the `ovf` check of such a result (ops.py) can never make the
program's answer differ, and it goes: the value is exactly Python's, with no error.

Does: finds the *modular* int values — those whose every use keeps only their low 64 bits —
as a greatest fixpoint (start from every int value, remove one with another use, until
nothing changes), then folds each ``ovf.K ..., %r`` whose %r is modular to false (constfold
and dce then remove the `check`). A use keeps only the low bits when it is:

- ``and`` with a constant >= 0 or an unsigned operand (the mask itself: its result is
  exact whatever the rest of the program does with it);
- ``mod`` by a constant power of two (``x % 2**k`` is ``x & (2**k - 1)``);
- ``convert`` to an int type (``x % 2**64`` is the conversion to u64; narrower ints wrap);
- ``add sub mul xor or and select``, ``shl`` (the shifted operand), ``neg invert``, or a
  branch argument, whose result (or block parameter) is itself modular. That carries
  masking through loops: ``h = h * 31 + c`` in the loop and ``return h & M`` after it;
- the `ovf` test of its own op, which is what is being decided.

A use by anything else (a comparison, ``>>``, ``//``, a call, a return, an index) needs the
high bits, so the value is not modular and its check stays. Sound with any IR, whatever
ran before: the fact is about the uses the function has now.

Assumes: verified IR. Preserves: behaviour where no check fails; removes only checks whose
failure would not change Python's value. Stats: ``dropped`` checks.

Runs at every level, -O0 included: without it a masked hash would raise at -O0.
"""

from __future__ import annotations

from collections import Counter

from script.ir import types as T
from script.ir.core import BlockParam, Const, Function, Instr, Value, replace_all_uses_with

# Ops whose result's low bits depend only on their operands' low bits.
_RING = frozenset(("add", "sub", "mul", "xor", "or", "and", "neg", "invert"))


def run(func: Function, stats: Counter | None = None) -> bool:
    checks = [i for i in func.instructions() if i.opname == "ovf"]
    if not checks:
        return False
    modular = modular_values(func)
    dropped = 0
    for i in checks:
        if id(i.operands[-1]) in modular:
            replace_all_uses_with(i, Const(False, T.BOOL))
            i.erase()
            dropped += 1
    if stats is not None:
        stats["dropped"] += dropped
    return dropped > 0


def modular_values(func: Function) -> set[int]:
    """The ids of the int values (instructions and block parameters) of `func` whose every
    use keeps only their low 64 bits (module docstring)."""
    values = [v for b in func.blocks for v in (*b.params, *b.instrs)
              if isinstance(v.type, T.IntType)]
    modular = {id(v) for v in values}
    changed = True
    while changed:
        changed = False
        for v in values:
            if id(v) in modular and not all(_keeps_low_bits(v, u, modular) for u in v.uses):
                modular.discard(id(v))
                changed = True
    return modular


def _keeps_low_bits(v: Value, u: Instr, modular: set[int]) -> bool:
    name = u.opname
    if name == "ovf":
        return True
    if name == "and" and any(_is_mask(w) for w in u.operands if w is not v):
        return True
    if name == "mod" and u.operands[0] is v and _is_power_of_two(u.operands[1]):
        return True
    if name == "convert":
        return isinstance(u.type, T.IntType)
    if name == "shl":
        return u.operands[0] is v and u.operands[1] is not v and id(u) in modular
    if name in _RING:
        return id(u) in modular
    if name == "select":
        return u.operands[0] is not v and id(u) in modular
    if name in ("br", "cbr"):
        return not (name == "cbr" and u.operands[0] is v) and \
            all(id(p) in modular for p in _params_receiving(v, u))
    return False


def _is_mask(w: Value) -> bool:
    if isinstance(w, Const):
        return isinstance(w.type, T.IntType) and w.value >= 0
    return isinstance(w.type, T.IntType) and not w.type.signed


def _is_power_of_two(w: Value) -> bool:
    return isinstance(w, Const) and isinstance(w.type, T.IntType) and w.value > 0 \
        and w.value & (w.value - 1) == 0


def _params_receiving(v: Value, term: Instr) -> list[BlockParam]:
    """The block parameters that terminator `term` passes `v` to."""
    params = []
    for k, succ in enumerate(term.succs):
        for j, arg in enumerate(term.succ_args(k)):
            if arg is v:
                params.append(succ.params[j])
    return params
