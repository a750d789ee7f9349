"""`Loop`: where ``break`` and ``continue`` jump in a loop being lowered (the lowering's
`loops`, innermost last). A leaf: lower_stmt and generators (``for`` over a generator) both
push one, and lower_stmt imports generators.
"""

from __future__ import annotations


class Loop:
    """The blocks a ``break`` (`break_to`) and a ``continue`` (`continue_to`) jump to."""

    __slots__ = ("break_to", "continue_to")

    def __init__(self, break_to, continue_to):
        self.break_to = break_to
        self.continue_to = continue_to
