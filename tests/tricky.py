"""SSA construction corner cases."""

G = 7


def shadow_global(x):
    if x > 0:
        G = 3
    return G


def widen_in_nested(n):
    acc = 0
    for i in range(n):
        for j in range(i):
            if j == 3:
                acc = acc / 2
            acc += j
    return acc


def carry_tuple(n):
    t = (0, 0.0)
    for i in range(n):
        t = (t[0] + i, t[1] + 0.5 * i)
    return t


def last_assigned(n):
    found = -1
    for i in range(n):
        if i * i > 50:
            found = i
            break
    return found, i if n > 0 else -2


def while_else_break(n):
    i = 0
    while i < n:
        j = 0
        while j < i:
            if i * j == 12:
                break
            j += 1
        else:
            i += 1
            continue
        return i, j
    else:
        return -1, -1


def assigned_later_in_loop(n):
    total = 0
    for i in range(n):
        if i > 0:
            total += prev
        prev = i * 2
    return total


def swap_chain(a, b, c):
    for _ in range(5):
        a, b, c = b, c, a + b + c
    return a, b, c


def cond_in_loop_header(n):
    i = 0
    while i < n and i * i != 49 or i == 100:
        i += 1
        if i > 1000:
            break
    return i


def nested_ifexp(x):
    return 1 if x > 10 else 2 if x > 5 else 3.5 if x > 0 else -x


def reassign_param(n):
    n = n * 2
    n += 1
    if n > 10:
        n = n - 100
    return n


def loop_var_type_change(n):
    x = 1
    for i in range(n):
        x = x * 1.5 if i % 2 else x + 1
    return x


def deep_nesting(n):
    s = 0
    for a in range(n):
        for b in range(a):
            for c in range(b):
                if (a + b + c) % 4 == 0:
                    continue
                if c > 5:
                    break
                s += a * b - c
    return s
