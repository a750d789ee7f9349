"""What the generator knows while it writes one function: the variables in scope, which of
them are certainly assigned, how deep in loops it is, and which functions it may call."""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from .kinds import ArrayT, Elem, TupleT


@dataclass
class Callee:
    """A generated function other functions may call. A recursive one takes its depth bound
    as the first parameter and returns its base case when that is 0 or less."""
    name: str
    params: list            # [(name, type)]
    ret: object
    recursive: bool = False
    loop_nest: int = 0      # deepest loop nesting in its body (calls inside loops cost more)


@dataclass
class FuncCtx:
    name: str
    params: list
    ret: object
    callees: list
    recursive: bool = False
    types: dict = field(default_factory=dict)       # every variable's one type
    defined: set = field(default_factory=set)       # certainly assigned here
    maybe: set = field(default_factory=set)         # assigned on some path only
    loop_depth: int = 0
    loop_nest: int = 0
    counter: int = 0
    budget: int = 24                                # statements left to write
    unbound_reads: bool = False                     # read maybe-unassigned variables too
    early_returns: int = 0                          # `return`s written before the last
    ret_arrays: list = field(default_factory=list)  # main's array parameters it also returns
    frozen: set = field(default_factory=set)        # container types whose size stays put here

    def __post_init__(self):
        for name, t in self.params:
            self.types[name] = t
            self.defined.add(name)

    def fresh(self, prefix: str, t) -> str:
        self.counter += 1
        name = f"{prefix}{self.counter}"
        self.types[name] = t
        return name

    def readable(self, rng: random.Random, want) -> list:
        """Variables of type `want` that may be read here; now and then one that is only
        maybe assigned (CPython and compiled code then both raise UnboundLocalError)."""
        names = [n for n in self.defined if self.types[n] == want]
        if self.unbound_reads and rng.random() < 0.03:
            names += [n for n in self.maybe if self.types[n] == want and n not in self.defined]
        return sorted(names)

    def of_kind(self, cls) -> list:
        return sorted(n for n in self.defined if isinstance(self.types[n], cls))

    def arrays(self, ndim: int | None = None) -> list:
        return [n for n in self.of_kind(ArrayT) if ndim is None or self.types[n].ndim == ndim]

    def elems(self) -> list:
        return self.of_kind(Elem)

    def tuples(self) -> list:
        return self.of_kind(TupleT)

    def resizable(self, t) -> bool:
        """Whether a container of type `t` may grow or shrink here: not inside a loop over
        one (CPython's iterator would see the change: an append loops for ever, a removal
        skips an item, a dict or set raises RuntimeError), nor in a helper given one."""
        return t not in self.frozen
