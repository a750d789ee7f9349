"""Generator objects held in a variable: `g = gen(args)`, then `next(g)`, `next(g, d)`,
`for x in g`, `sum(g)`, `list(g)`... in any order, each resuming it where it stopped.

The generator's body (its renamed copy, generators.InlineCopy) is built once, at the
assignment, as a part of the consumer's own CFG that the consumer enters and leaves like a
coroutine inside one function; its locals are the consumer's variables (renamed), so they
keep their values between two resumptions without a frame object:

    g = gen(a)      params := a; state := INIT; -> entry
    entry:          state == INIT -> (state := 0) after the assignment
                    state == 0 -> the body's start;  state == j -> after the j-th yield
                    otherwise (exhausted) -> finish
    yield v (j-th)  item := v; how := ITEM; state := j; -> back
    finish:         (a return, the body's end) how := DONE; state := EXHAUSTED; -> back
    back:           site == k -> the continuation of the k-th use (next(g), a loop's step)
    next(g) (k-th)  site := k; -> entry; continue here with how and item

The jump from the assignment into `entry` makes `entry` a loop header of the SSA builder
(unsealed until the whole function is built, since every use jumps to it; typed by hints as
any loop header is). The dispatches are chains of compares, extended as yields and uses are
built (`entry`'s while the body is built, `back`'s at each use; `settle` closes the last).
An exception the body raises where some use stands inside a ``try`` goes, through a catch-all
frame, to `back` too (how := RAISED) and is raised again at the use, where that ``try``'s
handlers are; elsewhere it leaves the function from the body itself.

A name holding one may be assigned once, before its uses (in the source), and is read only
by next() and the consumers of iterables; anything else (passed, returned, stored, compared,
captured by a lambda) is a CompileError at the line.
"""

from __future__ import annotations

import ast
import copy

from script.frontend import exceptions, generators, optional
from script.frontend.exceptions import Frame
from script.frontend.pyref import global_callee
from script.ir import types as T
from script.ir.core import Const, Value, set_terminator
from script.ir.dom import DomTree
from script.frontend.ssa_builder import Restart, unify_types
from script.frontend.unknown import has_unknown
from script.ir.ops import ExcInfo

INIT, EXHAUSTED = -2, -1            # states besides 0 (not started) and j (after the j-th yield)
ITEM, DONE, RAISED = 0, 1, 2        # what a resumption ended with (`how`)


class HeldGenerator:
    """One generator held in local `name` while this build of the function is made: its
    dispatch blocks (`entry`, `back`, and `back_tail`, the open end of `back`'s chain), its
    synthetic variables (`var(...)`), the uses built so far (`sites`), and whether what
    its body raises is caught and raised again at the use (`catch`)."""

    __slots__ = ("name", "prefix", "entry", "back", "back_tail", "sites", "catch")

    def __init__(self, name: str, prefix: str, catch: bool):
        self.name = name
        self.prefix = prefix
        self.catch = catch
        self.entry = self.back = self.back_tail = None
        self.sites = 0

    def var(self, what: str) -> str:
        """The synthetic variable `what` of this generator (the same name in every rebuild:
        the copy's prefix is kept per call site, so type hints find it again)."""
        return f"{self.prefix}<{what}>"


def held(cx, node) -> HeldGenerator | None:
    """The generator the name `node` holds, when it holds one."""
    if not isinstance(node, ast.Name) or cx.comp_scopes and cx.comprehension_var(node.id):
        return None
    return cx.held_gens.get(node.id)


def _walk_of(cx, node: ast.Name):
    """generators.NAME_WALKERS: the walk of the generator `node` holds, or None."""
    g = held(cx, node)
    return None if g is None else lambda on_item, done: walk(cx, g, node, on_item, done)


generators.NAME_WALKERS.append(_walk_of)


def refuse_use(cx, node: ast.Name) -> None:
    """A read of a name holding a generator other than by next() or an iterable's consumer."""
    shown = node.id.split(":", 1)[1] if node.id.startswith("$gen") else node.id     # (a callee's, renamed)
    cx.error(f"'{shown}' holds a generator: compiled code can give it to next(), iterate it (for, "
             "list(), sum(), min(), zip(), ...) or pass it to a compiled function, but not use it as a "
             "value otherwise (return it, store it, compare it)", node)

# ---- the assignment: the body built once ------------------------------------------------


def is_source(cx, node) -> bool:
    """Whether `node` (an argument, say) is a generator: a generator expression, a call of a
    generator function, or a name holding a generator."""
    if isinstance(node, ast.GeneratorExp):
        return True
    if isinstance(node, ast.Call):
        return generators.generator_info(cx, node) is not None
    return held(cx, node) is not None


def hold(cx, name: str, arg, catch: bool | None = True) -> None:
    """The generator `arg` (is_source) held in the variable `name` here, as if `name = arg`
    were written (given to a function: generator_args.py; `catch` as store's); of a name
    holding one, the same generator. A generator expression's first iterable is evaluated
    here, as CPython evaluates it where the expression is made (unless `stable`)."""
    if name in cx.held_gens:
        cx.error("a generator given to a call (or zip()) inside a loop over a generator that yields "
                 "in several places is built twice here: not supported in compiled code", arg)
    g = held(cx, arg)
    if g is not None:           # the caller's own generator: the same one, resumed by both
        cx.held_gens[name] = g
        return
    made = cx.info.__dict__.setdefault("_generator_args", {})     # (the same nodes every round)
    found = made.get((id(arg), name))
    if found is None or found[0] is not arg:
        value, first = arg, None
        if isinstance(arg, ast.GeneratorExp) and not stable(cx, arg.generators[0].iter):
            first = ast.copy_location(ast.Name(f"{name}<first>", ast.Load()), arg.generators[0].iter)
            clause = copy.copy(arg.generators[0])
            clause.iter = first
            value = copy.copy(arg)
            value.generators = [clause] + arg.generators[1:]
        assign = ast.copy_location(ast.Assign([ast.copy_location(ast.Name(name, ast.Store()), arg)], value), arg)
        found = made[(id(arg), name)] = (arg, assign, first)
    _, assign, first = found
    outer = cx.locals
    if first is not None:       # CPython's genexp evaluates its first iterable when it is made
        source = arg.generators[0].iter
        if is_source(cx, source):
            hold(cx, first.id, source)
        else:
            cx.write(first.id, optional.expr_opt(cx, source))
            cx.write("$def:" + first.id, Const(True, T.BOOL))
            cx.locals = outer | {first.id}
    try:
        store(cx, assign, catch=catch, argument=True)
    finally:
        cx.locals = outer


def stable(cx, node) -> bool:
    """Whether the first iterable `node` of a generator expression gives the same items
    evaluated at its first resumption as where it is made, when no name it reads is bound
    again in between (_check_first_iterable): a name, or range() of names and constants."""
    if isinstance(node, ast.Name):
        return True
    return isinstance(node, ast.Call) and global_callee(cx, node.func) is range and not node.keywords \
        and all(isinstance(a, (ast.Name, ast.Constant)) for a in node.args)


def store(cx, node: ast.Assign, catch: bool | None = None, argument: bool = False) -> bool:
    """`g = gen(args)` or `g = (... for ...)` with `g` read later by next() or consumers:
    the arguments are evaluated here, as in CPython, and the body is built (run by the
    uses). False (nothing built) when the value is neither. `catch`: whether what its body
    raises is raised again at the use (where the use's ``try`` may catch it); by default,
    where some use stands inside a ``try``. `argument`: built by `hold`, which has checked
    the name's uses and evaluated the first iterable of a generator expression."""
    if len(node.targets) != 1 or not isinstance(node.targets[0], ast.Name):
        return False
    value, name = node.value, node.targets[0].id
    if _iter_of_held(cx, node):
        return True
    info = generators.generator_info(cx, value) if isinstance(value, ast.Call) else None
    if info is None and not isinstance(value, ast.GeneratorExp):
        return False
    if not argument:               # (`hold`'s callers have checked the name)
        check_uses(cx, name, node)
    if name in cx.held_gens:
        cx.error(f"the generator assigned to '{name}' here is built twice (inside a loop over a "
                 "generator that yields in several places): not supported in compiled code", node)
    for key, t in list(cx.hints.items()):       # (`out = []` after it: a list typed since)
        if isinstance(key, tuple) and len(key) == 2 and key[0] is node:
            cx.hints[key] = cx.resolve_pending(t)
    if info is None:
        if not argument and not stable(cx, value.generators[0].iter):
            hold(cx, name, value, catch)        # (its first iterable evaluated here)
            return True
        if not argument:
            _check_first_iterable(cx, name, node)
        g = cx.held_gens[name] = HeldGenerator(name, f"$held{id(value)}:", _used_in_try(cx.info.node, name) if catch is None else catch)
        _build(cx, g, node, lambda on_item, done, start, frames:
               _walk_expression(cx, value, on_item, done, start, frames))
        return True
    inline = generators.inline_copy(cx, info, value)
    params = generators.bind_generator_args(cx, info, value, inline)
    g = cx.held_gens[name] = HeldGenerator(name, inline.prefix, _used_in_try(cx.info.node, name) if catch is None else catch)

    def body(on_item, done, start, frames):
        outer = cx.try_frames
        with generators.entered(cx, info, inline, on_item, done, frames):
            cx.try_frames = outer       # (converting the arguments raises where they are given)
            generators.bind_parameters(cx, info, inline, params, value)
            cx.try_frames = frames
            start()
            cx.stmts(inline.node.body)
    _build(cx, g, node, body)
    return True


def _iter_of_held(cx, node: ast.Assign) -> bool:
    """`it = iter(g)` of a generator `g` held: `it` holds the same generator (CPython's
    iter() of a generator is the generator itself); `it = iter(it)`, of a parameter given
    one (generator_args.py), changes nothing."""
    value, name = node.value, node.targets[0].id
    if not (isinstance(value, ast.Call) and len(value.args) == 1 and not value.keywords
            and global_callee(cx, value.func) is iter):
        return False
    g = held(cx, value.args[0])
    if g is None:
        return False
    if cx.held_gens.get(name) is not g:
        check_uses(cx, name, node)
        if name in cx.held_gens:
            cx.error(f"'{name}' holds a generator and is assigned again: a name holding a generator "
                     "may be assigned once in compiled code", node)
        cx.held_gens[name] = g
    return True


def _walk_expression(cx, gen: ast.GeneratorExp, on_item, done, start, frames) -> None:
    """The body of a generator expression held in a variable: its walk (generators.py),
    with its first iterable evaluated at the first resumption (`_check_first_iterable`)."""
    start()
    outer, cx.try_frames = cx.try_frames, frames
    try:
        generators.walk_items(cx, gen, on_item, done, whole=True)
    finally:
        cx.try_frames = outer


def _build(cx, g: HeldGenerator, node: ast.Assign, body) -> None:
    """Build the body of `g` here: `body(on_item, done, start, frames)` writes what the
    assignment gives it (its parameters), calls `start()` (which jumps into `g.entry` and
    goes on at the body's start), then builds the body with `frames` as its ``try`` frames,
    handing each item to `on_item` and ending with a jump to `done` (or an open block)."""
    loc = cx.loc(node)
    cx.write(g.name, Const(0, T.I64))         # (read by uses only for UnboundLocalError)
    cx.write("$def:" + g.name, Const(True, T.BOOL))
    cx.write(g.var("site"), Const(0, T.I64))
    cx.write(g.var("state"), Const(INIT, T.I64))
    frames = [Frame(cx.new_block("held.raised"), exceptions.exc_var(cx))] if g.catch else []
    g.back = g.back_tail = cx.new_block("held.back")
    finish, after = cx.new_block("held.finish"), cx.new_block("held.after")
    tail, resumes = None, 0

    def on_item(v):         # the j-th yield: hand `v` to the use that resumed the body
        nonlocal tail, resumes
        resumes += 1
        cx.write(g.var("item"), v)
        cx.write(g.var("how"), Const(ITEM, T.I64))
        cx.write(g.var("state"), Const(resumes, T.I64))
        cx.goto(g.back, loc)
        resume = cx.new_block("held.resume")
        tail = _dispatch(cx, tail, g.var("state"), resumes, resume, node)
        cx.start(resume)

    def start():
        nonlocal tail
        g.entry = cx.new_block("held.entry", loop_key=node)
        cx.goto(g.entry, loc)
        cx.enter_loop_header(g.entry)
        cx.start(g.entry)
        prime, rest = cx.new_block("held.prime"), cx.new_block("held.dispatch")
        cx.branch(cx.cmp("eq", cx.read(g.var("state"), loc), Const(INIT, T.I64), node), prime, rest, loc)
        for b in (prime, rest):
            cx.seal(b)
        cx.start(prime)
        cx.write(g.var("state"), Const(0, T.I64))
        cx.goto(after, loc)
        first = cx.new_block("held.body")
        tail = _dispatch(cx, rest, g.var("state"), 0, first, node)
        cx.start(first)

    body(on_item, finish, start, frames)
    cx.goto(finish, loc)
    cx.start(tail)
    cx.goto(finish, loc)            # (exhausted: state EXHAUSTED)
    _ended(cx, g, finish, DONE, loc)
    if frames:
        _ended(cx, g, frames[0].landing, RAISED, loc, frames[0].var)
        g.catch = bool(frames[0].landing.preds)     # (a body that never raises: nothing to raise again)
    cx.seal(g.back)
    cx.seal(after)
    cx.start(after)


def _dispatch(cx, tail, var: str, k: int, target, node):
    """In the open chain block `tail`: go to `target` when `var` is `k`, else on to a new
    open block, returned (both sealed: each has its one predecessor). The current block is
    left as it was."""
    here, loc = cx.block, cx.loc(node)
    cx.start(tail)
    nxt = cx.new_block("held.dispatch")
    cx.branch(cx.cmp("eq", cx.read(var, loc), Const(k, T.I64), node), target, nxt, loc)
    cx.seal(target)
    cx.seal(nxt)
    cx.block = here
    return nxt


def _ended(cx, g: HeldGenerator, block, how: int, loc, exc_var: str | None = None) -> None:
    """`block` ends a resumption without an item: the body finished (DONE) or raised the
    exception in `exc_var` (RAISED); the generator is exhausted from then on, as CPython's."""
    cx.seal(block)
    if not block.preds:
        return
    cx.start(block)
    if exc_var is not None:
        cx.write(g.var("exc"), cx.read(exc_var, loc))
    cx.write(g.var("how"), Const(how, T.I64))
    cx.write(g.var("state"), Const(EXHAUSTED, T.I64))
    cx.goto(g.back, loc)


def check_uses(cx, name: str, assign: ast.Assign | None, fn=None) -> None:
    """`name` is assigned only here and read only after this statement (in the source),
    outside nested functions and lambdas: then every use finds this generator (or none,
    an UnboundLocalError as in CPython). `assign` None: `name` is a parameter of `fn`
    given a generator (generator_args.py), assigned nowhere else."""
    fn = cx.info.node if fn is None else fn
    where = (0, 0) if assign is None else (assign.lineno, assign.col_offset)
    allowed = set()
    if assign is not None:
        allowed.add(id(assign.targets[0]))
    else:                               # (`it = iter(it)`: the same generator, _iter_of_held)
        allowed.update(id(n.targets[0]) for n in ast.walk(fn) if isinstance(n, ast.Assign)
                       and len(n.targets) == 1 and isinstance(n.targets[0], ast.Name) and n.targets[0].id == name
                       and isinstance(n.value, ast.Call) and isinstance(n.value.func, ast.Name)
                       and n.value.func.id == "iter" and len(n.value.args) == 1
                       and isinstance(n.value.args[0], ast.Name) and n.value.args[0].id == name)
    for node in ast.walk(fn):
        if isinstance(node, (ast.Global, ast.Nonlocal)) and name in node.names:
            cx.error(f"a generator held in the global or nonlocal '{name}' is not supported in "
                     "compiled code", node)
        if isinstance(node, (ast.FunctionDef, ast.Lambda)) and node is not fn and any(
                isinstance(n, ast.Name) and n.id == name for n in ast.walk(node)):
            cx.error(f"'{name}' holds a generator and is read by a nested function or lambda: not "
                     "supported in compiled code", node)
        if not isinstance(node, ast.Name) or node.id != name or id(node) in allowed:
            continue
        if not isinstance(node.ctx, ast.Load):
            cx.error(f"'{name}' holds a generator and is assigned again: a name holding a generator "
                     "may be assigned once in compiled code", node)
        if (node.lineno, node.col_offset) < where:
            cx.error(f"'{name}' is read here before the assignment of the generator it holds (in the "
                     "source): not supported in compiled code", node)


_MUTATORS = frozenset({"append", "extend", "insert", "pop", "remove", "clear", "sort", "reverse", "update",
                       "add", "discard", "setdefault", "popitem", "appendleft", "popleft", "extendleft",
                       "rotate", "fill", "resize", "put", "difference_update", "intersection_update"})


def _check_first_iterable(cx, name: str, assign: ast.Assign) -> None:
    """A generator expression's first iterable is evaluated when it is made in CPython, and
    at its first resumption here: the same, unless a name it reads is assigned again after
    the assignment (or changed by a method: `xs.append`), which is refused."""
    gen = assign.value
    reads = {n.id for n in ast.walk(gen.generators[0].iter) if isinstance(n, ast.Name)}
    where = (assign.lineno, assign.col_offset)
    for node in ast.walk(cx.info.node):
        target = None
        if isinstance(node, ast.Name) and not isinstance(node.ctx, ast.Load):
            target = node
        elif isinstance(node, (ast.Subscript, ast.Attribute)) and not isinstance(node.ctx, ast.Load) \
                and isinstance(node.value, ast.Name):
            target = node.value
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) \
                and isinstance(node.func.value, ast.Name) and node.func.attr in _MUTATORS:
            target = node.func.value
        if target is not None and target.id in reads and (node.lineno, node.col_offset) > where:
            cx.error(f"'{target.id}' changes after the generator expression held in '{name}' is made, "
                     "and its first iterable reads it: compiled code evaluates that iterable when the "
                     "generator first runs, CPython when it is made; not supported", node)


def _used_in_try(fn: ast.FunctionDef, name: str) -> bool:
    """Whether some read of `name` stands inside a ``try`` (or a ``with``) of `fn`."""
    for node in ast.walk(fn):
        if isinstance(node, (ast.Try, ast.With)) and any(
                isinstance(n, ast.Name) and n.id == name for n in ast.walk(node)):
            return True
    return False

# ---- the uses -----------------------------------------------------------------------------


def resume(cx, g: HeldGenerator, node) -> Value:
    """Run the body of `g` until its next yield or its end, from here; the result is how
    it stopped (ITEM: the item is in `g.var("item")`, or DONE). What it raised is raised
    here."""
    loc = cx.loc(node)
    cx.read_local(g.name, node)             # (UnboundLocalError where it was never assigned)
    if cx.block is None:                    # (unreachable, inside an expression: built all the same)
        exceptions.start_dead(cx)
    g.sites += 1
    k = g.sites
    cx.write(g.var("site"), Const(k, T.I64))
    cx.goto(g.entry, loc)
    cont = cx.new_block("held.got")
    chain = g.back_tail
    g.back_tail = _dispatch(cx, chain, g.var("site"), k, cont, node)
    cx.start(cont)
    _own_copies(cx, chain, cont, [g.var("how"), g.var("item")] + ([g.var("exc")] if g.catch else []), loc)
    how = cx.read(g.var("how"), loc)
    if g.catch:
        raised, fine = cx.new_block("held.reraise"), cx.new_block("held.ok")
        cx.branch(cx.cmp("eq", how, Const(RAISED, T.I64), node), raised, fine, loc)
        cx.seal(raised)
        cx.seal(fine)
        cx.start(raised)
        exceptions.throw(cx, cx.read(g.var("exc"), loc), loc)
        cx.start(fine)
    return how


def _own_copies(cx, chain, cont, names: list[str], loc) -> None:
    """What the body hands over (`names`, as they stand where `chain` jumps to `cont`) as
    parameters of `cont`, this use's own values: `back`'s are the values of whichever
    resumption ran last, and a value of this one read, then used after the next one
    (`a, b = next(g), next(g)`) must not become the later one's. (The builder makes no
    parameter for a block of one predecessor: these are made here, and kept.)"""
    term = chain.terminator
    k = term.succs.index(cont)
    for name in names:
        v = cx.read_in(name, chain, loc)
        if has_unknown(v.type):
            continue            # (nothing of it is typed yet: a round to be rebuilt)
        term.add_succ_arg(k, v)
        cx.write(name, cont.add_param(v.type, loc), cont)


def next_item(cx, g: HeldGenerator, default, node) -> Value:
    """`next(g)`: its next item, or StopIteration (no message, as CPython's) when it has
    none; `next(g, default)`: `default` then."""
    loc = cx.loc(node)
    got = cx.cmp("eq", resume(cx, g, node), Const(ITEM, T.I64), node)
    if default is None:
        cx.emit("check", [cx.emit("not", [got], T.BOOL, None, loc)], T.NONE, ExcInfo("StopIteration", None), loc)
        return cx.read(g.var("item"), loc)
    return cx.choose(got, lambda: cx.read(g.var("item"), loc), lambda: optional.expr_opt(cx, default), node)


def walk(cx, g: HeldGenerator, node, on_item, done) -> None:
    """`on_item(x)` for each item `g` gives from where it stands (generators.walk_items);
    then a jump to `done`. `on_item` may jump to `done` itself, leaving `g` resumable."""
    loc = cx.loc(node)
    header = cx.new_block("held.loop", loop_key=node)
    cx.goto(header, loc)
    cx.enter_loop_header(header)
    cx.start(header)
    got = cx.cmp("eq", resume(cx, g, node), Const(ITEM, T.I64), node)
    body = cx.new_block("held.item")
    cx.branch(got, body, done, loc)
    cx.seal(body)
    cx.start(body)
    on_item(cx.read(g.var("item"), loc))
    cx.goto(header, loc)
    cx.seal(header)


def settle(cx) -> None:
    """Once the function is built: seal each generator's `entry` (every use that jumps to
    it is built), end `back`'s chain (no other use: never taken), then carry the values
    that live across a resumption (`_carry_across`)."""
    for g in cx.held_gens.values():
        set_terminator(g.back_tail, "raise", [], attr=ExcInfo("RuntimeError", "held generator resumed "
                                                              "from nowhere"), loc=None)
    _widen_all(cx)
    for g in cx.held_gens.values():
        cx.seal(g.entry)
    if cx.held_gens:
        _carry_across(cx)


def _widen_all(cx) -> None:
    """Record at once the type hints of every parameter of the `entry` blocks typed before
    their uses were built, and rebuild (Restart) when one widened: sealing them one by one
    would find one per round (each a variable assigned only after the assignment of the
    generator: the consumer's, and the body's own locals)."""
    widened, done = False, set()
    while True:
        todo = [(g.entry, var, p) for g in cx.held_gens.values()
                for var, p in cx.incomplete.get(g.entry, {}).items() if id(p) not in done]
        if not todo:
            break
        for entry, var, param in todo:
            done.add(id(param))
            t = param.type
            for pred in entry.preds:
                t = unify_types(t, cx.read_in(var, pred, param.loc).type) or t
            if has_unknown(t):
                t = _written_type(cx, var, t)
            if t != param.type:
                cx.hints[(cx.block_keys.get(entry), var)] = t
                widened = True
    if widened:
        cx.hints_changed = True
        raise Restart()


def _written_type(cx, var: str, t: T.Type) -> T.Type:
    """The type of what the body writes to its local `var`, where no path into `entry`
    carries a value of it (no use resumes the body after a yield: one `next(g)`, or
    none): the resumptions that would read it never run, but their blocks are typed."""
    for defs in cx.defs.values():
        v = defs.get(var)
        if v is not None and not has_unknown(v.type):
            t = v.type if has_unknown(t) else unify_types(t, v.type) or t
    return t


def _carry_across(cx) -> None:
    """A value computed before a resumption and used after it (`out` of `out.append(next(g))`,
    `a` of `a + next(g)`: read before the jump into the body) does not dominate its use: the
    body is entered from every use and left to each through the dispatch on `site`, which
    the CFG cannot tell apart. Each such use takes the value through block parameters built
    as for a variable assigned where the value is made (Braun et al.): on the paths from
    other uses they carry a typed zero, never read, since `back` goes on only to the use
    that jumped in."""
    dom = DomTree(cx.func)
    made = {v: b for b in cx.func.blocks for v in (*b.params, *b.instrs)}
    crossing = 0
    for b in list(dom.order):
        for instr in list(b.instrs):
            for k, v in enumerate(list(instr.operands)):
                home = made.get(v)
                if home is None or home is b or dom.dominates(home, b):
                    continue
                var = f"$carried{id(v)}"
                if var not in cx.defs[home]:
                    crossing += 1
                    cx.defs[home][var] = v
                instr.set_operand(k, cx.read_in(var, b, v.loc))
