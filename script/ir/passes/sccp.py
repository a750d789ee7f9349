"""sccp: sparse conditional constant propagation (Wegman and Zadeck, 1991).

Does: finds the values that are constant on every path the program can take, assuming
branches on constants go only one way, and through block parameters (a parameter is
constant when every argument on an executable edge into its block is the same constant).
Then replaces the uses of those values by constants, erases the pure instructions that
computed them, turns each `cbr` whose condition is constant into a `br`, and deletes the
blocks found never to execute.

The lattice is TOP (no evidence yet) > a constant > BOTTOM (varies). Values start at TOP,
function parameters and impure results at BOTTOM; a block is visited when an edge into it
becomes executable. Constants are evaluated with `semantics.fold`, so what sccp folds is
exactly what constfold folds; an op that cannot be folded is BOTTOM.

Assumes: verified IR. Preserves: everything else; unused block parameters and the
arguments passed to them stay for dce. Stats: ``constants`` (values replaced),
``branches`` (cbr made br), ``blocks`` (blocks deleted).
"""

from __future__ import annotations

from collections import Counter, deque

from script.ir.core import Const, Function, Instr, Value, replace_all_uses_with
from script.ir.passes._cfg import remove_unreachable_blocks, take_edge
from script.ir.semantics import fold

TOP = object()
BOTTOM = object()


def _meet(a, b):
    if a is TOP:
        return b
    if b is TOP or a is b:
        return a
    if a is BOTTOM or b is BOTTOM:
        return BOTTOM
    return a if a.key() == b.key() else BOTTOM


class _Solver:
    """The Wegman-Zadeck fixpoint: `lattice` for every value seen, `executable` blocks and
    `edges` (block, successor index) found executable."""

    def __init__(self, func: Function):
        self.func = func
        self.lattice: dict[Value, object] = {}
        self.executable = set()
        self.edges = set()
        self.flow = deque()               # edges to visit
        self.ssa = deque()                # values whose lattice value dropped
        for p in func.params:
            self.lattice[p] = BOTTOM
        self.executable.add(func.entry)
        self.visit_block(func.entry)

    def value(self, v: Value):
        if isinstance(v, Const):
            return v
        return self.lattice.get(v, TOP)

    def lower(self, v: Value, new) -> None:
        old = self.lattice.get(v, TOP)
        if old is BOTTOM:                 # the bottom of the lattice: nothing to do
            return
        new = _meet(old, new)
        if new is not old:
            self.lattice[v] = new
            self.ssa.append(v)

    def solve(self) -> None:
        lattice = self.lattice
        executable = self.executable
        while self.flow or self.ssa:
            while self.flow:
                block, k = self.flow.popleft()
                self.visit_edge(block, k)
            while self.ssa:
                v = self.ssa.popleft()
                # Each user once; a result already at BOTTOM cannot change.
                for user in dict.fromkeys(v.uses):
                    if user.block in executable and (user.op.terminator
                                                     or lattice.get(user) is not BOTTOM):
                        self.visit_instr(user)

    def visit_edge(self, block, k: int) -> None:
        term = block.instrs[-1]
        target = term.succs[k]
        edge = (block, k)
        first = edge not in self.edges
        if first:
            self.edges.add(edge)
        if target.params:
            lower, value = self.lower, self.value
            for p, a in zip(target.params, term.succ_args(k)):
                lower(p, value(a))
        if first and target not in self.executable:
            self.executable.add(target)
            self.visit_block(target)

    def visit_block(self, block) -> None:
        visit = self.visit_instr
        for i in block.instrs:
            visit(i)

    def visit_instr(self, i: Instr) -> None:
        op = i.op
        if op.terminator:
            self.visit_terminator(i)
            return
        if not i.has_result:
            return
        if not op.pure:
            self.lower(i, BOTTOM)
            return
        self.lower(i, self.evaluate(i))

    def evaluate(self, i: Instr):
        lattice = self.lattice
        vals = [v if isinstance(v, Const) else lattice.get(v, TOP) for v in i.operands]
        if i.op.name == "select":
            c, a, b = vals
            if c is TOP:
                return TOP
            if c is BOTTOM:
                return _meet(a, b)
            return a if c.value else b
        if any(v is BOTTOM for v in vals):
            return BOTTOM
        if any(v is TOP for v in vals):
            return TOP
        result = fold(i.op.name, i.attr, i.type, vals) if vals else None
        return BOTTOM if result is None else result

    def visit_terminator(self, term: Instr) -> None:
        name = term.op.name
        if name == "br":
            self.flow.append((term.block, 0))
        elif name == "cbr":
            c = self.value(term.operands[0])
            if c is TOP:
                return
            # The condition only falls (TOP, a constant, BOTTOM), so the edges taken here
            # include every edge taken before: arguments that changed are sent again.
            for k in ((0, 1) if c is BOTTOM else ((0,) if c.value else (1,))):
                self.flow.append((term.block, k))


def run(func: Function, stats: Counter | None = None) -> bool:
    stats = stats if stats is not None else Counter()
    solver = _Solver(func)
    solver.solve()
    changed = False
    for block in list(func.blocks):
        if block not in solver.executable:
            continue
        for p in block.params:
            c = solver.lattice.get(p)
            if isinstance(c, Const) and p.uses and block is not func.entry:
                replace_all_uses_with(p, Const(c.value, c.type))
                stats["constants"] += 1
                changed = True
        for i in list(block.instrs):
            c = solver.lattice.get(i)
            if isinstance(c, Const) and i.op.pure:
                replace_all_uses_with(i, Const(c.value, c.type, i.loc))
                i.erase()
                stats["constants"] += 1
                changed = True
        term = block.terminator
        if term.opname == "cbr" and isinstance(solver.value(term.operands[0]), Const):
            take_edge(block, 0 if solver.value(term.operands[0]).value else 1)
            stats["branches"] += 1
            changed = True
    removed = remove_unreachable_blocks(func)
    stats["blocks"] += removed
    return changed or removed > 0
