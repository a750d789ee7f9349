"""fixedlen: the length of a list that keeps the length it was made with.

Does: for each `list_new` %l whose every use is one `list_resize %l, %n` (its failure
checked: `not` then `check`), `list_get %l, _`, `list_set %l, _, _` (%l as the list, not the
value stored), `list_len %l` or `ret %l`, replaces each `list_len %l` that the resize
dominates by %n. Nothing else can change the length of such a list: no op that could
(append, pop, extend, a call, a store into another container, a block argument) sees it.
This is what `[0] * n`, `list(range(n))` and a list comprehension over a range make and what
most table-filling code then indexes; with the length an SSA value (often a constant) the
bounds checks of `t[i]` meet the loop bound in bce and in LLVM, which otherwise reloads the
length after every `list_set` (the element store may alias the list's header).

Assumes: verified IR. Preserves: the CFG, every instruction but the replaced `list_len`s.
Stats: ``forwarded``.
"""

from __future__ import annotations

from collections import Counter

from script.ir.core import Function, Instr, replace_all_uses_with
from script.ir.dom import DomTree
from script.ir.ops import OPS

_LIST_NEW = OPS["list_new"]


def _checked(resize: Instr) -> bool:
    """Whether the failure of `resize` raises (`check (not resize)`) and nothing else reads it."""
    return len(resize.uses) == 1 and resize.uses[0].opname == "not" and \
        all(u.opname == "check" for u in resize.uses[0].uses) and bool(resize.uses[0].uses)


def _fixed(new: Instr):
    """The `list_resize` that sets the length of the list `new` for good, and the `list_len`s
    of it, or None when something else may change the length."""
    resize, lens = None, []
    for u in new.uses:
        op = u.opname
        if op == "list_resize" and u.operands[0] is new and (resize is None or resize is u):
            resize = u
        elif op == "list_len":
            lens.append(u)
        elif op == "list_get" or (op == "list_set" and u.operands[1] is not new) or op == "ret":
            pass
        else:
            return None
    if resize is None or not lens or not _checked(resize):
        return None
    return resize, lens


def _after(a: Instr, b: Instr, dom: DomTree) -> bool:
    """Whether `a` runs before `b` on every path to `b` (a strictly dominates b)."""
    if a.block is b.block:
        instrs = a.block.instrs
        return instrs.index(a) < instrs.index(b)
    return dom.dominates(a.block, b.block)


def run(func: Function, stats: Counter | None = None) -> bool:
    stats = stats if stats is not None else Counter()
    # one pass over the instructions, comparing op objects: this runs on every function
    found = [f for b in func.blocks for i in b.instrs if i.op is _LIST_NEW and (f := _fixed(i))]
    if not found:
        return False
    dom = DomTree(func)
    forwarded = 0
    for resize, lens in found:
        for n in lens:
            if _after(resize, n, dom):
                replace_all_uses_with(n, resize.operands[1])
                n.erase()
                forwarded += 1
    stats["forwarded"] += forwarded
    return forwarded > 0
