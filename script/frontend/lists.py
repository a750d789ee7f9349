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
import operator

from script.errors import MIXED_NUMBERS
from script.frontend import (arrays, bounded_deques, class_methods, class_types, class_unions, dicts,
                             generators, held_iterators, keyed, list_slices, mixed_numbers, numpy_alloc,
                             optional, star_displays, strings, strmethods, table_args, union_values)
from script.lib.python import listlib
from script.frontend.global_writes import CELL
from script.frontend.class_types import tie_knot
from script.frontend.lower_expr import NOT_INDICES, WeakConst, is_numpy_int, python_sample, sample_type_error
from script.frontend.optional import python_name, test_facts
from script.frontend.python_classes import is_deque, view_kind
from script.frontend.registry import ANY, BINOPS, METHODS
from script.frontend.ssa_builder import Restart, borrow_from_callers
from script.frontend.unknown import UNKNOWN, PendingElement, Undef, Unknown, has_unknown, is_pending_optional
from script.frontend.class_methods import mixed_classes
from script.frontend.star_displays import has_star
from script.ir import types as T
from script.ir.core import BlockParam, Const, Instr, Value
from script.frontend.list_args import changes_python_type, record_converted_store
from script.ir.ops import ExcInfo

INDEX_ERROR = "list index out of range"
_STORE_ERROR = "list assignment index out of range"
# A deque's (python_classes.is_deque): one text for reads, writes and deletions, and no slices.
_DEQUE_INDEX_ERROR = "deque index out of range"
_DEQUE_SLICE_ERROR = "sequence index must be integer, not 'slice'"
_LIMIT = 1 << 62            # no list has more elements (list_resize fails first)
_GLOBAL_LIST_UNROLL = 32    # longer global lists of numbers are copied from a frozen array


def _typed_by_stores(builder, elem: T.Type) -> list:
    """The hint keys of the empty lists `builder` made whose elements, of type `elem`, a
    store or a hint typed (`stored_type`)."""
    return [k for k, v in builder.hints.items() if isinstance(k, tuple) and len(k) == 2 and k[0] == "list"
            and v == elem and builder.hints.get(("stored", k[1]))]


def mark_typed_by_stores(cx, t: T.Type) -> None:
    """The empty lists of `t`, at any depth of lists (`x: list[list[str]] = [[] for ...]`),
    are typed by what is stored into them, as an annotation is a hint: a store of another
    kind widens them (`widen_to_num`, `widen_to_union`), as it would an unannotated one."""
    while isinstance(t, T.ListType) and not isinstance(t, (T.ClassType, T.VarTupleType)):
        if isinstance(t.elem, PendingElement):
            cx.hints[("stored", t.elem.key)] = True
            return
        t = t.elem


def _with_num(elem: T.Type, t: T.Type) -> T.Type | None:
    """The element type a list of `elem` given a `t` widens to where ints and floats meet
    (``num``, or lists of them: ``list[i64]`` given a ``list[num]``; tuples with ``num``
    where their items meet so: ``(f64, i64)`` given ``(i64, i64)``), else None."""
    if isinstance(elem, T.ListType) and isinstance(t, T.ListType) and type(elem) is type(t):
        inner = _with_num(elem.elem, t.elem)
        return None if inner is None else T.ListType(inner)
    if type(elem) is T.TupleType and type(t) is T.TupleType and len(elem.elems) == len(t.elems):
        items = [a if a == b else _with_num(a, b) for a, b in zip(elem.elems, t.elems)]
        return None if None in items or elem.elems == t.elems else T.TupleType(items)
    if elem not in (T.I64, T.F64) or t == elem or T.merge(elem, t) != T.INT_FLOAT:
        return None
    return T.INT_FLOAT


def list_of_unknown(cx, node) -> Value:
    """A new empty list whose element type is whatever is first stored into it."""
    hint = cx.hints.get(("list", node))
    if hint is None:
        cx.pending_lists.add(node)
        hint = PendingElement(node)
    return new_list(cx, resolve_pending(cx, hint), Const(0, T.I64), node)


def made_list(cx, elem: T.Type, n: Value, node, kind=T.ListType) -> Value:
    """A new list that `node` makes of `n` elements of type `elem` (a display, `list(x)`,
    `sorted(x)`, `deque(x)`, `x[a:b]`, `x.copy()`, `x + y`): its own origin (`made_here`),
    so that a value of a wider type stored in it later (an int in a list of floats) makes it,
    in the next round, a list of that wider type (``num``), as CPython's list keeps each
    element's own type. The caller sets the elements, then makes it an origin
    (`made_here`): not before, so that its own elements do not retype it."""
    wider = cx.hints.get(("list", node))      # (widen_list_at_merge, widen_to_num, widen_to_union)
    if wider is not None and wider in (T.unify(elem, wider), T.merge(elem, wider), union_values.meet(elem, wider)):
        elem = wider
    return new_list(cx, elem, n, node, kind)


def resolve_pending(cx, t: T.Type, within: tuple = ()) -> T.Type:
    """`t` with the pending element types that have hints by now replaced (a hint for a
    list of lists may name the inner lists' pending type: ``[[]]``, `rows.append([])`).
    `within`: the pending lists whose hints are being resolved; a list whose elements are
    lists of its own kind (a tree of nested lists, ``stack.append(out); out = []``) has no
    type of finite depth, and is a CompileError at the list."""
    if isinstance(t, PendingElement):
        hint = cx.hints.get(("list", t.key))
        if hint is not None and t.key in within:
            cx.error("a list that holds lists of its own kind, nested to any depth (a tree of lists), "
                     "is not supported in compiled code: use a class for the nodes", t.key)
        return t if hint is None else resolve_pending(cx, tie_knot(hint, t), within + (t.key,))
    if isinstance(t, T.HashType):           # (a table of tables: `d.setdefault(k, {})[j] = v`)
        return dicts.resolve_pending_table(cx, t)
    if isinstance(t, T.ClassType):          # (an instance whose fields a caller decides)
        elem = resolve_pending(cx, t.contents, within)
        return t if elem is t.contents else T.ClassType(t.key, t.fields, elem)
    if isinstance(t, T.ListType):
        elem = resolve_pending(cx, t.elem, within)
        return t if elem is t.elem else T.ListType(elem)
    if isinstance(t, T.OptionalType):       # (a list of None and values: `[None] * n`)
        value = resolve_pending(cx, t.value, within)
        if isinstance(value, PendingElement):
            cx.pending_lists.add(value.key)       # (ints, if no value is ever stored)
        return t if value is t.value else T.OptionalType(value)
    if isinstance(t, T.TupleType):
        elems = [resolve_pending(cx, e, within) for e in t.elems]
        if all(a is b for a, b in zip(elems, t.elems)):
            return t
        return T.NamedTupleType(t.key, t.fields, elems) if isinstance(t, T.NamedTupleType) else T.TupleType(elems)
    return t


def settle_pending_lists(cx) -> None:
    """At the end of a round: lists nothing was stored into hold ints. A list given only
    values of a type not known yet this round (`pairs.append((seen[k], i))` before the
    store that types `seen`) waits for the next round, when the round is redone anyway."""
    pending = [n for n in cx.pending_lists if ("list", n) not in cx.hints and not waits_for_type(cx, n)
               and id(n) not in cx.escaping]      # (returned to a caller that decides: callee_hints.py)
    if pending:
        for n in pending:
            ints_by_default(cx, n)
        cx.hints_changed = True
        raise Restart()


def stored_type(cx, lst: Value, t: T.Type, node) -> T.Type:
    """The element type of `lst`, which a value of type `t` is about to be stored in."""
    elem = lst.type.elem
    if has_unknown(t):          # (a round to be rebuilt: get_item)
        if isinstance(elem, PendingElement):
            cx.unknown_stores.add(elem.key)
        return elem
    if isinstance(elem, PendingElement):
        cx.hints[("list", elem.key)] = element_type(cx, [t], node)
        cx.hints[("stored", elem.key)] = True         # (typed by its stores: widen_to_num)
        cx.hints_changed = True
        raise Restart()
    merge_pending(cx, elem, t)
    if isinstance(t, T.NoneType) and isinstance(elem, T.OptionalType):
        return elem
    widen_to_num(cx, lst, elem, t)
    if _with_num(elem, t) is not None and T.unify(elem, t) == elem:
        # (not made here: converting the int would give CPython's `[0.5, 1]` as `[0.5, 1.0]`)
        what = "an int" if t == T.I64 else f"a value of type {t}"
        cx.error(f"cannot store {what} in this {lst.type}, which is not made by a display, list(), "
                 "sorted() or a slice in this function: CPython keeps an int as it is, and a compiled "
                 "list of floats would make it a float (make the list hold ints and floats where it "
                 "is made, e.g. start it from a display)", node, reason=MIXED_NUMBERS)
    widen_to_optional(cx, lst, elem, t)
    widen_to_union(cx, lst, elem, t)
    if isinstance(elem, T.UnionType) and union_values.meet(elem, t) == elem \
            or type(elem) is T.VarTupleType and union_values.tuples_meet(elem, t) == elem:
        return elem
    if T.unify(elem, t) != elem or T.bool_and_number(elem, t):
        class_unions.widen_instance_list(cx, lst, elem, t)      # `shapes = []` of two classes
        cell = next((n.id for n in ast.walk(node) if isinstance(n, ast.Name) and n.id.startswith(CELL)),
                    None) if isinstance(node, ast.AST) else None
        if cell is not None:            # a rebound global's cell (global_writes.py)
            cx.error(f"global '{cell[len(CELL):]}' holds a {elem} (its value at the call), and this "
                     f"assigns it a {t}: compiled code keeps a global's type (make its value at "
                     "module level one of that type)", node)
        if mixed_classes(elem, t):
            cx.error(f"cannot store a value of type {t} in a {lst.type}" + mixed_classes(elem, t), node)
        if _holds_reference(elem) or _holds_reference(t):
            cx.error(f"cannot store a value of type {t} in a {lst.type}: the inner lists of a compiled "
                     f"list all have one type, and a list is not converted (it is a reference): "
                     f"make this one a {elem} too (e.g. with float elements)", node)
        numbers = t in (T.F64, T.INT_FLOAT) and elem in (T.I64, T.F64, T.INT_FLOAT) \
            or union_values.meet(elem, t) is not None      # (a list argument: the dispatcher widens it)
        cx.error(f"cannot store a value of type {t} in a {lst.type}: a compiled list holds one type, "
                 f"set by its first elements (write {_example(t)} to start with)", node,
                 reason=MIXED_NUMBERS if numbers else None)
    return elem


def widen_to_num(cx, lst: Value, elem: T.Type, t: T.Type) -> None:
    """An int stored in a list of floats made here, or a float in one of ints: the next
    round makes it a list of ``num`` (mixed_numbers.py), which keeps each element's type
    as CPython's list does (converting the int gave ``[0.5, 1.0]`` for ``[0.5, 1]``).
    Made here: a display or comprehension (`list_origins`), or an empty ``[]`` typed by
    its stores (every such list typed `elem`, as `widen_instance_list` does). Else
    nothing: an int stored in a float list from elsewhere, and a float in an int list, are
    the caller's errors. Lists of such lists widen alike (`answer` of
    `path.copy()` rows once `path` holds ints and floats)."""
    wide = _with_num(elem, t)
    if wide is None:
        return
    retype_lists(cx, made_here(cx, lst, wide) or typed_by_stores(cx, elem, wide))


def widen_arguments(cx, args: list) -> None:
    """A callee stored a float into a list of ints it was given, or an int into one of
    floats (a CompileError for MIXED_NUMBERS): the lists of numbers among `args` made here
    are made lists of ``num`` (of lists of them) by the next round, so that each element
    keeps its type, as the dispatcher widens a list argument from Python. Nothing where
    none is made here (the error stands: the caller's caller may widen it)."""
    keys = {}
    for v in args:
        elem = v.type.elem if type(v.type) is T.ListType else None
        wide = T.num_leaves(elem)
        if wide is not None and wide != elem:
            keys.update(made_here(cx, v, wide) or typed_by_stores(cx, elem, wide))
    todo = list(keys.items())
    while todo:                 # (`[[0] * n for _ in ...]`: its rows' displays too)
        (_, origin), wide = todo.pop()
        if isinstance(wide, T.ListType):
            inner = {("list", n): wide.elem for n in cx.inner_origins.get(origin, ())}
            todo += [kv for kv in inner.items() if kv[0] not in keys]
            keys.update(inner)
    retype_lists(cx, {k: t for k, t in keys.items() if cx.hints.get(k) != t})


def widen_to_optional(cx, lst: Value, elem: T.Type, t: T.Type) -> None:
    """None stored in a list of values made here (``out.append(None)`` after
    ``out.append(s)``, where `[]` took the str's type): the next round makes it a list of
    optionals, as when the None came first (`none_elements`). A list from elsewhere keeps
    its type (the error stands)."""
    if not isinstance(t, T.NoneType) or isinstance(elem, (T.OptionalType, T.NoneType, PendingElement)) \
            or not T.is_list_element(T.OptionalType(elem)):
        return
    wide = T.OptionalType(elem)
    retype_lists(cx, made_here(cx, lst, wide) or typed_by_stores(cx, elem, wide))


def widen_to_union(cx, lst: Value, elem: T.Type, t: T.Type) -> None:
    """A value of another type stored in a list made here (`out.append("a")` after
    `out.append(1)`): the next round makes it a list of their union (union_values.py), as
    CPython's list holds both. A list from elsewhere keeps its type (the error stands)."""
    wide = union_values.tuples_meet(elem, t) or union_values.meet(elem, t) if T.merge(elem, t) is None else None
    if wide is None or wide == elem:
        return
    retype_lists(cx, made_here(cx, lst, wide) or typed_by_stores(cx, elem, wide))


def made_here(cx, lst: Value, wide: T.Type) -> dict:
    """{hint key: `wide`} of the display or comprehension made here that `lst` is: its
    own, a local's that holds it (read in a loop: a phi), or the inner displays of a list
    made here that it was read from (``q = [[0] * n for _ in ...]``, then ``q[j]``: the
    comprehension, typed by its first row, gets rows of `wide` too); {} when none."""
    origin = cx.list_origins.get(id(lst))
    if origin is None and cx.block is not None:
        here = cx.defs[cx.block]
        origin = next((n for name, n in cx.name_origins.items() if here.get(name) is lst), None)
    if origin is not None:
        keys = {("list", origin): wide}
        if isinstance(lst, BlockParam):     # (a loop's `run = [xs[0]]`, then `run = [xs[i]]`: both)
            keys.update((("list", cx.list_origins[id(v)]), wide) for v in cx.arrived(lst) if id(v) in cx.list_origins)
        return keys
    if getattr(lst, "opname", None) != "list_get":
        return {}
    keys = {}
    for outer in made_here(cx, lst.operands[0], T.ListType(wide)):
        inner = cx.inner_origins.get(outer[1], ())
        keys.update({("list", n): wide for n in inner})
        if inner and cx.hints.get(outer) == lst.type:
            keys[outer] = T.ListType(wide)
    return keys


def typed_by_stores(cx, elem: T.Type, wide: T.Type = T.INT_FLOAT) -> dict:
    """{hint key: `wide`} of every empty ``[]`` of this function whose elements of type
    `elem` a store or a hint set (``("stored", node)``), else of such lists a caller being
    built made (`max_rev` passed down)."""
    keys = _typed_by_stores(cx, elem) or borrow_from_callers(cx, lambda caller: _typed_by_stores(caller, elem))
    return dict.fromkeys(keys, wide)


def retype_lists(cx, hints: dict) -> None:
    """Give the lists of these hint keys their new element types, then Restart (the next
    round builds them so); nothing when there are none."""
    if not hints:
        return
    cx.hints.update(hints)
    cx.hints_changed = True
    raise Restart()


def widen_inner_displays(cx, values: list) -> None:
    """Lists made here among a display's elements whose elements differ as ints, floats
    and ``num`` (``[[1, 2.5], [3, 4]]``): the next round makes each inner display a list
    of their `merge` (``num``), as CPython's inner lists keep each element's type."""
    if len(values) < 2 or not all(isinstance(v.type, T.ListType) for v in values):
        return
    elems = {v.type.elem for v in values}
    if len(elems) < 2 or not all(isinstance(e, T.IntFloatType) or e in (T.I64, T.F64) for e in elems):
        return
    origins = (cx.list_origins.get(id(v)) for v in values if v.type.elem != T.INT_FLOAT)
    retype_lists(cx, {("list", n): T.INT_FLOAT for n in origins if n is not None})


def merge_pending_list(cx, a: T.Type, b: T.Type) -> None:
    """Where a list of unknown element type (`[]`) meets a list of known one at a merge
    (`x if c else []`, a variable assigned both), the unknown one takes the known type."""
    if isinstance(a, T.HashType) and isinstance(b, T.HashType):
        dicts.merge_pending_table(cx, a, b)
    if isinstance(a, T.ListType) and isinstance(b, T.ListType):
        merge_pending(cx, T.contents(a), T.contents(b))


def merge_pending(cx, a: T.Type, b: T.Type) -> None:
    """Where types `a` and `b` meet (a merge, a value stored in a list, two elements of a
    literal), a pending element type in one facing a known type in the other, at the
    same place inside lists and tuples, takes that type (a hint, then Restart)."""
    for pending, known in ((a, b), (b, a)):
        if isinstance(pending, PendingElement) and not isinstance(known, PendingElement):
            cx.hints[("list", pending.key)] = known
            cx.hints_changed = True
            raise Restart()
    for o, v in ((a, b), (b, a)):
        if isinstance(o, T.OptionalType) and not isinstance(v, (T.OptionalType, T.NoneType)):
            merge_pending(cx, o.value, v)      # (a value stored into `[None] * n`)
    if isinstance(a, T.OptionalType) and isinstance(b, T.OptionalType):
        merge_pending(cx, a.value, b.value)    # (`{start: None}` declared dict[int, int | None])
    if isinstance(a, PendingElement) and isinstance(b, PendingElement) and a != b:
        # two empty lists in one variable (`cur = []` again in a loop): the second is the
        # first from the next round on, so the first store types both
        ra, rb = resolve_pending(cx, a), resolve_pending(cx, b)
        if ra != rb and isinstance(rb, PendingElement):
            cx.hints[("list", rb.key)] = ra
            cx.hints_changed = True
            raise Restart()
    if isinstance(a, T.ListType) and isinstance(b, T.ListType):
        merge_pending(cx, T.contents(a), T.contents(b))
    elif isinstance(a, T.HashType) and isinstance(b, T.HashType):
        dicts.merge_pending_table(cx, a, b)
        if isinstance(a, T.DictType) and isinstance(b, T.DictType):
            merge_pending(cx, a.value, b.value)
    elif isinstance(a, T.TupleType) and isinstance(b, T.TupleType) and len(a.elems) == len(b.elems):
        for x, y in zip(a.elems, b.elems):
            merge_pending(cx, x, y)


def waits_for_type(cx, key) -> bool:
    """Whether the pending list made at `key` was given a value of a type not known yet
    this round, in a round that is redone with new hints anyway (settle_pending_lists)."""
    return key in cx.unknown_stores and cx.hints_changed and getattr(cx, "saw_unknown", None) is not None


def settle_list_types(cx, t: T.Type) -> None:
    """Lists of unknown element type that leave the function in a value of type `t`
    (returned, passed to a call) hold ints."""
    if isinstance(t, T.TupleType):
        for e in t.elems:
            settle_list_types(cx, e)
    elif isinstance(t, T.ListType) and isinstance(t.elem, PendingElement):
        if not waits_for_type(cx, t.elem.key):
            ints_by_default(cx, t.elem.key)
        cx.hints_changed = True
        raise Restart()
    elif isinstance(t, T.ListType):
        settle_list_types(cx, T.contents(t))


def read_type_of(cx, t: T.ListType) -> T.Type:
    """`read_type` for a list of type `t`."""
    if isinstance(t.elem, PendingElement):
        ints_by_default(cx, t.elem.key)
        cx.hints_changed = True
        raise Restart()
    return t.elem


def ints_by_default(cx, key) -> None:
    """The empty list made at `key` holds ints, for want of a store that says otherwise (one
    of a float later widens it: `widen_to_num`)."""
    cx.hints[("list", key)] = T.I64
    cx.hints[("stored", key)] = True


def read_type(cx, lst: Value) -> T.Type:
    """The element type of `lst` for a read: a list nothing was stored into holds ints."""
    return read_type_of(cx, lst.type)


def element_type(cx, types, node) -> T.Type:
    """The one type elements of these types meet at (a CompileError when none). An element
    not typed in this round (a read of a dict's values that a later store types) leaves
    the others to decide; the round is redone (ints when none is typed)."""
    known = [t for t in types if not has_unknown(t)]
    if len(known) < len(types):
        cx.saw_unknown = cx.saw_unknown or cx.loc(node)
        types = known or [T.I64]
    t = types[0]
    for u in types[1:]:
        merge_pending(cx, t, u)
        w = T.merge(t, u) or union_values.tuples_meet(t, u) or union_values.meet(t, u)
        if w is None:
            class_types.widen_number_fields(cx, t, u)          # ints and floats in fields
            cx.error(f"list elements of types {t} and {u}: a compiled list holds one type"
                     + mixed_classes(t, u), node)
        t = w
    if isinstance(t, T.NoneType):
        t = none_elements(cx, node)
    if not T.is_list_element(t) and not isinstance(t, T.OptionalType):
        cx.error(f"lists of {t} are not supported in compiled code (elements must be bools, "
                 "ints, floats, strs, lists, arrays, dicts, sets, None among values, or tuples "
                 "of them)", node)
    return t


def none_elements(cx, node) -> T.OptionalType:
    """The element type of a list whose elements are None so far (`[None] * n`, a memo
    table; `xs.append(None)` into `[]`): optionals of the type of the first other value
    stored (`opt[?]`, a pending type keyed by a node made once for `node`); ints when
    none is."""
    key = cx.hints.get(("none_elements", id(node)))
    if key is None:
        key = cx.hints[("none_elements", id(node))] = ast.copy_location(ast.Constant(None), node)
    t = resolve_pending(cx, T.OptionalType(PendingElement(key)))
    if isinstance(t.value, PendingElement):
        cx.pending_lists.add(key)
    return t

# ---- the primitive operations -----------------------------------------------------


def new_list(cx, elem: T.Type, n: Value, node, kind=T.ListType) -> Value:
    """A new list of `n` elements not set yet (`kind` T.VarTupleType: a tuple of them)."""
    lst = cx.emit("list_new", [], kind(elem), None, cx.loc(node))
    resize_list(cx, lst, n, node)
    return lst


def resize_list(cx, lst: Value, n: Value, node) -> None:
    """Give `lst` `n` elements (the new ones undefined); MemoryError without memory."""
    loc = cx.loc(node)
    ok = cx.emit("list_resize", [lst, n], T.BOOL, None, loc)
    cx.emit("check", [cx.emit("not", [ok], T.BOOL, None, loc)], T.NONE, ExcInfo("MemoryError", None), loc)


def list_len(cx, lst: Value, node) -> Value:
    return cx.emit("list_len", [lst], T.I64, None, cx.loc(node))


def get_item(cx, lst: Value, i: Value, node) -> Value:
    """Element `i` (0 <= i < len) of `lst`. Of a list whose element type is not known yet
    (read before anything is stored: `rows[i - 1][j]` above `rows.append(row)`), an
    Undef of unknown type: this round is rebuilt, with the type of the first value stored
    into the list or, when there is none, ints (`settle_pending_lists`)."""
    elem = lst.type.elem
    if is_pending_optional(elem):
        elem = elem.value               # (`[None] * n` before the first value stored)
    if isinstance(elem, PendingElement):
        cx.pending_lists.add(elem.key)
        return Undef(UNKNOWN, cx.loc(node))
    item = cx.emit("list_get", [lst, i], elem, None, cx.loc(node))
    holder = cx.global_rows.get(id(lst)) or isinstance(elem, T.ListType) and cx.global_lists.get(id(lst))
    if holder:                      # a row of a global list: read-only too
        cx.global_lists[id(item)] = cx.global_rows[id(item)] = holder
    return item


def set_item(cx, lst: Value, v: Value, i: Value, node) -> None:
    if has_unknown(v.type):
        return          # (a round to be rebuilt: get_item)
    v = fit_optional(cx, lst.type.elem, v, node)
    elem = stored_type(cx, lst, v.type, node)
    if is_pending_optional(elem):
        return          # (None into `[None] * n`: the round is redone once its type is known)
    v = Const(v.value, v.type) if isinstance(v, WeakConst) else v
    if isinstance(elem, T.ListType) and id(v) in cx.global_rows:
        cx.global_rows[id(lst)] = cx.global_rows[id(v)]      # (list(G), [r for r in G])
    store = cx.emit("list_set", [lst, cx.coerce(v, elem, node), i], T.NONE, None, cx.loc(node))
    if isinstance(store, Instr) and changes_python_type(v.type, elem):
        record_converted_store(cx.func, store)        # (an argument list's: list_args.py)


# Index types whose every value makes CPython's list raise TypeError (an array's element, a
# NumPy scalar, is named numpy.float64 there: still refused when compiling).


def checked_item(cx, lst: Value, i: Value, node) -> Value:
    """`lst[i]` for a loop index `i` >= 0 (IndexError when the list has shrunk since)."""
    bad = cx.cmp("ge", i, list_len(cx, lst, node), node)
    cx.raise_if(bad, "IndexError", INDEX_ERROR, node)
    return get_item(cx, lst, i, node)


def list_index(cx, lst: Value | None, index: Value, index_node, node, text: str, length=None) -> Value:
    """`index` as an element number of `lst` (of `length` items, when given), counting from
    the end when negative; IndexError(`text`) when out of range."""
    if isinstance(index.type, Unknown):      # (read from a list of a type not known yet:
        return Undef(T.I64, cx.loc(node))     # get_item; the round is rebuilt)
    if not isinstance(index.type, (T.IntType, T.BoolType)):
        if isinstance(index.type, NOT_INDICES) and not is_numpy_int(index, cx.python_ints):
            # CPython's TypeError when (if) the line runs (`sieve(22.2)` refused by a test first)
            cx.raise_always("TypeError", f"list indices must be integers or slices, not "
                            f"{python_name(index.type)}", index_node)
            return Const(0, T.I64)
        cx.error(f"list indices must be integers, not {index.type}", index_node)
    loc = cx.loc(node)
    i = cx.coerce(index, T.I64, index_node)
    n = list_len(cx, lst, node) if length is None else length
    neg = cx.cmp("lt", i, Const(0, T.I64), node)
    i = arrays.pick(cx, neg, cx.emit("add", [i, n], T.I64, None, loc), i, node)
    bad = cx.emit("or", [cx.cmp("lt", i, Const(0, T.I64), node), cx.cmp("ge", i, n, node)],
                  T.BOOL, None, loc)
    cx.raise_if(bad, "IndexError", text, node)
    return i


def fit_optional(cx, elem: T.Type, v: Value, node) -> Value:
    """`v`, about to be stored among elements of type `elem`: an optional stays one where
    the elements are optionals or not known yet (`xs.append(None if c else i)`), and is
    unwrapped (CPython's TypeError happens later, where it is used, here at the store)
    where they are values of its type. Beside elements of other types (a union, an
    int|float) it stays one: the store widens them to a union that holds None
    (union_values.meet)."""
    from script.frontend.optional import is_optional
    if is_optional(v) and not isinstance(elem, (T.OptionalType, PendingElement)) and not has_unknown(elem) \
            and (T.merge(elem, v.type.value) == elem or union_values.meet(elem, v.type) is None):
        return optional.unwrap(cx, v, node)
    return v


def append_item(cx, lst: Value, v: Value, node) -> None:
    v = fit_optional(cx, lst.type.elem, v, node)
    stored_type(cx, lst, v.type, node)
    n = list_len(cx, lst, node)
    resize_list(cx, lst, cx.emit("add", [n, Const(1, T.I64)], T.I64, None, cx.loc(node)), node)
    set_item(cx, lst, v, n, node)


def for_range(cx, node, n: Value, body) -> None:
    """`body(i)` for 0 <= i < n, in a loop keyed by `node` (stable across rounds)."""
    cx.counted_loop(cx.info.synthetic_loop(node), Const(0, T.I64), n, Const(1, T.I64), body)


def fill_from(cx, lst: Value, at: Value, iterable, node) -> None:
    """Store the `n` elements of `iterable` = (n, item, type) at `lst[at:at + n]`."""
    n, item, _ = iterable
    loc = cx.loc(node)
    for_range(cx, node, n, lambda i: set_item(cx, 
        lst, item(i), cx.emit("add", [at, i], T.I64, None, loc), node))

# ---- expressions ------------------------------------------------------------------


def expr_List(cx, node: ast.List) -> Value:
    if has_star(node.elts):
        return star_displays.starred_list(cx, node)
    values = [optional.expr_opt(cx, e, num=True, union=True) for e in node.elts]   # (a value that may be None, an int|float or a union stays whole)
    if not values:
        return list_of_unknown(cx, node)
    widen_inner_displays(cx, values)
    lst = made_list(cx, element_type(cx, [v.type for v in values], node), Const(len(values), T.I64), node)
    for k, v in enumerate(values):
        if lst.type.elem == T.F64 and v.type == T.I64:
            v = cx.coerce(v, T.F64, node)   # (ints made floats by the display's hint: widen_list_at_merge)
        set_item(cx, lst, v, Const(k, T.I64), node)
        if id(v) in cx.list_origins:
            cx.inner_origins.setdefault(node, set()).add(cx.list_origins[id(v)])
    cx.list_origins[id(lst)] = node
    return lst


def expr_ListComp(cx, node: ast.ListComp) -> Value:
    lst = list_of_unknown(cx, node)

    def put():
        v = optional.expr_opt(cx, node.elt, num=True, union=True)
        if id(v) in cx.list_origins:          # (a list of displays: made_here)
            cx.inner_origins.setdefault(node, set()).add(cx.list_origins[id(v)])
        append_item(cx, lst, v, node)
    comprehension(cx, node, put)
    cx.list_origins[id(lst)] = node
    return lst


def widen_list_at_merge(cx, a: Value, b: Value) -> None:
    """Where a list of ints made here by a display or a comprehension (`u = [1] * n`) meets
    a list of floats (`u = step(v)`), the display makes floats (a hint, then Restart), as
    a variable's int meets a float; one of int|float values (sums starting from 0), the
    display makes such values (its ints stay ints); else nothing (the caller's error)."""
    if not (isinstance(a.type, T.ListType) and isinstance(b.type, T.ListType)):
        return
    for narrow, wide in ((a, b), (b, a)):
        node = cx.list_origins.get(id(narrow))
        t = narrow.type.elem
        w = wide.type.elem
        if node is None or not _display_widens(t, w):
            continue
        other = cx.list_origins.get(id(wide))
        if w == T.F64 and isinstance(t, T.IntType) and other is not None:
            # both made here (`u = [1, 2]`, `u = [0.5, 1.5]` on another path): both hold int|float
            # values, so each keeps CPython's elements
            retype_lists(cx, {k: T.INT_FLOAT for k in (("list", node), ("list", other))
                              if cx.hints.get(k) != T.INT_FLOAT})
            continue
        if cx.hints.get(("list", node)) != wide.type.elem:
            cx.hints[("list", node)] = wide.type.elem
            cx.hints_changed = True
            raise Restart()


def _display_widens(t: T.Type, w: T.Type) -> bool:
    """Whether a display of `t` elements meeting a list of `w` elements is built with `w`:
    ints or bools meeting floats, ints or floats meeting int|float values."""
    if isinstance(w, T.FloatType):
        return isinstance(t, (T.IntType, T.BoolType)) and T.unify(t, w) == w
    return w == T.INT_FLOAT and isinstance(t, (T.IntType, T.FloatType)) and T.merge(t, w) == w


def global_list(cx, obj: list, name: str, node) -> Value:
    """A module-level list read by compiled code: a new list of its elements as they are
    when the function is compiled (as a global array is frozen, frozen.py), made where it
    is read. Compiled code may read it but not write it (`check_list_writable`): the write
    would change a copy, not the global."""
    if not obj:
        cx.error(f"global '{name}' is an empty list, which compiled code cannot type", node)
    data = numbers_array(cx, obj, name, node)
    if data is not None:
        n = Const(len(obj), T.I64)
        lst = new_list(cx, element_type(cx, [data.type.dtype], node), n, node)
        loc = cx.loc(node)
        for_range(cx, node, n, lambda i: set_item(cx,
            lst, cx.emit("load", [data, i], data.type.dtype, None, loc), i, node))
    else:
        values = [cx.python_object(x, name, node) for x in obj]
        if not all(isinstance(v, Value) for v in values):
            cx.error(f"global list '{name}' holds values compiled code cannot use "
                     "(bools, ints, floats and tuples of them)", node)
        lst = new_list(cx, element_type(cx, [v.type for v in values], node), Const(len(values), T.I64), node)
        for k, v in enumerate(values):
            set_item(cx, lst, v, Const(k, T.I64), node)
    cx.global_lists[id(lst)] = name
    return lst


def numbers_array(cx, obj: list, name: str, node) -> Value | None:
    """The frozen array (frozen.py) of global list `obj` when it holds more than
    `_GLOBAL_LIST_UNROLL` numbers of one kind, all bools, all ints or all floats; None for
    another list, whose items are made one by one (ints beside floats stay ints: `num`)."""
    kinds = set(map(type, obj))
    if len(obj) <= _GLOBAL_LIST_UNROLL or len(kinds) != 1 or not kinds <= {int, float, bool}:
        return None
    import numpy as np
    from script.frontend.frozen import frozen_array
    big = int in kinds and max(obj) > T.I64.max
    if big and (min(obj) < 0 or max(obj) >= 1 << 64):
        cx.error(f"global list '{name}' holds ints that do not fit one 64-bit type (int64, "
                 "or u64 for ints from 0 to 2**64 - 1)", node)
    try:
        arr = np.array(obj, np.uint64 if big else None)     # u64: int_consts.py
    except OverflowError:
        cx.error(f"global list '{name}' holds an int that does not fit in int64", node)
    return frozen_array(cx, arr, name, node)


def frozen_item(cx, node: ast.Subscript) -> Value | None:
    """`G[i]` of a global list global_tables.hoist froze: a checked load from its array;
    None for any other subscript."""
    if not cx.frozen_lists or not isinstance(node.value, ast.Name) or node.value.id in cx.locals:
        return None
    found, obj = cx.info.global_value(node.value.id)
    data = cx.frozen_lists.get(id(obj)) if found else None
    if data is None:
        return None
    i = list_index(cx, None, cx.expr(node.slice), node.slice, node, INDEX_ERROR, length=Const(len(obj), T.I64))
    return cx.emit("load", [data, i], data.type.dtype, None, cx.loc(node))


def check_list_writable(cx, lst: Value, node) -> None:
    """CompileError for a write to a global list (`global_list`) or to a held range or
    iterator (held_iterators.py)."""
    held_iterators.refuse(cx, lst, "'{kind}' object does not support item assignment or changes", node)
    name = cx.global_lists.get(id(lst))
    if name is None:
        return
    if id(lst) in cx.global_rows:         # a list read out of a global list, tuple or dict
        cx.error(f"a list inside global '{name}' is read-only in compiled code (the global is copied "
                 f"when the function is compiled, so the write would be lost); copy the list "
                 f"first: xs = list(...)", node)
    copy = f"[list(r) for r in {name}]" if isinstance(lst.type.elem, T.ListType) else f"list({name})"
    cx.error(f"global list '{name}' is read-only in compiled code (it is copied when the "
             f"function is compiled, so the write would be lost); copy it first: "
             f"xs = {copy}", node)


def list_delete(cx, lst: Value, index_node, node) -> None:
    """`del lst[i]`: as `lst.pop(i)`, with `del`'s IndexError message."""
    check_list_writable(cx, lst, node)
    deque = isinstance(node, ast.Subscript) and is_deque(cx, node.value)
    if isinstance(index_node, ast.Slice):
        if deque:
            return _deque_slice(cx, index_node, node)
        return list_slices.list_slice_delete(cx, lst, index_node, node)
    i = list_index(cx, lst, cx.expr(index_node), index_node, node, _DEQUE_INDEX_ERROR if deque else _STORE_ERROR)
    pop = cx.ctx.callee(cx, cx.ctx.info_for(listlib.pop_at), (lst.type, T.I64), node)
    cx.emit("call", [lst, i], pop.ret_type, pop, cx.loc(node))


def list_of(cx, arg_node, node) -> Value:
    """`list(x)`: a new list of the elements of a list, tuple, range, 1-d array,
    `enumerate`/`zip` or generator expression."""
    if generators.walks_generator(cx, arg_node):
        return generators.generator_list(cx, arg_node)
    n, item, et = cx.iterable(arg_node)
    refuse_endless(cx, n, arg_node)
    if has_unknown(et):     # (items of a list nothing is stored into, `sorted([])`, `zip([], ys)`: none)
        return list_of_unknown(cx, node)
    lst = made_list(cx, element_type(cx, [et], node), n, node)
    fill_from(cx, lst, Const(0, T.I64), (n, item, et), node)
    cx.list_origins[id(lst)] = node
    return lst


def refuse_endless(cx, n: Value, arg_node) -> None:
    """A CompileError where the iterable of `arg_node`, of length `n`, is endless (count(),
    repeat() without times, enumerate() of those: their length is the constant 2**63 - 1,
    itertools_calls.py) and would be made into a list: CPython's lazy `map(f, count())`,
    `filter(p, count())`, `islice(count(), k, None)` have no list to stand for them, and the
    list would be a MemoryError where CPython gives an answer."""
    if isinstance(n, Const) and n.value == T.I64.max:
        cx.error(f"{ast.unparse(arg_node)} is endless: compiled code takes an endless iterator only as "
                 "what a for loop, zip(), enumerate() or islice() with a stop walks", arg_node)


def list_subscript(cx, lst: Value, index_node, node) -> Value:
    held_iterators.no_items(cx, lst, node)
    view = isinstance(node, ast.Subscript) and cx.dict_views and view_kind(cx, node.value)
    if view:            # `d.keys()[0]`: a view has no items by index
        return raise_after_index(cx, index_node, "TypeError", f"'{view}' object is not subscriptable", node)
    deque = isinstance(node, ast.Subscript) and is_deque(cx, node.value)
    if isinstance(index_node, ast.Slice):
        if deque:
            return _deque_slice(cx, index_node, node)
        return list_slice(cx, lst, index_node, node)
    text = "tuple index out of range" if type(lst.type) is T.VarTupleType else \
        _DEQUE_INDEX_ERROR if deque else INDEX_ERROR
    i = list_index(cx, lst, cx.expr(index_node), index_node, node, text)
    return get_item(cx, lst, i, node)


def raise_after_index(cx, index_node, exc: str, text: str, node) -> Value:
    """`exc(text)` where CPython raises it for every value: after computing the index (or a
    slice's bounds) of `node`, a subscript (`t[i] = v` of a tuple, `d[a:b]` of a deque)."""
    parts = (index_node.lower, index_node.upper, index_node.step) if isinstance(index_node, ast.Slice) \
        else (index_node,)
    for part in parts:
        if part is not None:
            cx.expr(part)
    return cx.raise_always(exc, text, node)


def _deque_slice(cx, sl: ast.Slice, node) -> Value:
    return raise_after_index(cx, sl, "TypeError", _DEQUE_SLICE_ERROR, node)


def list_slice(cx, lst: Value, sl: ast.Slice, node) -> Value:
    """`lst[a:b:c]`: a new list (Python's slice.indices rules)."""
    start, count, step = arrays.slice_operands(cx, lst, 0, sl, node, length=list_len(cx, lst, node))
    loc = cx.loc(node)
    held_iterators.no_items(cx, lst, node)
    kind = _same_kind(lst.type)
    out = (made_list if kind is T.ListType else new_list)(cx, read_type(cx, lst), count, node, kind)
    for_range(cx, sl, count, lambda i: set_item(cx, out, get_item(cx, lst, cx.emit(
        "add", [start, cx.emit("mul", [i, step], T.I64, None, loc)], T.I64, None, loc), node), i, node))
    if kind is T.ListType:
        cx.list_origins[id(out)] = node
    return out


def list_store(cx, lst: Value, index_node, value: Value, node, target: ast.expr | None = None) -> None:
    """`lst[i] = value` (`target`: the expression `lst` was read from, where known)."""
    if isinstance(lst.type, T.VarTupleType):
        cx.error("'tuple' object does not support item assignment", node)
    check_list_writable(cx, lst, node)
    deque = target is not None and is_deque(cx, target)
    if isinstance(index_node, ast.Slice):
        if deque:
            return _deque_slice(cx, index_node, node)
        return list_slices.list_slice_store(cx, lst, index_node, value, node)
    i = list_index(cx, lst, cx.expr(index_node), index_node, node, _DEQUE_INDEX_ERROR if deque else _STORE_ERROR)
    set_item(cx, lst, value, i, node)


def list_aug_assign(cx, node: ast.AugAssign) -> None:
    """`lst[i] op= v`: the index is computed once, as in Python."""
    target = node.target
    lst = cx.expr(target.value)
    check_list_writable(cx, lst, node)
    if isinstance(target.slice, ast.Slice):
        cx.error("augmented assignment to list slices is not supported in compiled code", target)
    text = _DEQUE_INDEX_ERROR if is_deque(cx, target.value) else INDEX_ERROR
    i = list_index(cx, lst, cx.expr(target.slice), target.slice, node, text)
    value = cx.binop(type(node.op), get_item(cx, lst, i, node), cx.expr_num(node.value), node)
    set_item(cx, lst, value, i, node)      # (an int|float operand: a num, as `x op= v` makes)


def list_binop(cx, op: type, a: Value, b: Value, node) -> Value:
    """`a + b` (a new list) and `lst * n`, `n * lst` (n <= 0 gives an empty list)."""
    for v in (a, b):
        held_iterators.refuse(cx, v, f"unsupported operand type(s) for {'+' if op is ast.Add else '*'}: "
                                       f"'{{kind}}' and another value", node)
    if op is ast.Add:
        a, b = listlike(cx, a, b, node), listlike(cx, b, a, node)
    if op is ast.Add and isinstance(a.type, T.ListType) and isinstance(b.type, T.ListType):
        deques = _deque_sides(cx, node)
        if deques is not None and deques[0] != deques[1]:      # `q + [x]`, `[x] + q`: CPython's TypeError
            this, other = ("deque", "list") if deques[0] else ("list", "collections.deque")
            return cx.raise_always("TypeError", f"can only concatenate {this} (not \"{other}\") to {this}", node)
        merge_pending_list(cx, a.type, b.type)     # (`[] + [x]`: the `[]` takes x's type)
        if isinstance(a.type, T.VarTupleType) != isinstance(b.type, T.VarTupleType):
            cx.error(f"can only concatenate {python_name(a.type)} (not \"{python_name(b.type)}\") to "
                     f"{python_name(a.type)}", node)
        elem = element_type(cx, [read_type(cx, a), read_type(cx, b)], node)
        na, nb = list_len(cx, a, node), list_len(cx, b, node)
        total = cx.emit("add", [na, nb], T.I64, None, cx.loc(node))
        out = (made_list if type(a.type) is T.ListType else new_list)(cx, elem, total, node, type(a.type))
        elem = out.type.elem
        fill_from(cx, out, Const(0, T.I64), (na, lambda i: get_item(cx, a, i, node), elem), a)
        fill_from(cx, out, na, (nb, lambda i: get_item(cx, b, i, node), elem), b)
        if type(a.type) is T.ListType:
            cx.list_origins[id(out)] = node
        return out
    if op is ast.Mult:
        lst, n = (a, b) if isinstance(a.type, T.ListType) else (b, a)
        if isinstance(n.type, (T.IntType, T.BoolType)):
            return repeat_list(cx, lst, cx.coerce(n, T.I64, node), node)
    cx.error(f"unsupported operand types for this operator: {a.type} and {b.type}", node)


def repeat_list(cx, lst: Value, n: Value, node) -> Value:
    loc = cx.loc(node)
    n = cx.emit("max", [n, Const(0, T.I64)], T.I64, None, loc)
    m = list_len(cx, lst, node)
    # More than an i64 can count is MemoryError, as CPython's list repetition says.
    big = cx.emit("and", [cx.cmp("gt", n, Const(0, T.I64), node), cx.cmp(
        "gt", m, cx.emit("floordiv", [Const(_LIMIT, T.I64), cx.emit("max", [n, Const(1, T.I64)], T.I64,
                                                                    None, loc)], T.I64, None, loc), node)],
                   T.BOOL, None, loc)
    cx.emit("check", [big], T.NONE, ExcInfo("MemoryError", None), loc)
    out = new_list(cx, read_type(cx, lst), cx.emit("mul", [m, n], T.I64, None, loc), node, type(lst.type))
    if id(lst) in cx.list_origins:        # ([1] * n: the display's, widen_list_at_merge)
        cx.list_origins[id(out)] = cx.list_origins[id(lst)]

    def copy(r):
        base = cx.emit("mul", [r, m], T.I64, None, loc)
        fill_from(cx, out, base, (m, lambda i: get_item(cx, lst, i, node), None), lst)

    for_range(cx, node, n, copy)
    return out


def repeat_in_place(cx, lst: Value, n: Value, node: ast.AugAssign) -> None:
    """`lst *= n`: the list itself repeated `n` times (emptied for n <= 0), as
    list.__imul__ does, so every name of it (a caller's argument too) sees it."""
    if not isinstance(n.type, (T.IntType, T.BoolType)):
        cx.error(f"unsupported operand types for this operator: {lst.type} and {n.type}", node)
    check_list_writable(cx, lst, node)
    copy = repeat_list(cx, lst, cx.coerce(n, T.I64, node), node)
    total = list_len(cx, copy, node)
    resize_list(cx, lst, total, node)
    for_range(cx, node.target, total, lambda i: set_item(cx, lst, get_item(cx, copy, i, node), i, node))


def extend_list(cx, lst: Value, arg_node, node) -> None:
    """`lst.extend(x)`, `lst += x`: the length of `x` is taken before `lst` grows, so
    ``a.extend(a)`` doubles `a` as in CPython."""
    check_list_writable(cx, lst, node)
    if generators.walks_generator(cx, arg_node):
        generators.each_item(cx, arg_node, lambda x: append_item(cx, lst, x, node))
        return
    extend_with(cx, lst, cx.iterable(arg_node), node)


def extend_with(cx, lst: Value, iterable, node) -> None:
    n, item, et = iterable
    stored_type(cx, lst, et, node)
    start = list_len(cx, lst, node)
    resize_list(cx, lst, cx.emit("add", [start, n], T.I64, None, cx.loc(node)), node)
    fill_from(cx, lst, start, iterable, node)


def probe_type(cx, lst: Value, x: Value) -> None:
    """`x in lst`, `lst.index(x)`, `.count(x)`, `.remove(x)` on a list nothing was stored
    into yet: its elements take the type of `x` (as a dict's keys do from a lookup)."""
    if isinstance(lst.type.elem, PendingElement) and not has_unknown(x.type) and T.is_list_element(x.type):
        merge_pending(cx, lst.type.elem, x.type)


def list_contains(cx, x: Value, lst: Value, node) -> Value:
    """`x in lst`: == against each element in order, stopping at the first equal one."""
    probe_type(cx, lst, x)
    check_comparable(cx, lst, "'in'", node)
    return any_of(cx, cx.iterable_value(lst, node), node,
                  lambda e: cx.compare(ast.Eq(), x, e, node))

# ---- methods ----------------------------------------------------------------------


def list_method(cx, lst: Value, name: str, node: ast.Call) -> Value:
    if name == "sort":
        check_list_writable(cx, lst, node)
        if node.args:
            cx.error("sort() takes no positional arguments", node)
        keyed.sort_list(cx, lst, node.keywords, "sort", node)
        return Const(None, T.NONE, cx.loc(node))
    if node.keywords:
        cx.error(f"list.{name}() takes no keyword arguments", node)
    args = node.args
    loc = cx.loc(node)
    if name in _WRITING_METHODS and isinstance(lst.type, T.VarTupleType):
        cx.error(f"'tuple' object has no attribute '{name}'", node.func)
    if isinstance(lst.type, T.IterType) and (name not in ("index", "count") or held_iterators.is_iterator(lst.type)):
        held_iterators.refuse(cx, lst, f"'{{kind}}' object has no attribute '{name}'", node.func)
    if name in _WRITING_METHODS:
        check_list_writable(cx, lst, node)
    if name == "append":
        if len(args) != 1:
            cx.positional(node, "append", 1)
        append_item(cx, lst, _item_value(cx, lst, args[0]), node)
        return Const(None, T.NONE, loc)
    if name == "extend":
        if len(args) != 1:
            cx.error(f"list.extend() takes exactly one argument ({len(args)} given)", node)
        extend_list(cx, lst, args[0], node)
        return Const(None, T.NONE, loc)
    if name == "clear":
        cx.positional(node, "clear", 0)
        resize_list(cx, lst, Const(0, T.I64), node)
        return Const(None, T.NONE, loc)
    if name == "copy":
        cx.positional(node, "copy", 0)
        return list_slice(cx, lst, ast.Slice(lineno=node.lineno, col_offset=node.col_offset), node)
    if name in ("appendleft", "popleft"):        # a deque is a list (docs/lists.md)
        cx.positional(node, name, 1 if name == "appendleft" else 0)
        if name == "popleft":                   # CPython's deque message, not a list's
            empty = cx.cmp("eq", list_len(cx, lst, node), Const(0, T.I64), node)
            cx.raise_if(empty, "IndexError", "pop from an empty deque", node)
        zero = ast.Constant(0, lineno=node.lineno, col_offset=node.col_offset)
        name, args = ("insert", [zero, args[0]]) if name == "appendleft" else ("pop", [zero])
    if name == "extendleft":
        if len(args) != 1:
            cx.error(f"extendleft() takes exactly one argument ({len(args)} given)", node)
        items = list_of(cx, args[0], node)
        if isinstance(items.type.elem, PendingElement):
            return Const(None, T.NONE, loc)
        stored_type(cx, lst, items.type.elem, node)
        call = ast.Call(node.func, [], [], lineno=node.lineno, col_offset=node.col_offset)
        return cx.call_script(cx.ctx.info_for(listlib.extendleft), call, first=items, leading=(lst,))
    if name in _LIBRARY_METHODS and cx.info.py_func.__module__ in (
            listlib.__name__, "script.lib.python.dictlib", "script.lib.python.setlib",
            "script.lib.python.slicelib"):
        return library_method(cx, lst, name, node)
    helper = _METHODS.get(name)
    if helper is None:
        cx.error(f"list has no method '{name}' in compiled code", node.func)
    if name in ("index", "count", "remove"):
        if args:
            probe_type(cx, lst, pre_evaluate(cx, args[0], optional_too=True))
        check_comparable(cx, lst, f"list.{name}()", node)
    if name == "index" and listlib.NAMES_VALUE and args and _is_named(cx.pre_evaluated[id(args[0])].type):
        helper = listlib.index_named        # CPython < 3.13: "5 is not in list"
    if name in ("index", "remove") and isinstance(node.func, ast.Attribute) and is_deque(cx, node.func.value):
        helper = listlib.index_deque if name == "index" else listlib.remove_deque
    if name == "sort" and isinstance(read_type(cx, lst), T.ComplexType):
        cx.error("'<' not supported between instances of 'complex' and 'complex'", node)
    if name == "sort" and not read_type(cx, lst).is_numeric():
        cx.error(f"sort() of a {lst.type} is not supported in compiled code (numbers only)", node)
    if name == "pop" and isinstance(lst.type.elem, PendingElement) and id(lst.type.elem.key) not in cx.foreign:
        for a in args:          # popped before anything is pushed (in the source's order): the
            cx.expr(a)        # round is rebuilt once a store, or ints, decide (get_item)
        cx.pending_lists.add(lst.type.elem.key)
        return Undef(UNKNOWN, loc)
    if name == "pop" and not args:
        args = [ast.Constant(-1, lineno=node.lineno, col_offset=node.col_offset)]
    if name == "insert" and len(args) == 2:
        # The element type of an empty list is settled here, by the value (in order).
        i = pre_evaluate(cx, args[0])
        v = _item_value(cx, lst, args[1])
        stored_type(cx, lst, v.type, node)      # (the values passed as they are: a num kept whole)
        return cx.call_script(cx.ctx.info_for(helper), ast.Call(node.func, [], []), leading=(lst, i, v))
    call = ast.Call(node.func, args, [], lineno=node.lineno, col_offset=node.col_offset)
    return cx.call_script(cx.ctx.info_for(helper), call, first=lst)


def _item_value(cx, lst: Value, node) -> Value:
    """The value `xs.append(v)` or `xs.insert(i, v)` stores: a ``num`` or a union kept whole
    where the list holds them; where it does not, a list made here widens to hold them
    (Restart), else the statement splits on the value (NumRead)."""
    v = optional.expr_opt(cx, node, num=True, union=True)
    if mixed_numbers.is_num(v) and not isinstance(lst.type.elem, (T.IntFloatType, T.UnionType, PendingElement)):
        widen_to_num(cx, lst, lst.type.elem, v.type)       # (a list made here: Restart)
        raise mixed_numbers.NumRead(node, cx.loc(node))   # else the statement splits on it
    if union_values.is_union(v) and not isinstance(lst.type.elem, PendingElement) and \
            union_values.meet(lst.type.elem, v.type) != lst.type.elem:
        widen_to_union(cx, lst, lst.type.elem, v.type)     # (a list made here: Restart)
        raise mixed_numbers.NumRead(node, cx.loc(node), v.type)   # else the statement splits on it
    return v


def check_comparable(cx, lst: Value, what: str, node) -> None:
    """CompileError for `what` (which compares elements with ==) on a list holding arrays
    (at any depth): == between arrays is element-wise, not a truth value."""
    if _holds_array(read_type(cx, lst)):
        cx.error(f"{what} of a {lst.type} compares its elements with ==, which compiled code does "
                 "not support between arrays", node)


def compare_lists(cx, pred: str, a: Value, b: Value, node) -> Value:
    """`a == b`, `a < b`, ... with a list on either side: CPython's lexicographic order
    (listlib `equal`, `less`); a list is never equal to a value of another type. A tuple
    of run-time length (`VarTupleType`) compares with tuples, as a tuple, not with lists."""
    a, b = listlike(cx, a, b, node), listlike(cx, b, a, node)
    for v in (a, b):
        if held_iterators.is_iterator(v.type) or isinstance(v.type, T.IterType) and pred not in ("eq", "ne"):
            held_iterators.refuse(cx, v, f"'{_CMP_SYMBOLS[pred]}' with a '{{kind}}' object (CPython "
                                           f"compares iterators by identity, ranges only by ==)", node)
    if isinstance(a.type, T.IterType) != isinstance(b.type, T.IterType):
        return Const(pred == "ne", T.BOOL)          # (range(3) == [0, 1, 2] is False)
    if isinstance(a.type, T.VarTupleType) != isinstance(b.type, T.VarTupleType) or \
            not (isinstance(a.type, T.ListType) and isinstance(b.type, T.ListType)):
        if pred in ("eq", "ne"):
            return Const(pred == "ne", T.BOOL)
        cx.error(f"'{_CMP_SYMBOLS[pred]}' is not supported between {a.type} and {b.type}", node)
    deques = _deque_sides(cx, node)
    if deques is None and isinstance(node, ast.Compare) and any(is_deque(cx, n) for n in (node.left, *node.comparators)):
        cx.error("a chained comparison of a deque is not supported in compiled code (compare two at a time)", node)
    if deques is not None and deques[0] != deques[1]:      # a deque and a list
        if pred in ("eq", "ne"):
            return Const(pred == "ne", T.BOOL)
        names = ["collections.deque" if deque else "list" for deque in deques]
        return cx.raise_always("TypeError", f"'{_CMP_SYMBOLS[pred]}' not supported between instances of "
                                            f"'{names[0]}' and '{names[1]}'", node)
    for v in (a, b):
        check_comparable(cx, v, f"'{_CMP_SYMBOLS[pred]}'", node)
    if pred in ("eq", "ne"):
        r = call_listlib(cx, listlib.equal, [a, b], node)
        return r if pred == "eq" else cx.emit("not", [r], T.BOOL, None, cx.loc(node))
    first, second = (a, b) if pred in ("lt", "le") else (b, a)
    return call_listlib(cx, listlib.less, [first, second, Const(pred in ("le", "ge"), T.BOOL)], node)


def _deque_sides(cx, node) -> tuple | None:
    """Whether each operand of binary operation or single comparison `node` is a deque
    (python_classes.is_deque); None for another node."""
    sides = table_args.operands(node)
    return None if sides is None else tuple(is_deque(cx, side) for side in sides)


def listlike(cx, v: Value, other: Value, node) -> Value:
    """Tuple `v` as a `VarTupleType` of its items where it meets one (`col == (1, 2)`,
    `col + (0,)`)."""
    if not (isinstance(other.type, T.VarTupleType) and type(v.type) is T.TupleType):
        return v
    loc = cx.loc(node)
    items = [cx.emit("extract", [v], et, k, loc) for k, et in enumerate(v.type.elems)]
    if any(T.unify(other.type.elem, it.type) != other.type.elem for it in items):
        return v                        # (items of other types: never equal, as a list)
    out = new_list(cx, other.type.elem, Const(len(items), T.I64), node, T.VarTupleType)
    for k, it in enumerate(items):
        set_item(cx, out, it, Const(k, T.I64), node)
    return out


def var_tuple_of(cx, arg_node, node) -> Value:
    """`tuple(xs)` of a list, str, range, generator, ...: a tuple of run-time length."""
    lst = list_of(cx, arg_node, node)
    n = list_len(cx, lst, node)
    out = new_list(cx, read_type(cx, lst), n, node, T.VarTupleType)
    for_range(cx, node, n, lambda i: set_item(cx, out, get_item(cx, lst, i, node), i, node))
    return out


def call_listlib(cx, fn, args: list[Value], node) -> Value:
    callee = cx.ctx.callee(cx, cx.ctx.info_for(fn), tuple(v.type for v in args), node)
    return cx.emit("call", args, callee.ret_type, callee, cx.loc(node))


def library_method(cx, lst: Value, name: str, node: ast.Call) -> Value:
    """The list methods only listlib and dictlib may call: ``lst._resize(n)``, and
    ``lst._get(i)`` / ``lst._set(i, v)``, element `i` without a bounds check (their code
    keeps 0 <= i < len by construction)."""
    args = cx.positional(node, name, {"_resize": 1, "_get": 1, "_set": 2}[name])
    if name == "_resize":
        resize_list(cx, lst, args[0], node)
        return Const(None, T.NONE, cx.loc(node))
    i = cx.coerce(Const(args[0].value, args[0].type) if isinstance(args[0], WeakConst) else args[0],
                  T.I64, node)
    if name == "_get":
        return get_item(cx, lst, i, node)
    set_item(cx, lst, args[1], i, node)
    return Const(None, T.NONE, cx.loc(node))


def pre_evaluate(cx, node, optional_too: bool = False) -> Value:
    """The value of `node`, computed now and given again by its next `lazy` (lower_expr);
    with `optional_too`, an optional stays one (`xs.count(v)` of a `v` that may be None)."""
    v = optional.expr_opt(cx, node) if optional_too else cx.expr(node)
    cx.pre_evaluated[id(node)] = v
    return v

# ---- comprehensions and generator expressions ---------------------------------------


def comprehension(cx, node, body) -> None:
    """`body()` for each binding of the `for` clauses of `node` (a comprehension or
    generator expression) whose `if` clauses hold, in Python's order; the targets are
    names of their own scope, as in Python 3."""
    scope: dict[str, str] = {}
    held_iterators.comprehension(cx, node)
    cx.comp_scopes.append(scope)
    outer = cx.gen_total        # (a list made of all items: recursive_generators.py)
    if not isinstance(node, ast.GeneratorExp):
        cx.gen_total = generators.invisible(cx, node)
    try:
        _clause(cx, node, 0, scope, body)
    finally:
        cx.comp_scopes.pop()
        cx.gen_total = outer


def _clause(cx, node, k: int, scope: dict, body) -> None:
    if k == len(node.generators):
        body()
        return
    gen = node.generators[k]
    if gen.is_async:
        cx.error("asynchronous comprehensions are not supported", gen)

    def bind(x):
        bind_target(cx, gen.target, x, scope, node)
        _filtered(cx, gen.ifs, lambda: _clause(cx, node, k + 1, scope, body))

    if generators.walks_generator(cx, gen.iter) or strmethods.is_str_parts(cx, gen.iter):
        generators.each_item(cx, gen.iter, bind, total=None)      # generators.py, strmethods.py
        return
    source = cx.iterable(gen.iter)
    n, item, _ = source
    if getattr(source, "held_iterator", False):     # (a `next(it)` in the body takes one too)
        cx.counted_loop(cx.info.synthetic_loop(gen), Const(0, T.I64), n, Const(1, T.I64),
                        lambda i: bind(item(i)), exhausted=source.exhausted, length=source.length)
        return
    for_range(cx, gen, n, lambda i: bind(item(i)))


def _filtered(cx, ifs, then) -> None:
    if not ifs:
        then()
        return
    cond = cx.condition(ifs[0])
    if isinstance(cond, Const):
        if cond.value:
            _filtered(cx, ifs[1:], then)
        return
    yes, join = cx.new_block("comp.if"), cx.new_block("comp.next")
    cx.branch(cond, yes, join, cx.loc(ifs[0]))
    cx.seal(yes)
    cx.start(yes)
    optional.narrow(cx, test_facts(ifs[0])[0])         # (`if x is not None`: optional.py)
    _filtered(cx, ifs[1:], then)
    cx.goto(join, cx.loc(ifs[0]))
    cx.finish_join(join)


def bind_target(cx, target, value: Value, scope: dict, node) -> None:
    if isinstance(target, ast.Name):
        var = scope.get(target.id)
        if var is None:
            cx.counter += 1
            var = scope[target.id] = f"$comp{cx.counter}:{target.id}"
        cx.write(var, value, loc=cx.loc(target))
        return
    if not isinstance(target, (ast.Tuple, ast.List)) or any(isinstance(e, ast.Starred) for e in target.elts):
        cx.error("comprehension targets must be names or tuples of names", target)
    if isinstance(value.type, (T.ListType, T.ArrayType)):     # (a zip(*rows) column)
        _, item = cx.checked_unpack(value, len(target.elts), False, node)
        for k, t in enumerate(target.elts):
            bind_target(cx, t, item(Const(k, T.I64)), scope, node)
        return
    if not isinstance(value.type, T.TupleType) or len(value.type.elems) != len(target.elts):
        cx.error(f"cannot unpack a value of type {value.type} into {len(target.elts)} targets", target)
    for k, (t, et) in enumerate(zip(target.elts, value.type.elems)):
        bind_target(cx, t, cx.emit("extract", [value], et, k, cx.loc(node)), scope, node)


def comprehension_var(cx, name: str) -> str | None:
    """The variable standing for comprehension target `name` here, if one is in scope."""
    for scope in reversed(cx.comp_scopes):
        if name in scope:
            return scope[name]
    return None


def each(cx, arg_node, body, total: bool = False) -> None:
    """`body(x)` for each element `x` of what `arg_node` gives: a generator (without
    making a list, generators.py) or anything `iterable` takes; `total`: `body` takes every
    item and shows nothing (generators.walk_items)."""
    if generators.walks_generator(cx, arg_node):
        generators.each_item(cx, arg_node, body, total)
        return
    n, item, _ = cx.iterable(arg_node)
    for_range(cx, arg_node, n, lambda i: body(item(i)))


def expr_GeneratorExp(cx, node):
    from script.frontend.generators import USE_ERROR
    cx.error(f"a generator expression {USE_ERROR}", node)


def sum_each(cx, arg_node, start: Value | None, node, op=ast.Add) -> Value:
    """sum() of a generator expression (math.prod's with `op` ast.Mult): the
    accumulator's type widens as Python's result does (bools sum to an int, an int
    start with floats gives a float). Of floats without a start, the total is an int|float
    (`num`): CPython's int start when there are none, as `sum_of`'s."""
    init = Const(0 if op is ast.Add else 1, T.I64)
    acc = cx.new_var("acc", start if start is not None else init)
    loc = cx.loc(node)
    seen = cx.new_var("seen", Const(False, T.BOOL))
    cx.counter += 1
    instances = f"$sum{cx.counter}"     # of instances without a start: assigned 0 + x0 first
    held = []                           # (whether elements are such instances)

    def add(x):
        if (start is None or not T.is_instance_type(start.type)) and T.is_instance_type(x.type):
            held.append(True)
            cx.write(instances, cx.choose(cx.read(seen, loc), lambda: cx.binop(op, cx.read(instances, loc), x, node),
                                          lambda: cx.binop(op, init if start is None else start, x, node), node))
            cx.write(seen, Const(True, T.BOOL))
            return
        cx.write(acc, cx.binop(op, cx.read(acc, cx.loc(node)), x, node))
    each(cx, arg_node, add, total=True)
    if held:
        class_methods.refuse_empty_sum(cx, cx.emit("not", [cx.read(seen, loc)], T.BOOL, None, loc), op, node)
        return cx.read(instances, loc)
    return cx.read(acc, cx.loc(node))


def minmax_each(cx, arg_node, name: str, default, node) -> Value:
    """min()/max() of a generator expression: Python's rule (a later element replaces
    the result only when strictly smaller/greater), ValueError or `default` when empty."""
    loc = cx.loc(node)
    seen = cx.new_var("seen", Const(False, T.BOOL))
    cx.counter += 1
    acc = f"$best{cx.counter}"       # assigned by the first element

    def step(x):
        if not (x.type.is_numeric() or isinstance(x.type, (T.TupleType, T.TextType, T.ListType))):
            cx.error(f"{name}() of elements of type {x.type} is not supported", node)
        best = cx.choose(cx.read(seen, loc), lambda: minmax_step(cx, 
            name, cx.read(acc, loc), x, node), lambda: x, node)
        cx.write(acc, best)
        cx.write(seen, Const(True, T.BOOL))

    each(cx, arg_node, step, total=True)
    found = cx.read(seen, loc)
    if default is None:
        cx.raise_if(cx.emit("not", [found], T.BOOL, None, loc), "ValueError", _empty_message(name), node)
        return cx.read(acc, loc)
    return cx.choose(found, lambda: cx.read(acc, loc), lambda: default, node)


def minmax_step(cx, name: str, best: Value, x: Value, node) -> Value:
    """One step of min()/max(): tuples by Python's ordering, strs by code points."""
    if isinstance(best.type, Unknown):          # the result's type is not known yet
        return Undef(UNKNOWN, cx.loc(node))
    if (union_values.is_union(best) or union_values.is_union(x)) and best.type != x.type:
        return mixed_numbers.split(cx, [best, x], lambda a, b: minmax_step(cx, name, a, b, node), node)
    if isinstance(x.type, (T.TupleType, T.ListType, T.BytesType)):
        return cx.better_of(best, x, name, node)
    refused = sample_type_error(operator.gt if name == "max" else operator.lt, python_sample(x.type),
                                python_sample(best.type))
    if refused is not None:     # (a str after an int: CPython compares the item with the best so far)
        return cx.raise_always("TypeError", refused, node)
    if isinstance(x.type, T.StrType):
        return strings.str_minmax(cx, name, best, x, node)
    return binop_minmax(cx, name, best, x, node)


def binop_minmax(cx, name: str, a: Value, b: Value, node) -> Value:
    t = cx.common_type(a, b, node)
    return cx.emit(name, [cx.coerce(a, t, node), cx.coerce(b, t, node)], t, None, cx.loc(node))


def any_all(cx, arg_node, is_any: bool, node) -> Value:
    """any()/all(), stopping at the first decisive element (later ones are not computed)."""
    if not generators.walks_generator(cx, arg_node) and cx.builtin_call(arg_node) is None:
        seq = cx.expr(arg_node)
        if isinstance(seq.type, T.ArrayType) and seq.type.ndim > 1:
            cx.error("the truth value of an array with more than one element is ambiguous "
                     "(use a.any() or a.all())", arg_node)
        if isinstance(seq.type, T.TupleType):       # known length: no loop
            result: Value = Const(not is_any, T.BOOL)
            for k, et in enumerate(seq.type.elems):
                c = cx.truth(cx.emit("extract", [seq], et, k, cx.loc(node)), node)
                result = cx.emit("or" if is_any else "and", [result, c], T.BOOL, None, cx.loc(node)) \
                    if not isinstance(result, Const) or result.value != is_any else result
            return result
        return any_of(cx, cx.iterable_value(seq, node), node, lambda x: cx.truth(x, node), is_any)
    return any_of(cx, arg_node, node, lambda x: cx.truth(x, node), is_any)


def any_of(cx, source, node, test, is_any: bool = True) -> Value:
    """Whether `test(x)` holds for some (`is_any`) or every element `x` of `source`
    (a node for `each`, or an (n, item, type) iterable), stopping at the first decisive one."""
    loc = cx.loc(node)
    result = cx.new_var("found", Const(not is_any, T.BOOL))
    done = cx.new_block("any.done")

    def step(x):
        c = test(x)
        decisive = c if is_any else (Const(not c.value, T.BOOL) if isinstance(c, Const)
                                     else cx.emit("not", [c], T.BOOL, None, loc))
        hit, go_on = cx.new_block("any.hit"), cx.new_block("any.next")
        cx.branch(decisive, hit, go_on, loc)
        cx.seal(hit)
        cx.seal(go_on)
        cx.start(hit)
        cx.write(result, Const(is_any, T.BOOL))
        cx.goto(done, loc)
        cx.start(go_on)

    if isinstance(source, tuple):
        n, item, _ = source
        for_range(cx, node, n, lambda i: step(item(i)))
    else:
        each(cx, source, step)
    cx.goto(done, loc)
    cx.finish_join(done)
    return cx.read(result, loc)

# ---- builtins -----------------------------------------------------------------------


def builtin_any(cx, node, name) -> Value:
    if node.keywords or len(node.args) != 1:
        cx.error(f"{name}() takes exactly one argument", node)
    return any_all(cx, node.args[0], name == "any", node)


def builtin_list(cx, node, name) -> Value:
    if node.keywords or len(node.args) > 1:
        cx.error("list() takes at most 1 argument", node)
    if not node.args:
        return list_of_unknown(cx, node)
    return list_of(cx, node.args[0], node)


def builtin_sorted(cx, node, name) -> Value:
    if len(node.args) != 1:
        cx.error(f"sorted expected 1 argument, got {len(node.args)}", node)
    lst = list_of(cx, node.args[0], node)
    keyed.sort_list(cx, lst, node.keywords, "sort", node)
    return lst


def list_to_array(cx, lst: Value, dtype: T.Type | None, node) -> Value:
    """`np.array(lst)`: a new 1-d array of the elements (list_arrays.py: of lists)."""
    elem = read_type(cx, lst)
    if isinstance(elem, T.ListType):
        from script.frontend.list_arrays import nested_list_to_array
        return nested_list_to_array(cx, lst, dtype, node)
    if not elem.is_numeric():
        cx.error(f"numpy.array() of a {lst.type} is not supported in compiled code", node)
    t = dtype or elem
    n = list_len(cx, lst, node)
    out = numpy_alloc.alloc_array(cx, t, [n], node)
    for_range(cx, node, n, lambda i: cx.emit(
        "store", [out, arrays.item_value(cx, get_item(cx, lst, i, node), t, node), i], T.NONE, None, cx.loc(node)))
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
    if isinstance(t, T.OptionalType):
        return _is_named(t.value)
    if isinstance(t, T.IntFloatType):
        return True
    if isinstance(t, T.UnionType):
        return all(_is_named(e) for e in t.alternatives)
    return isinstance(t, (T.IntType, T.FloatType, T.BoolType, T.StrType, T.NoneType))


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
    if name in ("sort", "pop") and is_deque(low, node.func.value):
        refused = _deque_lacks(low, lst, name, node)
        if refused is not None:
            return refused
    bounded_deques.bounded_insert_check(low, lst, name, node)
    state = bounded_deques.deque_state_before(low, lst, name, node)     # a deque a loop iterates
    result = list_method(low, lst, name, node)
    bounded_deques.bounded_method(low, lst, name, node)     # deque(maxlen=)
    bounded_deques.deque_state_after(low, lst, name, node, state)
    return result


def _deque_lacks(low, lst: Value, name: str, node: ast.Call) -> Value | None:
    """`d.sort()` and `d.pop(i)` of a deque: CPython's AttributeError (before the arguments
    are computed) and TypeError (after); `d.pop()` of an empty deque: its IndexError.
    None where the list's method follows."""
    if name == "sort":
        return low.raise_always("AttributeError", "'collections.deque' object has no attribute 'sort'", node.func)
    if node.args or node.keywords:
        for a in [*node.args, *(k.value for k in node.keywords)]:
            low.expr(a.value if isinstance(a, ast.Starred) else a)
        if node.keywords:
            return low.raise_always("TypeError", "deque.pop() takes no keyword arguments", node)
        if any(isinstance(a, ast.Starred) for a in node.args):
            low.error("deque.pop() of a starred argument is not supported in compiled code", node)
        return low.raise_always("TypeError", f"deque.pop() takes no arguments ({len(node.args)} given)", node)
    empty = low.cmp("eq", list_len(low, lst, node), Const(0, T.I64), node)
    low.raise_if(empty, "IndexError", "pop from an empty deque", node)
    return None


METHODS.register(("list", ANY), _list_method)
BINOPS.register(("list", ANY), lambda low, op, a, b, node: list_binop(low, op, a, b, node))
