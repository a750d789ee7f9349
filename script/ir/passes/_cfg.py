"""Edits of the control-flow graph that several passes make, built on the core.py helpers.

Each keeps the core invariants: use lists exact, `Block.preds` one entry per edge, branch
arguments matching the target's parameters (the caller supplies arguments that do).
"""

from __future__ import annotations

from script.ir.clone import copy_region
from script.ir.core import Block, Const, Function, Instr, Value, set_terminator


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


def defined_outside(v: Value, loop) -> bool:
    """Whether `v` is a constant or defined in a block outside `loop`: the loop cannot
    change it."""
    if isinstance(v, Const):
        return True
    return v.block is not None and v.block not in loop.blocks


def insert_block(func: Function, name: str, at: int) -> Block:
    """A new empty block `name` at position `at` of `func`'s block list."""
    block = func.add_block(name)
    func.blocks.pop()
    func.blocks.insert(at, block)
    return block


def copyable_loop(loop, max_instrs: int, shared_exit: bool = False) -> tuple[Block, int] | None:
    """(the block and edge index entering `loop`) when `copy_loop` can copy it: entered by
    one edge, left only from its header to an exit block only the header enters (or that
    others enter too, when `shared_exit`: `split_exit` then gives it one of its own), at
    most `max_instrs` instructions."""
    header = loop.header
    outside = [p for p in header.preds if p not in loop.blocks]
    if len(outside) != 1 or outside[0].terminator.succs.count(header) != 1:
        return None
    if any(s not in loop.blocks for b in loop.blocks if b is not header for s in b.succs):
        return None
    exits = [s for s in header.succs if s not in loop.blocks]
    if len(exits) != 1 or exits[0].preds.count(header) != 1 or (
            exits[0].preds != [header] and not shared_exit):
        return None
    if sum(len(b.instrs) for b in loop.blocks) > max_instrs:
        return None
    return outside[0], outside[0].terminator.succs.index(header)


def split_exit(func: Function, loop) -> None:
    """Give the exit block of `loop` (`copyable_loop` with `shared_exit`) a block of its own
    on the header's edge to it, when other blocks enter it too."""
    header = loop.header
    exit_ = next(s for s in header.succs if s not in loop.blocks)
    if exit_.preds == [header]:
        return
    k = header.terminator.succs.index(exit_)
    args = list(header.terminator.succ_args(k))
    mid = insert_block(func, "exit", func.blocks.index(exit_))
    params = [mid.add_param(a.type, a.loc) for a in args]
    retarget(header, k, mid, args)
    set_terminator(mid, "br", params, [exit_], [len(params)], header.terminator.loc)


def copy_loop(func: Function, loop, pred: Block, edge: int, name: str):
    """Copy `loop` (`copyable_loop` said how it is entered) and put a block `name` on its
    entry edge, which the caller ends with a branch to one copy or the other: returns that
    block, its parameters (the entry edge's arguments), the copy's header and `vmap` (id of
    an original value -> its copy). The header's values used after the loop reach the exit
    block through new parameters, from either copy."""
    header = loop.header
    args = list(pred.terminator.succ_args(edge))
    guard = insert_block(func, name, func.blocks.index(header))
    params = [guard.add_param(a.type, a.loc) for a in args]
    retarget(pred, edge, guard, args)
    blocks = sorted(loop.blocks, key=lambda b: func.blocks.index(b))
    vmap: dict = {}
    copied = copy_region(func, blocks, func.blocks.index(header), vmap)
    other = copied[blocks.index(header)]
    exit_ = next(s for s in header.succs if s not in loop.blocks)
    out = header.terminator.succs.index(exit_)
    for v in [*header.params, *header.instrs]:
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
    return guard, params, other, vmap
