"""Scalar kernels of the kind `script` is for: recurrences, loops, recursion."""

import math


def collatz(n: int) -> int:
    steps = 0
    while n != 1:
        n = n // 2 if n % 2 == 0 else 3 * n + 1
        steps += 1
    return steps


def collatz_total(limit: int) -> int:
    total = 0
    for n in range(1, limit):
        total += collatz(n)
    return total


def poly(x, k):
    acc = 0.0
    for i in range(k, 0, -1):
        acc = acc * x + i
    return acc


def fib(n: int) -> int:
    if n < 2:
        return n
    return fib(n - 1) + fib(n - 2)


def monte_carlo_pi(samples: int, seed: int) -> float:
    state = seed
    inside = 0
    for _ in range(samples):
        state = (state * 1103515245 + 12345) % 2147483648
        x = state / 2147483648.0
        state = (state * 1103515245 + 12345) % 2147483648
        y = state / 2147483648.0
        if x * x + y * y < 1.0:
            inside += 1
    return 4.0 * inside / samples


def newton_sqrt(x: float, iters: int) -> float:
    if x < 0.0:
        raise ValueError("newton_sqrt of a negative number")
    guess = x if x > 1.0 else 1.0
    for _ in range(iters):
        guess = 0.5 * (guess + x / guess)
    return guess - math.sqrt(x)
