"""Realistic scalar functions of the kind users write, compared with CPython."""

import math

EPS = 1e-12
COEFFS = (1.0, -0.5, 0.25, -0.125)


def gcd_loop(a, b):
    while b:
        a, b = b, a % b
    return abs(a)


def is_prime(n):
    if n < 2:
        return False
    if n % 2 == 0:
        return n == 2
    i = 3
    while i * i <= n:
        if n % i == 0:
            return False
        i += 2
    return True


def count_primes(n):
    c = 0
    for k in range(n):
        if is_prime(k):
            c += 1
    return c


def newton(x, tol=1e-10, max_iter=100):
    if x < 0:
        raise ValueError("negative")
    if x == 0:
        return 0.0
    g = x
    for it in range(max_iter):
        nxt = 0.5 * (g + x / g)
        if abs(nxt - g) < tol:
            return nxt
        g = nxt
    return g


def bisect_root(lo, hi, target):
    f_lo = lo * lo * lo - target
    for _ in range(200):
        mid = (lo + hi) / 2
        f_mid = mid * mid * mid - target
        if f_mid == 0 or (hi - lo) / 2 < EPS:
            return mid
        if (f_mid > 0) == (f_lo > 0):
            lo, f_lo = mid, f_mid
        else:
            hi = mid
    return (lo + hi) / 2


def horner(x):
    acc = 0.0
    for c in COEFFS:
        acc = acc * x + c
    return acc


def digits_sum(n):
    n = abs(n)
    s = 0
    while n > 0:
        n, d = divmod(n, 10)
        s += d
    return s


def binomial(n, k):
    if k < 0 or k > n:
        return 0
    k = min(k, n - k)
    r = 1
    for i in range(1, k + 1):
        r = r * (n - k + i) // i
    return r


def ackermann_bounded(m, n):
    if m == 0:
        return n + 1
    if n == 0:
        return ackermann_bounded(m - 1, 1)
    return ackermann_bounded(m - 1, ackermann_bounded(m, n - 1))


def stats3(a, b, c):
    mean = (a + b + c) / 3
    var = ((a - mean) ** 2 + (b - mean) ** 2 + (c - mean) ** 2) / 3
    lo = min(a, b, c)
    hi = max(a, b, c)
    return mean, math.sqrt(var), lo, hi


def fizzbuzz_score(n):
    score = 0
    for i in range(1, n + 1):
        if i % 15 == 0:
            score += 15
        elif i % 5 == 0:
            score += 5
        elif i % 3 == 0:
            score += 3
        else:
            score -= 1
    return score


def first_negative_pair(n):
    for i in range(n):
        for j in range(i):
            if (i * 7 - j * 13) % 11 == 3 and i > j + 2:
                return i, j
    return -1, -1


def logistic_map(r, x0, steps):
    x = x0
    for _ in range(steps):
        x = r * x * (1 - x)
    return x


def clamp_sum(n, lo, hi):
    s = 0
    for i in range(-n, n):
        v = i * i - 3 * i
        s += lo if v < lo else hi if v > hi else v
    return s


def rk4_decay(y0, k, dt, steps):
    y = y0
    t = 0.0
    for _ in range(steps):
        k1 = -k * y
        k2 = -k * (y + 0.5 * dt * k1)
        k3 = -k * (y + 0.5 * dt * k2)
        k4 = -k * (y + dt * k3)
        y += dt / 6.0 * (k1 + 2 * k2 + 2 * k3 + k4)
        t += dt
    return y, t


def bool_arith(a, b):
    return (a > b) + (a == b) * 2 + int(a < b) * 4, True + True, -True


def nested_tuple_ret(x):
    return (x, (x * 2, (x * 3.0,))), ((),)


def countdown(n):
    steps = 0
    while True:
        if n <= 0:
            break
        n -= 3
        steps += 1
    return steps, n


def mixed_merge(n):
    x = 0
    if n > 5:
        x = 2.5
    elif n < 0:
        x = -1
    return x


def early_exit_loop(n):
    total = 0
    i = 0
    while i < n:
        i += 1
        if i % 2:
            continue
        total += i
        if total > 100:
            return total, i
    else:
        total = -total
    return total, i
