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

A ``check %c`` on such a value in an innermost loop is unswitched the same way when it is
the loop's only one: the copy, entered when ``%c`` is false, runs without it (it could not
fail there); the original, entered when ``%c`` is true, keeps it as ``check true`` (it fails
wherever it runs, after what ran before it, as before), which no later round unswitches
again. ``ranges`` leaves such checks: the histogram's clamped bin is checked only for
``nbins <= 0`` (the pipeline runs ranges and unswitch again after a loop was unswitched).
Only one check per loop: each copy would keep the others, and the row checks of a 2-D
stencil's inner loop (six in jacobi2d's fallback loop) made a chain of six copies.

Not unswitched: a branch that runs once per iteration (in no inner loop) of a loop whose
iteration allocates or calls (an impure op with a new reference: `alloc`, `call`, ...).
There the branch is a small part of an iteration, and `jam`, the other gain of unswitching
such a loop, takes no loop that calls; the copy is all cost: the RNN's time loop, copied
on the broadcast test of its `np.tanh(w @ xs[t] + u @ h + b)`, took LLVM 111 ms instead of
79 (benchmarks/kernels_arrays.py `rnn`, warm; its run time is the same).

Limits: loops of at most `_MAX_INSTRS` instructions, entered by one edge and left only from
the header (to an exit block, given an edge block of its own when other blocks enter it too,
as the copies of a loop unswitched before share theirs; the header's values used after the
loop then pass through it); at most `_MAX_COPIES` loops copied per run.
Assumes: verified IR. Preserves: behaviour. Stats: ``loops`` unswitched, of them
``innermost_branches`` on a branch in an innermost loop (the pipeline's cue to run ranges
again: a flag's copies, not versioning's per-row guards, whose copies it decides no more in).
"""

from __future__ import annotations

from collections import Counter

from script.ir import types as T
from script.ir.core import (Block, Const, Function, Instr, Value, replace_all_uses_with,
                            set_terminator)
from script.ir.dom import DomTree, Loop, find_loops
from script.ir.passes._cfg import (copy_loop, copyable_loop, defined_outside, rebuild_terminator,
                                   split_exit)
from script.ir.semantics import is_speculatable

_MAX_INSTRS = 300
_MAX_COPIES = 3


def run(func: Function, stats: Counter | None = None) -> bool:
    copies = 0
    branches = 0
    while copies < _MAX_COPIES:
        loops = find_loops(func, DomTree(func))
        for loop in sorted(loops, key=lambda l: -len(l.blocks)):
            found = _candidate(loop, loops)
            if found is not None:
                if found[0].opname == "cbr" and not any(
                        other is not loop and other.header in loop.blocks for other in loops):
                    branches += 1
                _unswitch(func, loop, *found)
                copies += 1
                break
        else:
            break
    if stats is not None and copies:
        stats["loops"] += copies
        stats["innermost_branches"] += branches
    return copies > 0


def _invariant(c: Value, loop: Loop) -> bool:
    if isinstance(c, Const):
        return False                    # (constfold takes a constant branch)
    if defined_outside(c, loop):
        return True
    return isinstance(c, Instr) and is_speculatable(c) and all(defined_outside(v, loop) for v in c.operands)


def _candidate(loop: Loop, loops: list[Loop]) -> tuple[Instr, Block, int] | None:
    """(the `cbr` or `check` unswitched, the entry edge's block and edge index)."""
    entry = copyable_loop(loop, _MAX_INSTRS, shared_exit=True)
    if entry is None:
        return None
    in_inner = {b for inner in loops if inner is not loop and inner.header in loop.blocks
                for b in inner.blocks}
    costly = any(i.op.fresh and not i.op.pure for b in loop.blocks for i in b.instrs)
    for b in sorted(loop.blocks, key=lambda b: b.func.blocks.index(b)):
        term = b.terminator
        if costly and b not in in_inner:
            continue
        if term.opname == "cbr" and all(s in loop.blocks for s in term.succs) \
                and term.succs[0] is not term.succs[1] and _invariant(term.operands[0], loop):
            return term, *entry
    if in_inner or costly:
        return None
    checks = [i for b in loop.blocks for i in b.instrs
              if i.opname == "check" and _invariant(i.operands[0], loop)]
    if len(checks) == 1:
        return checks[0], *entry
    return None


def _unswitch(func: Function, loop: Loop, test: Instr, pred: Block, edge: int) -> None:
    loc = test.loc
    cond = test.operands[0]
    split_exit(func, loop)      # (a loop unswitched before shares its exit with its copy)
    guard, params, other, vmap = copy_loop(func, loop, pred, edge, "unswitch")
    if isinstance(cond, Instr) and cond.block in loop.blocks:
        twin = vmap[id(cond)]                       # computed once, before the loop
        replace_all_uses_with(twin, cond)
        twin.erase()
        cond.block.instrs.remove(cond)
        guard.append(cond)
    if test.opname == "check":
        vmap[id(test)].erase()                      # the copy runs only while it passes
        test.set_operand(0, Const(True, T.BOOL))    # the original only while it fails
        set_terminator(guard, "cbr", [cond, *params, *params], [loop.header, other],
                       [len(params), len(params)], loc)
        return
    branch = test.block
    copy = vmap[id(test)].block
    for block, side in ((branch, 0), (copy, 1)):
        term = block.terminator
        rebuild_terminator(block, [term.succs[side]], [list(term.succ_args(side))])
    set_terminator(guard, "cbr", [cond, *params, *params], [loop.header, other],
                   [len(params), len(params)], loc)
