"""`match` statements (script/frontend/match.py): functions run in CPython and compiled."""

import enum
import math
from dataclasses import dataclass
from typing import NamedTuple


class Point(NamedTuple):
    x: int
    y: int


@dataclass
class Vec:
    x: float
    y: float


class Color(enum.IntEnum):
    RED = 1
    GREEN = 2


class Limits:
    LOW = -5
    NAME = "lim"


def classify(n):
    match n:
        case 0:
            return "zero"
        case 1 | 2 | 3:
            return "small"
        case -1:
            return "minus one"
        case x if x > 100:
            return "big " + str(x)
        case Limits.LOW:
            return "low"
        case Color.GREEN:
            return "green"
        case _:
            return "other"


def tokenize(s):
    out = []
    num = 0
    innum = False
    for c in s:
        match c:
            case "0" | "1" | "2" | "3" | "4" | "5" | "6" | "7" | "8" | "9":
                num = num * 10 + ord(c) - 48
                innum = True
                continue
            case " ":
                pass
            case "+" | "-" | "*" | "/" | "(" | ")" as op:
                if innum:
                    out.append(str(num))
                    num = 0
                    innum = False
                out.append(op)
                continue
            case _:
                raise ValueError(f"bad character {c!r}")
        if innum:
            out.append(str(num))
            num = 0
            innum = False
    if innum:
        out.append(str(num))
    return out


def interpret(prog):
    x = 0
    y = 0
    for line in prog.split(";"):
        match line.split():
            case ["move", "up", n]:
                y += int(n)
            case ["move", "down", n]:
                y -= int(n)
            case ["move", d, n] if d in ("left", "right"):
                x += int(n) if d == "right" else -int(n)
            case ["reset"]:
                x, y = 0, 0
            case ["stop", *_]:
                break
            case []:
                continue
            case ["echo", *words]:
                x += len(words)
            case other:
                raise ValueError("unknown command: " + " ".join(other))
    return x, y


def shape_area(kind, a, b):
    match (kind, a, b):
        case ("circle", r, _):
            return math.pi * r * r
        case ("rect", w, h) | ("box", w, h):
            return w * h
        case ("square", s, _) if s >= 0:
            return s * s
        case _:
            return -1.0


def pair_kind(a, b):
    match (a, b):
        case (0, 0):
            return "origin"
        case (0, _) | (_, 0):
            return "axis"
        case (x, y) if x == y:
            return "diagonal"
        case (x, y) if x == -y:
            return "anti-diagonal"
    return "plain"


def float_literals(x):
    match x:
        case 0.0:
            return 1
        case 1.5 | -2.5:
            return 2
        case 3:
            return 3
        case math.inf:
            return 4
    return 0


def optional_subject(n, limit):
    best = None
    for i in range(n):
        if i * i > limit:
            best = i
            break
    match best:
        case None:
            return -1
        case 4:
            return 40
        case v:
            return v


def builtin_classes(x):
    match x:
        case bool(b):
            return 100 + int(b)
        case int(n) if n < 0:
            return -1
        case int(n):
            return n * 2
        case float() as f:
            return int(f) + 1000
        case str(s):
            return len(s)
    return 0


def dataclass_patterns(a, b):
    match Vec(a, b):
        case Vec(0.0, 0.0):
            return "zero"
        case Vec(x=0.0):
            return "y axis"
        case Vec(xx, 0.0):
            return "x axis at " + str(xx)
        case Vec(x, y) if x > y:
            return "below"
        case Vec():
            return "above"
    return "?"


def named_tuple_patterns(a, b):
    match Point(a, b):
        case Point(0, 0):
            return 0
        case Point(x, 0) | Point(0, x):
            return x
        case Point(x=x, y=y) if x > y:
            return x - y
        case Point(y=y):
            return y * 10
    return -99


def nested_sequences(rows):
    match rows:
        case [[a, b], [c, d]]:
            return a * d - b * c
        case [[a], *rest]:
            return a + len(rest)
        case [[], [*inner]]:
            return len(inner)
        case [first, *middle, last]:
            return len(first) + len(last) + len(middle)
        case _:
            return 0


def list_heads(xs):
    match xs:
        case []:
            return "empty"
        case [x]:
            return f"one {x}"
        case [x, y]:
            return f"two {x + y}"
        case [first, *rest, 0]:
            return f"ends in zero after {first} and {len(rest)} more"
        case [first, *_]:
            return f"starts {first}"
    return "?"


def tuple_star(a, b, c):
    match (a, b, c, 1.5):
        case (0, *rest):
            return float(len(rest))
        case (x, *rest, 1.5) if x > 0:
            return x + len(rest)
        case _:
            return -1.0


def mappings(op, arg):
    d = {"op": op, "arg": arg}
    match d:
        case {"op": 0}:
            return "nop"
        case {"op": 1, "arg": a} if a > 0:
            return "inc " + str(a)
        case {"op": 2, "zzz": _}:
            return "never"
        case {"op": o, **rest}:
            return f"op {o} with {rest}"
    return "?"


def strs_are_not_sequences(s):
    match s:
        case [a, b]:
            return "sequence"
        case "ab":
            return "the str ab"
        case str() if len(s) == 2:
            return "a str of two"
    return "other"


def no_case_matches(n):
    r = 0
    match n:
        case 1:
            r = 10
        case 2:
            r = 20
    return r


def in_a_loop(n):
    total = 0
    for i in range(n):
        match i % 4:
            case 0:
                continue
            case 1:
                total += 1
            case 2 if total > 3:
                break
            case _:
                total += 10
    return total


def mixed_tuples(k):
    items = [("int", k, 0.0), ("float", 0, 1.5), ("neg", -k, 2.0), ("other", 1, 1.0)]
    total = 0.0
    for it in items:
        match it:
            case ("int", n, _):
                total += n
            case ("float", _, f):
                total += f
            case (_, n, f) if n < 0:
                total -= f
    return total


def singletons(b):
    match b:
        case True:
            return 1
        case False:
            return 0
    return -1


def int_is_not_true(n):
    match n:
        case True:
            return "true"
        case 1:
            return "one"
        case None:
            return "none"
    return "other"


def guard_raises(n):
    match n:
        case x if 10 // x > 2:
            return x
        case _:
            return -1


def _pairs(words):
    for w in words:
        match w.split("="):
            case [k, v]:
                yield k + ":" + v
            case [single]:
                yield single
            case _:
                yield "?"


def in_a_generator(words):
    return [t for t in _pairs(words)]


@dataclass
class Machine:
    state: str
    count: int

    def step(self, event):
        match (self.state, event):
            case ("idle", "start"):
                self.state = "run"
            case ("run", "tick"):
                self.count += 1
            case ("run", "stop"):
                self.state = "idle"
            case (_, "reset"):
                self.state = "idle"
                self.count = 0


def in_a_method(events):
    m = Machine("idle", 0)
    for e in events:
        m.step(e)
    return m.state, m.count
