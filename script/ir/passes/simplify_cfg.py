"""simplify_cfg: make the control-flow graph smaller without changing what it computes.

Does, repeatedly until nothing changes (at most `ROUNDS` rounds):

- deletes unreachable blocks;
- ``cbr %c, bb1(%x), bb1(%x)`` (both edges the same block and arguments) becomes ``br``;
- drops trivial block parameters: when every edge passes the same value (or the parameter
  itself, around a loop), the parameter is that value;
- threads jumps through empty blocks: an edge into a block that holds only
  ``br bb3(args)`` goes straight to bb3 (the block's parameters, used only by that `br`,
  are replaced by the arguments of the edge);
- threads known branches: an edge into a block that holds only ``cbr %p, ...`` on one of
  its parameters goes straight to the successor the edge decides, where the value it passes
  for %p is a constant or the condition of the predecessor's own ``cbr`` (true along its
  first edge, false along its second). ``while j >= 0 and b[j] > x`` is such a block (the
  ``and``'s merge): the edge on which ``j >= 0`` failed leaves the loop at once, so the
  loop body is dominated by the block where ``j >= 0`` holds (bce's countdown needs that).
  Not into a loop's header (``flag = True; while flag:``): an edge past it would give the
  loop a second entry;
- merges a block into its only predecessor when that predecessor's terminator is a `br`
  to it.

Assumes: verified IR. Preserves: every instruction other than terminators, their order
within what becomes one block, the entry block (it stays first and keeps its parameters).
Stats: ``unreachable``, ``cbr``, ``params``, ``threaded``, ``decided``, ``merged``.
"""

from __future__ import annotations

from collections import Counter

from script.ir.core import Block, Const, Function, Value, replace_all_uses_with, set_terminator
from script.ir.dom import DomTree
from script.ir.passes._cfg import remove_unreachable_blocks, retarget, take_edge

ROUNDS = 16


def _same(a: Value, b: Value) -> bool:
    return a is b or (isinstance(a, Const) and isinstance(b, Const) and a.key() == b.key())


def _edges_into(block: Block):
    """(predecessor, successor index) for each edge into `block`."""
    for pred in dict.fromkeys(block.preds):
        for k, s in enumerate(pred.instrs[-1].succs):
            if s is block:
                yield pred, k


def _fold_same_target(func: Function, stats: Counter) -> bool:
    changed = False
    for b in func.blocks:
        t = b.instrs[-1]
        if t.op.name != "cbr" or t.succs[0] is not t.succs[1]:
            continue
        if all(_same(x, y) for x, y in zip(t.succ_args(0), t.succ_args(1))):
            take_edge(b, 0)
            stats["cbr"] += 1
            changed = True
    return changed


def _drop_trivial_params(func: Function, stats: Counter) -> bool:
    changed = False
    for b in func.blocks[1:]:
        if not b.params:
            continue
        edges = list(_edges_into(b))
        for index in reversed(range(len(b.params))):
            p = b.params[index]
            incoming = [pred.instrs[-1].succ_args(k)[index] for pred, k in edges]
            others = [v for v in incoming if v is not p]
            if not others or not all(_same(v, others[0]) for v in others):
                continue
            replace_all_uses_with(p, others[0])
            b.remove_param(index)
            stats["params"] += 1
            changed = True
    return changed


def _is_forwarder(b: Block) -> bool:
    """Only a `br` to another block, and its parameters used by nothing but that `br`."""
    if len(b.instrs) != 1 or b.instrs[0].opname != "br" or b.instrs[0].succs[0] is b:
        return False
    return all(u is b.instrs[0] for p in b.params for u in p.uses)


def _thread_jumps(func: Function, stats: Counter) -> bool:
    changed = False
    for b in func.blocks[1:]:
        if not _is_forwarder(b):
            continue
        br = b.terminator
        target = br.succs[0]
        for pred, k in list(_edges_into(b)):
            passed = dict(zip(b.params, pred.terminator.succ_args(k)))
            args = [passed.get(a, a) for a in br.succ_args(0)]
            retarget(pred, k, target, args)
            stats["threaded"] += 1
            changed = True
    return changed


def _known_on_edge(pred: Block, k: int, v: Value) -> bool | None:
    """The truth of bool `v` along edge `k` of `pred`'s terminator, where it is known."""
    if isinstance(v, Const):
        return bool(v.value)
    term = pred.terminator
    if term.opname == "cbr" and term.operands[0] is v and term.succs[0] is not term.succs[1]:
        return k == 0
    return None


def _thread_known_branches(func: Function, stats: Counter) -> bool:
    changed = False
    dom = None
    for b in func.blocks[1:]:
        if len(b.instrs) != 1 or b.instrs[0].opname != "cbr":
            continue
        cbr = b.instrs[0]
        cond = cbr.operands[0]
        if cond not in b.params or b in cbr.succs or any(u is not cbr for p in b.params for u in p.uses):
            continue
        dom = dom or DomTree(func)
        if any(dom.dominates(b, pred) for pred in b.preds):
            continue            # a loop's header: an edge sent past it would enter the loop twice
        index = b.params.index(cond)
        for pred, k in list(_edges_into(b)):
            passed = pred.terminator.succ_args(k)
            known = _known_on_edge(pred, k, passed[index])
            if known is None:
                continue
            taken = 0 if known else 1
            mapping = dict(zip(b.params, passed))
            retarget(pred, k, cbr.succs[taken], [mapping.get(a, a) for a in cbr.succ_args(taken)])
            stats["decided"] += 1
            changed = True
            dom = None
    return changed


def _merge_into_pred(func: Function, stats: Counter) -> bool:
    changed = False
    for b in list(func.blocks[1:]):
        if len(b.preds) != 1:
            continue
        pred = b.preds[0]
        br = pred.terminator
        if pred is b or br.opname != "br":
            continue
        for p, a in zip(b.params, br.succ_args(0)):
            replace_all_uses_with(p, a)
        br.erase()
        term = b.terminator
        moved, b.instrs = b.instrs[:-1], [term]
        for i in moved:
            pred.append(i)
        set_terminator(pred, term.opname, list(term.operands), term.succs, term.succ_nargs,
                       loc=term.loc, attr=term.attr)
        term.erase()
        b.params = []
        func.remove_block(b)
        stats["merged"] += 1
        changed = True
    return changed


def run(func: Function, stats: Counter | None = None) -> bool:
    stats = stats if stats is not None else Counter()
    changed = False
    for _ in range(ROUNDS):
        removed = remove_unreachable_blocks(func)
        stats["unreachable"] += removed
        step = removed > 0
        for simplify in (_fold_same_target, _drop_trivial_params, _thread_jumps,
                         _thread_known_branches, _merge_into_pred):
            step = simplify(func, stats) or step
        if not step:
            break
        changed = True
    return changed
