"""ranges: value-range analysis; folds the overflow checks and comparisons it decides.

Does: computes an interval for every int (and bool) value (`compute`): constants, lengths
(`dim`, `list_len`, `str_len`: >= 0), `hash` (>= 0), arithmetic exactly as Python's ints
(`_intervals.transfer`; a result that may leave its type is the whole type), block
parameters as the join over their incoming edges, to a fixpoint in reverse postorder, with
widening: a loop header's parameter whose interval still grows after two rounds gets the
type's bound on the side that grew. A value is narrowed where it is used by the comparisons
that dominate the use: in a block whose only entry is the true (false) edge of
``cbr (cmp.P %x, %y)``, %x lies where ``P`` holds (fails) against %y's interval, and on
that edge itself for a block argument; so it does in a loop header entered by one such edge
from outside the loop when %x and %y are defined before it (an outer counter in an inner
loop); in the blocks a ``check`` strictly dominates, its
compares (of an ``or`` of them too) are false (``n >= 0`` past the check of
``np.zeros(n)``, ``0 <= i < len(a)`` past the index check of ``a[i]``). So a `for i in range(n)` variable is ``[0, MAX]``
at its header but ``[0, hi(n) - 1]`` in the body, and ``i + 1`` there cannot overflow.

A result whose `ovf` test is checked before anything else reads it (`_is_checked`) is
Python's exact result where it is read, since an overflow raised first: its interval is the
exact one met with int64's (``1 << n``, checked, is >= 1 after its check).

Then, with each operand's interval where the instruction is: an ``ovf.K`` whose exact
result interval fits int64 becomes false (its `check` goes in constfold and dce), and a
``cmp`` the intervals decide becomes a constant (an index's ``i < 0`` test, a loop's exit
test known on entry; and a float's comparison with 0.0 when the float is an int converted:
the zero test of ``1.0 / (n + 1)`` for an n >= 0).

Counters (`_counters`): a block parameter whose every incoming value is a counter, a
counter plus or minus values within +-16 (constants, ``state % 10``), or a value within
+-2**60 (a `for` over a `range`, ``total += 1``, ``k += 4`` in a ``while``, ``total +=
state % 10``) moves by at most 16 per executed instruction from within +-2**60; reaching
+-2**61 would take 2**56 steps, over two years of nothing but that loop at a step a
nanosecond. So a counter's interval is met with +-2**61: its ``+ 1``, ``i + j`` of two
counters and ``2 * i`` cannot overflow. (A check left in lcg_pi's loop for its
``inside += 1`` cost it its strip-mined polls: 1.7x.)

Unsigned division (`_unsigned_divmod`): an i64 ``floordiv`` or ``mod`` whose dividend is
>= 0 and whose divisor is >= 1 where it runs (a divisor that is not a power of two: those
are a shift and a mask already) is computed on u64: ``convert`` both operands to u64 (the
same bits), the op there (LLVM's ``udiv``/``urem``), ``convert`` back. Python's floor
rounding and C's truncation agree on such operands, so the sign fix-up of the signed
lowering (llvm/arith.py: a compare and a select after ``srem``, and the divisor -1 case
for a variable divisor) is not emitted: ``state % 10`` with ``state`` from a ``% m``.

Assumes: verified IR. Preserves: behaviour (only tests whose value is known change, and
divisions of operands whose sign is known take the unsigned form). Stats: ``checks``
(overflow checks dropped), ``compares`` (comparisons folded), ``divisions`` (made unsigned).

`compute` is the analysis alone, for other passes: ``Ranges.at(value, block)``.
"""

from __future__ import annotations

from collections import Counter

from script.ir import types as T
from script.ir.core import Block, BlockParam, Const, Function, Instr, Value, replace_all_uses_with
from script.ir.dom import DomTree
from script.ir.ops import OVF_OPS
from script.ir.passes import _intervals as iv

_LENGTHS = frozenset(("dim", "list_len", "str_len", "hash"))
_ROUNDS = 24            # a function whose intervals have not settled by then is left alone
_WIDEN_AFTER = 2        # updates of a block parameter before its growing bound is widened


class Ranges:
    """The intervals of one function's int values, and the comparisons that narrow them
    per block (module docstring). Valid until the function changes."""

    def __init__(self, func: Function):
        self.dom = DomTree(func)
        self.values: dict[int, iv.Interval | None] = {}
        self.facts: dict[Block, dict[int, list]] = {}
        for b in self.dom.preorder():
            self.facts[b] = self._block_facts(b)
        self.counters: set[int] = set()
        self.settled = self._solve()
        if self.settled:
            self.counters = _counters(func, self)
            if self.counters:
                self.values = {}
                self.settled = self._solve()

    # ---- queries ------------------------------------------------------------------------

    def of(self, v: Value) -> iv.Interval | None:
        """The interval of `v` anywhere it is defined (None: not reached, or not an int)."""
        if isinstance(v, Const):
            whole = iv.full(v.type)
            return None if whole is None else (int(v.value), int(v.value))
        return self.values.get(id(v))

    def at(self, v: Value, block: Block) -> iv.Interval | None:
        """The interval of `v` in `block`, narrowed by the comparisons dominating it."""
        r = self.of(v)
        if r is None or isinstance(v, Const):
            return r
        for pred, other, holds in self.facts.get(block, {}).get(id(v), ()):
            o = self.of(other)
            if o is None:
                continue
            r = iv.constrain(r, pred, o, holds)
            if r is None:
                return None         # no value gets here: the block is never reached
        return r

    # ---- facts --------------------------------------------------------------------------

    def _block_facts(self, b: Block) -> dict[int, list]:
        """The comparisons known in `b`: its immediate dominator's, those its immediate
        dominator's `check`s raise on (false past them: each compare of an ``or`` checked),
        and the one of the edge into `b` when that edge is `b`'s only entry."""
        idom = self.dom.idom.get(b)
        facts = dict(self.facts[idom]) if idom is not None and idom is not b else {}
        if idom is not None and idom is not b:
            for instr in idom.instrs:
                if instr.opname == "check":
                    for leaf in _or_leaves(instr.operands[0]):
                        if isinstance(leaf, Instr) and leaf.opname == "cmp" \
                                and iv.full(leaf.operands[0].type) is not None:
                            _add_fact(facts, leaf, False)
        if len(b.preds) == 1:
            edge = _edge_fact(b.preds[0], b)
            if edge is not None:
                _add_fact(facts, *edge)
        else:
            edge = self._loop_entry_fact(b)
            if edge is not None:
                _add_fact(facts, *edge)
        return facts

    def _loop_entry_fact(self, header: Block):
        """The comparison of the one edge entering a loop at `header` (its other edges come
        back from inside it), when both compared values are defined before the loop: they
        keep their values while it runs, so the fact holds in all of it (``i < n`` of an
        outer ``range`` in its inner loop)."""
        entries = [p for p in header.preds if not self.dom.dominates(header, p)]
        if len(entries) != 1 or entries[0].terminator.succs.count(header) != 1:
            return None
        edge = _edge_fact(entries[0], header)
        if edge is None:
            return None
        for v in edge[0].operands:
            if not isinstance(v, Const) and (v.block is header or not self.dom.dominates(v.block, header)):
                return None
        return edge

    # ---- the fixpoint -------------------------------------------------------------------

    def _solve(self) -> bool:
        """Rounds over the blocks in reverse postorder until no interval changes. An
        instruction is evaluated again only when one of its `_inputs` changed since its
        last evaluation: its interval is a function of theirs, so the result is the one of
        evaluating every instruction every round, at a fraction of the cost (after the
        first round only what a loop carries changes; the stencil of benchmarks/arrays.py
        evaluated 2,256 instructions in its two solves)."""
        order = self.dom.order
        updates: Counter = Counter()
        tick = 0
        changed_at: dict[int, int] = {}     # id(value) -> tick of its last change
        evaluated_at: dict[int, int] = {}   # id(instr) -> tick of its last evaluation
        inputs: dict[int, list[int]] = {}
        for _ in range(_ROUNDS):
            changed = False
            for b in order:
                for k, p in enumerate(b.params):
                    new = self._param(b, k, p)
                    old = self.values.get(id(p))
                    if new != old and old is not None:
                        updates[id(p)] += 1
                        if updates[id(p)] > _WIDEN_AFTER:
                            new = _widen(old, new, iv.full(p.type))
                    if id(p) in self.counters and new is not None:
                        new = iv.meet(new, _COUNTER_RANGE) or _COUNTER_RANGE
                    if new != old:
                        self.values[id(p)] = new
                        tick += 1
                        changed_at[id(p)] = tick
                        changed = True
                for i in b.instrs:
                    if not i.has_result or iv.full(i.type) is None:
                        continue
                    key = id(i)
                    last = evaluated_at.get(key)
                    if last is not None:
                        deps = inputs.get(key)
                        if deps is None:
                            deps = inputs[key] = self._inputs(i)
                        if all(changed_at.get(d, 0) < last for d in deps):
                            continue
                    tick += 1
                    evaluated_at[key] = tick
                    new = self._instr(i)
                    if new != self.values.get(key):
                        self.values[key] = new
                        tick += 1
                        changed_at[key] = tick
                        changed = True
            if not changed:
                return True
        return False

    def _inputs(self, i: Instr) -> list[int]:
        """The ids of the values `_instr(i)` reads the intervals of: its operands and the
        other sides of the comparisons that narrow them in its block (`at`)."""
        facts = self.facts.get(i.block, {})
        ids = []
        for v in i.operands:
            if isinstance(v, Const):
                continue
            ids.append(id(v))
            ids.extend(id(other) for _, other, _ in facts.get(id(v), ()) if not isinstance(other, Const))
        return ids

    def _param(self, b: Block, k: int, p: BlockParam) -> iv.Interval | None:
        if iv.full(p.type) is None:
            return None
        if not b.preds:
            return iv.full(p.type)      # the function's parameters
        r = None
        for pred, arg in b.incoming(k):
            a = self.at(arg, pred)
            edge = _edge_fact(pred, b)
            if a is not None and edge is not None:
                for v, cmp_pred, other, holds in _oriented(*edge):
                    o = self.at(other, pred)
                    if v is arg and o is not None:
                        a = iv.constrain(a, cmp_pred, o, holds)
                        if a is None:
                            break
            r = iv.join(r, a)
        return r

    def _instr(self, i: Instr) -> iv.Interval | None:
        name = i.opname
        whole = iv.full(i.type)
        if name in _LENGTHS:
            return (0, whole[1])
        if name == "cmp" or not i.op.pure:
            return whole
        ops = []
        for v in i.operands:
            r = self.at(v, i.block)
            if r is None:
                if iv.full(v.type) is not None:
                    return None         # an operand not reached yet
                return whole
            ops.append(r)
        if name == "convert" and iv.full(i.operands[0].type) is None:
            return whole
        if _is_checked(i):
            exact = iv.exact(name, *ops) if name != "shl" else iv.exact(name, ops[0], _counts(ops[1]))
            if exact is not None:
                return iv.meet(exact, whole)    # None: it always raises, nothing reads it
        return iv.transfer(name, i.attr, i.type, ops)


def _decided_float_zero(ranges: Ranges, i: Instr) -> bool | None:
    """``cmp.P (convert %x : f64), 0.0`` of an int %x: an int converts to 0.0 exactly when
    it is 0, and keeps its sign, so %x's interval decides it (a division's zero test of
    ``1.0 / ((i + j) * (i + j + 1) // 2 + i + 1)``)."""
    x, zero = i.operands
    if not (isinstance(zero, Const) and zero.value == 0.0 and isinstance(x, Instr)
            and x.opname == "convert" and iv.full(x.operands[0].type) is not None):
        return None
    r = ranges.at(x.operands[0], i.block)
    return None if r is None else iv.decide(i.attr, r, (0, 0))


def _is_checked(r: Instr) -> bool:
    """Whether every use of `r` but its own `ovf` test runs after the `check` of that test:
    then `r` is Python's exact result wherever it is read (an overflow raised first)."""
    if r.type != T.I64 or r.opname not in OVF_OPS:
        return False
    block = r.block
    tests = [u for u in r.uses if u.opname == "ovf" and u.operands[-1] is r]
    if len(tests) != 1 or tests[0].block is not block or not tests[0].uses \
            or any(c.opname != "check" or c.block is not block for c in tests[0].uses):
        return False
    order = {id(x): k for k, x in enumerate(block.instrs)}
    last_check = max(order[id(c)] for c in tests[0].uses)
    return all(u is tests[0] or u.block is not block or order[id(u)] > last_check for u in r.uses)


def _counts(b: iv.Interval) -> iv.Interval:
    """A shift count's interval clamped to [0, 64]: a checked ``x << n`` does not raise only
    where it fits, which counts from 64 on never do (for x != 0)."""
    return (min(max(b[0], 0), 64), min(max(b[1], 0), 64))


def compute(func: Function) -> Ranges:
    """The value ranges of `func` (see `Ranges`)."""
    return Ranges(func)


def run(func: Function, stats: Counter | None = None) -> bool:
    candidates = [i for i in func.instructions()
                  if i.opname == "ovf" or i.opname == "cmp" and (iv.full(i.operands[0].type) is not None
                                                                 or isinstance(i.operands[0].type, T.FloatType))]
    divisions = [i for i in func.instructions() if i.opname in ("floordiv", "mod") and i.type == T.I64
                 and not _is_power_of_two(i.operands[1])]
    if not any(i.opname == "ovf" for i in candidates) and len(func.blocks) == 1 and not divisions:
        return False                    # constfold decides a straight line's constant tests
    ranges = Ranges(func)
    if not ranges.settled:
        return False
    folded = Counter()
    for i in candidates:
        value = _decided(ranges, i)
        if value is None:
            continue
        replace_all_uses_with(i, Const(value, T.BOOL))
        i.erase()
        folded["checks" if i.opname == "ovf" else "compares"] += 1
    for i in divisions:
        if _unsigned_divmod(ranges, i):
            folded["divisions"] += 1
    for i in [i for i in func.instructions() if i.opname == "check"]:
        if _clamped_index(ranges, i):
            folded["clamped"] += 1
    if stats is not None:
        stats.update(folded)
    return bool(folded)


def _is_power_of_two(v: Value) -> bool:
    return isinstance(v, Const) and v.value > 0 and v.value & (v.value - 1) == 0


def _unsigned_divmod(ranges: Ranges, i: Instr) -> bool:
    """Rewrites `i` (an i64 ``floordiv``/``mod``) on u64 when its dividend is >= 0 and its
    divisor >= 1 where it runs (module docstring)::

        %2 = mod %0, 10:i64 : i64   ->   %a = convert %0 : u64
                                         %b = mod %a, 10:u64 : u64
                                         %2 = convert %b : i64
    """
    x, y = (ranges.at(v, i.block) for v in i.operands)
    if x is None or y is None or x[0] < 0 or y[0] < 1:
        return False
    block, index = i.block, i.block.instrs.index(i)
    ops = []
    for v in i.operands:
        if isinstance(v, Const):
            ops.append(Const(v.value, T.U64))
            continue
        ops.append(block.insert(index, Instr("convert", [v], T.U64, loc=i.loc)))
        index += 1
    op = block.insert(index, Instr(i.opname, ops, T.U64, loc=i.loc))
    back = block.insert(index + 1, Instr("convert", [op], T.I64, loc=i.loc))
    replace_all_uses_with(i, back)
    i.erase()
    return True


def _index_test(cond: Value):
    """(v, B) when `cond` is an index check ``or (cmp.lt %w, 0), (cmp.ge %w, %B)`` of %w
    being %v or NumPy's negative-index fix-up ``select (cmp.lt %v, 0), (add %v, %B), %v``."""
    if not (isinstance(cond, Instr) and cond.opname == "or"):
        return None
    low, high = cond.operands
    if isinstance(low, Instr) and low.opname == "cmp" and low.attr == "ge":
        low, high = high, low
    if not (isinstance(low, Instr) and low.opname == "cmp" and low.attr == "lt" and isinstance(high, Instr)
            and high.opname == "cmp" and high.attr == "ge" and high.operands[0] is low.operands[0]
            and isinstance(low.operands[1], Const) and low.operands[1].value == 0):
        return None
    w, bound = high.operands
    if isinstance(w, Instr) and w.opname == "select":
        c, wrapped, v = w.operands
        if not (isinstance(c, Instr) and c.opname == "cmp" and c.attr == "lt" and c.operands[0] is v
                and isinstance(c.operands[1], Const) and c.operands[1].value == 0
                and isinstance(wrapped, Instr) and wrapped.opname == "add"
                and {id(x) for x in wrapped.operands} == {id(v), id(bound)}):
            return None
        w = v
    return w, bound


def _below(ranges: Ranges, x: Value, bound: Value, facts: list, at: Block) -> bool:
    """Whether `x` lies in ``[0, %B)`` wherever %B >= 1, by `facts` ((pred, other, holds)
    comparisons of `x` known where it is used, in block `at`): the constant 0, ``%B - 1``,
    or a value >= 0 known below %B."""
    if isinstance(x, Const):
        return x.value == 0
    if isinstance(x, Instr) and x.operands and x.operands[0] is bound and isinstance(x.operands[-1], Const) \
            and (x.opname, x.operands[1].value) in (("sub", 1), ("add", -1)):
        return True
    r = ranges.at(x, at)
    for pred, other, holds in facts:
        if r is not None and other is not bound:
            o = ranges.at(other, at)
            if o is not None:
                r = iv.constrain(r, pred, o, holds)
    if r is None or r[0] < 0:
        return False
    return any(other is bound and (pred == "lt") == holds and pred in ("lt", "ge") for pred, other, holds in facts)


def _clamped_index(ranges: Ranges, check: Instr) -> bool:
    """An index check of a value that is 0, ``%B - 1`` or known in ``[0, %B)`` on every edge
    into its block (a bin clamped into the ends: ``b = 0`` / ``b = nbins - 1`` / ``b``
    tested against both): whenever %B >= 1 it is in bounds, and when %B <= 0 no index is, so
    the check fails exactly when ``%B <= 0``, a test that does not depend on the index (LLVM
    then takes it out of the loop); past it, the index is >= 0, so what the negative-index
    fix-up gives is %v itself. The message keeps its operands::

        %4 = or (cmp.lt %w, 0), (cmp.ge %w, %B)   ->   %4 = cmp.le %B, 0:i64
        check %4, IndexError "...", %v, 0, %B          check %4, IndexError "...", %v, 0, %B
    """
    found = _index_test(check.operands[0])
    if found is None or found[1].type != T.I64:
        return False
    v, bound = found
    block = v.block if isinstance(v, BlockParam) else None
    if block is None or not block.preds or v.type != T.I64:
        return False
    for pred in dict.fromkeys(block.preds):
        term = pred.terminator
        for k, succ in enumerate(term.succs):
            if succ is not block:
                continue
            arg = term.succ_args(k)[v.index]
            facts = list(ranges.facts.get(pred, {}).get(id(arg), ()))
            cond = term.operands[0] if term.opname == "cbr" else None
            if isinstance(cond, Instr) and cond.opname == "cmp":      # the edge's own test
                facts += [(p, o, k == 0) for x, p, o, _ in _oriented(cond, True) if x is arg]
            if not _below(ranges, arg, bound, facts, pred):
                return False
    test = Instr("cmp", [bound, Const(0, T.I64)], T.BOOL, "le", check.loc)
    here = check.block
    here.insert(here.instrs.index(check), test)
    fixup = check.operands[0].operands[1].operands[0]      # %w of the ``cmp.ge %w, %B``
    check.set_operand(0, test)
    if fixup is not v:              # past the check %v >= 0: the fix-up gives %v itself
        after = here.instrs.index(check)
        for u in list(fixup.uses):
            if u.block is here and here.instrs.index(u) > after \
                    or u.block is not here and ranges.dom.dominates(here, u.block):
                for n, op in enumerate(u.operands):
                    if op is fixup:
                        u.set_operand(n, v)
    return True


def _decided(ranges: Ranges, i: Instr) -> bool | None:
    if i.opname == "cmp" and isinstance(i.operands[0].type, T.FloatType):
        return _decided_float_zero(ranges, i)
    ops = [ranges.at(v, i.block) for v in i.operands]
    if any(r is None for r in ops):
        return None                     # not reached (or not settled): leave it
    if i.opname == "cmp":
        return iv.decide(i.attr, ops[0], ops[1])
    r = iv.exact(i.attr, *ops[:-1])
    if r is not None and T.I64.min <= r[0] and r[1] <= T.I64.max:
        return False
    return None


_COUNTER_START = 1 << 60
_COUNTER_RANGE = (-(1 << 61), 1 << 61)
_COUNTER_STEP = 16


def _counters(func: Function, ranges: Ranges) -> set[int]:
    """The ids of the counters of `func` (module docstring): the greatest set of i64 block
    parameters whose incoming values are members, members +- a small constant, or within
    +-2**60."""
    params = [p for b in func.blocks if b.preds for p in b.params if p.type == T.I64]
    members = {id(p) for p in params}
    changed = True
    while changed:
        changed = False
        for p in params:
            if id(p) in members and not all(_counter_step(a, members, ranges)
                                            for _, a in p.block.incoming(p.index)):
                members.discard(id(p))
                changed = True
    return members


def _counter_step(a: Value, members: set[int], ranges: Ranges) -> bool:
    if _is_stepped(a, members, ranges, 8):
        return True
    r = ranges.of(a)
    return r is not None and -_COUNTER_START <= r[0] and r[1] <= _COUNTER_START


def _is_stepped(a: Value, members: set[int], ranges: Ranges, depth: int) -> bool:
    """Whether `a` is a member, or a member moved by up to `depth` adds and subtracts of
    small steps (``total += x % 10; total -= y % 3``), each one instruction."""
    if id(a) in members:
        return True
    if depth == 0 or not (isinstance(a, Instr) and a.opname in ("add", "sub")):
        return False
    x, y = a.operands
    if _is_small_step(y, ranges) and _is_stepped(x, members, ranges, depth - 1):
        return True
    return a.opname == "add" and _is_small_step(x, ranges) and _is_stepped(y, members, ranges, depth - 1)


def _is_small_step(v: Value, ranges: Ranges) -> bool:
    """Whether `v` lies within +-`_COUNTER_STEP` wherever it is defined: a constant, or a
    value such as ``x % 10`` (``total += state % 10`` moves a counter as ``k += 9`` would)."""
    r = ranges.of(v)
    return r is not None and -_COUNTER_STEP <= r[0] and r[1] <= _COUNTER_STEP


def _edge_fact(pred: Block, succ: Block):
    """(cmp, holds) when the edge pred -> succ is taken exactly when that comparison of ints
    is `holds`; else None."""
    term = pred.terminator
    if term is None or term.opname != "cbr" or term.succs[0] is term.succs[1]:
        return None
    cond = term.operands[0]
    if not (isinstance(cond, Instr) and cond.opname == "cmp" and iv.full(cond.operands[0].type) is not None):
        return None
    return cond, term.succs[0] is succ


def _or_leaves(v: Value) -> list:
    """The operands of a tree of bool ``or``s (`v` itself when it is none)."""
    if isinstance(v, Instr) and v.opname == "or" and v.type == T.BOOL:
        return [x for op in v.operands for x in _or_leaves(op)]
    return [v]


def _oriented(cmp: Instr, holds: bool):
    """``(v, pred, other, holds)`` for each side `v` of `cmp`, the predicate read from it."""
    a, b = cmp.operands
    return [(a, cmp.attr, b, holds), (b, iv.swapped(cmp.attr), a, holds)]


def _add_fact(facts: dict, cmp: Instr, holds: bool) -> None:
    for v, pred, other, h in _oriented(cmp, holds):
        if not isinstance(v, Const):
            facts[id(v)] = [*facts.get(id(v), ()), (pred, other, h)]


def _widen(old: iv.Interval, new: iv.Interval | None, whole: iv.Interval) -> iv.Interval | None:
    if new is None:
        return old
    return (whole[0] if new[0] < old[0] else new[0], whole[1] if new[1] > old[1] else new[1])
