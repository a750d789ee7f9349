"""Functions for the save/load tests: scalars, sized ints, tuples, exceptions, recursion,
calls between saved functions, keyword and default arguments. `CALLS` are the calls whose
outcomes (result or exception) must be the same before saving and after loading."""

import math

import script

SCALE = 3


def collatz(n: int) -> int:
    steps = 0
    while n != 1:
        n = n // 2 if n % 2 == 0 else 3 * n + 1
        steps += 1
    return steps


def total(limit: int) -> int:
    t = 0
    for n in range(1, limit):
        t += collatz(n)
    return t


def fib(n: int) -> int:
    if n < 2:
        return n
    return fib(n - 1) + fib(n - 2)


def is_even(n: int) -> bool:
    if n == 0:
        return True
    return is_odd(n - 1)


def is_odd(n: int) -> bool:
    if n == 0:
        return False
    return is_even(n - 1)


def poly(x, k=3):
    acc = 0.0
    for i in range(k, 0, -1):
        acc = acc * x + i * SCALE
    return acc


def pair(x: int) -> tuple[int, float]:
    return x, x / 2


def swap(t: tuple[int, float]) -> tuple[float, int]:
    return t[1], t[0]


def divide(a: int, b: int) -> int:
    return a // b


def root(x: float) -> float:
    if x < 0.0:
        raise ValueError("negative input")
    return math.sqrt(x)


def log_of(x: float) -> float:
    return math.log(x)


def wrap32(a: script.i32, b: script.i32) -> script.i32:
    return a * b


def flag(b: bool) -> int:
    return 1 if b else 0


def nothing(x: int) -> None:
    x += 1


def array_total(a):
    s = 0.0
    for i in range(len(a)):
        s += a[i]
    return s


def array_scale(a, k):
    for i in range(len(a)):
        a[i] *= k


NAMES = ["collatz", "total", "fib", "is_even", "is_odd", "poly", "pair", "swap", "divide",
         "root", "log_of", "wrap32", "flag", "nothing"]

# Unannotated `poly` is compiled for these before saving.
POLY_SIGNATURES = [(float, int), (int, int)]

CALLS = [
    ("collatz", (27,), {}), ("total", (1000,), {}), ("fib", (20,), {}),
    ("is_even", (10,), {}), ("is_odd", (7,), {}),
    ("poly", (2.0,), {}), ("poly", (2,), {"k": 5}), ("poly", (), {"x": 0.5, "k": 2}),
    ("poly", (1.5, 4), {}), ("poly", (b"x",), {}), ("poly", (1.0, 2, 3), {}),
    ("pair", (7,), {}), ("swap", ((1, 2.5),), {}), ("swap", ((1, 2),), {}),
    ("divide", (7, -2), {}), ("divide", (1, 0), {}),
    ("root", (16.0,), {}), ("root", (2,), {}), ("root", (-1.0,), {}), ("root", ("a",), {}),
    ("log_of", (0.0,), {}), ("log_of", (math.e,), {}),
    ("wrap32", (100000, 100000), {}), ("wrap32", (2**40, 1), {}),
    ("flag", (True,), {}), ("flag", (1,), {}),
    ("nothing", (1,), {}),
    ("collatz", (2**64,), {}), ("collatz", (), {"n": 9}), ("collatz", (1,), {"m": 2}),
]


def outcomes(functions: dict, calls=CALLS) -> list:
    """What each call gives: ["ok", repr(result)] or ["raise", type name, message]."""
    out = []
    for name, args, kwargs in calls:
        try:
            out.append(["ok", repr(functions[name](*args, **kwargs))])
        except Exception as e:  # noqa: BLE001 - the outcome is what is compared
            out.append(["raise", type(e).__name__, str(e)])
    return out


def compiled() -> dict:
    """Every function above compiled, for the argument types of `CALLS` and `poly` for
    `POLY_SIGNATURES`, `total` at -O0 (so that its call of `collatz` stays a call)."""
    # (int_overflow="raise": a loaded function has no Python to run an int beyond int64 with)
    fns = {name: script.script(globals()[name], opt=0 if name == "total" else 2, int_overflow="raise")
           for name in NAMES}
    for sig in POLY_SIGNATURES:
        fns["poly"].compile(*sig)
    outcomes(fns)       # the first calls: annotations are hints, so these compile what CALLS passes
    return fns
