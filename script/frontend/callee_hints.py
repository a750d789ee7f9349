"""Empty containers whose types a callee decides.

    def topo(...):
        seen = set(); order = []
        for u in ...: dfs(u, graph, seen, order)     # dfs: seen.add(u) ... order.append(str(u))
        return order

The types of an empty `[]`, `{}` or `set()` are pending (unknown.py `PendingElement`,
`PendingPart`, keyed by the AST node that made it) until the first store, which records a hint
for that node in the builder that made it, and rebuilds it. A container passed to a call
(a nested function's free variable or argument, a plain or `@script` callee's argument) before
any store keeps its pending type into the callee's specialization: the callee is built with
the caller's pending types among its argument types, its *foreign* nodes.

When a round of the callee records a hint for a foreign node (a store, a read that settles a
type, the callee's own `[]` stored into it), the callee's build stops at the end of that round:
nothing of it is cached (its entries are rolled back as for a Restart) and `CalleeHint`
carries the hints up. The builder of each caller on the way catches it where its round ends
(`Context.specialize`): it keeps the hints for nodes that are not foreign to itself (its own
containers, and the callee's own `[]`s now inside its containers' types) and restarts its
round with them; it passes on the rest, for a caller further up. Such rounds do not count
against the rounds limit while they bring new hints (each container settles once).

Tables widen (dicts.py): a callee's store that widens a table a caller typed already (`memo`
whose values a lookup guessed as ints, then `memo[k] = 0.5`) finds that table among the
callers' hints (`widen_in_callers`, `guessed_in_callers`) and reports the hint to the caller
that made it (`CalleeHint.owners`).

Hints flow the other way too, down from a caller to the function that made a container and
returned it (`make()` returning `[]`; a class's factory, records.py, returning `self.items`
among the fields; also through functions that return what they got). A function built for a
compiled caller (`Context.specialize` with a caller, `may_escape`) does not settle its
containers of pending types that it returns (`settle_returned`): their nodes are recorded in
`Context.escapes` for its key, and the caller takes them as its own (`adopt_returned`): a
store there, a callee's hint (the instance's method), or ints at the end of its round decide
them, and the round restarts. The next call of the maker from that caller is keyed by the
caller's hints for the nodes `Context.escapes` lists (`escape_hints`): the maker is built
again with them as its own hints, so its `[]` has the caller's type; each caller's hints give
their own specialization, and a call from Python settles ints as before. A specialization
whose result holds pending types was built in a caller's round that always restarts, so the
journal rolls it back.

A round that passes a pending type to a callee is rebuilt (the container's node settles by the
round's end: a store, a hint from a callee, or ints), so a specialization cached with a pending
type among its key's types is rolled back with that round (the journal of `Context`) and the
callee is kept only for the settled types.
"""

from __future__ import annotations

from script.frontend.ssa_builder import Restart, borrow_from_callers, callers_of
from script.frontend.unknown import PendingElement, PendingPart
from script.ir import types as T

_NODE_KEYS = ("list", "table", "table_guess", "stored")


class CalleeHint(Exception):
    """Hints a callee found for containers made by its callers: {hint key: hint}, and for those
    whose table was typed already (a widening store), the builder that made it."""

    def __init__(self, hints: dict, owners: dict):
        super().__init__("hints for a caller's containers")
        self.hints = hints
        self.owners = owners


def pending_parts(t: T.Type, out: dict | None = None) -> dict:
    """The pending element, key and value types inside `t`, by id of the node that made them:
    {id(node): [(kind, node, part)]} with kind "list" or "table" (part "key", "value", or None)."""
    out = {} if out is None else out

    def walk(t):
        if isinstance(t, PendingElement):
            out.setdefault(id(t.key), []).append(("list", t.key, None))
        elif isinstance(t, PendingPart):
            out.setdefault(id(t.node), []).append(("table", t.node, t.part))
        elif isinstance(t, T.ListType):
            walk(T.contents(t))
        elif isinstance(t, T.DictType):
            walk(t.key)
            walk(t.value)
        elif isinstance(t, T.SetType):
            walk(t.key)
        elif isinstance(t, T.TupleType):
            for e in t.elems:
                walk(e)
    walk(t)
    return out


def pass_pending(builder, t: T.Type, ann: T.Type | None) -> None:
    """Before `builder` passes a value of type `t` to a parameter annotated `ann` (or None):
    an annotation gives the pending types in `t` theirs; a pending type whose hint this round
    has found already restarts the round; the others go into the callee as they are."""
    parts = pending_parts(t)
    if not parts:
        return
    if ann is not None:
        builder.merge_pending_list(t, ann)          # a hint and Restart where they differ
        builder.settle_list_types(t)                # (an annotation that does not match: ints,
        builder.settle_table_types(t)               # then the call's own error)
        return
    for uses in parts.values():
        for kind, node, part in uses:
            hint = builder.hints.get((kind, node))
            if hint is not None and (kind == "list" or hint[1 if part == "key" else 2] is not None):
                builder.hints_changed = True
                raise Restart()


def settle_returned(builder, t: T.Type, node=None) -> bool:
    """Containers of pending types returned by `builder`: those of its callers stay pending
    (`xs = helper(xs)`). Its own take the types where another return has typed the
    function's result (or its annotation has: `if not xs: return []` beside `return [x * 0.5
    for x in xs]`); a return before any such one waits for the round's end (True:
    `settle_deferred_returns`). Else they escape to a compiled caller (`may_escape`), which
    decides them (`adopt_returned`), or hold ints in a function called from Python (lists.py,
    dicts.py). Either way they are recorded as escaping from this specialization."""
    parts = pending_parts(t)
    foreign = builder.foreign
    own = [use for n, uses in parts.items() if n not in foreign for use in uses]
    if not own:
        return False
    if builder.ret_type is not None:
        _give_known_types(builder, t, builder.ret_type)
    elif node is not None and ("returns_settled", None) not in builder.hints:
        builder.deferred_returns.append(t)
        return True
    key = builder.escape_key
    known = builder.ctx.escapes.get(key, ())
    found = tuple(dict.fromkeys(known + tuple((kind, node) for kind, node, _ in own)))
    if found != known and key is not None:
        builder.ctx.escapes[key] = found
    if builder.may_escape:
        builder.escaping.update(id(node) for _, node, _ in own)
        return False
    builder.settle_list_types(t)
    builder.settle_table_types(t)
    return False


def settle_deferred_returns(builder) -> None:
    """At a round's end, the returns `settle_returned` put off: redo the round, where the
    result's type is known by now (a hint), else where they are returned as they are (to
    escape to a compiled caller, or hold ints)."""
    if not builder.deferred_returns:
        return
    found = builder.ret_type is not None or any(       # or a store typed one of them already
        (kind, node) in builder.hints for t in builder.deferred_returns
        for uses in pending_parts(t).values() for kind, node, _ in uses)
    if not found:       # nothing types them: the next round returns them as they are
        builder.hints[("returns_settled", None)] = True
    builder.hints_changed = True
    raise Restart()


def _give_known_types(builder, t: T.Type, known: T.Type) -> None:
    """The pending parts of `t` take the types at the same place in `known` (a hint, then
    Restart; nothing where `known` has none or another shape)."""
    if isinstance(t, T.TupleType) and isinstance(known, T.TupleType) \
            and len(t.elems) == len(known.elems):
        for a, b in zip(t.elems, known.elems):
            _give_known_types(builder, a, b)
    else:
        if isinstance(t, T.ListType) and isinstance(t.elem, PendingElement):
            builder.hints[("stored", t.elem.key)] = True    # (typed by a hint: lists.typed_by_stores)
        builder.merge_pending_list(t, known)


def escape_hints(caller, escaping: tuple) -> dict:
    """The hints `caller` has for containers a callee makes and returns (`escaping`, their
    hint keys): the callee is built with them, so its `[]` has the type the caller gave it."""
    given = {}
    for k in escaping:
        hint = caller.hints.get(k)
        if hint is not None:
            given[k] = caller.resolve_pending(hint) if k[0] == "list" else hint
    return given


def adopt_returned(builder, t: T.Type) -> None:
    """`builder` called a function whose result (of type `t`) holds containers of pending
    types it made: they are the caller's to decide, as its own `[]`s are (a store, a callee's
    hint, or ints at the end of the round, which rebuilds the callee with the hints)."""
    if not pending_parts(t):
        return

    def walk(t, is_set=False):
        if isinstance(t, PendingElement):
            builder.pending_lists.add(t.key)
        elif isinstance(t, PendingPart):
            builder.pending_tables.setdefault(t.node, is_set)
        elif isinstance(t, T.ListType):
            walk(T.contents(t))
        elif isinstance(t, T.HashType):
            for p in (t.key, getattr(t, "value", None)):
                if p is not None:
                    walk(p, isinstance(t, T.SetType))
        elif isinstance(t, T.TupleType):
            for e in t.elems:
                walk(e)
    walk(t)


def foreign_nodes(types: tuple) -> frozenset:
    """The callers' pending nodes among a specialization's argument types (usually none)."""
    out: dict = {}
    for t in types:
        pending_parts(t, out)
    return frozenset(out)


def _is_node_key(k) -> bool:
    return isinstance(k, tuple) and len(k) == 2 and k[0] in _NODE_KEYS


def raise_foreign(foreign: frozenset, hints: dict, builder) -> None:
    """At the end of a callee's round: raise the hints it recorded for foreign nodes, and for
    its callers' typed tables that it widened (`widen_in_callers`)."""
    borrowed = getattr(builder, "borrowed", None)
    if not foreign and not borrowed:
        return
    found = {k: v for k, v in hints.items() if _is_node_key(k) and (id(k[1]) in foreign or
                                                                   borrowed and id(k[1]) in borrowed)}
    if found:
        owners = {k: borrowed[id(k[1])] for k in found if borrowed and id(k[1]) in borrowed}
        raise CalleeHint(found, owners)


def take_hints(e: CalleeHint, foreign: frozenset, hints: dict, builder) -> bool:
    """In a caller whose callee raised `e`: keep the hints for its own nodes (those not foreign
    to it, or widened tables it made), then its round restarts; raise the others on, to the
    callers further up. True when a hint changed."""
    def is_mine(k):
        owner = e.owners.get(k)
        return owner is builder if owner is not None else id(k[1]) not in foreign
    up = {k: v for k, v in e.hints.items() if not is_mine(k)}
    if up:
        raise CalleeHint(up, {k: o for k, o in e.owners.items() if k in up}) from None
    changed = False
    for k, v in e.hints.items():
        old = hints.get(k)
        if k[0] == "table" and old is not None:
            if ("table_guess", k[1]) not in e.hints and hints.pop(("table_guess", k[1]), None):
                v = (v[0], old[1] if v[1] is None else v[1], v[2])   # a store replaces guessed values
            else:                                                    # a store of this round in the caller too
                v = (v[0],) + tuple(b if h is None else h if b is None else T.merge(b, h) or h
                                    for b, h in zip(old[1:], v[1:]))
        changed = changed or hints.get(k) != v
        hints[k] = v
    return changed


def guessed_in_callers(builder, t: T.HashType) -> list:
    """The tables of type `t` made by the functions calling `builder` (being built) whose values
    a read guessed to be ints before any store (dicts.py `guessed_nodes`)."""
    if not isinstance(t, T.DictType) or t.value != T.I64 or len(builder.ctx.in_progress) < 2:
        return []
    found = []
    for caller in callers_of(builder):
        for n in caller.guessed_nodes(t):
            builder.__dict__.setdefault("borrowed", {})[id(n)] = caller
            found.append(n)
    return found


def widen_in_callers(builder, t: T.HashType, hint: tuple) -> bool:
    """A store in `builder` widens `t`, the type of a table one of its callers made: record the
    hint for that table (`raise_foreign` carries it up); False when no caller made one."""
    keys = borrow_from_callers(builder, lambda caller: [
        k for k, v in list(caller.hints.items())
        if isinstance(k, tuple) and len(k) == 2 and k[0] == "table" and caller.hinted_table(k[1], v) == t])
    for k in keys:
        builder.hints[k] = hint
    return bool(keys)
