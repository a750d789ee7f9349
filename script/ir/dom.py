"""Dominator tree and natural loops, computed over the reachable blocks of a function.

Cooper, Harvey and Kennedy, "A Simple, Fast Dominance Algorithm" (2001). Results describe the
function as it was when computed; recompute after changing the CFG.
"""

from __future__ import annotations

from script.ir.core import Block, Function, reachable_blocks


class DomTree:
    def __init__(self, func: Function):
        self.order = order = reachable_blocks(func)    # reverse postorder
        self.index = index = {b: i for i, b in enumerate(order)}
        entry = order[0]
        idom: dict[Block, Block] = {entry: entry}
        rest = order[1:]
        changed = True
        retreating = False      # whether some edge goes to a block not after its source
        while changed:
            changed = False
            for b in rest:
                new = None
                for p in b.preds:
                    if p not in idom:
                        if p in index:      # (first pass only: later, every reachable block is in)
                            retreating = True
                        continue
                    if new is None:
                        new = p
                        continue
                    while p is not new:          # (`_intersect`, inlined)
                        while index[p] > index[new]:
                            p = idom[p]
                        while index[new] > index[p]:
                            new = idom[new]
                if new is None:
                    continue
                if idom.get(b) is not new:
                    idom[b] = new
                    changed = True
            # Without a retreating edge every block's predecessors came before it, so one pass
            # found the final answer, which a second would only confirm.
            changed = changed and retreating
        self.idom = idom
        self._children: dict[Block, list[Block]] | None = None

    @property
    def children(self) -> dict[Block, list[Block]]:
        """Each reachable block's children in the tree, in reverse postorder (made on first use)."""
        if self._children is None:
            children = self._children = {b: [] for b in self.order}
            idom = self.idom
            for b in self.order[1:]:
                children[idom[b]].append(b)
        return self._children

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
