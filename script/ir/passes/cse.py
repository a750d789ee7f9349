"""cse: dominator-based common subexpression elimination of pure instructions.

Does: walks the dominator tree from the entry with a scoped table of the pure
instructions seen on the way down; an instruction equal to one in the table (same op,
attribute, result type and operands, constants compared by `Const.key`, operands of
commutative ops in either order; not a `str_const` or a tuple holding references) is replaced by the dominating one and erased. Because
the table holds only instructions of dominating blocks, every replacement dominates the
uses it takes over.

Assumes: verified IR. Preserves: the CFG, impure instructions, block parameters (equal
parameters are simplify_cfg's business). Stats: ``eliminated``.
"""

from __future__ import annotations

from collections import Counter

from script.ir import types as T
from script.ir.core import Const, Function, Instr, replace_all_uses_with
from script.ir.dom import DomTree

# `OpInfo.commutative`: ops whose two operands may be swapped whatever their type. min/max
# are commutative only on ints and bools (min(nan, x) is not min(x, nan)).
_COMMUTATIVE_PREDS = {"eq", "ne"}
# Values made afresh that hold references (a str constant, a tuple holding a str) are not
# shared: the earlier one would stay alive to the later use, and every raising instruction
# between needs its release on its error path (two reads of a global table of a few hundred
# str-keyed tuples made ~10^5 releases; minutes of LLVM). Making one again is cheap.
_MADE = frozenset(("str_const", "tuple"))


def _is_commutative(i: Instr) -> bool:
    if i.op.commutative:
        return True
    if i.opname in ("min", "max"):
        return not isinstance(i.operands[0].type, T.FloatType)
    return i.opname == "cmp" and i.attr in _COMMUTATIVE_PREDS


def _key(i: Instr):
    """A hashable key equal for interchangeable instructions, or None if `i` is not pure."""
    op = i.op
    if not op.pure or op.terminator or not i.has_result:
        return None
    if i.opname in _MADE and T.holds_references(i.type):
        return None
    operands = tuple(("const", v.key()) if isinstance(v, Const) else ("value", id(v))
                     for v in i.operands)
    if _is_commutative(i):
        operands = frozenset(operands)
    return (i.opname, i.attr, i.type, operands)


def run(func: Function, stats: Counter | None = None) -> bool:
    stats = stats if stats is not None else Counter()
    dom = DomTree(func)
    table: dict = {}
    eliminated = 0
    stack = [(dom.order[0], None)]          # (block, None) enters; (None, keys) leaves
    while stack:
        block, added = stack.pop()
        if block is None:
            for k in added:
                del table[k]
            continue
        added = []
        for i in list(block.instrs):
            k = _key(i)
            if k is None:
                continue
            twin = table.get(k)
            if twin is None:
                table[k] = i
                added.append(k)
                continue
            replace_all_uses_with(i, twin)
            i.erase()
            eliminated += 1
        stack.append((None, added))
        stack.extend((c, None) for c in reversed(dom.children[block]))
    stats["eliminated"] += eliminated
    return eliminated > 0
