"""dce: dead code elimination — unreachable blocks, unused pure instructions, unused block
parameters.

Does: deletes the blocks the entry cannot reach; then marks live, starting from what the
program observably does (impure instructions, `ret`, `raise` and `reraise` operands, `cbr`
conditions) and following operands backwards, where a live block parameter makes live the
argument every edge passes to it. Everything pure left unmarked is deleted: instructions
and the parameters of blocks other than the entry, with the arguments branches pass them.
So a value that is only passed around a loop (``bb1(%3): ... br bb1(%4)`` with
``%4 = add %3, 1``) dies together with the parameter it feeds.

Assumes: verified IR. Preserves: every impure instruction and terminator, the CFG of
reachable blocks, the entry's parameters (the function's signature).
Stats: ``blocks``, ``instrs``, ``params`` removed.
"""

from __future__ import annotations

from collections import Counter

from script.ir.core import BlockParam, Const, Function, Instr, Value
from script.ir.passes._cfg import remove_unreachable_blocks


def _incoming(block) -> list[tuple[Instr, int]]:
    """(terminator, index of its first argument for `block`) for each edge into `block`."""
    edges = []
    for pred in dict.fromkeys(block.preds):
        term = pred.instrs[-1]
        start = 1 if term.op.name == "cbr" else 0
        for s, n in zip(term.succs, term.succ_nargs):
            if s is block:
                edges.append((term, start))
            start += n
    return edges


def _find_live(func: Function) -> set[Value]:
    live: set[Value] = set()
    work: list[Value] = []
    for b in func.blocks:
        for i in b.instrs:
            op = i.op
            if op.name in ("ret", "raise", "reraise"):
                work.extend(i.operands)
            elif op.name == "cbr":
                work.append(i.operands[0])
            elif not op.deletable and not op.terminator:
                work.append(i)
    incoming: dict = {}             # block -> _incoming(block), computed when first needed
    while work:
        v = work.pop()
        if v in live or isinstance(v, Const):
            continue
        live.add(v)
        if isinstance(v, Instr):
            work.extend(v.operands)
        elif isinstance(v, BlockParam):
            block = v.block
            edges = incoming.get(block)
            if edges is None:
                edges = incoming[block] = _incoming(block)
            index = v.index
            work.extend(term.operands[start + index] for term, start in edges)
    return live


def run(func: Function, stats: Counter | None = None) -> bool:
    stats = stats if stats is not None else Counter()
    blocks = remove_unreachable_blocks(func)
    live = _find_live(func)
    dead_instrs = [i for b in func.blocks for i in b.instrs
                   if i.op.deletable and i not in live]
    for i in dead_instrs:
        i.drop_operands()
    dead_params = 0
    for block in func.blocks[1:]:
        dead = [k for k, p in enumerate(block.params) if p not in live]
        if not dead:
            continue
        for pred in set(block.preds):
            term = pred.terminator
            for k, s in enumerate(term.succs):
                if s is block:
                    for index in reversed(dead):
                        term.remove_succ_arg(k, index)
        for index in reversed(dead):
            del block.params[index]
        dead_params += len(dead)
    for i in dead_instrs:
        i.erase()
    stats["blocks"] += blocks
    stats["instrs"] += len(dead_instrs)
    stats["params"] += dead_params
    return bool(blocks or dead_instrs or dead_params)
