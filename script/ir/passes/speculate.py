"""speculate: moves an arm of an ``if`` that only computes and checks into the branch above.

``x = x // 2 if x % 2 == 0 else 3 * x + 1`` has overflow checks on its odd arm: the arm is a
block of its own with a second exit, so LLVM keeps the unpredictable parity branch, where
without the checks it computed both arms and picked one with a ``cmov`` (collatz ran 1.7x
its unchecked time). Computing the arm's values before the branch is safe when they are
speculatable (`semantics.is_speculatable`: pure, defined for any operands), and its checks
keep their meaning guarded by the branch's condition: ``check (and %taken, %cond)``.

Does: for a ``cbr %c, A, B`` (either arm) where A has that block as its only predecessor,
ends in ``br``, and holds only speculatable instructions of scalar results and `check`s (at most
`_MAX_INSTRS`), moves A's instructions to before the ``cbr``, each check becoming a check
of ``%c and`` (``not %c`` for the false arm) its condition, with its message operands. A is
then a lone ``br``, which simplify_cfg and LLVM turn into a select.

Why the order of effects is kept: A's instructions have no effects, its checks raise in the
same cases (the arm would have run), and nothing else runs between the ``cbr`` and A.

Assumes: verified IR. Preserves: behaviour. Stats: ``arms`` moved, ``checks`` guarded.
"""

from __future__ import annotations

from collections import Counter

from script.ir import types as T
from script.ir.core import Const, Function, Instr
from script.ir.semantics import is_speculatable

_MAX_INSTRS = 16        # a longer arm is computed on both paths at a real cost


def run(func: Function, stats: Counter | None = None) -> bool:
    moved = Counter()
    for block in list(func.blocks):
        term = block.terminator
        if term is None or term.opname != "cbr" or term.succs[0] is term.succs[1]:
            continue
        for k, arm in enumerate(term.succs):
            if _movable(arm, block):
                moved["checks"] += _move(arm, block, term, taken=(k == 0))
                moved["arms"] += 1
    if stats is not None:
        stats.update(moved)
    return moved["arms"] > 0


def _movable(arm, pred) -> bool:
    if arm.preds != [pred] or arm.params or arm is pred:
        return False
    body = arm.instrs[:-1]
    if not body or len(body) > _MAX_INSTRS or arm.terminator.opname != "br":
        return False
    if not any(i.opname == "check" and not isinstance(i.operands[0], Const) for i in body):
        return False                    # nothing to gain: LLVM speculates plain arms itself
    return all(i.opname == "check" or is_speculatable(i) and _is_scalar(i.type) for i in body)


def _is_scalar(t: T.Type) -> bool:
    """Numbers and bools only: computing an object (a str, a tuple of them) on a path that
    did not make it would only cost its allocation and its reference counting."""
    return isinstance(t, (T.IntType, T.FloatType, T.BoolType))


def _move(arm, pred, term: Instr, taken: bool) -> int:
    cond = term.operands[0]
    if not taken:
        cond = Instr("not", [cond], T.BOOL, None, term.loc)
        pred.insert_before_terminator(cond)
    checks = 0
    for i in list(arm.instrs[:-1]):
        arm.instrs.remove(i)
        if i.opname == "check":
            guard = Instr("and", [cond, i.operands[0]], T.BOOL, None, i.loc)
            pred.insert_before_terminator(guard)
            i.set_operand(0, guard)
            checks += 1
        i.block = None
        pred.insert_before_terminator(i)
    return checks
