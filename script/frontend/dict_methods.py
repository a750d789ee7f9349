"""Dict and set operations with Python's names: `d[k]`, `d[k] = v`, `del d[k]`, `d[k] += v`,
the methods of dicts and sets, and the set operators (`|`, `&`, `-`, `^`, comparisons).

Each is built from the primitives of dicts.py (lookups and stores through dictlib) and
behaves as CPython's does, exceptions and messages included (`KeyError(key)`,
``pop from an empty set``, ``popitem(): dictionary is empty``). A set is CPython's hash
table (setlib.py) and its operations build it as CPython's do (set_ops.py), so it iterates
and pops in CPython's order; `keys()`, `values()` and `items()` used other than by
iteration are lists.
"""

from __future__ import annotations

import ast

from script.frontend import default_tables, dicts, optional, python_classes, set_ops
from script.lib.python import collectionslib, dictlib, setlib
from script.frontend.default_tables import COUNTER_METHODS
from script.frontend.dicts import _KEY, _VALUE
from script.frontend.lower_expr import operand_type_error
from script.frontend.table_args import both_counters, operands
from script.frontend.registry import ANY, BINOPS, METHODS
from script.frontend.ssa_builder import Restart
from script.ir import types as T
from script.ir.core import Const, Value

_SYMBOLS = {ast.BitOr: "|", ast.BitAnd: "&", ast.Sub: "-", ast.BitXor: "^", ast.Add: "+"}

# Methods that change the table (a global table is read-only: `check_table_writable`).
WRITING = ("clear", "pop", "popitem", "move_to_end", "setdefault", "update", "add", "discard", "remove",
           "intersection_update", "difference_update", "symmetric_difference_update")


def table_subscript(cx, d: Value, index_node, node) -> Value:
    if isinstance(d.type, T.SetType):
        cx.error("'set' object is not subscriptable", node)
    if isinstance(index_node, ast.Slice):
        cx.error("dicts cannot be sliced", index_node)
    default = default_tables.table_default_of(cx, node.value) if isinstance(node, ast.Subscript) else None
    if default is not None:
        return default_tables.default_subscript(cx, d, default, index_node, node)
    key = cx.expr(index_node)
    if dicts.never_a_key(d.type, key.type):       # `d["3"]` of a dict of ints: CPython's KeyError('3')
        dicts.raise_key_error(cx, Const(True, T.BOOL), key, node)
        return optional.placeholder(cx, d.type.value, cx.loc(node))
    j, key = dicts.table_lookup(cx, d, key, node)
    dicts.raise_key_error(cx, cx.cmp("lt", j, Const(0, T.I64), node), key, node)
    return dicts.entry_part(cx, d, j, _VALUE, node)


def table_store_item(cx, d: Value, index_node, value: Value, node) -> None:
    if isinstance(d.type, T.SetType):
        cx.error("'set' object does not support item assignment", node)
    dicts.check_table_writable(cx, d, node)
    dicts.table_store(cx, d, cx.expr(index_node), value, node)


def table_delete(cx, d: Value, index_node, node) -> None:
    if isinstance(d.type, T.SetType):
        cx.error("'set' object doesn't support item deletion", node)
    dicts.check_table_writable(cx, d, node)
    dicts.table_remove(cx, d, cx.expr(index_node), node)


def table_aug_assign(cx, d: Value, node: ast.AugAssign) -> None:
    """`d[k] op= v`: the key is computed once; KeyError when it is missing."""
    if isinstance(d.type, T.SetType):
        cx.error("'set' object is not subscriptable", node)
    dicts.check_table_writable(cx, d, node)
    default = default_tables.table_default_of(cx, node.target.value)
    if default is not None:
        return default_tables.default_aug_assign(cx, d, default, node)
    key = cx.expr(node.target.slice)
    j, k = dicts.table_lookup(cx, d, key, node)
    dicts.raise_key_error(cx, cx.cmp("lt", j, Const(0, T.I64), node), k, node)
    value = cx.binop(type(node.op), dicts.entry_part(cx, d, j, _VALUE, node), cx.expr_num(node.value), node)
    dicts.table_store(cx, d, k, value, node)      # (an int|float operand: a num, as in lists)


def table_aug_assign_in_place(cx, d: Value, node: ast.AugAssign) -> None:
    """`s |= t`, `s &= t`, `s -= t`, `s ^= t` of sets and `d |= other` of a dict change
    the table itself, as CPython's in-place operators do (other names for it see the
    change)."""
    dicts.check_table_writable(cx, d, node)
    op = type(node.op)
    default = default_tables.table_default_of(cx, node.target) if isinstance(d.type, T.DictType) else None
    if default is not None and default[0] == "Counter" and op in (ast.Add, ast.Sub, ast.BitOr, ast.BitAnd):
        # a Counter's in-place `+=`, `-=`, `|=` (the larger count, not dict's update), `&=`:
        # its binary operator's keys and counts, in the same order, into the same object
        result = cx.binop(op, d, cx.expr(node.value), node)
        dicts.table_call(cx, dictlib.clear, list(dicts.table_parts(cx, d, node)), node)
        cx.pre_evaluated[id(node.value)] = result
        dicts.update_from(cx, d, node.value, node)
        return
    other = cx.expr(node.value)
    if type(other.type) is type(d.type):    # (`s = set()` then `s -= {"a"}`: it takes str)
        dicts.merge_pending_table(cx, d.type, other.type)
    elif isinstance(d.type, T.SetType):     # `s |= [3]`: CPython's TypeError (set.update takes it)
        refused = operand_type_error(op, d.type, other.type, inplace=True)
        if refused is not None:
            cx.raise_always("TypeError", refused, node)
            return
    cx.pre_evaluated[id(node.value)] = other
    if op is ast.BitOr:
        dicts.update_from(cx, d, node.value, node)
        return
    if not isinstance(d.type, T.SetType) or op not in (ast.BitAnd, ast.Sub, ast.BitXor):
        other = cx.expr(node.value)
        cx.error(f"unsupported operand types for {_SYMBOLS.get(op, '?')}=: {d.type} and {other.type}", node)
    set_ops.in_place(cx, op, d, node.value, node)

# ---- methods ----------------------------------------------------------------------


def table_method(cx, d: Value, name: str, node: ast.Call) -> Value:
    is_set = isinstance(d.type, T.SetType)
    kind = "set" if is_set else "dict"
    if node.keywords and name not in ("popitem", "move_to_end"):
        cx.error(f"{kind}.{name}() takes no keyword arguments", node)
    default = default_tables.table_default_of(cx, node.func.value)
    is_counter = default is not None and default[0] == "Counter"
    # (methods a dict lacks: a Counter's wherever it came from, `c[k].most_common(1)`)
    if name == "most_common" and not is_set:
        return default_tables.counter_most_common(cx, d, node)
    if name in COUNTER_METHODS and (is_counter or name in ("total", "elements") and not is_set):
        return default_tables.counter_method(cx, d, name, node)
    method = _METHODS.get(f"_{kind}_{name}") or _METHODS.get(f"_table_{name}")
    if method is None or name.startswith("_"):
        cx.error(f"{kind} has no method '{name}' in compiled code", node.func)
    if name in WRITING:
        dicts.check_table_writable(cx, d, node)
    result = method(cx, d, node)
    if name == "copy" and default is not None and not is_set:      # `c.copy()`: a Counter again
        cx.table_defaults.calls[id(node)] = default
        default_tables.refuse_lost_default(cx, node, default[0])
    return result if result is not None else Const(None, T.NONE, cx.loc(node))


def _table_clear(cx, d: Value, node) -> None:
    cx.positional(node, "clear", 0)
    lib = setlib if isinstance(d.type, T.SetType) else dictlib
    dicts.table_call(cx, lib.clear, list(dicts.table_parts(cx, d, node)), node)


def _table_copy(cx, d: Value, node) -> Value:
    cx.positional(node, "copy", 0)
    return copy_table(cx, d, node)


def copy_table(cx, d: Value, node) -> Value:
    """A new table with the same entries (a dict's lists copied as they are: no
    rehashing; a set as CPython copies one, set_ops.py)."""
    if isinstance(d.type, T.SetType):
        return set_ops.copy(cx, d, node)
    dicts.settle_table_types(cx, d.type)
    parts = []
    for lst in dicts.table_parts(cx, d, node):
        n = cx.list_len(lst, node)
        out = cx.new_list(lst.type.elem, n, node)
        cx.fill_from(out, Const(0, T.I64), (n, lambda i, lst=lst: cx.get_item(lst, i, node), None), node)
        parts.append(out)
    return cx.emit("tuple", parts, d.type, None, cx.loc(node))


def _table_update(cx, d: Value, node) -> None:
    if not node.args and isinstance(d.type, T.SetType):
        return
    if len(node.args) != 1 and not isinstance(d.type, T.SetType):
        cx.error(f"update expected at most 1 argument, got {len(node.args)}", node)
    for a in node.args:
        dicts.update_from(cx, d, a, node)


def _dict_get(cx, d: Value, node) -> Value:
    if not 1 <= len(node.args) <= 2:
        cx.error(f"get expected 1 or 2 arguments, got {len(node.args)}", node)
    key = cx.expr(node.args[0])
    default = cx.expr(node.args[1]) if len(node.args) == 2 else Const(None, T.NONE, cx.loc(node))
    dicts.read_table_types(cx, d.type, key.type, default.type)
    if dicts.never_a_key(d.type, key.type):       # `d.get("3", 0)` of a dict of ints
        return default
    j, _ = dicts.table_lookup(cx, d, key, node)
    found = cx.cmp("ge", j, Const(0, T.I64), node)
    return cx.choose(found, lambda: dicts.entry_part(cx, d, j, _VALUE, node), lambda: default, node)


def _dict_setdefault(cx, d: Value, node) -> Value:
    if len(node.args) != 2:
        cx.error("setdefault() of a compiled dict needs the default value (a dict cannot hold None)", node)
    key = cx.expr(node.args[0])
    default = cx.expr(node.args[1])
    if dicts.store_types(cx, d, key.type, default.type, node):
        raise Restart()
    j, k = dicts.table_lookup(cx, d, key, node)
    found = cx.cmp("ge", j, Const(0, T.I64), node)

    def insert():
        dicts.table_store(cx, d, k, default, node)
        return cx.coerce(Const(default.value, default.type) if isinstance(default, Const) else default,
                         d.type.value, node)

    return cx.choose(found, lambda: dicts.entry_part(cx, d, j, _VALUE, node), insert, node)


def _dict_pop(cx, d: Value, node) -> Value:
    if not 1 <= len(node.args) <= 2:
        cx.error(f"pop expected 1 or 2 arguments, got {len(node.args)}", node)
    key = cx.expr(node.args[0])
    if len(node.args) == 1:
        return dicts.entry_part(cx, d, dicts.table_remove(cx, d, key, node), _VALUE, node)
    default = cx.expr(node.args[1])
    dicts.read_table_types(cx, d.type, key.type, default.type)
    key = dicts.table_key(cx, d, key, node)
    j = dicts.table_call(cx, dictlib.dict_remove, dicts.probe_args(cx, d, key, node), node)
    found = cx.cmp("ge", j, Const(0, T.I64), node)
    return cx.choose(found, lambda: dicts.entry_part(cx, d, j, _VALUE, node), lambda: default, node)


def _dict_popitem(cx, d: Value, node) -> Value:
    last = ordered_last(cx, node, "popitem", 0)
    dicts.settle_table_types(cx, d.type)
    empty = cx.cmp("eq", dicts.table_len(cx, d, node), Const(0, T.I64), node)
    text = "popitem(): dictionary is empty" if last is None else "dictionary is empty"
    cx.raise_if(empty, "KeyError", f"\x01'{text}'", node)
    _, entries = dicts.table_parts(cx, d, node)
    j = dicts.table_call(cx, dictlib.last_live if last is not False else dictlib.first_live, [entries], node)
    key = dicts.entry_part(cx, d, j, _KEY, node)
    value = dicts.entry_part(cx, d, j, _VALUE, node)
    dicts.table_call(cx, dictlib.dict_remove, dicts.probe_args(cx, d, key, node), node)
    return cx.make_tuple([key, value], node)


def _dict_move_to_end(cx, d: Value, node) -> None:
    """OrderedDict's `move_to_end(key)` (any dict takes it in compiled code)."""
    if ordered_last(cx, node, "move_to_end", 1) is False:
        cx.error("move_to_end(key, last=False) is not supported in compiled code (a compiled "
                 "dict adds entries only at its end)", node)
    key = dicts.table_key(cx, d, cx.expr(node.args[0]), node)
    value = dicts.entry_part(cx, d, dicts.table_remove(cx, d, key, node), _VALUE, node)
    dicts.table_store(cx, d, key, value, node)


def ordered_last(cx, node, name: str, nargs: int):
    """The constant `last` of OrderedDict's popitem(last=...) / move_to_end(key, last=...)
    (None when not given)."""
    last = node.args[nargs:] + [k.value for k in node.keywords if k.arg == "last"]
    if len(node.args) < nargs or len(last) > 1 or any(k.arg != "last" for k in node.keywords):
        cx.error(f"{name}() takes {'a key and ' if nargs else ''}an optional last= in compiled code", node)
    if not last:
        return None
    v = cx.expr(last[0])
    if not isinstance(v, Const):
        cx.error(f"{name}()'s last= must be a constant True or False in compiled code", last[0])
    return bool(v.value)


def _dict_keys(cx, d: Value, node) -> Value:
    return view_list(cx, d, "keys", node)


def _dict_values(cx, d: Value, node) -> Value:
    return view_list(cx, d, "values", node)


def _dict_items(cx, d: Value, node) -> Value:
    return view_list(cx, d, "items", node)


def view_list(cx, d: Value, what: str, node) -> Value:
    """`d.keys()`, `d.values()`, `d.items()` as a value: a new list, whose text, comparisons
    and object returned to Python are the view's (python_classes.note_view)."""
    cx.positional(node, what, 0)
    python_classes.note_view(cx, node, what)
    return table_list(cx, d, what, node)


def table_list(cx, d: Value, what: str, node) -> Value:
    """A new list of the keys, values or items of table `d` (a set's elements: keys)."""
    n, item, et = dicts.table_iterable(cx, d, what, node)
    lst = cx.new_list(et, n, node)
    cx.fill_from(lst, Const(0, T.I64), (n, item, et), node)
    return lst

# ---- sets -------------------------------------------------------------------------


def _set_add(cx, s: Value, node) -> None:
    (x,) = cx.positional(node, "add", 1)
    dicts.table_store(cx, s, x, None, node)


def _set_discard(cx, s: Value, node) -> None:
    (x,) = cx.positional(node, "discard", 1)
    key = dicts.table_key(cx, s, x, node)
    dicts.table_call(cx, setlib.discard, dicts.probe_args(cx, s, key, node), node)


def _set_remove(cx, s: Value, node) -> None:
    (x,) = cx.positional(node, "remove", 1)
    key = dicts.table_key(cx, s, x, node)
    found = dicts.table_call(cx, setlib.discard, dicts.probe_args(cx, s, key, node), node)
    dicts.raise_key_error(cx, cx.emit("not", [found], T.BOOL, None, cx.loc(node)), key, node)


def _set_pop(cx, s: Value, node) -> Value:
    cx.positional(node, "pop", 0)
    dicts.settle_table_types(cx, s.type)
    empty = cx.cmp("eq", dicts.table_len(cx, s, node), Const(0, T.I64), node)
    cx.raise_if(empty, "KeyError", "\x01'pop from an empty set'", node)
    return set_ops.pop(cx, s, node)


def _set_union(cx, s: Value, node) -> Value:
    out = copy_table(cx, s, node)
    for a in node.args:
        src = set_ops.simple_source(cx, a)
        if src is not None and set_ops.is_set(src):
            set_ops.unless_same(cx, s, src, node, lambda src=src: set_ops.merge(cx, out, src, node))
        elif src is not None:
            set_ops.update_value(cx, out, src, a, node)
        else:
            set_ops.update(cx, out, a, node)
    return out


def _set_intersection(cx, s: Value, node) -> Value:
    out = s
    for a in node.args:
        out = set_ops.intersection_iterable(cx, out, a, node)
    return out if node.args else copy_table(cx, s, node)


def _set_intersection_update(cx, s: Value, node) -> None:
    if node.args:
        set_ops.take(cx, s, _set_intersection(cx, s, node), node)


def _set_difference(cx, s: Value, node) -> Value:
    if not node.args:
        return copy_table(cx, s, node)
    out = set_ops.difference_iterable(cx, s, node.args[0], node)
    for a in node.args[1:]:
        set_ops.difference_update(cx, out, a, node)
    return out


def _set_difference_update(cx, s: Value, node) -> None:
    for a in node.args:
        set_ops.difference_update(cx, s, a, node)


def _set_symmetric_difference(cx, s: Value, node) -> Value:
    (a,) = node.args if len(node.args) == 1 else cx.positional(node, "symmetric_difference", 1)
    return set_ops.symmetric_difference(cx, s, node.args[0], node)


def _set_symmetric_difference_update(cx, s: Value, node) -> None:
    if len(node.args) != 1:
        cx.positional(node, "symmetric_difference_update", 1)
    set_ops.symmetric_update(cx, s, node.args[0], node)


def _set_issubset(cx, s: Value, node) -> Value:
    (a,) = node.args if len(node.args) == 1 else cx.positional(node, "issubset", 1)
    return set_all_in(cx, s, as_set(cx, a, node), node)


def _set_issuperset(cx, s: Value, node) -> Value:
    (a,) = node.args if len(node.args) == 1 else cx.positional(node, "issuperset", 1)
    return set_all_in(cx, as_set(cx, a, node), s, node)


def _set_isdisjoint(cx, s: Value, node) -> Value:
    (a,) = node.args if len(node.args) == 1 else cx.positional(node, "isdisjoint", 1)
    other = as_set(cx, a, node)
    n, item, _ = dicts.table_iterable(cx, s, "keys", node)
    return cx.any_of((n, item, None), node, lambda x: cx.emit(
        "not", [dicts.table_contains(cx, x, other, node)], T.BOOL, None, cx.loc(node)), False)


def as_set(cx, arg_node, node) -> Value:
    """The set `arg_node` gives, or a new set of the elements of another iterable."""
    if not cx.walks_generator(arg_node) and cx.builtin_call(arg_node) is None:
        v = cx.pre_evaluate(arg_node)
        if isinstance(v.type, T.SetType):
            return cx.expr(arg_node)
    s = dicts.new_table(cx, dicts.table_type(cx, arg_node, True), node)
    dicts.update_from(cx, s, arg_node, node)
    return s


def set_all_in(cx, a: Value, b: Value, node) -> Value:
    n, item, _ = dicts.table_iterable(cx, a, "keys", node)
    return cx.any_of((n, item, None), node, lambda x: dicts.table_contains(cx, x, b, node), False)


def set_binop(cx, op: type, a: Value, b: Value, node) -> Value:
    """`a | b`, `a & b`, `a - b`, `a ^ b` of two sets; `a | b` of two dicts (a merge)."""
    if type(a.type) is not type(b.type):
        cx.error(f"unsupported operand types for this operator: {a.type} and {b.type}", node)
    dicts.merge_pending_table(cx, a.type, b.type)     # (`set() | {"a"}`: the empty one takes str)
    if isinstance(a.type, T.DictType):
        if op in (ast.Add, ast.Sub) and isinstance(a.type.value, T.IntType) and a.type == b.type:
            return default_tables.counter_binop(cx, op, a, b, node)
        if op is not ast.BitOr:
            cx.error(f"unsupported operand types for this operator: {a.type} and {b.type}", node)
        out = copy_table(cx, a, node)
        n, item, _ = dicts.table_iterable(cx, b, "items", node)
        cx.for_range(node, n, lambda i: _store_pair(cx, out, item(i), node))
        return out
    return set_ops.binop(cx, op, a, b, node)


def _store_pair(cx, d: Value, pair: Value, node) -> None:
    loc = cx.loc(node)
    dicts.table_store(cx, d, cx.emit("extract", [pair], pair.type.elems[0], 0, loc),
                      cx.emit("extract", [pair], pair.type.elems[1], 1, loc), node)


def table_compare(cx, pred: str, a: Value, b: Value, node) -> Value:
    """`==`/`!=` of two dicts or two sets; `<=`, `<`, `>=`, `>` of sets (subsets)."""
    if type(a.type) is not type(b.type):
        if pred in ("eq", "ne"):
            return Const(pred == "ne", T.BOOL)
        cx.error(f"'{pred}' is not supported between {a.type} and {b.type}", node)
    loc = cx.loc(node)
    na, nb = dicts.table_len(cx, a, node), dicts.table_len(cx, b, node)
    if isinstance(a.type, T.DictType):
        if pred not in ("eq", "ne"):
            cx.error(f"'<' and '>' are not supported between dicts", node)
        if operands(node) and both_counters(cx, *operands(node)) and a.type == b.type:
            equal = cx.call_script(cx.ctx.info_for(collectionslib.equal), ast.Call(ast.Name("equal", ast.Load()), [], []),
                                                  leading=(a, b))               # a missing count is zero
            return equal if pred == "eq" else cx.emit("not", [equal], T.BOOL, None, loc)
        if operands(node) and all(python_classes.is_ordered_dict(cx, n) for n in operands(node)):
            equal = cx.call_script(cx.ctx.info_for(collectionslib.ordered_equal),
                                   ast.Call(ast.Name("ordered_equal", ast.Load()), [], []), leading=(a, b))
            return equal if pred == "eq" else cx.emit("not", [equal], T.BOOL, None, loc)    # (order counts)
        n, item, _ = dicts.table_iterable(cx, a, "items", node)

        def same(pair):
            k = cx.emit("extract", [pair], pair.type.elems[0], 0, loc)
            v = cx.emit("extract", [pair], pair.type.elems[1], 1, loc)
            j, _ = dicts.table_lookup(cx, b, k, node)
            found = cx.cmp("ge", j, Const(0, T.I64), node)
            return cx.choose(found, lambda: cx.compare(ast.Eq(), v, dicts.entry_part(cx, b, j, _VALUE, node), node),
                             lambda: Const(False, T.BOOL), node)

        equal = cx.choose(cx.cmp("eq", na, nb, node),
                          lambda: cx.any_of((n, item, None), node, same, False),
                          lambda: Const(False, T.BOOL), node)
        return equal if pred == "eq" else cx.emit("not", [equal], T.BOOL, None, loc)
    if pred in ("gt", "ge"):
        a, b, na, nb = b, a, nb, na
        pred = {"gt": "lt", "ge": "le"}[pred]
    size_ok = {"eq": "eq", "ne": "eq", "le": "le", "lt": "lt"}[pred]
    result = cx.choose(cx.cmp(size_ok, na, nb, node), lambda: set_all_in(cx, a, b, node),
                       lambda: Const(False, T.BOOL), node)
    return result if pred != "ne" else cx.emit("not", [result], T.BOOL, None, loc)


def _by_name(low, d: Value, node: ast.Call) -> Value:
    return table_method(low, d, node.func.attr, node)


METHODS.register(("dict", ANY), _by_name)
METHODS.register(("set", ANY), _by_name)
for _kind in ("dict", "set"):
    BINOPS.register((_kind, ANY), set_binop)


# `_table_<name>` (dicts and sets), `_dict_<name>`, `_set_<name>`: table_method's methods
_METHODS = {name: fn for name, fn in list(globals().items())
            if name.startswith(("_table_", "_dict_", "_set_")) and callable(fn)}
