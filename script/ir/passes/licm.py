"""licm: loop-invariant code motion of pure instructions into a loop preheader.

Does: for each natural loop, inner loops first, moves to the end of the loop's preheader
every instruction in the loop that is speculatable (`semantics.is_speculatable`: pure and
defined for all operand values, since the preheader runs even when the loop body would
not) and whose operands are constants, values defined outside the loop, or instructions
already chosen. Blocks are scanned in reverse postorder, so an instruction's invariant
operands move before it. A preheader is the loop header's only predecessor from outside
the loop, ending in a `br` to the header; when there is none and something is to be
hoisted, one is created just before the header (it takes the header's parameter types
and passes them on, and every edge from outside the loop is redirected to it).

A value defined outside the loop that dominates a use inside it dominates the
preheader too, so hoisted instructions keep their operands dominated.

Assumes: verified IR. Preserves: impure instructions (checks, calls stay where they are),
the order of hoisted instructions. Stats: ``hoisted``, ``preheaders``.
"""

from __future__ import annotations

from collections import Counter

from script.ir.core import Block, Const, Function, Instr, Value, set_terminator
from script.ir.dom import DomTree, Loop, find_loops
from script.ir.passes._cfg import move_before_terminator, retarget
from script.ir.semantics import is_speculatable


def _invariants(loop: Loop, order: list[Block]) -> list[Instr]:
    chosen: set[Instr] = set()
    found = []

    def is_invariant(v: Value) -> bool:
        return isinstance(v, Const) or v in chosen or v.block not in loop.blocks

    for b in order:
        if b not in loop.blocks:
            continue
        for i in b.instrs:
            if i.has_result and is_speculatable(i) and all(map(is_invariant, i.operands)):
                chosen.add(i)
                found.append(i)
    return found


def _preheader(loop: Loop) -> Block | None:
    header = loop.header
    outside = [p for p in header.preds if p not in loop.blocks]
    if len(outside) != 1 or outside[0].terminator.opname != "br":
        return None
    return outside[0]


def _make_preheader(func: Function, loop: Loop) -> Block:
    header = loop.header
    pre = func.add_block("preheader")
    func.blocks.remove(pre)
    func.blocks.insert(func.blocks.index(header), pre)
    for p in header.params:
        pre.add_param(p.type, p.loc, p.name)
    edges = [(pred, k) for pred in dict.fromkeys(header.preds) if pred not in loop.blocks
             for k, s in enumerate(pred.terminator.succs) if s is header]
    for pred, k in edges:
        retarget(pred, k, pre, list(pred.terminator.succ_args(k)))
    set_terminator(pre, "br", list(pre.params), [header], [len(pre.params)])
    return pre


def run(func: Function, stats: Counter | None = None) -> bool:
    stats = stats if stats is not None else Counter()
    done: set[Block] = set()
    changed = False
    # Each round either hoists from every loop left or creates one preheader and starts
    # over with fresh loops (a new block changes the outer loops' bodies).
    for _ in range(2 * len(func.blocks) + 2):
        dom = DomTree(func)
        restart = False
        for loop in find_loops(func, dom):
            if loop.header in done:
                continue
            hoist = _invariants(loop, dom.order)
            pre = _preheader(loop) if hoist else None
            if hoist and pre is None:
                _make_preheader(func, loop)
                stats["preheaders"] += 1
                changed = restart = True
                break
            for i in hoist:
                move_before_terminator(i, pre)
            stats["hoisted"] += len(hoist)
            changed = changed or bool(hoist)
            done.add(loop.header)
        if not restart:
            break
    return changed
