"""The README's quick-start example, as a file for `scriptc` (see docs/cli.md)."""

import script


@script.script
def collatz(n: int) -> int:          # annotated: compiled when decorated
    steps = 0
    while n != 1:
        n = n // 2 if n % 2 == 0 else 3 * n + 1
        steps += 1
    return steps


@script.script
def poly(x, k):                       # unannotated: one specialization per argument-type signature
    acc = 0.0
    for i in range(k, 0, -1):
        acc = acc * x + i
    return acc


collatz(27); poly(0.5, 10); poly(2, 3)   # (int, int) is a second specialization
