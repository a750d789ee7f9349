"""deferred: moves the overflow checks of a loop's sums to the loop's exit.

A check in a loop is a second exit: LLVM then neither vectorizes nor unrolls it (an int sum
over an array ran scalar with its `ovf.add` check), and the interrupt polls of
script.ir.interrupts cannot strip-mine it. In a loop where nothing the program can observe
happens between an overflow and the loop's end, raising at the end is the same as raising
at once: CPython's OverflowError-free run and ours differ only in the error, which is still
raised, before anything reads the wrapped value.

Does: for an innermost loop whose only exit is its header's `cbr` (to a block with no
other predecessor), whose only back edge comes from one latch, and which has no side effect
(no store, call, print or other write; loads are fine) and no `check` but those deferred,
each ``check (ovf.K ...)`` in a block dominating the latch becomes a sticky overflow word:
a new i64 header parameter, 0 on entry, or-ed on the back edge with ``(%a ^ %r) & (%b ^
%r)`` for ``ovf.add %a, %b, %r`` (``(%a ^ %b) & (%a ^ %r)`` for `sub`: plain int ops, which
vectorize), or with -1 where another K's test is true; its sign bit is the overflow, and
the exit block begins with ``check (cmp.lt %word, 0)`` and the same message. Only when no value derived from a deferred
sum inside the loop reaches anything but more sums, the loop's own parameters and code
after the loop: a wrapped value never decides a branch, an index or the trip count, so the
loop ends as CPython's would (with the same iterations) and the check raises before any
later use. Pure ops never trap here (ops.py: no poison, no undefined behaviour), so a
wrapped value computed on is harmless until something outside the loop reads it.

Assumes: verified IR. Preserves: behaviour, with each deferred OverflowError raised at the
loop's exit instead of in the iteration that overflowed (nothing observable happens in
between). Stats: ``deferred`` checks.
"""

from __future__ import annotations

from collections import Counter

from script.ir import types as T
from script.ir.core import BlockParam, Const, Function, Instr, Value
from script.ir.dom import DomTree, Loop, find_loops



def run(func: Function, stats: Counter | None = None) -> bool:
    if not any(i.opname == "ovf" for i in func.instructions()):
        return False
    dom = DomTree(func)
    loops = find_loops(func, dom)
    deferred = 0
    for loop in loops:
        if any(other is not loop and other.header in loop.blocks for other in loops):
            continue                    # innermost loops only
        deferred += _defer(loop, dom)
    if stats is not None:
        stats["deferred"] += deferred
    return deferred > 0


def _defer(loop: Loop, dom: DomTree) -> int:
    exit_block = _single_exit(loop)
    if exit_block is None or len(loop.latches) != 1:
        return 0
    latch = loop.latches[0]
    checks = []
    for b in loop.blocks:
        for i in b.instrs:
            if i.opname == "check" and _never_fails(i):
                continue                # folded by ranges; constfold removes it later
            if i.opname == "check":
                if not _is_sum_check(i) or not dom.dominates(b, latch):
                    return 0
                checks.append(i)
            elif not (i.op.pure or i.op.reads or i.is_terminator):     # reads may run there too
                return 0
    if not checks or not _stays_inside(loop, [c.operands[0].operands[-1] for c in checks]):
        return 0
    checks.sort(key=lambda c: (dom.index[c.block], c.block.instrs.index(c)))
    header = loop.header
    at = 0
    for c in checks:
        ovf = c.operands[0]
        word = BlockParam(T.I64, header)
        header.params.append(word)
        for pred in set(header.preds):
            term = pred.terminator
            for k, s in enumerate(term.succs):
                if s is header:
                    term.add_succ_arg(k, word if pred is latch else Const(0, T.I64))
        _word_update(latch, word, ovf)
        bad = Instr("cmp", [word, Const(0, T.I64)], T.BOOL, "lt", c.loc)
        exit_block.insert(at, bad)
        exit_block.insert(at + 1, Instr("check", [bad], T.NONE, c.attr, c.loc))
        at += 2
        c.erase()
        if not ovf.uses:
            ovf.erase()
    return len(checks)


def _word_update(latch, word: BlockParam, ovf: Instr) -> None:
    """``word | overflow bits of ovf`` passed on the back edge in place of `word`."""
    if ovf.attr in ("add", "sub"):
        a, b, r = ovf.operands
        pair = [Instr("xor", [a, r], T.I64), Instr("xor", [b, r], T.I64)] if ovf.attr == "add" \
            else [Instr("xor", [a, b], T.I64), Instr("xor", [a, r], T.I64)]
        made = [*pair, Instr("and", pair, T.I64)]
    else:                               # the test's bool as all ones or zero
        made = [Instr("select", [ovf, Const(-1, T.I64), Const(0, T.I64)], T.I64)]
    new = Instr("or", [word, made[-1]], T.I64)
    for i in (*made, new):
        latch.insert_before_terminator(i)
    term = latch.terminator
    for k, s in enumerate(term.succs):
        if s is word.block:
            term.set_succ_arg(k, s.params.index(word), new)


def _single_exit(loop: Loop):
    """The block the loop leaves to, when only its header's `cbr` leaves it and that block
    has no other predecessor; else None."""
    header = loop.header
    outside = [(b, s) for b in loop.blocks for s in b.succs if s not in loop.blocks]
    if len(outside) != 1 or outside[0][0] is not header:
        return None
    term = header.terminator
    target = outside[0][1]
    if term.opname != "cbr" or target.preds != [header]:
        return None
    return target


def _never_fails(c: Instr) -> bool:
    return isinstance(c.operands[0], Const) and not c.operands[0].value


def _is_sum_check(c: Instr) -> bool:
    cond = c.operands[0]
    return len(c.operands) == 1 and isinstance(cond, Instr) and cond.opname == "ovf" \
        and cond.block is c.block and all(u is c for u in cond.uses)


def _stays_inside(loop: Loop, sums: list[Value]) -> bool:
    """Whether every value derived in the loop from `sums` (through pure ops and the loop's
    block parameters) reaches only more such values, `ovf` tests and code after the loop:
    never a branch's condition, a read's index or anything with an effect. (`ranges` may
    have taken a checked result as exact, dropping a test of it; a wrapped one then only
    flows into values that the exit's check keeps anyone from seeing.)"""
    seen = set()
    work = list(sums)
    while work:
        v = work.pop()
        if id(v) in seen:
            continue
        seen.add(id(v))
        for u in v.uses:
            if u.block not in loop.blocks or u.opname == "ovf":
                continue
            if u.op.pure and not u.is_terminator:
                work.append(u)
            elif u.opname == "br" or u.opname == "cbr" and u.operands[0] is not v:
                for k, s in enumerate(u.succs):
                    for j, arg in enumerate(u.succ_args(k)):
                        if arg is v and s in loop.blocks:
                            work.append(s.params[j])     # (the exit block checks first)
            else:
                return False
    return True
