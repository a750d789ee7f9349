"""String functions whose natural implementation is a loop, written in the compiled subset.

Compiled on demand (as listlib's and pylib's are) when user code uses the operation
(frontend/strings.py), and usually inlined. Each behaves exactly like CPython's, messages
included. They work on code points through four intrinsics, which the frontend lowers to
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


def hash_str(s: str) -> int:
    """A 64-bit FNV-1a hash of the code points (not CPython's hash(), which is salted):
    equal strings hash equal; for compiled dicts and sets."""
    h = -3750763034362895579            # 14695981039346656037 as an int64
    for i in range(len(s)):
        c = _code(s, i)
        for _ in range(3):
            h = (h ^ (c & 255)) * 1099511628211
            c = c >> 8
    return h


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


# ---- whitespace, stripping and splitting -------------------------------------------------

def is_space(c: int) -> bool:
    """CPython's str.isspace of one code point."""
    if c < 128:
        return c == 32 or 9 <= c <= 13 or 28 <= c <= 31
    return (c == 0x85 or c == 0xA0 or c == 0x1680 or 0x2000 <= c <= 0x200A or c == 0x2028
            or c == 0x2029 or c == 0x202F or c == 0x205F or c == 0x3000)


def strip_spaces(s: str, left: bool, right: bool) -> str:
    i = 0
    j = len(s)
    if left:
        while i < j and is_space(_code(s, i)):
            i += 1
    if right:
        while j > i and is_space(_code(s, j - 1)):
            j -= 1
    return slice_of(s, i, j - i, 1)


def strip_chars(s: str, chars: str, left: bool, right: bool) -> str:
    i = 0
    j = len(s)
    if left:
        while i < j and contains_char(chars, _code(s, i)):
            i += 1
    if right:
        while j > i and contains_char(chars, _code(s, j - 1)):
            j -= 1
    return slice_of(s, i, j - i, 1)


def split_spaces(s: str, maxsplit: int) -> list[str]:
    out: list[str] = []
    n = len(s)
    i = 0
    while i < n:
        while i < n and is_space(_code(s, i)):
            i += 1
        if i == n:
            break
        if maxsplit >= 0 and len(out) == maxsplit:
            out.append(slice_of(s, i, n - i, 1))      # the rest, as it is
            break
        j = i
        while j < n and not is_space(_code(s, j)):
            j += 1
        out.append(slice_of(s, i, j - i, 1))
        i = j
    return out


def split_sep(s: str, sep: str, maxsplit: int) -> list[str]:
    m = len(sep)
    if m == 0:
        raise ValueError("empty separator")
    out: list[str] = []
    n = len(s)
    i = 0
    while maxsplit < 0 or len(out) < maxsplit:
        k = find(s, sep, i, n)
        if k < 0:
            break
        out.append(slice_of(s, i, k - i, 1))
        i = k + m
    out.append(slice_of(s, i, n - i, 1))
    return out


def rsplit_spaces(s: str, maxsplit: int) -> list[str]:
    out: list[str] = []
    j = len(s)
    while j > 0:
        while j > 0 and is_space(_code(s, j - 1)):
            j -= 1
        if j == 0:
            break
        if maxsplit >= 0 and len(out) == maxsplit:
            out.append(slice_of(s, 0, j, 1))          # the rest, as it is
            break
        i = j
        while i > 0 and not is_space(_code(s, i - 1)):
            i -= 1
        out.append(slice_of(s, i, j - i, 1))
        j = i
    out.reverse()
    return out


def rsplit_sep(s: str, sep: str, maxsplit: int) -> list[str]:
    m = len(sep)
    if m == 0:
        raise ValueError("empty separator")
    out: list[str] = []
    j = len(s)
    while maxsplit < 0 or len(out) < maxsplit:
        k = rfind(s, sep, 0, j)
        if k < 0:
            break
        out.append(slice_of(s, k + m, j - k - m, 1))
        j = k
    out.append(slice_of(s, 0, j, 1))
    out.reverse()
    return out


def replace(s: str, old: str, new: str, limit: int) -> str:
    n = len(s)
    m = len(old)
    if limit < 0:
        limit = n + 1
    hits = count(s, old, 0, n)
    if hits > limit:
        hits = limit
    if hits == 0:
        return s
    k = len(new)
    out = _new(n + hits * (k - m))
    at = 0
    i = 0
    done = 0
    while done < hits:
        if m == 0:
            j = i
        else:
            j = find(s, old, i, n)
        for t in range(i, j):
            _put(out, at, _code(s, t))
            at += 1
        for t in range(k):
            _put(out, at + t, _code(new, t))
        at += k
        done += 1
        if m == 0:
            if j < n:
                _put(out, at, _code(s, j))
                at += 1
            i = j + 1
        else:
            i = j + m
    for t in range(i, n):
        _put(out, at, _code(s, t))
        at += 1
    return out


# ---- case and character classes: ASCII here, the rest through CPython -------------------

def is_ascii(s: str) -> bool:
    for i in range(len(s)):
        if _code(s, i) >= 128:
            return False
    return True


def lower(s: str) -> str:
    if not is_ascii(s):
        return _py("lower", s)
    n = len(s)
    out = _new(n)
    for i in range(n):
        c = _code(s, i)
        _put(out, i, c + 32 if 65 <= c <= 90 else c)
    return out


def upper(s: str) -> str:
    if not is_ascii(s):
        return _py("upper", s)
    n = len(s)
    out = _new(n)
    for i in range(n):
        c = _code(s, i)
        _put(out, i, c - 32 if 97 <= c <= 122 else c)
    return out


def isdigit(s: str) -> bool:
    if not is_ascii(s):
        return _py("isdigit", s)
    for i in range(len(s)):
        c = _code(s, i)
        if c < 48 or c > 57:
            return False
    return len(s) > 0


def isalpha(s: str) -> bool:
    if not is_ascii(s):
        return _py("isalpha", s)
    for i in range(len(s)):
        c = _code(s, i) | 32
        if c < 97 or c > 122:
            return False
    return len(s) > 0


def isalnum(s: str) -> bool:
    if not is_ascii(s):
        return _py("isalnum", s)
    for i in range(len(s)):
        c = _code(s, i)
        if not (48 <= c <= 57 or 97 <= (c | 32) <= 122):
            return False
    return len(s) > 0


def isspace(s: str) -> bool:
    for i in range(len(s)):
        if not is_space(_code(s, i)):
            return False
    return len(s) > 0


def _is_ascii_space(c: int) -> bool:
    """The spaces int() skips as they are (CPython's Py_ISSPACE); other Unicode spaces it
    first turns into these, which CPython does here (`_py`)."""
    return c == 32 or 9 <= c <= 13


def parse_int(s: str) -> int:
    """int(s): plain ASCII decimal text here (spaces, a sign, up to 18 digits), anything else
    (underscores, other digits, errors) through CPython."""
    n = len(s)
    i = 0
    while i < n and _is_ascii_space(_code(s, i)):
        i += 1
    j = n
    while j > i and _is_ascii_space(_code(s, j - 1)):
        j -= 1
    neg = False
    if i < j and (_code(s, i) == 45 or _code(s, i) == 43):
        neg = _code(s, i) == 45
        i += 1
    if i == j or j - i > 18:
        return _py("int", s)
    v = 0
    for k in range(i, j):
        c = _code(s, k)
        if c < 48 or c > 57:
            return _py("int", s)
        v = v * 10 + (c - 48)
    return -v if neg else v


def ljust(s: str, width: int, fill: int) -> str:
    n = len(s)
    if width <= n:
        return s
    out = _new(width)
    for i in range(n):
        _put(out, i, _code(s, i))
    for i in range(n, width):
        _put(out, i, fill)
    return out


def rjust(s: str, width: int, fill: int) -> str:
    n = len(s)
    if width <= n:
        return s
    pad = width - n
    out = _new(width)
    for i in range(pad):
        _put(out, i, fill)
    for i in range(n):
        _put(out, pad + i, _code(s, i))
    return out


def center(s: str, width: int, fill: int) -> str:
    n = len(s)
    if width <= n:
        return s
    pad = width - n
    left = pad // 2 + (pad & width & 1)        # CPython's rule
    out = _new(width)
    for i in range(left):
        _put(out, i, fill)
    for i in range(n):
        _put(out, left + i, _code(s, i))
    for i in range(left + n, width):
        _put(out, i, fill)
    return out


def zfill(s: str, width: int) -> str:
    n = len(s)
    if width <= n:
        return s
    pad = width - n
    out = _new(width)
    signed = n > 0 and (_code(s, 0) == 43 or _code(s, 0) == 45)
    for i in range(pad):
        _put(out, i, 48)
    for i in range(n):
        _put(out, pad + i, _code(s, i))
    if signed:
        _put(out, 0, _code(s, 0))
        _put(out, pad, 48)
    return out


def partition(s: str, sep: str) -> tuple[str, str, str]:
    m = len(sep)
    if m == 0:
        raise ValueError("empty separator")
    k = find(s, sep, 0, len(s))
    if k < 0:
        return s, "", ""
    return slice_of(s, 0, k, 1), sep, slice_of(s, k + m, len(s) - k - m, 1)


def rpartition(s: str, sep: str) -> tuple[str, str, str]:
    m = len(sep)
    if m == 0:
        raise ValueError("empty separator")
    k = rfind(s, sep, 0, len(s))
    if k < 0:
        return "", "", s
    return slice_of(s, 0, k, 1), sep, slice_of(s, k + m, len(s) - k - m, 1)


def is_line_break(c: int) -> bool:
    """The code points str.splitlines splits at."""
    return (10 <= c <= 13 or 28 <= c <= 30 or c == 0x85 or c == 0x2028 or c == 0x2029)


def splitlines(s: str, keepends: bool) -> list[str]:
    out: list[str] = []
    n = len(s)
    i = 0
    while i < n:
        j = i
        while j < n and not is_line_break(_code(s, j)):
            j += 1
        end = j
        if j < n:
            j += 2 if _code(s, j) == 13 and j + 1 < n and _code(s, j + 1) == 10 else 1
        out.append(slice_of(s, i, (j if keepends else end) - i, 1))
        i = j
    return out


def removeprefix(s: str, prefix: str) -> str:
    if startswith(s, prefix, 0, len(s)):
        return slice_of(s, len(prefix), len(s) - len(prefix), 1)
    return s


def removesuffix(s: str, suffix: str) -> str:
    if len(suffix) > 0 and endswith(s, suffix, 0, len(s)):
        return slice_of(s, 0, len(s) - len(suffix), 1)
    return s
