"""dce: dead code elimination — unreachable blocks, unused pure instructions, unused block
parameters.

Does: deletes the blocks the entry cannot reach; then marks live, starting from what the
program observably does (impure instructions, `ret` and `raise` operands, `cbr`
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


def _find_live(func: Function) -> set[Value]:
    live: set[Value] = set()
    work: list[Value] = []

    def mark(v: Value) -> None:
        if not isinstance(v, Const) and v not in live:
            live.add(v)
            work.append(v)

    for b in func.blocks:
        for i in b.instrs:
            if i.opname in ("ret", "raise"):
                for v in i.operands:
                    mark(v)
            elif i.opname == "cbr":
                mark(i.operands[0])
            elif not i.op.pure and not i.is_terminator:
                mark(i)
    while work:
        v = work.pop()
        if isinstance(v, Instr):
            for op in v.operands:
                mark(op)
        elif isinstance(v, BlockParam):
            block, index = v.block, v.index
            for pred in set(block.preds):
                term = pred.terminator
                for k, s in enumerate(term.succs):
                    if s is block:
                        mark(term.succ_args(k)[index])
    return live


def run(func: Function, stats: Counter | None = None) -> bool:
    stats = stats if stats is not None else Counter()
    blocks = remove_unreachable_blocks(func)
    live = _find_live(func)
    dead_instrs = [i for b in func.blocks for i in b.instrs
                   if i.op.pure and not i.is_terminator and i not in live]
    for i in dead_instrs:
        i.drop_operands()
    dead_params = 0
    for block in func.blocks[1:]:
        dead = [k for k, p in enumerate(block.params) if p not in live]
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
