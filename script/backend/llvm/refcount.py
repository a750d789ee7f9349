"""Where the lowering counts array and list references (memory.py, lists.py): a plan computed from SSA liveness.

Ownership. Every SSA value of a managed type (an array, or a tuple holding one) *owns* one
reference, except the function's parameters, which are *borrowed* (the caller holds them
for the call), and the views of borrowed values (`_borrowed`), which the same holding keeps
alive: so a function that only views its arguments counts nothing. A value gets its
reference from its definition:

- ``alloc``, ``list_new``, ``str_new``, ``str_char``, ``str_py`` and ``call`` return a new reference; ``tuple`` takes over the references its
  operands give it (see consuming uses); so do ``catch`` and ``exception`` (an `exc` holds
  its message's strs, or CPython's exception object: llvm.caught);
- every other instruction with a managed result (``view``, ``transpose``, ``extract``,
  ``select``, ``list_get``, ...) shares memory with an operand, so it counts one more
  (`incref` right after it); a ``list_get`` element is never borrowed from a borrowed list
  (the list may drop it while it is in use), except a row used briefly while nothing can
  drop it (`_is_borrowed_row`);
- a block parameter receives a reference from each edge that passes it.

Uses. ``ret``, ``reraise`` and ``tuple`` operands, ``str_concat``'s first operand and branch arguments
are *consuming* (``list_set`` borrows its value: lists.replace_item counts it): they hand a
reference on. A consuming use that is the value's last use hands over the value's own
reference; otherwise (the value is live afterwards, used twice by the same instruction, or
borrowed) it counts one more first. Every other use only reads. An owned value is
released (`decref`) right after its last use on every path: after the last instruction
that uses it in a block it does not outlive, on an edge to a successor where it is dead,
or at once when it is never used.

Exceptions. When an instruction raises (``check``, ``alloc``, a ``call`` of a raising
function), every reference held at that point is released on the way out: `cleanup` lists
them (values live across the instruction, and its operands whose last use it is).

Order. At one point, all increfs come before all decrefs: a view made from an array's last
use must count its reference before the array lets go of the same buffer.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from script.ir.core import Const, Function, Instr, Value, reachable_blocks
from script.backend.llvm.counted import managed

# Ops that take over an operand's reference and look at its count (`str_concat` appends in
# place to a string only it holds): the increfs of a value live after them come first.
_READS_COUNT = ("str_concat",)


@dataclass
class Plan:
    """`after[id(i)]`: (kind, value) pairs to emit after instruction `i`; `before[id(i)]`:
    before it (a terminator); `edge[(id(block), k)]`: on the k-th edge of the block's
    terminator; `start[id(block)]`: after its parameters; `cleanup[id(i)]`: owned values to
    release when `i` raises."""

    after: dict = field(default_factory=dict)
    before: dict = field(default_factory=dict)
    edge: dict = field(default_factory=dict)
    start: dict = field(default_factory=dict)
    cleanup: dict = field(default_factory=dict)


def plan(func: Function, may_raise) -> Plan | None:
    """The reference counting of `func`, or None when it has no managed values.
    `may_raise(instr)` tells whether a (non-terminator) instruction can raise."""
    if not _has_managed(func):
        return None
    blocks = reachable_blocks(func)
    live_in, live_out = _liveness(blocks)
    borrowed = _borrowed(func, blocks, live_out)
    p = Plan()
    for block in blocks:
        _plan_block(p, block, live_in, live_out[block], borrowed, may_raise)
    return p


def _borrowed(func: Function, blocks, live_out) -> set:
    """The parameters, constant arrays, and every value that only views memory a borrowed value holds (a
    view, transpose, reshape or tuple element of one; a select of two): the caller keeps
    that memory alive for the whole call, so these need no counting at all. And the elements
    read from lists that `_is_borrowed_row` finds safe to use uncounted."""
    borrowed = set(func.params)
    positions: dict = {}
    for block in blocks:                # reverse postorder: operands before their uses
        for k, i in enumerate(block.instrs):
            if i.opname in ("const_array", "str_const"):   # nobody owns it: nothing to count
                borrowed.add(i)
                continue
            if i.opname == "list_get" and managed(i.type):
                if _is_borrowed_row(i, k, block, live_out, borrowed, positions):
                    borrowed.add(i)
                continue    # (else a list's element may be replaced and released while in use)
            if not (i.has_result and managed(i.type)) or i.op.fresh:
                continue
            sources = i.operands[1:] if i.opname == "select" else i.operands[:1]
            if sources and all(v in borrowed for v in sources):
                borrowed.add(i)
    return borrowed


_ROW_USES = ("list_len", "list_get", "list_set", "list_resize")


def _is_borrowed_row(i: Instr, k: int, block, live_out: dict, borrowed: set, positions: dict) -> bool:
    """Whether element `i` = ``list_get %l, ...`` (at position `k` of `block`) can go uncounted:
    the list's slot keeps it alive as long as (1) every use of `i` (and of the elements of a
    tuple `i`) is in this block or in a successor entered only from it (the other side of a
    short-circuit `and`: ``entry[0] == h and entry[1] == key``), and only reads it (no
    consuming use, nothing that views it into another value), (2) nothing from `i` to its
    last use on that path may overwrite or drop list elements that hold references (a
    `list_set` or `list_resize` of such a list, a call), and (3) `%l` stays alive until then:
    a parameter (or a view of one), or used again at or after that point, or live out of
    the block of that use. Row reads in a table's inner loop (`dp[i - 1][j]`) and the
    probes of a table of strs then count nothing."""
    last = {block: k}              # the last use in each block
    uses = list(i.uses)
    while uses:
        u = uses.pop()
        where = u.block
        if u.is_terminator:
            return False
        if u.opname == "extract":
            uses.extend(u.uses)     # (borrowed too when `i` is: _borrowed)
        elif u.opname not in _ROW_USES and u.has_result and managed(u.type):
            return False
        if where is not block and set(where.preds) != {block}:
            return False
        last[where] = max(last.get(where, -1), _position(positions, u))
    after = block.instrs[k + 1:] if len(last) > 1 else block.instrs[k + 1:last[block] + 1]
    spans = [after] + [b.instrs[:at + 1] for b, at in last.items() if b is not block]
    if any(x.opname == "call" or x.opname in ("list_set", "list_resize") and managed(x.operands[0].type.elem)
           for span in spans for x in span):
        return False
    lst = i.operands[0]
    if lst in borrowed and getattr(lst, "opname", None) != "list_get":
        return True
    return all(lst in live_out[b] or any(u.block is b and _position(positions, u) >= at for u in lst.uses)
               for b, at in last.items())


def _position(positions: dict, i: Instr) -> int:
    """The index of `i` in its block (`positions` caches each block's table)."""
    table = positions.get(i.block)
    if table is None:
        table = positions[i.block] = {id(x): n for n, x in enumerate(i.block.instrs)}
    return table[id(i)]


def _has_managed(func: Function) -> bool:
    return (any(managed(t) for t in func.param_types)
            or any(i.has_result and managed(i.type) for i in func.instructions()))


def _managed_operands(i: Instr) -> list[Value]:
    return [v for v in i.operands if not isinstance(v, Const) and managed(v.type)]


def _liveness(blocks):
    """Managed values live into and out of each block (block parameters are defined at the
    top of their block; branch arguments are used by the branch)."""
    use, defs = {}, {}
    for block in blocks:
        d = {p for p in block.params if managed(p.type)}
        u = set()
        for i in block.instrs:
            for v in _managed_operands(i):
                if v not in d:
                    u.add(v)
            if i.has_result and managed(i.type):
                d.add(i)
        use[block], defs[block] = u, d
    live_in = {b: set(use[b]) for b in blocks}
    live_out = {b: set() for b in blocks}
    changed = True
    while changed:
        changed = False
        for block in reversed(blocks):
            out = set()
            for s in block.instrs[-1].succs:
                out |= live_in.get(s, set())
            if out != live_out[block]:
                live_out[block] = out
                new_in = use[block] | (out - defs[block])
                if new_in != live_in[block]:
                    live_in[block] = new_in
                    changed = True
    return live_in, live_out


def _plan_block(p: Plan, block, live_in, live_out: set, borrowed: set, may_raise) -> None:
    owned = lambda v: v not in borrowed     # noqa: E731
    term = block.instrs[-1]
    # Values holding a reference after the terminator's operands are read.
    live = {v for v in live_out if owned(v)}
    if term.opname in ("br", "cbr"):
        held = live | {v for v in _managed_operands(term) if owned(v)}
        for k, succ in enumerate(term.succs):
            args = Counter(v for v in term.succ_args(k) if not isinstance(v, Const) and managed(v.type))
            ops = []
            for v in held | set(args):
                need = args[v] + (1 if owned(v) and v in live_in[succ] else 0)
                delta = need - (1 if owned(v) else 0)
                ops += [("incref", v)] * max(delta, 0) + [("decref", v)] * max(-delta, 0)
            if ops:
                p.edge[(id(block), k)] = _ordered(ops)
        live = held
    elif term.opname == "raise":
        # A message's strs are read when the exception is recorded, then released with it.
        live = {v for v in _managed_operands(term) if owned(v)}
        if live:
            p.cleanup[id(term)] = list(live)
    elif term.opname in ("ret", "reraise") and term.operands and managed(term.operands[0].type):
        v = term.operands[0]
        if owned(v):
            live = {v}
        else:
            p.before[id(term)] = [("incref", v)]
    for i in reversed(block.instrs[:-1]):
        ops = []
        if i.has_result and managed(i.type) and owned(i):
            if i in live:
                live.discard(i)
                if not i.op.fresh:
                    ops.append(("incref", i))
            elif i.op.fresh:
                ops.append(("decref", i))      # never used: release at once
        operands = Counter(_managed_operands(i))
        if may_raise(i):
            p.cleanup[id(i)] = [v for v in live | set(operands) if owned(v)]
        first = []                          # counted before `i`: it reads the count
        for v, n in operands.items():
            consumed = n if i.op.consumes else _stored(i, v)
            if owned(v) and v not in live:
                live.add(v)
                if consumed:
                    consumed -= 1          # the last use hands its reference on
                else:
                    ops.append(("decref", v))
            (first if i.opname in _READS_COUNT else ops).extend([("incref", v)] * consumed)
        if ops:
            p.after[id(i)] = _ordered(ops)
        if first:
            p.before[id(i)] = first
    dead_params = [("decref", q) for q in block.params
                   if managed(q.type) and owned(q) and q not in live]
    if dead_params:
        p.start[id(block)] = dead_params


def _stored(i: Instr, v: Value) -> int:
    """How many references `i` takes over from `v` other than ops that consume their operands (`OpInfo.consumes`):
    `str_concat`'s first operand (it may append in place)."""
    if i.opname == "str_concat":
        return 1 if i.operands[0] is v else 0
    return 0


def _ordered(ops):
    return [op for op in ops if op[0] == "incref"] + [op for op in ops if op[0] == "decref"]
