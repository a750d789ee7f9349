"""bce: bounds-check elimination from the ranges of counted loops.

Does: finds loop induction variables of the shape the frontend gives a `for` over a range
with step 1 — a header parameter ``%i`` whose entry arguments are constants >= 0 (the least
is ``lo``) and whose back-edge arguments are ``add %i, 1``, tested by the header's
``cbr (cmp.lt %i, %n)`` — and, in the blocks the loop body dominates (where
``lo <= %i < %n`` holds), rewrites the checks of indices ``%i + d`` (d a small constant):
``cmp.lt %j, 0`` to false when ``lo + d >= 0``; ``cmp.ge %j, %B`` to false and
``cmp.lt %j, %B`` to true when ``%n`` is ``%B + k`` (``%B`` a `dim`, or ``%n`` itself with
k = 0) and ``d + k <= 0``; ``select (cmp.lt %j, 0), _, %j`` to ``%j``. The same for a
mirrored index ``(%B + q) - (%i + e)`` (`_mirror`: ``a[len(a) - 1 - i]``, which runs from
the end down), with ``%n`` being ``%B + k``. So the stencil
``for i in range(1, len(a) - 1): a[i - 1] + a[i + 1]`` runs without checks. The index checks of ``a[i]`` for
``for i in range(len(a))`` then fold away (constfold, dce), since CSE has made the loop bound
and the check's ``dim.0 %a`` one value.

Why the induction is sound: ``%i`` starts >= 0, and in the body ``%i < %n <= INT_MAX``, so
``%i + 1`` cannot wrap: every value of ``%i`` in the body lies in ``[0, %n)``.

Also: a countdown ``%j`` (`_countdown`: entered as ``%i + d``, d <= 0, with ``%i`` such an
induction variable of an enclosing loop, stepped by -1 and tested ``%j >= 0``) lies in
``[0, %n + d)`` in its body, which decides the checks of ``b[j]`` and ``b[j + 1]`` of
insertion sort's ``while j >= 0 and b[j] > x``; and a `check` of the condition of a
`check` that dominates it is deleted.

Assumes: verified IR. Preserves: behaviour (only comparisons whose value is known change,
and checks that cannot fail go). Stats: ``rewritten`` comparisons and selects, ``repeated``
checks, comparisons ``decided`` by a branch (`_decide_by_branches`).
"""

from __future__ import annotations

from collections import Counter

from script.ir import types as T
from script.ir.core import BlockParam, Const, Function, Instr, replace_all_uses_with
from script.ir.dom import DomTree


def _induction(header, cond, body, dom) -> tuple[BlockParam, object, int] | None:
    """(%i, %n, lo) when `cond` is ``cmp.lt %i, %n`` on a step-1 induction variable of
    `header` whose increments are all computed inside the body (where ``%i < %n``) and
    whose entry values are constants, the least of them `lo` (>= 0)."""
    if not (isinstance(cond, Instr) and cond.opname == "cmp" and cond.attr == "lt"):
        return None
    i, n = cond.operands
    if not (isinstance(i, BlockParam) and i.block is header and isinstance(i.type, T.IntType)
            and i.type.signed):
        return None
    lo = None
    for _, arg in header.incoming(header.params.index(i)):
        if isinstance(arg, Const):
            if arg.value < 0:
                return None
            lo = arg.value if lo is None else min(lo, arg.value)
        elif not (isinstance(arg, Instr) and arg.opname == "add" and arg.operands[0] is i
                  and isinstance(arg.operands[1], Const) and arg.operands[1].value == 1
                  and dom.dominates(body, arg.block)):
            return None
    return (i, n, lo) if lo is not None else None


_LIMIT = 1 << 40        # offsets this small cannot wrap an index of an array's length


def _offset(v, i) -> int | None:
    """d when `v` is ``%i + d`` (adds and subtracts of small constants), else None."""
    d = 0
    while v is not i:
        if not (isinstance(v, Instr) and v.opname in ("add", "sub")):
            return None
        x, c = v.operands
        if v.opname == "add" and isinstance(x, Const):
            x, c = c, x
        if not isinstance(c, Const) or abs(c.value) > _LIMIT:
            return None
        d += c.value if v.opname == "add" else -c.value
        v = x
    return d


def _split(n) -> tuple[object, int]:
    """(B, k) with ``n == B + k`` exactly: B a `dim` (a length: no wrap) and k a small
    constant, or (n, 0)."""
    if isinstance(n, Instr) and n.opname in ("add", "sub") and isinstance(n.operands[1], Const) \
            and abs(n.operands[1].value) <= _LIMIT and isinstance(n.operands[0], Instr) \
            and n.operands[0].opname == "dim":
        c = n.operands[1].value
        return n.operands[0], c if n.opname == "add" else -c
    return n, 0


def _known(instr: Instr, i, n, lo: int, shift: int = 0):
    """The value `instr` has where ``lo <= i < n + shift`` (`shift` <= 0), or None. An index
    ``i + d`` is >= 0 when ``lo + d >= 0``, and below ``B`` when ``n == B + k`` and
    ``d + shift + k <= 0``."""
    if instr.opname == "cmp":
        v, other = instr.operands
        d = _offset(v, i)
        if d is None:
            return _known_mirror(instr, _mirror(v, i, n, lo, shift))
        if isinstance(other, Const) and other.value == 0 and lo + d >= 0 and instr.attr in ("lt", "ge"):
            return Const(instr.attr == "ge", T.BOOL)
        base, k = _split(n)
        d += shift
        if instr.attr in ("ge", "lt") and (other is base and d + k <= 0 or other is n and d <= 0):
            return Const(instr.attr == "lt", T.BOOL)
        return None
    if instr.opname == "select":
        c, _, v = instr.operands
        if not (isinstance(c, Instr) and c.opname == "cmp" and c.attr == "lt" and c.operands[0] is v
                and isinstance(c.operands[1], Const) and c.operands[1].value == 0):
            return None
        d = _offset(v, i)
        if lo + d >= 0 if d is not None else _known_mirror(c, _mirror(v, i, n, lo, shift)) is not None:
            return v
    return None


def _mirror(v, i, n, lo: int, shift: int):
    """(B, low, high) when `v` is ``(B + q) - (%i + e)``, B a `dim` that `n` is ``B + k``
    of: ``a[len(a) - 1 - i]``. Where ``lo <= i <= B + k - 1 + shift``, `v` lies in
    ``[q - k + 1 - shift - e, B + q - lo - e]``: `low` says it is >= 0 (``q - k + 1 - shift
    - e >= 0``), `high` that it is < B (``q - lo - e < 0``). None otherwise. A length and
    offsets within `_LIMIT` do not wrap, as for `_offset`."""
    if not (isinstance(v, Instr) and v.opname == "sub"):
        return None
    m, j = v.operands
    e = _offset(j, i)
    if e is None:
        return None
    base, q = _split(m)
    nbase, k = _split(n)
    if not (isinstance(base, Instr) and base.opname == "dim" and nbase is base):
        return None
    return base, q - k + 1 - shift - e >= 0, q - lo - e < 0


def _known_mirror(cmp: Instr, mirror):
    """The value of ``cmp.P %v, 0`` or ``cmp.P %v, B`` (P lt or ge) for a `_mirror` %v."""
    if mirror is None or cmp.opname != "cmp" or cmp.attr not in ("lt", "ge"):
        return None
    base, low, high = mirror
    other = cmp.operands[1]
    if isinstance(other, Const) and other.value == 0 and low:
        return Const(cmp.attr == "ge", T.BOOL)
    if other is base and high:
        return Const(cmp.attr == "lt", T.BOOL)
    return None


def _countdown(header, cond, body, dom):
    """(%j, e) when `cond` is ``cmp.ge %j, 0`` on a header parameter %j of `header` that
    enters the loop as `e` on every edge from outside and whose back-edge arguments are all
    ``sub %j, 1`` (or ``add %j, -1``) computed in the body (where ``%j >= 0``, so they
    cannot wrap): in the blocks the body dominates, ``0 <= %j <= e``. The shape of
    ``j = i - 1; while j >= 0 and …: …; j -= 1`` (insertion sort)."""
    if not (isinstance(cond, Instr) and cond.opname == "cmp" and cond.attr == "ge"
            and isinstance(cond.operands[1], Const) and cond.operands[1].value == 0):
        return None
    j = cond.operands[0]
    if not (isinstance(j, BlockParam) and j.block is header and j.type == T.I64):
        return None
    entry = None
    for pred, arg in header.incoming(header.params.index(j)):
        if isinstance(arg, Instr) and arg.opname in ("sub", "add") and arg.operands[0] is j \
                and isinstance(arg.operands[1], Const) \
                and arg.operands[1].value == (1 if arg.opname == "sub" else -1):
            if not dom.dominates(body, arg.block):
                return None
        elif dom.dominates(header, pred):
            return None                       # another back edge
        elif entry is None or entry is arg:
            entry = arg
        else:
            return None
    return (j, entry) if entry is not None else None


def _rewrite(func, dom, body, facts, stats) -> bool:
    """Rewrite the comparisons and selects of the blocks `body` dominates that `facts`
    (arguments of `_known`) decide."""
    changed = False
    for block in func.blocks:
        if not dom.dominates(body, block):
            continue
        for instr in list(block.instrs):
            value = _known(instr, *facts)
            if value is None or value is instr:
                continue
            replace_all_uses_with(instr, value)
            stats["rewritten"] += 1
            changed = True
    return changed


def _drop_repeated_checks(func, dom, stats) -> bool:
    """A `check` of the very condition of a `check` that dominates it cannot fail (the
    first raised if it held): ``b[j + 1] = b[j]`` after ``b[j] > x`` tests ``b[j]`` once."""
    changed = False
    seen = {}
    for block in func.blocks:
        for instr in list(block.instrs):
            if instr.opname != "check":
                continue
            cond = instr.operands[0]
            first = seen.get(id(cond))
            if first is not None and first is not instr and first.block is not None \
                    and dom.dominates(first.block, block) \
                    and (first.block is not block or block.instrs.index(first) < block.instrs.index(instr)):
                instr.erase()
                stats["repeated"] += 1
                changed = True
            elif first is None or first.block is None:
                seen[id(cond)] = instr
    return changed


_SWAPPED = {"lt": "gt", "le": "ge", "gt": "lt", "ge": "le", "eq": "eq", "ne": "ne"}
_NEGATED = {"lt": "ge", "le": "gt", "gt": "le", "ge": "lt", "eq": "ne", "ne": "eq"}


def _compare_key(cmp) -> tuple | None:
    """(predicate, x, y) of a ``cmp``, its operands (a value by its identity, a constant by
    its type and value) in a fixed order (``x > y`` is ``y < x``)."""
    if not (isinstance(cmp, Instr) and cmp.opname == "cmp" and cmp.attr in _SWAPPED):
        return None
    x, y = (("const", str(v.type), v.value) if isinstance(v, Const) else ("value", id(v)) for v in cmp.operands)
    if x[0] == y[0] == "const":
        return None
    if x > y:
        return _SWAPPED[cmp.attr], y, x
    return cmp.attr, x, y


def _decide_by_branches(func, dom: DomTree | None, stats) -> bool:
    """A comparison in a block that only the true (false) edge of ``cbr (cmp.P %x, %y)``
    dominates is true (false) when it is the same comparison, and, of ints, false (true)
    when it is its negation: ``counts[b] += 1`` under ``if 0 <= b < n`` checks ``b < 0``
    and ``b >= n``, which are then false (the interval of `ranges` cannot say it of a
    run-time ``n``). (Of floats the negation is not decided: NaN fails both.)"""
    facts: dict = {}            # compare key -> [(block the edge enters, truth)]
    for block in func.blocks:
        term = block.terminator
        if term is None or term.opname != "cbr" or term.succs[0] is term.succs[1]:
            continue
        key = _compare_key(term.operands[0])
        if key is None:
            continue
        for succ, truth in zip(term.succs, (True, False)):
            if succ.preds == [block]:
                facts.setdefault(key, []).append((succ, truth))
    if not facts:
        return False
    dom = dom or DomTree(func)

    def known(key, block):          # the truth of comparison `key` where an edge decides it
        return next((truth for edge, truth in facts.get(key, ()) if dom.dominates(edge, block)), None)
    changed = False
    for block in func.blocks:
        for instr in list(block.instrs):
            key = _compare_key(instr)
            if key is None:
                continue
            value = known(key, block)
            if value is None and isinstance(instr.operands[0].type, T.IntType):
                negated = known((_NEGATED[key[0]], *key[1:]), block)
                value = None if negated is None else not negated
            if value is not None:
                replace_all_uses_with(instr, Const(value, T.BOOL))
                stats["decided"] += 1
                changed = True
    return changed


def run(func: Function, stats: Counter | None = None) -> bool:
    stats = stats if stats is not None else Counter()
    dom = None
    changed = False
    inductions = []
    countdowns = []
    for header in list(func.blocks):
        term = header.terminator
        if term is None or term.opname != "cbr":
            continue
        body = term.succs[0]
        if body is header or body.preds != [header] or term.succs[1] is body:
            continue
        dom = dom or DomTree(func)
        found = _induction(header, term.operands[0], body, dom)
        if found is None:
            down = _countdown(header, term.operands[0], body, dom)
            if down is not None:
                countdowns.append((header, body, *down))
            continue
        i, n, lo = found
        inductions.append((body, i, n, lo))
        changed = _rewrite(func, dom, body, (i, n, lo), stats) or changed
    # A countdown from e = %i + d, %i an induction < %n around it: 0 <= %j <= %i + d < %n + d.
    for header, body, j, e in countdowns:
        for outer_body, i, n, lo in inductions:
            d = _offset(e, i)
            if d is not None and d <= 0 and dom.dominates(outer_body, header):
                changed = _rewrite(func, dom, body, (j, n, 0, d), stats) or changed
                break
    if dom is not None:
        changed = _drop_repeated_checks(func, dom, stats) or changed
    return _decide_by_branches(func, dom, stats) or changed
