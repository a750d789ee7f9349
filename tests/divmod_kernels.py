"""Kernels for tests/test_unsigned_divmod.py (in a file: the compiler reads source): int `//`
and `%` whose operands' signs the `ranges` pass proves (then computed unsigned) next to the
same operations on operands of either sign, and running sums moved by small values."""


def lcg(n, seed):
    state = seed
    total = 0
    for _ in range(n):
        state = state * 48271 % 2147483647
        total += state % 10
    return total


def lcg_any_modulus(n, seed, m):
    state = seed
    total = 0
    for _ in range(n):
        state = state * 7 % m
        total += state % 10 + state // 3
    return total


def mod_of_mod(x, k):
    r = x % 1000003
    if k > 0:
        return r // k, r % k
    return x // k, x % k


def length_divmod(a, k):
    n = a.shape[0]
    if k >= 1:
        return n // k, n % k
    return n // k, n % k


def masked_divmod(x, d):
    y = x & 0xFFFF
    if d > 0:
        return y // d, y % d + (y + 5) // 6
    return y // d, y % d


def small_steps(x, n):
    total = 0
    for i in range(n):
        total += (x + i) % 10
        total -= (x - i) % 3
    return total
