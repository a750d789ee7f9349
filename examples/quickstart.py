"""`@script` in a few lines: annotated functions compile when decorated, unannotated ones once
per argument-type signature; every stage of the IR can be printed."""

import script


@script.script
def collatz(n: int) -> int:
    steps = 0
    while n != 1:
        n = n // 2 if n % 2 == 0 else 3 * n + 1
        steps += 1
    return steps


@script.script
def poly(x, k):
    acc = 0.0
    for i in range(k, 0, -1):
        acc = acc * x + i
    return acc


if __name__ == "__main__":
    print("collatz(27) =", collatz(27))
    print("poly(0.5, 10) =", poly(0.5, 10), " poly(2, 3) =", poly(2, 3))
    print("signatures of poly:", poly.signatures)
    print("--- typed SSA from the frontend ---")
    print(collatz.ir("ssa"))
    print("--- after script's passes ---")
    print(collatz.ir("opt"))
