"""String methods that are loops, written in the compiled subset: stripping, splitting,
replacing, case and character classes, padding, int() parsing. The companion of strlib.py,
whose intrinsics and searching functions these use; compiled on demand the same way."""

from script.lib.python.strlib import _code, _new, _put, _py, endswith, find, rfind, slice_of, startswith, \
    contains_char, count


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


def _blank(c: int, ascii_only: bool) -> bool:
    """Whether `c` separates words: str.split()'s whitespace, or bytes' (`ascii_only`)."""
    return is_ascii_space(c) if ascii_only else is_space(c)


def split_spaces(s: str, maxsplit: int, ascii_only: bool) -> list[str]:
    return list(iter_split_spaces(s, maxsplit, ascii_only))


def iter_split_spaces(s: str, maxsplit: int, ascii_only: bool):
    """The parts of `s.split(None, maxsplit)` one at a time: a generator, inlined where a loop
    walks `s.split()` (strmethods.walk_str_parts), so that no list of the parts is made.
    `ascii_only`: bytes.split()'s whitespace (byteslib.py)."""
    n = len(s)
    i = 0
    parts = 0
    while i < n:
        while i < n and _blank(_code(s, i), ascii_only):
            i += 1
        if i == n:
            break
        if parts == maxsplit:
            yield slice_of(s, i, n - i, 1)      # the rest, as it is
            break
        j = i
        while j < n and not _blank(_code(s, j), ascii_only):
            j += 1
        yield slice_of(s, i, j - i, 1)
        parts += 1
        i = j


def split_sep(s: str, sep: str, maxsplit: int) -> list[str]:
    return list(iter_split_sep(s, sep, maxsplit))


def iter_split_sep(s: str, sep: str, maxsplit: int):
    m = len(sep)
    if m == 0:
        raise ValueError("empty separator")
    n = len(s)
    i = 0
    parts = 0
    while maxsplit < 0 or parts < maxsplit:
        k = find(s, sep, i, n)
        if k < 0:
            break
        yield slice_of(s, i, k - i, 1)
        parts += 1
        i = k + m
    yield slice_of(s, i, n - i, 1)


def rsplit_spaces(s: str, maxsplit: int, ascii_only: bool) -> list[str]:
    out: list[str] = []
    j = len(s)
    while j > 0:
        while j > 0 and _blank(_code(s, j - 1), ascii_only):
            j -= 1
        if j == 0:
            break
        if maxsplit >= 0 and len(out) == maxsplit:
            out.append(slice_of(s, 0, j, 1))          # the rest, as it is
            break
        i = j
        while i > 0 and not _blank(_code(s, i - 1), ascii_only):
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
    return ascii_lower(s) if is_ascii(s) else _py("lower", s)


def upper(s: str) -> str:
    return ascii_upper(s) if is_ascii(s) else _py("upper", s)


def ascii_lower(s: str) -> str:
    """`s` with ASCII's upper-case letters made lower case (bytes.lower: byteslib.py)."""
    n = len(s)
    out = _new(n)
    for i in range(n):
        c = _code(s, i)
        _put(out, i, c + 32 if 65 <= c <= 90 else c)
    return out


def ascii_upper(s: str) -> str:
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


def is_ascii_space(c: int) -> bool:
    """The spaces int() skips as they are (CPython's Py_ISSPACE); other Unicode spaces it
    first turns into these, which CPython does here (`_py`)."""
    return c == 32 or 9 <= c <= 13


def parse_int(s: str) -> int:
    """int(s): plain ASCII decimal text here (spaces, a sign, up to 18 digits), anything else
    (underscores, other digits, errors) through CPython."""
    n = len(s)
    i = 0
    while i < n and is_ascii_space(_code(s, i)):
        i += 1
    j = n
    while j > i and is_ascii_space(_code(s, j - 1)):
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


def parse_float(s: str) -> float:
    """float(s), by CPython: a call of its own, so that a ``try`` around it catches its
    ValueError as it catches a callee's (frontend.exceptions routes calls, not `str_py`)."""
    return _py("float", s)


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
    return list(iter_splitlines(s, keepends))


def iter_splitlines(s: str, keepends: bool):
    n = len(s)
    i = 0
    while i < n:
        j = i
        while j < n and not is_line_break(_code(s, j)):
            j += 1
        end = j
        if j < n:
            j += 2 if _code(s, j) == 13 and j + 1 < n and _code(s, j + 1) == 10 else 1
        yield slice_of(s, i, (j if keepends else end) - i, 1)
        i = j


def removeprefix(s: str, prefix: str) -> str:
    if startswith(s, prefix, 0, len(s)):
        return slice_of(s, len(prefix), len(s) - len(prefix), 1)
    return s


def removesuffix(s: str, suffix: str) -> str:
    if len(suffix) > 0 and endswith(s, suffix, 0, len(s)):
        return slice_of(s, 0, len(s) - len(suffix), 1)
    return s


# ---- str.maketrans and str.translate (strmethods.py) -----------------------------------------

def maketrans(x: str, y: str, z: str):
    """str.maketrans(x, y, z) as compiled code keeps it: each character to its replacement
    (a str; "" for those of z, deleted)."""
    if len(x) != len(y):
        raise ValueError("the first two maketrans arguments must have equal length")
    table = {"": ""}
    table.clear()
    for i in range(len(x)):
        table[x[i]] = y[i]
    for c in z:
        table[c] = ""
    return table


def translate_chars(s: str, table) -> str:
    """s.translate(table) of a table of maketrans (characters to strs)."""
    out = []
    for c in s:
        out.append(table.get(c, c))
    return "".join(out)


def translate_ords(s: str, table) -> str:
    """s.translate(table) of a dict of ordinals to strs."""
    out = []
    for c in s:
        out.append(table.get(ord(c), c))
    return "".join(out)


def translate_ord_ords(s: str, table) -> str:
    """s.translate(table) of a dict of ordinals to ordinals."""
    out = []
    for c in s:
        k = ord(c)
        out.append(chr(table[k]) if k in table else c)
    return "".join(out)



def expandtabs(s: str, tabsize: int) -> str:
    """str.expandtabs: each tab to spaces up to the next column that is a multiple of
    `tabsize` (none when `tabsize` <= 0), columns counted from the last newline or return."""
    n = len(s)
    size = 0
    col = 0
    for i in range(n):
        c = _code(s, i)
        if c == 9:
            if tabsize > 0:
                size += tabsize - col % tabsize
                col += tabsize - col % tabsize
        else:
            size += 1
            col = 0 if c == 10 or c == 13 else col + 1
    out = _new(size)
    k = 0
    col = 0
    for i in range(n):
        c = _code(s, i)
        if c == 9:
            if tabsize > 0:
                incr = tabsize - col % tabsize
                for _ in range(incr):
                    _put(out, k, 32)
                    k += 1
                col += incr
        else:
            _put(out, k, c)
            k += 1
            col = 0 if c == 10 or c == 13 else col + 1
    return out
