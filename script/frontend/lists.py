"""Python lists in compiled code: literals, `list(...)`, comprehensions, indexing, slices,
methods, operators and the builtins that take them.

A list is a `T.ListType` value, a reference to one heap object (backend/llvm/lists.py), so
``b = a; b.append(1)`` changes `a` too. Everything lowers to five IR ops: `list_new`,
`list_len`, `list_get`, `list_set` and `list_resize` (a checked resize raises MemoryError);
methods that are loops are written in the compiled subset (listlib.py).

Element types. A literal's elements meet at one type (`[1, 2.5]` is a list of floats). The
element type of an empty list (`[]`, `list()`) or of a comprehension is not known where it
is made: the first round of a build gives it a `PendingElement`, the first value stored
into it (an `append`, or the comprehension's element) records a hint keyed by the literal's
node and restarts the build (as loop variables that widen do), and a list nothing is ever
stored into becomes a list of ints. A value of a wider type than the elements (a float into
a list of ints) is a `CompileError`.

Lists of lists. Elements may be lists (and arrays, tuples holding them), references as in
Python. A pending element type may sit inside another type (`[[]]`, `rows.append([])`):
`merge_pending` matches pending and known types at the same place inside lists and tuples,
and `resolve_pending` puts the hints found since into a hint. An element read from a list
whose element type is still pending (`rows[i - 1][j]` above the `rows.append(row)` that
decides it) is an Undef of unknown type: the operations that meet it (indexing, `len`,
methods, item assignment, iteration) give Unknown or do nothing, and the round is rebuilt
once the type is known (the store restarts it, or `settle_pending_lists` does).

Iteration (`for x in lst`, `sum(lst)`, ...) takes the length once, when the loop starts,
and reads each element with a bounds check: a loop that appends to the list it iterates
stops at the old length (CPython goes on), one that removes from it raises IndexError.

Lists passed from Python are the caller's lists: the entry point writes them back after the
call (backend/runtime/list_reflect.py). A store that converts its value (an int into a list
of floats) is recorded, and is a CompileError where the list may be an argument's
(list_args.py): the caller would see the converted value.
"""

from __future__ import annotations

import ast
import functools

from script.frontend import listlib, mixed_numbers
from script.frontend.global_writes import CELL
from script.frontend.class_types import tie_knot
from script.frontend.lower_expr import WeakConst
from script.frontend.optional import python_name, test_facts
from script.frontend.registry import ANY, BINOPS, METHODS
from script.frontend.ssa_builder import Restart, borrow_from_callers
from script.frontend.unknown import UNKNOWN, PendingElement, Undef, Unknown, has_unknown, is_pending_optional
from script.frontend.class_methods import mixed_classes
from script.frontend.star_displays import has_star
from script.ir import types as T
from script.ir.core import Const, Instr, Value
from script.frontend.list_args import changes_python_type, record_converted_store
from script.ir.ops import ExcInfo
from script.frontend import star_displays
from script.frontend import list_slices
from script.frontend import keyed
from script.frontend import bounded_deques
from script.frontend import held_iterators

_INDEX_ERROR = "list index out of range"
_STORE_ERROR = "list assignment index out of range"
_LIMIT = 1 << 62            # no list has more elements (list_resize fails first)
_GLOBAL_LIST_UNROLL = 32    # longer global lists of numbers are copied from a frozen array


def _typed_by_stores(builder, elem: T.Type) -> list:
    """The hint keys of the empty lists `builder` made whose elements, of type `elem`, a
    store or a hint typed (`stored_type`)."""
    return [k for k, v in builder.hints.items() if isinstance(k, tuple) and len(k) == 2 and k[0] == "list"
            and v == elem and builder.hints.get(("stored", k[1]))]


def _with_num(elem: T.Type, t: T.Type) -> T.Type | None:
    """The element type a list of `elem` given a `t` widens to where ints and floats meet
    (``num``, or lists of them: ``list[i64]`` given a ``list[num]``), else None."""
    if isinstance(elem, T.ListType) and isinstance(t, T.ListType) and type(elem) is type(t):
        inner = _with_num(elem.elem, t.elem)
        return None if inner is None else T.ListType(inner)
    if elem not in (T.I64, T.F64) or t == elem or T.merge(elem, t) != T.INT_FLOAT:
        return None
    return T.INT_FLOAT


class ListLowering:
    """Mixin for `FunctionLowering`: lists, comprehensions and generator expressions."""

    # ---- element types ---------------------------------------------------------------

    def list_of_unknown(self, node) -> Value:
        """A new empty list whose element type is whatever is first stored into it."""
        hint = self.hints.get(("list", node))
        if hint is None:
            self.pending_lists.add(node)
            hint = PendingElement(node)
        return self.new_list(self.resolve_pending(hint), Const(0, T.I64), node)

    def resolve_pending(self, t: T.Type) -> T.Type:
        """`t` with the pending element types that have hints by now replaced (a hint for a
        list of lists may name the inner lists' pending type: ``[[]]``, `rows.append([])`)."""
        if isinstance(t, PendingElement):
            hint = self.hints.get(("list", t.key))
            return t if hint is None else self.resolve_pending(tie_knot(hint, t))
        if isinstance(t, T.HashType):           # (a table of tables: `d.setdefault(k, {})[j] = v`)
            return self.resolve_pending_table(t)
        if isinstance(t, T.ClassType):          # (an instance whose fields a caller decides)
            elem = self.resolve_pending(t.contents)
            return t if elem is t.contents else T.ClassType(t.key, t.fields, elem)
        if isinstance(t, T.ListType):
            elem = self.resolve_pending(t.elem)
            return t if elem is t.elem else T.ListType(elem)
        if isinstance(t, T.OptionalType):       # (a list of None and values: `[None] * n`)
            value = self.resolve_pending(t.value)
            if isinstance(value, PendingElement):
                self.pending_lists.add(value.key)       # (ints, if no value is ever stored)
            return t if value is t.value else T.OptionalType(value)
        if isinstance(t, T.TupleType):
            elems = [self.resolve_pending(e) for e in t.elems]
            if all(a is b for a, b in zip(elems, t.elems)):
                return t
            return T.NamedTupleType(t.key, t.fields, elems) if isinstance(t, T.NamedTupleType) else T.TupleType(elems)
        return t

    def settle_pending_lists(self) -> None:
        """At the end of a round: lists nothing was stored into hold ints. A list given only
        values of a type not known yet this round (`pairs.append((seen[k], i))` before the
        store that types `seen`) waits for the next round, when the round is redone anyway."""
        pending = [n for n in self.pending_lists if ("list", n) not in self.hints and not self.waits_for_type(n)
                   and id(n) not in self.escaping]      # (returned to a caller that decides: callee_hints.py)
        if pending:
            for n in pending:
                self.ints_by_default(n)
            self.hints_changed = True
            raise Restart()

    def stored_type(self, lst: Value, t: T.Type, node) -> T.Type:
        """The element type of `lst`, which a value of type `t` is about to be stored in."""
        elem = lst.type.elem
        if has_unknown(t):          # (a round to be rebuilt: get_item)
            if isinstance(elem, PendingElement):
                self.unknown_stores.add(elem.key)
            return elem
        if isinstance(elem, PendingElement):
            self.hints[("list", elem.key)] = self.element_type([t], node)
            self.hints[("stored", elem.key)] = True         # (typed by its stores: widen_to_num)
            self.hints_changed = True
            raise Restart()
        self.merge_pending(elem, t)
        if isinstance(t, T.NoneType) and isinstance(elem, T.OptionalType):
            return elem
        self.widen_to_num(lst, elem, t)
        if T.unify(elem, t) != elem and not isinstance(t, T.BoolType):
            self.widen_instance_list(lst, elem, t)      # class_unions.py: `shapes = []` of two classes
            if mixed_classes(elem, t):
                self.error(f"cannot store a value of type {t} in a {lst.type}" + mixed_classes(elem, t), node)
            cell = next((n.id for n in ast.walk(node) if isinstance(n, ast.Name) and n.id.startswith(CELL)),
                        None) if isinstance(node, ast.AST) else None
            if cell is not None:            # a rebound global's cell (global_writes.py)
                self.error(f"global '{cell[len(CELL):]}' holds a {elem} (its value at the call), and this "
                           f"assigns it a {t}: compiled code keeps a global's type (make its value at "
                           "module level one of that type)", node)
            if _holds_reference(elem) or _holds_reference(t):
                self.error(f"cannot store a value of type {t} in a {lst.type}: the inner lists of a compiled "
                           f"list all have one type, and a list is not converted (it is a reference): "
                           f"make this one a {elem} too (e.g. with float elements)", node)
            self.error(f"cannot store a value of type {t} in a {lst.type}: a compiled list holds one type, "
                       f"set by its first elements (write {_example(t)} to start with)", node)
        return elem

    def widen_to_num(self, lst: Value, elem: T.Type, t: T.Type) -> None:
        """An int stored in a list of floats made here, or a float in one of ints: the next
        round makes it a list of ``num`` (mixed_numbers.py), which keeps each element's type
        as CPython's list does (converting the int gave ``[0.5, 1.0]`` for ``[0.5, 1]``).
        Made here: a display or comprehension (`list_origins`), or an empty ``[]`` typed by
        its stores (every such list typed `elem`, as `widen_instance_list` does). Else
        nothing: an int stored in a float list from elsewhere is converted, and a float in
        an int list is the caller's error. Lists of such lists widen alike (`answer` of
        `path.copy()` rows once `path` holds ints and floats)."""
        wide = _with_num(elem, t)
        if wide is None:
            return
        self.retype_lists(self.made_here(lst, wide) or self.typed_by_stores(elem, wide))

    def made_here(self, lst: Value, wide: T.Type) -> dict:
        """{hint key: `wide`} of the display or comprehension made here that `lst` is: its
        own, a local's that holds it (read in a loop: a phi), or the inner displays of a list
        made here that it was read from (``q = [[0] * n for _ in ...]``, then ``q[j]``: the
        comprehension, typed by its first row, gets rows of `wide` too); {} when none."""
        origin = self.list_origins.get(id(lst))
        if origin is None and self.block is not None:
            here = self.defs[self.block]
            origin = next((n for name, n in self.name_origins.items() if here.get(name) is lst), None)
        if origin is not None:
            return {("list", origin): wide}
        if getattr(lst, "opname", None) != "list_get":
            return {}
        keys = {}
        for outer in self.made_here(lst.operands[0], T.ListType(wide)):
            inner = self.inner_origins.get(outer[1], ())
            keys.update({("list", n): wide for n in inner})
            if inner and self.hints.get(outer) == lst.type:
                keys[outer] = T.ListType(wide)
        return keys

    def typed_by_stores(self, elem: T.Type, wide: T.Type = T.INT_FLOAT) -> dict:
        """{hint key: `wide`} of every empty ``[]`` of this function whose elements of type
        `elem` a store or a hint set (``("stored", node)``), else of such lists a caller being
        built made (`max_rev` passed down)."""
        keys = _typed_by_stores(self, elem) or borrow_from_callers(self, lambda caller: _typed_by_stores(caller, elem))
        return dict.fromkeys(keys, wide)

    def retype_lists(self, hints: dict) -> None:
        """Give the lists of these hint keys their new element types, then Restart (the next
        round builds them so); nothing when there are none."""
        if not hints:
            return
        self.hints.update(hints)
        self.hints_changed = True
        raise Restart()

    def widen_inner_displays(self, values: list) -> None:
        """Lists made here among a display's elements whose elements differ as ints, floats
        and ``num`` (``[[1, 2.5], [3, 4]]``): the next round makes each inner display a list
        of their `merge` (``num``), as CPython's inner lists keep each element's type."""
        if len(values) < 2 or not all(isinstance(v.type, T.ListType) for v in values):
            return
        elems = {v.type.elem for v in values}
        if len(elems) < 2 or not all(isinstance(e, T.IntFloatType) or e in (T.I64, T.F64) for e in elems):
            return
        origins = (self.list_origins.get(id(v)) for v in values if v.type.elem != T.INT_FLOAT)
        self.retype_lists({("list", n): T.INT_FLOAT for n in origins if n is not None})

    def merge_pending_list(self, a: T.Type, b: T.Type) -> None:
        """Where a list of unknown element type (`[]`) meets a list of known one at a merge
        (`x if c else []`, a variable assigned both), the unknown one takes the known type."""
        if isinstance(a, T.HashType) and isinstance(b, T.HashType):
            self.merge_pending_table(a, b)
        if isinstance(a, T.ListType) and isinstance(b, T.ListType):
            self.merge_pending(T.contents(a), T.contents(b))

    def merge_pending(self, a: T.Type, b: T.Type) -> None:
        """Where types `a` and `b` meet (a merge, a value stored in a list, two elements of a
        literal), a pending element type in one facing a known type in the other, at the
        same place inside lists and tuples, takes that type (a hint, then Restart)."""
        for pending, known in ((a, b), (b, a)):
            if isinstance(pending, PendingElement) and not isinstance(known, PendingElement):
                self.hints[("list", pending.key)] = known
                self.hints_changed = True
                raise Restart()
        for o, v in ((a, b), (b, a)):
            if isinstance(o, T.OptionalType) and not isinstance(v, (T.OptionalType, T.NoneType)):
                self.merge_pending(o.value, v)      # (a value stored into `[None] * n`)
        if isinstance(a, PendingElement) and isinstance(b, PendingElement) and a != b:
            # two empty lists in one variable (`cur = []` again in a loop): the second is the
            # first from the next round on, so the first store types both
            ra, rb = self.resolve_pending(a), self.resolve_pending(b)
            if ra != rb and isinstance(rb, PendingElement):
                self.hints[("list", rb.key)] = ra
                self.hints_changed = True
                raise Restart()
        if isinstance(a, T.ListType) and isinstance(b, T.ListType):
            self.merge_pending(T.contents(a), T.contents(b))
        elif isinstance(a, T.HashType) and isinstance(b, T.HashType):
            self.merge_pending_table(a, b)
        elif isinstance(a, T.TupleType) and isinstance(b, T.TupleType) and len(a.elems) == len(b.elems):
            for x, y in zip(a.elems, b.elems):
                self.merge_pending(x, y)

    def waits_for_type(self, key) -> bool:
        """Whether the pending list made at `key` was given a value of a type not known yet
        this round, in a round that is redone with new hints anyway (settle_pending_lists)."""
        return key in self.unknown_stores and self.hints_changed and getattr(self, "saw_unknown", None) is not None

    def settle_list_types(self, t: T.Type) -> None:
        """Lists of unknown element type that leave the function in a value of type `t`
        (returned, passed to a call) hold ints."""
        if isinstance(t, T.TupleType):
            for e in t.elems:
                self.settle_list_types(e)
        elif isinstance(t, T.ListType) and isinstance(t.elem, PendingElement):
            if not self.waits_for_type(t.elem.key):
                self.ints_by_default(t.elem.key)
            self.hints_changed = True
            raise Restart()
        elif isinstance(t, T.ListType):
            self.settle_list_types(T.contents(t))

    def read_type_of(self, t: T.ListType) -> T.Type:
        """`read_type` for a list of type `t`."""
        if isinstance(t.elem, PendingElement):
            self.ints_by_default(t.elem.key)
            self.hints_changed = True
            raise Restart()
        return t.elem

    def ints_by_default(self, key) -> None:
        """The empty list made at `key` holds ints, for want of a store that says otherwise (one
        of a float later widens it: `widen_to_num`)."""
        self.hints[("list", key)] = T.I64
        self.hints[("stored", key)] = True

    def read_type(self, lst: Value) -> T.Type:
        """The element type of `lst` for a read: a list nothing was stored into holds ints."""
        return self.read_type_of(lst.type)

    def element_type(self, types, node) -> T.Type:
        """The one type elements of these types meet at (a CompileError when none)."""
        t = types[0]
        for u in types[1:]:
            self.merge_pending(t, u)
            w = T.merge(t, u)
            if w is None:
                self.widen_number_fields(t, u)          # class_types.py: ints and floats in fields
                self.error(f"list elements of types {t} and {u}: a compiled list holds one type"
                           + mixed_classes(t, u), node)
            t = w
        if isinstance(t, T.NoneType):
            t = self.none_elements(node)
        if not T.is_list_element(t) and not isinstance(t, T.OptionalType):
            self.error(f"lists of {t} are not supported in compiled code (elements must be bools, "
                       "ints, floats, strs, lists, arrays, dicts, sets, None among values, or tuples "
                       "of them)", node)
        return t

    def none_elements(self, node) -> T.OptionalType:
        """The element type of a list whose elements are None so far (`[None] * n`, a memo
        table; `xs.append(None)` into `[]`): optionals of the type of the first other value
        stored (`opt[?]`, a pending type keyed by a node made once for `node`); ints when
        none is."""
        key = self.hints.get(("none_elements", id(node)))
        if key is None:
            key = self.hints[("none_elements", id(node))] = ast.copy_location(ast.Constant(None), node)
        t = self.resolve_pending(T.OptionalType(PendingElement(key)))
        if isinstance(t.value, PendingElement):
            self.pending_lists.add(key)
        return t

    # ---- the primitive operations -----------------------------------------------------

    def new_list(self, elem: T.Type, n: Value, node, kind=T.ListType) -> Value:
        """A new list of `n` elements not set yet (`kind` T.VarTupleType: a tuple of them)."""
        lst = self.emit("list_new", [], kind(elem), None, self.loc(node))
        self.resize_list(lst, n, node)
        return lst

    def resize_list(self, lst: Value, n: Value, node) -> None:
        """Give `lst` `n` elements (the new ones undefined); MemoryError without memory."""
        loc = self.loc(node)
        ok = self.emit("list_resize", [lst, n], T.BOOL, None, loc)
        self.emit("check", [self.emit("not", [ok], T.BOOL, None, loc)], T.NONE, ExcInfo("MemoryError", None), loc)

    def list_len(self, lst: Value, node) -> Value:
        return self.emit("list_len", [lst], T.I64, None, self.loc(node))

    def get_item(self, lst: Value, i: Value, node) -> Value:
        """Element `i` (0 <= i < len) of `lst`. Of a list whose element type is not known yet
        (read before anything is stored: `rows[i - 1][j]` above `rows.append(row)`), an
        Undef of unknown type: this round is rebuilt, with the type of the first value stored
        into the list or, when there is none, ints (`settle_pending_lists`)."""
        elem = lst.type.elem
        if is_pending_optional(elem):
            elem = elem.value               # (`[None] * n` before the first value stored)
        if isinstance(elem, PendingElement):
            self.pending_lists.add(elem.key)
            return Undef(UNKNOWN, self.loc(node))
        item = self.emit("list_get", [lst, i], elem, None, self.loc(node))
        holder = self.global_rows.get(id(lst)) or isinstance(elem, T.ListType) and self.global_lists.get(id(lst))
        if holder:                      # a row of a global list: read-only too
            self.global_lists[id(item)] = self.global_rows[id(item)] = holder
        return item

    def set_item(self, lst: Value, v: Value, i: Value, node) -> None:
        if has_unknown(v.type):
            return          # (a round to be rebuilt: get_item)
        v = self.fit_optional(lst.type.elem, v, node)
        elem = self.stored_type(lst, v.type, node)
        if is_pending_optional(elem):
            return          # (None into `[None] * n`: the round is redone once its type is known)
        v = Const(v.value, v.type) if isinstance(v, WeakConst) else v
        if isinstance(elem, T.ListType) and id(v) in self.global_rows:
            self.global_rows[id(lst)] = self.global_rows[id(v)]      # (list(G), [r for r in G])
        store = self.emit("list_set", [lst, self.coerce(v, elem, node), i], T.NONE, None, self.loc(node))
        if isinstance(store, Instr) and changes_python_type(v.type, elem):
            record_converted_store(self.func, store)        # (an argument list's: list_args.py)

    def checked_item(self, lst: Value, i: Value, node) -> Value:
        """`lst[i]` for a loop index `i` >= 0 (IndexError when the list has shrunk since)."""
        bad = self.cmp("ge", i, self.list_len(lst, node), node)
        self.raise_if(bad, "IndexError", _INDEX_ERROR, node)
        return self.get_item(lst, i, node)

    def list_index(self, lst: Value, index: Value, index_node, node, text: str) -> Value:
        """`index` as an element number of `lst`, counting from the end when negative;
        IndexError(`text`) when out of range."""
        if isinstance(index.type, Unknown):      # (read from a list of a type not known yet:
            return Undef(T.I64, self.loc(node))     # get_item; the round is rebuilt)
        if not isinstance(index.type, (T.IntType, T.BoolType)):
            self.error(f"list indices must be integers, not {index.type}", index_node)
        loc = self.loc(node)
        i = self.coerce(index, T.I64, index_node)
        n = self.list_len(lst, node)
        neg = self.cmp("lt", i, Const(0, T.I64), node)
        i = self.pick(neg, self.emit("add", [i, n], T.I64, None, loc), i, node)
        bad = self.emit("or", [self.cmp("lt", i, Const(0, T.I64), node), self.cmp("ge", i, n, node)],
                        T.BOOL, None, loc)
        self.raise_if(bad, "IndexError", text, node)
        return i

    def fit_optional(self, elem: T.Type, v: Value, node) -> Value:
        """`v`, about to be stored among elements of type `elem`: an optional stays one where
        the elements are optionals or not known yet (`xs.append(None if c else i)`), and is
        unwrapped (CPython's TypeError happens later, where it is used, here at the store)
        where they are values."""
        from script.frontend.optional import is_optional
        if is_optional(v) and not isinstance(elem, (T.OptionalType, PendingElement)) and not has_unknown(elem):
            return self.unwrap(v, node)
        return v

    def append_item(self, lst: Value, v: Value, node) -> None:
        v = self.fit_optional(lst.type.elem, v, node)
        self.stored_type(lst, v.type, node)
        n = self.list_len(lst, node)
        self.resize_list(lst, self.emit("add", [n, Const(1, T.I64)], T.I64, None, self.loc(node)), node)
        self.set_item(lst, v, n, node)

    def for_range(self, node, n: Value, body) -> None:
        """`body(i)` for 0 <= i < n, in a loop keyed by `node` (stable across rounds)."""
        self.counted_loop(self.info.synthetic_loop(node), Const(0, T.I64), n, Const(1, T.I64), body)

    def fill_from(self, lst: Value, at: Value, iterable, node) -> None:
        """Store the `n` elements of `iterable` = (n, item, type) at `lst[at:at + n]`."""
        n, item, _ = iterable
        loc = self.loc(node)
        self.for_range(node, n, lambda i: self.set_item(
            lst, item(i), self.emit("add", [at, i], T.I64, None, loc), node))

    # ---- expressions ------------------------------------------------------------------

    def expr_List(self, node: ast.List) -> Value:
        if has_star(node.elts):
            return star_displays.starred_list(self, node)
        values = [self.expr_opt(e, num=True) for e in node.elts]   # (a value that may be None, or an int|float, stays whole)
        if not values:
            return self.list_of_unknown(node)
        self.widen_inner_displays(values)
        elem = self.element_type([v.type for v in values], node)
        wider = self.hints.get(("list", node))      # (widen_list_at_merge, widen_to_num)
        if wider is not None and wider in (T.unify(elem, wider), T.merge(elem, wider)):
            elem = wider
        lst = self.new_list(elem, Const(len(values), T.I64), node)
        for k, v in enumerate(values):
            self.set_item(lst, v, Const(k, T.I64), node)
            if id(v) in self.list_origins:
                self.inner_origins.setdefault(node, set()).add(self.list_origins[id(v)])
        self.list_origins[id(lst)] = node
        return lst

    def expr_ListComp(self, node: ast.ListComp) -> Value:
        lst = self.list_of_unknown(node)

        def put():
            v = self.expr_opt(node.elt, num=True)
            if id(v) in self.list_origins:          # (a list of displays: made_here)
                self.inner_origins.setdefault(node, set()).add(self.list_origins[id(v)])
            self.append_item(lst, v, node)
        self.comprehension(node, put)
        self.list_origins[id(lst)] = node
        return lst

    def widen_list_at_merge(self, a: Value, b: Value) -> None:
        """Where a list of ints made here by a display or a comprehension (`u = [1] * n`) meets
        a list of floats (`u = step(v)`), the display makes floats (a hint, then Restart), as
        a variable's int meets a float; one of int|float values (sums starting from 0), the
        display makes such values (its ints stay ints); else nothing (the caller's error)."""
        if not (isinstance(a.type, T.ListType) and isinstance(b.type, T.ListType)):
            return
        for narrow, wide in ((a, b), (b, a)):
            node = self.list_origins.get(id(narrow))
            t = narrow.type.elem
            w = wide.type.elem
            if node is None or not isinstance(t, (T.IntType, T.BoolType)) or not (
                    isinstance(w, T.FloatType) and T.unify(t, w) == w
                    or w == T.INT_FLOAT and isinstance(t, T.IntType) and T.merge(t, w) == w):
                continue
            if self.hints.get(("list", node)) != wide.type.elem:
                self.hints[("list", node)] = wide.type.elem
                self.hints_changed = True
                raise Restart()

    def global_list(self, obj: list, name: str, node) -> Value:
        """A module-level list read by compiled code: a new list of its elements as they are
        when the function is compiled (as a global array is frozen, frozen.py), made where it
        is read. Compiled code may read it but not write it (`check_list_writable`): the write
        would change a copy, not the global."""
        if not obj:
            self.error(f"global '{name}' is an empty list, which compiled code cannot type", node)
        if len(obj) > _GLOBAL_LIST_UNROLL and all(type(x) in (int, float, bool) for x in obj):
            import numpy as np
            from script.frontend.frozen import frozen_array
            big = all(type(x) is int for x in obj) and max(obj) > T.I64.max
            if big and (min(obj) < 0 or max(obj) >= 1 << 64):
                self.error(f"global list '{name}' holds ints that do not fit one 64-bit type (int64, "
                           "or u64 for ints from 0 to 2**64 - 1)", node)
            try:
                arr = np.array(obj, np.uint64 if big else None)     # u64: int_consts.py
            except OverflowError:
                self.error(f"global list '{name}' holds an int that does not fit in int64", node)
            data = frozen_array(self, arr, name, node)
            n = Const(len(obj), T.I64)
            lst = self.new_list(self.element_type([data.type.dtype], node), n, node)
            loc = self.loc(node)
            self.for_range(node, n, lambda i: self.set_item(
                lst, self.emit("load", [data, i], data.type.dtype, None, loc), i, node))
        else:
            values = [self.python_object(x, name, node) for x in obj]
            if not all(isinstance(v, Value) for v in values):
                self.error(f"global list '{name}' holds values compiled code cannot use "
                           "(bools, ints, floats and tuples of them)", node)
            lst = self.new_list(self.element_type([v.type for v in values], node), Const(len(values), T.I64), node)
            for k, v in enumerate(values):
                self.set_item(lst, v, Const(k, T.I64), node)
        self.global_lists[id(lst)] = name
        return lst

    def check_list_writable(self, lst: Value, node) -> None:
        """CompileError for a write to a global list (`global_list`) or to a held range or
        iterator (held_iterators.py)."""
        held_iterators.refuse(self, lst, "'{kind}' object does not support item assignment or changes", node)
        name = self.global_lists.get(id(lst))
        if name is None:
            return
        if id(lst) in self.global_rows:         # a list read out of a global list, tuple or dict
            self.error(f"a list inside global '{name}' is read-only in compiled code (the global is copied "
                       f"when the function is compiled, so the write would be lost); copy the list "
                       f"first: xs = list(...)", node)
        copy = f"[list(r) for r in {name}]" if isinstance(lst.type.elem, T.ListType) else f"list({name})"
        self.error(f"global list '{name}' is read-only in compiled code (it is copied when the "
                   f"function is compiled, so the write would be lost); copy it first: "
                   f"xs = {copy}", node)

    def list_delete(self, lst: Value, index_node, node) -> None:
        """`del lst[i]`: as `lst.pop(i)`, with `del`'s IndexError message."""
        self.check_list_writable(lst, node)
        if isinstance(index_node, ast.Slice):
            return list_slices.list_slice_delete(self, lst, index_node, node)
        i = self.list_index(lst, self.expr(index_node), index_node, node, _STORE_ERROR)
        pop = self.ctx.callee(self, self.ctx.info_for(listlib.pop_at), (lst.type, T.I64), node)
        self.emit("call", [lst, i], pop.ret_type, pop, self.loc(node))

    def list_of(self, arg_node, node) -> Value:
        """`list(x)`: a new list of the elements of a list, tuple, range, 1-d array,
        `enumerate`/`zip` or generator expression."""
        if self.walks_generator(arg_node):
            return self.generator_list(arg_node)        # generators.py
        n, item, et = self.iterable(arg_node)
        lst = self.new_list(self.element_type([et], node), n, node)
        self.fill_from(lst, Const(0, T.I64), (n, item, et), node)
        return lst

    def list_subscript(self, lst: Value, index_node, node) -> Value:
        held_iterators.no_items(self, lst, node)
        if isinstance(index_node, ast.Slice):
            return self.list_slice(lst, index_node, node)
        i = self.list_index(lst, self.expr(index_node), index_node, node, _INDEX_ERROR)
        return self.get_item(lst, i, node)

    def list_slice(self, lst: Value, sl: ast.Slice, node) -> Value:
        """`lst[a:b:c]`: a new list (Python's slice.indices rules)."""
        start, count, step = self.slice_operands(lst, 0, sl, node, length=self.list_len(lst, node))
        loc = self.loc(node)
        held_iterators.no_items(self, lst, node)
        out = self.new_list(self.read_type(lst), count, node, _same_kind(lst.type))
        self.for_range(sl, count, lambda i: self.set_item(out, self.get_item(lst, self.emit(
            "add", [start, self.emit("mul", [i, step], T.I64, None, loc)], T.I64, None, loc), node), i, node))
        return out

    def list_store(self, lst: Value, index_node, value: Value, node) -> None:
        if isinstance(lst.type, T.VarTupleType):
            self.error("'tuple' object does not support item assignment", node)
        self.check_list_writable(lst, node)
        if isinstance(index_node, ast.Slice):
            return list_slices.list_slice_store(self, lst, index_node, value, node)
        i = self.list_index(lst, self.expr(index_node), index_node, node, _STORE_ERROR)
        self.set_item(lst, value, i, node)

    def list_aug_assign(self, node: ast.AugAssign) -> None:
        """`lst[i] op= v`: the index is computed once, as in Python."""
        target = node.target
        lst = self.expr(target.value)
        self.check_list_writable(lst, node)
        if isinstance(target.slice, ast.Slice):
            self.error("augmented assignment to list slices is not supported in compiled code", target)
        i = self.list_index(lst, self.expr(target.slice), target.slice, node, _INDEX_ERROR)
        value = self.binop(type(node.op), self.get_item(lst, i, node), self.expr_num(node.value), node)
        self.set_item(lst, value, i, node)      # (an int|float operand: a num, as `x op= v` makes)

    def list_binop(self, op: type, a: Value, b: Value, node) -> Value:
        """`a + b` (a new list) and `lst * n`, `n * lst` (n <= 0 gives an empty list)."""
        for v in (a, b):
            held_iterators.refuse(self, v, f"unsupported operand type(s) for {'+' if op is ast.Add else '*'}: "
                                           f"'{{kind}}' and another value", node)
        if op is ast.Add:
            a, b = self.listlike(a, b, node), self.listlike(b, a, node)
        if op is ast.Add and isinstance(a.type, T.ListType) and isinstance(b.type, T.ListType):
            self.merge_pending_list(a.type, b.type)     # (`[] + [x]`: the `[]` takes x's type)
            if isinstance(a.type, T.VarTupleType) != isinstance(b.type, T.VarTupleType):
                self.error(f"can only concatenate {python_name(a.type)} (not \"{python_name(b.type)}\") to "
                           f"{python_name(a.type)}", node)
            elem = self.element_type([self.read_type(a), self.read_type(b)], node)
            na, nb = self.list_len(a, node), self.list_len(b, node)
            out = self.new_list(elem, self.emit("add", [na, nb], T.I64, None, self.loc(node)), node,
                                type(a.type))
            self.fill_from(out, Const(0, T.I64), (na, lambda i: self.get_item(a, i, node), elem), a)
            self.fill_from(out, na, (nb, lambda i: self.get_item(b, i, node), elem), b)
            return out
        if op is ast.Mult:
            lst, n = (a, b) if isinstance(a.type, T.ListType) else (b, a)
            if isinstance(n.type, (T.IntType, T.BoolType)):
                return self.repeat_list(lst, self.coerce(n, T.I64, node), node)
        self.error(f"unsupported operand types for this operator: {a.type} and {b.type}", node)

    def repeat_list(self, lst: Value, n: Value, node) -> Value:
        loc = self.loc(node)
        n = self.emit("max", [n, Const(0, T.I64)], T.I64, None, loc)
        m = self.list_len(lst, node)
        # More than an i64 can count is MemoryError, as CPython's list repetition says.
        big = self.emit("and", [self.cmp("gt", n, Const(0, T.I64), node), self.cmp(
            "gt", m, self.emit("floordiv", [Const(_LIMIT, T.I64), self.emit("max", [n, Const(1, T.I64)], T.I64,
                                                                            None, loc)], T.I64, None, loc), node)],
                       T.BOOL, None, loc)
        self.emit("check", [big], T.NONE, ExcInfo("MemoryError", None), loc)
        out = self.new_list(self.read_type(lst), self.emit("mul", [m, n], T.I64, None, loc), node, type(lst.type))
        if id(lst) in self.list_origins:        # ([1] * n: the display's, widen_list_at_merge)
            self.list_origins[id(out)] = self.list_origins[id(lst)]

        def copy(r):
            base = self.emit("mul", [r, m], T.I64, None, loc)
            self.fill_from(out, base, (m, lambda i: self.get_item(lst, i, node), None), lst)

        self.for_range(node, n, copy)
        return out

    def repeat_in_place(self, lst: Value, n: Value, node: ast.AugAssign) -> None:
        """`lst *= n`: the list itself repeated `n` times (emptied for n <= 0), as
        list.__imul__ does, so every name of it (a caller's argument too) sees it."""
        if not isinstance(n.type, (T.IntType, T.BoolType)):
            self.error(f"unsupported operand types for this operator: {lst.type} and {n.type}", node)
        self.check_list_writable(lst, node)
        copy = self.repeat_list(lst, self.coerce(n, T.I64, node), node)
        total = self.list_len(copy, node)
        self.resize_list(lst, total, node)
        self.for_range(node.target, total, lambda i: self.set_item(lst, self.get_item(copy, i, node), i, node))

    def extend_list(self, lst: Value, arg_node, node) -> None:
        """`lst.extend(x)`, `lst += x`: the length of `x` is taken before `lst` grows, so
        ``a.extend(a)`` doubles `a` as in CPython."""
        if self.walks_generator(arg_node):
            self.each_item(arg_node, lambda x: self.append_item(lst, x, node))
            return
        self.extend_with(lst, self.iterable(arg_node), node)

    def extend_with(self, lst: Value, iterable, node) -> None:
        n, item, et = iterable
        self.stored_type(lst, et, node)
        start = self.list_len(lst, node)
        self.resize_list(lst, self.emit("add", [start, n], T.I64, None, self.loc(node)), node)
        self.fill_from(lst, start, iterable, node)

    def probe_type(self, lst: Value, x: Value) -> None:
        """`x in lst`, `lst.index(x)`, `.count(x)`, `.remove(x)` on a list nothing was stored
        into yet: its elements take the type of `x` (as a dict's keys do from a lookup)."""
        if isinstance(lst.type.elem, PendingElement) and not has_unknown(x.type) and T.is_list_element(x.type):
            self.merge_pending(lst.type.elem, x.type)

    def list_contains(self, x: Value, lst: Value, node) -> Value:
        """`x in lst`: == against each element in order, stopping at the first equal one."""
        self.probe_type(lst, x)
        self.check_comparable(lst, "'in'", node)
        return self.any_of(self.iterable_value(lst, node), node,
                           lambda e: self.compare(ast.Eq(), x, e, node))

    # ---- methods ----------------------------------------------------------------------

    def list_method(self, lst: Value, name: str, node: ast.Call) -> Value:
        if name == "sort":
            self.check_list_writable(lst, node)
            if node.args:
                self.error("sort() takes no positional arguments", node)
            keyed.sort_list(self, lst, node.keywords, "sort", node)
            return Const(None, T.NONE, self.loc(node))
        if node.keywords:
            self.error(f"list.{name}() takes no keyword arguments", node)
        args = node.args
        loc = self.loc(node)
        if name in _WRITING_METHODS and isinstance(lst.type, T.VarTupleType):
            self.error(f"'tuple' object has no attribute '{name}'", node.func)
        if isinstance(lst.type, T.IterType) and (name not in ("index", "count") or held_iterators.is_iterator(lst.type)):
            held_iterators.refuse(self, lst, f"'{{kind}}' object has no attribute '{name}'", node.func)
        if name in _WRITING_METHODS:
            self.check_list_writable(lst, node)
        if name == "append":
            if len(args) != 1:
                self.positional(node, "append", 1)
            v = self.expr_opt(args[0], num=True)
            if mixed_numbers.is_num(v) and not isinstance(lst.type.elem, (T.IntFloatType, PendingElement)):
                self.widen_to_num(lst, lst.type.elem, v.type)       # (a list made here: Restart)
                raise mixed_numbers.NumRead(args[0], self.loc(args[0]))   # else the statement splits on it
            self.append_item(lst, v, node)
            return Const(None, T.NONE, loc)
        if name == "extend":
            if len(args) != 1:
                self.error(f"list.extend() takes exactly one argument ({len(args)} given)", node)
            self.extend_list(lst, args[0], node)
            return Const(None, T.NONE, loc)
        if name == "clear":
            self.positional(node, "clear", 0)
            self.resize_list(lst, Const(0, T.I64), node)
            return Const(None, T.NONE, loc)
        if name == "copy":
            self.positional(node, "copy", 0)
            return self.list_slice(lst, ast.Slice(lineno=node.lineno, col_offset=node.col_offset), node)
        if name in ("appendleft", "popleft"):        # a deque is a list (docs/lists.md)
            self.positional(node, name, 1 if name == "appendleft" else 0)
            if name == "popleft":                   # CPython's deque message, not a list's
                empty = self.cmp("eq", self.list_len(lst, node), Const(0, T.I64), node)
                self.raise_if(empty, "IndexError", "pop from an empty deque", node)
            zero = ast.Constant(0, lineno=node.lineno, col_offset=node.col_offset)
            name, args = ("insert", [zero, args[0]]) if name == "appendleft" else ("pop", [zero])
        if name == "extendleft":
            if len(args) != 1:
                self.error(f"extendleft() takes exactly one argument ({len(args)} given)", node)
            items = self.list_of(args[0], node)
            if isinstance(items.type.elem, PendingElement):
                return Const(None, T.NONE, loc)
            self.stored_type(lst, items.type.elem, node)
            call = ast.Call(node.func, [], [], lineno=node.lineno, col_offset=node.col_offset)
            return self.call_script(self.ctx.info_for(listlib.extendleft), call, first=items, leading=(lst,))
        if name in _LIBRARY_METHODS and self.info.py_func.__module__ in (
                listlib.__name__, "script.frontend.dictlib", "script.frontend.setlib", "script.frontend.slicelib"):
            return self.library_method(lst, name, node)
        helper = _METHODS.get(name)
        if helper is None:
            self.error(f"list has no method '{name}' in compiled code", node.func)
        if name in ("index", "count", "remove"):
            if args:
                self.probe_type(lst, self.pre_evaluate(args[0]))
            self.check_comparable(lst, f"list.{name}()", node)
        if name == "index" and listlib.NAMES_VALUE and len(args) == 1 and _is_named(self.pre_evaluated[id(args[0])].type):
            helper = listlib.index_named        # CPython < 3.13: "5 is not in list"
        if name == "sort" and isinstance(self.read_type(lst), T.ComplexType):
            self.error("'<' not supported between instances of 'complex' and 'complex'", node)
        if name == "sort" and not self.read_type(lst).is_numeric():
            self.error(f"sort() of a {lst.type} is not supported in compiled code (numbers only)", node)
        if name == "pop" and isinstance(lst.type.elem, PendingElement) and id(lst.type.elem.key) not in self.foreign:
            for a in args:          # popped before anything is pushed (in the source's order): the
                self.expr(a)        # round is rebuilt once a store, or ints, decide (get_item)
            self.pending_lists.add(lst.type.elem.key)
            return Undef(UNKNOWN, loc)
        if name == "pop" and not args:
            args = [ast.Constant(-1, lineno=node.lineno, col_offset=node.col_offset)]
        if name == "insert" and len(args) == 2:
            # The element type of an empty list is settled here, by the value (in order).
            self.pre_evaluate(args[0])
            self.stored_type(lst, self.pre_evaluate(args[1]).type, node)
        call = ast.Call(node.func, args, [], lineno=node.lineno, col_offset=node.col_offset)
        return self.call_script(self.ctx.info_for(helper), call, first=lst)

    def check_comparable(self, lst: Value, what: str, node) -> None:
        """CompileError for `what` (which compares elements with ==) on a list holding arrays
        (at any depth): == between arrays is element-wise, not a truth value."""
        if _holds_array(self.read_type(lst)):
            self.error(f"{what} of a {lst.type} compares its elements with ==, which compiled code does "
                       "not support between arrays", node)

    def compare_lists(self, pred: str, a: Value, b: Value, node) -> Value:
        """`a == b`, `a < b`, ... with a list on either side: CPython's lexicographic order
        (listlib `equal`, `less`); a list is never equal to a value of another type. A tuple
        of run-time length (`VarTupleType`) compares with tuples, as a tuple, not with lists."""
        a, b = self.listlike(a, b, node), self.listlike(b, a, node)
        for v in (a, b):
            if held_iterators.is_iterator(v.type) or isinstance(v.type, T.IterType) and pred not in ("eq", "ne"):
                held_iterators.refuse(self, v, f"'{_CMP_SYMBOLS[pred]}' with a '{{kind}}' object (CPython "
                                               f"compares iterators by identity, ranges only by ==)", node)
        if isinstance(a.type, T.IterType) != isinstance(b.type, T.IterType):
            return Const(pred == "ne", T.BOOL)          # (range(3) == [0, 1, 2] is False)
        if isinstance(a.type, T.VarTupleType) != isinstance(b.type, T.VarTupleType) or \
                not (isinstance(a.type, T.ListType) and isinstance(b.type, T.ListType)):
            if pred in ("eq", "ne"):
                return Const(pred == "ne", T.BOOL)
            self.error(f"'{_CMP_SYMBOLS[pred]}' is not supported between {a.type} and {b.type}", node)
        for v in (a, b):
            self.check_comparable(v, f"'{_CMP_SYMBOLS[pred]}'", node)
        if pred in ("eq", "ne"):
            r = self.call_listlib(listlib.equal, [a, b], node)
            return r if pred == "eq" else self.emit("not", [r], T.BOOL, None, self.loc(node))
        first, second = (a, b) if pred in ("lt", "le") else (b, a)
        return self.call_listlib(listlib.less, [first, second, Const(pred in ("le", "ge"), T.BOOL)], node)

    def listlike(self, v: Value, other: Value, node) -> Value:
        """Tuple `v` as a `VarTupleType` of its items where it meets one (`col == (1, 2)`,
        `col + (0,)`)."""
        if not (isinstance(other.type, T.VarTupleType) and type(v.type) is T.TupleType):
            return v
        loc = self.loc(node)
        items = [self.emit("extract", [v], et, k, loc) for k, et in enumerate(v.type.elems)]
        if any(T.unify(other.type.elem, it.type) != other.type.elem for it in items):
            return v                        # (items of other types: never equal, as a list)
        out = self.new_list(other.type.elem, Const(len(items), T.I64), node, T.VarTupleType)
        for k, it in enumerate(items):
            self.set_item(out, it, Const(k, T.I64), node)
        return out

    def var_tuple_of(self, arg_node, node) -> Value:
        """`tuple(xs)` of a list, str, range, generator, ...: a tuple of run-time length."""
        lst = self.list_of(arg_node, node)
        n = self.list_len(lst, node)
        out = self.new_list(self.read_type(lst), n, node, T.VarTupleType)
        self.for_range(node, n, lambda i: self.set_item(out, self.get_item(lst, i, node), i, node))
        return out

    def call_listlib(self, fn, args: list[Value], node) -> Value:
        callee = self.ctx.callee(self, self.ctx.info_for(fn), tuple(v.type for v in args), node)
        return self.emit("call", args, callee.ret_type, callee, self.loc(node))

    def library_method(self, lst: Value, name: str, node: ast.Call) -> Value:
        """The list methods only listlib and dictlib may call: ``lst._resize(n)``, and
        ``lst._get(i)`` / ``lst._set(i, v)``, element `i` without a bounds check (their code
        keeps 0 <= i < len by construction)."""
        args = self.positional(node, name, {"_resize": 1, "_get": 1, "_set": 2}[name])
        if name == "_resize":
            self.resize_list(lst, args[0], node)
            return Const(None, T.NONE, self.loc(node))
        i = self.coerce(Const(args[0].value, args[0].type) if isinstance(args[0], WeakConst) else args[0],
                        T.I64, node)
        if name == "_get":
            return self.get_item(lst, i, node)
        self.set_item(lst, args[1], i, node)
        return Const(None, T.NONE, self.loc(node))

    def pre_evaluate(self, node) -> Value:
        """The value of `node`, computed now and given again by its next `lazy` (lower_expr)."""
        v = self.expr(node)
        self.pre_evaluated[id(node)] = v
        return v

    # ---- comprehensions and generator expressions ---------------------------------------

    def comprehension(self, node, body) -> None:
        """`body()` for each binding of the `for` clauses of `node` (a comprehension or
        generator expression) whose `if` clauses hold, in Python's order; the targets are
        names of their own scope, as in Python 3."""
        scope: dict[str, str] = {}
        held_iterators.comprehension(self, node)
        self.comp_scopes.append(scope)
        try:
            self._clause(node, 0, scope, body)
        finally:
            self.comp_scopes.pop()

    def _clause(self, node, k: int, scope: dict, body) -> None:
        if k == len(node.generators):
            body()
            return
        gen = node.generators[k]
        if gen.is_async:
            self.error("asynchronous comprehensions are not supported", gen)

        def bind(x):
            self.bind_target(gen.target, x, scope, node)
            self._filtered(gen.ifs, lambda: self._clause(node, k + 1, scope, body))

        if self.walks_generator(gen.iter) or self.is_str_parts(gen.iter):
            self.each_item(gen.iter, bind)          # generators.py, strmethods.py
            return
        source = self.iterable(gen.iter)
        n, item, _ = source
        if getattr(source, "held_iterator", False):     # (a `next(it)` in the body takes one too)
            self.counted_loop(self.info.synthetic_loop(gen), Const(0, T.I64), n, Const(1, T.I64),
                              lambda i: bind(item(i)), exhausted=source.exhausted, length=source.length)
            return
        self.for_range(gen, n, lambda i: bind(item(i)))

    def _filtered(self, ifs, then) -> None:
        if not ifs:
            then()
            return
        cond = self.condition(ifs[0])
        if isinstance(cond, Const):
            if cond.value:
                self._filtered(ifs[1:], then)
            return
        yes, join = self.new_block("comp.if"), self.new_block("comp.next")
        self.branch(cond, yes, join, self.loc(ifs[0]))
        self.seal(yes)
        self.start(yes)
        self.narrow(test_facts(ifs[0])[0])         # (`if x is not None`: optional.py)
        self._filtered(ifs[1:], then)
        self.goto(join, self.loc(ifs[0]))
        self.finish_join(join)

    def bind_target(self, target, value: Value, scope: dict, node) -> None:
        if isinstance(target, ast.Name):
            var = scope.get(target.id)
            if var is None:
                self.counter += 1
                var = scope[target.id] = f"$comp{self.counter}:{target.id}"
            self.write(var, value, loc=self.loc(target))
            return
        if not isinstance(target, (ast.Tuple, ast.List)) or any(isinstance(e, ast.Starred) for e in target.elts):
            self.error("comprehension targets must be names or tuples of names", target)
        if isinstance(value.type, (T.ListType, T.ArrayType)):     # (a zip(*rows) column)
            _, item = self.checked_unpack(value, len(target.elts), False, node)
            for k, t in enumerate(target.elts):
                self.bind_target(t, item(Const(k, T.I64)), scope, node)
            return
        if not isinstance(value.type, T.TupleType) or len(value.type.elems) != len(target.elts):
            self.error(f"cannot unpack a value of type {value.type} into {len(target.elts)} targets", target)
        for k, (t, et) in enumerate(zip(target.elts, value.type.elems)):
            self.bind_target(t, self.emit("extract", [value], et, k, self.loc(node)), scope, node)

    def comprehension_var(self, name: str) -> str | None:
        """The variable standing for comprehension target `name` here, if one is in scope."""
        for scope in reversed(self.comp_scopes):
            if name in scope:
                return scope[name]
        return None

    def each(self, arg_node, body) -> None:
        """`body(x)` for each element `x` of what `arg_node` gives: a generator (without
        making a list, generators.py) or anything `iterable` takes."""
        if self.walks_generator(arg_node):
            self.each_item(arg_node, body)
            return
        n, item, _ = self.iterable(arg_node)
        self.for_range(arg_node, n, lambda i: body(item(i)))

    def expr_GeneratorExp(self, node):
        from script.frontend.generators import USE_ERROR
        self.error(f"a generator expression {USE_ERROR}", node)

    def sum_each(self, arg_node, start: Value | None, node, op=ast.Add) -> Value:
        """sum() of a generator expression (math.prod's with `op` ast.Mult): the
        accumulator's type widens as Python's result does (bools sum to an int, an int
        start with floats gives a float). Of floats, the result is a float even when there
        are none, as `sum_of`'s (CPython's is the int start then: docs/differences.md); of
        elements that are ints or floats (`num`), the total is one too."""
        init = Const(0 if op is ast.Add else 1, T.I64)
        acc = self.new_var("acc", start if start is not None else init)
        elements = []       # (whether an element is an int|float: then so is the total, as CPython's)

        def add(x):
            elements.append(mixed_numbers.is_num(x))
            self.write(acc, self.binop(op, self.read(acc, self.loc(node)), x, node))
        self.each(arg_node, add)
        total = self.read(acc, self.loc(node))
        if mixed_numbers.is_num(total) and not any(elements):
            return mixed_numbers.as_float(self, total, self.loc(node))
        return total

    def minmax_each(self, arg_node, name: str, default, node) -> Value:
        """min()/max() of a generator expression: Python's rule (a later element replaces
        the result only when strictly smaller/greater), ValueError or `default` when empty."""
        loc = self.loc(node)
        seen = self.new_var("seen", Const(False, T.BOOL))
        self.counter += 1
        acc = f"$best{self.counter}"       # assigned by the first element

        def step(x):
            if not (x.type.is_numeric() or isinstance(x.type, (T.TupleType, T.StrType, T.ListType))):
                self.error(f"{name}() of elements of type {x.type} is not supported", node)
            best = self.choose(self.read(seen, loc), lambda: self.minmax_step(
                name, self.read(acc, loc), x, node), lambda: x, node)
            self.write(acc, best)
            self.write(seen, Const(True, T.BOOL))

        self.each(arg_node, step)
        found = self.read(seen, loc)
        if default is None:
            self.raise_if(self.emit("not", [found], T.BOOL, None, loc), "ValueError", _empty_message(name), node)
            return self.read(acc, loc)
        return self.choose(found, lambda: self.read(acc, loc), lambda: default, node)

    def minmax_step(self, name: str, best: Value, x: Value, node) -> Value:
        """One step of min()/max(): tuples by Python's ordering, strs by code points."""
        if isinstance(best.type, Unknown):          # the result's type is not known yet
            return Undef(UNKNOWN, self.loc(node))
        if isinstance(x.type, (T.TupleType, T.ListType)):
            return self.better_of(best, x, name, node)
        if isinstance(x.type, T.StrType):
            return self.str_minmax(name, best, x, node)
        return self.binop_minmax(name, best, x, node)

    def binop_minmax(self, name: str, a: Value, b: Value, node) -> Value:
        t = self.common_type(a, b, node)
        return self.emit(name, [self.coerce(a, t, node), self.coerce(b, t, node)], t, None, self.loc(node))

    def any_all(self, arg_node, is_any: bool, node) -> Value:
        """any()/all(), stopping at the first decisive element (later ones are not computed)."""
        if not self.walks_generator(arg_node) and self.builtin_call(arg_node) is None:
            seq = self.expr(arg_node)
            if isinstance(seq.type, T.ArrayType) and seq.type.ndim > 1:
                self.error("the truth value of an array with more than one element is ambiguous "
                           "(use a.any() or a.all())", arg_node)
            if isinstance(seq.type, T.TupleType):       # known length: no loop
                result: Value = Const(not is_any, T.BOOL)
                for k, et in enumerate(seq.type.elems):
                    c = self.truth(self.emit("extract", [seq], et, k, self.loc(node)), node)
                    result = self.emit("or" if is_any else "and", [result, c], T.BOOL, None, self.loc(node)) \
                        if not isinstance(result, Const) or result.value != is_any else result
                return result
            return self.any_of(self.iterable_value(seq, node), node, lambda x: self.truth(x, node), is_any)
        return self.any_of(arg_node, node, lambda x: self.truth(x, node), is_any)

    def any_of(self, source, node, test, is_any: bool = True) -> Value:
        """Whether `test(x)` holds for some (`is_any`) or every element `x` of `source`
        (a node for `each`, or an (n, item, type) iterable), stopping at the first decisive one."""
        loc = self.loc(node)
        result = self.new_var("found", Const(not is_any, T.BOOL))
        done = self.new_block("any.done")

        def step(x):
            c = test(x)
            decisive = c if is_any else (Const(not c.value, T.BOOL) if isinstance(c, Const)
                                         else self.emit("not", [c], T.BOOL, None, loc))
            hit, go_on = self.new_block("any.hit"), self.new_block("any.next")
            self.branch(decisive, hit, go_on, loc)
            self.seal(hit)
            self.seal(go_on)
            self.start(hit)
            self.write(result, Const(is_any, T.BOOL))
            self.goto(done, loc)
            self.start(go_on)

        if isinstance(source, tuple):
            n, item, _ = source
            self.for_range(node, n, lambda i: step(item(i)))
        else:
            self.each(source, step)
        self.goto(done, loc)
        self.finish_join(done)
        return self.read(result, loc)

    # ---- builtins -----------------------------------------------------------------------

    def builtin_any(self, node, name) -> Value:
        if node.keywords or len(node.args) != 1:
            self.error(f"{name}() takes exactly one argument", node)
        return self.any_all(node.args[0], name == "any", node)

    def builtin_list(self, node, name) -> Value:
        if node.keywords or len(node.args) > 1:
            self.error("list() takes at most 1 argument", node)
        if not node.args:
            return self.list_of_unknown(node)
        return self.list_of(node.args[0], node)

    def builtin_sorted(self, node, name) -> Value:
        if len(node.args) != 1:
            self.error(f"sorted expected 1 argument, got {len(node.args)}", node)
        lst = self.list_of(node.args[0], node)
        keyed.sort_list(self, lst, node.keywords, "sort", node)
        return lst

    def list_to_array(self, lst: Value, dtype: T.Type | None, node) -> Value:
        """`np.array(lst)`: a new 1-d array of the elements (list_arrays.py: of lists)."""
        elem = self.read_type(lst)
        if isinstance(elem, T.ListType):
            from script.frontend.list_arrays import nested_list_to_array
            return nested_list_to_array(self, lst, dtype, node)
        if not elem.is_numeric():
            self.error(f"numpy.array() of a {lst.type} is not supported in compiled code", node)
        t = dtype or elem
        n = self.list_len(lst, node)
        out = self.alloc_array(t, [n], node)
        self.for_range(node, n, lambda i: self.emit(
            "store", [out, self.item_value(self.get_item(lst, i, node), t, node), i], T.NONE, None, self.loc(node)))
        return out


_METHODS = {"pop": listlib.pop_at, "insert": listlib.insert, "index": listlib.index,
            "remove": listlib.remove, "count": listlib.count, "reverse": listlib.reverse,
            "sort": listlib.sort, "rotate": listlib.rotate}


_LIBRARY_METHODS = ("_resize", "_get", "_set")

def _same_kind(t: T.ListType):
    """The constructor of lists of `t`'s kind (a slice of a tuple is a tuple, of a range a range)."""
    if isinstance(t, T.IterType):
        return functools.partial(T.IterType, kind=t.kind)
    return type(t) if isinstance(t, T.VarTupleType) else T.ListType


_WRITING_METHODS = ("append", "extend", "clear", "pop", "insert", "remove", "reverse", "sort",
                    "appendleft", "popleft", "extendleft", "rotate")


_CMP_SYMBOLS = {"eq": "==", "ne": "!=", "lt": "<", "le": "<=", "gt": ">", "ge": ">="}


def _is_named(t: T.Type) -> bool:
    """Whether an exception message can name a value of type `t` (messages.py)."""
    return isinstance(t, (T.IntType, T.FloatType, T.BoolType, T.StrType))


def _holds_array(t: T.Type) -> bool:
    if isinstance(t, T.TupleType):
        return any(_holds_array(e) for e in t.elems)
    if isinstance(t, T.ListType):
        return _holds_array(T.contents(t))
    return isinstance(t, T.ArrayType)


def _holds_reference(t: T.Type) -> bool:
    if isinstance(t, T.TupleType):
        return any(_holds_reference(e) for e in t.elems)
    return isinstance(t, (T.ListType, T.ArrayType))


def _empty_message(name: str) -> str:
    from script.frontend.pymessages import message
    return message(f"{name}_empty")


def _example(t: T.Type) -> str:
    return {T.F64: "floats, e.g. [0.0]", T.I64: "ints"}.get(t, f"{t} values")


def _list_method(low, lst: Value, node: ast.Call) -> Value:
    """Every method of a list (a deque, a tuple of run-time length): list_method's chain,
    with a bounded deque's checks around it (bounded_deques.py)."""
    name = node.func.attr
    bounded_deques.bounded_insert_check(low, lst, name, node)
    result = low.list_method(lst, name, node)
    bounded_deques.bounded_method(low, lst, name, node)     # deque(maxlen=)
    return result


METHODS.register(("list", ANY), _list_method)
BINOPS.register(("list", ANY), lambda low, op, a, b, node: low.list_binop(op, a, b, node))
