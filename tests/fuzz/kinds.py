"""The generator's types: what each generated expression and variable holds.

The generator keeps every variable at one type for the whole function. Ints and floats
still meet, where compiled code keeps CPython's types (docs/language.md, "Ints and floats"):
`NUM` is a value or variable that is an int on some paths and a float on others, and a
`ListT(NUM)` or `DictT(_, NUM)` holds both (containers.py). Array elements are NumPy scalars in
CPython, whose arithmetic differs from Python's (`np.int64(1) // 0` is 0, a float32 operand
keeps a Python float at float32), so an element is only ever used through `int(...)`,
`float(...)` or `bool(...)`: `Elem` marks a variable bound to one (`for x in a`).
"""

from __future__ import annotations

from dataclasses import dataclass

INT, FLOAT, BOOL = "int", "float", "bool"
SCALARS = (INT, FLOAT, BOOL)
NUMBERS = (INT, FLOAT)
STR = "str"
NUM = "num"             # an int on some paths, a float on others (docs/language.md)

DTYPES = ("int64", "int32", "int8", "uint8", "float64", "float32", "bool")


@dataclass(frozen=True)
class TupleT:
    items: tuple


@dataclass(frozen=True)
class ListT:
    elem: object


@dataclass(frozen=True)
class DictT:
    key: object
    value: object


@dataclass(frozen=True)
class SetT:
    elem: object


CONTAINERS = (ListT, DictT, SetT)


@dataclass(frozen=True)
class ArrayT:
    dtype: str
    ndim: int


@dataclass(frozen=True)
class Elem:
    """A NumPy scalar of `dtype` (bound by iterating over an array)."""
    dtype: str


def elem_kind(dtype: str) -> str:
    """The Python scalar type an element of `dtype` converts to."""
    if dtype == "bool":
        return BOOL
    return FLOAT if dtype.startswith("float") else INT


def is_scalar(t) -> bool:
    return t in SCALARS
