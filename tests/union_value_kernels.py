"""Functions whose values are of types CPython keeps apart (an int or a str, a float or a
tuple...) on different paths, for tests/test_union_values.py; plain Python, compiled by the
tests."""

from __future__ import annotations


def mixed(n):
    return n if n % 3 == 0 else (str(n) if n % 3 == 1 else n * 0.5)


def parse_token(token):
    # TheAlgorithms data_structures/stacks/postfix_evaluation.py: a float or the operator
    if token in ("+", "-", "*", "/"):
        return token
    return float(token)


def evaluate_postfix(tokens):
    stack = []
    for tok in tokens:
        x = parse_token(tok)
        if isinstance(x, str):
            b = stack.pop()
            a = stack.pop()
            if x == "+":
                stack.append(a + b)
            elif x == "-":
                stack.append(a - b)
            elif x == "*":
                stack.append(a * b)
            else:
                stack.append(a / b)
        else:
            stack.append(x)
    return stack[0]


def branch_types(n):
    y = 0
    if n > 2:
        y = "big"
    s = f"{y}!"
    return s, y * 2, str(y), repr(y), y == 0, y != "big", bool(y), y


def conditional(n):
    v = n if n % 2 else str(n)
    return v + v


def subtract(n):
    v = n if n % 2 else str(n)
    return v - 1


def method_on_narrowed(n):
    v = n if n % 2 else "ab" * n
    if isinstance(v, str):
        return v.upper()
    return v


def iterate(n):
    v = [1, 2, n] if n % 2 else "xyz"
    out = []
    for c in v:
        out.append(str(c))
    return out, v[0], len(v), v[-1]


def unpack(n):
    v = (1, "a") if n % 2 else ("b", 2.5)
    a, b = v
    return b, a


def tests(n):
    v = mixed(n)
    return isinstance(v, (int, float)), isinstance(v, str), v is None, not v, type(v).__name__


def numbers(n):
    v = mixed(n)
    if isinstance(v, str):
        return v
    return -v, abs(v), min(v, 3), int(v), str(v), 0 < v < 5, v == 3, v != 2.5


def loop_carried(xs):
    acc = 0
    for x in xs:
        if x < 0:
            acc = "negative"
        elif isinstance(acc, int):
            acc += x
    return acc


def while_state(n):
    v = n
    k = 0
    while v:
        k += 1
        if k > 3:
            v = ""
        elif k == 2:
            v = "go"
    return k, v


def except_value(n):
    try:
        v = 10 // n
    except ZeroDivisionError:
        v = "div"
    return v


def closure(n):
    v = mixed(n)

    def inner():
        return v
    return inner()


def aug_assign(n):
    v = n if n % 2 else str(n)
    v *= 2
    return v


def or_default(n):
    v = mixed(n)
    return v or "empty", v and "set"


def passed_on(n):
    v = mixed(n)
    a = method_on_narrowed(len(str(v)))
    b = conditional(len(str(v)))
    return a, b


def compare_string(string1: str, string2: str) -> str | bool:
    # TheAlgorithms boolean_algebra/quine_mc_cluskey.py: the merged text, or False
    list1 = list(string1)
    list2 = list(string2)
    count = 0
    for i in range(len(list1)):
        if list1[i] != list2[i]:
            count += 1
            list1[i] = "_"
    if count > 1:
        return False
    return "".join(list1)


def check(binary):
    # its caller: a bool or a str from each call, tested with `is False`
    pi = []
    while True:
        check1 = ["$"] * len(binary)
        temp = []
        for i in range(len(binary)):
            for j in range(i + 1, len(binary)):
                k = compare_string(binary[i], binary[j])
                if k is False:
                    check1[i] = "*"
                    check1[j] = "*"
                    temp.append("X")
        for i in range(len(binary)):
            if check1[i] == "$":
                pi.append(binary[i])
        if len(temp) == 0:
            return pi
        binary = list(set(temp))


def power(base, exponent):
    # TheAlgorithms maths/power_using_recursion.py: called with strs, CPython's TypeError
    return base * power(base, (exponent - 1)) if exponent else 1


def returned(n):
    v = mixed(n)
    if n > 4:
        return (v, n)
    return v


def tuple_at(i):
    t = (1, "a", 2.5)
    x = t[i]
    if isinstance(x, str):
        return x * 2
    return x


def star_args_as_text(*args):
    out = []
    for k in range(len(args)):
        out.append(str(args[k]))
    return out


# ---- None beside several types: one alternative is an optional that holds it -------------


def best_so_far(xs):
    # the running maximum of a list of ints and floats (or strs), None while there is none
    best = None
    for x in xs:
        if best is None or x > best:
            best = x
    return best


def smallest_doubled(xs):
    best = None
    for x in xs:
        if best is None or x < best:
            best = x
    if best is None:
        return "empty"
    return best * 2


def last_or_none(xs):
    ys = list(xs)       # (a copy: the test passes one list to both sides)
    return ys.pop() if ys else None


def half_or_none(x):
    # None, an int or a float returned
    if x < 0:
        return None
    if x > 6:
        return x / 2
    return x


def word_or_none(x):
    if x == 0:
        return None
    if x == 1:
        return "one"
    return x


def sum_of_present(n):
    total = 0
    for i in range(-2, n):
        v = half_or_none(i)
        if v is not None:
            total += v
    return total


def holes(xs):
    # a list and a dict holding None beside ints, floats and strs
    out = [x if x != 0 else None for x in xs]
    table = {}
    for i, x in enumerate(xs):
        table[i] = None if i % 2 else x
    return out, table, [repr(v) for v in out]


def run_ops(n):
    # a dispatch table whose functions return values of several types
    ops = {"add": lambda a, b: a + b, "text": lambda a, b: f"{a}:{b}", "half": lambda a, b: a / 2}
    out = []
    for name in ("add", "text", "half"):
        out.append(ops[name](n, 3))
    return out
