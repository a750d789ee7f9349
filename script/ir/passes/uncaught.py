"""uncaught: exceptions a ``try`` made that no handler catches become `raise` and `check` again.

Inside a ``try`` the frontend turns each `check` into a branch to a block that makes the
exception (`exception`) and jumps to the handler (script.frontend.exceptions). Once
constfold has matched it against the clauses (``exc_match`` of a known class) and
simplify_cfg has threaded the jumps, an exception no clause catches ends in ``reraise``:

    bb1:                                       bb1:
      %3 = cmp.ge %i, %n : bool                  %3 = cmp.ge %i, %n : bool
      cbr %3, bb2, bb3                  ->       check %3, IndexError "...", %i
    bb2:                                         br bb3
      %4 = exception IndexError "...", %i : exc
      reraise %4

Does: a ``reraise`` of an `exception` (directly, or by a jump to a block holding only
``reraise`` of its parameter) becomes ``raise`` with the exception's class, message and
operands; when that block holds nothing else and its only predecessor branches to it on
one side of a ``cbr``, the branch becomes a ``check`` of the condition (negated for the
false side) and a ``br`` to the other side. So bounds checks in a ``try`` body are checks
again, which bce can prove and versioning can hoist as outside a ``try``.

Assumes: verified IR. Preserves: behaviour (the same exception, raised at the same point);
the blocks left unreachable are deleted. Stats: ``raise``, ``check``.
"""

from __future__ import annotations

from collections import Counter

from script.ir import types as T
from script.ir.core import BlockParam, Function, Instr, set_terminator
from script.ir.passes._cfg import remove_unreachable_blocks, take_edge


def run(func: Function, stats: Counter | None = None) -> bool:
    stats = stats if stats is not None else Counter()
    if not any(i.opname == "reraise" for b in func.blocks for i in b.instrs[-1:]):
        return False
    changed = False
    for b in list(func.blocks):
        term = b.instrs[-1]
        exc = _raised_exception(term)
        if exc is None:
            continue
        changed = True
        if _to_check(b, exc):
            stats["check"] += 1
            continue
        set_terminator(b, "raise", list(exc.operands), attr=exc.attr, loc=term.loc)
        stats["raise"] += 1
    if changed:
        remove_unreachable_blocks(func)
    return changed


def _raised_exception(term: Instr) -> Instr | None:
    """The `exception` instruction `term` sends out of the function, or None: ``reraise %e``,
    or ``br bbN(..., %e, ...)`` to a block holding only ``reraise`` of that parameter."""
    if term.opname == "reraise":
        v = term.operands[0]
    elif term.opname == "br":
        target = term.succs[0]
        only = target.instrs[0]
        if len(target.instrs) != 1 or only.opname != "reraise":
            return None
        p = only.operands[0]
        if not isinstance(p, BlockParam) or p.block is not target:
            return None
        v = term.succ_args(0)[p.index]
    else:
        return None
    return v if isinstance(v, Instr) and v.opname == "exception" else None


def _to_check(b, exc: Instr) -> bool:
    """Turn the branch into `b` into a `check` when `b` only raises `exc`; False when it
    does more or is not one side of its only predecessor's `cbr`. The exception's operands
    are defined outside `b` (it holds nothing else), so they dominate the predecessor's end."""
    if not all(i is exc or i is b.instrs[-1] for i in b.instrs):
        return False
    if exc.block is b and any(u.block is not b for u in exc.uses):
        return False
    if len(b.preds) != 1:
        return False
    pred = b.preds[0]
    branch = pred.instrs[-1]
    if branch.opname != "cbr" or (branch.succs[0] is b) == (branch.succs[1] is b):
        return False
    side = 0 if branch.succs[0] is b else 1
    cond = branch.operands[0]
    if side == 1:
        cond = pred.insert_before_terminator(Instr("not", [cond], T.BOOL, None, branch.loc))
    pred.insert_before_terminator(Instr("check", [cond, *exc.operands], T.NONE, exc.attr, exc.loc))
    take_edge(pred, 1 - side)
    return True
