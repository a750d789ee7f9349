"""Dicts and sets in compiled code: literals, comprehensions, `dict()`/`set()`, lookups,
stores, `del`, `in`, `len`, iteration and the methods (dict_methods.py).

A dict or set is a `T.HashType` value: the tuple of two lists (types.py) that the hash table
of dictlib.py works on, so it is a reference as a list is (`b = a; b[k] = v` changes `a`),
and everything lowers to list ops, `hash` and calls of dictlib.

Types. Keys are bools, ints, floats, strs or tuples of them; values anything a list holds
(strs, lists and arrays too: the entries list counts them as any list counts its elements). The
types of an empty `{}`, `set()`, `dict()` or a comprehension are not known where it is made:
a build round gives it `PendingPart` placeholders keyed by its node, the first store records
a hint (`("table", node)` -> (key, value)) and restarts the build, as for lists. Unlike a
list's, a table's types widen: storing a float value into a dict of ints rebuilds the function
with float values (the hints of every table of that type made in this function widen, since
types do not say where a value was made). A lookup of a table of unknown types settles its
key type from the key (and a `get` its value type from the default); a table nothing is
stored into has int keys and values.

Keys are converted to the key type before hashing, so `True` finds `1` and an int key finds
the equal float in a dict of floats; a float key in a dict of ints is a CompileError.

Iteration (`for k in d`, `d.items()`, ...) walks the entries in insertion order with a cursor
(a loop-carried variable), skipping deleted ones; each step checks that the table still has
the size it had when the loop began (CPython's RuntimeError otherwise).
"""

from __future__ import annotations

import ast

from script.errors import CompileError
from script.frontend import (enum_values, mixed_numbers, optional, set_ops, star_displays, strings,
                             union_values)
from script.lib.python import dictlib, setlib
from script.frontend.class_types import tie_knot
from script.frontend.callee_hints import guessed_in_callers, widen_in_callers
from script.frontend.lower_expr import WeakConst
from script.frontend.ssa_builder import Restart, holds_list
from script.frontend.unknown import (UNKNOWN, PendingElement, PendingPart, Undef, Unknown, is_pending,
                                     is_pending_optional)
from script.frontend.star_displays import has_star
from script.ir import types as T
from script.ir.core import Const, Instr, Value
from script.frontend.list_args import changes_python_type, record_converted_store

_KEY, _VALUE = 1, 2             # positions in an entry (hash, key, value)
_GLOBAL_TABLE_LIMIT = 1000      # items of a module-level dict or set copied item by item


def table_type(cx, node, is_set: bool, known=(None, None)) -> T.HashType:
    """The type of the table made at `node`: its hint, else `known`, else placeholders.
    A hint is (is_set, key type, value type), None for a part not yet known."""
    node = table_origin(cx, node)
    hint = cx.hints.get(("table", node))
    if hint is None:
        hint = (is_set,) + tuple(known)
        if known[0] is not None and (is_set or known[1] is not None):
            cx.hints[("table", node)] = hint      # (what a later store may widen)
        else:
            cx.pending_tables[node] = is_set
    return hinted_table(cx, node, hint)


def hinted_table(cx, node, hint) -> T.HashType:
    """The table type a hint gives, with the pending list and table types in it that
    have hints by now resolved (`{k: [] ...}`, then an append to a value)."""
    t = _hinted_type(node, hint)
    if any(is_pending(p) and p.node is node for p in _parts(t)):
        return t
    return resolve_pending_table(cx, t, node)     # (also a table aliased to another: `alias_pending`)


def resolve_pending_table(cx, t: T.HashType, made_at=None) -> T.HashType:
    """`resolve_pending` of a table type: a table of unknown types that has a hint by now
    (the inner `{}` of `d.setdefault(k, {})[j] = v`) takes it; the parts of a known one
    are resolved in turn (`dict[i64, list[?]]`). `made_at`: the node of the table `t` is
    (its values may be instances holding it: `tie_knot`)."""
    pending = [p for p in _parts(t) if is_pending(p)]
    if pending:
        node = pending[0].node
        hint = cx.hints.get(("table", node))
        if hint is None:
            return t
        resolving = cx.__dict__.setdefault("_resolving_tables", set())
        if id(node) in resolving:
            cx.error("a dict that holds dicts of its own type (a trie: `node = node.setdefault(c, {})`) "
                     "is not supported in compiled code: its type would never end", node)
        resolving.add(id(node))
        try:
            u = hinted_table(cx, node, hint)
            return t if u == t else cx.resolve_pending(u)
        finally:
            resolving.discard(id(node))
    key = cx.resolve_pending(t.key)
    if isinstance(t, T.SetType):
        return t if key is t.key else T.SetType(key)
    value = t.value if made_at is None else tie_knot(
        t.value, PendingPart(made_at, "value"), {PendingPart(made_at, "key"): key})
    value = cx.resolve_pending(value)
    return t if key is t.key and value is t.value else T.DictType(key, value)


def settle_pending_tables(cx) -> None:
    """At the end of a round: tables nothing was stored into have int keys and values
    (also those whose int values a read guessed, once no store changed them)."""
    changed = False
    if getattr(cx, "read_guessed", False) and not cx.hints_changed:
        for k in [k for k in cx.hints if isinstance(k, tuple) and k[0] == "table_guess"]:
            del cx.hints[k]
            changed = True
    for node, is_set in cx.pending_tables.items():
        if id(node) in cx.escaping:       # (returned to a caller that decides: callee_hints.py)
            continue
        hint = cx.hints.get(("table", node))
        if hint is None or hint[1] is None or hint[2] is None and not hint[0]:
            cx.hints[("table", node)] = (is_set, hint[1] if hint and hint[1] else T.I64,
                                         None if is_set else hint[2] if hint and hint[2] else T.I64)
            changed = True
    if changed:
        cx.hints_changed = True
        raise Restart()


def settle_table_types(cx, t: T.Type) -> None:
    """Tables of unknown types that leave the function (returned, passed) get ints."""
    if isinstance(t, T.TupleType):
        for e in t.elems:
            settle_table_types(cx, e)
    elif isinstance(t, T.HashType):
        read_table_types(cx, t, T.I64, T.I64)
        for part in _parts(t):
            cx.settle_list_types(part)


def read_table_types(cx, t: T.HashType, key: T.Type, value: T.Type | None) -> None:
    """Settle the unknown parts of `t`, about to be read with a key of type `key` (and a
    default of type `value`, or ints), and restart."""
    pending = [p for p in _parts(t) if is_pending(p)]
    if not pending:
        return
    if not T.is_key_type(key):
        key = T.I64
    guessed = value is None
    value = value if value is not None and T.is_list_element(value) else T.I64
    is_set = isinstance(t, T.SetType)
    old = cx.hints.get(("table", pending[0].node)) or (is_set, None, None)    # stores of this round
    if not is_set and is_pending(t.value) and old[2] is None and guessed:
        cx.hints[("table_guess", pending[0].node)] = True     # a store may still set it
    cx.hints[("table", pending[0].node)] = (
        is_set, t.key if not is_pending(t.key) else old[1] or key,
        None if is_set else t.value if not is_pending(t.value) else old[2] or value)
    cx.hints_changed = True
    raise Restart()


def table_origin(cx, node):
    """The node whose table the table made at `node` is (merge_pending_table), else `node`."""
    while ("table_alias", node) in cx.hints:
        node = cx.hints[("table_alias", node)]
    return node


def merge_pending_table(cx, a: T.HashType, b: T.HashType) -> None:
    """Where a table of unknown types (`{}`) meets a known one at a merge, it takes the
    known types; where it meets another of unknown types (`d = {}` again in a loop), the
    second is made as the first from the next round on, so the first store types both."""
    if type(a) is not type(b):
        return
    pa, pb = _parts(a), _parts(b)
    if pa and all(is_pending(p) for p in pa + pb):
        na, nb = table_origin(cx, pa[0].node), table_origin(cx, pb[0].node)
        if na is not nb:
            cx.hints[("table_alias", nb)] = na
            cx.hints_changed = True
            raise Restart()
        return
    for pending, known in ((a, b), (b, a)):
        parts = _parts(pending)
        if any(is_pending(p) for p in parts) and not any(is_pending(p) for p in _parts(known)):
            node = next(p for p in parts if is_pending(p)).node
            cx.hints[("table", node)] = (isinstance(known, T.SetType), known.key,
                                         getattr(known, "value", None))
            cx.hints_changed = True
            raise Restart()


def store_types(cx, d: Value, key_t: T.Type, value_t: T.Type | None, node) -> bool:
    """Make sure `d` can take a key of type `key_t` (and a value of `value_t`): widen its
    hints and restart when it cannot yet, a CompileError when it never can. True when
    `d` is a table of unknown types: the store records its types in the table's hint and
    the round goes on without it (the next round has them), so that one round settles
    every table of a function whose first uses are stores."""
    t = d.type
    is_set = isinstance(t, T.SetType)
    if not T.is_key_type(key_t):
        cx.error(f"{_kind(t)} with {key_t} keys are not supported in compiled code (keys are "
                 "bools, ints, floats, strs or tuples of them)", node)
    check_instance_key(cx, key_t, node)
    guessed = guessed_nodes(cx, t) or guessed_in_callers(cx, t)
    if not guessed and not is_set and value_t != t.value:
        # A guess a store of another table of the same type dropped this round
        # (`indeg[t] = 0` next to `users = defaultdict(list)`): still this table's to retype.
        guessed = [n for n in getattr(cx, "dropped_guesses", ())
                   if hinted_table(cx, n, cx.hints[("table", n)]) == t]
    new = [_widened(cx, t.key, key_t, node, key=True)]
    if not is_set:
        if isinstance(value_t, T.NoneType):         # `d[k] = None`: optionals (lists.none_elements)
            value_t = t.value if isinstance(t.value, T.OptionalType) else cx.none_elements(node)
        if not T.is_list_element(value_t) and not is_pending_optional(value_t):
            cx.error(f"dict values of type {value_t} are not supported in compiled code (values are "
                     "what a list holds: numbers, strs, lists, arrays, dicts, sets, None among "
                     "values, or tuples of them)", node)
        if not is_pending(t.value) and not guessed:
            cx.merge_pending(t.value, value_t)        # list[?] meeting a known list type
            alias_pending(cx, t.value, value_t)
        new.append(value_t if guessed else _widened(cx, t.value, value_t, node))
    old = _parts(t)
    for n in guessed:
        if cx.hints.pop(("table_guess", n), None) is not None:     # (a caller's guess: callee_hints.py)
            cx.dropped_guesses = getattr(cx, "dropped_guesses", set()) | {n}
        cx.hints_changed = True   # (a read of the guessed values this round gave Undef)
    if new == old:
        return False
    hint = (is_set, new[0], None if is_set else new[1])
    pending = [p for p in old if is_pending(p)]
    if pending:
        key = ("table", pending[0].node)
        before = cx.hints.get(key)
        if before is not None:      # an earlier store of this round
            hint = (is_set,) + tuple(h if b is None else T.merge(b, h) or h for b, h in zip(before[1:], hint[1:]))
        cx.hints[key] = hint
        cx.hints_changed = True
        cx.saw_unknown = cx.saw_unknown or cx.loc(node)
        return True
    widened = False
    local_guesses = {("table", n) for n in guessed if ("table", n) in cx.hints}
    for k, v in list(cx.hints.items()):
        if isinstance(k, tuple) and len(k) == 2 and k[0] == "table" and hinted_table(cx, k[1], v) == t \
                and (not local_guesses or k in local_guesses):
            # (a guessed table's store retypes that table, not another of the same type)
            cx.hints[k] = hint
            widened = True
    if not widened and not widen_in_callers(cx, t, hint):
        cx.error(f"cannot store a {_describe_store(t, key_t, value_t)} in a {t}: its types were "
                 "set where it was made", node)
    cx.hints_changed = True
    raise Restart()


def alias_pending(cx, have: T.Type, new: T.Type) -> None:
    """Where two containers of types not known yet meet as values of one dict (`d[k] = []`
    and `d.setdefault(k, []).append(x)`, `d[k] = {}` and `d.setdefault(k, {})[j] = v`),
    the new one is typed as the one the dict holds (a hint naming its placeholders), and
    the round restarts."""
    if isinstance(have, PendingElement) and isinstance(new, PendingElement) and have != new:
        cx.hints[("list", new.key)] = have
    elif isinstance(have, T.ListType) and isinstance(new, T.ListType):
        return alias_pending(cx, have.elem, new.elem)
    elif type(have) is type(new) and isinstance(have, T.HashType) and _parts(have) != _parts(new) \
            and all(is_pending(p) for p in _parts(have) + _parts(new)):
        cx.hints[("table", _parts(new)[0].node)] = (isinstance(have, T.SetType),) + tuple(_parts(have)) \
            + ((None,) if isinstance(have, T.SetType) else ())
    else:
        return
    cx.hints_changed = True
    raise Restart()


def guessed_nodes(cx, t: T.HashType) -> list:
    """The tables of type `t` whose value type a read guessed (ints) before any store:
    a store replaces it (`if k not in d: d[k] = []`) instead of widening it."""
    if isinstance(t, T.SetType):
        return []
    return [k[1] for k in cx.hints if isinstance(k, tuple) and k[0] == "table_guess"
            and hinted_table(cx, k[1], cx.hints[("table", k[1])]) == t]


def _widened(cx, have: T.Type, t: T.Type, node, key: bool = False) -> T.Type:
    """The type keys (`key`) or values of types `have` and `t` meet at: ints and floats at
    ``num``, other kinds in a union (`d[1] = ...`, `d["a"] = ...`), each keeping its type as
    in CPython (1 and 1.0 are one key: backend hashing.py)."""
    if is_pending(have) or have == t or isinstance(have, Unknown):
        return t
    if isinstance(t, Unknown):          # (an item of a list nothing is stored into yet: a round to build again)
        return have
    u = T.merge(have, t) or union_values.meet(have, t)
    if u is None or not T.is_list_element(u) or key and isinstance(u, T.UnionType) and not T.is_key_type(u):
        cx.error(f"keys or values of types {have} and {t} cannot be mixed in one compiled dict or set",
                 node)
    return u

# ---- the primitive operations -----------------------------------------------------


def new_table(cx, t: T.HashType, node) -> Value:
    """A new empty table of type `t` (a dict: no slots yet, the first store makes them;
    a set: CPython's 8, set_ops.py)."""
    if isinstance(t, T.SetType):
        return set_ops.new_set(cx, t, node)
    index = cx.new_list(T.I64, Const(1, T.I64), node)
    cx.set_item(index, Const(0, T.I64), Const(0, T.I64), node)
    entries = cx.new_list(t.entry, Const(0, T.I64), node)
    return cx.emit("tuple", [index, entries], t, None, cx.loc(node))


def table_parts(cx, d: Value, node) -> tuple[Value, Value]:
    loc = cx.loc(node)
    return (cx.emit("extract", [d], d.type.elems[0], 0, loc),
            cx.emit("extract", [d], d.type.elems[1], 1, loc))


def table_len(cx, d: Value, node) -> Value:
    index, _ = table_parts(cx, d, node)
    return cx.emit("list_get", [index, Const(0, T.I64)], T.I64, None, cx.loc(node))


def table_call(cx, fn, args, node) -> Value:
    """A call of the dictlib function `fn`. A table whose values are lists of a type not
    known yet (`{k: [] ...}` before the first append) cannot be passed on: the call is
    to the function for lists of ints, in a round that is retried (`saw_unknown`) once
    the list's type is known."""
    args = [Const(a.value, a.type) if isinstance(a, WeakConst) else a for a in args]
    types = tuple(a.type for a in args)
    if any(_has_pending_element(t) for t in types):
        cx.saw_unknown = cx.saw_unknown or cx.loc(node)
        types = tuple(_without_pending(t) for t in types)
    callee = cx.ctx.callee(cx, cx.ctx.info_for(fn), types, node)
    return cx.emit("call", args, callee.ret_type, callee, cx.loc(node))


def table_key(cx, d: Value, key: Value, node) -> Value:
    """`key` converted to the key type of `d` (settling it first when unknown)."""
    t = d.type
    if not T.is_key_type(key.type) and not isinstance(key.type, T.HashType):
        cx.error(f"{_kind(t)} with {key.type} keys are not supported in compiled code (keys are "
                 "bools, ints, floats, strs or tuples of them)", node)
    check_instance_key(cx, key.type, node)
    if is_pending(t.key):
        read_table_types(cx, t, key.type, None)
    if type(t.key) is T.VarTupleType and type(key.type) is T.TupleType \
            and all(T.unify(t.key.elem, e) == t.key.elem for e in key.type.elems):
        return cx.coerce(key, t.key, node)        # `(1, 2) in seen` of `tuple(xs)` keys
    if isinstance(t.key, T.UnionType) and union_values.meet(t.key, key.type) == t.key \
            and (key.type in t.key.alternatives or isinstance(key.type, T.UnionType)):
        return cx.coerce(Const(key.value, key.type) if isinstance(key, WeakConst) else key, t.key, node)
    if T.unify(t.key, (key.type)) != t.key:
        if T.merge(t.key, key.type) or union_values.meet(t.key, key.type):
            try:        # (a table made here, looked up with a key of another kind: keys of both)
                store_types(cx, d, key.type, getattr(t, "value", None), node)
            except CompileError:
                pass
        cx.error(f"a {t} cannot be looked up with a key of type {key.type} (convert the key "
                 f"to {t.key} first)", node)
    if isinstance(key, WeakConst):
        key = Const(key.value, key.type)
    return cx.coerce(key, t.key, node)


def probe_args(cx, d: Value, key: Value, node):
    """(index, entries, hash, key) for a call of dictlib with the converted `key`."""
    index, entries = table_parts(cx, d, node)
    if isinstance(d.type, T.SetType) and enum_values.holds_enum(key.type):
        h = enum_values.pyhash(cx, key, node)       # (its name's: CPython's set order)
    else:
        h = cx.emit("pyhash" if isinstance(d.type, T.SetType) else "hash", [key], T.I64, None, cx.loc(node))
    return [index, entries, h, key]


def table_lookup(cx, d: Value, key_node_or_value, node) -> tuple[Value, Value]:
    """(position of the key's entry or -1, the converted key)."""
    key = key_node_or_value if isinstance(key_node_or_value, Value) else cx.expr(key_node_or_value)
    if isinstance(key.type, Unknown):       # read from a `[]` typed later: the round is redone
        cx.saw_unknown = cx.saw_unknown or cx.loc(node)
        key_t = T.I64 if is_pending(d.type.key) else d.type.key
        return Undef(T.I64, cx.loc(node)), Undef(key_t, cx.loc(node))
    key = table_key(cx, d, key, node)
    find = setlib.lookkey if isinstance(d.type, T.SetType) else dictlib.lookup
    return table_call(cx, find, probe_args(cx, d, key, node), node), key


def entry_part(cx, d: Value, j: Value, part: int, node) -> Value:
    if part == _VALUE and (guessed_nodes(cx, d.type) or is_pending_optional(d.type.value)):
        # Values typed by a read alone: a store later in this round may give them their
        # type (`if k in d: d[k].append(x) else: d[k] = [x]`); the round is retried.
        cx.saw_unknown = cx.saw_unknown or cx.loc(node)
        cx.read_guessed = True
        return Undef(UNKNOWN, cx.loc(node))
    _, entries = table_parts(cx, d, node)
    e = cx.emit("list_get", [entries, j], d.type.entry, None, cx.loc(node))
    return cx.emit("extract", [e], d.type.entry.elems[part], part, cx.loc(node))


def raise_key_error(cx, cond: Value, key: Value, node) -> None:
    """KeyError(key) when `cond` holds (the key's text, as CPython's message). The repr of
    a str key is a call into CPython: it is made on the failing path only, not by every
    `d[k]` that finds its key."""
    if isinstance(cond, Const) and not cond.value:
        return
    if not _has_str(key.type) and not isinstance(key.type, (T.ClassType, T.IntFloatType, T.UnionType)):
        fmt, args = key_message(cx, key, node)
        cx.raise_if(cond, "KeyError", fmt, node, args)
        return
    loc = cx.loc(node)
    missing, found = cx.new_block("key.missing"), cx.new_block("key.found")
    cx.branch(cond, missing, found, loc)
    cx.seal(missing)
    cx.start(missing)
    fmt, args = key_message(cx, key, node)
    cx.raise_if(Const(True, T.BOOL), "KeyError", fmt, node, args)
    cx.goto(found, loc)
    cx.seal(found)
    cx.start(found)


def key_message(cx, key: Value, node):
    """A message format giving `repr(key)` and its operands (`messages.py` directives)."""
    t = key.type
    loc = cx.loc(node)
    if isinstance(t, (T.IntFloatType, T.UnionType)):     # (before tuples: it is one) its value's repr
        return "\x01%U", [mixed_numbers.split(cx, [key], lambda w: strings.str_of(cx, w, node, "r"), node)]
    if isinstance(t, T.TupleType):
        texts, args = [], []
        for k, et in enumerate(t.elems):
            f, a = key_message(cx, cx.emit("extract", [key], et, k, loc), node)
            texts.append(f)
            args += a
        inner = ", ".join(texts) + ("," if len(texts) == 1 else "")
        return "\x01(" + inner.replace("\x01", "") + ")", args
    if isinstance(t, T.BoolType):
        return "\x01%B", [key]
    if isinstance(t, T.EnumType):       # KeyError(member): read back as the member (pyhooks/keyerror.py)
        return "\x01" + enum_values.key_text(t), [enum_values.index_of(cx, key, node)]
    if isinstance(t, T.ClassType) and instance_key_text(t) is not None:
        return "\x01" + instance_key_text(t).replace("%", "%%"), []
    if isinstance(t, (T.TextType, T.VarTupleType, T.ClassType)):    # (an instance: its repr)
        return "\x01%U", [strings.str_of(cx, key, node, "r")]
    if isinstance(t, T.FloatType):
        return "\x01%R", [cx.coerce(key, T.F64, node)]
    return ("\x01%llu" if not t.signed else "\x01%lld"), [key]


def table_store(cx, d: Value, key: Value, value: Value | None, node) -> None:
    """`d[key] = value`, or `s.add(key)` when `value` is None."""
    t = d.type
    if isinstance(key.type, Unknown) or value is not None and isinstance(value.type, Unknown):
        cx.saw_unknown = cx.saw_unknown or cx.loc(node)      # (entry_part)
        return
    if value is not None and not is_pending(t.value):
        value = cx.fit_optional(t.value, value, node)
    if store_types(cx, d, key.type, value.type if value is not None else None, node):
        return
    converts = changes_python_type(key.type, t.key)
    key = table_key(cx, d, key, node)
    args = probe_args(cx, d, key, node)
    if value is None:
        store = table_call(cx, setlib.add, args, node)
    else:
        if is_pending_optional(t.value):
            return          # (None into a dict of optionals not typed yet: the round is redone)
        if isinstance(value, WeakConst):
            value = Const(value.value, value.type)
        converts = converts or changes_python_type(value.type, t.value)
        store = table_call(cx, dictlib.dict_store, args + [cx.coerce(value, t.value, node)], node)
    if converts and isinstance(store, Instr):
        record_converted_store(cx.func, store)        # (an argument table's: list_args.py)


def table_remove(cx, d: Value, key: Value, node) -> Value:
    """Delete `key` (KeyError when missing) and give the position of its entry."""
    key = table_key(cx, d, key, node)
    j = table_call(cx, dictlib.dict_remove, probe_args(cx, d, key, node), node)
    raise_key_error(cx, cx.cmp("lt", j, Const(0, T.I64), node), key, node)
    return j

# ---- making tables ----------------------------------------------------------------


def expr_Dict(cx, node: ast.Dict) -> Value:
    if None in node.keys:
        return star_displays.starred_dict(cx, node)
    keys, values = [], []
    for k, v in zip(node.keys, node.values):
        keys.append(cx.expr(k))
        values.append(optional.expr_opt(cx, v, num=True))
    known = (None, None)
    if keys:
        known = (_meet(cx, [k.type for k in keys], node, key=True), _meet(cx, [v.type for v in values], node))
        if isinstance(known[1], T.NoneType):    # `parent = {start: None}`: optionals of what
            known = (known[0], cx.none_elements(node))    # a store gives (lists.none_elements)
    d = new_table(cx, table_type(cx, node, False, known), node)
    for k, v in zip(keys, values):
        table_store(cx, d, k, v, node)
    return d


def expr_Set(cx, node: ast.Set) -> Value:
    if has_star(node.elts):
        return star_displays.starred_set(cx, node)
    values = [cx.expr(e) for e in node.elts]
    s = new_table(cx, table_type(cx, node, True, (_meet(cx, [v.type for v in values], node, key=True), None)), node)
    for v in values:
        table_store(cx, s, v, None, node)
    return s


def _meet(cx, types, node, key: bool = False) -> T.Type:
    """The type keys or values of `types` meet at (`_widened`, in turn)."""
    t = types[0]
    for u in types[1:]:
        t = _widened(cx, t, u, node, key)
    return t


def expr_DictComp(cx, node: ast.DictComp) -> Value:
    d = new_table(cx, table_type(cx, node, False), node)
    cx.comprehension(node, lambda: table_store(cx, d, optional.expr_opt(cx, node.key, num=True, union=True),
                                               optional.expr_opt(cx, node.value, num=True, union=True), node))
    return d


def expr_SetComp(cx, node: ast.SetComp) -> Value:
    s = new_table(cx, table_type(cx, node, True), node)
    cx.comprehension(node, lambda: table_store(cx, s, optional.expr_opt(cx, node.elt, num=True, union=True), None, node))
    return s


def builtin_dict(cx, node, name) -> Value:
    """`dict()`, `dict(d)` (a copy), `dict(pairs)` of an iterable of 2-tuples."""
    if node.keywords:
        cx.error("dict() with keyword arguments is not supported in compiled code", node)
    if len(node.args) > 1:
        cx.error(f"dict expected at most 1 argument, got {len(node.args)}", node)
    d = new_table(cx, table_type(cx, node, False), node)
    if node.args:
        update_from(cx, d, node.args[0], node)
    return d


def builtin_set(cx, node, name) -> Value:
    """`set()`, `set(iterable)`."""
    if node.keywords:
        cx.error("set() takes no keyword arguments", node)
    if len(node.args) > 1:
        cx.error(f"set expected at most 1 argument, got {len(node.args)}", node)
    s = new_table(cx, table_type(cx, node, True), node)
    if node.args:
        update_from(cx, s, node.args[0], node)
    return s


def update_from(cx, d: Value, arg_node, node) -> None:
    """Store every element of what `arg_node` gives into `d`: keys of a set; pairs into
    a dict (a dict argument gives its items)."""
    is_set = isinstance(d.type, T.SetType)
    if is_set:
        return set_ops.update(cx, d, arg_node, node)

    def put(x):
        if is_set:
            table_store(cx, d, x, None, node)
            return
        if not isinstance(x.type, T.TupleType) or len(x.type.elems) != 2:
            cx.error(f"dict() needs pairs (2-tuples), not {x.type}", arg_node)
        loc = cx.loc(node)
        table_store(cx, d, cx.emit("extract", [x], x.type.elems[0], 0, loc),
                    cx.emit("extract", [x], x.type.elems[1], 1, loc), node)

    if not cx.walks_generator(arg_node) and cx.builtin_call(arg_node) is None \
            and table_view(cx, arg_node) is None:
        src = cx.expr(arg_node)
        if isinstance(src.type, T.DictType) and not is_set:
            n, item, _ = table_iterable(cx, src, "items", node)
            cx.for_range(node, n, lambda i: put(item(i)))
            return
        n, item, _ = cx.iterable_value(src, arg_node)
        cx.for_range(node, n, lambda i: put(item(i)))
        return
    cx.each(arg_node, put)


def global_table(cx, obj, name: str, node) -> Value:
    """A module-level dict or set read by compiled code: a new table of its items as they
    are when the function is compiled (as a global list is, lists.py), made where it is
    read; compiled code may read it but not write it (`check_table_writable`)."""
    kind = "dict" if isinstance(obj, dict) else "set"
    if not obj:
        cx.error(f"global '{name}' is an empty {kind}, which compiled code cannot type", node)
    if len(obj) > _GLOBAL_TABLE_LIMIT:
        cx.error(f"global {kind} '{name}' has {len(obj)} items; compiled code copies at most "
                 f"{_GLOBAL_TABLE_LIMIT} (pass it as an argument instead)", node)
    plain = _constant_types(obj.items() if kind == "dict" else ((k, None) for k in obj))
    if plain is not None:
        # Made entry by entry: no value made for a later entry is alive across an earlier
        # store (alive, each would need a release on every store's error path: code
        # quadratic in the entries, minutes of LLVM for a table of a few hundred).
        t = T.SetType(_meet(cx, plain[0], node, key=True)) if kind == "set" else \
            T.DictType(_meet(cx, plain[0], node, key=True), _meet(cx, plain[1], node))
        d = new_table(cx, t, node)
        for k in obj:
            table_store(cx, d, cx.python_object(k, name, node),
                        cx.python_object(obj[k], name, node) if kind == "dict" else None, node)
    else:
        keys = [cx.python_object(k, name, node) for k in obj]
        values = [cx.python_object(v, name, node) for v in obj.values()] if kind == "dict" else []
        if not all(isinstance(v, Value) for v in keys + values):
            cx.error(f"global {kind} '{name}' holds values compiled code cannot use "
                     "(bools, ints, floats, strs, lists and tuples of them)", node)
        known = (_meet(cx, [k.type for k in keys], node, key=True),
                 _meet(cx, [v.type for v in values], node) if values else None)
        t = T.SetType(known[0]) if kind == "set" else T.DictType(*known)
        d = new_table(cx, t, node)
        for k, v in zip(keys, values or [None] * len(keys)):
            table_store(cx, d, k, v, node)
    cx.global_lists[id(d)] = name
    if isinstance(t, T.DictType) and holds_list(t.value):
        cx.global_rows[id(d)] = name      # its values' lists are read-only too (ssa_builder.emit)
    return d


def check_table_writable(cx, d: Value, node) -> None:
    """CompileError for a write to a global dict or set (`global_table`)."""
    name = cx.global_lists.get(id(d))
    if name is not None:
        kind = "set" if isinstance(d.type, T.SetType) else "dict"
        cx.error(f"global {kind} '{name}' is read-only in compiled code (it is copied when the "
                 f"function is compiled, so the write would be lost); copy it first: "
                 f"d = {kind}({name})", node)

# ---- iteration --------------------------------------------------------------------


def table_view(cx, node):
    """(dict, "keys" | "values" | "items") when `node` is `d.keys()` and the like."""
    if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
            and node.func.attr in ("keys", "values", "items") and not node.args and not node.keywords):
        return None
    base = cx.pre_evaluate(node.func.value)
    if not isinstance(base.type, T.DictType):
        if isinstance(node.func.value, ast.Name):      # read again where it is used
            cx.pre_evaluated.pop(id(node.func.value), None)
        return None
    return base, node.func.attr


def table_iterable_of(cx, node):
    """`iterable` (lower_stmt) for `d.keys()`, `d.values()`, `d.items()`, or None."""
    view = table_view(cx, node)
    if view is None:
        return None
    cx.expr(node.func.value)          # (given again by pre_evaluate)
    return table_iterable(cx, view[0], view[1], node)


def table_iterable(cx, d: Value, what: str, node):
    """(n, item, type) over the live entries of `d` in order: keys, values or items."""
    t = d.type
    settle_table_types(cx, t)
    if isinstance(t, T.SetType) and isinstance(t.key, T.ClassType):
        cx.error("iterating a set of instances is not supported in compiled code: CPython's "
                 "order follows the objects' addresses (keep a list beside it, or a dict of "
                 "them, which keeps its order)", node)
    index, entries = table_parts(cx, d, node)
    loc = cx.loc(node)
    size = cx.emit("list_get", [index, Const(0, T.I64)], T.I64, None, loc)
    last_i = cx.new_var("cursor_i", Const(-1, T.I64))     # the element given last
    last_j = cx.new_var("cursor_j", Const(-1, T.I64))     # and the entry it came from
    is_set = Const(isinstance(t, T.SetType), T.BOOL)

    def step(prev):
        after = cx.emit("add", [prev, Const(1, T.I64)], T.I64, None, loc)
        if is_set.value:        # (a set's slots in order: setlib.py)
            return table_call(cx, setlib.next_slot, [index, after, size], node)
        return table_call(cx, dictlib.next_live, [index, entries, after, size, is_set], node)

    def item(i):
        # In order, each element once; asking for the last one again (min and max read
        # the first element twice) gives it again.
        prev = cx.read(last_j, loc)
        j = cx.choose(cx.cmp("eq", i, cx.read(last_i, loc), node), lambda: prev, lambda: step(prev), node)
        cx.write(last_i, i)
        cx.write(last_j, j)
        e = cx.emit("list_get", [entries, j], t.entry, None, loc)
        key = cx.emit("extract", [e], t.key, _KEY, loc)
        if what == "keys":
            return key
        value = cx.emit("extract", [e], t.value, _VALUE, loc)
        return value if what == "values" else cx.make_tuple([key, value], node)

    def exhausted():
        # CPython's next() raises when the last step changed the size.
        changed = cx.cmp("ne", cx.emit("list_get", [index, Const(0, T.I64)], T.I64, None, loc), size, node)
        cx.raise_if(changed, "RuntimeError", "Set changed size during iteration" if isinstance(t, T.SetType)
                    else "dictionary changed size during iteration", node)

    et = {"keys": t.key, "values": getattr(t, "value", None)}.get(what) or T.TupleType([t.key, t.value])
    return TableIterable(size, item, et, exhausted)


def table_contains(cx, x: Value, d: Value, node) -> Value:
    """`x in d`: whether `d` has the key; False for a key no key of `d` can equal (`never_a_key`:
    a str in a dict of ints), as in CPython (a float in a dict of ints is a CompileError, as
    for a lookup)."""
    if never_a_key(d.type, getattr(x, "type", None)):
        return Const(False, T.BOOL, cx.loc(node))
    j, _ = table_lookup(cx, d, x, node)
    return cx.cmp("ge", j, Const(0, T.I64), node)


def _kind_of_key(t) -> str | None:
    if isinstance(t, (T.IntType, T.FloatType, T.BoolType, T.IntFloatType, T.ComplexType)):
        return "number"             # (1 == 1.0 == True: they may be equal)
    if isinstance(t, T.StrType):
        return "str"
    if isinstance(t, T.BytesType):
        return "bytes"
    if type(t) is T.TupleType:
        return f"tuple{len(t.elems)}"
    return None


def never_a_key(table: T.Type, key: T.Type | None) -> bool:
    """Whether no key of the dict or set type `table` can equal a value of type `key`: a
    number and a str, a str and bytes, tuples of other lengths (CPython's `in` is False,
    `get` gives the default)."""
    if not isinstance(table, T.HashType) or is_pending(table.key):
        return False
    b = _kind_of_key(key)
    kinds = [_kind_of_key(k) for k in (table.key.alternatives if isinstance(table.key, T.UnionType) else [table.key])]
    return b is not None and None not in kinds and b not in kinds

def _constant_types(pairs):
    """([key types], [value types]) of (key, value) pairs of plain constants (None, bools,
    ints within int64, floats, complex numbers, strs and tuples of them), as `python_object`
    makes them; None when some item is another object."""
    keys, values = [], []
    for k, v in pairs:
        kt, vt = _constant_type(k), _constant_type(v)
        if kt is None or vt is None:
            return None
        keys.append(kt)
        values.append(vt)
    return keys, values


def _constant_type(x):
    if x is None:
        return T.NONE
    if type(x) is bool:
        return T.BOOL
    if type(x) is int:
        return T.I64 if T.I64.min <= x <= T.I64.max else None
    if type(x) is float:
        return T.F64
    if type(x) is complex:
        return T.C128
    if type(x) is str:
        return T.STR
    if type(x) is tuple:
        parts = [_constant_type(e) for e in x]
        return None if None in parts else T.TupleType(parts)
    return None


def instance_key_text(t: T.ClassType) -> str | None:
    """The text of a KeyError's instance key whose class has no `__repr__`: CPython's default
    repr without its address (which is the object's, not compiled code's), else None."""
    from script.pyhooks.named_instance import lookup_class
    cls = lookup_class(t.key)
    if cls is None or cls.__repr__ is not object.__repr__:
        return None
    return f"<{cls.__module__}.{cls.__qualname__} object>"


def check_instance_key(cx, t: T.Type, node) -> None:
    """Instances are keys by identity: a class defining `__eq__` or `__hash__` is a
    CompileError (compiled code would not call them)."""
    if isinstance(t, T.ClassType):
        from script.pyhooks.named_instance import lookup_class
        cls = lookup_class(t.key)
        if cls is not None and cls.__hash__ is None:        # __eq__ without __hash__: CPython's TypeError
            cx.error(f"unhashable type: '{cls.__name__}' (it defines __eq__ and not __hash__)", node)
        if cls is None or cls.__eq__ is not object.__eq__ or cls.__hash__ is not object.__hash__:
            cx.error(f"dict keys and set elements of class '{t.key.rsplit(':', 1)[-1]}', which defines "
                     "__eq__ or __hash__, are not supported in compiled code (instances of a class "
                     "that defines neither are keys by identity)", node)


class TableIterable(tuple):
    """`iterable`'s (n, item, type) for a table, with `exhausted()`, the check a `for`
    statement runs when the loop ends by itself (lower_stmt `counted_loop`)."""

    def __new__(cls, n, item, et, exhausted):
        self = super().__new__(cls, (n, item, et))
        self.exhausted = exhausted
        return self


def _hinted_type(node, hint) -> T.HashType:
    is_set, key, value = hint
    key = key if key is not None else PendingPart(node, "key")
    if is_set:
        return T.SetType(key)
    return T.DictType(key, value if value is not None else PendingPart(node, "value"))


def _has_pending_element(t: T.Type) -> bool:
    if isinstance(t, (PendingElement, PendingPart)):
        return True
    if isinstance(t, T.ListType):
        return _has_pending_element(T.contents(t))
    if isinstance(t, T.DictType):
        return _has_pending_element(t.key) or _has_pending_element(t.value)
    if isinstance(t, T.SetType):
        return _has_pending_element(t.key)
    return isinstance(t, T.TupleType) and any(_has_pending_element(e) for e in t.elems)


def _without_pending(t: T.Type) -> T.Type:
    """`t` with ints for the pending list element and table types in it."""
    if isinstance(t, (PendingElement, PendingPart)):
        return T.I64
    if isinstance(t, T.ListType):
        return T.ListType(_without_pending(t.elem))
    if isinstance(t, T.DictType):
        return T.DictType(_without_pending(t.key), _without_pending(t.value))
    if isinstance(t, T.SetType):
        return T.SetType(_without_pending(t.key))
    if isinstance(t, T.TupleType) and not isinstance(t, T.OptionalType):
        return T.TupleType([_without_pending(e) for e in t.elems])
    return t


def _parts(t: T.HashType) -> list:
    return [t.key] + ([t.value] if isinstance(t, T.DictType) else [])


def _kind(t: T.HashType) -> str:
    return "sets" if isinstance(t, T.SetType) else "dicts"


def _describe_store(t: T.HashType, key_t, value_t) -> str:
    if isinstance(t, T.SetType):
        return f"{key_t} element"
    return f"{key_t} key and {value_t} value"


def _has_str(t: T.Type) -> bool:
    """Whether a key of type `t` holds a str, or is a tuple of a run-time length (whose repr
    is made on the failing path only)."""
    return isinstance(t, (T.StrType, T.VarTupleType)) or isinstance(t, T.TupleType) and any(map(_has_str, t.elems))
