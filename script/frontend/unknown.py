"""The placeholders of a round of lowering: the unknown type, the undefined value, and the
element type of a list (`PendingElement`) and key or value type of a dict or set
(`PendingPart`) made empty, not known until a store.

A leaf (it imports only the IR), so a lowering that tests for a type not known yet, or makes
a value of it, need not import the SSA builder: importing `ssa_builder` closed import cycles
through its lazy import of `class_methods` (tests/test_import_graph.py).
"""

from __future__ import annotations

from script.ir import types as T
from script.ir.core import Value


class Restart(Exception):
    """A type hint widened: build the function again from the start (here, in a leaf
    module, so that any lowering may raise it without importing the SSA builder)."""


class Unknown(T.Type):
    """The type of a value not yet known in this round (an unassigned variable at a loop header).
    Operations on it give Unknown; the round is always retried or reported, never lowered."""

    __slots__ = ()

    def __eq__(self, other):
        return isinstance(other, Unknown)

    def __hash__(self):
        return hash("unknown")

    def __str__(self):
        return "?"


UNKNOWN = Unknown()


class Undef(Value):
    """A variable read on a path where it was never assigned. Never in the IR: a branch passes
    a placeholder of the parameter's type instead (`SSABuilder._undefined`)."""

    __slots__ = ()


def has_unknown(t: T.Type) -> bool:
    """Whether `t` is unknown or a tuple with an unknown part."""
    return isinstance(t, Unknown) or isinstance(t, T.TupleType) and any(has_unknown(e) for e in t.elems)


class PendingElement(T.Type):
    """The element type of an empty list or comprehension made at `key` (its AST node), not
    yet known in this round of the build."""

    __slots__ = ("key",)

    def __init__(self, key):
        self.key = key

    def __eq__(self, other):
        return isinstance(other, PendingElement) and other.key is self.key

    def __hash__(self):
        return id(self.key)

    def __str__(self):
        return "?"


def is_pending_optional(t: T.Type) -> bool:
    """Whether `t` is `opt[?]`: elements (dict values) None so far (`[None] * n`, `d[k] =
    None`), their type not known yet."""
    return isinstance(t, T.OptionalType) and isinstance(t.value, PendingElement)


class PendingPart(T.Type):
    """The key or value type of a table made at `node`, not yet known in this round."""

    __slots__ = ("node", "part")

    def __init__(self, node, part: str):
        self.node = node
        self.part = part

    def __eq__(self, other):
        return isinstance(other, PendingPart) and other.node is self.node and other.part == self.part

    def __hash__(self):
        return hash((id(self.node), self.part))

    def __str__(self):
        return "?"


def is_pending(t: T.Type) -> bool:
    return isinstance(t, PendingPart)
