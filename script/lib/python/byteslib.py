"""Bytes operations that are loops, written in the compiled subset (as strlib.py's are).

In compiled code a bytes value is the text object of its bytes as code points (each < 256;
types.BytesType, docs/strings.md "Bytes"): these functions take and give it as a `str` of
those code points, which the frontend (bytes_values.py) converts from and to `bytes` (the
same object). Each behaves exactly like CPython's bytes method, messages included; the
character classes, case mappings (strtext.ascii_lower, ...) and whitespace are ASCII's, as
CPython's bytes have them.
"""

from script.lib.python.strlib import _code, _new, _put, slice_of
from script.lib.python.strtext import is_ascii_space


def _hex_digit(c: int) -> int:
    """The value of hex digit `c` (either case), or -1."""
    if 48 <= c <= 57:
        return c - 48
    if 97 <= c <= 102:
        return c - 87
    if 65 <= c <= 70:
        return c - 55
    return -1


def from_ints(xs: list[int]) -> str:
    n = len(xs)
    out = _new(n)
    for i in range(n):
        x = xs[i]
        if x < 0 or x > 255:
            raise ValueError("bytes must be in range(0, 256)")
        _put(out, i, x)
    return out


def zeros(n: int) -> str:
    if n < 0:
        raise ValueError("negative count")
    out = _new(n)
    for i in range(n):
        _put(out, i, 0)
    return out


def from_hex(s: str) -> str:
    n = len(s)
    for i in range(n):          # text beyond ASCII: the first such character is the error
        if _code(s, i) >= 128:
            raise ValueError(f"non-hexadecimal number found in fromhex() arg at position {i}")
    out = _new(n // 2)
    k = 0
    i = 0
    while i < n:
        c = _code(s, i)
        if is_ascii_space(c):
            i += 1
            continue
        hi = _hex_digit(c)
        if hi < 0:
            raise ValueError(f"non-hexadecimal number found in fromhex() arg at position {i}")
        lo = _hex_digit(_code(s, i + 1)) if i + 1 < n else -1
        if lo < 0:
            raise ValueError(f"non-hexadecimal number found in fromhex() arg at position {i + 1}")
        _put(out, k, hi * 16 + lo)
        k += 1
        i += 2
    return slice_of(out, 0, k, 1)


def hex_of(s: str) -> str:
    digits = "0123456789abcdef"
    n = len(s)
    out = _new(2 * n)
    for i in range(n):
        c = _code(s, i)
        _put(out, 2 * i, _code(digits, c >> 4))
        _put(out, 2 * i + 1, _code(digits, c & 15))
    return out


def repr_of(s: str) -> str:
    """repr(b): CPython's bytes_repr (single quotes unless the bytes hold one and no double)."""
    n = len(s)
    quote = 39
    for i in range(n):
        if _code(s, i) == 39:
            quote = 34
    for i in range(n):
        if _code(s, i) == 34:
            quote = 39
    size = 3
    for i in range(n):
        c = _code(s, i)
        if c == quote or c == 92 or c == 9 or c == 10 or c == 13:
            size += 2
        elif c < 32 or c >= 127:
            size += 4
        else:
            size += 1
    out = _new(size)
    _put(out, 0, 98)
    _put(out, 1, quote)
    k = 2
    digits = "0123456789abcdef"
    for i in range(n):
        c = _code(s, i)
        if c == quote or c == 92:
            _put(out, k, 92)
            _put(out, k + 1, c)
            k += 2
        elif c == 9 or c == 10 or c == 13:
            _put(out, k, 92)
            _put(out, k + 1, 116 if c == 9 else 110 if c == 10 else 114)
            k += 2
        elif c < 32 or c >= 127:
            _put(out, k, 92)
            _put(out, k + 1, 120)
            _put(out, k + 2, _code(digits, c >> 4))
            _put(out, k + 3, _code(digits, c & 15))
            k += 4
        else:
            _put(out, k, c)
            k += 1
    _put(out, k, quote)
    return out


def _class_of(c: int) -> int:
    """1 digit, 2 lower, 3 upper, 4 space, 0 other (ASCII)."""
    if 48 <= c <= 57:
        return 1
    if 97 <= c <= 122:
        return 2
    if 65 <= c <= 90:
        return 3
    if is_ascii_space(c):
        return 4
    return 0


def all_in(s: str, classes: int) -> bool:
    """Whether `s` is not empty and each byte's class (`_class_of`) is a bit of `classes`:
    isdigit 2, isalpha 12, isalnum 14, isspace 16."""
    n = len(s)
    if n == 0:
        return False
    for i in range(n):
        if (classes >> _class_of(_code(s, i))) & 1 == 0:
            return False
    return True


def is_cased(s: str, want_upper: bool) -> bool:
    """bytes.isupper (`want_upper`) or bytes.islower: some cased byte, none of the other case."""
    cased = False
    for i in range(len(s)):
        k = _class_of(_code(s, i))
        if k == 2 or k == 3:
            if (k == 3) != want_upper:
                return False
            cased = True
    return cased


def _is_cased(c: int) -> bool:
    return 65 <= c <= 90 or 97 <= c <= 122


def _swap(c: int, upper: bool) -> int:
    """`c` in the case asked (ASCII letters only)."""
    if upper and 97 <= c <= 122:
        return c - 32
    if not upper and 65 <= c <= 90:
        return c + 32
    return c


def recase(s: str, how: int) -> str:
    """bytes.capitalize (`how` 0), title (1) or swapcase (2), as CPython's ASCII rules:
    title upper-cases a letter after a non-letter, lower-cases one after a letter."""
    n = len(s)
    out = _new(n)
    previous_cased = False
    for i in range(n):
        c = _code(s, i)
        if how == 0:
            d = _swap(c, i == 0)
        elif how == 1:
            d = _swap(c, not previous_cased)
            previous_cased = _is_cased(c)
        else:
            d = _swap(c, 97 <= c <= 122)
        _put(out, i, d)
    return out


def is_title(s: str) -> bool:
    cased = False
    previous_cased = False
    for i in range(len(s)):
        c = _code(s, i)
        if 65 <= c <= 90:
            if previous_cased:
                return False
            previous_cased = True
            cased = True
        elif 97 <= c <= 122:
            if not previous_cased:
                return False
            previous_cased = True
            cased = True
        else:
            previous_cased = False
    return cased


def splitlines(s: str, keepends: bool) -> list[str]:
    """bytes.splitlines: lines end at \\n, \\r or \\r\\n only."""
    n = len(s)
    out: list[str] = []
    i = 0
    while i < n:
        j = i
        while j < n and _code(s, j) != 10 and _code(s, j) != 13:
            j += 1
        eol = j
        if j < n:
            j += 2 if _code(s, j) == 13 and j + 1 < n and _code(s, j + 1) == 10 else 1
        out.append(slice_of(s, i, (j if keepends else eol) - i, 1))
        i = j
    return out


def maketrans(frm: str, to: str) -> str:
    if len(frm) != len(to):
        raise ValueError("maketrans arguments must have same length")
    table = _new(256)
    for c in range(256):
        _put(table, c, c)
    for i in range(len(frm)):
        _put(table, _code(frm, i), _code(to, i))
    return table


def translate(s: str, table: str, has_table: bool, delete: str) -> str:
    if has_table and len(table) != 256:
        raise ValueError("translation table must be 256 characters long")
    n = len(s)
    out = _new(n)
    k = 0
    for i in range(n):
        c = _code(s, i)
        dropped = False
        for j in range(len(delete)):
            if _code(delete, j) == c:
                dropped = True
                break
        if not dropped:
            _put(out, k, _code(table, c) if has_table else c)
            k += 1
    return slice_of(out, 0, k, 1)


def from_bytes(s: str, big: bool, signed: bool) -> int:
    n = len(s)
    if n == 0:
        return 0
    first = _code(s, 0 if big else n - 1)
    acc = first - 256 if signed and first >= 128 else first
    for k in range(1, n):
        acc = acc * 256 + _code(s, k if big else n - 1 - k)
    return acc


def to_bytes(x: int, length: int, big: bool, signed: bool) -> str:
    if length < 0:
        raise ValueError("length argument must be non-negative")
    if x < 0 and not signed:
        raise OverflowError("can't convert negative int to unsigned")
    out = _new(length)
    v = x
    top = 0
    for k in range(length):
        top = v & 255
        _put(out, length - 1 - k if big else k, top)
        v = v >> 8
    if length == 0:
        fits = x == 0 or signed and x == -1
    elif x >= 0:
        fits = v == 0 and (not signed or top < 128)
    else:
        fits = v == -1 and top >= 128
    if not fits:
        raise OverflowError("int too big to convert")
    return out
