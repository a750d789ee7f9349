"""Parallel loops: a `prange` loop of a function compiled with ``parallel=True`` becomes a call
of a *chunk function*, which the backend runs on several threads (docs/parallel.md).

The frontend names the header of every `prange` loop PRANGE_HEAD (a plain counted loop
otherwise). `outline_prange_loops` runs on the entry function after the frontend, before the
passes. For each such loop (outermost first; an inner one becomes a serial loop) it

- checks that iterations are independent, and raises CompileError at the line otherwise:
  the loop ends only when its range is exhausted (no `break`, `return`, or exception caught
  outside it); every variable carried from one iteration to the next is a reduction, a chain
  of ``v = v + x`` / ``v - x`` / ``v * x`` / ``min(v, x)`` / ``max(v, x)`` of one kind, under
  conditionals too, with `v` read nowhere else in the loop (an update's guards, such as an
  overflow test, aside: `_is_guard`); an array shared with the enclosing function is
  written only at elements pinned to the loop variable along one axis (an index that is
  the loop variable itself, a view taken at it, a callee given such a view), the same axis
  for every write, and read only so pinned while it is written; arrays made inside an
  iteration are its own; shared values are numbers, tuples of them and arrays (a list's or
  str's reference count is not atomic); no random numbers (one generator state for the
  process);
- copies the loop into a new function ``<name>$parallel.<rest>.prangeN(k, nchunks, start,
  stop, shared..., parts...)`` (ir.core PARALLEL mark) that runs chunk `k` of ``range(start,
  stop)`` cut into `nchunks` contiguous chunks of sizes differing by at most one, each
  reduction starting from its identity and stored into ``parts[k]`` at the end;
- replaces the loop by ``call`` of it, then a loop combining each reduction's entry value
  with its partial results in chunk order (the same answer on every run, whatever the number
  of threads: the chunks do not depend on it). The loop is one chunk, in the serial order,
  when an array it writes overlaps another it uses at run time (two names of one array),
  or when an index may wrap a negative loop variable.

A ``call`` of a function with the PARALLEL mark runs it once for each ``k`` in
``range(nchunks)`` (its second operand), in any order and on any thread, with ``k`` in place
of its first operand (which is 0): the backend (llvm.parallel) runs the calls on the
runtime's threads (runtime.parallel).
"""

from __future__ import annotations

from script.errors import CompileError
from script.ir import types as T
from script.ir.analysis import written_array_params
from script.ir.clone import copy_region
from script.ir.core import PARALLEL, Block, BlockParam, Const, Function, Instr, Module, Value, set_terminator

PRANGE_HEAD = "prange.head"
CHUNKS = 128        # chunks of a parallel loop: enough for a balance over 16-32 threads
_REDUCTIONS = {"add": "add", "sub": "add", "mul": "mul", "min": "min", "max": "max"}
_STEPPED = "only prange(stop) and prange(start, stop) loops run in parallel (a step is not supported)"


def outline_prange_loops(module: Module, func: Function) -> None:
    """Outline every PRANGE_HEAD loop of `func` (the entry of `module`) into a chunk
    function added to `module`; a prange loop nested in one runs serially."""
    count = 0
    while True:
        heads = [b for b in func.blocks if b.name == PRANGE_HEAD]
        if not heads:
            return
        loops = [(h, _loop_blocks(h)) for h in heads]
        head, blocks = next((h, bl) for h, bl in loops
                            if not any(h is not o and h in obl for o, obl in loops))
        chunk = _outline(func, head, blocks, count)
        count += 1
        module.add(chunk)
        for b in chunk.blocks:
            if b.name == PRANGE_HEAD:
                b.name = "for.head"         # nested: serial inside its chunk


class _Loop:
    """What the checks found: the counter, the limit, the reductions and the rest."""

    def __init__(self, head: Block, blocks: list[Block]):
        self.head, self.blocks = head, blocks
        self.inside = set(map(id, blocks))
        cmp, cbr = (head.instrs + [None, None])[:2]
        if len(head.instrs) != 2 or cmp.opname != "cmp" or cmp.attr != "lt" or cbr.opname != "cbr" \
                or cbr.operands[0] is not cmp or not isinstance(cmp.operands[0], BlockParam) \
                or cmp.operands[0].block is not head:
            _fail(_STEPPED, cbr or head)
        self.cmp, self.cbr = cmp, cbr
        self.counter, self.limit = cmp.operands
        if self.counter.type != T.I64:      # (a step other than 1 counts iterations in u64)
            _fail(_STEPPED, cmp)
        outside = [p for p in head.preds if id(p) not in self.inside]
        if len(outside) != 1 or len(outside[0].succs) != 1:
            _fail("a prange loop needs one entry", cmp)
        self.pre = outside[0]
        self.exit = cbr.succs[1]
        if cbr.succs[0] is self.exit or id(self.exit) in self.inside:
            _fail("a prange loop needs one exit", cmp)

    def defined_inside(self, v: Value) -> bool:
        where = v.block if isinstance(v, (Instr, BlockParam)) else None
        return where is not None and id(where) in self.inside

    def entry_value(self, p: BlockParam) -> Value:
        return self.pre.terminator.succ_args(0)[p.index]

    def back_values(self, p: BlockParam) -> list[Value]:
        return [v for b, v in self.head.incoming(p.index) if id(b) in self.inside]


def _loop_blocks(head: Block) -> list[Block]:
    """The blocks of the loop headed by `head`: those reachable from its body without
    passing through the header or its exit, header first."""
    cbr = head.terminator
    stop = {id(head)}
    if cbr is not None and cbr.opname == "cbr":
        stop.add(id(cbr.succs[1]))
        start = [cbr.succs[0]]
    else:
        start = list(head.succs)
    seen, order, work = set(stop), [head], list(start)
    while work:
        b = work.pop()
        if id(b) in seen:
            continue
        seen.add(id(b))
        order.append(b)
        work.extend(b.succs)
    return order


def _fail(message: str, where) -> None:
    loc = getattr(where, "loc", None)
    raise CompileError(message, loc)


def _var(p: Value) -> str:
    name = getattr(p, "name", None) or "a value"
    return name.removeprefix("$def:")


# --- the checks -----------------------------------------------------------------------------

def _check_exits(loop: _Loop) -> None:
    for b in loop.blocks[1:]:
        term = b.terminator
        if term is not None and (term.opname == "ret" or any(s is loop.exit for s in term.succs)):
            line = f" (line {loop.cmp.loc.line})" if getattr(loop.cmp.loc, "line", None) else ""
            _fail(f"a prange loop{line} ends only when its range is exhausted: no break, return, or "
                  "exception caught outside it", term)


def _reductions(loop: _Loop, guards: dict) -> dict[int, str]:
    """id(header parameter) -> 'add' / 'mul' / 'min' / 'max' for each reduction, 'same' for a
    parameter the loop never changes, 'dead' for one nothing reads; any other is an error.
    `guards` receives, for each reduction, its updates' guards (`_is_guard`)."""
    return {id(p): _classify(loop, p, guards) for p in loop.head.params if p is not loop.counter}


def _classify(loop: _Loop, p: BlockParam, guards: dict) -> str:
    nodes: dict[int, Value] = {}
    kinds: set[str] = set()

    def walk(v: Value) -> bool:
        if v is p or id(v) in nodes:
            return True
        if isinstance(v, BlockParam) and loop.defined_inside(v) and v.block is not loop.head:
            nodes[id(v)] = v
            return all(walk(a) for _, a in v.block.incoming(v.index))
        if isinstance(v, Instr) and loop.defined_inside(v) and v.opname in _REDUCTIONS \
                and v.operands[0] is not v.operands[1]:
            # the accumulator: the first operand, or either of a commutative add or mul
            for acc in v.operands[:2 if v.opname in ("add", "mul") else 1]:
                saved = dict(nodes), set(kinds)
                nodes[id(v)] = v
                kinds.add(_REDUCTIONS[v.opname])
                if walk(acc):
                    return True
                nodes.clear(), kinds.clear()
                nodes.update(saved[0]), kinds.update(saved[1])
        return False

    backs = loop.back_values(p)
    if all(walk(b) for b in backs) and len(kinds) <= 1:
        if not kinds:
            return "same"
        found: list[Instr] = []
        stray = next((u for v in [p, *nodes.values()] if (u := _stray_use(loop, v, nodes, p, found))), None)
        if stray is None:
            kind = kinds.pop()
            guards[id(p)] = [(n, next(j for j, x in enumerate(n.operands) if x is p or id(x) in nodes), g)
                             for g in found for n in g.operands if _guards_update(g, n, nodes)]
            if not isinstance(p.type, (T.IntType, T.FloatType)) and not (
                    isinstance(p.type, T.ComplexType) and kind in ("add", "mul")):
                _fail(f"'{_var(p)}' is a reduction of {p.type}, which a prange loop cannot combine",
                      _first_use(loop, p))
            return kind
        inner, outer = [stray], []
    else:
        inner, outer = _reads(loop, p)
        if not inner and not outer:
            return "dead"
    assigned = [b for b in backs if isinstance(b, Instr) and loop.defined_inside(b)]
    _fail(f"'{_var(p)}' carries a value from one iteration of the prange loop to the next and "
          "is not a reduction (v += x, v -= x, v *= x, v = min(v, x), v = max(v, x)); iterations "
          "must be independent", (inner or assigned or outer)[0])


def _reads(loop: _Loop, p: BlockParam) -> tuple[list[Instr], list[Instr]]:
    """The instructions that read `p`'s value, following it through branch arguments into
    the loop's block parameters: those inside the loop, those after it."""
    seen, work, inner, outer = {id(p)}, [p], [], []
    while work:
        v = work.pop()
        for u in v.uses:
            if not loop.defined_inside(u):
                outer.append(u)
            elif not u.is_terminator or u.opname == "cbr" and u.operands[0] is v:
                inner.append(u)
            else:
                for k, target in enumerate(u.succs):
                    for param, arg in zip(target.params, u.succ_args(k)):
                        if arg is v and target is not loop.head and id(param) not in seen:
                            seen.add(id(param))
                            work.append(param)
    return inner, outer


def _stray_use(loop: _Loop, v: Value, nodes: dict, p: BlockParam, guards: list) -> Instr | None:
    """A use of `v` (p or a node of its reduction chain) that is neither a node nor a branch
    passing it to one (or back to the header), nor a guard (appended to `guards`), or None;
    uses after the loop are allowed only for `p` (its final value)."""
    for u in v.uses:
        if not loop.defined_inside(u):
            if v is not p:
                return u
            continue
        if id(u) in nodes:
            continue
        if _is_guard(u, nodes):
            if not any(u is g for g in guards):
                guards.append(u)
            continue
        if not u.is_terminator or u.opname == "cbr" and u.operands[0] is v:
            return u
        for k, target in enumerate(u.succs):
            for param, arg in zip(target.params, u.succ_args(k)):
                if arg is v and id(param) not in nodes and not (target is loop.head and param is p):
                    return u
    return None


def _is_guard(u: Instr, nodes: dict) -> bool:
    """Whether `u` only guards an update of a reduction: a pure op of the update's operands
    and result (an overflow test of ``s + x``) whose value only decides `check`s. The chunk
    keeps it, testing its partial result, and the combining loop repeats it for each
    combination (`_replace_loop`), so a result the serial loop refuses is refused or exact."""
    if not (u.op.pure and not u.is_terminator and u.uses
            and all(c.opname == "check" and c.operands[0] is u and u not in c.operands[1:] for c in u.uses)):
        return False
    return any(_guards_update(u, n, nodes) for n in u.operands)


def _guards_update(u: Instr, n: Value, nodes: dict) -> bool:
    """Whether `u`'s operands are the update `n` (a node of the chain), its operands and
    constants."""
    return isinstance(n, Instr) and id(n) in nodes and all(
        x is n or isinstance(x, Const) or any(x is y for y in n.operands) for x in u.operands)


def _first_use(loop: _Loop, p: Value):
    return next((u for u in p.uses if loop.defined_inside(u)), p)


def _is_counter(loop: _Loop, v: Value) -> bool:
    """The loop variable, or Python's wrap of a negative index of it (``i + n if i < 0``)."""
    if v is loop.counter:
        return True
    if isinstance(v, Instr) and v.opname == "select":
        c, a, b = v.operands
        return (b is loop.counter and isinstance(c, Instr) and c.opname == "cmp" and c.attr == "lt"
                and c.operands[0] is loop.counter and isinstance(a, Instr) and a.opname == "add"
                and a.operands[0] is loop.counter)
    return False


def _access(loop: _Loop, a: Value, indices) -> tuple[Value | None, frozenset]:
    """(the shared array that array `a` (indexed by `indices`) is or views, or None when it
    was made in the iteration; the axes of that array the access pins to the loop variable:
    the indices' own when `a` is it, else those of the first view taken of it)."""
    chain = []
    while isinstance(a, Instr) and loop.defined_inside(a):
        if not a.op.view:
            return None, frozenset()
        chain.append(a)
        a = a.operands[0]
    if not chain:
        return a, frozenset(k for k, x in enumerate(indices) if _is_counter(loop, x))
    first = chain[-1]
    return a, frozenset(_view_counter_axes(loop, first)) if first.opname == "view" else frozenset()


def _view_counter_axes(loop: _Loop, view: Instr) -> list[int]:
    """The axes of `view`'s source that it indexes away (its ``i`` letters) at the loop
    variable."""
    out, k, axis = [], 1, 0
    for letter in view.attr:
        if letter == "i":
            if _is_counter(loop, view.operands[k]):
                out.append(axis)
            k, axis = k + 1, axis + 1
        elif letter == "s":
            k, axis = k + 3, axis + 1
    return out


def _writes(loop: _Loop, i: Instr) -> list[tuple[Value, list[Value]]]:
    """(array, indices) for each array `i` writes: indices [] for a whole array."""
    name = i.opname
    if name == "store":
        return [(i.operands[0], i.operands[2:])]
    if name == "atomic":
        return [(i.operands[0], i.operands[3:] if i.attr == "cas" else i.operands[2:])]
    if name == "gemm":
        return [(i.operands[0], [])]
    if name == "lapack":
        return [(v, []) for v in i.operands if isinstance(v.type, T.ArrayType)]
    if name == "call":
        written = written_array_params(i.attr)
        for k in written:
            if isinstance(i.operands[k].type, T.TupleType) and T.holds_references(i.operands[k].type):
                _fail("a prange loop passes a tuple of arrays to a function that writes them: pass "
                      "the arrays", i)
        return [(i.operands[k], []) for k in written if isinstance(i.operands[k].type, T.ArrayType)]
    return []


# Ops whose array operands' elements are not read: these and views (`OpInfo.view`).
_NO_DATA = ("dim", "stride", "overlap")


def _check_memory(loop: _Loop) -> tuple[bool, list[Value]]:
    """Check writes and reads of arrays; return whether an index relies on Python's wrap of
    a negative loop variable (then a range starting below 0 runs in one chunk), and the
    shared arrays the loop writes. A shared array written in the loop is written only at
    elements pinned to the loop variable along one axis at least, that axis the same for
    every write, and read only so pinned too."""
    pinned: dict[int, frozenset] = {}       # id(shared array written) -> the axes of every write
    written: list[Value] = []
    wraps = False
    for b in loop.blocks:
        for i in b.instrs:
            if i.opname == "rng_state" or i.opname == "call" and _uses_random(i.attr, set()):
                _fail("random numbers in a prange loop are not supported: the generator's state "
                      "is shared by every iteration", i)
            for a, idx in _writes(loop, i):
                origin, axes = _access(loop, a, idx)
                if origin is None:
                    continue
                if not axes:
                    what = "writes" if i.opname in ("store", "atomic") else "passes"
                    _fail(f"a prange loop {what} '{_var(origin)}' at an index that is not the loop variable"
                          + (" to a function that writes it: pass a view taken at the loop variable (a[i])"
                             if what == "passes" else ": iterations must write different elements"), i)
                both = pinned.get(id(origin), axes) & axes
                if not both:
                    _fail(f"a prange loop writes '{_var(origin)}' at the loop variable along different "
                          "axes: iterations must write different elements", i)
                if id(origin) not in pinned:
                    written.append(origin)
                pinned[id(origin)] = both
                wraps |= any(x is not loop.counter and _is_counter(loop, x) for x in idx)
            if i.opname == "view":
                wraps |= any(x is not loop.counter and _is_counter(loop, x) for x in i.operands[1:])
    for b in loop.blocks:
        for i in b.instrs:
            if i.opname in _NO_DATA or i.op.view:
                continue
            for k, v in enumerate(i.operands):
                if not isinstance(v.type, T.ArrayType) or k == 0 and i.opname in ("store", "atomic"):
                    continue
                origin, axes = _access(loop, v, i.operands[1:] if i.opname == "load" else [])
                if origin is not None and id(origin) in pinned and not axes & pinned[id(origin)]:
                    _fail(f"a prange loop reads '{_var(origin)}' at an index other than the loop "
                          "variable while it writes it: iterations must be independent", i)
    return wraps, written


def _uses_random(func: Function, seen: set) -> bool:
    """Whether `func` or a function it calls reads a random generator's state."""
    if id(func) in seen:
        return False
    seen.add(id(func))
    return any(i.opname == "rng_state" or i.opname == "call" and _uses_random(i.attr, seen)
               for i in func.instructions())


def _shared_values(loop: _Loop) -> list[Value]:
    """Values defined before the loop and used in it, in first-use order."""
    seen, out = set(), []
    for b in loop.blocks:
        for i in b.instrs:
            for v in i.operands:
                if isinstance(v, Const) or loop.defined_inside(v) or id(v) in seen:
                    continue
                seen.add(id(v))
                if not _shareable(v.type):
                    what = f"'{v.name}' of type {v.type}" if getattr(v, "name", None) else f"a {v.type}"
                    _fail(f"a prange loop may read numbers, tuples and arrays of the enclosing "
                          f"function, not {what} (its reference count is not atomic)", i)
                out.append(v)
    return out


_REMADE = ("dim", "stride", "tuple", "extract")


def _rematerialized(shared: list[Value]) -> tuple[list[Value], list[Instr]]:
    """(the values the chunk function takes, the values it computes again from them: an
    array's lengths and strides, `a.shape` and its items, in definition order): so that
    ``dim`` in the loop and the loop's limit are one value there too, as they are in the
    enclosing function."""
    params: list[Value] = []
    remade: list[Instr] = []

    def add(v: Value) -> None:
        if isinstance(v, Const) or any(v is q for q in params) or any(v is q for q in remade):
            return
        if isinstance(v, Instr) and v.opname in _REMADE and type(v.type) is not T.HashType:
            for x in v.operands:
                add(x)
            remade.append(v)
        else:
            params.append(v)
    for v in shared:
        add(v)
    return params, remade


def _shareable(t: T.Type) -> bool:
    if isinstance(t, T.TupleType) and not isinstance(t, T.HashType):
        return all(_shareable(e) for e in t.elems)
    return isinstance(t, (T.BoolType, T.IntType, T.FloatType, T.ComplexType, T.NoneType, T.ArrayType))


# --- the rewrite ------------------------------------------------------------------------------

def _identity(kind: str, t: T.Type) -> Const:
    if kind in ("add", "mul"):
        one = kind == "mul"         # -0.0: the float sum's identity (-0.0 + 0.0 is 0.0)
        if isinstance(t, T.ComplexType):
            return Const(complex(1.0, 0.0) if one else complex(-0.0, -0.0), t)
        return Const((1.0 if one else -0.0) if isinstance(t, T.FloatType) else int(one), t)
    big = kind == "min"
    if isinstance(t, T.FloatType):
        return Const(float("inf") if big else float("-inf"), t)
    if t.signed:
        return Const(2 ** (t.bits - 1) - 1 if big else -2 ** (t.bits - 1), t)
    return Const(2 ** t.bits - 1 if big else 0, t)


def _outline(func: Function, head: Block, blocks: list[Block], number: int) -> Function:
    loop = _Loop(head, blocks)
    _check_exits(loop)
    guards: dict[int, list] = {}
    kinds = _reductions(loop, guards)
    wraps, written = _check_memory(loop)
    shared = _shared_values(loop)
    arrays = [v for v in shared if isinstance(v.type, T.ArrayType)]
    reduced = [p for p in head.params if kinds.get(id(p)) in _REDUCTIONS.values()]
    kept = [p for p in head.params if kinds.get(id(p)) in ("same", "dead")]
    for p in kept:                  # (the chunk starts them from their value before the loop)
        v = loop.entry_value(p)
        if not isinstance(v, Const) and not any(v is q for q in shared):
            if not _shareable(v.type):
                _fail(f"a prange loop may read numbers, tuples and arrays of the enclosing function, "
                      f"not '{_var(p)}' of type {v.type}", (_reads(loop, p)[0] or [loop.cmp])[0])
            shared.append(v)
    shared, remade = _rematerialized(shared)
    loc = loop.cmp.loc
    start = loop.entry_value(loop.counter)
    base, _, rest = func.name.partition(".")
    parts_types = [T.ArrayType(p.type, 1, "C") for p in reduced]
    chunk = Function(f"{base}{PARALLEL}.{rest}.prange{number}" if rest else f"{base}{PARALLEL}.prange{number}",
                     [T.I64, T.I64, T.I64, T.I64] + [v.type for v in shared] + parts_types, T.NONE, loc,
                     ["k", "nchunks", "start", "stop"] + [getattr(v, "name", None) for v in shared]
                     + [f"parts.{_var(p)}" for p in reduced])
    k, nchunks, cstart, cstop = chunk.params[:4]
    vmap = {id(v): q for v, q in zip(shared, chunk.params[4:])}
    parts = chunk.params[4 + len(shared):]
    entry = chunk.entry
    for v in remade:
        vmap[id(v)] = _emit(entry, v.opname, [vmap.get(id(x), x) for x in v.operands], v.type, v.loc, v.attr)
    lo, hi = _chunk_bounds(entry, k, nchunks, cstart, cstop, loc)
    # lo >= start and hi <= stop, said so that LLVM sees the loop variable within the range's
    # bounds (and drops the bounds checks the serial loop loses to them)
    lo = _emit(entry, "max", [lo, start if isinstance(start, Const) else cstart], T.I64, loc)
    hi = _emit(entry, "min", [hi, vmap.get(id(loop.limit), loop.limit)], T.I64, loc)
    copies = copy_region(chunk, blocks, len(chunk.blocks), vmap)
    chead = copies[0]
    cmp_copy = vmap[id(loop.cmp)]
    cmp_copy.set_operand(1, hi)
    done = chunk.add_block("prange.done")
    cbr = chead.terminator
    set_terminator(chead, "cbr", [cbr.operands[0]], [cbr.succs[0], done], [0, 0], cbr.loc)
    for p, arr in zip(reduced, parts):
        done.append(Instr("store", [arr, vmap[id(p)], k], T.NONE, None, loc))
    set_terminator(done, "ret", [], loc=loc)
    init = [lo if p is loop.counter else _identity(kinds[id(p)], p.type) if p in reduced
            else vmap.get(id(loop.entry_value(p)), loop.entry_value(p)) for p in head.params]
    set_terminator(entry, "br", init, [chead], [len(init)], loc)
    _replace_loop(func, loop, chunk, shared, reduced, kinds, guards, start, wraps,
                  [(w, r) for w in written for r in arrays if r is not w])
    return chunk


def _combine(block: Block, kind: str, guards: list, acc: Value, part: Value, loc) -> Value:
    """``acc <kind> part``, with the guards of the updates of that op. Guards only of ``-=``
    updates (``s -= x``, whose chunks give ``-(x1 + x2 ...)``): ``acc - (0 - part)``, both
    subtractions guarded as the updates are."""
    by_op: dict[str, list] = {}
    for guard in guards:
        by_op.setdefault(guard[0].opname, []).append(guard)
    if kind == "add" and "add" not in by_op and "sub" in by_op:
        zero = Const(0, part.type)
        amount = _emit(block, "sub", [zero, part], part.type, loc)
        _repeat_guards(block, by_op["sub"], zero, part, amount)
        out = _emit(block, "sub", [acc, amount], part.type, loc)
        _repeat_guards(block, by_op["sub"], acc, amount, out)
        return out
    out = _emit(block, kind, [acc, part], part.type, loc)
    _repeat_guards(block, by_op.get(kind, []), acc, part, out)
    return out


def _repeat_guards(block: Block, guards: list, acc: Value, part: Value, combined: Value) -> None:
    """The guards of one update of a reduction (and their checks) again for the combination
    ``combined = acc <op> part``: the update's accumulator, other operand and result mapped
    to these. (Every update of the op has the same guards: one update's serve.)"""
    done: set[int] = set()
    for node, accumulator, g in guards:
        if id(g) in done or node is not guards[0][0]:
            continue
        done.add(id(g))
        mapping = {id(node): combined, id(node.operands[accumulator]): acc,
                   id(node.operands[1 - accumulator]): part}
        test = _emit(block, g.opname, [mapping.get(id(x), x) for x in g.operands], g.type, g.loc, g.attr)
        for c in g.uses:
            block.append(Instr("check", [test, *c.operands[1:]], T.NONE, c.attr, c.loc))


def _emit(block: Block, op: str, operands, t: T.Type, loc, attr=None) -> Instr:
    return block.append(Instr(op, operands, t, attr, loc))


def _chunk_bounds(b: Block, k, n, start, stop, loc):
    """[lo, hi) of chunk k of n of range(start, stop), in unsigned arithmetic (the length of
    any range fits in a u64): sizes q+1 for the first r chunks, q for the rest."""
    u = T.U64
    us, ue, uk, un = (_emit(b, "convert", [v], u, loc) for v in (start, stop, k, n))
    nonempty = _emit(b, "cmp", [stop, start], T.BOOL, loc, "gt")
    length = _emit(b, "select", [nonempty, _emit(b, "sub", [ue, us], u, loc), Const(0, u)], u, loc)
    q = _emit(b, "floordiv", [length, un], u, loc)
    r = _emit(b, "mod", [length, un], u, loc)
    before = _emit(b, "add", [_emit(b, "mul", [uk, q], u, loc), _emit(b, "min", [uk, r], u, loc)], u, loc)
    lo = _emit(b, "add", [us, before], u, loc)
    extra = _emit(b, "convert", [_emit(b, "cmp", [uk, r], T.BOOL, loc, "lt")], u, loc)
    hi = _emit(b, "add", [lo, _emit(b, "add", [q, extra], u, loc)], u, loc)
    return _emit(b, "convert", [lo], T.I64, loc), _emit(b, "convert", [hi], T.I64, loc)


def _replace_loop(func: Function, loop: _Loop, chunk: Function, shared, reduced, kinds, guards, start,
                  wraps, aliases) -> None:
    """The call of `chunk` and the combining loop in place of `loop` in `func`. One chunk
    (the serial loop's order) when an index may wrap a negative loop variable, or when an
    array the loop writes shares memory with another it uses (`aliases`: such pairs of
    arrays of the enclosing function, two arguments that are one array, a view of it)."""
    loc = loop.cmp.loc
    stop = loop.limit
    call = func.add_block("prange.call")
    # chunks: min(length, CHUNKS), or 1 (see the docstring)
    longer = _emit(call, "cmp", [stop, start], T.BOOL, loc, "gt")
    length = _emit(call, "select", [longer, _emit(call, "sub", [stop, start], T.I64, loc), Const(0, T.I64)], T.I64, loc)
    most = Const(CHUNKS, T.I64)
    if wraps:
        negative = _emit(call, "cmp", [start, Const(0, T.I64)], T.BOOL, loc, "lt")
        most = _emit(call, "select", [negative, Const(1, T.I64), most], T.I64, loc)
    for w, r in aliases:
        shared_memory = _emit(call, "overlap", [w, r], T.BOOL, loc)
        most = _emit(call, "select", [shared_memory, Const(1, T.I64), most], T.I64, loc)
    n = _emit(call, "min", [length, most], T.I64, loc)
    parts = [_emit(call, "alloc", [n], T.ArrayType(p.type, 1, "C"), loc) for p in reduced]
    _emit(call, "call", [Const(0, T.I64), n, start, stop, *shared, *parts], T.NONE, loc, chunk)
    comb = func.add_block("prange.combine")
    kk = comb.add_param(T.I64, loc)
    accs = [comb.add_param(p.type, loc, p.name) for p in reduced]
    body, after = func.add_block("prange.part"), func.add_block("prange.end")
    set_terminator(call, "br", [Const(0, T.I64)] + [loop.entry_value(p) for p in reduced], [comb],
                   [1 + len(reduced)], loc)
    more = _emit(comb, "cmp", [kk, n], T.BOOL, loc, "lt")
    set_terminator(comb, "cbr", [more], [body, after], [0, 0], loc)
    nxt = [_emit(body, "add", [kk, Const(1, T.I64)], T.I64, loc)]
    for p, acc, arr in zip(reduced, accs, parts):
        part = _emit(body, "load", [arr, kk], p.type, loc)
        nxt.append(_combine(body, kinds[id(p)], guards.get(id(p), []), acc, part, loc))
    set_terminator(body, "br", nxt, [comb], [len(nxt)], loc)
    final = {id(p): acc for p, acc in zip(reduced, accs)}
    for p in loop.head.params:
        if p is not loop.counter and id(p) not in final:
            final[id(p)] = loop.entry_value(p)
    exit_args = [final.get(id(v), v) for v in loop.cbr.succ_args(1)]
    set_terminator(after, "br", exit_args, [loop.exit], [len(exit_args)], loc)
    for p in loop.head.params:
        for u in list(p.uses):
            if not loop.defined_inside(u):
                if p is loop.counter:
                    _fail("the variable of a prange loop is not defined after it", u)
                for j, v in enumerate(u.operands):
                    if v is p:
                        u.set_operand(j, final[id(p)])
    set_terminator(loop.pre, "br", [], [call], [0], loc)
    for b in loop.blocks:           # the loop's values use each other: unlink them all first
        for i in b.instrs:
            for v in i.operands:
                if not loop.defined_inside(v):
                    v.uses.remove(i)
            i.operands = []
    for b in loop.blocks:
        func.remove_block(b)
