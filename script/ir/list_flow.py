"""Which parameters' lists a module's entry function may write, and which reach its result.

Lists passed from Python are the caller's lists: the entry point copies them in and, for the
parameters `param_list_effects` reports written or returned, writes them back after the call
and maps returned argument lists to the caller's objects (backend.runtime.list_reflect). The
frontend (frontend/list_args.py) uses the same facts for what cannot be written back: the
tables of dict and set arguments, and values converted on their way into an argument list.

The analysis follows objects, not just values. Values that may be the same list object
share a class (union-find over the lists in values, a tuple's one by one): a block
parameter and its arguments, a select and its choices, a tuple's item and its operand, an
extract and the tuple's item. A call's result may be any list its operands reach.
Each class has `origin`, the entry function's parameters whose lists (or lists inside
them) it may be, and `inside`, the parameters whose lists may be stored inside it:

- ``list_get %l``: the element may be any list inside `%l`, so its origin takes `%l`'s
  origin one level down and its inside; and what is stored in the element is inside `%l`
  (its inside takes the element's origin and inside);
- ``list_set %l, %v``: `%l`'s inside takes `%v`'s origin and inside;
- a call: a list operand able to hold lists may have the other operands stored in it. Its
  result may be an operand (its origin takes theirs) or hold their lists (its inside takes
  what is in them), and may be one of the lists inside an operand only where its type
  occurs inside the operand's type: `sorted(rows)`'s copy of a list of lists is a new outer
  list holding the argument's rows, never one of them. Only the operands whose lists the
  callee's result may reach count (a summary, to a fixpoint as the writes'): the new dict
  of `dict.fromkeys(xs, 0)` or list of `heapq.nsmallest(k, xs)` is not `xs`.

A `list_id` (deepcopy's memo key) sees which lists are the same object, so the lists it may
be count as returned: the entry then copies arguments in through its memo, keeping aliases.

Origins name a parameter and a level: (k, 0) the list(s) of parameter k itself, (k, 1) a
list inside them. A write (`list_set`, `list_resize` but of the very value a `list_new`
made, or a call of a function that writes that parameter, a summary computed to a fixpoint
over the module's functions: a callee that writes only its parameter's own list, as a sort
does, writes only what the operand itself may be) to a class with an origin writes that
origin. Conservative: a list that merely holds an argument's inner lists, or anything merged
with one, may be reported too.
"""

from __future__ import annotations

from typing import Callable

from script.ir import types as T
from script.ir.core import Const, Function, Instr


def param_list_effects(funcs: list[Function], counts: Callable[[Instr], bool] | None = None
                       ) -> tuple[dict, set]:
    """({(k, level): the first instruction writing that origin}, the parameters whose lists
    the result may be or hold) for the entry function `funcs[0]`, given every function it
    may call in `funcs`. `counts(i)` says which `list_set`/`list_resize` count as writes
    (all of them by default): calls count where the callee's counted writes reach."""
    entry = funcs[0]
    if not any(holds_list(t) for t in entry.param_types):
        return {}, set()
    writes: dict[int, dict] = {id(f): {} for f in funcs}
    returns: dict[int, set] = {id(f): set() for f in funcs}
    changed = True
    while changed:                  # callee summaries to a fixpoint (recursion)
        changed = False
        for f in funcs:
            found, returned = _param_writes(f, writes, returns, counts)
            if found.keys() != writes[id(f)].keys() or returned != returns[id(f)]:
                writes[id(f)] = found
                returns[id(f)] = returned
                changed = True
    return writes[id(entry)], returns[id(entry)]


def holds_list(t: T.Type) -> bool:
    """Whether `t` holds lists: a list, a dict or set (a tuple of two lists), or a tuple of
    such."""
    return isinstance(t, T.ListType) or isinstance(t, (T.TupleType, T.HashType)) and any(
        holds_list(e) for e in t.elems)


def _inside(t: T.Type, sub: T.Type) -> bool:
    """Whether a list of type `sub` can be found inside (not at the top of) a value of
    type `t`: in an element of a list, at any depth."""
    if isinstance(t, T.ListType):
        return t.elem == sub or _inside(T.contents(t), sub)
    if isinstance(t, (T.TupleType, T.HashType)):
        return any(_inside(e, sub) for e in t.elems)
    return False


def _down(tokens: set) -> set:
    """Origins one level down: what an element of a list with these origins may be."""
    return {(k, 1) for k, _ in tokens}


def depth(t: T.Type) -> int:
    """How deep lists nest in `t` (a tuple, dict or set: its deepest item)."""
    if isinstance(t, (T.TupleType, T.HashType)):
        return max((depth(e) for e in t.elems), default=0)
    return 1 + depth(T.contents(t)) if isinstance(t, T.ListType) else 0


def _leaves(t: T.Type, path: tuple = ()):
    """The paths to the lists in a value of type `t`: () for a list, (k, ...) into tuples
    (and into dicts and sets, tuples of their two lists)."""
    if isinstance(t, T.ListType):
        yield path
    elif isinstance(t, (T.TupleType, T.HashType)):
        for k, e in enumerate(t.elems):
            yield from _leaves(e, path + (k,))


class _Classes:
    """Union-find over the lists in values, each named (id(value), path to it in tuples),
    with an origin and an inside set per class."""

    def __init__(self):
        self.parent: dict = {}
        self.origin: dict = {}
        self.inside: dict = {}

    def find(self, key):
        root = self.parent.setdefault(key, key)
        while root != self.parent[root]:
            root = self.parent[root]
        while self.parent[key] != root:
            self.parent[key], key = root, self.parent[key]
        return root

    def union(self, a, b) -> bool:
        ra, rb = self.find(a), self.find(b)
        if ra == rb:
            return False
        self.parent[rb] = ra
        self.origin[ra] = self.origin.get(ra, set()) | self.origin.pop(rb, set())
        self.inside[ra] = self.inside.get(ra, set()) | self.inside.pop(rb, set())
        return True

    def union_values(self, a, pa: tuple, b, pb: tuple, t: T.Type) -> bool:
        """Value `a` at path `pa` and `b` at `pb`, both of type `t`, are the same objects."""
        changed = False
        for path in _leaves(t):
            changed |= self.union((id(a), pa + path), (id(b), pb + path))
        return changed

    def reach(self, key) -> set:
        """What a list in this class may be or hold (origins seen from outside: the lists
        inside one of level 0 are of level 1)."""
        r = self.find(key)
        return self.origin.get(r, set()) | self.inside.get(r, set())

    def held(self, key) -> set:
        """What may be found inside a list of this class."""
        r = self.find(key)
        return _down(self.origin.get(r, set())) | self.inside.get(r, set())

    def origin_of(self, key) -> set:
        return self.origin.get(self.find(key), set())

    def reach_value(self, v) -> set:
        out: set = set()
        for path in _leaves(v.type):
            out |= self.reach((id(v), path))
        return out

    def add(self, table: dict, key, ks: set) -> bool:
        r = self.find(key)
        have = table.setdefault(r, set())
        if ks <= have:
            return False
        have |= ks
        return True

    def add_value(self, table: dict, v, ks: set) -> bool:
        changed = False
        for path in _leaves(v.type):
            changed |= self.add(table, (id(v), path), ks)
        return changed


def _param_writes(func: Function, writes: dict, returns: dict, counts) -> tuple[dict, set]:
    """({parameter index: the first instruction writing a list it holds}, the parameters
    whose lists the result may be or hold) for `func`, given the callees' summaries in
    `writes` and `returns` (a callee not summarized may return any operand's lists)."""
    c = _Classes()
    for k, p in enumerate(func.params):
        c.add_value(c.origin, p, {(k, 0)})
    if not c.origin:
        return {}, set()
    lists = lambda vs: [v for v in vs if not isinstance(v, Const) and holds_list(v.type)]    # noqa: E731
    instrs = [i for block in func.blocks for i in block.instrs]
    changed = True
    while changed:
        changed = False
        for i in instrs:
            changed |= _step(c, i, lists, returns)
    returned = set()
    for i in instrs:
        if i.opname in ("ret", "list_id"):     # (list_id: the object's identity is seen)
            for v in lists(i.operands):
                returned |= {k for k, _ in c.reach_value(v)}
    found: dict = {}
    for i in instrs:
        hit = set()
        if i.opname in ("list_set", "list_resize"):
            if counts is not None and not counts(i):
                continue
            if getattr(i.operands[0], "opname", None) == "list_new":
                continue            # SSA: the new list itself, whatever it is merged with later
            hit = c.origin_of((id(i.operands[0]), ()))
        elif i.opname == "call":
            if counts is not None and counts(i):        # a store recorded at the call (a table's)
                for v in lists(i.operands):
                    for path in _leaves(v.type):
                        hit |= c.origin_of((id(v), path))
            callee_writes = {k for k, _ in writes.get(id(i.attr), {})}
            levels = writes.get(id(i.attr), {})
            for k, v in enumerate(i.operands):
                if k not in callee_writes or isinstance(v, Const) or not holds_list(v.type):
                    continue
                for path in _leaves(v.type):
                    if (k, 0) in levels:            # the operand's own list
                        hit |= c.origin_of((id(v), path))
                    if (k, 1) in levels:            # a list inside it
                        hit |= c.held((id(v), path))
        for token in hit:
            found.setdefault(token, i)
    return found, returned


def _step(c: _Classes, i, lists, returns: dict) -> bool:
    """Apply instruction `i`'s rule (the module docstring); whether a class changed."""
    changed = False
    if i.opname in ("br", "cbr"):
        for k, s in enumerate(i.succs):
            for p, a in zip(s.params, i.succ_args(k)):
                if holds_list(p.type) and not isinstance(a, Const):
                    changed |= c.union_values(p, (), a, (), p.type)
    elif i.opname == "list_get":
        lst = i.operands[0]
        outer = c.held((id(lst), ()))
        for path in _leaves(i.type):
            changed |= c.add(c.origin, (id(i), path), outer)
            changed |= c.add(c.inside, (id(i), path), outer)
            changed |= c.add(c.inside, (id(lst), ()), c.reach((id(i), path)))
    elif i.opname == "list_set":
        v = i.operands[1]
        if holds_list(v.type) and not isinstance(v, Const):
            changed |= c.add(c.inside, (id(i.operands[0]), ()), c.reach_value(v))
    elif i.opname == "tuple":
        for k, op in enumerate(i.operands):
            if holds_list(op.type) and not isinstance(op, Const):
                changed |= c.union_values(i, (k,), op, (), op.type)
    elif i.opname == "extract" and holds_list(i.type):
        changed |= c.union_values(i, (), i.operands[0], (i.attr,), i.type)
    elif i.opname == "select" and holds_list(i.type):
        for op in lists(i.operands[1:]):
            changed |= c.union_values(i, (), op, (), i.type)
    elif i.opname == "call":
        ops = lists(i.operands)
        for op in ops:
            if depth(op.type) > 1:
                for other in ops:
                    if other is not op:
                        changed |= c.add_value(c.inside, op, c.reach_value(other))
        if i.has_result and holds_list(i.type):
            summary = returns.get(id(i.attr))
            sources = ops if summary is None else lists(
                [v for k, v in enumerate(i.operands) if k in summary])
            changed |= _call_result(c, i, sources)
    elif i.has_result and holds_list(i.type):
        for op in lists(i.operands):
            changed |= c.add_value(c.origin, i, c.reach_value(op))
    return changed


def _call_result(c: _Classes, i, ops) -> bool:
    """A call's result may be one of its list operands, hold what they hold, and be a list
    held inside one of them only where its type can be found there (the module docstring)."""
    changed = False
    for rpath, rt in _typed_leaves(i.type):
        for op in ops:
            for path, t in _typed_leaves(op.type):
                changed |= c.add(c.origin, (id(i), rpath), c.origin_of((id(op), path)))
                held = c.held((id(op), path))
                changed |= c.add(c.origin if _inside(t, rt) else c.inside, (id(i), rpath), held)
    return changed


def _typed_leaves(t: T.Type, path: tuple = ()):
    """(path, type) of each list in a value of type `t` (`_leaves` with the types)."""
    if isinstance(t, T.ListType):
        yield path, t
    elif isinstance(t, (T.TupleType, T.HashType)):
        for k, e in enumerate(t.elems):
            yield from _typed_leaves(e, path + (k,))
