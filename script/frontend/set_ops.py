"""Sets in CPython's order: the operations of dict_methods.py and dicts.py on sets, as
free functions of the lowering `low`, over the table of setlib.py.

A compiled set is CPython's hash table, so its order is CPython's only if every operation
builds the table CPython's way: which operand is copied, which walked, which set is made
anew. Each function here follows the CPython function it names (Objects/setobject.c,
3.11): `update` is set_update_internal (a set merged, a dict's keys added after one resize,
any other iterable added in its order), `binop` is set_or/set_and/set_sub/set_xor, the
methods take any iterables as CPython's do. Where CPython asks whether two operands are
the same object (`s |= s`, `s & s`, `s -= s`), the code asks at run time (`same`).
"""

from __future__ import annotations

import ast

from script.lib.python import setlib
from script.ir import types as T
from script.ir.core import Const, Value


def is_set(v: Value) -> bool:
    return isinstance(v.type, T.SetType)


def new_set(low, t: T.SetType, node) -> Value:
    """A new empty set of type `t`: 8 empty slots (setlib's layout)."""
    loc = low.loc(node)
    index = low.new_list(T.I64, Const(setlib.HEADER + 8, T.I64), node)
    for i in range(setlib.HEADER + 8):
        low.set_item(index, Const(0, T.I64), Const(i, T.I64), node)
    entries = low.new_list(t.entry, Const(8, T.I64), node)
    return low.emit("tuple", [index, entries], t, None, loc)


def parts(low, *sets: Value, node) -> list:
    out = []
    for s in sets:
        out += list(low.table_parts(s, node))
    return out


def same(low, a: Value, b: Value, node) -> Value:
    """Whether two sets are one object (their index lists are)."""
    if a is b:
        return Const(True, T.BOOL)
    return low.emit("list_same", [low.table_parts(a, node)[0], low.table_parts(b, node)[0]], T.BOOL, None,
                    low.loc(node))


def unless_same(low, a: Value, b: Value, node, body) -> None:
    cond = same(low, a, b, node)
    if isinstance(cond, Const):
        return
    low.choose(cond, lambda: None, lambda: [body()] and None, node)


def call(low, fn, args, node):
    return low.table_call(fn, args, node)


def add(low, s: Value, x: Value, node) -> None:
    low.table_store(s, x, None, node)


def merge(low, s: Value, other: Value, node) -> None:
    """`s |= other` of two sets (set_merge; nothing when they are one set)."""
    low.settle_table_types(other.type)
    if low.store_types(s, other.type.key, None, node):
        return
    if s.type != other.type:         # (elements converted: one at a time)
        n, item, _ = low.table_iterable(other, "keys", node)
        low.for_range(node, n, lambda i: add(low, s, item(i), node))
        return
    unless_same(low, s, other, node, lambda: call(low, setlib.merge, parts(low, s, other, node=node), node))


def copy(low, s: Value, node) -> Value:
    """`s.copy()`, `set(s)`: a new set merged from `s` (its layout, without dummies)."""
    low.settle_table_types(s.type)
    out = new_set(low, s.type, node)
    call(low, setlib.merge, parts(low, out, s, node=node), node)
    return out


def simple_source(low, arg_node) -> Value | None:
    """The value of `arg_node` when it is one (not a generator, a builtin call walked
    lazily or a dict view), else None."""
    if low.walks_generator(arg_node) or low.builtin_call(arg_node) is not None \
            or low.table_view(arg_node) is not None:
        return None
    return low.expr(arg_node)


def update(low, s: Value, arg_node, node) -> None:
    """`s.update(x)`, `s |= x`, `set(x)`, `{*x}` (set_update_internal)."""
    src = simple_source(low, arg_node)
    if src is None:
        low.each(arg_node, lambda x: add(low, s, x, node), total=True)
        return
    update_value(low, s, src, arg_node, node)


def update_value(low, s: Value, src: Value, arg_node, node) -> None:
    if is_set(src):
        merge(low, s, src, node)
        return
    if isinstance(src.type, T.DictType):
        low.settle_table_types(src.type)
        if low.store_types(s, src.type.key, None, node):
            return
        call(low, setlib.reserve, list(low.table_parts(s, node)) + [low.table_len(src, node)], node)
        n, item, _ = low.table_iterable(src, "keys", node)
        low.for_range(node, n, lambda i: add(low, s, item(i), node))
        return
    n, item, _ = low.iterable_value(src, arg_node)
    low.for_range(node, n, lambda i: add(low, s, item(i), node))


def as_set(low, arg_node, node) -> Value:
    """The set `arg_node` gives, or a new set of its elements (make_new_set)."""
    src = simple_source(low, arg_node)
    if src is not None and is_set(src):
        return src
    out = low.new_table(low.table_type(arg_node, True), node)
    if src is None:
        low.each(arg_node, lambda x: add(low, out, x, node))
    else:
        update_value(low, out, src, arg_node, node)
    return out


def intersection(low, a: Value, b: Value, node) -> Value:
    """`a & b` of two sets (set_intersection: a copy when they are one set)."""
    low.settle_table_types(a.type)
    low.settle_table_types(b.type)
    _check_same_type(low, a, b, node)

    def general():
        out = new_set(low, a.type, node)
        call(low, setlib.intersect, parts(low, out, a, b, node=node), node)
        return out

    cond = same(low, a, b, node)
    if isinstance(cond, Const):
        return copy(low, a, node)
    return low.choose(cond, lambda: copy(low, a, node), general, node)


def intersection_iterable(low, s: Value, arg_node, node) -> Value:
    """`s.intersection(x)` of any iterable `x`: its elements found in `s`, in its order."""
    src = simple_source(low, arg_node)
    if src is not None and is_set(src):
        return intersection(low, s, src, node)
    out = new_set(low, s.type, node)

    def step(x):
        low.choose(low.table_contains(x, s, node), lambda: add(low, out, x, node), lambda: None, node)

    if src is None:
        low.each(arg_node, step)
    else:
        n, item, _ = low.iterable_value(src, arg_node) if not isinstance(src.type, T.DictType) \
            else low.table_iterable(src, "keys", node)
        low.for_range(node, n, lambda i: step(item(i)))
    return out


def difference(low, a: Value, b: Value, node) -> Value:
    """`a - b` of two sets (set_difference)."""
    low.settle_table_types(a.type)
    low.settle_table_types(b.type)
    _check_same_type(low, a, b, node)
    out = new_set(low, a.type, node)
    unless_same(low, a, b, node, lambda: call(low, setlib.difference, parts(low, out, a, b, node=node), node))
    return out


def difference_update(low, s: Value, arg_node, node, src: Value | None = None) -> None:
    """`s -= x`, `s.difference_update(x)` (set_difference_update_internal): every element
    of `x` discarded, then the dummies resized away when they are more than a quarter."""
    if src is None:
        src = simple_source(low, arg_node)
    if src is not None and is_set(src):
        low.settle_table_types(src.type)
        _check_same_type(low, s, src, node)
        cond = same(low, s, src, node)
        index, entries = low.table_parts(s, node)
        low.choose(cond, lambda: [call(low, setlib.clear, [index, entries], node)] and None,
                   lambda: [call(low, setlib.difference_update, parts(low, s, src, node=node), node)] and None, node)
        return

    def discard(x):
        key = low.table_key(s, x, node)
        call(low, setlib.discard, low.probe_args(s, key, node), node)

    if src is None:
        low.each(arg_node, discard)
    else:
        n, item, _ = low.iterable_value(src, arg_node) if not isinstance(src.type, T.DictType) \
            else low.table_iterable(src, "keys", node)
        low.for_range(node, n, lambda i: discard(item(i)))
    call(low, setlib.tidy, list(low.table_parts(s, node)), node)


def difference_iterable(low, s: Value, arg_node, node) -> Value:
    """`s.difference(x)` of any iterable (set_difference, set_copy_and_difference)."""
    src = simple_source(low, arg_node)
    if src is not None and is_set(src):
        return difference(low, s, src, node)
    if src is not None and isinstance(src.type, T.DictType):
        out = new_set(low, s.type, node)
        small = low.cmp("gt", low.emit("ashr", [low.table_len(s, node), Const(2, T.I64)], T.I64, None,
                                       low.loc(node)), low.table_len(src, node), node)

        def walk_s():
            n, item, _ = low.table_iterable(s, "keys", node)

            def step(x):
                low.choose(low.table_contains(x, src, node), lambda: None, lambda: add(low, out, x, node), node)

            low.for_range(node, n, lambda i: step(item(i)))

        def copy_less():
            call(low, setlib.merge, parts(low, out, s, node=node), node)
            difference_update(low, out, arg_node, node, src)

        low.choose(small, copy_less, walk_s, node)
        return out
    out = copy(low, s, node)
    difference_update(low, out, arg_node, node, src)
    return out


def symmetric_update(low, s: Value, arg_node, node) -> None:
    """`s ^= x`, `s.symmetric_difference_update(x)`: a dict's keys or a set's elements (a
    new set made of any other iterable) discarded from `s`, or added when missing."""
    src = simple_source(low, arg_node)
    if src is not None and isinstance(src.type, T.DictType):
        n, item, _ = low.table_iterable(src, "keys", node)

        def step(x):
            key = low.table_key(s, x, node)
            gone = call(low, setlib.discard, low.probe_args(s, key, node), node)
            low.choose(gone, lambda: None, lambda: add(low, s, key, node), node)

        low.for_range(node, n, lambda i: step(item(i)))
        return
    other = src if src is not None and is_set(src) else as_set(low, arg_node, node)
    symmetric_update_set(low, s, other, node)


def symmetric_update_set(low, s: Value, other: Value, node) -> None:
    low.settle_table_types(other.type)
    _check_same_type(low, s, other, node)
    index, entries = low.table_parts(s, node)
    low.choose(same(low, s, other, node), lambda: [call(low, setlib.clear, [index, entries], node)] and None,
               lambda: [call(low, setlib.symmetric_update, parts(low, s, other, node=node), node)] and None, node)


def symmetric_difference(low, s: Value, arg_node, node, other: Value | None = None) -> Value:
    """`s ^ x`, `s.symmetric_difference(x)`: a new set updated with `x`, then `s`'s
    elements discarded from it or added."""
    out = low.new_table(low.table_type(node, True, (s.type.key, None)), node) if other is None else \
        new_set(low, s.type, node)
    if other is None:
        update(low, out, arg_node, node)
    else:
        merge(low, out, other, node)
    symmetric_update_set(low, out, s, node)
    return out


def take(low, s: Value, result: Value, node) -> None:
    """`s` holds the table of the new set `result` (set_swap_bodies)."""
    call(low, setlib.take, parts(low, s, result, node=node), node)


def binop(low, op: type, a: Value, b: Value, node) -> Value:
    """`a | b`, `a & b`, `a - b`, `a ^ b` of two sets."""
    if op is ast.BitOr:
        out = copy(low, a, node)
        merge(low, out, b, node) if a is not b else None
        return out
    if op is ast.BitAnd:
        return intersection(low, a, b, node)
    if op is ast.Sub:
        return difference(low, a, b, node)
    if op is ast.BitXor:
        return symmetric_difference(low, a, None, node, other=b)
    low.error(f"unsupported operand types for this operator: {a.type} and {b.type}", node)


def in_place(low, op: type, s: Value, arg_node, node) -> None:
    """`s |= x`, `s &= x`, `s -= x`, `s ^= x` (x a set: CPython's operators take no other)."""
    if op is ast.BitOr:
        update(low, s, arg_node, node)
    elif op is ast.BitAnd:
        take(low, s, intersection(low, s, low.expr(arg_node), node), node)
    elif op is ast.Sub:
        difference_update(low, s, arg_node, node)
    elif op is ast.BitXor:
        symmetric_update(low, s, arg_node, node)


def pop(low, s: Value, node) -> Value:
    if isinstance(s.type.key, T.ClassType):
        low.error("set.pop() of a set of instances is not supported in compiled code: which one "
                  "CPython gives follows the objects' addresses", node)
    index, entries = low.table_parts(s, node)
    slot = call(low, setlib.pop_slot, [index, entries], node)
    return low.entry_part(s, slot, 1, node)


def _check_same_type(low, a: Value, b: Value, node) -> None:
    if a.type != b.type:
        low.error(f"sets of {a.type.key} and {b.type.key} cannot be combined in compiled code (convert one "
                  "first)", node)
