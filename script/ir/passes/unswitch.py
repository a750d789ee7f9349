"""unswitch: a loop that branches on a value the loop cannot change runs as two loops.

Does: for a loop (the largest first) with a ``cbr %c`` both of whose targets are in the
loop, where ``%c`` is defined outside the loop (an argument: ``if clamp:``) or computed in
it from values defined outside by a speculatable instruction (the guard versioning leaves
in an outer loop: ``cmp.le %len, %dim`` before each row's inner loop), it copies the loop:
a block on the loop's entry edge tests ``%c`` once (the instruction moved there) and enters
the original, where the branch always takes its true side, or the copy, where it takes the
false side. The cleanup passes then delete each copy's dead side. So matvec's inner loop,
versioned per row, is chosen once for all rows (and `jam` can then run rows together),
and a histogram's ``if clamp:`` costs nothing per element.

Why it is the same program: ``%c`` has one value for the whole run of the loop (SSA: a value
defined outside is fixed; a pure instruction of such values gives the same result every
time, and a speculatable one may run before the loop even when the loop would not have run
it). A value is a register, so no other thread can change it (the withdrawn LLVM
unswitching also took loads of flags, which another thread may write).

Limits: loops of at most `_MAX_INSTRS` instructions, entered by one edge and left only from
the header (to an exit block that only the header enters, through which the header's values
used after the loop then pass); at most `_MAX_COPIES` loops copied per function.
Assumes: verified IR. Preserves: behaviour. Stats: ``loops`` unswitched.
"""

from __future__ import annotations

from collections import Counter

from script.ir.clone import copy_region
from script.ir.core import Block, Const, Function, Instr, Value, set_terminator
from script.ir.dom import DomTree, Loop, find_loops
from script.ir.passes._cfg import rebuild_terminator, retarget
from script.ir.semantics import is_speculatable

_MAX_INSTRS = 300
_MAX_COPIES = 3


def run(func: Function, stats: Counter | None = None) -> bool:
    copies = 0
    while copies < _MAX_COPIES:
        loops = find_loops(func, DomTree(func))
        for loop in sorted(loops, key=lambda l: -len(l.blocks)):
            found = _candidate(loop)
            if found is not None:
                _unswitch(func, loop, *found)
                copies += 1
                break
        else:
            break
    if stats is not None and copies:
        stats["loops"] += copies
    return copies > 0


def _outside(v: Value, loop: Loop) -> bool:
    return isinstance(v, Const) or (v.block is not None and v.block not in loop.blocks)


def _invariant(c: Value, loop: Loop) -> bool:
    if isinstance(c, Const):
        return False                    # (constfold takes a constant branch)
    if _outside(c, loop):
        return True
    return isinstance(c, Instr) and is_speculatable(c) and all(_outside(v, loop) for v in c.operands)


def _candidate(loop: Loop) -> tuple[Block, Block, int] | None:
    """(the block whose `cbr` is unswitched, the entry edge's block and edge index)."""
    header = loop.header
    outside = [p for p in header.preds if p not in loop.blocks]
    if len(outside) != 1 or outside[0].terminator.succs.count(header) != 1:
        return None
    if any(s not in loop.blocks for b in loop.blocks if b is not header for s in b.succs):
        return None                     # left only from the header
    exits = [s for s in header.succs if s not in loop.blocks]
    if len(exits) != 1 or exits[0].preds != [header]:
        return None
    if sum(len(b.instrs) for b in loop.blocks) > _MAX_INSTRS:
        return None
    for b in sorted(loop.blocks, key=lambda b: b.func.blocks.index(b)):
        term = b.terminator
        if term.opname == "cbr" and all(s in loop.blocks for s in term.succs) \
                and term.succs[0] is not term.succs[1] and _invariant(term.operands[0], loop):
            return b, outside[0], outside[0].terminator.succs.index(header)
    return None


def _unswitch(func: Function, loop: Loop, branch: Block, pred: Block, edge: int) -> None:
    header = loop.header
    loc = branch.terminator.loc
    cond = branch.terminator.operands[0]
    args = list(pred.terminator.succ_args(edge))
    guard = func.add_block("unswitch")
    func.blocks.pop()
    func.blocks.insert(func.blocks.index(header), guard)
    params = [guard.add_param(a.type, a.loc) for a in args]
    retarget(pred, edge, guard, args)
    if isinstance(cond, Instr) and cond.block in loop.blocks:
        cond.block.instrs.remove(cond)              # computed once, before the loop
        guard.append(cond)

    blocks = sorted(loop.blocks, key=lambda b: func.blocks.index(b))
    vmap: dict = {}
    copied = copy_region(func, blocks, func.blocks.index(header), vmap)
    other = copied[blocks.index(header)]
    exit_ = next(s for s in header.succs if s not in loop.blocks)
    out = header.terminator.succs.index(exit_)
    for v in [*header.params, *header.instrs]:     # header values used after the loop
        users = [u for u in v.uses if u.block not in loop.blocks and u.block not in copied]
        if not users:
            continue
        p = exit_.add_param(v.type, v.loc, v.name)
        header.terminator.add_succ_arg(out, v)
        other.terminator.add_succ_arg(out, vmap[id(v)])
        for u in users:
            for n, op in enumerate(u.operands):
                if op is v:
                    u.set_operand(n, p)
    for block, side in ((branch, 0), (copied[blocks.index(branch)], 1)):
        term = block.terminator
        rebuild_terminator(block, [term.succs[side]], [list(term.succ_args(side))])
    set_terminator(guard, "cbr", [cond, *params, *params], [header, other], [len(args), len(args)], loc)
