"""Functions that read members of IntEnum, IntFlag and StrEnum classes, compiled by
tests/test_enum_members.py and compared with CPython."""

import enum
import sys


class Color(enum.IntEnum):
    RED = 1
    GREEN = 2
    BLUE = 4


class Perm(enum.IntFlag):
    R = 4
    W = 2
    X = 1


class Plain(enum.Enum):
    A = 1


def as_values(n: int):
    return (n + Color.RED, n == Color.GREEN, Color.BLUE > n, [0, 10, 20, 30, 40][Color.GREEN], -Color.RED,
            Color.RED.value, Color.GREEN.name, n in (Color.RED, 3), int(Color.BLUE), range(Color.GREEN)[-1],
            Perm.W.value, n & Perm.R.value)


def as_text(n: int):
    return f"{Color.RED}", str(Color.GREEN) + "!", n * 2


def classify(n: int) -> str:
    match n:
        case Color.GREEN:
            return "green"
        case Color.BLUE:
            return "blue"
        case _:
            return "other"


def table(n: int) -> int:
    counts = [0] * 8
    counts[Color.BLUE.value] += n
    counts[Color.RED.value] += counts[Color.BLUE] + 1
    return sum(counts)


def key_written(n: int):
    d = {}
    d[Color.RED] = n
    return d


def returns_member():
    return Color.RED


def member_in_variable():
    c = Color.GREEN
    return c + 1


def repr_of_member():
    return repr(Color.RED)


def identity(n: int) -> bool:
    return Color.RED is n


def flags():
    return Perm.R | Perm.W


def plain_member():
    return Plain.A


def takes_member(c):
    return c + 1


class Name(str):
    pass


class Count(int):
    pass


def passed_through(x):
    return x
