"""bce: bounds-check elimination from the ranges of counted loops.

Does: finds loop induction variables of the shape the frontend gives a `for` over a range
with step 1 — a header parameter ``%i`` whose entry arguments are constants >= 0 and whose
back-edge arguments are ``add %i, 1``, tested by the header's ``cbr (cmp.lt %i, %n)`` — and,
in the blocks the loop body dominates (where ``0 <= %i < %n`` holds), rewrites
``cmp.lt %i, 0`` to false, ``cmp.ge %i, %n`` to false and ``cmp.lt %i, %n`` to true, and
``select (cmp.lt %i, 0), _, %i`` to ``%i``. The index checks of ``a[i]`` for
``for i in range(len(a))`` then fold away (constfold, dce), since CSE has made the loop bound
and the check's ``dim.0 %a`` one value.

Why the induction is sound: ``%i`` starts >= 0, and in the body ``%i < %n <= INT_MAX``, so
``%i + 1`` cannot wrap: every value of ``%i`` in the body lies in ``[0, %n)``.

Assumes: verified IR. Preserves: behaviour (only comparisons whose value is known change).
Stats: ``rewritten`` comparisons and selects.
"""

from __future__ import annotations

from collections import Counter

from script.ir import types as T
from script.ir.core import BlockParam, Const, Function, Instr, replace_all_uses_with
from script.ir.dom import DomTree


def _induction(header, cond, body, dom) -> tuple[BlockParam, object] | None:
    """(%i, %n) when `cond` is ``cmp.lt %i, %n`` on a step-1 induction variable of `header`
    whose increments are all computed inside the body (where ``%i < %n``)."""
    if not (isinstance(cond, Instr) and cond.opname == "cmp" and cond.attr == "lt"):
        return None
    i, n = cond.operands
    if not (isinstance(i, BlockParam) and i.block is header and isinstance(i.type, T.IntType)
            and i.type.signed):
        return None
    k = header.params.index(i)
    for pred in set(header.preds):
        term = pred.terminator
        for s_i, s in enumerate(term.succs):
            if s is not header:
                continue
            arg = term.succ_args(s_i)[k]
            if isinstance(arg, Const):
                if arg.value < 0:
                    return None
            elif not (isinstance(arg, Instr) and arg.opname == "add" and arg.operands[0] is i
                      and isinstance(arg.operands[1], Const) and arg.operands[1].value == 1
                      and dom.dominates(body, arg.block)):
                return None
    return i, n


def _known(instr: Instr, i, n):
    """The constant `instr` has where 0 <= i < n, or None."""
    if instr.opname == "cmp" and instr.operands[0] is i:
        other = instr.operands[1]
        if isinstance(other, Const) and other.value == 0 and instr.attr == "lt":
            return Const(False, T.BOOL)
        if isinstance(other, Const) and other.value == 0 and instr.attr == "ge":
            return Const(True, T.BOOL)
        if other is n and instr.attr in ("ge", "lt"):
            return Const(instr.attr == "lt", T.BOOL)
    if instr.opname == "select" and instr.operands[2] is i:
        c = instr.operands[0]
        if isinstance(c, Instr) and c.opname == "cmp" and c.attr == "lt" and c.operands[0] is i \
                and isinstance(c.operands[1], Const) and c.operands[1].value == 0:
            return i
    return None


def run(func: Function, stats: Counter | None = None) -> bool:
    stats = stats if stats is not None else Counter()
    dom = None
    changed = False
    for header in list(func.blocks):
        term = header.terminator
        if term is None or term.opname != "cbr":
            continue
        body = term.succs[0]
        if body is header or body.preds != [header] or term.succs[1] is body:
            continue
        dom = dom or DomTree(func)
        found = _induction(header, term.operands[0], body, dom)
        if found is None:
            continue
        i, n = found
        for block in func.blocks:
            if not dom.dominates(body, block):
                continue
            for instr in list(block.instrs):
                value = _known(instr, i, n)
                if value is None or value is instr:
                    continue
                replace_all_uses_with(instr, value)
                stats["rewritten"] += 1
                changed = True
    return changed
