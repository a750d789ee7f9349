"""Interrupt checks: `poll` instructions in every loop, placed so that they cost almost nothing.

`insert_polls(func)` runs after the optimization pipeline, at every level, when the function
is compiled with ``interruptible=True`` (the default). It is not a pass of the pipeline: it
depends on that option, it must run at -O0 too, and no pass should move or merge what it
inserts. A `poll` (ops.py) is a load and a compare on the fast path; the backend lowers it
(llvm.interrupt) and the runtime answers it (runtime.interrupt).

Where the checks go, loop by loop (natural loops, script.ir.dom):

- a *counted innermost loop* — no loop inside it, no `call` in it, a header ending in
  ``cbr (cmp.lt %i, %n), body, exit`` where `%i` is an integer header parameter that every
  back edge increments by one and `%n` is defined outside the loop (``cmp.gt`` and a step of -1 for a loop counting down): the shape
  of ``for i in range(...)`` — is strip-mined: it runs in chunks of at most `CHUNK`
  iterations, with a `poll` between chunks and none inside. Its body keeps a single exit and
  a trip count LLVM can compute, so it still vectorizes.
- any other innermost loop without calls that has a *counter* — a header parameter of
  more than 16 bits that every back edge steps by one, all up or all down (an ``if`` inside
  a ``for``; a ``while`` loop with ``k += 1``) — polls at the top of its header when the
  counter's low bits are zero (``poll %due``, `_poll_every_chunk`): once in `CHUNK` (a
  power of two) iterations, since consecutive iterations see consecutive counters. The
  test is an ``and`` and a compare of a register, where a poll is two loads and a compare:
  benchmarks' lcg_pi, polled every iteration, ran 1.15x its time without polls.
  Strip-mining such a loop cost LLVM about 40% more compile time on a typical 20-line
  function (docs/architecture.md) for loops LLVM seldom vectorizes.
- every other loop gets a `poll` at the top of its header: once per iteration. Such a loop
  does not vectorize anyway (it has a data-dependent exit, an inner loop, or a call), and a
  load and a compare beside its own test cost little (docs/architecture.md has figures).
- a counted innermost loop whose counter has at most 16 bits ends within 2**16 iterations
  of a body without calls or loops: it gets no poll.
- a counted innermost loop nested in another loop gets no poll either: the enclosing loop
  polls in its header before each run of it, so a Ctrl-C waits at most for one run (a row
  of a 2-d loop nest). Strip-mining the inner loops of nests cost LLVM 40-80% more compile
  time for array code (every inner loop vectorized twice over) for no gain in latency that
  matters.

The cost of strip-mining: the chunk head's phi hides the counter's start from LLVM. The
``max %c, %start`` below restores it where LLVM keeps it, but LLVM folds it away when it
can push it through that phi, and then it loses facts such as "the counter is >= 1", which
made `a[j - 1]`'s negative-index fix-up and bounds check disappear (a 2-D stencil with
unchecked-by-bce indices measured 1.2-1.5x slower; see docs/architecture.md).

The strip-mined shape, for ``cmp.lt`` (``H`` is the old header, its parameters ``%i`` and
``%x…``)::

    C(%c, %x0…):                     every edge from outside the loop now comes here
        %i0 = max %c, %start             (with one edge from outside, passing %start: a
                                         no-op that tells LLVM the counter's range)
        %lim = min %n, (%i0 + CHUNK, or the largest value when that overflows)
        br H(%i0, %x0…, %lim)
    H(%i, %x…, %lim):                the back edges pass %lim on unchanged
        …the header's instructions, %c = cmp.lt %i, %n among them…
        %more = cmp.lt %i, %lim
        cbr %more, body(…), E
    E:                               the chunk is done: the loop's own test decides
        cbr %c, P, exit(…)
    P:
        poll
        br C(%i, %x…)

``%i < %lim`` implies ``%i < %n`` since ``%lim <= %n``, so the body runs exactly when it did
before; the chunk ends after at most CHUNK iterations because each adds 1 to ``%i``.
Requires: verified IR. Preserves: behaviour, except that a poll may raise.
"""

from __future__ import annotations

from script.ir import types as T
from script.ir.core import BlockParam, Block, Const, Function, Instr, set_terminator
from script.ir.dom import DomTree, Loop, find_loops
from script.ir.passes._cfg import retarget

CHUNK = 1 << 16     # iterations between two polls of a strip-mined or counter-tested loop

# A loop with a call is polled in its header: the callee may run long itself. (Loops with
# index checks are strip-mined: LLVM still vectorizes many of them, checks and all.)
_NOT_STRAIGHT = ("call",)


def insert_polls(func: Function) -> int:
    """Add interrupt checks to every loop of `func` (see the module docstring); returns how
    many loops got them."""
    loops = find_loops(func, DomTree(func))
    headers = {loop.header for loop in loops}
    plans = []
    for loop in loops:
        simple = _is_innermost_without_calls(loop, headers)
        counted = _counted(loop) if simple else None
        counter = _counter(loop) if simple and counted is None else None
        plans.append((loop, counted, counter))
    for loop, counted, counter in plans:   # CFG edits below keep the other loops' blocks
        nested = any(other is not loop and loop.header in other.blocks for other in loops)
        if counter is not None:
            _poll_every_chunk(loop.header, counter)
        elif counted is None:
            _poll_at_header(loop.header)
        elif nested:
            pass        # the enclosing loop polls between runs of this one (see below)
        elif counted[0].operands[0].type.bits > 16:
            _strip_mine(func, loop, *counted)
        # else: a counter of at most 16 bits stepping by one ends within 2**16 iterations
    return len(plans)


def has_polls(func: Function) -> bool:
    return any(i.opname == "poll" for i in func.instructions())


def _poll_at_header(header: Block) -> None:
    header.insert(0, Instr("poll", [], T.NONE, loc=_loc(header)))


def _loc(block: Block):
    term = block.terminator
    return term.loc if term is not None else None


def _is_innermost_without_calls(loop: Loop, headers: set) -> bool:
    header = loop.header
    if any(b is not header and b in headers for b in loop.blocks):
        return False                                  # a loop inside
    return not any(i.opname in _NOT_STRAIGHT for b in loop.blocks for i in b.instrs)


def _counted(loop: Loop) -> tuple | None:
    """``(cond, i_index, n, up)`` when `loop`, innermost and without calls, is counted (the
    module docstring), else None."""
    header = loop.header
    if any(b is not header and b.terminator.opname == "cbr" for b in loop.blocks):
        return None                                   # branches in the body: see below
    term = header.terminator
    if term is None or term.opname != "cbr" or term.succs[0] is term.succs[1]:
        return None
    body, exit_ = term.succs
    if body not in loop.blocks or exit_ in loop.blocks:
        return None
    cond = term.operands[0]
    if not (isinstance(cond, Instr) and cond.opname == "cmp" and cond.attr in ("lt", "gt")
            and cond.block is header):
        return None
    i, n = cond.operands
    if not (isinstance(i, BlockParam) and i.block is header and isinstance(i.type, T.IntType)):
        return None
    if not (isinstance(n, Const) or _defined_outside(n, loop)):
        return None
    up = cond.attr == "lt"
    k = header.params.index(i)
    for latch in set(loop.latches):
        lt = latch.terminator
        for s_i, s in enumerate(lt.succs):
            if s is header and not _steps(lt.succ_args(s_i)[k], i, up):
                return None
    return cond, k, n, up


def _counter(loop: Loop) -> BlockParam | None:
    """A header parameter of more than 16 bits that every back edge of `loop` passes as
    ``add %p, 1``, or every one as ``add %p, -1``; None when there is none."""
    header = loop.header
    edges = [(lt, s_i) for lt in dict.fromkeys(b.terminator for b in loop.latches)
             for s_i, s in enumerate(lt.succs) if s is header]
    for k, p in enumerate(header.params):
        if not (isinstance(p.type, T.IntType) and p.type.bits > 16):
            continue
        steps = {_step(lt.succ_args(s_i)[k], p) for lt, s_i in edges}
        if steps in ({1}, {-1}):
            return p
    return None


def _step(arg, p) -> int | None:
    """`c` when `arg` is ``add %p, c`` with a constant `c`, else None."""
    if isinstance(arg, Instr) and arg.opname == "add" and arg.operands[0] is p \
            and isinstance(arg.operands[1], Const):
        return arg.operands[1].value
    return None


def _poll_every_chunk(header: Block, counter: BlockParam) -> None:
    """At the top of `header`: a `poll` when the counter's low bits are zero, once in
    `CHUNK` iterations (the backend weights the test as seldom true)::

        %low = and %i, CHUNK - 1
        %due = cmp.eq %low, 0
        poll %due
    """
    t, loc = counter.type, _loc(header)
    low = header.insert(0, Instr("and", [counter, Const(CHUNK - 1, t)], t, loc=loc))
    due = header.insert(1, Instr("cmp", [low, Const(0, t)], T.BOOL, "eq", loc))
    header.insert(2, Instr("poll", [due], T.NONE, loc=loc))


def _defined_outside(v, loop: Loop) -> bool:
    if isinstance(v, BlockParam):
        return v.block not in loop.blocks
    return isinstance(v, Instr) and v.block is not None and v.block not in loop.blocks


def _steps(arg, i, up: bool) -> bool:
    """Whether `arg` is ``add %i, 1`` (``add %i, -1`` when counting down): with a step of
    one the counter cannot wrap, since ``%i < %n`` before the step."""
    if not (isinstance(arg, Instr) and arg.opname == "add" and arg.operands[0] is i
            and isinstance(arg.operands[1], Const)):
        return False
    c = arg.operands[1].value
    if not i.type.signed:
        return up and c == 1
    return c == (1 if up else -1)


def _strip_mine(func: Function, loop: Loop, cond: Instr, k: int, n, up: bool) -> None:
    header = loop.header
    t = header.params[k].type
    loc = cond.loc
    # C: the chunk head, with the header's parameters; outside edges go there.
    chunk = _new_block_before(func, header, "chunk")
    for p in header.params:
        chunk.add_param(p.type, p.loc)
    edges = [(pred, s_i) for pred in dict.fromkeys(header.preds) if pred not in loop.blocks
             for s_i, s in enumerate(pred.terminator.succs) if s is header]
    for pred, s_i in edges:
        retarget(pred, s_i, chunk, list(pred.terminator.succ_args(s_i)))
    i0 = chunk.params[k]
    if len(edges) == 1:
        # The counter never goes back past where it started; saying so (a no-op) gives
        # LLVM the start's range, which the phi of the chunk head hides (a counter known
        # to be >= 0 makes `i % 3` an unsigned remainder, `a[i - 1]`'s check go away).
        start = edges[0][0].terminator.succ_args(edges[0][1])[k]
        i0 = chunk.append(Instr("max" if up else "min", [i0, start], t, loc=loc))
    edge, step = (t.max, CHUNK) if up else (t.min, -CHUNK)    # counting down: signed
    near = chunk.append(Instr("cmp", [i0, Const(edge - step, t)], T.BOOL, "gt" if up else "lt", loc))
    moved = chunk.append(Instr("add", [i0, Const(step, t)], t, loc=loc))
    bound = chunk.append(Instr("select", [near, Const(edge, t), moved], t, loc=loc))
    lim = chunk.append(Instr("min" if up else "max", [n, bound], t, loc=loc))
    # H gains %lim; every back edge passes it on.
    lim_param = header.add_param(t, loc)
    for latch in dict.fromkeys(loop.latches):
        lt = latch.terminator
        for s_i, s in enumerate(lt.succs):
            if s is header:
                lt.add_succ_arg(s_i, lim_param)
    args = list(chunk.params)
    args[k] = i0
    set_terminator(chunk, "br", args + [lim], [header], [len(args) + 1], loc)
    # E and P: the loop's own test after a chunk, then a poll and the next chunk.
    term = header.terminator
    body, exit_ = term.succs
    body_args, exit_args = list(term.succ_args(0)), list(term.succ_args(1))
    ended = _new_block_after(func, header, "chunk_done")
    polled = _new_block_after(func, ended, "poll")
    more = Instr("cmp", [header.params[k], lim_param], T.BOOL, cond.attr, loc)
    header.insert_before_terminator(more)
    set_terminator(header, "cbr", [more] + body_args, [body, ended], [len(body_args), 0], loc)
    set_terminator(ended, "cbr", [cond] + exit_args, [polled, exit_], [0, len(exit_args)], loc)
    polled.append(Instr("poll", [], T.NONE, loc=loc))
    set_terminator(polled, "br", list(header.params[:-1]), [chunk], [len(chunk.params)], loc)


def _new_block_before(func: Function, where: Block, name: str) -> Block:
    block = func.add_block(name)
    func.blocks.remove(block)
    func.blocks.insert(func.blocks.index(where), block)
    return block


def _new_block_after(func: Function, where: Block, name: str) -> Block:
    block = func.add_block(name)
    func.blocks.remove(block)
    func.blocks.insert(func.blocks.index(where) + 1, block)
    return block
