"""`Loop`: where ``break`` and ``continue`` jump in a loop being lowered (the lowering's
`loops`, innermost last). A leaf: lower_stmt and generators (``for`` over a generator) both
push one, and lower_stmt imports generators. `Growing`: what a ``for`` over a list
iterates, whose length it reads again before each element.
"""

from __future__ import annotations


class Loop:
    """The blocks a ``break`` (`break_to`) and a ``continue`` (`continue_to`) jump to."""

    __slots__ = ("break_to", "continue_to")

    def __init__(self, break_to, continue_to):
        self.break_to = break_to
        self.continue_to = continue_to


class Growing(tuple):
    """`iterable`'s (n, item, type) for a list, with `length()`, which emits a read of its
    length now: a ``for`` statement tests it before each element, as CPython's list iterator
    does, so a loop sees what its body appends (`for u in order: order.append(v)`, a
    breadth-first search) and stops early where the body shrinks the list; `n`, the length
    when the loop starts, serves consumers that run no code of the user's between elements."""

    def __new__(cls, n, item, et, length):
        self = super().__new__(cls, (n, item, et))
        self.length = length
        return self
