"""An ``__init__`` that calls methods: the part after the instance exists.

records.FactoryInfo compiles ``__init__`` as a factory returning the fields, and the instance
is built from them; a method cannot run before that. So ``__init__`` is split at its first
top-level statement that needs the instance (``self.build()``, ``self`` passed or stored, a
property read, ``super().m()``): the statements before it are the factory; those from it on
are `RestInfo`, a method run on the new instance with the parameters and the factory's locals
it reads passed in (the factory returns them after the fields). Nothing of CPython's order
changes: the factory's statements ran first there too, and every field the rest or its
methods read was assigned before the split.

A field first assigned at or after the split (``self.h = self.heuristic()``, or in a method
that ``__init__`` calls) would have no value while the methods run, where CPython raises
AttributeError on reading it: a CompileError that says to assign it before the first call.
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
    parents = {}
    for n in ast.walk(stmt):
        for child in ast.iter_child_nodes(n):
            parents[child] = n
    for n in ast.walk(stmt):
        if isinstance(n, (ast.FunctionDef, ast.Lambda)):
            if any(isinstance(m, ast.Name) and m.id == self_name for m in ast.walk(n)):
                return True             # a closure over the instance
        elif isinstance(n, ast.Name) and n.id == self_name:
            up = parents.get(n)
            if not (isinstance(up, ast.Attribute) and up.value is n):
                return True             # `self` as a value: passed, stored, returned
            if up.attr in fields or isinstance(up.ctx, ast.Store):
                continue
            member = find_member(cls, up.attr)
            if callable(member) or isinstance(member, property):
                return True             # a method or a property runs on the instance
        elif isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and _is_super(n.func.value):
            return True                 # super().m(...)
    return False


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


def late_fields(rest: list, self_name: str, fields: list[str]) -> list[tuple[str, ast.AST]]:
    """The fields the rest assigns that the factory does not, with where."""
    out = []
    for s in rest:
        for n in ast.walk(s):
            if isinstance(n, ast.Attribute) and isinstance(n.ctx, ast.Store) and isinstance(n.value, ast.Name) \
                    and n.value.id == self_name and n.attr not in fields:
                out.append((n.attr, n))
    return out


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


def check_late(cls: type, info: FunctionInfo, rest: list, self_name: str, fields: list[str]) -> None:
    """CompileError for a field first assigned at or after the split."""
    late = late_fields(rest, self_name, fields)
    if late:
        name, at = late[0]
        raise CompileError(f"{cls.__name__}.__init__ calls a method (or uses '{self_name}') before it assigns "
                           f"self.{name}: compiled code builds the instance at that call, with the fields "
                           f"assigned so far; assign self.{name} before it (e.g. to a value of its type)",
                           info.loc(at))
