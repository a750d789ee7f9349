"""Kernels with `cuda.syncthreads()` on the CPU: the kernel made resumable at its barriers.

The CPU runs the threads of a block one after another. A barrier then means: run every
thread up to the barrier, then every thread on from it. `make_resumable(kernel)` rewrites
the kernel (in place of its blocks) into a function

    K'(params..., resume: i64, spill_i: i64[:, ::1], spill_f: f64[:, ::1]) -> i64

that starts at the kernel's entry when `resume` is 0 and right after barrier k when it is
k + 1, and returns k + 1 when it reaches barrier k, 0 when the thread is done. The grid
driver (backend/llvm/grid.py) calls it for each thread of a block until all return 0, and
raises when threads wait at different barriers in the same round.

Values live across a barrier are kept per thread in the spill arrays (row: the thread's
linear index in its block; one column per value): stored right after their definition,
loaded again before each use outside the defining block. Ints and bools travel as i64,
floats as f64 (both exact). Shared arrays are static (`shared` always gives the same memory),
so their instructions move to the entry, where they dominate everything. The kernel's
parameters are passed again on each call. Other arrays and tuples live across a barrier
are not supported (a CompileError at the barrier).

Requires: verified IR whose barriers are all in `func` (device functions with barriers are
inlined first). Preserves: what each thread computes, and the order of its side effects.
"""

from __future__ import annotations

from script.errors import CompileError
from script.ir import types as T
from script.ir.core import Block, BlockParam, Const, Function, Instr, Value, replace_all_uses_with, set_terminator

SPILL_I = T.ArrayType(T.I64, 2, "C")
SPILL_F = T.ArrayType(T.F64, 2, "C")


class Resumable:
    """The rewritten function and how many spill columns of each kind it needs."""

    def __init__(self, func: Function, int_slots: int, float_slots: int, barriers: int):
        self.func = func
        self.int_slots = int_slots
        self.float_slots = float_slots
        self.barriers = barriers


def has_barrier(func: Function) -> bool:
    return any(i.opname == "barrier" for i in func.instructions())


def make_resumable(func: Function) -> Resumable:
    n = len(func.params)
    new = Function(func.name + ".resumable", func.param_types + [T.I64, SPILL_I, SPILL_F], T.I64,
                   func.loc, [p.name for p in func.params] + ["resume", "spill_i", "spill_f"])
    entry = new.entry
    old_entry = func.entry
    for p, q in zip(func.params, new.params):
        replace_all_uses_with(p, q)
    old_entry.params = []
    for b in func.blocks:
        b.func = new
        new.blocks.append(b)
    func.blocks = []
    loc = func.loc
    resume, spill_i, spill_f = new.params[n:]
    tid = _thread_index(entry, loc)
    for i in [i for b in new.blocks[1:] for i in b.instrs if i.opname == "shared"]:
        i.block.instrs.remove(i)
        entry.append(i)
    conts, barrier_locs = _split_at_barriers(new)
    live = _values_live_across(new, conts, set(new.params) | set(entry.instrs), barrier_locs)
    slots = _demote(live, tid, spill_i, spill_f)
    for b in new.blocks[1:]:
        term = b.terminator
        if term.opname == "ret":
            set_terminator(b, "ret", [Const(0, T.I64)], loc=term.loc)
    for k, cont in enumerate(conts):
        set_terminator(cont.preds[0], "ret", [Const(k + 1, T.I64)], loc=barrier_locs[k])
    _dispatch(new, entry, resume, [old_entry] + conts, loc)
    return Resumable(new, slots["i"], slots["f"], len(conts))


def _thread_index(entry: Block, loc) -> Value:
    """The thread's linear index in its block: (z * ntid_y + y) * ntid_x + x."""
    def reg(name):
        return entry.append(Instr("sreg", [], T.I64, name, loc))
    x, y, z, nx, ny = (reg(r) for r in ("tid_x", "tid_y", "tid_z", "ntid_x", "ntid_y"))
    zy = entry.append(Instr("add", [entry.append(Instr("mul", [z, ny], T.I64, None, loc)), y], T.I64, None, loc))
    return entry.append(Instr("add", [entry.append(Instr("mul", [zy, nx], T.I64, None, loc)), x], T.I64, None, loc))


def _split_at_barriers(func: Function) -> tuple[list[Block], list]:
    """Split each block after each barrier (dropping the barrier): the part before jumps to
    a new block holding the rest. Returns those continuation blocks, in barrier order."""
    conts, locs = [], []
    k = 1
    while k < len(func.blocks):
        block = func.blocks[k]
        k += 1
        at = next((j for j, i in enumerate(block.instrs) if i.opname == "barrier"), None)
        if at is None:
            continue
        barrier = block.instrs[at]
        cont = Block(func, "resume")
        func.blocks.insert(func.blocks.index(block) + 1, cont)
        moved = block.instrs[at + 1:]
        del block.instrs[at:]
        barrier.block = None
        for i in moved:
            i.block = cont
            cont.instrs.append(i)
            if i.is_terminator:
                for s in i.succs:
                    s.preds[s.preds.index(block)] = cont
        set_terminator(block, "br", [], [cont], [0], barrier.loc)
        conts.append(cont)
        locs.append(barrier.loc)
        k = func.blocks.index(cont)          # the rest may hold another barrier
    return conts, locs


def _values_live_across(func: Function, conts: list[Block], invariant: set, locs) -> list[Value]:
    """The values live on entry to a continuation block, other than `invariant` ones."""
    defs = {id(b): set(b.params) | {i for i in b.instrs if i.has_result} for b in func.blocks}
    upward = {}
    for b in func.blocks:
        mine = defs[id(b)]
        upward[id(b)] = {v for i in b.instrs for v in i.operands
                         if not isinstance(v, Const) and v not in mine}
    live_in = {id(b): set() for b in func.blocks}
    changed = True
    while changed:
        changed = False
        for b in reversed(func.blocks):
            out = set()
            for s in b.succs:
                out |= live_in[id(s)]
            new_in = upward[id(b)] | (out - defs[id(b)])
            if new_in != live_in[id(b)]:
                live_in[id(b)] = new_in
                changed = True
    found: dict[int, Value] = {}
    for k, c in enumerate(conts):
        for v in live_in[id(c)]:
            if v in invariant:
                continue
            if not v.type.is_numeric():
                what = "an array view" if isinstance(v.type, T.ArrayType) else f"a {v.type} value"
                raise CompileError(f"{what} computed before this cuda.syncthreads() and used after "
                                   "it is not supported when kernels run on the CPU; compute it "
                                   "again after the barrier", locs[k])
            found.setdefault(id(v), v)
    return sorted(found.values(), key=_order_key(func))


def _order_key(func: Function):
    order = {}
    for b in func.blocks:
        for p in b.params:
            order[id(p)] = len(order)
        for i in b.instrs:
            order[id(i)] = len(order)
    return lambda v: order[id(v)]


def _demote(values: list[Value], tid: Value, spill_i: Value, spill_f: Value) -> dict:
    slots = {"i": 0, "f": 0}
    for v in values:
        kind = "f" if isinstance(v.type, T.FloatType) else "i"
        spill = spill_f if kind == "f" else spill_i
        wide = T.F64 if kind == "f" else T.I64
        col = Const(slots[kind], T.I64)
        slots[kind] += 1
        home = v.block
        users = list(dict.fromkeys(v.uses))
        at = 0 if isinstance(v, BlockParam) else home.instrs.index(v) + 1
        stored = v
        if v.type != wide:
            stored = home.insert(at, Instr("convert", [v], wide, None, v.loc))
            at += 1
        home.insert(at, Instr("store", [spill, stored, tid, col], T.NONE, None, v.loc))
        for user in users:
            if user.block is home:
                continue
            pos = user.block.instrs.index(user)
            loaded = user.block.insert(pos, Instr("load", [spill, tid, col], wide, None, v.loc))
            if v.type != wide:
                loaded = user.block.insert(pos + 1, Instr("convert", [loaded], v.type, None, v.loc))
            for k, op in enumerate(user.operands):
                if op is v:
                    user.set_operand(k, loaded)
    return slots


def _dispatch(func: Function, entry: Block, resume: Value, targets: list[Block], loc) -> None:
    """End `entry` with a jump to `targets[resume]` (the last one for any larger value)."""
    here = entry
    for k, target in enumerate(targets[:-1]):
        nxt = Block(func, "dispatch")
        func.blocks.append(nxt)
        hit = here.append(Instr("cmp", [resume, Const(k, T.I64)], T.BOOL, "eq", loc))
        set_terminator(here, "cbr", [hit], [target, nxt], [0, 0], loc)
        here = nxt
    set_terminator(here, "br", [], [targets[-1]], [0], loc)
