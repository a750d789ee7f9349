"""The placeholders of a round of lowering: the unknown type and the undefined value.

A leaf (it imports only the IR), so a lowering that tests for a type not known yet, or makes
a value of it, need not import the SSA builder: importing `ssa_builder` closed import cycles
through its lazy import of `class_methods` (tests/test_import_graph.py).
"""

from __future__ import annotations

from script.ir import types as T
from script.ir.core import Value


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
