"""String functions whose natural implementation is a loop, written in the compiled subset:
building, comparing and searching (strtext.py has the text methods built on these).

Compiled on demand (as listlib's and pylib's are) when user code uses the operation
(frontend/strings.py), and usually inlined. Each behaves exactly like CPython's, messages
included. They work on code points through five intrinsics, which the frontend lowers to
string ops (and which mean the same in Python, for reading):

- ``_new(n)``: a new string of `n` code points (`str_new`), filled with ``_put`` before use;
- ``_code(s, i)``: code point `i` of `s`, in bounds (`str_get`);
- ``_put(s, i, c)``: write code point `c` at `i` of a string from ``_new`` (`str_set`);
- ``_char(c)``: the one-character string of code point `c` (`str_char`);
- ``_py("name", x...)``: what CPython computes (`str_py.name`): Unicode's case mappings and
  character classes, the syntax of numbers, the shortest repr of a float.

Index arguments follow CPython's ADJUST_INDICES: an end beyond the length is the length, a
negative start or end counts from the end (at least 0); a start beyond the length stays.
"""


def _new(n: int) -> str:
    return "\0" * n


def _code(s: str, i: int) -> int:
    return ord(s[i])


def _put(s: str, i: int, c: int) -> None:
    raise NotImplementedError("compiled code only: strings are immutable in Python")


def _char(c: int) -> str:
    return chr(c)


def _py(name: str, *args):
    raise NotImplementedError("compiled code only")


# ---- building ----------------------------------------------------------------------------

def repeat(s: str, n: int) -> str:
    m = len(s)
    if n <= 0 or m == 0:
        return ""
    if n == 1:
        return s
    if m > (1 << 60) // n:
        raise OverflowError("repeated string is too long")
    out = _new(m * n)
    for r in range(n):
        base = r * m
        for i in range(m):
            _put(out, base + i, _code(s, i))
    return out


def slice_of(s: str, start: int, count: int, step: int) -> str:
    """`s[a:b:c]` of a slice already normalized (slice.indices): `count` code points from
    `start` by `step`."""
    if count == len(s) and step == 1:
        return s
    out = _new(count)
    for i in range(count):
        _put(out, i, _code(s, start + i * step))
    return out


def join(sep: str, parts: list[str]) -> str:
    n = len(parts)
    if n == 0:
        return ""
    if n == 1:
        return parts[0]
    ns = len(sep)
    total = ns * (n - 1)
    for k in range(n):
        total += len(parts[k])
    out = _new(total)
    at = 0
    for k in range(n):
        if k > 0:
            for i in range(ns):
                _put(out, at + i, _code(sep, i))
            at += ns
        p = parts[k]
        for i in range(len(p)):
            _put(out, at + i, _code(p, i))
        at += len(p)
    return out


def str_of_int(v: int) -> str:
    if v == 0:
        return "0"
    neg = v < 0
    t = v if neg else -v            # negative: the most negative int64 too
    digits = 0
    u = t
    while u != 0:
        q = u // 10
        if u - q * 10 != 0:         # toward zero
            q += 1
        u = q
        digits += 1
    n = digits + (1 if neg else 0)
    out = _new(n)
    if neg:
        _put(out, 0, 45)
    at = n - 1
    u = t
    while u != 0:
        q = u // 10
        r = u - q * 10
        if r != 0:
            q += 1
            r -= 10
        _put(out, at, 48 - r)
        at -= 1
        u = q
    return out


def star_width(negative: str, positive: str, width: int) -> str:
    """The head of the format() spec of a printf directive with a `*` width (printf.py):
    `positive` (the directive's flags) then the width; for a negative width, as CPython,
    `negative` (the flags with `-`) then -width."""
    if width < 0:
        return negative + str_of_int(-width)
    return positive + str_of_int(width)


def star_precision(precision: int) -> str:
    """The digits of a printf `.*` precision: a negative one is 0, as in CPython."""
    return str_of_int(precision if precision > 0 else 0)


# ---- comparing and searching -------------------------------------------------------------

def compare(a: str, b: str) -> int:
    """-1, 0 or 1 as `a` sorts before, with or after `b` (by code points, as CPython)."""
    na = len(a)
    nb = len(b)
    n = min(na, nb)
    for i in range(n):
        x = _code(a, i)
        y = _code(b, i)
        if x != y:
            return -1 if x < y else 1
    return -1 if na < nb else 1 if na > nb else 0


def adjust(i: int, n: int) -> int:
    """A start or end index as CPython's ADJUST_INDICES makes it (no upper clamp)."""
    if i < 0:
        i += n
        if i < 0:
            i = 0
    return i


def _matches_at(s: str, sub: str, at: int) -> bool:
    for k in range(len(sub)):
        if _code(s, at + k) != _code(sub, k):
            return False
    return True


def find(s: str, sub: str, start: int, end: int) -> int:
    n = len(s)
    m = len(sub)
    start = adjust(start, n)
    end = min(adjust(end, n), n)
    if end - start < m:
        return -1
    if m == 0:
        return start
    first = _code(sub, 0)
    for at in range(start, end - m + 1):
        if _code(s, at) == first and _matches_at(s, sub, at):
            return at
    return -1


def rfind(s: str, sub: str, start: int, end: int) -> int:
    n = len(s)
    m = len(sub)
    start = adjust(start, n)
    end = min(adjust(end, n), n)
    if end - start < m:
        return -1
    for at in range(end - m, start - 1, -1):
        if _matches_at(s, sub, at):
            return at
    return -1


def index(s: str, sub: str, start: int, end: int) -> int:
    k = find(s, sub, start, end)
    if k < 0:
        raise ValueError("substring not found")
    return k


def rindex(s: str, sub: str, start: int, end: int) -> int:
    k = rfind(s, sub, start, end)
    if k < 0:
        raise ValueError("substring not found")
    return k


def contains(s: str, sub: str) -> bool:
    return find(s, sub, 0, len(s)) >= 0


def contains_char(s: str, c: int) -> bool:
    for i in range(len(s)):
        if _code(s, i) == c:
            return True
    return False


def count(s: str, sub: str, start: int, end: int) -> int:
    n = len(s)
    m = len(sub)
    start = adjust(start, n)
    end = min(adjust(end, n), n)
    if end - start < m:
        return 0
    if m == 0:
        return end - start + 1
    c = 0
    at = start
    while at <= end - m:
        if _matches_at(s, sub, at):
            c += 1
            at += m
        else:
            at += 1
    return c


def startswith(s: str, prefix: str, start: int, end: int) -> bool:
    n = len(s)
    m = len(prefix)
    start = adjust(start, n)
    end = min(adjust(end, n), n)
    if end - m < start:
        return False
    return _matches_at(s, prefix, start)


def endswith(s: str, suffix: str, start: int, end: int) -> bool:
    n = len(s)
    m = len(suffix)
    start = adjust(start, n)
    end = min(adjust(end, n), n)
    if end - m < start:
        return False
    return _matches_at(s, suffix, end - m)


def startswith_any(s: str, prefixes, start: int, end: int) -> bool:
    """s.startswith(tuple(prefixes)): a list of strs made a tuple where it is used."""
    for p in prefixes:
        if startswith(s, p, start, end):
            return True
    return False


def endswith_any(s: str, suffixes, start: int, end: int) -> bool:
    for p in suffixes:
        if endswith(s, p, start, end):
            return True
    return False
