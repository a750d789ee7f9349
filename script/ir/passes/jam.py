"""jam: unroll-and-jam of a loop nest whose inner loop only computes, so that LLVM packs rows.

Does: for an outer counted loop (``for i in range(a, n)``: a header parameter ``%i`` tested
by ``cbr (cmp.lt %i, %n)`` with ``%n`` defined outside, stepped by one on its one back edge;
its other parameters, values the loop carries such as a total, read only after the inner
loop, where each row passes them on to the next) whose body is a straight line of blocks around one inner loop of two blocks
(header and body) -- the spectral norm's ``for i: s = 0.0; for j: s += a(i, j) * u[j];
out[i] = s`` -- it runs `ROWS` iterations of the outer loop at once: one inner loop
computes the rows' values side by side (each row's own copy of every inner-loop parameter
that depends on ``%i``, one copy of those that do not, such as ``j``), then the code after
the inner loop runs for each row in turn, in the original order. The original loop stays,
entered where fewer than `ROWS` iterations are left (or the arrays overlap) and running
the rest. An ordered float sum per row is still added in order; LLVM's SLP vectorizer then
packs the rows' independent operations (and the module is optimized at LLVM -O3, where it
runs: script.compiler `llvm_level`), as gcc vectorizes such an outer loop.

Why it is the same program: the inner loop, and the straight line before it, do nothing
anybody can see -- pure operations that are defined for all operands (`is_speculatable`),
reads of memory -- and their trip count does not depend on the row, so computing the rows
of ``%i + 1 ...`` before the code after row ``%i``'s inner loop runs changes nothing but
when those values are computed. That code (stores, checks, anything pure) runs per row in
order, so stores and errors happen as before; what it writes is an array another row may
read only if the arrays overlap, which the guard (``overlap`` of every stored array with
every array read before it) sends to the original loop. When a row's code raises, the rows
after it have computed values nobody reads. The guard ``%i < %n and %n - %i > ROWS - 1`` (a
wrapping subtraction can only make it false) keeps every row one the original loop runs,
so what bounds-check elimination proved from ``%i < %n`` holds for each row.

Overflow tests in the rows (``(i + j) * (i + j + 1)``, deferred to a flag by `defer`): the
jammed loop is entered only where the outer bound ``%n``, and the inner one when it is
defined before the nest, are at most `LIMIT` (else the original loop runs it all), and
``%i < %n`` is a test of its own; the tests that the counters' intervals then decide go
from the jammed rows (`_fold_overflow_tests`), which LLVM can then vectorize. When none
is decided, the limits go. The back edge of a rows loop that loads nothing per row is
marked (`ROWS_LATCH`): the backend keeps LLVM's loop vectorizer off it, so the SLP
vectorizer packs the rows (along ``j`` each row's in-order sum is a chain of dependent
adds); a loop loading per row (matvec's ``a[i, j]``) is left to the loop vectorizer.

Limits: the inner body at most `_MAX_BODY` instructions; blocks without parameters on the
straight lines; no calls, and stores only after the inner loop and only into arrays defined
outside the nest. Assumes: verified IR, after `defer` (which turns the inner loop's checks
into a flag tested after it). Preserves: behaviour. Stats: ``loops`` jammed, ``selects``
made of an outer body's ``cbr`` to one block (`_pick_by_selects`).
"""

from __future__ import annotations

from collections import Counter

from script.ir import types as T
from script.ir.core import (ROWS_LATCH, Block, Const, Function, Instr, Value, replace_all_uses_with,
                            set_terminator)
from script.ir.dom import DomTree, Loop, find_loops
from script.ir.passes import _intervals as iv, simplify_cfg
from script.ir.passes._cfg import defined_outside, insert_block, retarget
from script.ir.semantics import is_speculatable

ROWS = 8                # rows side by side: eight f64s, an AVX-512 vector (two AVX2 ones)
# Where the rows compute overflow tests, the jammed loop runs only when both loops' bounds
# are at most LIMIT: then ``(i + j) * (i + j + 1)`` of two counters fits in int64, and the
# tests go from the rows (the original loop keeps them).
LIMIT = 1 << 30
_MAX_BODY = 60
JAM, REST = "jam", "jam.rest"       # block names: a jammed loop's header, the original's


def run(func: Function, stats: Counter | None = None) -> bool:
    if not any(i.opname == "store" for i in func.instructions()):
        return False                    # (rows whose results nobody stores: nothing to pack)
    changed = _pick_by_selects(func, stats)
    while True:
        dom = DomTree(func)
        loops = find_loops(func, dom)
        for outer in loops:
            shape = _shape(outer, loops)
            if shape is not None:
                _jam(func, shape)
                if stats is not None:
                    stats["loops"] += 1
                changed = True
                break
        else:
            return changed


_SCALARS = (T.IntType, T.FloatType, T.BoolType)


def _pick_by_selects(func: Function, stats: Counter | None) -> bool:
    """In the body of a loop around one inner loop of two blocks, outside the inner loop, a
    ``cbr %c, bb(%a), bb(%b)`` of scalars (k-means' ``if s < best_d: best_d = s; best = c``
    after the inner sum) becomes ``br bb(select %c, %a, %b)``, and simplify_cfg merges the
    blocks: the outer body is then the straight line `_shape` needs. Here rather than in
    simplify_cfg: `ranges` narrows a value by the branches it passes, not by selects (the
    histogram's clamped bin, whose index check it turns into ``nbins <= 0``)."""
    loops = find_loops(func)
    changed = False
    for outer in loops:
        inner = _one_inner(outer, loops)
        if inner is None:
            continue
        for block in outer.blocks - inner.blocks:
            term = block.terminator
            if term.opname != "cbr" or term.succs[0] is not term.succs[1] or not all(
                    isinstance(a.type, _SCALARS) for a in term.succ_args(0)):
                continue
            cond = term.operands[0]
            args = [x if x is y else block.insert_before_terminator(Instr("select", [cond, x, y], x.type, loc=term.loc))
                    for x, y in zip(term.succ_args(0), term.succ_args(1))]
            set_terminator(block, "br", args, [term.succs[0]], [len(args)], loc=term.loc)
            changed = True
            if stats is not None:
                stats["selects"] += 1
    if changed:
        simplify_cfg.run(func)
    return changed


def jammed(func: Function) -> bool:
    """Whether this pass changed `func` (the backend then lets LLVM's SLP vectorizer run)."""
    return any(b.name == JAM for b in func.blocks)


class _Shape:
    def __init__(self, outer: Loop, inner: Loop):
        self.header = outer.header
        self.inner = inner.header
        self.body: Block = inner.latches[0]
        self.before: list[Block] = []       # the line from the header to the inner loop
        self.after: list[Block] = []        # from the inner loop's exit to the back edge
        self.i: Value | None = None         # the counter: one of the header's parameters
        self.n: Value | None = None
        self.shared: set[int] = set()       # ids of inner parameters the same in every row
        self.pairs: list[tuple[Value, Value]] = []     # (stored array, read array)
        self.row_loads = False              # whether the inner loop loads per row


def _shape(outer: Loop, loops: list[Loop]) -> _Shape | None:
    header = outer.header
    if header.name in (JAM, REST) or len(outer.latches) != 1:
        return None
    inner = _one_inner(outer, loops)
    if inner is None or len(inner.latches) != 1:
        return None
    s = _Shape(outer, inner)
    if s.body is s.inner or not _counted_header(s, outer):
        return None
    term = header.terminator
    block = term.succs[0]
    while block is not s.inner:                     # the straight line into the inner loop
        if not _plain(block, [s.before[-1] if s.before else header], s.inner) or block in s.before:
            return None
        s.before.append(block)
        block = block.terminator.succs[0]
    iterm = s.inner.terminator
    if iterm.opname != "cbr" or s.body not in iterm.succs or len(s.inner.preds) != 2 \
            or s.body.params or s.body.terminator.opname != "br":
        return None
    block = iterm.succs[1 - iterm.succs.index(s.body)]
    while block is not header:                      # the straight line back to the header
        if not _plain(block, [s.after[-1] if s.after else s.inner], header, bool(s.after)) \
                or block in s.after:
            return None
        s.after.append(block)
        block = block.terminator.succs[0]
    if not s.after or len(s.body.instrs) > _MAX_BODY or set(outer.blocks) != {
            header, s.inner, s.body, *s.before, *s.after}:
        return None
    if not _carried_only_after(s):
        return None
    return s if _effects_allowed(s, outer) and _rows_share_trip_count(s) else None


def _one_inner(outer: Loop, loops: list[Loop]) -> Loop | None:
    """The one loop inside `outer`, when there is exactly one and it has two blocks (header
    and body)."""
    inners = [l for l in loops if l is not outer and l.header in outer.blocks]
    return inners[0] if len(inners) == 1 and len(inners[0].blocks) == 2 else None


def _carried_only_after(s: _Shape) -> bool:
    """Whether the header's other parameters (values the outer loop carries, a total) are
    read only after the inner loop, on the header's exit edge and after the loop: the rows'
    code after the inner loop then passes them on from row to row, in order."""
    rows = {*s.before, s.inner, s.body}
    term = s.header.terminator
    for p in s.header.params:
        if p is s.i:
            continue
        for u in p.uses:
            if u.block in rows or (u.block is s.header and u is not term) \
                    or (u is term and any(a is p for a in term.succ_args(0))):
                return False
    return True


def _counted_header(s: _Shape, outer: Loop) -> bool:
    term = s.header.terminator
    if term.opname != "cbr" or term.succs[0] not in outer.blocks or term.succs[1] in outer.blocks:
        return False
    cond = term.operands[0]
    if not (isinstance(cond, Instr) and cond.opname == "cmp" and cond.attr == "lt"
            and cond.operands[0] in s.header.params and cond.operands[0].type == T.I64
            and defined_outside(cond.operands[1], outer)):
        return False
    s.i, s.n = cond.operands
    latch = outer.latches[0]
    step = latch.terminator.succ_args(latch.terminator.succs.index(s.header))[s.i.index]
    return isinstance(step, Instr) and step.opname == "add" and step.operands[0] is s.i \
        and isinstance(step.operands[1], Const) and step.operands[1].value == 1


def _plain(block: Block, preds: list[Block], ends: Block, no_params: bool = True) -> bool:
    """A block of a straight line: entered from `preds` only, without parameters (unless
    `no_params` is false: the inner loop's exit), ending in a `br` that passes arguments
    only to `ends` (the line's end)."""
    term = block.terminator
    return block.preds == preds and not (no_params and block.params) and term.opname == "br" \
        and (not term.operands or term.succs[0] is ends)


def _effects_allowed(s: _Shape, outer: Loop) -> bool:
    """Before and in the inner loop: speculatable ops and reads (arrays read from outside the
    nest); after it: those, checks and stores into arrays from outside the nest."""
    read, stored = [], []
    for block in (s.header, *s.before, s.inner, s.body):
        for i in block.instrs:
            if i.is_terminator:
                continue
            if i.op.reads and not i.op.pure:
                if i.opname == "load":
                    if not defined_outside(i.operands[0], outer):
                        return False
                    read.append(i.operands[0])
            elif not is_speculatable(i):
                return False
    for block in s.after:
        for i in block.instrs:
            if i.is_terminator or i.op.pure or i.opname in ("check", "load"):
                continue
            if i.opname != "store" or not defined_outside(i.operands[0], outer):
                return False
            stored.append(i.operands[0])
    for a in dict.fromkeys(stored):
        for b in dict.fromkeys(read):
            if a is b:
                return False
            s.pairs.append((a, b))
    return True


def _rows_share_trip_count(s: _Shape) -> bool:
    """Which inner parameters depend on the row (`s.shared` gets the others); False when
    the inner loop's test does."""
    region = (s.header, *s.before, s.inner, s.body)
    row: set[int] = {id(s.i)}
    changed = True
    while changed:
        changed = False
        for block in region:
            for i in block.instrs:
                if i.has_result and id(i) not in row and any(id(v) in row for v in i.operands):
                    row.add(id(i))
                    changed = True
        for k, p in enumerate(s.inner.params):
            if id(p) not in row and any(id(v) in row for _, v in s.inner.incoming(k)):
                row.add(id(p))
                changed = True
    if id(s.inner.terminator.operands[0]) in row:
        return False
    s.shared = {id(p) for p in s.inner.params if id(p) not in row}
    s.row_loads = any(i.opname == "load" and id(i) in row for b in (s.inner, s.body) for i in b.instrs)
    return True


# ---- the transformation --------------------------------------------------------------------


def _jam(func: Function, s: _Shape) -> None:
    loc = s.header.terminator.loc
    at = func.blocks.index(s.header)
    pre, head, start, inner, body, after = (insert_block(func, "jam.part", at + k) for k in range(6))
    head.name = JAM
    s.header.name = REST
    entries = [pre.add_param(p.type, p.loc) for p in s.header.params]
    for p in [p for p in dict.fromkeys(s.header.preds) if p is not s.after[-1]]:
        while s.header in p.terminator.succs:
            k = p.terminator.succs.index(s.header)
            retarget(p, k, pre, list(p.terminator.succ_args(k)))
    safe: Value = Const(True, T.BOOL)
    for a, b in s.pairs:
        o = pre.append(Instr("overlap", [a, b], T.BOOL, loc=loc))
        free = pre.append(Instr("not", [o], T.BOOL, loc=loc))
        safe = free if isinstance(safe, Const) else pre.append(Instr("and", [safe, free], T.BOOL, loc=loc))
    limits: list[Instr] = []
    tail = pre
    for bound in _bounds(s) if _has_overflow_tests(s) else ():    # else the original loop
        small = tail.append(Instr("cmp", [bound, Const(LIMIT, T.I64)], T.BOOL, "le", loc))
        limits.append(small)
        nxt = insert_block(func, "jam.part", func.blocks.index(tail) + 1)
        set_terminator(tail, "cbr", [small, *entries], [nxt, s.header], [0, len(entries)], loc=loc)
        tail = nxt
    set_terminator(tail, "br", entries, [head], [len(entries)], loc=loc)

    carried = [head.add_param(p.type, p.loc) for p in s.header.params]
    i = carried[s.i.index]
    below = head.append(Instr("cmp", [i, s.n], T.BOOL, "lt", loc))
    left = head.append(Instr("sub", [s.n, i], T.I64, loc=loc))
    room = head.append(Instr("cmp", [left, Const(ROWS - 1, T.I64)], T.BOOL, "gt", loc))
    ok = head.append(Instr("and", [below, room], T.BOOL, loc=loc))
    if not isinstance(safe, Const):
        ok = head.append(Instr("and", [ok, safe], T.BOOL, loc=loc))
    set_terminator(head, "cbr", [ok, *carried], [start, s.header], [0, len(carried)], loc=loc)

    maps = []
    for k in range(ROWS):
        row_i = i if k == 0 else start.append(Instr("add", [i, Const(k, T.I64)], T.I64, loc=loc))
        vmap = {id(s.i): row_i}
        for block in (s.header, *s.before):
            _clone_into(start, block, vmap)
        maps.append(vmap)
    last = s.before[-1] if s.before else s.header
    entry_args = last.terminator.succ_args(last.terminator.succs.index(s.inner))
    params = _row_params(inner, s, maps)
    set_terminator(start, "br", _args(s, entry_args, maps), [inner], [len(inner.params)], loc=loc)

    for k, vmap in enumerate(maps):
        vmap.update(params[k])
        _clone_into(inner, s.inner, vmap)
    iterm = s.inner.terminator
    in_loop = iterm.succs.index(s.body)
    succs = [body, after] if in_loop == 0 else [after, body]
    set_terminator(inner, "cbr", [_get(maps[0], iterm.operands[0])], succs, [0, 0], loc=iterm.loc)

    if not s.row_loads:         # rows only computed: vectors of rows, not of j (ir.core)
        body.name = ROWS_LATCH
    for vmap in maps:
        _clone_into(body, s.body, vmap)
    back = s.body.terminator.succ_args(0)
    set_terminator(body, "br", _args(s, back, maps), [inner], [len(inner.params)], loc=loc)

    exit_args = iterm.succ_args(1 - in_loop)
    latch = s.after[-1].terminator
    for vmap in maps:                   # row after row, each taking the values the last passed
        for p, v in zip(s.header.params, carried):
            if p is not s.i:
                vmap[id(p)] = v
        for p, a in zip(s.after[0].params, exit_args):
            vmap[id(p)] = _get(vmap, a)
        for block in s.after:
            _clone_into(after, block, vmap)
        carried = [_get(vmap, a) for a in latch.succ_args(0)]
    carried[s.i.index] = after.append(Instr("add", [i, Const(ROWS, T.I64)], T.I64, loc=loc))
    set_terminator(after, "br", carried, [head], [len(carried)], loc=loc)
    if limits:
        _fold_overflow_tests(s, limits, _constant_start(pre, s.i.index), i, start, inner, body)


def _has_overflow_tests(s: _Shape) -> bool:
    return any(i.opname == "ovf" for b in (s.header, *s.before, s.inner, s.body) for i in b.instrs)


def _bounds(s: _Shape) -> list[Value]:
    """The bounds of the nest's two counters that are defined before it (the outer one is)."""
    nest = {s.header, *s.before, s.inner, s.body, *s.after}
    cond = s.inner.terminator.operands[0]
    bounds = [s.n]
    if isinstance(cond, Instr) and cond.opname == "cmp" and cond.attr == "lt":
        m = cond.operands[1]
        if not isinstance(m, Const) and m.block not in nest and m is not s.n:
            bounds.append(m)
    return bounds


def _fold_overflow_tests(s: _Shape, limits: list[Instr], lo: int | None, i: Value, start: Block,
                         inner: Block, body: Block) -> None:
    """Fold the overflow tests of the jammed rows (`start`, `inner`, `body`) that the limits
    decide; when none is, the limits go (their `cbr`s fold). The rows' values are evaluated
    on intervals (`_intervals`, as `ranges` does) from the counters' alone: ``%i`` from its
    constant start `lo` to LIMIT - 1 (it grows, and ``%i < %n <= LIMIT`` holds in the rows),
    the inner counter from its constant start, stepped by one, to its bound (reached in the
    inner header, at the exit); any other value but an int constant is anything its type
    holds. (`ranges` over the whole function proves the same at 40-100 ms a nest of the
    spectral norm; this costs well under 1 ms.)"""
    known: dict[int, iv.Interval | None] = {}
    if lo is not None:
        known[id(i)] = (lo, LIMIT - 1)
    j, bound = _inner_counter(inner, body)
    if j is not None and any(bound is x.operands[0] for x in limits):
        j_lo = _constant_start(inner, inner.params.index(j), latch=body)
        if j_lo is not None:
            known[id(j)] = (j_lo, LIMIT)

    def interval(v: Value) -> iv.Interval | None:
        if isinstance(v, Const):
            return None if iv.full(v.type) is None else (int(v.value), int(v.value))
        return known.get(id(v), iv.full(v.type))

    folded = 0
    for block in (start, inner, body):
        for x in list(block.instrs):
            ops = [interval(v) for v in x.operands]
            if x.opname == "ovf":
                r = None if None in ops else iv.exact(x.attr, *ops[:-1])
                if r is not None and T.I64.min <= r[0] and r[1] <= T.I64.max:
                    replace_all_uses_with(x, Const(False, T.BOOL))
                    x.erase()
                    folded += 1
            elif x.has_result and x.op.pure and x.opname != "cmp" and iv.full(x.type) is not None \
                    and None not in ops:
                known[id(x)] = iv.transfer(x.opname, x.attr, x.type, ops)
    if not folded:
        for small in limits:
            replace_all_uses_with(small, Const(True, T.BOOL))
            small.erase()


def _constant_start(header: Block, k: int, latch: Block | None = None) -> int | None:
    """The least value parameter `k` of `header` enters with on the edges from other blocks
    than `latch` (from outside its loop), when all are int constants."""
    starts = [v for pred, v in header.incoming(k) if pred is not latch]
    if starts and all(isinstance(v, Const) and isinstance(v.value, int) for v in starts):
        return min(v.value for v in starts)
    return None


def _inner_counter(inner: Block, body: Block) -> tuple[Value | None, Value | None]:
    """(``%j``, ``%m``) of a jammed inner loop that tests ``cmp.lt %j, %m`` and steps its
    parameter ``%j`` by one on its back edge; (None, None) otherwise."""
    cond = inner.terminator.operands[0]
    if not (isinstance(cond, Instr) and cond.opname == "cmp" and cond.attr == "lt"
            and cond.operands[0] in inner.params):
        return None, None
    j = cond.operands[0]
    step = body.terminator.succ_args(0)[inner.params.index(j)]
    if isinstance(step, Instr) and step.opname == "add" and step.operands[0] is j \
            and isinstance(step.operands[1], Const) and step.operands[1].value == 1:
        return j, cond.operands[1]
    return None, None


def _row_params(inner: Block, s: _Shape, maps: list[dict]) -> list[dict]:
    """The jammed inner header's parameters: one per shared parameter, one per row for the
    others; for each row, id(original parameter) -> its parameter."""
    rows = [{} for _ in maps]
    for p in s.inner.params:
        if id(p) in s.shared:
            q = inner.add_param(p.type, p.loc, p.name)
            for r in rows:
                r[id(p)] = q
        else:
            for r in rows:
                r[id(p)] = inner.add_param(p.type, p.loc, p.name)
    return rows


def _args(s: _Shape, args, maps: list[dict]) -> list[Value]:
    """The arguments to the jammed inner header, in the order `_row_params` made its
    parameters, from the original branch's `args` mapped per row."""
    out = []
    for p, a in zip(s.inner.params, args):
        if id(p) in s.shared:
            out.append(_get(maps[0], a))
        else:
            out.extend(_get(vmap, a) for vmap in maps)
    return out


def _get(vmap: dict, v: Value) -> Value:
    return vmap.get(id(v), v)


def _clone_into(target: Block, block: Block, vmap: dict) -> None:
    """Append copies of `block`'s instructions but its terminator to `target`, operands
    mapped through `vmap` (which receives each copy)."""
    for i in block.instrs:
        if i.is_terminator:
            continue
        copy = Instr(i.op, [_get(vmap, v) for v in i.operands], i.type, i.attr, i.loc)
        vmap[id(i)] = target.append(copy)
