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
  ``a[i + 1]``, ``u[t, k]``, ``a[2 * i]`` against any array's length;
- the same of ``%i + D + E``, E the sum of one or two i64s defined before the loop
  (``img[i + u, j + v]`` in a loop over ``v``, ``x[i + k + t]``; `_shifted_guard`).

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
from script.ir.passes._cfg import defined_outside, insert_block, retarget

_MAX_INSTRS = 400        # larger loops are not copied: compile time grows with the copy
_LIMIT = 1 << 40         # |D| of an affine index: offsets, so sums of them stay exact
_SCALE = 1 << 20         # |C| of an affine index
_MAX = (1 << 63) - 1
_SHIFTS = 2              # loop-invariant terms of an index (``i + k + t``)


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
    stepped: tuple | None = None    # what `_trip_count` says of a stepped range's ends


@dataclass
class _Plan:
    """What the guard must establish, and what the copy may then drop."""

    forms: set = field(default_factory=set)          # (C, D): 0 <= C*i + D < 2**63
    below: dict = field(default_factory=dict)        # (id(B), C) -> (B, largest D): C*i + D < B
    shifted: dict = field(default_factory=dict)      # ids of E -> [E, smallest D, largest D]: 0 <= i + D + sum(E)
    shifted_below: dict = field(default_factory=dict)   # (id(B), ids of E) -> (B, E, largest D): i + D + sum(E) < B
    invariants: dict = field(default_factory=dict)   # id -> value that must be false
    false: dict = field(default_factory=dict)        # id -> instruction false in the copy
    checks: list = field(default_factory=list)       # checks the copy drops
    stepped: dict = field(default_factory=dict)      # ids -> (start, stop, step, B or None, d)

    def add(self, need: tuple) -> None:
        kind, *what = need
        if kind == "stepped":       # (start, stop, step, B or None, offset)
            self.stepped[(*(id(v) for v in what[:4]), what[4])] = tuple(what)
        elif kind == "form" and what[0][2]:
            _, offset, e = what[0]
            old = self.shifted.setdefault(tuple(map(id, e)), [e, offset, offset])
            old[1], old[2] = min(old[1], offset), max(old[2], offset)
        elif kind == "form":
            self.forms.add(what[0][:2])
        elif kind == "below" and what[3]:
            bound, _, offset, e = what
            key = (id(bound), tuple(map(id, e)))
            old = self.shifted_below.get(key)
            self.shifted_below[key] = (bound, e, offset if old is None else max(old[2], offset))
        elif kind == "below":
            bound, scale, offset, _ = what
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
    if not (isinstance(i, BlockParam) and i.block is header and defined_outside(n, loop)
            and (i.type == T.I64 or i.type == T.U64 and cond.attr == "lt")):
        return None
    edges = [(p, s_i) for p in dict.fromkeys(header.preds) if p not in loop.blocks
             for s_i, s in enumerate(p.terminator.succs) if s is header]
    if len(edges) != 1:
        return None
    pred, edge = edges[0]
    if pred.terminator.opname == "cbr" and all(s in headers for s in pred.terminator.succs):
        return None                                   # a versioned pair: see above
    k = header.params.index(i)
    step = Const(1, i.type) if cond.attr == "lt" else Const(-1, i.type)
    for latch in set(loop.latches):
        lt = latch.terminator
        for s_i, s in enumerate(lt.succs):
            if s is not header:
                continue
            arg = lt.succ_args(s_i)[k]
            # Stepped in the body, where %i is in range: the step cannot wrap.
            if not (isinstance(arg, Instr) and arg.opname == "add" and arg.operands[0] is i
                    and isinstance(arg.operands[1], Const) and arg.operands[1].value == step.value
                    and arg.block is not header and arg.block in loop.blocks):
                return None
    blocks = [b for b in func.blocks if b in loop.blocks]
    start = pred.terminator.succ_args(edge)[k]
    if i.type == T.U64:
        # only the values of a stepped range (`_stepped`) count such a loop: %i itself
        # may exceed 2**63, where the signed guards below would not hold
        stepped = _trip_count(n) if _is_zero(start) else None
        if stepped is None:
            return None
        return _Counted(loop, blocks, pred, edge, k, i, n, start, True, stepped)
    return _Counted(loop, blocks, pred, edge, k, i, n, start, step.value == 1)


def _source(v: Value):
    """The i64 that `v` (a u64) is ``convert``ed from, or the i64 of a u64 constant; else
    None."""
    if isinstance(v, Instr) and v.opname == "convert" and v.operands[0].type == T.I64:
        return v.operands[0]
    if isinstance(v, Const):
        return Const(v.value - (1 << 64) if v.value >= 1 << 63 else v.value, T.I64)
    return None


def _trip_count(n: Value) -> tuple | None:
    """What `n` says of its range when it is the trip count the frontend computes for
    ``range(start, stop, step)`` with a step other than 1 and -1 (frontend
    ``trip_count``): ``select nonempty, (span - 1) // |step| + 1, 0``, the span a u64
    ``stop - start`` (up; ``convert stop`` for a start 0) or ``start - stop`` (down) for a
    constant step, or ``select (step > 0), up, down`` with ``|step|`` ``select (step > 0), step, 0 - step`` for a
    variable one. Returns ``("var", start, stop, step)``, or ``("const", x, y, |step|)``
    for a span ``x - y`` (`_stepped_value` orients it by the step's sign), or None.

    The loop then runs over the values ``start + k * step`` (k = 0, 1, … below `n`), all of
    them in ``[start, stop)`` for a positive step and in ``(stop, start]`` for a negative
    one: exactly the values of the range."""
    if not (isinstance(n, Instr) and n.opname == "select" and _is_zero(n.operands[2])):
        return None
    more = n.operands[1]
    if not (isinstance(more, Instr) and more.opname == "add" and isinstance(more.operands[1], Const)
            and more.operands[1].value == 1):
        return None
    last = more.operands[0]
    if not (isinstance(last, Instr) and last.opname == "floordiv" and isinstance(last.operands[0], Instr)
            and last.operands[0].opname == "sub" and isinstance(last.operands[0].operands[1], Const)
            and last.operands[0].operands[1].value == 1):
        return None
    span, astep = last.operands[0].operands[0], last.operands[1]
    if not isinstance(span, Instr):
        return None
    if span.opname == "sub" and isinstance(astep, Const):
        x, y = (_source(v) for v in span.operands)
        return ("const", x, y, astep.value) if x is not None and y is not None and astep.value > 0 else None
    if span.opname == "convert" and isinstance(astep, Const) and astep.value > 0:
        # ``stop - 0``, folded to the stop itself: ``range(0, stop, step)``
        x = _source(span)
        return ("const", x, Const(0, T.I64), astep.value) if x is not None else None
    if not (span.opname == "select" and isinstance(astep, Instr) and astep.opname == "select"
            and astep.operands[0] is span.operands[0]):
        return None
    up, down = span.operands[1:]
    ustep, neg = astep.operands[1:]
    if not (isinstance(up, Instr) and up.opname == "sub" and isinstance(down, Instr) and down.opname == "sub"
            and up.operands[0] is down.operands[1] and up.operands[1] is down.operands[0]
            and isinstance(neg, Instr) and neg.opname == "sub" and _is_zero(neg.operands[0])
            and neg.operands[1] is ustep):
        return None
    pos = span.operands[0]
    start, stop, step = _source(up.operands[1]), _source(up.operands[0]), _source(ustep)
    # ``pos`` must be ``step > 0``: then the up span goes with a positive step
    if not (isinstance(pos, Instr) and pos.opname == "cmp" and pos.attr == "gt"
            and pos.operands[0] is step and _is_zero(pos.operands[1])):
        return None
    return ("var", start, stop, step) if None not in (start, stop, step) else None


def _stepped_value(x: Value, c: _Counted):
    """``(start, stop, step)`` when `x` is ``start + convert(%i : i64) * step`` (for a start
    0, what constfold leaves: the product alone), the value the frontend binds the variable
    of `c`'s stepped range to; else None."""
    if not (isinstance(x, Instr) and x.opname in ("add", "mul") and x.block in c.loop.blocks
            and x.block is not c.loop.header):
        return None
    start, prod = x.operands if x.opname == "add" else (Const(0, T.I64), x)   # 0 + k * step, folded
    if not (isinstance(prod, Instr) and prod.opname == "mul"):
        start, prod = prod, start
    if not (isinstance(prod, Instr) and prod.opname == "mul"):
        return None
    k, step = prod.operands
    if not (isinstance(k, Instr) and k.opname == "convert" and k.operands[0] is c.i
            and k.type == T.I64):
        return None
    kind, a, b, s = c.stepped
    if kind == "var":
        return (a, b, s) if start is a and step is s else None
    if not (isinstance(step, Const) and abs(step.value) == s):
        return None
    first, stop = (b, a) if step.value > 0 else (a, b)       # up: stop - start; down: start - stop
    same = start is first or isinstance(start, Const) and isinstance(first, Const) \
        and start.value == first.value
    return (first, stop, step) if same else None


def _stepped_offset(x: Value, c: _Counted):
    """``(start, stop, step, d)`` when `x` is a stepped range's value plus the constant `d`
    (``i - 1``, ``i + 1``: an ``add`` or ``sub`` of a constant, 0 for the value itself), its
    ends invariant; else None."""
    d = 0
    if isinstance(x, Instr) and x.opname in ("add", "sub") and isinstance(x.operands[1], Const) \
            and abs(x.operands[1].value) <= _LIMIT and _stepped_value(x, c) is None:
        d = x.operands[1].value if x.opname == "add" else -x.operands[1].value
        x = x.operands[0]
    rng = _stepped_value(x, c)
    if rng is None or not all(defined_outside(e, c.loop) for e in rng):
        return None
    return (*rng, d)


def _stepped_leaf(v: Instr, x: Value, bound, c: _Counted) -> list | None:
    """Needs of a leaf ``cmp.lt %x, 0`` or ``cmp.ge %x, %B`` (`bound` None or B) of a
    stepped range's value plus a constant (`_stepped_offset`) %x, or of NumPy's
    negative-index fix-up of it."""
    fixup = None
    if isinstance(x, Instr) and x.opname == "select":
        cond, _, y = x.operands
        if not (isinstance(cond, Instr) and cond.opname == "cmp" and cond.attr == "lt"
                and cond.operands[0] is y and _is_zero(cond.operands[1])
                and cond.block in c.loop.blocks and cond.block is not c.loop.header):
            return None
        fixup, x = cond, y
    rng = _stepped_offset(x, c)
    if rng is None or rng[3] > 0 and bound is not None and not _nonnegative(bound):
        return None                     # B - d is computed only for a B >= 0: no wrap
    *ends, d = rng
    needs = [("stepped", *ends, None, d), ("false", v)]
    if bound is not None:
        needs.append(("stepped", *ends, bound, d))
    return needs + ([("false", fixup)] if fixup is not None else [])


def _stepped_overflow(v: Instr, c: _Counted) -> list | None:
    """Needs of a leaf ``ovf.add``/``ovf.sub`` of a stepped range's value and a constant:
    with every ``value + d`` in ``[0, 2**63)`` it cannot overflow."""
    if v.attr not in ("add", "sub") or not isinstance(v.operands[1], Const):
        return None
    rng = _stepped_offset(v.operands[2], c)
    if rng is None or rng[3] != (v.operands[1].value if v.attr == "add" else -v.operands[1].value):
        return None
    return [("stepped", *rng[:3], None, rng[3]), ("false", v)]


def _stepped_guard(emit, plan: _Plan) -> list:
    """Conditions that put every value of a stepped range plus its offset d in ``[0, B)``
    (in ``[0, 2**63)`` when B is None) for each bound B of the plan: with a step > 0 the
    values lie in ``[start, stop)``, so ``start >= -d`` and ``stop <= B - d`` do (``stop <=
    B`` for d <= 0, which is enough); with a step < 0 they lie in ``(stop, start]``: ``stop
    >= -1 - d`` and ``start < B - d``. B - d is computed only for a B >= 0 and a small d, so
    it does not wrap. (When the loop runs no iteration, nothing is indexed, whatever the
    guard says.)"""
    oks = []

    def both(conds):
        ok = conds[0]
        for other in conds[1:]:
            ok = emit("and", [ok, other], T.BOOL)
        return ok

    def i64(v):
        return Const(v, T.I64)

    for start, stop, step, bound, d in plan.stepped.values():
        alternatives = []
        for up in (True, False):
            if isinstance(step, Const) and (step.value > 0) != up:
                continue
            # values + d lie in [start + d, stop + d) up, in (stop + d, start + d] down
            first, last = (start, stop) if up else (stop, start)
            if bound is None:
                conds = [emit("cmp", [first, i64(-d if up else -1 - d)], T.BOOL, "ge")]
                if d > (1 if up else 0):      # the last value + d may pass 2**63 - 1
                    conds.append(emit("cmp", [last, i64(_MAX - d + (1 if up else 0))], T.BOOL, "le"))
            else:
                # for d <= 0, stop <= B (start < B) suffices; for d > 0, B >= 0 (`_stepped_leaf`)
                limit = emit("sub", [bound, i64(d)]) if d > 0 else bound
                conds = [emit("cmp", [last, limit], T.BOOL, "le" if up else "lt")]
            if not isinstance(step, Const):
                conds.append(emit("cmp", [step, Const(0, T.I64)], T.BOOL, "gt" if up else "lt"))
            alternatives.append(both(conds))
        ok = alternatives[0]
        for other in alternatives[1:]:
            ok = emit("or", [ok, other], T.BOOL)
        oks.append(ok)
    return oks


def _is_zero(v: Value) -> bool:
    return isinstance(v, Const) and v.value == 0


def _affine(v: Value, c: _Counted, fixups: list) -> tuple | None:
    """(C, D, E) when `v` is C * %i + D + sum(E) modulo 2**64 in the body, E a tuple of at
    most `_SHIFTS` i64s defined before the loop (``img[i + u, j + v]`` of a loop over ``v``,
    ``x[i + k + t]``: then C is 1) ordered by id; appends to `fixups` each negative-index
    fix-up passed through, as (its condition, the form it tests)."""
    if c.stepped is not None:
        return None
    if v is c.i:
        return 1, 0, ()
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
    if v.opname == "add" and not isinstance(y, Const) and c.i.type == T.I64:
        if defined_outside(x, c.loop):
            x, y = y, x
        if defined_outside(y, c.loop) and y.type == T.I64:        # C * %i + D + E: C must be 1
            form = _affine(x, c, fixups)
            if form is None or form[0] != 1 or len(form[2]) >= _SHIFTS:
                return None
            return 1, form[1], tuple(sorted((*form[2], y), key=id))
    if not isinstance(y, Const):
        return None
    form = _affine(x, c, fixups)
    if form is None:
        return None
    scale, offset, shift = form
    if v.opname == "mul":
        if shift:
            return None
        scale, offset = scale * y.value, offset * y.value
    else:
        offset += y.value if v.opname == "add" else -y.value
    return (scale, offset, shift) if abs(scale) <= _SCALE and abs(offset) <= _LIMIT else None


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
    if defined_outside(v, c.loop):
        return [("invariant", v)]
    if c.stepped is not None and isinstance(v, Instr) and v.opname == "ovf" \
            and v.block is not c.loop.header:
        return _stepped_overflow(v, c)
    if not (isinstance(v, Instr) and v.opname == "cmp" and v.block is not c.loop.header):
        return None
    x, bound = v.operands
    if c.stepped is not None:       # [0, B) follows from the guard, whatever the sign of B
        if v.attr == "lt" and _is_zero(bound) or v.attr == "ge" and defined_outside(bound, c.loop):
            return _stepped_leaf(v, x, None if v.attr == "lt" else bound, c)
        return None
    if v.attr == "lt" and _is_zero(bound):
        bound = None
    elif not (v.attr == "ge" and defined_outside(bound, c.loop) and _nonnegative(bound)):
        return None
    fixups = []
    form = _affine(x, c, fixups)
    if form is None:
        return None
    forms = [form] + [f for _, f in fixups]
    if any(scale < 1 for scale, _, _ in forms) or not _feasible(form, bound, c) \
            or not all(_feasible(f, None, c) for f in forms):
        return None
    needs = [("form", f) for f in forms] + [("false", v)] + [("false", cond) for cond, _ in fixups]
    return needs + ([("below", bound, *form)] if bound is not None else [])


def _nonnegative(v: Value) -> bool:
    return isinstance(v, Const) and v.value >= 0 or isinstance(v, Instr) and v.opname == "dim"


def _feasible(form, bound, c: _Counted) -> bool:
    """False when constants show the guard for `form` (< `bound`) could never hold."""
    scale, offset, shift = form
    if shift:
        return True                     # (decided at run time)
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
                involves_i = involves_i or need[0] in ("form", "stepped")
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
    if not plan.forms:
        pass
    elif not isinstance(lo_base, Const):              # (a constant passed `_feasible`)
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
    oks += _shifted_guard(emit, plan, c)
    if c.stepped is not None:
        oks += _stepped_guard(emit, plan)
    for v in plan.invariants.values():
        oks.append(emit("not", [v], T.BOOL))
    ok = oks[0] if oks else Const(True, T.BOOL)
    for other in oks[1:]:
        ok = emit("and", [ok, other], T.BOOL)
    return ok


def _shifted_guard(emit, plan: _Plan, c: _Counted) -> list:
    """Conditions that put every ``%i + D + E`` of the plan (E the sum of at most `_SHIFTS`
    i64s defined before the loop) in ``[0, 2**63)``, and below each length B it is tested
    against. Each term of E is first put in [-2**40, 2**40] and each B in [0, 2**62] (else
    the original loop runs), so that with D's bound (`_LIMIT`) E, ``-D - lo_off - E`` and
    ``B - E - (D + 1 + hi_off)`` are exact, and so is ``%i + D + E`` (in any order of its
    additions) for every %i from lo (>= -2**42 when the lower bound holds) to hi. Without a
    length, ``hi <= 2**63 - 1 - 2**43`` keeps ``hi + D + E`` from wrapping."""
    oks = []
    lo_base, lo_off, hi_base, hi_off = _ends(c)
    bounded = {key for _, key in plan.shifted_below}
    sums: dict = {}

    def total(e: tuple) -> Value:
        key = tuple(map(id, e))
        if key not in sums:
            for term in e:
                if id(term) not in sums:
                    sums[id(term)] = term
                    oks.append(emit("cmp", [term, Const(-_LIMIT, T.I64)], T.BOOL, "ge"))
                    oks.append(emit("cmp", [term, Const(_LIMIT, T.I64)], T.BOOL, "le"))
            v = e[0]
            for term in e[1:]:
                v = emit("add", [v, term])
            sums[key] = v
        return sums[key]

    for key, (e, smallest, largest) in plan.shifted.items():
        # lo + D + E >= 0  <=>  lo_base >= -D - lo_off - E
        oks.append(emit("cmp", [lo_base, emit("sub", [Const(-smallest - lo_off, T.I64), total(e)])], T.BOOL, "ge"))
        if key not in bounded:
            oks.append(emit("cmp", [hi_base, Const(_MAX - 8 * _LIMIT, T.I64)], T.BOOL, "le"))
    capped: set = set()
    for bound, e, largest in plan.shifted_below.values():
        # hi + D + E < B  <=>  hi_base <= B - E - (D + 1 + hi_off), exact for B <= 2**62
        if not (isinstance(bound, Const) and bound.value <= 1 << 62) and id(bound) not in capped:
            capped.add(id(bound))
            oks.append(emit("cmp", [bound, Const(1 << 62, T.I64)], T.BOOL, "le"))
        limit = emit("sub", [bound, total(e)])
        if largest + 1 + hi_off:
            limit = emit("sub", [limit, Const(largest + 1 + hi_off, T.I64)])
        oks.append(emit("cmp", [hi_base, limit], T.BOOL, "le"))
    return oks


def _version(func: Function, c: _Counted, plan: _Plan) -> None:
    loop, header = c.loop, c.loop.header
    exit_ = header.terminator.succs[1]
    args = list(c.pred.terminator.succ_args(c.edge))
    pre = c.pred
    if pre.terminator.opname != "br":               # the guard needs a block of its own
        pre = insert_block(func, "guard", func.blocks.index(header))
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
