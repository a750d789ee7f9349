"""An ``__init__`` that calls methods: the part after the instance exists.

records.FactoryInfo compiles ``__init__`` as a factory returning the fields, and the instance
is built from them; a method cannot run before that. So ``__init__`` is split at its first
top-level statement that needs the instance (``self.build()``, ``self`` passed or stored, a
property read, ``super().m()``): the statements before it are the factory; those from it on
are `RestInfo`, a method run on the new instance with the parameters and the factory's locals
it reads passed in (the factory returns them after the fields). Nothing of CPython's order
changes: the factory's statements ran first there too, and every field the rest or its
methods read was assigned before the split.

A field first assigned after the split (``self.h = self.heuristic()``, ``self.size =
len(self.heap)`` after ``self.build()``) is *late*: the instance is built with a placeholder
in it (None until a round has typed the field, then a zero of its type: class_types.LATE), and
its first store gives it its value. That is exact only where nothing can read the field
before that store, where CPython would raise AttributeError: `late_fields` proves it (the
store a statement of the rest's top level, before it no read of the field in the rest nor in
the methods and properties it calls, transitively, and the instance passed nowhere). A late
field it cannot prove so, or first assigned inside a method, is a CompileError that says to
assign it before the first call.
"""

from __future__ import annotations

import ast
import copy
import weakref

from script.errors import CompileError
from script.frontend.class_lookup import find_member
from script.frontend.memo import empty_container
from script.frontend.source import FunctionInfo, _assigned_names


def split_point(cls: type, body: list, self_name: str) -> int | None:
    """The index of the first statement of `body` that needs the instance, or None."""
    fields: set[str] = set()
    for i, stmt in enumerate(body):
        if _needs_instance(cls, stmt, self_name, fields):
            return i
        for n in ast.walk(stmt):
            if isinstance(n, ast.Attribute) and isinstance(n.ctx, ast.Store) and \
                    isinstance(n.value, ast.Name) and n.value.id == self_name:
                fields.add(n.attr)
    return None


def _needs_instance(cls: type, stmt, self_name: str, fields: set) -> bool:
    if _is_base_init(stmt):
        return False                    # super().__init__(...): the base's fields (class_members)
    for kind, attr in _uses(stmt, self_name):
        if kind != "load":
            return True                 # a closure over it, `self` as a value, super().m()
        if attr not in fields:
            member = find_member(cls, attr)
            if callable(member) or isinstance(member, property):
                return True             # a method or a property runs on the instance
    return False


def _uses(tree, self_name: str):
    """The uses of the instance `self_name` in `tree` that are not stores of its fields:
    ("load", attr) for ``self.attr``; ("closure", why), ("value", why) and ("super", why)
    for a nested function or lambda using it, `self` other than as ``self.attr`` (passed,
    stored, returned, an operand), and a ``super().m(...)`` call."""
    parents = {child: n for n in ast.walk(tree) for child in ast.iter_child_nodes(n)}
    for n in ast.walk(tree):
        if isinstance(n, (ast.FunctionDef, ast.Lambda)) and n is not tree:
            if any(isinstance(m, ast.Name) and m.id == self_name for m in ast.walk(n)):
                yield "closure", "a nested function uses the instance"
        elif isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and _is_super(n.func.value):
            yield "super", "it calls super()"
        elif isinstance(n, ast.Name) and n.id == self_name:
            up = parents.get(n)
            if not (isinstance(up, ast.Attribute) and up.value is n):
                yield "value", f"'{self_name}' is passed on or used as a value before"
            elif not isinstance(up.ctx, ast.Store):
                yield "load", up.attr


def _is_super(node) -> bool:
    return isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "super"


def _is_base_init(stmt) -> bool:
    return isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call) and \
        isinstance(stmt.value.func, ast.Attribute) and stmt.value.func.attr == "__init__"


def carried_names(params: list[str], prefix: list, rest: list) -> list[str]:
    """The parameters and the factory's locals that the rest reads, in a fixed order."""
    made = set(params) | _assigned_names(ast.FunctionDef("f", None, prefix, [], None, None))
    read = {n.id for s in rest for n in ast.walk(s) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)}
    return sorted(made & read)


def late_fields(cls: type, info: FunctionInfo, rest: list, self_name: str, fields: list[str]) -> list[str]:
    """The fields the rest assigns first (itself or in the methods it calls), in the order
    of their first stores; CompileError for one whose placeholder could be read (the
    module docstring)."""
    late: list[str] = []
    for attr, at in _first_stores(cls, rest, self_name, set()):
        if attr not in fields and attr not in late:
            why = _first_store(cls, rest, self_name, attr, set())
            if why is not True:
                raise CompileError(
                    f"{cls.__name__}.__init__ assigns self.{attr} only after it calls a method (or uses "
                    f"'{self_name}'), and {why or 'not first as a statement of its own'}: compiled code builds "
                    f"the instance at that call; assign self.{attr} before it (e.g. to a value of its type)",
                    info.loc(at))
            late.append(attr)
    for attr, at in _all_stores(cls, rest, self_name, set()):
        if attr not in fields and attr not in late:
            raise CompileError(f"{cls.__name__}.__init__ assigns self.{attr} only inside an if, a loop or a method "
                               f"called from one, after it calls a method: compiled code builds the instance at "
                               f"that call; assign self.{attr} before it (e.g. to a value of its type)", info.loc(at))
    return late


def hoistable(cls: type, rest: list, self_name: str, late: list[str]) -> list[int]:
    """The indices of the statements of `rest` that give a late field its first value as an
    empty ``[]``, ``{}`` or ``set()``: the factory runs them instead, so that the container
    is typed as one made in ``__init__`` is (callee_hints.py). Nothing can read the field
    before (`late_fields`), and an empty container made earlier is the same value."""
    firsts: dict = {}
    for attr, where in _first_stores(cls, rest, self_name, set()):
        firsts.setdefault(attr, where)
    out = []
    for i, stmt in enumerate(rest):
        targets = _targets(stmt, self_name)
        target = stmt.target if isinstance(stmt, ast.AnnAssign) else \
            stmt.targets[0] if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 else None
        if len(targets) == 1 and targets[0] is target and target.attr in late \
                and firsts.get(target.attr) is target and empty_container(stmt.value, ("set",)):
            out.append(i)
    return out


def _method(cls: type, call, self_name: str):
    """The function of ``self.m(...)`` (`call`), where m is a plain method; else None."""
    if not (isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute)
            and isinstance(call.func.value, ast.Name) and call.func.value.id == self_name):
        return None
    member = find_member(cls, call.func.attr)
    return member if hasattr(member, "__code__") else None


_DEFS: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()     # method -> its def, or None


def _def_of(fn) -> ast.FunctionDef | None:
    """The parsed def of method `fn` (read once: the analyses of a class walk its methods
    several times), or None where it has no source or no instance parameter."""
    if fn not in _DEFS:
        try:
            node = FunctionInfo(fn).node
        except CompileError:
            node = None
        _DEFS[fn] = node if node is not None and node.args.args else None
    return _DEFS[fn]


def _targets(stmt, self_name: str) -> list:
    """The ``self.f`` targets of an assignment statement, in order."""
    if isinstance(stmt, ast.AnnAssign) and stmt.value is not None:
        flat = [stmt.target]
    elif isinstance(stmt, ast.Assign):
        flat = [e for t in stmt.targets for e in (t.elts if isinstance(t, ast.Tuple) else [t])]
    else:
        return []
    return [t for t in flat
            if isinstance(t, ast.Attribute) and isinstance(t.value, ast.Name) and t.value.id == self_name]


def _first_stores(cls: type, body: list, self_name: str, seen: set, at=None):
    """(field, where) of the stores reached in order through `body`'s own statements and
    the methods they call as statements (``self.m(...)``), not inside ifs or loops; where:
    the store, or the call in __init__ that leads to it (`at`)."""
    for stmt in body:
        for t in _targets(stmt, self_name):
            yield t.attr, at or t
        fn = _method(cls, stmt.value, self_name) if isinstance(stmt, ast.Expr) else None
        if fn is not None and fn not in seen:
            seen.add(fn)
            node = _def_of(fn)
            if node is not None:
                yield from _first_stores(cls, node.body, node.args.args[0].arg, seen, at or stmt)


def _all_stores(cls: type, body: list, self_name: str, seen: set, at=None):
    """(field, where) of every store of the instance's fields in `body` and in the methods
    it calls, at any depth (where: as `_first_stores`)."""
    for n in ast.walk(ast.Module(body, [])):
        if isinstance(n, ast.Attribute) and isinstance(n.ctx, ast.Store) and isinstance(n.value, ast.Name) \
                and n.value.id == self_name:
            yield n.attr, at or n
        fn = _method(cls, n, self_name)
        if fn is not None and fn not in seen:
            seen.add(fn)
            node = _def_of(fn)
            if node is not None:
                yield from _all_stores(cls, node.body, node.args.args[0].arg, seen, at or n)


def _first_store(cls: type, body: list, self_name: str, field: str, seen: set) -> bool | str | None:
    """True where `body` runs a store of `field` as a statement of its own (or of a method it
    calls as one) before anything that could read it; why not, if something could; None
    where it neither stores nor reads it."""
    for stmt in body:
        if any(t.attr == field for t in _targets(stmt, self_name)):
            return _reads(cls, stmt.value, self_name, field, seen) or True
        fn = _method(cls, stmt.value, self_name) if isinstance(stmt, ast.Expr) else None
        if fn is not None and fn not in seen:
            for a in [*stmt.value.args, *(k.value for k in stmt.value.keywords)]:
                why = _reads(cls, a, self_name, field, seen)
                if why is not None:
                    return why
            node = _def_of(fn)
            if node is None:
                return f"the source of '{stmt.value.func.attr}' cannot be read"
            seen.add(fn)
            found = _first_store(cls, node.body, node.args.args[0].arg, field, seen)
            if found is not None:
                return found
            continue
        if any(f == field for f, _ in _all_stores(cls, [stmt], self_name, set())):
            return None         # first inside an if or a loop: late_fields says so
        why = _reads(cls, stmt, self_name, field, seen)
        if why is not None:
            return why
    return None


def _reads(cls: type, tree, self_name: str, field: str, seen: set) -> str | None:
    """Why running `tree` (code of a method of `cls` whose instance is `self_name`) might
    read `field` of the instance, following its calls of the instance's methods; or None."""
    for kind, what in _uses(tree, self_name):
        if kind != "load":
            return what
        if what == field:
            return f"self.{field} is read before"
        member = find_member(cls, what)
        if isinstance(member, (staticmethod, classmethod)):
            continue                    # (they see the instance only where it is passed)
        fn = member.fget if isinstance(member, property) else member
        if not callable(fn) or fn in seen:
            continue
        if not hasattr(fn, "__code__"):
            return f"what '{what}' runs cannot be followed"
        seen.add(fn)
        callee = _def_of(fn)
        if callee is None:
            return f"the source of '{what}' cannot be read or it takes no instance"
        why = _reads(cls, callee, callee.args.args[0].arg, field, seen)
        if why is not None:
            return why
    return None


class RestInfo(FunctionInfo):
    """The statements of ``cls.__init__`` from the split on, as a method of the instance:
    ``(self, *carried)``, returning None."""

    def __init__(self, cls: type, self_name: str, rest: list, carried: list[str]):
        super().__init__(cls.__init__)
        node = copy.deepcopy(self.node)
        node.body = copy.deepcopy(rest)
        hidden = list(self.hidden_globals)      # module containers it writes (global_writes.py)
        node.args = ast.arguments(posonlyargs=[], args=[ast.arg(n) for n in [self_name, *carried]],
                                  vararg=None, kwonlyargs=[ast.arg(g) for g in hidden],
                                  kw_defaults=[None] * len(hidden), kwarg=None, defaults=[])
        node.returns = None
        for a in node.args.args + node.args.kwonlyargs:
            ast.copy_location(a, node)
        self.node = node
        self.cls = cls
        self.name = f"{cls.__name__}.__init__"
        self.param_names = [self_name, *carried, *hidden]
        self.n_positional = 1 + len(carried)
        self.vararg = None
        self.defaults = {}
        self.param_hints = [None] * len(self.param_names)
        self.param_types = [None] * len(self.param_names)
        self.local_names = frozenset(_assigned_names(node)) | frozenset(self.param_names)
        self.is_annotated = False
        self.hinted_signature = None
        self.return_type = None
