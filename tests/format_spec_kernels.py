"""Kernels for test_format_specs.py: format specs made at run time (`f"{x:{w}}"`,
`"{:{}}".format(x, w)`) in values, prints and raise messages."""


def fstring_specs(x: int, y: float, s: str, w: int, p: int):
    return f"{x:{w}}|{y:>{w}.{p}f}|{s:^{w}}|{x:0{w}d}|{y:{w}}"


def format_specs(x: int, y: float, s: str, w: int, p: int):
    return ("{:{}}".format(x, w), "{0:0{1}b}".format(x, w), "{:>{w}.{p}f}".format(y, w=w, p=p),
            "{!r:{}}|{:{}}".format(s, w, x, "x"), "{2:{0}.{1}e}".format(w, p, y))


def spec_text(v: float, spec: str):
    return f"{v:{spec}}", "{:{}}".format(int(v), spec), "{:{}}".format(str(v), spec)


def raise_with_spec(x: int, w: int):
    if x > 50:
        raise ValueError("bad {:{}} here".format(x, w))
    if x > 10:
        raise ValueError(f"bad {x:>{w}} here")
    return x


def print_with_spec(x: int, w: int):
    print("{:{width}}".format(x, width=w), end=" ")
    print(f"[{x:^{w}}]", "{0:{1}}".format("ab", w))
    return x


def mixed_numbering(x: int):
    return "{0}{}".format(x, x)


def nested_too_deep(x: int):
    return "{:{:{}}}".format(x, 2, 3)
