"""Dominator tree and natural loops, computed over the reachable blocks of a function.

Cooper, Harvey and Kennedy, "A Simple, Fast Dominance Algorithm" (2001). Results describe the
function as it was when computed; recompute after changing the CFG.
"""

from __future__ import annotations

from script.ir.core import Block, Function, reachable_blocks


class DomTree:
    def __init__(self, func: Function):
        self.order = reachable_blocks(func)            # reverse postorder
        self.index = {b: i for i, b in enumerate(self.order)}
        idom: dict[Block, Block] = {self.order[0]: self.order[0]}
        changed = True
        while changed:
            changed = False
            for b in self.order[1:]:
                preds = [p for p in b.preds if p in idom]
                if not preds:
                    continue
                new = preds[0]
                for p in preds[1:]:
                    new = self._intersect(idom, p, new)
                if idom.get(b) is not new:
                    idom[b] = new
                    changed = True
        self.idom = idom
        self.children: dict[Block, list[Block]] = {b: [] for b in self.order}
        for b in self.order[1:]:
            self.children[idom[b]].append(b)

    def _intersect(self, idom, a: Block, b: Block) -> Block:
        index = self.index
        while a is not b:
            while index[a] > index[b]:
                a = idom[a]
            while index[b] > index[a]:
                b = idom[b]
        return a

    def is_reachable(self, b: Block) -> bool:
        return b in self.index

    def dominates(self, a: Block, b: Block) -> bool:
        """Whether every path from the entry to `b` passes through `a` (a block dominates itself)."""
        if b not in self.idom:
            return True          # unreachable blocks are dominated by everything
        entry = self.order[0]
        while True:
            if b is a:
                return True
            if b is entry:
                return False
            b = self.idom[b]

    def preorder(self) -> list[Block]:
        out, stack = [], [self.order[0]]
        while stack:
            b = stack.pop()
            out.append(b)
            stack.extend(reversed(self.children[b]))
        return out


class Loop:
    """A natural loop: its header, the blocks of its body (header included) and its latches."""

    def __init__(self, header: Block):
        self.header = header
        self.blocks: set[Block] = {header}
        self.latches: list[Block] = []

    def exits(self) -> list[Block]:
        return [s for b in self.blocks for s in b.succs if s not in self.blocks]


def find_loops(func: Function, dom: DomTree | None = None) -> list[Loop]:
    """Natural loops, inner loops before the loops that contain them."""
    dom = dom or DomTree(func)
    loops: dict[Block, Loop] = {}
    for b in dom.order:
        for s in b.succs:
            if dom.dominates(s, b):
                loop = loops.setdefault(s, Loop(s))
                loop.latches.append(b)
                work = [b]
                while work:
                    x = work.pop()
                    if x in loop.blocks:
                        continue
                    loop.blocks.add(x)
                    work.extend(p for p in x.preds if dom.is_reachable(p))
    return sorted(loops.values(), key=lambda l: len(l.blocks))
