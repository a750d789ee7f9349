"""Edits of the control-flow graph that several passes make, built on the core.py helpers.

Each keeps the core invariants: use lists exact, `Block.preds` one entry per edge, branch
arguments matching the target's parameters (the caller supplies arguments that do).
"""

from __future__ import annotations

from script.ir.core import Block, Function, Instr, Value, set_terminator


def remove_unreachable_blocks(func: Function) -> int:
    """Delete every block the entry cannot reach; returns how many.

    Values of unreachable blocks are used only in unreachable blocks (a use elsewhere would
    not be dominated), so all their operands are dropped first; then no use list can name
    a deleted instruction when the blocks go. Requires: every block ends in a terminator.
    """
    blocks = func.blocks
    live = {blocks[0]}
    stack = [blocks[0]]
    while stack:                        # only the set is needed, not reachable_blocks' order
        for s in stack.pop().instrs[-1].succs:
            if s not in live:
                live.add(s)
                stack.append(s)
    if len(live) == len(blocks):
        return 0
    dead = [b for b in blocks if b not in live]
    for b in dead:
        for instr in b.instrs:
            instr.drop_operands()
    for b in dead:
        func.remove_block(b)
    return len(dead)


def rebuild_terminator(block: Block, succs: list[Block], args: list[list[Value]],
                       cond: Value | None = None) -> Instr:
    """Replace `block`'s terminator by a `br` (one successor) or a `cbr` on `cond` (two),
    passing `args[k]` to `succs[k]`; keeps the old terminator's location."""
    old = block.terminator
    loc = old.loc if old is not None else None
    operands = ([cond] if cond is not None else []) + [v for a in args for v in a]
    op = "br" if cond is None else "cbr"
    return set_terminator(block, op, operands, succs, [len(a) for a in args], loc=loc)


def retarget(block: Block, k: int, target: Block, args: list[Value]) -> Instr:
    """Send edge `k` of `block`'s `br`/`cbr` to `target` with `args` instead."""
    term = block.terminator
    succs = list(term.succs)
    all_args = [list(term.succ_args(j)) for j in range(len(succs))]
    succs[k], all_args[k] = target, list(args)
    cond = term.operands[0] if term.opname == "cbr" else None
    return rebuild_terminator(block, succs, all_args, cond)


def take_edge(block: Block, k: int) -> Instr:
    """Turn `block`'s `cbr` into a `br` along edge `k`."""
    term = block.terminator
    return rebuild_terminator(block, [term.succs[k]], [list(term.succ_args(k))])


def move_before_terminator(instr: Instr, block: Block) -> None:
    """Move a non-terminator instruction to the end of `block` (before its terminator).
    Operands and uses are unchanged; the caller keeps dominance right."""
    instr.block.instrs.remove(instr)
    block.insert_before_terminator(instr)
