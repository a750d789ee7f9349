"""Functions for the API tests (compiled functions need their source in a file)."""

import script


def add(a, b):
    return a + b


def scale(x: float, k: int) -> float:
    return x * k


def narrow(a: script.i32, b: script.i32) -> script.i32:
    return a * b + 1


def unsigned(a: script.u8) -> script.u8:
    return a + 250


def single(x: script.f32) -> script.f32:
    return x * 3.0 + 1.0


def mixed(a: script.i16, b: script.u16):
    return a + b


def flag(b: bool) -> int:
    return 1 if b else 0


def nothing(x: int) -> None:
    x += 1


def pair(x: int) -> tuple[int, float]:
    return x, x / 2


def raiser(x: int) -> int:
    if x < 0:
        raise ValueError("negative")
    return x


def spin(n: int) -> int:
    s = 0
    for i in range(n):
        s += i % 7
    return s


def sized_ops(a: script.i32, b: script.i32):
    return a + b, a - b, a * b, a // 7, a % 7, a & b, a | b, a ^ b, -a, a < b


def unsigned_ops(a: script.u16, b: script.u16):
    return a + b, a - b, a * b, a // 3, a % 3, a >> 2, a << 3, a > b


def single_ops(x: script.f32, y: script.f32):
    return x + y, x * y, x - y, x * 2.0, x / 3.0


def mutual_a(n: int) -> float:
    if n <= 0:
        return 0.5
    return 1.0 / (1.0 + mutual_b(n - 1))


def mutual_b(n: int) -> float:
    if n <= 0:
        return 0.25
    return mutual_a(n - 1) * 0.5 + mutual_a(0)


def lists_down(n: int, xs: list[int]) -> int:
    """A list made by every frame and live across its call: a RecursionError raised
    before a call releases it (n < 0 recurses without end)."""
    if n == 0:
        return len(xs)
    ys = [n, xs[0]]
    return lists_down(n - 1, ys) + ys[1] - xs[0]


def tail_even(n):
    """Tail calls only: LLVM would make a loop of them, which for n < 0 never ends (or
    wraps around) where CPython raises RecursionError."""
    if n == 0:
        return True
    return tail_odd(n - 1)


def tail_odd(n):
    if n == 0:
        return False
    return tail_even(n - 1)


def tail_count(n, acc):
    if n == 0:
        return acc
    return tail_count(n - 1, acc + 1)
