"""defer: a side-effect-free loop's checks raised at its exit, so that the loop has one exit.

A check in a loop is a second exit: LLVM then neither vectorizes nor unrolls the loop (an int
sum over an array ran scalar with its `ovf.add` check; the spectral norm's ``1.0 / (...)``
kept its ZeroDivisionError test: benchmarks/README.md, section 10), and the interrupt polls
of script.ir.interrupts cannot strip-mine it. Where nothing anybody can observe happens
between the failing check and the loop's end, raising at the end is the same as raising at
once. Two kinds of loops qualify; in both the checks become a value carried in a new header
parameter (set on entry, updated on the back edge) and tested at the top of the loop's exit
(or, where other blocks branch there too, in a block of its own on the exit edge), with the
same exception and message:

- **Sums.** An innermost loop left only by its header's `cbr`, with one latch, no side
  effect (no store, call, print or other write; loads are fine) and no check but
  ``check (ovf.K ...)`` in blocks dominating the latch: each becomes a sticky overflow word
  (an i64, 0 on entry), or-ed on the back edge with ``(%a ^ %r) & (%b ^ %r)`` for
  ``ovf.add %a, %b, %r`` (``(%a ^ %b) & (%a ^ %r)`` for `sub`: plain int ops, which
  vectorize), or with -1 where another K's test is true; its sign bit is the overflow, and
  the exit checks ``cmp.lt %word, 0`` in program order. Only when no value derived from a
  deferred sum inside the loop reaches anything but more sums, the loop's own parameters
  and code after the loop (`_stays_inside`): a wrapped value never decides a branch, an
  index or the trip count, so the loop ends as CPython's would (with the same iterations)
  and the check raises before any later use. Pure ops never trap (ops.py: no poison, no
  undefined behaviour), so a wrapped value is harmless until something outside reads it.
- **Float checks of a counted loop.** A loop of two blocks, a header ending in
  ``cbr (cmp.lt %i, %n), body, exit`` (``%i`` a header parameter stepped by one in the
  body, ``%n`` defined outside: ``for i in range(...)``), whose body's checks all raise one
  exception with one message (no message operands) on a `cmp` of two floats (the
  ZeroDivisionError of ``1.0 / x``, math domain errors), and whose every other instruction
  is a `load` or speculatable (`semantics.is_speculatable`): the checks become one flag,
  ``%f' = or %f, %cond`` (false on entry). The iterations after a failed check have no
  effect and their trip count depends on ``%i`` and ``%n`` alone, so they end; the values
  they compute (an infinity) are dropped with the frame. No int value is known to be in a
  range because a float check passed, so the loop's loads read where they did before.

Assumes: verified IR; runs after the passes that remove checks (bce, versioning, ranges), so
that a loop's last checks are the ones looked at. Preserves: behaviour, each deferred error
raised at the loop's exit instead of in the iteration that failed (nothing observable
happens in between). Stats: ``sums`` (overflow checks), ``loops`` and ``checks`` (float).
"""

from __future__ import annotations

from collections import Counter

from script.ir import types as T
from script.ir.core import Block, BlockParam, Const, Function, Instr, Value, set_terminator
from script.ir.dom import DomTree, Loop, find_loops
from script.ir.passes._cfg import retarget
from script.ir.semantics import is_speculatable


def run(func: Function, stats: Counter | None = None) -> bool:
    stats = stats if stats is not None else Counter()
    if not any(i.opname == "check" for i in func.instructions()):
        return False
    dom = DomTree(func)
    loops = find_loops(func, dom)
    changed = False
    for loop in loops:
        if any(other is not loop and other.header in loop.blocks for other in loops):
            continue                    # innermost loops only
        sums = _sum_checks(loop, dom)
        if sums:
            _defer_sums(loop, sums)
            stats["sums"] += len(sums)
            changed = True
            continue
        shape = _counted_two_blocks(loop)
        checks = _float_checks(shape[0], shape[1]) if shape is not None else None
        if checks:
            _defer_float_checks(*shape, checks)
            stats["loops"] += 1
            stats["checks"] += len(checks)
            changed = True
    return changed

# ---- what the two kinds share --------------------------------------------------------------


def _carried(header: Block, latch: Block, t: T.Type, start: Const, loc) -> BlockParam:
    """A new parameter of `header`: `start` from outside the loop, itself from `latch`
    (the caller passes the updated value there: `_pass_back`)."""
    p = header.add_param(t, loc)
    for pred in list(dict.fromkeys(header.preds)):
        term = pred.terminator
        for k, s in enumerate(term.succs):
            if s is header:
                term.add_succ_arg(k, p if pred is latch else start)
    return p


def _pass_back(latch: Block, p: BlockParam, v: Value) -> None:
    """`v` in place of `p` on `latch`'s edge back to `p`'s header."""
    term = latch.terminator
    for k, s in enumerate(term.succs):
        if s is p.block:
            term.set_succ_arg(k, s.params.index(p), v)


def _exit_for_checks(header: Block, exit_: Block, loc) -> Block:
    """The block the deferred checks go at the top of: the exit, or where other blocks
    branch there too (the join after versioning's two copies of a loop), a block of its own
    on the edge from `header`."""
    if exit_.preds == [header]:
        return exit_
    term = header.terminator
    k = term.succs.index(exit_)
    args = list(term.succ_args(k))
    edge = header.func.add_block("deferred")
    retarget(header, k, edge, [])
    set_terminator(edge, "br", args, [exit_], [len(args)], loc=loc)
    return edge

# ---- sums ----------------------------------------------------------------------------------


def _sum_checks(loop: Loop, dom: DomTree) -> list[Instr]:
    """The loop's overflow checks, in program order, when the loop qualifies; else []."""
    if _only_exit(loop) is None or len(loop.latches) != 1:
        return []
    latch = loop.latches[0]
    checks = []
    for b in loop.blocks:
        for i in b.instrs:
            if i.opname == "check" and _never_fails(i):
                continue                # folded by ranges; constfold removes it later
            if i.opname == "check":
                if not _is_sum_check(i) or not dom.dominates(b, latch):
                    return []
                checks.append(i)
            elif not (i.op.pure or i.op.reads or i.is_terminator):     # reads may run there too
                return []
    if not checks or not _stays_inside(loop, [c.operands[0].operands[-1] for c in checks]):
        return []
    return sorted(checks, key=lambda c: (dom.index[c.block], c.block.instrs.index(c)))


def _defer_sums(loop: Loop, checks: list[Instr]) -> None:
    header, latch = loop.header, loop.latches[0]
    exit_block = _exit_for_checks(header, _only_exit(loop), checks[0].loc)
    at = 0
    for c in checks:
        ovf = c.operands[0]
        word = _carried(header, latch, T.I64, Const(0, T.I64), None)
        _pass_back(latch, word, _word_update(latch, word, ovf))
        bad = Instr("cmp", [word, Const(0, T.I64)], T.BOOL, "lt", c.loc)
        exit_block.insert(at, bad)
        exit_block.insert(at + 1, Instr("check", [bad], T.NONE, c.attr, c.loc))
        at += 2
        c.erase()
        if not ovf.uses:
            ovf.erase()


def _word_update(latch: Block, word: BlockParam, ovf: Instr) -> Instr:
    """``word | overflow bits of ovf``, made at the end of `latch`."""
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
    return new


def _only_exit(loop: Loop) -> Block | None:
    """The block the loop leaves to, when only its header's `cbr` leaves it; else None."""
    header = loop.header
    outside = [(b, s) for b in loop.blocks for s in b.succs if s not in loop.blocks]
    if len(outside) != 1 or outside[0][0] is not header or header.terminator.opname != "cbr":
        return None
    return outside[0][1]


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

# ---- float checks of a counted loop --------------------------------------------------------


def _counted_two_blocks(loop: Loop) -> tuple[Block, Block, Block] | None:
    """(header, body, exit) of a counted loop of two blocks (module docstring), else None."""
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


def _float_checks(header: Block, body: Block) -> list[Instr] | None:
    """The body's checks when the loop qualifies (some, all alike, on float compares), else
    None."""
    checks = []
    for block in (header, body):
        for instr in block.instrs:
            if instr.is_terminator:
                continue
            if instr.opname == "check" and block is body:
                checks.append(instr)
            elif instr.opname not in ("load", "check") and not is_speculatable(instr):
                return None
            elif instr.opname == "check":
                return None
    if not checks:
        return None
    exc = checks[0].attr
    if any(c.attr != exc or len(c.operands) != 1 or not _float_compare(c.operands[0]) for c in checks):
        return None
    return checks


def _float_compare(v) -> bool:
    return isinstance(v, Instr) and v.opname == "cmp" and isinstance(v.operands[0].type, T.FloatType)


def _defer_float_checks(header: Block, body: Block, exit_: Block, checks: list[Instr]) -> None:
    flag = _carried(header, body, T.BOOL, Const(False, T.BOOL), checks[0].loc)
    carried = flag
    for check in checks:
        merged = Instr("or", [carried, check.operands[0]], T.BOOL, loc=check.loc)
        body.insert(body.instrs.index(check), merged)
        check.erase()
        carried = merged
    _pass_back(body, flag, carried)
    exit_for = _exit_for_checks(header, exit_, checks[0].loc)
    exit_for.insert(0, Instr("check", [flag], T.NONE, attr=checks[0].attr, loc=checks[0].loc))
