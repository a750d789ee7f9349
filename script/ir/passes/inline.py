"""inline: replaces calls of small functions by a copy of the callee's body.

Does: for each `call` whose callee has at most `THRESHOLD` instructions (and no
`inline_mark`: ir.core), splits the calling
block after the call, copies the callee's blocks in (the callee's entry parameters become
the call's arguments), turns each copied `ret v` into a jump to the continuation block with
`v` as its parameter, and removes the call. A `raise` or `check` in the copy raises from the
caller, which is what the call did; so a call followed by `raised` (inside a ``try``) is
not inlined: its exception goes to a handler of the caller. A function calling itself is inlined into itself
`SELF_LEVELS` times, always from a snapshot of its body as the pass found it, so recursion
unrolls a few levels (as gcc does for a recursive fib: each remaining call then does more
work between stack checks) and growth is bounded by `GROWTH`; mutual recursion is inlined at
most `MAX_ROUNDS` deep.

Assumes: verified IR; callees are verified functions. Preserves: the function's signature
and behaviour, exceptions included. Stats: ``calls`` inlined, ``instrs`` copied.
"""

from __future__ import annotations

from collections import Counter

from script.ir import types as T
from script.ir.clone import clone_functions, copy_blocks
from script.ir.core import Block, Function, Instr, set_terminator

THRESHOLD = 40          # callee size, in instructions, up to which a call is inlined
SELF_THRESHOLD = 25     # the same for a function's calls of itself (inlined once)
GROWTH = 400            # a function stops inlining once it has grown by this many instrs
MAX_ROUNDS = 4
SELF_LEVELS = 3         # how many times a function's recursive calls are inlined into it


def _size(func: Function) -> int:
    return sum(len(b.instrs) for b in func.blocks)


def run(func: Function, stats: Counter | None = None) -> bool:
    stats = stats if stats is not None else Counter()
    budget = GROWTH
    snapshot = None            # the function as found, for inlining its own recursive calls
    changed = False
    for round_ in range(MAX_ROUNDS):
        calls = [i for b in func.blocks for i in b.instrs if i.opname == "call"]
        inlined = False
        for call in calls:
            callee = call.attr
            if callee.inline_mark is not None or _is_caught(call):     # kept out of line (ir.core)
                continue
            if callee is func:
                if snapshot is None:
                    snapshot = clone_functions([func])[0] if _size(func) <= SELF_THRESHOLD else False
                if not snapshot:
                    continue
                body = snapshot
            else:
                body = callee
            size = _size(body)
            if size > THRESHOLD or size > budget or _calls_itself(body) and body is not snapshot:
                continue
            inline_call(func, call, body)
            budget -= size
            stats["calls"] += 1
            stats["instrs"] += size
            inlined = changed = True
        if not inlined:
            break
        if round_ + 1 >= SELF_LEVELS:
            snapshot = False       # recursion: SELF_LEVELS levels only
    return changed


def _is_caught(call: Instr) -> bool:
    """Whether `raised` follows `call` (a call inside a ``try``): a copy of the callee would
    leave the function where the call's exception goes to a handler."""
    instrs = call.block.instrs
    k = instrs.index(call)
    return k + 1 < len(instrs) and instrs[k + 1].opname == "raised"


def _calls_itself(func: Function) -> bool:
    return any(i.opname == "call" and i.attr is func for b in func.blocks for i in b.instrs)


def inline_call(func: Function, call: Instr, callee: Function) -> None:
    """Replace `call` (in `func`) by a copy of `callee`'s body."""
    block = call.block
    after = _split_after(func, block, call)
    vmap = {id(p): a for p, a in zip(callee.params, call.operands)}
    copies = {id(callee): func} if callee.name == func.name else {}
    new_blocks = copy_blocks(callee, func, copies, vmap)
    result = after.add_param(call.type, call.loc) if call.has_result else None
    for nb in new_blocks:
        term = nb.terminator
        if term.opname != "ret":
            continue
        args = list(term.operands) if result is not None else []
        loc = term.loc
        set_terminator(nb, "br", args, [after], [len(args)], loc)
    from script.ir.core import Const, replace_all_uses_with
    if result is not None:
        replace_all_uses_with(call, result)
    elif call.uses:         # a None-typed call's value used (`x.left = f(None)`): the constant
        replace_all_uses_with(call, Const(None, T.NONE, call.loc))
    call.erase()
    set_terminator(block, "br", [], [new_blocks[0]], [0], call.loc)


def _split_after(func: Function, block: Block, call: Instr) -> Block:
    """Move everything after `call` in `block` into a new block placed after it."""
    after = Block(func, "inline.cont")
    func.blocks.insert(func.blocks.index(block) + 1, after)
    k = block.instrs.index(call)
    moved = block.instrs[k + 1:]
    del block.instrs[k + 1:]
    for i in moved:
        i.block = after
        after.instrs.append(i)
        if i.is_terminator:
            for s in i.succs:
                s.preds[s.preds.index(block)] = after
    return after
