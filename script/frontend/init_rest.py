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

from script.errors import CompileError
from script.frontend.class_lookup import find_member
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
    """The fields the rest assigns first, in the order of their first stores; CompileError
    for one whose placeholder could be read (the module docstring)."""
    late: list[str] = []
    for j, stmt in enumerate(rest):
        for n in ast.walk(stmt):
            if isinstance(n, ast.Attribute) and isinstance(n.ctx, ast.Store) and isinstance(n.value, ast.Name) \
                    and n.value.id == self_name and n.attr not in fields and n.attr not in late:
                why = _unsafe(cls, rest, j, n, self_name)
                if why is not None:
                    raise CompileError(
                        f"{cls.__name__}.__init__ assigns self.{n.attr} only after it calls a method (or uses "
                        f"'{self_name}'), and {why}: compiled code builds the instance at that call; assign "
                        f"self.{n.attr} before it (e.g. to a value of its type)", info.loc(n))
                late.append(n.attr)
    return late


def _unsafe(cls: type, rest: list, j: int, target: ast.Attribute, self_name: str) -> str | None:
    """Why the first store `target` (in statement `j` of `rest`) of a late field might not
    come before a read of it, or None."""
    stmt = rest[j]
    if not (isinstance(stmt, ast.Assign) and any(target is t or isinstance(t, ast.Tuple) and target in t.elts
                                                 for t in stmt.targets)):
        return "not as a statement of its own at the level of __init__'s body"
    seen: set = set()
    for node in [*rest[:j], stmt.value]:
        why = _reads(cls, node, self_name, target.attr, seen)
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
        try:
            callee = FunctionInfo(fn).node
        except CompileError:
            return f"the source of '{what}' cannot be read"
        if not callee.args.args:
            return f"'{what}' takes no instance"
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
