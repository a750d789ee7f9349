"""Interrupt checks: `poll` instructions in every loop, placed so that they cost almost nothing.

`insert_polls(func)` runs after the optimization pipeline, at every level, when the function
is compiled with ``interruptible=True`` (the default). It is not a pass of the pipeline: it
depends on that option, it must run at -O0 too, and no pass should move or merge what it
inserts. A `poll` (ops.py) is a load and a compare on the fast path; the backend lowers it
(llvm.interrupt) and the runtime answers it (runtime.interrupt).

What a poll costs is mostly what it keeps LLVM from doing. Its slow path calls the runtime
and may leave the loop, so a loop with a poll inside has a call and a second exit: LLVM
neither vectorizes it nor unrolls it by a runtime count (a loop with a call is not
unrolled at all), and a poll at the top of a header also kept LoopRotate from moving the
loop's test to its latch, which left the vectorizer's overlap checks of a 2-D stencil's
inner loop inside the outer loop. Hence, loop by loop (natural loops, script.ir.dom):

- a *counted innermost loop* — no loop inside it, no `call` in it, a header ending in
  ``cbr (cmp.lt %i, %n), body, exit`` where `%i` is an integer header parameter that every
  back edge increments by one and `%n` is defined outside the loop (``cmp.gt`` and a step
  of -1 for a loop counting down; ``cmp.ge %j, C`` or ``cmp.le %i, C`` with a constant C
  count as ``cmp.gt %j, C - 1`` and ``cmp.lt %i, C + 1``): the shape of ``for i in
  range(...)``, and of insertion sort's ``while j >= 0 and …: …; j -= 1``, with or without
  an ``if`` in its body — whose only exit is its header's and that has no `check` in it, is
  strip-mined: it runs in chunks of at most `CHUNK` iterations, with a `poll` between
  chunks and none inside. Its body keeps a single exit, no call and a trip count LLVM can
  compute, so it still vectorizes or unrolls as it would without checks (benchmarks'
  lcg_pi, polled by its counter, ran 1.2-1.4x its time without checks: LLVM unrolled it
  4 times only without them; prefix_max 1.15-1.5x).
- a counted innermost loop with another exit (a ``break``, a ``return``, a `check` that
  raises), which LLVM neither vectorizes nor unrolls, is strip-mined the same way: an
  iteration then runs one compare, as without checks, where polling by its counter (next
  item) added a test of the counter's low bits to every iteration (the histogram's loop,
  with its float and bounds checks: 1.45-1.54 -> 1.36-1.37 ms). So is the copy of a loop
  that the versioning pass keeps for arguments whose indices it could not prove in bounds.
  As a nest, not as one loop (below): in one loop whose poll block computes the next limit,
  LLVM merged the two back edges' limits into a `select` and computed the next limit in
  every iteration (lcg_mod: five instructions more an iteration); the nest costs LLVM no
  more (callgrind, five kernels: 0.2%).
- any other innermost loop without calls that has a *counter* — a header parameter of
  more than 16 bits that every back edge steps by one, all up or all down (a ``while``
  loop with ``k += 1``; the counted loops above) — polls before each back edge when the
  counter's low bits are zero (``poll %due``, `_poll_every_chunk`): once in `CHUNK` (a
  power of two) iterations, since consecutive iterations see consecutive counters. The
  test is an ``and`` and a compare of a register, where a poll is two loads and a compare
  (lcg_pi polled every iteration ran 1.15x its time without polls).
- an innermost loop with a `call` polls once in `CALL_CHUNK` iterations: the callee may
  run long itself (recursion is not polled), and a Ctrl-C then waits for at most that
  many calls. A counted one is strip-mined as *one* loop (LLVM does not unroll a loop
  with a call, so a nest would buy nothing): the poll block computes the next chunk's
  limit and goes back to the header, and an iteration runs one compare, as without
  checks; one with only a counter polls by its counter, as below. A poll per iteration,
  two loads and a compare, cost benchmarks' mt_pi 3-4% (3.8% more instructions; the
  counter's test 2.9%).
- every other loop gets a `poll` before each back edge: once per iteration. Such a loop
  does not vectorize anyway (it has a data-dependent exit or an inner loop), and a load
  and a compare beside its own test cost little (docs/architecture.md has figures).
- a counted innermost loop whose counter has at most 16 bits ends within 2**16 iterations
  of a body without calls or loops: it gets no poll.
- a counted innermost loop nested in another loop gets no poll either: the enclosing loop
  polls before each back edge, between runs of it, so a Ctrl-C waits at most for one run
  (a row of a 2-d loop nest). Strip-mining the inner loops of nests cost LLVM 40-80% more
  compile time for array code for no gain in latency that matters (a single run of an
  inner loop that lasts seconds is not interruptible: the price of this rule).

Polls go before back edges, not at the top of headers: a header that ends in the loop's
test lets LLVM rotate the loop (its test moves to the latch), and a poll in the latch of a
rotated outer loop leaves its inner loops' preheaders where LICM can hoist out of them.
Every iteration ends on a back edge, so every iteration still passes a poll; a latch that
is reached without taking its back edge (it has a second successor) polls anyway, which is
harmless, except where that latch heads an inner loop (whose exit edge is the back edge):
the poll then goes on a block of its own on the edge, not into every inner iteration. A poll orders nothing: a loop that waits for another thread to write an array
may read the array once and never again (a data race, as in C); after a poll that ran a
signal handler, which may have written it, LLVM reads it again.

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
        br C(%i, %x…)                a loop nest; as one loop (a loop with a call), P
                                     computes the next %lim and goes to H(%i, %x…, %lim)

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
CALL_CHUNK = 1 << 6 # the same for a loop with a call: the callee may run long itself


def insert_polls(func: Function) -> int:
    """Add interrupt checks to every loop of `func` (see the module docstring); returns how
    many loops got them."""
    loops = find_loops(func, DomTree(func))
    headers = {loop.header for loop in loops}
    plans = []
    for loop in loops:
        innermost = not any(b is not loop.header and b in headers for b in loop.blocks)
        calls = any(i.opname == "call" for b in loop.blocks for i in b.instrs)
        counted = _counted(loop) if innermost else None
        if counted is not None:
            counter = loop.header.params[counted[1]]
        else:
            counter = _counter(loop) if innermost else None
        if counted is not None and calls and counter.type.bits <= 16:
            counted = counter = None          # polled every iteration
        nest = counted is not None and not calls
        plans.append((loop, counted, counter, calls, nest))
    polled, strips = 0, []
    for loop, counted, counter, calls, nest in plans:
        if counted is not None and not calls and (
                counter.type.bits <= 16 or _is_nested(loop, loops)):
            continue    # it ends within 2**16 iterations, or the enclosing loop polls
        polled += 1
        every = CALL_CHUNK if calls else CHUNK
        if counted is not None:
            strips.append((loop, counted, every, nest))
            continue
        for latch in dict.fromkeys(loop.latches):
            if counter is not None:
                _poll_every_chunk(latch, counter, every)
                continue
            if latch in headers:    # an inner loop's header: its exit edge is our back edge
                latch = _split_back_edges(func, latch, loop.header)
            latch.insert_before_terminator(Instr("poll", [], T.NONE, loc=_loc(latch)))
    # Strip-mining last: it changes headers' terminators, which the latches above may be.
    for loop, counted, every, nest in strips:
        _strip_mine(func, loop, *counted, every, nest)
    return polled


def has_polls(func: Function) -> bool:
    return any(i.opname == "poll" for i in func.instructions())


def _loc(block: Block):
    term = block.terminator
    return term.loc if term is not None else None


def _split_back_edges(func: Function, latch: Block, header: Block) -> Block:
    """A new block on the edges from `latch` to `header` (one latch of the same loop
    polls once per iteration even when `latch` heads an inner loop); returns it."""
    edge = _new_block_after(func, latch, "latch")
    params = [edge.add_param(p.type, p.loc) for p in header.params]
    for s_i in range(len(latch.terminator.succs)):
        term = latch.terminator                     # retarget rebuilds it
        if term.succs[s_i] is header:
            retarget(latch, s_i, edge, list(term.succ_args(s_i)))
    set_terminator(edge, "br", list(params), [header], [len(params)], _loc(latch))
    return edge


def _is_nested(loop: Loop, loops: list) -> bool:
    return any(other is not loop and loop.header in other.blocks for other in loops)


def _counted(loop: Loop) -> tuple | None:
    """``(cond, i_index, n, up)`` when `loop`, innermost and without calls, is counted (the
    module docstring), else None."""
    header = loop.header
    term = header.terminator
    if term is None or term.opname != "cbr" or term.succs[0] is term.succs[1]:
        return None
    body, exit_ = term.succs
    if body not in loop.blocks or exit_ in loop.blocks:
        return None
    cond = term.operands[0]
    if not (isinstance(cond, Instr) and cond.opname == "cmp" and cond.attr in ("lt", "gt", "le", "ge")
            and cond.block is header):
        return None
    i, n = cond.operands
    if not (isinstance(i, BlockParam) and i.block is header and isinstance(i.type, T.IntType)):
        return None
    if not (isinstance(n, Const) or _defined_outside(n, loop)):
        return None
    up = cond.attr in ("lt", "le")
    if cond.attr in ("le", "ge"):
        # ``%j >= C`` is ``%j > C - 1`` (``while j >= 0: …; j -= 1``), ``%i <= C`` is
        # ``%i < C + 1``: a constant bound away from the ends of the type
        t = i.type
        if not (isinstance(n, Const) and t.min < n.value < t.max):
            return None
        n = Const(n.value + 1 if up else n.value - 1, t)
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
    """`c` when `arg` is ``add %p, c`` with a constant `c` (or ``sub %p, -c``: a ``while``
    loop's ``j -= 1``), else None."""
    if isinstance(arg, Instr) and arg.opname in ("add", "sub") and arg.operands[0] is p \
            and isinstance(arg.operands[1], Const):
        return arg.operands[1].value if arg.opname == "add" else -arg.operands[1].value
    return None


def _poll_every_chunk(latch: Block, counter: BlockParam, every: int) -> None:
    """Before the terminator of `latch`: a `poll` when the loop counter's low bits are zero,
    once in `every` (a power of two) iterations (the backend weights the test as seldom
    true)::

        %low = and %i, every - 1
        %due = cmp.eq %low, 0
        poll %due
    """
    t, loc = counter.type, _loc(latch)
    low = latch.insert_before_terminator(
        Instr("and", [counter, Const(every - 1, t)], t, loc=loc))
    due = latch.insert_before_terminator(Instr("cmp", [low, Const(0, t)], T.BOOL, "eq", loc))
    latch.insert_before_terminator(Instr("poll", [due], T.NONE, loc=loc))


def _defined_outside(v, loop: Loop) -> bool:
    if isinstance(v, BlockParam):
        return v.block not in loop.blocks
    return isinstance(v, Instr) and v.block is not None and v.block not in loop.blocks


def _steps(arg, i, up: bool) -> bool:
    """Whether `arg` is ``add %i, 1`` (``add %i, -1`` or ``sub %i, 1`` when counting down):
    with a step of one the counter cannot wrap, since ``%i < %n`` before the step."""
    if not (isinstance(arg, Instr) and arg.opname in ("add", "sub") and arg.operands[0] is i
            and isinstance(arg.operands[1], Const)):
        return False
    c = arg.operands[1].value if arg.opname == "add" else -arg.operands[1].value
    if not i.type.signed:
        return up and c == 1
    return c == (1 if up else -1)


def _strip_mine(func: Function, loop: Loop, cond: Instr, k: int, n, up: bool, every: int,
                nest: bool) -> None:
    """Run `loop` in chunks of at most `every` iterations with a poll between chunks (the
    module docstring); as a loop nest when `nest`, else as one loop whose header has two
    back edges."""
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
    lim = _append_limit(chunk, i0, n, up, every, loc)
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
    more = Instr("cmp", [header.params[k], lim_param], T.BOOL, "lt" if up else "gt", loc)
    header.insert_before_terminator(more)
    set_terminator(header, "cbr", [more] + body_args, [body, ended], [len(body_args), 0], loc)
    set_terminator(ended, "cbr", [cond] + exit_args, [polled, exit_], [0, len(exit_args)], loc)
    polled.append(Instr("poll", [], T.NONE, loc=loc))
    if nest:
        set_terminator(polled, "br", list(header.params[:-1]), [chunk], [len(chunk.params)],
                       loc)
        return
    lim = _append_limit(polled, header.params[k], n, up, every, loc)
    set_terminator(polled, "br", list(header.params[:-1]) + [lim], [header],
                   [len(header.params)], loc)


def _append_limit(block: Block, i, n, up: bool, every: int, loc):
    """``min %n, %i + every`` (``max %n, %i - every`` counting down), saturating, appended
    to `block`."""
    t = i.type
    edge, step = (t.max, every) if up else (t.min, -every)    # counting down: signed
    near = block.append(Instr("cmp", [i, Const(edge - step, t)], T.BOOL, "gt" if up else "lt",
                              loc))
    moved = block.append(Instr("add", [i, Const(step, t)], t, loc=loc))
    bound = block.append(Instr("select", [near, Const(edge, t), moved], t, loc=loc))
    return block.append(Instr("min" if up else "max", [n, bound], t, loc=loc))


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
