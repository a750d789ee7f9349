"""versioning: loop versioning for the bounds checks that a loop's range decides.

Does: for each innermost counted loop (`_counted`: the shape the frontend gives ``for i in
range(a, b)`` and ``range(a, b, -1)``: an i64 header parameter ``%i`` stepped by one on
every back edge, tested by the header's ``cbr (cmp.lt %i, %n)`` or ``cmp.gt``, entered by
one edge, left only through the header), it finds the `check`s of the body whose condition
is an ``or`` of *leaves* that the range decides (`_leaf`):

- a loop-invariant value (true means the check fails at the first iteration);
- ``cmp.lt %x, 0`` or ``cmp.ge %x, %B``, with ``%x`` affine in ``%i`` (C * %i + D for
  constants C >= 1 and D, through adds, subtracts and multiplications by constants and
  through NumPy's negative-index fix-up ``select (cmp.lt %y, 0), _, %y`` of an affine
  ``%y``) and ``%B`` invariant and >= 0 (a `dim`, a constant): an index check of
  ``a[i + 1]``, ``u[t, k]``, ``a[2 * i]`` against any array's length.

When some of them involve ``%i``, it copies the loop. A guard on the entry edge (at the end
of the block it leaves, or in a block of its own when that block ends in a ``cbr``) — every
such leaf is false on every iteration — sends control to the copy, where those checks are
deleted and their leaves (and the fix-ups' conditions) are false; otherwise the original
loop runs, checks and all, so an IndexError is raised at the same iteration, after the
same side effects and with the same message as before. ``b[i]`` in a loop over
``range(len(a))`` thus costs one comparison per run of the loop, not one per element.

The guard (`_guard`) speaks of the iterations lo <= %i <= hi (counting up lo = start, hi =
%n - 1; down lo = %n + 1, hi = start; when the loop runs no iteration, the guard's value
does not matter, nor does the wrap of %n -/+ 1). Each affine form C * %i + D must lie in
[0, 2**63): C * lo + D >= 0, one comparison of lo with a constant for all forms; and
C * hi + D < B for each length B, one comparison of hi with ``B - e`` (``(B - e) // C``
for C > 1; e a constant) per length and C, or with a constant when no length bounds the
form. The loop's wrapping arithmetic then computes each form exactly, so its value is the
one the guard speaks of. The guard's own arithmetic is exact except where ``B - e`` wraps
(B within 2**41 of 2**63), which gives a limit below -2**42, under the hi of any loop that
runs and meets C * lo + D >= 0 (hi >= lo >= -2**40): a wrap makes the guard false, never
true.

Limits: innermost loops of at most `_MAX_INSTRS` instructions, copied only when a check
depending on %i goes. A loop entered from a ``cbr`` whose targets are both loop headers is
left alone: that is the shape versioning leaves, so a second run changes nothing. Ctrl-C:
`script.ir.interrupts` runs after the whole pipeline and finds two counted loops, each
polled (or not, when nested in another loop) by its rule for such loops.

Assumes: verified IR. Preserves: behaviour; the original loop's blocks and values (uses of
its header's values after the loop go through new parameters of the exit block). Stats:
``loops`` versioned, ``checks`` deleted from the copies.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from script.ir import types as T
from script.ir.clone import copy_region
from script.ir.core import (Block, BlockParam, Const, Function, Instr, Value,
                            replace_all_uses_with, set_terminator)
from script.ir.dom import DomTree, Loop, find_loops
from script.ir.passes._cfg import retarget

_MAX_INSTRS = 400        # larger loops are not copied: compile time grows with the copy
_LIMIT = 1 << 40         # |D| of an affine index: offsets, so sums of them stay exact
_SCALE = 1 << 20         # |C| of an affine index
_MAX = (1 << 63) - 1


@dataclass
class _Counted:
    """A counted loop: ``%i`` (parameter `k` of `header`) runs from `start`, by one up to
    below `n` (`up`) or down to above it."""

    loop: Loop
    blocks: list          # the loop's blocks in the function's order
    pred: Block           # the loop is entered by edge `edge` of `pred` alone
    edge: int
    k: int
    i: BlockParam
    n: Value
    start: Value
    up: bool


@dataclass
class _Plan:
    """What the guard must establish, and what the copy may then drop."""

    forms: set = field(default_factory=set)          # (C, D): 0 <= C*i + D < 2**63
    below: dict = field(default_factory=dict)        # (id(B), C) -> (B, largest D): C*i + D < B
    invariants: dict = field(default_factory=dict)   # id -> value that must be false
    false: dict = field(default_factory=dict)        # id -> instruction false in the copy
    checks: list = field(default_factory=list)       # checks the copy drops

    def add(self, need: tuple) -> None:
        kind, *what = need
        if kind == "form":
            self.forms.add(what[0])
        elif kind == "below":
            bound, scale, offset = what
            old = self.below.get((id(bound), scale))
            self.below[(id(bound), scale)] = (bound, offset if old is None else max(old[1], offset))
        elif kind == "invariant":
            self.invariants[id(what[0])] = what[0]
        else:
            self.false[id(what[0])] = what[0]

    def has_length_for(self, form) -> bool:
        """Whether some C * i + D' < B with D' >= D bounds `form` (then below 2**63 too)."""
        return any(scale == form[0] and top >= form[1]
                   for (_, scale), (_, top) in self.below.items())


def _invariant(v: Value, loop: Loop) -> bool:
    if isinstance(v, Const):
        return True
    block = v.block
    return block is not None and block not in loop.blocks


def _counted(func: Function, loop: Loop, headers: set) -> _Counted | None:
    header = loop.header
    if any(b is not header and b in headers for b in loop.blocks):
        return None                                   # not innermost
    if sum(len(b.instrs) for b in loop.blocks) > _MAX_INSTRS:
        return None
    term = header.terminator
    if term is None or term.opname != "cbr":
        return None
    body, exit_ = term.succs
    # The body's only way in is the header's test, so %i is in range in every block but
    # the header; and the header is the only way out.
    if body not in loop.blocks or exit_ in loop.blocks or body.preds != [header]:
        return None
    if any(s not in loop.blocks for b in loop.blocks if b is not header for s in b.succs):
        return None
    cond = term.operands[0]
    if not (isinstance(cond, Instr) and cond.opname == "cmp" and cond.attr in ("lt", "gt")):
        return None
    i, n = cond.operands
    if not (isinstance(i, BlockParam) and i.block is header and i.type == T.I64
            and _invariant(n, loop)):
        return None
    edges = [(p, s_i) for p in dict.fromkeys(header.preds) if p not in loop.blocks
             for s_i, s in enumerate(p.terminator.succs) if s is header]
    if len(edges) != 1:
        return None
    pred, edge = edges[0]
    if pred.terminator.opname == "cbr" and all(s in headers for s in pred.terminator.succs):
        return None                                   # a versioned pair: see above
    k = header.params.index(i)
    step = 1 if cond.attr == "lt" else -1
    for latch in set(loop.latches):
        lt = latch.terminator
        for s_i, s in enumerate(lt.succs):
            if s is not header:
                continue
            arg = lt.succ_args(s_i)[k]
            # Stepped in the body, where %i is in range: the step cannot wrap.
            if not (isinstance(arg, Instr) and arg.opname == "add" and arg.operands[0] is i
                    and isinstance(arg.operands[1], Const) and arg.operands[1].value == step
                    and arg.block is not header and arg.block in loop.blocks):
                return None
    blocks = [b for b in func.blocks if b in loop.blocks]
    start = pred.terminator.succ_args(edge)[k]
    return _Counted(loop, blocks, pred, edge, k, i, n, start, step == 1)


def _is_zero(v: Value) -> bool:
    return isinstance(v, Const) and v.value == 0


def _affine(v: Value, c: _Counted, fixups: list) -> tuple[int, int] | None:
    """(C, D) when `v` is C * %i + D modulo 2**64 in the body; appends to `fixups` each
    negative-index fix-up passed through, as (its condition, the form it tests)."""
    if v is c.i:
        return 1, 0
    if not isinstance(v, Instr) or v.block is c.loop.header or v.block not in c.loop.blocks:
        return None
    if v.opname == "select":
        cond, _, y = v.operands       # y itself when y >= 0, which the guard makes so
        if not (isinstance(cond, Instr) and cond.opname == "cmp" and cond.attr == "lt"
                and cond.operands[0] is y and _is_zero(cond.operands[1])
                and cond.block is not c.loop.header and cond.block in c.loop.blocks):
            return None
        form = _affine(y, c, fixups)
        if form is not None:
            fixups.append((cond, form))
        return form
    if v.opname not in ("add", "sub", "mul"):
        return None
    x, y = v.operands
    if v.opname != "sub" and isinstance(x, Const):
        x, y = y, x
    if not isinstance(y, Const):
        return None
    form = _affine(x, c, fixups)
    if form is None:
        return None
    scale, offset = form
    if v.opname == "mul":
        scale, offset = scale * y.value, offset * y.value
    else:
        offset += y.value if v.opname == "add" else -y.value
    return (scale, offset) if abs(scale) <= _SCALE and abs(offset) <= _LIMIT else None


def _leaves(cond: Value, out: list) -> list:
    if isinstance(cond, Instr) and cond.opname == "or" and cond.type == T.BOOL:
        for v in cond.operands:
            _leaves(v, out)
    else:
        out.append(cond)
    return out


def _leaf(v: Value, c: _Counted) -> list | None:
    """What makes leaf `v` false on every iteration (`_Plan.add` items), or None when the
    range cannot decide it."""
    if isinstance(v, Const):
        return [] if v.value is False else None
    if _invariant(v, c.loop):
        return [("invariant", v)]
    if not (isinstance(v, Instr) and v.opname == "cmp" and v.block is not c.loop.header):
        return None
    x, bound = v.operands
    if v.attr == "lt" and _is_zero(bound):
        bound = None
    elif not (v.attr == "ge" and _invariant(bound, c.loop) and _nonnegative(bound)):
        return None
    fixups = []
    form = _affine(x, c, fixups)
    if form is None:
        return None
    forms = [form] + [f for _, f in fixups]
    if any(scale < 1 for scale, _ in forms) or not _feasible(form, bound, c) \
            or not all(_feasible(f, None, c) for f in forms):
        return None
    needs = [("form", f) for f in forms] + [("false", v)] + [("false", cond) for cond, _ in fixups]
    return needs + ([("below", bound, *form)] if bound is not None else [])


def _nonnegative(v: Value) -> bool:
    return isinstance(v, Const) and v.value >= 0 or isinstance(v, Instr) and v.opname == "dim"


def _feasible(form, bound, c: _Counted) -> bool:
    """False when constants show the guard for `form` (< `bound`) could never hold."""
    scale, offset = form
    lo_base, lo_off, hi_base, hi_off = _ends(c)
    if isinstance(lo_base, Const) and scale * (lo_base.value + lo_off) + offset < 0:
        return False
    return not (isinstance(hi_base, Const) and isinstance(bound, Const)
                and scale * (hi_base.value + hi_off) + offset >= bound.value)


def _ends(c: _Counted):
    """(lo_base, lo_off, hi_base, hi_off): the range is lo_base + lo_off <= %i <= hi_base +
    hi_off whenever the loop runs."""
    return (c.start, 0, c.n, -1) if c.up else (c.n, 1, c.start, 0)


def _plan(c: _Counted) -> _Plan | None:
    """The checks the copy can drop and what the guard needs for them; None when no check
    that depends on %i can go."""
    plan = _Plan()
    involves_i = False
    for block in c.blocks:
        if block is c.loop.header:                  # where %i may be past the range
            continue
        for instr in block.instrs:
            if instr.opname != "check":
                continue
            needs = [_leaf(leaf, c) for leaf in _leaves(instr.operands[0], [])]
            if None in needs:
                continue
            for need in (n for leaf in needs for n in leaf):
                plan.add(need)
                involves_i = involves_i or need[0] == "form"
            plan.checks.append(instr)
    return plan if involves_i else None


def _guard(pre: Block, c: _Counted, plan: _Plan, loc) -> Value:
    """Instructions at the end of `pre` computing whether the plan holds."""

    def emit(op, args, t=T.I64, attr=None):
        return pre.insert_before_terminator(Instr(op, args, t, attr, loc))

    def i64(v):
        return Const(v, T.I64)

    lo_base, lo_off, hi_base, hi_off = _ends(c)
    oks = []
    if not isinstance(lo_base, Const):              # (a constant passed `_feasible`)
        low = max(-(d // s) for s, d in plan.forms)     # lo >= ceil(-D / C) for every form
        oks.append(emit("cmp", [lo_base, i64(low - lo_off)], T.BOOL, "ge"))
    cap = min(((_MAX - d) // s for s, d in plan.forms if not plan.has_length_for((s, d))),
              default=_MAX)
    if cap - hi_off < _MAX:                         # hi * C + D <= 2**63 - 1 without a length
        oks.append(emit("cmp", [hi_base, i64(cap - hi_off)], T.BOOL, "le"))
    for (_, scale), (bound, offset) in plan.below.items():
        # hi * C + D < B  <=>  hi_base <= (B - e) // C
        e = offset + 1 + scale * hi_off
        limit = bound if e == 0 else emit("sub", [bound, i64(e)]) if e > 0 else \
            emit("add", [bound, i64(-e)])
        if scale > 1:
            limit = emit("floordiv", [limit, i64(scale)])
        oks.append(emit("cmp", [hi_base, limit], T.BOOL, "le"))
    for v in plan.invariants.values():
        oks.append(emit("not", [v], T.BOOL))
    ok = oks[0] if oks else Const(True, T.BOOL)
    for other in oks[1:]:
        ok = emit("and", [ok, other], T.BOOL)
    return ok


def _version(func: Function, c: _Counted, plan: _Plan) -> None:
    loop, header = c.loop, c.loop.header
    exit_ = header.terminator.succs[1]
    args = list(c.pred.terminator.succ_args(c.edge))
    pre = c.pred
    if pre.terminator.opname != "br":               # the guard needs a block of its own
        pre = func.add_block("guard")
        func.blocks.pop()
        func.blocks.insert(func.blocks.index(header), pre)
        retarget(c.pred, c.edge, pre, [])
    vmap: dict = {}
    copies = copy_region(func, c.blocks, func.blocks.index(header), vmap)
    fast = copies[c.blocks.index(header)]
    # Values of the header used after the loop now arrive through the exit block.
    for v in [*header.params, *header.instrs]:
        users = [u for u in v.uses if u.block not in loop.blocks]
        if not users:
            continue
        p = exit_.add_param(v.type, v.loc, v.name)
        header.terminator.add_succ_arg(1, v)
        fast.terminator.add_succ_arg(1, vmap[id(v)])
        for u in users:
            for n, op in enumerate(u.operands):
                if op is v:
                    u.set_operand(n, p)
    loc = header.terminator.loc
    ok = _guard(pre, c, plan, loc)
    set_terminator(pre, "cbr", [ok, *args, *args], [fast, header], [len(args), len(args)], loc)
    for check in plan.checks:
        vmap[id(check)].erase()
    for v in plan.false.values():
        replace_all_uses_with(vmap[id(v)], Const(False, T.BOOL))


def _exit_ok(c: _Counted) -> bool:
    """Whether header values used after the loop can go through the exit block: it must be
    entered from the header alone (it always is when such uses exist: they need it)."""
    header = c.loop.header
    exit_ = header.terminator.succs[1]
    used = any(u.block not in c.loop.blocks for v in [*header.params, *header.instrs]
               for u in v.uses)
    return not used or exit_.preds == [header]


def run(func: Function, stats: Counter | None = None) -> bool:
    stats = stats if stats is not None else Counter()
    changed = False
    while True:                 # each round versions one loop, then looks at the new CFG
        loops = find_loops(func, DomTree(func))
        headers = {loop.header for loop in loops}
        for loop in loops:
            c = _counted(func, loop, headers)
            plan = _plan(c) if c is not None else None
            if plan is not None and _exit_ok(c):
                _version(func, c, plan)
                stats["loops"] += 1
                stats["checks"] += len(plan.checks)
                changed = True
                break
        else:
            return changed
