"""Kernels of test_messages.py, in a module of their own: pytest rewrites the `assert`s of
test modules, messages included."""


def fstrings(n, x, b):
    if n % 5 == 0:
        raise ValueError(f"n={n}, x={x}, b={b}, {x:.3f} {x:e} {x:.10g} {n:.2f} {x!r} {n!s} 100%")
    if n % 5 == 1:
        raise IndexError("n={} x={:.2g} named {k} {}".format(n, x, b, k=b))
    if n % 5 == 2:
        raise KeyError("n=%d x=%s %.4f %r %s %i %d %% done %e" % (n, x, x, b, n, n, b, x))
    if n % 5 == 3:
        raise ArithmeticError(x)
    assert n < 40, f"n too big: {n} (x={x}, é)"
    raise RuntimeError(b)


def lazy_assert(n, d):
    # the message is computed only when the assertion fails: 1 // d raises only then
    assert n >= 0, f"negative: {n} {1 // d}"
    return n


def small_ints(a, b):
    x = a * 2
    if x > 100:
        raise OverflowError(f"{a} {b} {x} {a + b}")
    return x


def printing(n, x, b):
    print("start", n, x, b)
    s = 0.0
    for i in range(n):
        s += x * i
        if i % 3 == 0:
            print(f"i={i} s={s:.3f} {s}", i > 1, sep=" | ", end=";\n")
    print("done:", s, "é", n % 7, sep="")
    print()
    print("%d items, %.2e" % (n, s), end="")
    print("")
    return s


def string_parts(n):
    if n > 2:
        raise ValueError(f"{'big'} {'n'!r} {n}" + " and " + str(n * 0.5) + repr(n > 3) + "%")
    if n > 1:
        raise ValueError("%s=%r (%d)" % ("n", "two", n))
    if n > 0:
        raise ValueError("{} {!r} {}".format("one", "x", n))
    return n


def type_texts(x, n):
    """str(type(x)) in f-strings, str() and exception messages: CPython's <class '...'>, of
    the class the value holds (an int|float value's, an optional's)."""
    v = n if n > 0 else 0.5
    m = n if n > 1 else None
    if isinstance(x, str):
        raise TypeError(f"Expected a number, found {type(x)!r}")
    msg = f"{type(x)} {type(v)} {type(m)}"
    return msg, str(type([n])), str(type((n, x))), str(type(msg))
