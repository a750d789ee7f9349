"""Sliding windows of a shadow array in the reverse of a counted loop: the adjoints a stencil's
loads add into their array's shadow, kept in variables instead of memory.

A counted innermost loop (a `_Counter` stepping by one) that reads an array only as
``a[i + c]`` for a few constants c, and never writes it, adds in its reverse ``g`` into
``da[i + c]`` for each read, every iteration. Done in memory, each element of `da` is loaded,
added to and stored back once per read that touches it, in consecutive iterations: a chain of
store-to-load forwardings that LLVM does not remove (the in-place heat equation's reverse ran
at one element per ~10 cycles, latency-bound). Here each offset c has a *slot*, a variable of
the reverse sweep (like an adjoint) holding what has been added to ``da[i + c]`` for the
iteration being undone; where the reverse of an iteration ends, the slot whose element no
iteration still to undo (earlier in time) reads is added into memory (`retire`); when the
reverse steps the counter back, the others shift by one and a new slot starts at zero;
leaving the loop's reverse adds all of them. Each element of `da` is then loaded and stored
once per run of the loop, and the slots are values carried from one iteration to the next,
which LLVM vectorizes (a fixed-order recurrence).

The sums are the same numbers added in another order (``da[e] + (g1 + g2 + g3)`` rather than
``((da[e] + g1) + g2) + g3``): a gradient has no CPython result to match (its additions are
`acc`, which LLVM may regroup further).
"""

from __future__ import annotations

from script.ir import types as T
from script.ir.core import BlockParam, Const, Instr, Value


class Windows:
    """The slots of one adjoint's build (`rx`: its script.autodiff.adjoint._Builder)."""

    def __init__(self, rx):
        self.rx = rx
        self.plans: dict[tuple, bool] = {}          # (id(counter), id(array)) -> eligible
        # id(counter) -> {id(shadow): (shadow, {offset: slot variable})}
        self.slots: dict[int, dict[int, tuple[Value, dict[int, Value]]]] = {}

    def add(self, load: Instr, g: Value) -> bool:
        """Add `g` into the slot of `load`'s element, when it has one. Whether it did."""
        rx = self.rx
        if len(load.operands) != 2:
            return False
        loop = next((l for l in rx.loops if load.block in l.blocks), None)
        c = next((c for c in rx.counters.values() if c.loop is loop), None) if loop else None
        if c is None or _unit_step(c) is None:
            return False
        arr, idx = load.operands
        off = _offset(idx, c.param)
        if off is None or not self._eligible(c, arr):
            return False
        sh = rx.shadow[id(arr)]
        _, slots = self.slots.setdefault(id(c), {}).setdefault(id(sh), (sh, {}))
        var = slots.get(off)
        if var is None:
            var = slots[off] = Value(load.type)
        cur = rx.read(var)
        rx.write(var, g if cur is rx.zero(load.type) else rx.emit("acc", [cur, g]))
        return True

    def step(self, c, leaving: bool) -> None:
        """Where the reverse of `c`'s loop steps its counter back (before the step) or leaves
        the loop, after `retire`: add the other slots into memory when leaving, else shift
        them."""
        rx = self.rx
        for sh, slots, s, i in self._windows_of(c):
            old = {off: rx.read(var) for off, var in slots.items() if off + s in slots}
            for off, var in slots.items():
                if leaving and off in old:
                    self._flush(sh, i, off, old[off])
                src = off - s
                rx.write(var, old[src] if not leaving and src in old else rx.zero(var.type))

    def retire(self, c) -> None:
        """Where the reverse of `c`'s loop has undone an iteration, before it tests whether
        to step back or leave: add into memory the slots that both would (the elements the
        iterations still to undo do not read), and zero them. Done here rather than on the
        back edge, the additions come last in the iteration, after the slots' new values are
        computed, which makes each slot a recurrence LLVM's vectorizer takes (a value carried
        from one iteration to the next and read after the next one's is made)."""
        rx = self.rx
        for sh, slots, s, i in self._windows_of(c):
            for off, var in slots.items():
                if off + s not in slots:
                    self._flush(sh, i, off, rx.read(var))
                    rx.write(var, rx.zero(var.type))

    def _windows_of(self, c) -> list:
        """``(shadow, slots, step, counter value)`` for each shadow with slots in `c`'s loop."""
        per_shadow = self.slots.get(id(c))
        if not per_shadow:
            return []
        i = self.rx.read(c.var)
        return [(sh, slots, _unit_step(c), i) for sh, slots in per_shadow.values()]

    def _flush(self, sh: Value, i: Value, off: int, d: Value) -> None:
        rx = self.rx
        if d is rx.zero(d.type):
            return
        idx = i if off == 0 else rx.emit("add", [i, Const(off, T.I64)])
        rx.add_into(rx.primal(sh), [idx], d)

    def _eligible(self, c, arr: Value) -> bool:
        """Whether every access in `c`'s loop to what `arr` may view is a read of `arr` itself
        at ``i + constant``, the loop calls nothing, and `arr`'s shadow is made outside it."""
        key = (id(c), id(arr))
        got = self.plans.get(key)
        if got is None:
            got = self.plans[key] = self._check(c, arr)
        return got

    def _check(self, c, arr: Value) -> bool:
        rx = self.rx
        act = rx.act
        if "any" in act.written_roots:
            return False
        sh = rx.shadow.get(id(arr))
        if sh is None or isinstance(sh, (Instr, BlockParam)) and sh.block in c.loop.blocks:
            return False
        made_in = rx.iteration_shadows.loop_of(sh)
        if made_in is not None and made_in.header in c.loop.blocks:
            return False                # a new shadow each iteration of this loop
        roots = act.roots(arr)
        for b in c.loop.blocks:
            for i in rx.orig_instrs[b]:
                if i.opname == "call":
                    return False
                if i.opname not in ("load", "store", "atomic"):
                    continue
                target = i.operands[0]
                if not isinstance(target.type, T.ArrayType) or not (act.roots(target) & roots):
                    continue
                if i.opname != "load" or target is not arr or len(i.operands) != 2 or \
                        _offset(i.operands[1], c.param) is None:
                    return False
        return True


def _unit_step(c) -> int | None:
    """+1 or -1 when every back edge steps counter `c` by it, else None."""
    steps = {s.value for s in c.steps.values()}
    return steps.pop() if len(steps) == 1 and steps <= {1, -1} else None


def _offset(idx: Value, p: Value) -> int | None:
    """c when `idx` is ``p``, ``add p, c`` or ``sub p, c`` (c an int constant), else None."""
    if idx is p:
        return 0
    if isinstance(idx, Instr) and idx.opname in ("add", "sub") and idx.operands[0] is p and \
            isinstance(idx.operands[1], Const) and isinstance(idx.operands[1].value, int):
        k = idx.operands[1].value
        return k if idx.opname == "add" else -k
    return None
