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

from script.frontend import collectionslib, dictlib, set_ops, setlib
from script.frontend.default_tables import COUNTER_METHODS
from script.frontend.dicts import _KEY, _VALUE
from script.frontend.table_args import both_counters, operands
from script.frontend.registry import ANY, BINOPS, METHODS
from script.frontend.ssa_builder import Restart
from script.ir import types as T
from script.ir.core import Const, Value

_SYMBOLS = {ast.BitOr: "|", ast.BitAnd: "&", ast.Sub: "-", ast.BitXor: "^", ast.Add: "+"}

# Methods that change the table (a global table is read-only: `check_table_writable`).
WRITING = ("clear", "pop", "popitem", "move_to_end", "setdefault", "update", "add", "discard", "remove",
           "intersection_update", "difference_update", "symmetric_difference_update")


class TableMethods:
    """Mixin for `FunctionLowering`: operations on dicts and sets by name."""

    # ---- items ------------------------------------------------------------------------

    def table_subscript(self, d: Value, index_node, node) -> Value:
        if isinstance(d.type, T.SetType):
            self.error("'set' object is not subscriptable", node)
        if isinstance(index_node, ast.Slice):
            self.error("dicts cannot be sliced", index_node)
        default = self.table_default_of(node.value) if isinstance(node, ast.Subscript) else None
        if default is not None:
            return self.default_subscript(d, default, index_node, node)      # default_tables.py
        j, key = self.table_lookup(d, index_node, node)
        self.raise_key_error(self.cmp("lt", j, Const(0, T.I64), node), key, node)
        return self.entry_part(d, j, _VALUE, node)

    def table_store_item(self, d: Value, index_node, value: Value, node) -> None:
        if isinstance(d.type, T.SetType):
            self.error("'set' object does not support item assignment", node)
        self.check_table_writable(d, node)
        self.table_store(d, self.expr(index_node), value, node)

    def table_delete(self, d: Value, index_node, node) -> None:
        if isinstance(d.type, T.SetType):
            self.error("'set' object doesn't support item deletion", node)
        self.check_table_writable(d, node)
        self.table_remove(d, self.expr(index_node), node)

    def table_aug_assign(self, d: Value, node: ast.AugAssign) -> None:
        """`d[k] op= v`: the key is computed once; KeyError when it is missing."""
        if isinstance(d.type, T.SetType):
            self.error("'set' object is not subscriptable", node)
        self.check_table_writable(d, node)
        default = self.table_default_of(node.target.value)
        if default is not None:
            return self.default_aug_assign(d, default, node)                  # default_tables.py
        key = self.expr(node.target.slice)
        j, k = self.table_lookup(d, key, node)
        self.raise_key_error(self.cmp("lt", j, Const(0, T.I64), node), k, node)
        value = self.binop(type(node.op), self.entry_part(d, j, _VALUE, node), self.expr(node.value), node)
        self.table_store(d, k, value, node)

    def table_aug_assign_in_place(self, d: Value, node: ast.AugAssign) -> None:
        """`s |= t`, `s &= t`, `s -= t`, `s ^= t` of sets and `d |= other` of a dict change
        the table itself, as CPython's in-place operators do (other names for it see the
        change)."""
        self.check_table_writable(d, node)
        op = type(node.op)
        default = self.table_default_of(node.target) if isinstance(d.type, T.DictType) else None
        if default is not None and default[0] == "Counter" and op in (ast.Add, ast.Sub, ast.BitOr, ast.BitAnd):
            # a Counter's in-place `+=`, `-=`, `|=` (the larger count, not dict's update), `&=`:
            # its binary operator's keys and counts, in the same order, into the same object
            result = self.binop(op, d, self.expr(node.value), node)
            self.table_call(dictlib.clear, list(self.table_parts(d, node)), node)
            self.pre_evaluated[id(node.value)] = result
            self.update_from(d, node.value, node)
            return
        if op is ast.BitOr:
            self.update_from(d, node.value, node)
            return
        if not isinstance(d.type, T.SetType) or op not in (ast.BitAnd, ast.Sub, ast.BitXor):
            other = self.expr(node.value)
            self.error(f"unsupported operand types for {_SYMBOLS.get(op, '?')}=: {d.type} and {other.type}", node)
        set_ops.in_place(self, op, d, node.value, node)

    # ---- methods ----------------------------------------------------------------------

    def table_method(self, d: Value, name: str, node: ast.Call) -> Value:
        is_set = isinstance(d.type, T.SetType)
        kind = "set" if is_set else "dict"
        if node.keywords and name not in ("popitem", "move_to_end"):
            self.error(f"{kind}.{name}() takes no keyword arguments", node)
        default = self.table_default_of(node.func.value)
        is_counter = default is not None and default[0] == "Counter"
        # (methods a dict lacks: a Counter's wherever it came from, `c[k].most_common(1)`)
        if name == "most_common" and not is_set:
            return self.counter_most_common(d, node)                          # default_tables.py
        if name in COUNTER_METHODS and (is_counter or name in ("total", "elements") and not is_set):
            return self.counter_method(d, name, node)                         # default_tables.py
        method = getattr(self, f"_{kind}_{name}", None) or getattr(self, f"_table_{name}", None)
        if method is None or name.startswith("_"):
            self.error(f"{kind} has no method '{name}' in compiled code", node.func)
        if name in WRITING:
            self.check_table_writable(d, node)
        result = method(d, node)
        return result if result is not None else Const(None, T.NONE, self.loc(node))

    def _table_clear(self, d: Value, node) -> None:
        self.positional(node, "clear", 0)
        lib = setlib if isinstance(d.type, T.SetType) else dictlib
        self.table_call(lib.clear, list(self.table_parts(d, node)), node)

    def _table_copy(self, d: Value, node) -> Value:
        self.positional(node, "copy", 0)
        return self.copy_table(d, node)

    def copy_table(self, d: Value, node) -> Value:
        """A new table with the same entries (a dict's lists copied as they are: no
        rehashing; a set as CPython copies one, set_ops.py)."""
        if isinstance(d.type, T.SetType):
            return set_ops.copy(self, d, node)
        self.settle_table_types(d.type)
        parts = []
        for lst in self.table_parts(d, node):
            n = self.list_len(lst, node)
            out = self.new_list(lst.type.elem, n, node)
            self.fill_from(out, Const(0, T.I64), (n, lambda i, lst=lst: self.get_item(lst, i, node), None), node)
            parts.append(out)
        return self.emit("tuple", parts, d.type, None, self.loc(node))

    def _table_update(self, d: Value, node) -> None:
        if not node.args and isinstance(d.type, T.SetType):
            return
        if len(node.args) != 1 and not isinstance(d.type, T.SetType):
            self.error(f"update expected at most 1 argument, got {len(node.args)}", node)
        for a in node.args:
            self.update_from(d, a, node)

    def _dict_get(self, d: Value, node) -> Value:
        if not 1 <= len(node.args) <= 2:
            self.error(f"get expected 1 or 2 arguments, got {len(node.args)}", node)
        key = self.expr(node.args[0])
        default = self.expr(node.args[1]) if len(node.args) == 2 else Const(None, T.NONE, self.loc(node))
        self.read_table_types(d.type, key.type, default.type)
        j, _ = self.table_lookup(d, key, node)
        found = self.cmp("ge", j, Const(0, T.I64), node)
        return self.choose(found, lambda: self.entry_part(d, j, _VALUE, node), lambda: default, node)

    def _dict_setdefault(self, d: Value, node) -> Value:
        if len(node.args) != 2:
            self.error("setdefault() of a compiled dict needs the default value (a dict cannot hold None)", node)
        key = self.expr(node.args[0])
        default = self.expr(node.args[1])
        if self.store_types(d, key.type, default.type, node):
            raise Restart()
        j, k = self.table_lookup(d, key, node)
        found = self.cmp("ge", j, Const(0, T.I64), node)

        def insert():
            self.table_store(d, k, default, node)
            return self.coerce(Const(default.value, default.type) if isinstance(default, Const) else default,
                               d.type.value, node)

        return self.choose(found, lambda: self.entry_part(d, j, _VALUE, node), insert, node)

    def _dict_pop(self, d: Value, node) -> Value:
        if not 1 <= len(node.args) <= 2:
            self.error(f"pop expected 1 or 2 arguments, got {len(node.args)}", node)
        key = self.expr(node.args[0])
        if len(node.args) == 1:
            return self.entry_part(d, self.table_remove(d, key, node), _VALUE, node)
        default = self.expr(node.args[1])
        self.read_table_types(d.type, key.type, default.type)
        key = self.table_key(d, key, node)
        j = self.table_call(dictlib.dict_remove, self.probe_args(d, key, node), node)
        found = self.cmp("ge", j, Const(0, T.I64), node)
        return self.choose(found, lambda: self.entry_part(d, j, _VALUE, node), lambda: default, node)

    def _dict_popitem(self, d: Value, node) -> Value:
        last = self.ordered_last(node, "popitem", 0)
        self.settle_table_types(d.type)
        empty = self.cmp("eq", self.table_len(d, node), Const(0, T.I64), node)
        text = "popitem(): dictionary is empty" if last is None else "dictionary is empty"
        self.raise_if(empty, "KeyError", f"\x01'{text}'", node)
        _, entries = self.table_parts(d, node)
        j = self.table_call(dictlib.last_live if last is not False else dictlib.first_live, [entries], node)
        key = self.entry_part(d, j, _KEY, node)
        value = self.entry_part(d, j, _VALUE, node)
        self.table_call(dictlib.dict_remove, self.probe_args(d, key, node), node)
        return self.make_tuple([key, value], node)

    def _dict_move_to_end(self, d: Value, node) -> None:
        """OrderedDict's `move_to_end(key)` (any dict takes it in compiled code)."""
        if self.ordered_last(node, "move_to_end", 1) is False:
            self.error("move_to_end(key, last=False) is not supported in compiled code (a compiled "
                       "dict adds entries only at its end)", node)
        key = self.table_key(d, self.expr(node.args[0]), node)
        value = self.entry_part(d, self.table_remove(d, key, node), _VALUE, node)
        self.table_store(d, key, value, node)

    def ordered_last(self, node, name: str, nargs: int):
        """The constant `last` of OrderedDict's popitem(last=...) / move_to_end(key, last=...)
        (None when not given)."""
        last = node.args[nargs:] + [k.value for k in node.keywords if k.arg == "last"]
        if len(node.args) < nargs or len(last) > 1 or any(k.arg != "last" for k in node.keywords):
            self.error(f"{name}() takes {'a key and ' if nargs else ''}an optional last= in compiled code", node)
        if not last:
            return None
        v = self.expr(last[0])
        if not isinstance(v, Const):
            self.error(f"{name}()'s last= must be a constant True or False in compiled code", last[0])
        return bool(v.value)

    def _dict_keys(self, d: Value, node) -> Value:
        return self.view_list(d, "keys", node)

    def _dict_values(self, d: Value, node) -> Value:
        return self.view_list(d, "values", node)

    def _dict_items(self, d: Value, node) -> Value:
        return self.view_list(d, "items", node)

    def view_list(self, d: Value, what: str, node) -> Value:
        self.positional(node, what, 0)
        return self.table_list(d, what, node)

    def table_list(self, d: Value, what: str, node) -> Value:
        """A new list of the keys, values or items of table `d` (a set's elements: keys)."""
        n, item, et = self.table_iterable(d, what, node)
        lst = self.new_list(et, n, node)
        self.fill_from(lst, Const(0, T.I64), (n, item, et), node)
        return lst

    # ---- sets -------------------------------------------------------------------------

    def _set_add(self, s: Value, node) -> None:
        (x,) = self.positional(node, "add", 1)
        self.table_store(s, x, None, node)

    def _set_discard(self, s: Value, node) -> None:
        (x,) = self.positional(node, "discard", 1)
        key = self.table_key(s, x, node)
        self.table_call(setlib.discard, self.probe_args(s, key, node), node)

    def _set_remove(self, s: Value, node) -> None:
        (x,) = self.positional(node, "remove", 1)
        key = self.table_key(s, x, node)
        found = self.table_call(setlib.discard, self.probe_args(s, key, node), node)
        self.raise_key_error(self.emit("not", [found], T.BOOL, None, self.loc(node)), key, node)

    def _set_pop(self, s: Value, node) -> Value:
        self.positional(node, "pop", 0)
        self.settle_table_types(s.type)
        empty = self.cmp("eq", self.table_len(s, node), Const(0, T.I64), node)
        self.raise_if(empty, "KeyError", "\x01'pop from an empty set'", node)
        return set_ops.pop(self, s, node)

    def _set_union(self, s: Value, node) -> Value:
        out = self.copy_table(s, node)
        for a in node.args:
            src = set_ops.simple_source(self, a)
            if src is not None and set_ops.is_set(src):
                set_ops.unless_same(self, s, src, node, lambda src=src: set_ops.merge(self, out, src, node))
            elif src is not None:
                set_ops.update_value(self, out, src, a, node)
            else:
                set_ops.update(self, out, a, node)
        return out

    def _set_intersection(self, s: Value, node) -> Value:
        out = s
        for a in node.args:
            out = set_ops.intersection_iterable(self, out, a, node)
        return out if node.args else self.copy_table(s, node)

    def _set_intersection_update(self, s: Value, node) -> None:
        if node.args:
            set_ops.take(self, s, self._set_intersection(s, node), node)

    def _set_difference(self, s: Value, node) -> Value:
        if not node.args:
            return self.copy_table(s, node)
        out = set_ops.difference_iterable(self, s, node.args[0], node)
        for a in node.args[1:]:
            set_ops.difference_update(self, out, a, node)
        return out

    def _set_difference_update(self, s: Value, node) -> None:
        for a in node.args:
            set_ops.difference_update(self, s, a, node)

    def _set_symmetric_difference(self, s: Value, node) -> Value:
        (a,) = node.args if len(node.args) == 1 else self.positional(node, "symmetric_difference", 1)
        return set_ops.symmetric_difference(self, s, node.args[0], node)

    def _set_symmetric_difference_update(self, s: Value, node) -> None:
        if len(node.args) != 1:
            self.positional(node, "symmetric_difference_update", 1)
        set_ops.symmetric_update(self, s, node.args[0], node)

    def _set_issubset(self, s: Value, node) -> Value:
        (a,) = node.args if len(node.args) == 1 else self.positional(node, "issubset", 1)
        return self.set_all_in(s, self.as_set(a, node), node)

    def _set_issuperset(self, s: Value, node) -> Value:
        (a,) = node.args if len(node.args) == 1 else self.positional(node, "issuperset", 1)
        return self.set_all_in(self.as_set(a, node), s, node)

    def _set_isdisjoint(self, s: Value, node) -> Value:
        (a,) = node.args if len(node.args) == 1 else self.positional(node, "isdisjoint", 1)
        other = self.as_set(a, node)
        n, item, _ = self.table_iterable(s, "keys", node)
        return self.any_of((n, item, None), node, lambda x: self.emit(
            "not", [self.table_contains(x, other, node)], T.BOOL, None, self.loc(node)), False)

    def as_set(self, arg_node, node) -> Value:
        """The set `arg_node` gives, or a new set of the elements of another iterable."""
        if not self.walks_generator(arg_node) and self.builtin_call(arg_node) is None:
            v = self.pre_evaluate(arg_node)
            if isinstance(v.type, T.SetType):
                return self.expr(arg_node)
        s = self.new_table(self.table_type(arg_node, True), node)
        self.update_from(s, arg_node, node)
        return s

    def set_all_in(self, a: Value, b: Value, node) -> Value:
        n, item, _ = self.table_iterable(a, "keys", node)
        return self.any_of((n, item, None), node, lambda x: self.table_contains(x, b, node), False)

    def set_binop(self, op: type, a: Value, b: Value, node) -> Value:
        """`a | b`, `a & b`, `a - b`, `a ^ b` of two sets; `a | b` of two dicts (a merge)."""
        if type(a.type) is not type(b.type):
            self.error(f"unsupported operand types for this operator: {a.type} and {b.type}", node)
        if isinstance(a.type, T.DictType):
            if op in (ast.Add, ast.Sub) and isinstance(a.type.value, T.IntType) and a.type == b.type:
                return self.counter_binop(op, a, b, node)                      # default_tables.py
            if op is not ast.BitOr:
                self.error(f"unsupported operand types for this operator: {a.type} and {b.type}", node)
            out = self.copy_table(a, node)
            n, item, _ = self.table_iterable(b, "items", node)
            self.for_range(node, n, lambda i: self._store_pair(out, item(i), node))
            return out
        return set_ops.binop(self, op, a, b, node)

    def _store_pair(self, d: Value, pair: Value, node) -> None:
        loc = self.loc(node)
        self.table_store(d, self.emit("extract", [pair], pair.type.elems[0], 0, loc),
                         self.emit("extract", [pair], pair.type.elems[1], 1, loc), node)

    def table_compare(self, pred: str, a: Value, b: Value, node) -> Value:
        """`==`/`!=` of two dicts or two sets; `<=`, `<`, `>=`, `>` of sets (subsets)."""
        if type(a.type) is not type(b.type):
            if pred in ("eq", "ne"):
                return Const(pred == "ne", T.BOOL)
            self.error(f"'{pred}' is not supported between {a.type} and {b.type}", node)
        loc = self.loc(node)
        na, nb = self.table_len(a, node), self.table_len(b, node)
        if isinstance(a.type, T.DictType):
            if pred not in ("eq", "ne"):
                self.error(f"'<' and '>' are not supported between dicts", node)
            if operands(node) and both_counters(self, *operands(node)) and a.type == b.type:
                equal = self.call_script(self.ctx.info_for(collectionslib.equal), ast.Call(ast.Name("equal", ast.Load()), [], []),
                                         leading=(a, b))               # a missing count is zero
                return equal if pred == "eq" else self.emit("not", [equal], T.BOOL, None, loc)
            n, item, _ = self.table_iterable(a, "items", node)

            def same(pair):
                k = self.emit("extract", [pair], pair.type.elems[0], 0, loc)
                v = self.emit("extract", [pair], pair.type.elems[1], 1, loc)
                j, _ = self.table_lookup(b, k, node)
                found = self.cmp("ge", j, Const(0, T.I64), node)
                return self.choose(found, lambda: self.compare(ast.Eq(), v, self.entry_part(b, j, _VALUE, node), node),
                                   lambda: Const(False, T.BOOL), node)

            equal = self.choose(self.cmp("eq", na, nb, node),
                                lambda: self.any_of((n, item, None), node, same, False),
                                lambda: Const(False, T.BOOL), node)
            return equal if pred == "eq" else self.emit("not", [equal], T.BOOL, None, loc)
        if pred in ("gt", "ge"):
            a, b, na, nb = b, a, nb, na
            pred = {"gt": "lt", "ge": "le"}[pred]
        size_ok = {"eq": "eq", "ne": "eq", "le": "le", "lt": "lt"}[pred]
        result = self.choose(self.cmp(size_ok, na, nb, node), lambda: self.set_all_in(a, b, node),
                             lambda: Const(False, T.BOOL), node)
        return result if pred != "ne" else self.emit("not", [result], T.BOOL, None, loc)


def _table_method(low, d: Value, node: ast.Call) -> Value:
    return low.table_method(d, node.func.attr, node)


METHODS.register(("dict", ANY), _table_method)
METHODS.register(("set", ANY), _table_method)
for _kind in ("dict", "set"):
    BINOPS.register((_kind, ANY), lambda low, op, a, b, node: low.set_binop(op, a, b, node))
