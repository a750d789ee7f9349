"""Iterables of Python's held as values: `r = range(n)`, `m = map(f, xs)`, `z = zip(a, b)`.

Compiled code holds such an object as the list of what it yields (a `T.IterType`, which is a
list to every op, named by the kind of object CPython would hold). Where that list would
answer differently from CPython's object, compiled code refuses, at the line:

- a range is a sequence: it iterates (again and again), indexes, slices (into a range),
  measures, counts, finds and tests `in` as a list does; it is equal to a range of the same
  items and to nothing else (`range(3) == [0, 1, 2]` is False);
- an iterator (map, filter, zip, reversed, itertools...) is consumed by its first use: a
  name holding one may be read at one place only, not inside a loop it was made outside of
  (a second read would find CPython's iterator empty, or part-way through); it has no
  length, items or equality;
- neither is ever written (`r[0] = 1`, `m.append(x)`), added, repeated, turned to text
  (CPython's `range(0, 3)`, `<map object at ...>`), or returned to Python (a CompileError
  at the compile of the function called from Python: iterator_returns.py).

A range passed from Python is such a range (runtime.boxing copies its items in). A maker
called where its items are consumed at once (`for x in map(f, xs)`, `sum(map(...))`,
`list(zip(a, b))`) makes no held value: `direct` marks the call being iterated.
"""

from __future__ import annotations

import ast
import builtins
import functools
import itertools

from script.frontend.int_consts import is_library
from script.frontend.pyref import named_object
from script.ir import types as T
from script.ir.core import Const, Value

# The callables whose result CPython holds as an iterable object (their `__name__` is the kind).
MAKERS = frozenset({map, filter, zip, reversed, enumerate, range})
_SEQUENCE_KINDS = ("range",)


def maker_kind(obj) -> str | None:
    """The kind of object a call of `obj` makes, when CPython holds it as an iterable object
    (`map`, `range`, `product`; `chain` for `chain.from_iterable`); else None."""
    if any(obj is m for m in MAKERS) or getattr(obj, "__module__", None) == "itertools":
        return obj.__name__
    if getattr(obj, "__self__", None) is itertools.chain:
        return "chain"
    return None


class HeldIterators:
    """This build's reads of names holding iterators (name -> id of the node that read one)
    and the loop depth of each name's last assignment of one."""

    def __init__(self):
        self.direct: set[int] = set()           # ids of maker calls iterated where they are made
        self.reads: dict[str, tuple] = {}       # name -> (node id, loc) of its first read
        self.depths: dict[str, int] = {}        # name -> loop depth of its assignment
        self.outer: set[int] = set()            # ids of comprehensions' first iterables (read outside)
        self.pending: list[tuple[str, object]] = []     # (message, node): held where a list differs


def settle(low) -> None:
    """Refuse the first iterator held where a list made at once could differ from CPython's
    lazy one (`hold`), once the whole function is built: a more precise refusal of the same
    value (read twice, indexed, measured) is raised first, where it is read."""
    if low.held.pending:
        low.error(*low.held.pending[0])


def hold(low, lst: Value, kind: str, node) -> Value:
    """The list `lst` of what the maker call `node` yields, held as an `IterType` (a copy:
    the makers build plain lists) unless the call is being iterated where it is made."""
    if id(node) in low.held.direct or not isinstance(lst.type, T.ListType):
        return lst
    if kind not in _SEQUENCE_KINDS and not is_library(low.info.py_func):
        problem = _eager_problem(low.info, node, kind)
        if problem is not None:         # (refused once the function is built: settle())
            returned = getattr(node, "iterator_place", None) == "returned"
            where = "returned" if returned else "held as a value (not iterated where it is made)"
            fix = f"return a list (`return list({kind}(...))`)" if returned else \
                f"read it in the statement just after making it, or make a list (`list({kind}(...))`)"
            low.held.pending.append((
                f"a {kind} object {where} is made into a list at once in compiled code, where "
                f"CPython makes its items as they are read: {problem}; {fix}", node))
    return retype(low, lst, T.IterType(lst.type.elem, kind), node)


# Makers that call a function of the caller's for each item.
_CALLING = frozenset({"map", "filter", "starmap", "takewhile", "dropwhile", "filterfalse", "groupby"})
# Methods that change the object they are called on (lists, dicts, sets, deques).
_MUTATORS = frozenset({"append", "extend", "insert", "pop", "remove", "clear", "sort", "reverse",
                       "update", "add", "discard", "setdefault", "popitem", "appendleft",
                       "popleft", "extendleft", "rotate", "difference_update",
                       "intersection_update", "symmetric_difference_update"})


def _eager_problem(info, node, kind: str) -> str | None:
    """Why making the held iterator `node` a list at once could give another answer than
    CPython's lazy iterator; None where it cannot: no function of the caller runs per item,
    no argument is itself lazy, and no name it iterates is changed in the function."""
    if getattr(node, "iterator_place", None) == "whole":
        return None                     # `sum(map(f, xs))`: every item taken at once
    if kind in _CALLING and not (node.args and _quiet_function(info, node.args[0])) \
            or kind == "accumulate" and (len(node.args) > 1 or any(k.arg == "func" for k in node.keywords)):
        return "it calls a function for each item, which would run early and on every item"
    for arg in [*node.args, *(k.value for k in node.keywords)]:
        for sub in ast.walk(arg):
            if isinstance(sub, ast.GeneratorExp):
                return f"its argument `{ast.unparse(arg)}` is a generator"
            inner = _maker_kind_of(info, sub) if isinstance(sub, ast.Call) else None
            if inner is not None and sub is not node:
                problem = _eager_problem(info, sub, inner)
                if problem is not None:
                    return problem
    if getattr(node, "iterator_place", None) == "returned":
        return None                     # (nothing of this function runs after it)
    changes, loops = _changes(info)
    here = _position(node)
    for arg in node.args:
        for sub in ast.walk(arg):
            if isinstance(sub, ast.Name) and any(
                    _position(c) > here or any(a <= here <= b and a <= _position(c) <= b for a, b in loops)
                    for c in changes.get(sub.id, ())):
                return f"'{sub.id}' is changed in this function, and CPython's iterator would see the change"
    return None


def _position(node) -> tuple[int, int]:
    return node.lineno, node.col_offset


# Builtins and str methods that, on the values compiled code gives them, run nothing of the
# caller's, change nothing and raise nothing: calling one early, or on items never read, shows.
_QUIET_BUILTINS = (list, tuple, set, frozenset, sorted, str, repr, len, bool, abs, reversed)
_QUIET_STR_METHODS = frozenset({
    "upper", "lower", "strip", "lstrip", "rstrip", "split", "rsplit", "join", "title",
    "capitalize", "swapcase", "casefold", "splitlines", "startswith", "endswith", "count",
    "find", "rfind", "replace", "isdigit", "isalpha", "isalnum", "isspace", "isupper",
    "islower", "isdecimal", "isnumeric", "istitle", "isidentifier", "isascii"})


def _quiet_function(info, f) -> bool:
    """Whether calling `f` (a map's or filter's function) early or once too often could not be
    seen: None (filter's truth), a quiet builtin, a method of str from the list above
    (`str.upper`, `"".join`)."""
    if isinstance(f, ast.Constant):
        return f.value is None
    if isinstance(f, ast.Attribute) and f.attr in _QUIET_STR_METHODS:
        if isinstance(f.value, ast.Constant) and isinstance(f.value.value, str):
            return True
        return _resolve(info, f.value) is str
    obj = _resolve(info, f)
    return any(obj is q for q in _QUIET_BUILTINS)


def _maker_kind_of(info, call: ast.Call) -> str | None:
    """The kind of iterator `call` makes (not a range), or None."""
    obj = _resolve(info, call.func)
    kind = maker_kind(obj) if obj is not None else None
    return kind if kind not in _SEQUENCE_KINDS else None


def _resolve(info, node):
    """The object a name or dotted name of globals and builtins is, or None (a local)."""
    return named_object(node, info.local_names, info.global_value)


def _changes(info):
    """The places where `info`'s function may change a name's object in place (name ->
    nodes: a mutating method called on it, an item or attribute stored or deleted, an
    augmented assignment, an argument of a call that is not of a builtin or a maker), and
    the spans of its loops (a change before a maker in a loop around both runs after it)."""
    cached = info.__dict__.get("_changes")
    if cached is not None:
        return cached
    out: dict[str, list] = {}
    loops = []
    for n in ast.walk(info.node):
        if isinstance(n, (ast.For, ast.While)):
            loops.append((_position(n), (n.end_lineno, n.end_col_offset)))
        elif isinstance(n, ast.Call):
            f = n.func
            if isinstance(f, ast.Attribute) and isinstance(f.value, ast.Name) and f.attr in _MUTATORS:
                out.setdefault(f.value.id, []).append(n)
            builtin = isinstance(f, ast.Name) and f.id not in info.local_names \
                and not info.global_value(f.id)[0] and hasattr(builtins, f.id)
            if not builtin and _maker_kind_of(info, n) is None:
                for a in n.args:
                    if isinstance(a, ast.Name):
                        out.setdefault(a.id, []).append(n)
        elif isinstance(n, (ast.Subscript, ast.Attribute)) and not isinstance(n.ctx, ast.Load) \
                and isinstance(n.value, ast.Name):
            out.setdefault(n.value.id, []).append(n)
        elif isinstance(n, ast.AugAssign) and isinstance(n.target, ast.Name):
            out.setdefault(n.target.id, []).append(n)
    info.__dict__["_changes"] = (out, loops)
    return out, loops


def retype(low, lst: Value, t: T.IterType, node) -> Value:
    """A copy of list `lst` as the iterable `t` (a list returned where an iterator is too)."""
    n = low.list_len(lst, node)
    out = low.new_list(lst.type.elem, n, node, functools.partial(T.IterType, kind=t.kind))
    low.fill_from(out, Const(0, T.I64), (n, lambda i: low.get_item(lst, i, node), lst.type.elem), node)
    return out


def comprehension(low, node) -> None:
    """The first iterable of comprehension `node` is read outside it, as in CPython."""
    low.held.outer.add(id(node.generators[0].iter))


def iterated(low, node) -> None:
    """`node` (an expression) is iterated where it is: a maker call makes no held value."""
    if isinstance(node, ast.Call):
        low.held.direct.add(id(node))


def depth(low) -> int:
    return len(low.loops) + len(low.comp_scopes)


def assigned(low, name: str, value: Value) -> None:
    if is_iterator(value.type):
        low.held.depths[name] = depth(low)


def read(low, node: ast.Name, value: Value) -> None:
    """A read of `node`, which holds `value`: the second place reading a held iterator, or a
    read inside a loop it was made outside of, is a CompileError."""
    if not is_iterator(value.type) or is_library(low.info.py_func):
        return
    kind, name = value.type.kind, node.id
    first = low.held.reads.setdefault(name, (id(node), low.loc(node)))
    if first[0] != id(node):
        low.error(f"'{name}' (a {kind} object) is read a second time here: CPython's iterator is "
                  f"consumed by its first use (line {first[1].line}), so this would see what is left "
                  f"of it; make a list once (`{name} = list({name})`) to use its items twice", node)
    if depth(low) - (id(node) in low.held.outer) > low.held.depths.get(name, 0):
        low.error(f"'{name}' (a {kind} object) is read inside a loop it was made outside of: "
                  f"CPython's iterator is consumed by the first pass, so later passes would see it "
                  f"empty; make a list first (`{name} = list({name})`)", node)


def is_iterator(t: T.Type) -> bool:
    return isinstance(t, T.IterType) and t.kind not in _SEQUENCE_KINDS


def is_sequence(t: T.Type) -> bool:
    return isinstance(t, T.IterType) and t.kind in _SEQUENCE_KINDS


def refuse(low, v: Value, what: str, node) -> None:
    """CompileError for `what` (CPython's words) done to held iterable `v`, if it is one (in
    user code: the library's functions, given one as a list, consume it once)."""
    if isinstance(v.type, T.IterType) and not is_library(low.info.py_func):
        low.error(f"{what.format(kind=v.type.kind)}: compiled code holds the {v.type.kind} object as "
                  f"the list of its items, and refuses what the object would not do", node)


def no_items(low, v: Value, node) -> None:
    """Indexing, slicing or measuring `v`: refused for an iterator (a range has items)."""
    if is_iterator(v.type):
        refuse(low, v, "'{kind}' object is not subscriptable (nor has a len())", node)
