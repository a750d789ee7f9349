"""fixedlen: the lengths of a list that only the function's own `list_resize`s change.

Does: for each `list_new` %l whose every use is a `list_resize %l, %n`, `list_get %l, _`,
`list_set %l, _, _` (%l as the list, not the value stored), `list_len %l` or `ret %l`,
nothing but those resizes can change its length: no op that could (a call, a store into
another container, a block argument) sees the list. So the length is a value the pass
tracks forward: after a resize whose failure is checked (`not` then `check`) it is %n;
after a `list_len %l` it is that; a resize whose failure is not checked forgets it; where
paths meet it is the value all of them agree on (optimistically around loops: a loop that
does not resize the list keeps the length it was entered with). A `list_len %l` whose
length is known becomes that value.

This is what `[0] * n`, `list(range(n))` and a comprehension over a range make, and what a
list built by `append` and then sorted or searched in place is: with the length one SSA
value (often a constant), the bounds checks of `t[i]` and `t[j]` in the same loop become the
same checks (cse) that dominate each other (bce), and they meet the loop bound in bce and in
LLVM, which otherwise reloads the length after every `list_set` (the element store may
alias the list's header).

Assumes: verified IR. Preserves: the CFG, every instruction but the replaced `list_len`s.
Stats: ``forwarded``.
"""

from __future__ import annotations

from collections import Counter

from script.ir.core import Function, Instr, reachable_blocks, replace_all_uses_with
from script.ir.dom import DomTree
from script.ir.ops import OPS

_LIST_NEW = OPS["list_new"]


def _checked(resize: Instr) -> Instr | None:
    """The `check` that raises when `resize` fails (`check (not resize)`), when nothing else
    reads the resize's result; else None."""
    if len(resize.uses) != 1 or resize.uses[0].opname != "not":
        return None
    checks = resize.uses[0].uses
    if len(checks) != 1 or checks[0].opname != "check":
        return None
    return checks[0]


def _local(new: Instr) -> bool:
    """Whether only `list_resize`, `list_get`, `list_set`, `list_len` and `ret` use the list
    `new`, and at least one `list_len` reads its length."""
    lens = False
    for u in new.uses:
        op = u.opname
        if op == "list_len":
            lens = True
        elif not (op in ("list_resize", "list_get", "ret") and u.operands[0] is new
                  or op == "list_set" and u.operands[1] is not new):
            return False
    return lens


class _Version:
    """A length of the list that no SSA value holds yet: the one its `list_new` or an
    unchecked resize gives, or the meeting of different ones where paths join (`operands`:
    each predecessor's version, for a join; `same`: the one version they all turned out to
    give)."""

    __slots__ = ("operands", "same")

    def __init__(self):
        self.operands: list = []
        self.same = None


def _resolved(v):
    while isinstance(v, _Version) and v.same is not None:
        v = v.same
    return v


def _reads(new: Instr, func: Function) -> list:
    """(list_len, the length version it reads) for each `list_len` of the local list `new`, in
    reverse postorder: SSA construction for the one variable "the length of `new`" (Braun et
    al.: a join at each block with several predecessors, dropped when they all give one
    version), whose definitions are the `list_new` and each resize (a new version) and the
    check of a checked resize (the resize's %n, from there on)."""
    defs: dict = {new: _Version()}
    for u in new.uses:
        if u.opname == "list_resize":
            defs[u] = _Version()
            check = _checked(u)
            if check is not None:
                defs[check] = u.operands[1]
    end: dict = {}
    joins = []
    reads = []
    for block in reachable_blocks(func):     # a block's single predecessor comes before it
        preds = set(block.preds)
        if block is func.entry:
            v = None
        elif len(preds) == 1:
            v = end[block.preds[0]]
        else:
            v = _Version()
            joins.append((v, preds))
        for i in block.instrs:
            v = defs.get(i, v)
            if i.opname == "list_len" and i.operands[0] is new:
                reads.append((i, v))
        end[block] = v
    for join, preds in joins:
        join.operands = [end[p] for p in preds if p in end]
    changed = True
    while changed:          # drop the joins whose predecessors agree (or give the join itself)
        changed = False
        for join, _ in joins:
            if join.same is None:
                seen = {id(r): r for r in map(_resolved, join.operands) if r is not join}
                same = next(iter(seen.values())) if len(seen) == 1 else None
                if same is not None:        # (None: before the list is made)
                    join.same = same
                    changed = True
    return [(i, _resolved(v)) for i, v in reads]


def _forward(new: Instr, func: Function, dom: DomTree) -> int:
    """Replace each `list_len` of the local list `new` whose length another value holds: the
    %n of the checked resize it follows, or a `list_len` of the same version dominating it;
    their count."""
    kept: dict = {}         # version -> the list_lens of it that stay
    forwarded = 0
    for i, v in _reads(new, func):
        if v is None:
            continue
        held = v
        if isinstance(v, _Version):
            reads = kept.setdefault(id(v), [])
            held = next((r for r in reads if _dominates(r, i, dom)), None)
            if held is None:
                reads.append(i)
                continue
        replace_all_uses_with(i, held)
        i.erase()
        forwarded += 1
    return forwarded


def _dominates(a: Instr, b: Instr, dom: DomTree) -> bool:
    if a.block is b.block:
        return a.block.instrs.index(a) < b.block.instrs.index(b)
    return dom.dominates(a.block, b.block)


def run(func: Function, stats: Counter | None = None) -> bool:
    stats = stats if stats is not None else Counter()
    # one pass over the instructions, comparing op objects: this runs on every function
    lists = [i for b in func.blocks for i in b.instrs if i.op is _LIST_NEW and _local(i)]
    if not lists:
        return False
    dom = DomTree(func)
    forwarded = sum(_forward(new, func, dom) for new in lists)
    stats["forwarded"] += forwarded
    return forwarded > 0
