"""defer: a counted loop's float checks raised at its exit, so that the loop has one exit.

Does: for each loop of two blocks, a header ending in ``cbr (cmp.lt %i, %n), body, exit``
(``%i`` a header parameter, ``%n`` defined outside the loop, the body stepping ``%i`` by one
and branching back: ``for i in range(...)``) whose body's `check`s all raise one exception
with one message (no message operands) on a condition that is a `cmp` of two floats (the
``ZeroDivisionError`` of ``1.0 / x``, math domain errors), it replaces each such check by
``%f' = or %f, %cond``, carries ``%f`` in a new header parameter (false on entry), and
tests it once, ``check %f``, at the top of the exit block (or, where other blocks branch
there too, in a block of its own on the loop's exit edge). A loop with a second exit (the
check's) is one LLVM's vectorizer leaves alone; the flag is an or-reduction it vectorizes
(benchmarks/README.md, section 10: the spectral norm's `1.0 / (...)` in a helper).

Why the answer is the same: the loop stores nothing, calls nothing, and every other
instruction of it is a `load` or speculatable (`semantics.is_speculatable`: defined for any
operand value), so running the iterations after a failed check has no effect anybody
sees, and their trip count depends on ``%i`` and ``%n`` alone, so they end. At the exit the
same exception is raised with the same message as at the first failing check; the values
computed meanwhile (an infinity from the division) are dropped with the frame. The
conditions are float compares, so no int value (an index) is known to be in a range
because a deferred check passed: the loop's loads read where they did before.

Assumes: verified IR; runs after the passes that remove checks (bce, versioning), so that
a loop's last checks are the ones looked at. Preserves: behaviour; the loop's blocks. Stats:
``loops`` changed, ``checks`` deferred.
"""

from __future__ import annotations

from collections import Counter

from script.ir import types as T
from script.ir.core import Block, BlockParam, Const, Function, Instr, set_terminator
from script.ir.dom import DomTree, Loop, find_loops
from script.ir.passes._cfg import retarget
from script.ir.semantics import is_speculatable

_ALLOWED_EFFECTS = ("load", "check")


def _counted_two_blocks(loop: Loop) -> tuple[Block, Block, Block] | None:
    """(header, body, exit) of a loop of the shape in the module docstring, else None."""
    header = loop.header
    if len(loop.blocks) != 2 or len(loop.latches) != 1:
        return None
    term = header.terminator
    if term is None or term.opname != "cbr":
        return None
    body, exit_ = term.succs
    if body is not loop.latches[0] or body is header or exit_ in loop.blocks:
        return None
    if body.preds != [header] or body.succs != [header]:
        return None
    cond = term.operands[0]
    if not (isinstance(cond, Instr) and cond.opname == "cmp" and cond.attr == "lt"
            and cond.block is header):
        return None
    i, n = cond.operands
    if not (isinstance(i, BlockParam) and i.block is header and i.type == T.I64):
        return None
    if not (isinstance(n, Const) or n.block not in loop.blocks):
        return None
    step = body.terminator.succ_args(0)[header.params.index(i)]
    if not (isinstance(step, Instr) and step.opname == "add" and step.operands[0] is i
            and isinstance(step.operands[1], Const) and step.operands[1].value == 1):
        return None
    return header, body, exit_


def _float_compare(v) -> bool:
    return (isinstance(v, Instr) and v.opname == "cmp"
            and isinstance(v.operands[0].type, T.FloatType))


def _deferrable(header: Block, body: Block) -> list[Instr] | None:
    """The body's checks when the loop qualifies (some, all alike, on float compares), else
    None."""
    checks = []
    for block in (header, body):
        for instr in block.instrs:
            if instr.is_terminator:
                continue
            if instr.opname == "check" and block is body:
                checks.append(instr)
            elif instr.opname not in _ALLOWED_EFFECTS and not is_speculatable(instr):
                return None
            elif instr.opname == "check":
                return None
    if not checks:
        return None
    exc = checks[0].attr
    if any(c.attr != exc or len(c.operands) != 1 or not _float_compare(c.operands[0])
           for c in checks):
        return None
    return checks


def _defer(header: Block, body: Block, exit_: Block, checks: list[Instr]) -> None:
    flag = header.add_param(T.BOOL, checks[0].loc)
    for pred in list(dict.fromkeys(header.preds)):
        term = pred.terminator
        for k, s in enumerate(term.succs):
            if s is header:
                term.add_succ_arg(k, Const(False, T.BOOL) if pred is not body else flag)
    latch_term = body.terminator
    carried = flag
    for check in checks:
        cond = check.operands[0]
        merged = Instr("or", [carried, cond], T.BOOL, loc=check.loc)
        body.insert(body.instrs.index(check), merged)
        check.erase()
        carried = merged
    k = latch_term.succs.index(header)
    latch_term.set_succ_arg(k, len(header.params) - 1, carried)
    test = Instr("check", [flag], T.NONE, attr=checks[0].attr, loc=checks[0].loc)
    if exit_.preds == [header]:
        exit_.insert(0, test)
        return
    # The exit is shared (the join after versioning's two copies of a loop): the test goes
    # on the edge from this loop, in a block of its own.
    args = list(header.terminator.succ_args(1))
    edge = header.func.add_block("deferred")
    retarget(header, 1, edge, [])
    edge.append(test)
    set_terminator(edge, "br", args, [exit_], [len(args)], loc=test.loc)


def run(func: Function, stats: Counter | None = None) -> bool:
    stats = stats if stats is not None else Counter()
    changed = False
    for loop in find_loops(func, DomTree(func)):
        shape = _counted_two_blocks(loop)
        if shape is None:
            continue
        header, body, exit_ = shape
        checks = _deferrable(header, body)
        if checks is None:
            continue
        _defer(header, body, exit_, checks)
        stats["loops"] += 1
        stats["checks"] += len(checks)
        changed = True
    return changed
