"""Shadows of arrays that live for one loop iteration, made in the reverse sweep.

An array made in a loop (``v = u.copy()`` each time step; the temporaries of
``np.tanh(W @ h + U @ x)``) has a zeroed shadow beside it. Made in the forward sweep, as the
others are, one shadow per iteration waits on a list for the reverse: the heat equation's
time loop allocated and zeroed 500 of them a call, and malloc and free of the 1,000 arrays
then alive (the copies and their shadows) took a third of the gradient's time. When the
array is used only by loads and stores (and `dim`) in the loop that makes it, and its length
is known before the loop, no iteration reads another's: its shadow is needed only from where
the reverse sweep enters the reverse of an iteration to where it leaves it. It is then a
variable of the reverse sweep (like an adjoint), set to a new zeroed array at each entry:
along the loop's back edges and where the reverse enters the loop from an exit (except an
exit from the header, which makes none of these arrays, unless it is the block that
allocates). One array is then allocated and freed per iteration, reusing the same memory,
and nothing waits on a list.

Requires: the builder's loops (script.autodiff.adjoint `_Builder.loops`) and availability.
"""

from __future__ import annotations

from script.ir.core import Block, Instr, Value
from script.autodiff.activity import is_float_array
from script.autodiff.tape import zeros_function

USES = frozenset(("load", "store", "dim", "stride"))     # what such an array may be used by


class _Shadow:
    __slots__ = ("array", "loop", "var")

    def __init__(self, array: Instr, loop, var: Value):
        self.array, self.loop, self.var = array, loop, var


class IterationShadows:
    """The arrays of one adjoint's build (`rx`: its script.autodiff.adjoint._Builder) whose
    shadows are made in the reverse sweep."""

    def __init__(self, rx):
        self.rx = rx
        self.by_var: dict[int, _Shadow] = {}
        self.entries: list[tuple[Block, Block, _Shadow]] = []    # (reverse block, fwd, which)
        self.read: set[int] = set()

    def find(self, blocks: list[Block]) -> None:
        """Give each eligible `alloc` of `blocks` a variable as its shadow (rx.shadow)."""
        rx = self.rx
        for b in blocks:
            loop = next((l for l in rx.loops if b in l.blocks), None)
            if loop is None:
                continue
            for i in rx.orig_instrs[b]:
                if i.opname != "alloc" or not is_float_array(i.type):
                    continue
                if not all(rx.available(d) for d in i.operands):
                    continue
                if not all(u.opname in USES and u.operands[0] is i and u.block in loop.blocks
                           for u in i.uses):
                    continue
                var = Value(i.type)
                self.by_var[id(var)] = _Shadow(i, loop, var)
                rx.shadow[id(i)] = var

    def is_shadow(self, v: Value) -> bool:
        return id(v) in self.by_var

    def loop_of(self, v: Value):
        """The loop whose iterations make shadow `v` (None for another shadow)."""
        s = self.by_var.get(id(v))
        return s.loop if s is not None else None

    def value(self, v: Value) -> Value:
        """Shadow variable `v` in the block being built."""
        self.read.add(id(v))
        return self.rx.read(v)

    def transfer(self, b: Block, pred: Block) -> None:
        """The reverse of `b` leaves for the reverse of `pred` from the block being built: a
        new shadow where that enters an iteration of a shadow's loop."""
        for s in self.by_var.values():
            blocks, header = s.loop.blocks, s.loop.header
            back = b is header and pred in blocks
            entry = pred in blocks and b not in blocks and \
                (pred is not header or s.array.block is header)
            if back or entry:
                self.entries.append((self.rx.cur, self.rx.cur_fwd, s))

    def finish(self) -> None:
        """Make the shadows that the reverse sweep reads where it enters their iterations
        (before the pops and the joining of variables: the blocks' ends are known then)."""
        rx = self.rx
        for block, fwd, s in self.entries:
            if id(s.var) not in self.read:
                continue
            rx.cur, rx.cur_fwd = block, fwd
            a = s.array
            z = rx.emit("call", list(a.operands), a.type.with_layout("C"),
                        zeros_function(a.type, rx.cache))
            rx.write(s.var, z)
